"""The contract solver against a brute force written here from RULES.md alone
(TV-2, TV-4, TV-5, TV-7, TV-12), over many random hands.

The brute force takes the lowest natural card left and tries every meld that
holds it (a set of its rank, a run of its color through it, any of the
other cards given by a bird), or leaves it as deadwood; birds left alone are
deadwood.  A meld counts toward the contract or is a further meld (TV-7).
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from rook_core.toonerville.hand import MultiHand
from rook_core.toonerville.melds import is_run, is_set
from rook_core.toonerville.solver import solve_contract

BIRD = 15


def card(color: int, rank: int) -> int:
    return 16 * color + rank


def points(c: int) -> int:
    """TV-12: ranks 1-9 -> 5, 10-14 -> 10, the bird -> 25."""
    return 25 if c == BIRD else (5 if c % 16 <= 9 else 10)


def melds_holding(counts: list[int], c: int, f: Fraction) -> set[tuple[str, tuple[int, ...]]]:
    """Every set and run (TV-4) within the wild limit (TV-5) that holds the natural ``c``."""
    out: set[tuple[str, tuple[int, ...]]] = set()
    rank, color, birds = c % 16, c // 16, counts[BIRD]
    same = [card(k, rank) for k in range(4)]
    for take in product(*(range(counts[x] + 1 - (x == c)) for x in same)):
        nat = [c] + [x for x, k in zip(same, take) for _ in range(k)]
        for b in range(birds + 1):
            n = len(nat) + b
            if n >= 3 and b < f * n:
                out.add(("set", tuple(sorted(nat)) + (BIRD,) * b))
    for lo in range(1, rank + 1):
        for hi in range(max(rank, lo + 3), 15):
            others = [card(color, r) for r in range(lo, hi + 1) if r != rank]
            for pick in product(*(([x] if counts[x] else []) + [BIRD] for x in others)):
                b = pick.count(BIRD)
                if b <= birds and b < f * (len(pick) + 1):
                    out.add(("run", tuple(sorted((c,) + pick))))
    return out


def brute_force(counts: list[int], sets: int, runs: int, fraction: float) -> int | None:
    """The least TV-12 deadwood of a lay-down holding ``sets`` sets and ``runs`` runs, or None."""
    f = Fraction(fraction).limit_denominator(1000)

    @cache
    def best(key: tuple[int, ...], s: int, r: int) -> int | None:
        cnt = list(key)
        naturals = [x for x in range(64) if x != BIRD and cnt[x]]
        if not naturals:
            return 25 * cnt[BIRD] if s == r == 0 else None
        c = naturals[0]
        cnt[c] -= 1
        sub = best(tuple(cnt), s, r)
        cnt[c] += 1
        found = None if sub is None else sub + points(c)
        for kind, meld in melds_holding(cnt, c, f):
            for x in meld:
                cnt[x] -= 1
            rest = tuple(cnt)
            for x in meld:
                cnt[x] += 1
            for s2, r2 in {(s, r), (s - (kind == "set" and s > 0), r - (kind == "run" and r > 0))}:
                sub = best(rest, s2, r2)
                if sub is not None and (found is None or sub < found):
                    found = sub
        return found

    return best(tuple(counts), sets, runs)


def random_hand(rnd: random.Random) -> list[int]:
    """A hand dense in melds: one to three colors over a few ranks, some birds,
    at most five copies of a card (TV-1)."""
    while True:
        size = rnd.randint(4, 16)
        colors = rnd.sample(range(4), rnd.choice([1, 1, 2, 3]))
        lo = rnd.randint(1, 12)
        hi = min(14, lo + rnd.randint(2, 7))
        cards = [BIRD] * rnd.choice([0, 0, 1, 1, 2, 3])
        cards += [card(rnd.choice(colors), rnd.randint(lo, hi)) for _ in range(size - len(cards))]
        counts = [0] * 64
        for c in cards:
            counts[c] += 1
        if max(counts) <= 5:
            return counts


@pytest.mark.parametrize("seed", range(6))
def test_TV2_TV4_TV5_TV7_TV12_solver_equals_an_independent_brute_force(seed: int) -> None:
    rnd = random.Random(seed)
    met = 0
    for _ in range(80):
        sets, runs = rnd.choice([(2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3), (0, 1), (1, 0)])
        fraction = rnd.choice([0.5, 0.5, 0.5, 1 / 3, 0.75, 1])
        counts = random_hand(rnd)
        hand = MultiHand.from_counts(counts)
        want = brute_force(counts, sets, runs, fraction)
        got = solve_contract(hand, {"sets": sets, "runs": runs}, fraction)
        assert (got.can_meet, got.deadwood) == (want is not None, want), (str(hand), sets, runs, fraction)
        if got.can_meet:
            met += 1
            assert all(is_set(m, fraction) for m in got.melds[:sets])
            assert all(is_run(m, fraction) for m in got.melds[sets:sets + runs])
            assert all(is_set(m, fraction) or is_run(m, fraction) for m in got.melds)
            laid = MultiHand(c for m in got.melds for c in m)
            assert laid <= hand and (hand - laid).points() == got.deadwood
    assert met >= 12                        # the hands exercise the met case too
