"""Native rule kernels == the pure-Python reference on random cases.

``rook_core._native.rules`` (``src/rook/rules.h``) against
``rook_core._reference.tricks`` for legal cards (T-9, T-10), trick winners
(C-4, T-11) and card points (T-12), plus whole random hands played through
``HandState`` and ``RefPlay`` side by side (T-8 .. T-14).

Every case comes from a seeded ``random.Random``, so a failure is
reproducible; the assertion message prints the failing cases in card
notation.  Sizes: ``SEED_N`` cases per seed preset (``SEED_PRESETS``) and
``OTHER_N`` for the section 4 presets and for a few variants that turn the
C-4 / T-9 knobs away from the presets.  The native side runs over the whole
batch in one tight loop; the reference is the slow part.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from typing import Any

import pytest

from rook_core import HandState
from rook_core._native.rules import rules_for
from rook_core._reference.tricks import RefPlay, card_points, deck_cards, legal_cards, play_card, trick_winner
from rook_core.cards import BIRD, CardSet, card_name, color_name
from rook_core.variant import PRESETS, SEED_PRESETS, Variant

SEED_N = 100_000
OTHER_N = 10_000
PLAYOUTS_SEED = 1_000
PLAYOUTS_OTHER = 300
SHOW = 8  # failing cases printed per assertion

# Variants beyond the presets that turn the knobs of C-4 and T-9.
KNOBS: dict[str, Variant] = {
    "tournament+bird10.5": Variant.from_preset("tournament", bird_rank=10.5),
    "partnership-57+birdlow": Variant.from_preset("partnership-57", bird_rank="low"),
    "partnership-57+bird7.5+anytime": Variant.from_preset(
        "partnership-57", bird_rank=7.5, bird_anytime=True),
    "buckeye+bird14.5": Variant.from_preset("buckeye", bird_rank=14.5),
    "red-one+must_trump": Variant.from_preset("red-one", must_trump=True, bird_anytime=False),
    "crowsnest+must_trump": Variant.from_preset("crowsnest", must_trump=True),
}

VARIANTS: dict[str, tuple[Variant, int]] = {}
for _name in SEED_PRESETS:
    VARIANTS[_name] = (PRESETS[_name], SEED_N)
for _name, _v in PRESETS.items():
    VARIANTS.setdefault(_name, (_v, OTHER_N))
for _name, _v in KNOBS.items():
    VARIANTS[_name] = (_v, OTHER_N)
NAMES = list(VARIANTS)


def _rng(test: str, name: str) -> random.Random:
    return random.Random(zlib.crc32(f"{test}/{name}".encode()))


def _mask(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _cards(cards: Any) -> str:
    return "[" + " ".join(card_name(c) for c in cards) + "]"


def _mask_text(mask: int) -> str:
    return "{" + str(CardSet(mask)) + "}"


def _report(name: str, what: str, n: int, bad: list[str]) -> str:
    shown = "\n  ".join(bad[:SHOW])
    return f"{name}: {len(bad)} of {n} {what} differ (native vs reference):\n  {shown}"


def _bird_in(variant: Variant, cards: list[int], rng: random.Random, p: float) -> None:
    """Put the bird at a random place of ``cards`` with probability ``p``."""
    if variant.bird and BIRD not in cards and cards and rng.random() < p:
        cards[rng.randrange(len(cards))] = BIRD


# ----------------------------------------------------------------- T-9, T-10

def _legal_cases(variant: Variant, n: int, rng: random.Random) -> list[tuple[list[int], list[int], int]]:
    """Random hands of 1..hand_size cards (the bird often among them), a random
    trick of 0..3 other cards (empty: leading; the bird sometimes led), a
    random trump."""
    deck = sorted(deck_cards(variant))
    cases = []
    for _ in range(n):
        trump = rng.randrange(4)
        k = rng.randint(1, variant.hand_size)
        t = 0 if rng.random() < 0.1 else rng.randint(1, 3)
        cards = rng.sample(deck, k + t)
        hand, trick = cards[:k], cards[k:]
        if variant.bird and BIRD not in hand and rng.random() < 0.35:
            if BIRD in trick:
                trick[trick.index(BIRD)] = hand[0]
            hand[0] = BIRD
        elif trick and BIRD not in trick and BIRD not in hand and rng.random() < 0.1:
            if variant.bird:
                trick[0] = BIRD  # T-10: the bird led
        cases.append((hand, trick, trump))
    return cases


@pytest.mark.parametrize("name", NAMES)
def test_T9_T10_legal_parity(name: str) -> None:
    variant, n = VARIANTS[name]
    rules = rules_for(variant)
    cases = _legal_cases(variant, n, _rng("legal", name))
    legal_mask = rules.legal_mask
    native = [legal_mask(_mask(hand), trick[0] if trick else -1, trump)
              for hand, trick, trump in cases]
    bad = []
    for (hand, trick, trump), got in zip(cases, native):
        want = _mask(legal_cards(variant, hand, trick, trump))
        if got != want:
            bad.append(f"hand={_cards(hand)} trick={_cards(trick)} trump={color_name(trump)}: "
                       f"native {_mask_text(got)} != reference {_mask_text(want)}")
    assert not bad, _report(name, "legal sets (T-9, T-10)", n, bad)


# ----------------------------------------------------------------- C-4, T-11

@pytest.mark.parametrize("name", NAMES)
def test_C4_T11_trick_winner_parity(name: str) -> None:
    variant, n = VARIANTS[name]
    rules = rules_for(variant)
    rng = _rng("winner", name)
    deck = sorted(deck_cards(variant))
    cases = []
    for _ in range(n):
        cards = rng.sample(deck, rng.randint(1, 4))
        _bird_in(variant, cards, rng, 0.3)
        cases.append((cards, rng.randrange(4)))
    winner = rules.trick_winner
    native = [winner(cards, trump) for cards, trump in cases]
    bad = []
    for (cards, trump), got in zip(cases, native):
        want = trick_winner(variant, cards, trump)
        if got != want:
            bad.append(f"trick={_cards(cards)} trump={color_name(trump)}: native wins with "
                       f"{card_name(cards[got])} (index {got}), reference with "
                       f"{card_name(cards[want])} (index {want})")
    assert not bad, _report(name, "trick winners (C-4, T-11)", n, bad)


# ---------------------------------------------------------------------- T-12

@pytest.mark.parametrize("name", NAMES)
def test_T12_points_parity(name: str) -> None:
    variant, n = VARIANTS[name]
    rules = rules_for(variant)
    rng = _rng("points", name)
    deck = sorted(deck_cards(variant))
    cases = [rng.sample(deck, rng.randint(0, len(deck))) for _ in range(n)]
    points = rules.points
    native = [points(_mask(cards)) for cards in cases]
    bad = []
    for cards, got in zip(cases, native):
        want = card_points(variant, cards)
        if got != want:
            bad.append(f"cards={_cards(sorted(cards))}: native {got} != reference {want}")
    assert not bad, _report(name, "point counts (T-12)", n, bad)


# ----------------------------------------------------------- T-8 .. T-14

def _deal_position(variant: Variant, rng: random.Random) -> dict[str, Any]:
    deck = sorted(deck_cards(variant))
    rng.shuffle(deck)
    size = variant.hand_size
    hands = [deck[s * size:(s + 1) * size] for s in range(4)]
    return {"preset": variant.name, "trump": color_name(rng.randrange(4)),
            "leader": rng.randrange(4), "trick": [],
            "hands": [[card_name(c) for c in h] for h in hands],
            "nest_points": card_points(variant, deck[4 * size:])}


def _play_out(variant: Variant, rng: random.Random, check: Callable[[bool, str], None]) -> None:
    pos = _deal_position(variant, rng)
    if variant.name not in PRESETS:
        pos["variant"] = variant.to_dict()
        del pos["preset"]
    native = HandState.from_position(pos)
    ref = RefPlay(variant, "BGRY".index(pos["trump"]), pos["leader"], [],
                  [set(_parse(h)) for h in pos["hands"]], [0, 0], pos["nest_points"])
    played: list[str] = []
    while not ref.is_over:
        where = f"after {' '.join(played) or 'nothing'} from {pos}"
        want = _mask(ref.legal())
        got = native.legal_mask()
        check(got == want, f"legal cards of seat {ref.to_move}: native {_mask_text(got)} "
                           f"!= reference {_mask_text(want)} {where}")
        check(native.to_move == ref.to_move,
              f"seat to move: native {native.to_move} != reference {ref.to_move} {where}")
        card = rng.choice(sorted(ref.legal()))
        played.append(card_name(card))
        ref = play_card(ref, card)
        native.apply(card)
        check(tuple(native.points) == tuple(ref.points),
              f"points: native {native.points} != reference {ref.points} "
              f"after {' '.join(played)} from {pos}")
    check(native.is_over, f"native hand not over after every card was played from {pos}")


def _parse(cards: list[str]) -> list[int]:
    from rook_core.cards import parse_card
    return [int(parse_card(c)) for c in cards]


@pytest.mark.parametrize("name", NAMES)
def test_T8_T14_playout_parity(name: str) -> None:
    variant, n = VARIANTS[name]
    hands = PLAYOUTS_SEED if n == SEED_N else PLAYOUTS_OTHER
    rng = _rng("playout", name)
    bad: list[str] = []

    def check(ok: bool, message: str) -> None:
        if not ok:
            bad.append(message)
            raise _Stop

    for _ in range(hands):
        try:
            _play_out(variant, rng, check)
        except _Stop:
            pass
    assert not bad, _report(name, "random hands (T-8 .. T-14)", hands, bad)


class _Stop(Exception):
    """Ends one play-out at its first difference."""


def test_parity_sizes() -> None:
    """The brief's floor: 100,000 random cases per seed preset and kernel."""
    for name in SEED_PRESETS:
        assert VARIANTS[name][1] >= 100_000
    assert set(PRESETS) <= set(VARIANTS)
