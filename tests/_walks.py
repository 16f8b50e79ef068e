"""What the Hypothesis properties of tests/test_properties*.py share: the
variants they run on (every preset and two KNOBS variants), the strategies
and budgets, and the random walk through a hand that each property checks
along the way."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st

from rook_core import (
    PRESETS,
    SEED_PRESETS,
    HandState,
    Variant,
    action_name,
)
from rook_core.actions import PENALTY
from rook_core.cards import card_name, parse_card
from rook_core.errors import NotationError

# The seed presets, then section 4, then variants that turn the knobs the
# presets leave alone (first lead, nest to declarer, buried counters, step order).
KNOBS: dict[str, Variant] = {
    "tournament+declarer-leads+nest-to-declarer+no-counter-discards": Variant.from_preset(
        "tournament", first_lead="declarer", nest_to="declarer", discard_counters=False),
    "partnership-57+nest-pass-trump+declarer-leads+jumps": Variant.from_preset(
        "partnership-57", post_bid_order=("nest", "pass", "trump"), first_lead="declarer",
        jump_bids=True, opener_must_bid=False, bird_rank=10.5),
}
VARIANTS: dict[str, Variant] = {p: PRESETS[p] for p in SEED_PRESETS}
VARIANTS.update({p: v for p, v in PRESETS.items() if p not in SEED_PRESETS})
VARIANTS.update(KNOBS)
ALL_PRESETS = list(VARIANTS)

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
DEALERS = st.integers(min_value=0, max_value=3)
C_INT_MIN, C_INT_MAX = -(2**31), 2**31 - 1

# One budget for the whole file (about 30 s on a small machine): every test
# runs once per variant (11), so the per-test counts are small.  Set
# ROOK_PROPERTY_SCALE (e.g. 50) for a deeper hunt with the same tests.
SCALE = float(os.environ.get("ROOK_PROPERTY_SCALE", "1"))
HEALTH = [HealthCheck.too_slow, HealthCheck.large_base_example]
FAST = settings(max_examples=max(1, round(10 * SCALE)), deadline=None, suppress_health_check=HEALTH)
SLOW = settings(max_examples=max(1, round(5 * SCALE)), deadline=None, suppress_health_check=HEALTH)

preset_param = pytest.mark.parametrize("preset", ALL_PRESETS)


# ----------------------------------------------------------------- helpers
class _Where:
    """A replayable description of a hand for assertion messages, built only
    when a message is printed (the hand's state at that moment)."""

    def __init__(self, h: HandState, seed: int, dealer: int, prefix: str = "") -> None:
        self.h, self.seed, self.dealer, self.prefix = h, seed, dealer, prefix

    def __str__(self) -> str:
        h = self.h
        return (f"{self.prefix}{h.variant.name} seed={self.seed} dealer={self.dealer} "
                f"phase={h.phase.label} history={[action_name(a) for a in h.history]}")


def _where(h: HandState, seed: int, dealer: int, prefix: str = "") -> _Where:
    """Return a lazy replayable description of ``h`` (see :class:`_Where`)."""
    return _Where(h, seed, dealer, prefix)


MAX_PENALTIES = 3  # per walk: Hypothesis likes repeating a choice, which would make walks endless


def _choose(data: st.DataObject, h: HandState, penalties: bool) -> int:
    """Draw the next action: an index into the legal list, or now and then a penalty (T-35)."""
    legal = h.legal_actions()
    assert legal, f"no legal action before the end of the hand ({h!r})"
    if penalties and data.draw(st.integers(0, 15), label="penalty?") == 7:
        return PENALTY + data.draw(st.integers(0, 1), label="penalty team")
    return legal[data.draw(st.integers(0, len(legal) - 1), label="legal index")]


def _walk(data: st.DataObject, h: HandState, *, penalties: bool = False,
          before: Callable[[HandState, int], None] | None = None,
          after: Callable[[HandState], None] | None = None) -> HandState:
    """Play drawn actions on ``h`` until the hand is over; call the hooks around each.

    At most ``MAX_PENALTIES`` penalty actions are drawn, so the walk is finite."""
    if after is not None:
        after(h)
    n_pen = 0
    while not h.is_over:
        a = _choose(data, h, penalties and n_pen < MAX_PENALTIES)
        n_pen += a in (PENALTY, PENALTY + 1)
        if before is not None:
            before(h, a)
        h.apply(a)
        if after is not None:
            after(h)
    event(f"hand ends {h.phase.label}")
    return h


def _deal(preset: str, data: st.DataObject) -> tuple[HandState, int, int]:
    seed = data.draw(SEEDS, label="seed")
    dealer = data.draw(DEALERS, label="dealer")
    return HandState.deal(VARIANTS[preset], seed=seed, dealer=dealer), seed, dealer


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_CARD_IDS: dict[str, int] = {}
for _c in range(64):
    try:
        _CARD_IDS[card_name(_c).lower()] = _c
    except NotationError:
        pass
_CARD_IDS["crow"] = int(parse_card("Crow"))


def _card_names_in(obj: Any) -> set[int]:
    """Return the ids of every card written anywhere in ``obj`` (keys and values)."""
    found: set[int] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, str):
            c = _CARD_IDS.get(x.strip().lower())
            if c is not None:
                found.add(c)
    return found


def _mask(cards: set[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def random_hand_states(preset: str, seed: int) -> Iterator[HandState]:
    """Yield one hand at every step of a seeded random walk to its end (the same
    object, changed in place after each yield)."""
    import random
    h = HandState.deal(preset, seed=seed)
    rng = random.Random(seed)
    while True:
        yield h
        if h.is_over:
            return
        h.apply(rng.choice(h.legal_actions()))
