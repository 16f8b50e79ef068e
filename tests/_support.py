"""Helpers shared by the test modules (on sys.path through conftest.py)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"


def load_tool(name: str) -> Any:
    """Import ``tools/<name>.py`` as a module (the generators of tests/data)."""
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Return the JSON objects of a .jsonl file, one per non-blank line."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def finish_game_hand(g: Any) -> None:
    """Play the current hand of a ``Game`` to its end: the first bidder opens
    at the minimum, everyone else passes, then the first legal action each turn."""
    from rook_core.actions import BID, PASS, Phase
    n = g.hand_number
    while g.hand_number == n and not g.is_over:
        h = g.current
        if h.phase == Phase.BID:
            g.apply(BID + h.variant.min_bid if h.high_bid == 0 else PASS)
        else:
            g.apply(h.legal_actions()[0])


# ------------------------------------------------- hands at each phase (seat 1 declares)

def random_nest(variant: Any, seed: int, step: int = 1) -> Any:
    """A hand of ``variant`` at the declarer's nest decision (T-20), the bidding
    at random from ``seed``; a hand that everyone passed (T-6) is skipped by
    moving ``seed`` on by ``step``."""
    import random

    from rook_core import HandState, Phase
    rng = random.Random(seed)
    while True:
        h = HandState.deal(variant, seed)
        while h.phase not in (Phase.NEST, Phase.THROWN_IN):
            h.apply(rng.choice(h.legal_actions()))
        if h.phase == Phase.NEST:
            return h
        seed += step


def nest_phase(preset: Any = "tournament") -> Any:
    """Deal 1 of ``preset`` (dealer 0) with seat 1 the declarer at 70, at its nest (T-7)."""
    from rook_core import HandState, Phase
    h = HandState.deal(preset, seed=1, dealer=0)
    h.bid(70)             # seat 1
    for _ in range(3):
        h.pass_bid()
    assert h.phase == Phase.NEST and h.to_move == 1
    return h


def trump_phase() -> Any:
    """The ``tournament`` hand of :func:`nest_phase` after its discard, at trump."""
    from rook_core import Phase
    h = nest_phase()
    h.discard(list(h.hand(1))[:5])
    assert h.phase == Phase.TRUMP
    return h


def widow_phase() -> Any:
    """Deal 1 of ``partnership-57`` with seat 1 the declarer, trump named, at
    its exchange with the widow (T-21)."""
    from rook_core import HandState, Phase
    h = HandState.deal("partnership-57", seed=1, dealer=0)
    h.bid(70)
    for _ in range(3):
        h.pass_bid()
    h.name_trump("R")
    assert h.phase == Phase.NEST
    return h


def pass_phase() -> Any:
    """The hand of :func:`widow_phase` after its exchange, at the passing of cards (T-22)."""
    from rook_core import Phase
    h = widow_phase()
    h.discard([list(h.hand(1))[0]])
    assert h.phase == Phase.PASS and h.to_move == 1
    return h


def doubled_at_address(base: Any, address: int, tag: str) -> Any:
    """A variant of ``base`` with every counter worth twice as much, made anew
    (named ``tag-i``) until its native rules sit at ``address``, where rules
    that were let go had been (the last one made when none lands there): the
    table must not read the old rules' entries as its own."""
    from rook_core._native import rules
    doubled = tuple((r, 2 * p) for r, p in base.counters)
    for i in range(4 * rules.RULES_KEPT):
        made = base.replace(name=f"{tag}-{i}", counters=doubled)
        if id(rules.rules_for(made)) == address:
            break
    return made


# A small variant's fields for quick searches (five cards a hand, ranks 9..14):
# the tests of the analyses' misuse build their variants on them.
MINI_FIELDS: dict[str, Any] = dict(ranks=tuple(range(9, 15)), hand_size=5, nest_size=5,
                                   counters=((10, 10), (14, 10), ("Rook", 20)), min_bid=20, max_bid=60, bid_step=5)


def played_to_end(variant: Any, seed: int = 1) -> Any:
    """A hand of ``variant`` played to its end at random, with a play: the
    first seed from ``seed`` whose bidding was not all passes."""
    import random

    from rook_core import HandState
    rng = random.Random(seed)
    while True:
        h = HandState.deal(variant, seed)
        while not h.is_over:
            h.apply(rng.choice(h.legal_actions()))
        if h.trump is not None:
            return h
        seed += 1
