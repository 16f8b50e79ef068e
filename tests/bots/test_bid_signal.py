"""The auction as a soft signal about the hidden hands (``rook_core.bots.bid_signal``,
``PIMCAgent(bid_signal=...)``): the calls of the bidding (T-3 .. T-6, the dealer
stuck, H-2) read as the heuristic bidder makes them."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from rook_core import HandState
from rook_core.actions import Phase
from rook_core.bots.bid_signal import auction_calls, bid_weights, weighted_choice
from rook_core.bots.heuristic import HeuristicAgent
from rook_core.bots.knowledge import Knowledge
from rook_core.bots.pimc import PIMCAgent
from rook_core.bots.worlds import sample_world
from rook_core.errors import RookError
from rook_core.variant import PRESETS, Variant

# every preset whose hands after the bidding are the dealt hands and the nest (no cards passed, T-22)
UNPASSED = sorted(name for name, v in PRESETS.items() if not v.pass_cards)


def _bid_by_heuristics(v: Variant, seed: int) -> tuple[HandState, HandState]:
    """A deal bid by heuristic bots: the dealt state and the state once the bidding is over."""
    h = HandState.deal(v, seed=seed)
    dealt = h.clone()
    bots = [HeuristicAgent(v, i) for i in range(4)]
    while h.phase == Phase.BID:
        h.apply(bots[h.seat_to_move()].act(h.observe(h.seat_to_move())))
    return dealt, h


@pytest.mark.parametrize("preset", UNPASSED)
def test_the_dealt_hands_explain_every_call_of_a_heuristic_auction_t_3_t_6(preset: str) -> None:
    """The true deal weighs 1: every call read from a heuristic auction holds of
    the hands the bidders held, whichever seat reads it."""
    v = PRESETS[preset]
    judge = HeuristicAgent(v)
    checked = 0
    for seed in range(40):
        dealt, h = _bid_by_heuristics(v, seed)
        for seat in range(4):
            obs = h.observation(seat)
            k = Knowledge.from_observation(obs)
            world = {s: dealt.hand_mask(s) for s in range(4)}
            calls = auction_calls(k, obs["bids"], obs["dealer"])
            assert all(c.seat != seat for c in calls)
            assert bid_weights(k, calls, [world], 10.0, judge) == [1.0]
            checked += len(calls)
    assert checked > 100


def test_a_call_is_read_as_the_heuristic_bids_t_3() -> None:
    """Each call's level and direction agree with the bidder's own rule: a
    bid of b that was a choice means ``bid_value >= 100 b``, a pass at the
    lowest open bid b means ``bid_value < 100 b``."""
    v = PRESETS["tournament"]
    judge = HeuristicAgent(v)
    for seed in range(60):
        dealt, h = _bid_by_heuristics(v, seed)
        obs = h.observation(0)
        for c in auction_calls(Knowledge.from_observation(obs), obs["bids"], obs["dealer"]):
            value = judge.bid_value(dealt.hand_mask(c.seat), c.partner_bid)
            assert (value >= 100 * c.level) == (c.sign > 0), (seed, c, value)
            assert v.min_bid <= c.level <= v.max_bid


def test_a_forced_bid_says_nothing_t_6_and_the_stuck_dealer() -> None:
    """The opener's bid where the opener must bid (T-6), and the dealer's when
    the other three passed, are no calls."""
    forced = [name for name, v in PRESETS.items()
              if not v.pass_cards and (v.opener_must_bid or v.stick_the_dealer or v.dealer_takes_minimum)]
    assert forced
    seen = 0
    for name in forced:
        v = PRESETS[name]
        for seed in range(80):
            _, h = _bid_by_heuristics(v, seed)
            obs = h.observation((h.declarer or 0) ^ 1)
            bids = [(s, b) for s, b in obs["bids"]]
            calls = auction_calls(Knowledge.from_observation(obs), obs["bids"], obs["dealer"])
            first_bid = next((i for i, (_, b) in enumerate(bids) if b is not None), None)
            if first_bid is None:
                continue
            s, b = bids[first_bid]
            opener_forced = v.opener_must_bid and first_bid == 0
            dealer_stuck = first_bid == 3 and s == obs["dealer"]       # the three others passed
            if opener_forced or dealer_stuck:
                assert (s, 1, b) not in [(c.seat, c.sign, c.level) for c in calls], (name, seed, bids)
                seen += 1
    assert seen > 0


def test_a_weight_is_exp_of_the_shortfall_over_tau() -> None:
    """A world's weight is ``exp(-shortfall / tau)``, the shortfall summed over
    the calls in points, as a loop over the calls spells it out."""
    v = PRESETS["tournament"]
    judge = HeuristicAgent(v)
    rng = random.Random(3)
    below_one = 0
    for seed in range(20):
        _, h = _bid_by_heuristics(v, seed)
        while h.phase != Phase.PLAY:
            h.apply(HeuristicAgent(v).act(h.observe(h.seat_to_move())))
        obs = h.observation(h.seat_to_move())
        k = Knowledge.from_observation(obs)
        worlds = [sample_world(k, rng) for _ in range(10)]
        for tau in (5.0, 20.0):
            got = bid_weights(k, auction_calls(k, obs["bids"], obs["dealer"]), worlds, tau, judge)
            for w, weight in zip(worlds, got):
                short = 0.0
                for c in auction_calls(k, obs["bids"], obs["dealer"]):
                    value = judge.bid_value(w[c.seat] | k.played_by[c.seat], c.partner_bid) / 100
                    short += max(0.0, c.level - value) if c.sign > 0 else max(0.0, value - c.level + 0.01)
                assert weight == pytest.approx(math.exp(-short / tau), rel=1e-9, abs=1e-12)
                below_one += weight < 1
    assert below_one > 0


def test_weighted_choice_keeps_n_distinct_items_in_order_by_their_weights() -> None:
    rng = random.Random(5)
    items = list(range(12))
    counts = [0] * 12
    for _ in range(3000):
        kept = weighted_choice(items, [1.0] * 12, 4, rng)
        assert len(kept) == 4 and kept == sorted(set(kept))
        for i in kept:
            counts[i] += 1
    assert max(counts) / min(counts) < 1.25           # equal weights: every item alike (1000 each)
    heavy = [0, 0]
    for _ in range(2000):
        kept = weighted_choice([0, 1, 2], [8.0, 1.0, 0.0], 1, rng)
        assert kept != [2]                             # weight 0: only when nothing else is left
        heavy[kept[0]] += 1
    assert 6 < heavy[0] / heavy[1] < 11                # odds 8 to 1
    assert weighted_choice([0, 1, 2], [0.0, 0.0, 1.0], 3, rng) == [0, 1, 2]


def test_worlds_weighted_by_the_auction_give_the_declarer_hands_nearer_its_bid() -> None:
    """With the signal, the declarer's hands in the worlds kept are valued
    nearer what the declarer bid than without it (the point of the signal)."""
    v = PRESETS["tournament"]
    judge = HeuristicAgent(v)
    errors: dict[bool, list[float]] = {False: [], True: []}
    for seed in range(30):
        _, h = _bid_by_heuristics(v, seed)
        if h.declarer is None:
            continue
        while h.phase != Phase.PLAY:
            h.apply(HeuristicAgent(v).act(h.observe(h.seat_to_move())))
        seat = next(s for s in range(4) if s % 2 != h.declarer % 2)
        obs = h.observation(seat)
        k = Knowledge.from_observation(obs)
        truth = judge.bid_value(h.hand_mask(h.declarer) | k.played_by[h.declarer], False)
        calls = auction_calls(k, obs["bids"], obs["dealer"])
        for signal in (False, True):
            rng = random.Random(seed)
            drawn = [sample_world(k, rng) for _ in range(64)]
            kept = (weighted_choice(drawn, bid_weights(k, calls, drawn, 10.0, judge), 16, rng) if signal
                    else drawn[:16])
            errors[signal].append(statistics.mean(
                abs(judge.bid_value(w[h.declarer], False) - truth) for w in kept))
    assert statistics.mean(errors[True]) < 0.9 * statistics.mean(errors[False])


def test_pimc_with_the_bid_signal_plays_legal_cards_and_repeats_itself_from_its_seed() -> None:
    v = PRESETS["tournament"]
    for seed in (1, 2):
        _, h = _bid_by_heuristics(v, seed)
        while h.phase != Phase.PLAY:
            h.apply(HeuristicAgent(v).act(h.observe(h.seat_to_move())))
        obs = h.observe(h.seat_to_move())
        a = [PIMCAgent(v, seed=7, worlds=4, bid_signal=10.0).act(obs) for _ in range(2)]
        assert a[0] == a[1] and a[0] in obs.legal_actions


@pytest.mark.parametrize("bad", [-1.0, float("nan"), "10", True])
def test_pimc_refuses_a_bid_signal_that_is_not_a_number_at_least_0(bad: object) -> None:
    with pytest.raises(RookError, match="bid_signal"):
        PIMCAgent(PRESETS["tournament"], bid_signal=bad)  # type: ignore[arg-type]


def test_the_cost_tool_is_deterministic_and_prices_each_card_in_the_true_deal() -> None:
    """tools/pimc_cost.py: a run gives the same costs again (so configurations
    are compared on the same decisions), every cost is >= 0 (nothing beats
    double-dummy play), and its table's gain is the paired mean difference."""
    from _support import load_tool
    tool = load_tool("pimc_cost")
    got = tool.costs("tournament", 4, 1, 2, [0.0, 10.0])
    assert got == tool.costs("tournament", 4, 1, 2, [0.0, 10.0])
    assert len(got[0.0]) == len(got[10.0]) > 0 and all(c >= 0 for c in got[0.0] + got[10.0])
    assert tool.table({0.0: [0, 5, 10], 10.0: [0, 0, 10]})[2:] == [
        "| 0 | 3 | 5.000 | - |", "| 10 | 3 | 3.333 | +1.667 [-1.600, +4.933] |"]
