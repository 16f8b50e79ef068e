"""The Toonerville contract problem by brute force (TV-2, TV-4, TV-5, TV-7, TV-12).

Given a hand (a multiset, TV-1) and a contract of ``s`` sets and ``r`` runs:
can the hand lay the contract down, and with what least deadwood (the TV-12
points of the cards left in hand) once any further melds of the same hand
are laid too (TV-7)?  The oracle for the native contract kernel: slow and
plain.

Every candidate meld of a hand is listed by :func:`candidate_melds`, which
shares no code with the product's meld generator: it goes over every
sub-multiset of one rank's naturals with some birds (the possible sets) and
of one color's naturals, one card per rank, with some birds (the possible
runs), and keeps those that the rules' own words accept: a set is 3 or more
cards of one rank (TV-4), a run 4 or more cards of one color whose naturals
have distinct ranks and fit with the birds in consecutive ranks 1..14
(TV-4), and fewer than ``max_wild_fraction`` of a meld's cards are birds
(TV-5).

The search picks ``s`` sets and ``r`` runs that fit in the hand together
(in a fixed order, so no choice is tried twice), then lays further melds to
leave the least deadwood.

>>> r = solve_contract(MultiHand.parse("B7 G7 R7 Y9 Y9 B9 R3 R4 R5 R6 G2 Rook"), 1)
>>> r.can_meet, r.deadwood            # B7 G7 Rook, B9 Y9 Y9, then R3-R7: G2 is left
(True, 5)
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from .. import _layout as L
from ..toonerville.contracts import Contract, ContractResult, contract_for
from ..toonerville.hand import MultiHand, card_points

__all__ = ["ContractResult", "candidate_melds", "solve_contract"]

Counts = tuple[int, ...]


def _wild_ok(birds: int, cards: int, fraction: Fraction) -> bool:
    """TV-5: fewer than ``fraction`` of the meld's cards are birds."""
    return birds < fraction * cards


def _is_set(naturals: list[int], birds: int, fraction: Fraction) -> bool:
    """TV-4, TV-5: 3 or more cards, the naturals all of one rank."""
    n = len(naturals) + birds
    return (n >= 3 and bool(naturals) and len({c & 15 for c in naturals}) == 1
            and _wild_ok(birds, n, fraction))


def _is_run(naturals: list[int], birds: int, fraction: Fraction) -> bool:
    """TV-4, TV-5: 4 or more cards of one color in consecutive ranks (no
    wrap): the naturals' ranks are distinct and, with the birds standing for
    the missing ones, fill a span inside 1..14."""
    n = len(naturals) + birds
    if n < 4 or n > 14 or not naturals or len({c >> 4 for c in naturals}) != 1:
        return False
    ranks = sorted(c & 15 for c in naturals)
    if len(set(ranks)) != len(ranks):
        return False
    return ranks[-1] - ranks[0] + 1 <= n and _wild_ok(birds, n, fraction)


def _sub_multisets(cards: list[tuple[int, int]]) -> list[list[int]]:
    """Every sub-multiset of ``cards`` (pairs of card id and copies held), as card lists."""
    out: list[list[int]] = [[]]
    for card, copies in cards:
        out = [m + [card] * k for m in out for k in range(copies + 1)]
    return out


def candidate_melds(counts: Counts, fraction: Fraction) -> list[tuple[str, Counts]]:
    """Return every meld (kind, counts) the multiset ``counts`` can lay (TV-4, TV-5),
    each distinct count vector once per kind."""
    birds = counts[L.BIRD]
    found: dict[tuple[str, Counts], None] = {}

    def keep(kind: str, naturals: list[int], b: int) -> None:
        m = [0] * L.N_CARD_IDS
        for c in naturals:
            m[c] += 1
        m[L.BIRD] = b
        found[(kind, tuple(m))] = None

    for rank in range(L.MIN_RANK, L.MAX_RANK + 1):
        held = [(L.card_id(c, rank), counts[L.card_id(c, rank)]) for c in range(L.N_COLORS)]
        for naturals in _sub_multisets([h for h in held if h[1]]):
            for b in range(birds + 1):
                if _is_set(naturals, b, fraction):
                    keep("set", naturals, b)
    for color in range(L.N_COLORS):
        held = [(L.card_id(color, r), 1) for r in range(L.MIN_RANK, L.MAX_RANK + 1)
                if counts[L.card_id(color, r)]]
        for naturals in _sub_multisets(held):
            for b in range(birds + 1):
                if _is_run(naturals, b, fraction):
                    keep("run", naturals, b)
    return list(found)


def _fits(m: Counts, rem: Counts) -> bool:
    return all(a <= b for a, b in zip(m, rem))


def _minus(rem: Counts, m: Counts) -> Counts:
    return tuple(a - b for a, b in zip(rem, m))


def _points(counts: Counts) -> int:
    return sum(card_points(c) * k for c, k in enumerate(counts) if k)


def _cards(m: Counts) -> list[int]:
    return [c for c in sorted(range(L.N_CARD_IDS), key=lambda c: (c == L.BIRD, c)) for _ in range(m[c])]


def solve_contract(hand: MultiHand, contract: Contract | int | dict[str, int],
                   max_wild_fraction: float = 0.5) -> ContractResult:
    """Return whether ``hand`` meets ``contract`` and its least deadwood (see the module docstring)."""
    con = contract if isinstance(contract, Contract) else contract_for(contract)
    fraction = Fraction(max_wild_fraction).limit_denominator(1000)
    start: Counts = hand.counts()

    @cache
    def melds_of(rem: Counts) -> tuple[tuple[str, Counts], ...]:
        return tuple(candidate_melds(rem, fraction))

    @cache
    def rest(rem: Counts) -> tuple[int, tuple[Counts, ...]]:
        """The least deadwood of ``rem`` with any further melds, and those melds."""
        best: tuple[int, tuple[Counts, ...]] = (_points(rem), ())
        for _, m in melds_of(rem):
            d, ms = rest(_minus(rem, m))
            if d < best[0]:
                best = (d, (m,) + ms)
        return best

    full = melds_of(start)
    sets = [m for k, m in full if k == "set"]
    runs = [m for k, m in full if k == "run"]
    best: tuple[int, list[Counts]] | None = None

    def pick(rem: Counts, need_sets: int, need_runs: int, from_set: int, from_run: int,
             chosen: list[Counts]) -> None:
        nonlocal best
        if need_sets:
            for i in range(from_set, len(sets)):
                if _fits(sets[i], rem):
                    pick(_minus(rem, sets[i]), need_sets - 1, need_runs, i, from_run, chosen + [sets[i]])
            return
        if need_runs:
            for i in range(from_run, len(runs)):
                if _fits(runs[i], rem):
                    pick(_minus(rem, runs[i]), 0, need_runs - 1, from_set, i, chosen + [runs[i]])
            return
        d, extra = rest(rem)
        if best is None or d < best[0]:
            best = (d, chosen + list(extra))

    pick(start, con.sets, con.runs, 0, 0, [])
    if best is None:
        return ContractResult(False, None, [])
    return ContractResult(True, best[0], [_cards(m) for m in best[1]])
