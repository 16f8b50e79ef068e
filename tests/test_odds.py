"""``rook odds`` and :mod:`rook_core.odds`: the double-dummy odds of making each bid."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from rook_core import HandState, NotationError, RookError, Variant
from rook_core.bots.heuristic import HeuristicAgent
from rook_core.odds import bid_odds, declared_at_lowest, play_position
from rook_core.solver import Solver

SMALL_HOUSE = Variant(name="small-house", ranks=(10, 11, 12, 13, 14), hand_size=4, nest_size=5, min_bid=30,
                      max_bid=100, counters=((10, 10), (14, 10), ("Rook", 20)), nest_to="declarer",
                      first_lead="declarer", post_bid_order=("nest", "trump", "discard"),
                      discard_counters=False, discard_trump_counters=True, exposed_nest=True)


@pytest.mark.parametrize(("variant", "seat"), [("tournament", 1), ("crowsnest", 2), (SMALL_HOUSE, 0),
                                               (SMALL_HOUSE, 3)])
def test_each_sample_is_the_declarers_exact_double_dummy_points_clipped(variant: Variant | str, seat: int) -> None:
    h = HandState.deal(variant, seed=4)
    v = h.variant
    mine = h.hand_mask(seat)
    odds = bid_odds(v, h.hand(seat).names(), seat=seat, worlds=6, seed=9)
    # the same deals, solved exactly and one by one
    rng = random.Random(9)
    unseen = [c for c in range(64) if v.deck_mask >> c & 1 and not mine >> c & 1]
    agents = [HeuristicAgent(v, s) for s in range(4)]
    solver = Solver()
    for w in range(6):
        rng.shuffle(unseen)
        hands, k = [0] * 4, 0
        for s in range(4):
            if s != seat:
                hands[s] = sum(1 << c for c in unseen[k:k + v.hand_size])
                k += v.hand_size
            else:
                hands[s] = mine
        declared = declared_at_lowest(v, seat, hands, sum(1 << c for c in unseen[k:]))
        assert declared.declarer == seat
        for t in range(4):
            p = play_position(declared, t, agents)
            assert p.trump == t
            value = solver.value(p)
            held = p.nest_points if v.nest_to == "declarer" else 0
            points = (value + held) if seat % 2 == 0 else v.total_points - value
            assert odds.samples[t][w] == min(max(points, v.min_bid - 1), v.max_bid), (w, t)


def test_the_odds_fall_with_the_bid_and_read_as_text_and_json() -> None:
    odds = bid_odds("tournament", "R14 R13 R12 R10 R9 B14 B5 G14 Y5", worlds=12, seed=2)
    for t in range(4):
        rates = [odds.make_rate(t, b) for b in odds.levels]
        assert rates == sorted(rates, reverse=True) and all(0 <= r <= 1 for r in rates)
    assert odds.make_rate(2, 70) >= odds.make_rate(0, 70)        # five high reds: red is the trump
    data = json.loads(json.dumps(odds.to_json()))
    assert set(data["trumps"]) == {"B", "G", "R", "Y"} and data["trumps"]["R"]["solved"] == 12
    assert "best trump" in odds.text() and odds.best_trump in range(4)
    assert bid_odds("tournament", "R14 R13 R12 R10 R9 B14 B5 G14 Y5", worlds=12, seed=2) == odds


def test_each_make_rate_carries_its_95_interval_which_narrows_with_more_worlds() -> None:
    hand = "R14 R13 R12 R10 R9 B14 B5 G14 Y5"
    few, many = bid_odds("tournament", hand, worlds=12, seed=2), bid_odds("tournament", hand, worlds=60, seed=2)
    data = json.loads(json.dumps(many.to_json()))
    for odds in (few, many):
        for t in range(4):
            for b in odds.levels:
                lo, hi = odds.make_rate_95(t, b)
                assert 0.0 <= lo <= odds.make_rate(t, b) <= hi <= 1.0
                assert lo < hi    # a share of 0 or 1 from a sample is not certain either
    for t, name in enumerate("BGRY"):
        assert data["trumps"][name]["make_rate_95"] == {str(b): [round(x, 4) for x in many.make_rate_95(t, b)]
                                                       for b in many.levels}
    assert 0 < many.widest_95() < few.widest_95() <= 0.5
    assert f"each at most {200 * few.widest_95():.0f} points of percentage wide, from 12 deals" in few.text()


def test_a_cut_search_keeps_what_it_proved_and_the_shares_become_ranges_that_hold_the_exact_ones() -> None:
    """A world a budget stopped is not left out (that biased the shares
    toward deals quick to solve, and could name a trump best from the one
    deal it solved): its proven bounds settle the bids they can, and each
    share becomes a range that holds the share of the same worlds solved
    exactly."""
    hand = "R14 R13 R12 R10 R9 B14 B5 G14 Y5"
    full = bid_odds("tournament", hand, worlds=8, seed=2)
    cut = bid_odds("tournament", hand, worlds=8, seed=2, node_budget=50)
    assert all(x is None for xs in cut.samples.values() for x in xs)     # 50 nodes solve none of them
    assert "best trump: none (no search proved anything" in cut.text()
    assert cut.best_trump is None and cut.to_json()["best_trump"] is None
    for budget in (2000, 5000, 20000):
        some = bid_odds("tournament", hand, worlds=8, seed=2, node_budget=budget)
        assert any(x is None for xs in some.samples.values() for x in xs)
        assert "searches stopped on the budget" in some.text()
        for t in range(4):
            assert len(some.proven(t)) == 8 and some.undecided(t) == 8 - len(some.solved(t))
            for (lo, hi), x, exact in zip(some.proven(t), some.samples[t], full.samples[t]):
                assert lo <= exact <= hi and (x is None or x == exact)
            m_lo, m_hi = some.mean_range(t)
            assert m_lo <= full.mean(t) <= m_hi
            for b in some.levels:
                r_lo, r_hi = some.make_rate_range(t, b)
                assert r_lo <= full.make_rate(t, b) <= r_hi
                i_lo, i_hi = some.make_rate_95(t, b)
                assert i_lo <= full.make_rate_95(t, b)[0] and full.make_rate_95(t, b)[1] <= i_hi
        data = json.loads(json.dumps(some.to_json()))
        assert data["best_trump_proven"] == some.best_trump_proven
        for t, name in enumerate("BGRY"):
            assert ("make_rate_range" in data["trumps"][name]) == bool(some.undecided(t))
        if some.best_trump_proven:      # proven over these worlds: the exact answer agrees
            assert full.mean(some.best_trump) == max(full.mean(t) for t in range(4))
    assert full.best_trump_proven and "make_rate_range" not in full.to_json()["trumps"]["R"]


def test_bad_requests_name_what_is_wrong() -> None:
    with pytest.raises(RookError, match="has 3 cards"):
        bid_odds("tournament", "R14 R13 R12")
    with pytest.raises(NotationError):
        bid_odds("tournament", "R14 R13 R12 R10 R9 B14 B5 G14 Q5")
    with pytest.raises(RookError, match="worlds"):
        bid_odds("tournament", "R14 R13 R12 R10 R9 B14 B5 G14 Y5", worlds=0)
    for seat in (4, 1.0, True, "1"):                  # 1.0 and True pass `in range(4)`, and are no seats
        with pytest.raises(RookError, match="seat"):
            bid_odds("tournament", "R14 R13 R12 R10 R9 B14 B5 G14 Y5", seat=seat)  # type: ignore[arg-type]


def test_rook_odds_prints_a_table_json_and_a_plot(tmp_path) -> None:  # type: ignore[no-untyped-def]
    base = [sys.executable, "-m", "rook_core", "odds", "--preset", "tournament", "--deal", "3", "--seat", "1",
            "--worlds", "5"]
    text = subprocess.run(base, capture_output=True, text=True, check=True).stdout
    assert "best trump" in text and "120" in text
    data = json.loads(subprocess.run(base + ["--json"], capture_output=True, text=True, check=True).stdout)
    assert data["hand"] == HandState.deal("tournament", 3).hand(1).names()
    plot = tmp_path / "odds.png"
    subprocess.run(base + ["--plot", str(plot)], capture_output=True, text=True, check=True)
    assert plot.stat().st_size > 1000
    bad = subprocess.run(base + ["--plot", str(tmp_path / "x.txt")], capture_output=True, text=True)
    assert bad.returncode == 2 and ".png" in bad.stderr and "Traceback" not in bad.stderr
