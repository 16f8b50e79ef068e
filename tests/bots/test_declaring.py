"""The declarer's trump and discards by simulation (``rook_core.bots.declaring``,
``PIMCAgent(nest="worlds")``): the nest (T-20, T-21), trump (T-7), the score
(T-30 .. T-32, H-1), under both orders of the steps after the bidding (T-7, H-3)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from rook_core import HandState
from rook_core._reference.around_play import hand_score
from rook_core.actions import Phase
from rook_core.bots.declaring import plan_by_worlds, plannable
from rook_core.bots.heuristic import HeuristicAgent
from rook_core.bots.knowledge import Knowledge
from rook_core.bots.pimc import PIMCAgent
from rook_core.bots.worlds import sample_world
from rook_core.cards import CardSet, parse_cards
from rook_core.errors import RookError
from rook_core.nest import best_looking_discards, play_after
from rook_core.odds import play_position
from rook_core.solver import Solver
from rook_core.variant import PRESETS, Variant

# 9 cards, the house game's steps after the bidding (H-3, H-4), its nest to
# the declarer and the declarer's lead (section 4), and the moon (H-1)
HOUSE_9 = PRESETS["tournament"].replace(
    name="house-9", post_bid_order=("nest", "trump", "discard"), discard_counters=False,
    discard_trump_counters=True, nest_to="declarer", first_lead="declarer", moon_score=240)
VARIANTS = {"tournament": PRESETS["tournament"], "crowsnest": PRESETS["crowsnest"], "house-9": HOUSE_9}


def _at_the_declarers_step(v: Variant, seed: int) -> HandState:
    """A deal bid by heuristics, at the declarer's first step after taking the nest."""
    for s in range(seed, seed + 200):
        h = HandState.deal(v, seed=s)
        bots = [HeuristicAgent(v, i) for i in range(4)]
        while h.phase == Phase.BID:
            h.apply(bots[h.seat_to_move()].act(h.observe(h.seat_to_move())))
        if h.declarer is not None and h.phase in (Phase.NEST, Phase.TRUMP):
            return h
    raise AssertionError("no deal was declared")


def _worlds_again(h: HandState, obs: Mapping[str, Any], count: int, seed: int) -> list[HandState]:
    """The plan's worlds drawn again with ``random.Random(seed)``: each at the
    declarer's first step after the nest, the real bidding replayed."""
    v = h.variant
    seat = h.seat_to_move()
    rng = random.Random(seed)
    k = Knowledge.from_observation(obs, v)
    nest = parse_cards(list(obs["nest"]), deck_mask=v.deck_mask)
    out = []
    for _ in range(count):
        world = sample_world(k, rng)
        hands = [k.hand & ~nest if s == seat else world[s] for s in range(4)]
        w = HandState.from_hands(v, [CardSet(m).names() for m in hands], CardSet(nest).names(), dealer=h.dealer)
        for a in h.history:
            if w.phase != Phase.BID:
                break
            w.apply(a)
        out.append(w)
    return out


@pytest.mark.parametrize("name", sorted(VARIANTS))
@pytest.mark.parametrize("seed", [1, 2])
def test_T7_T20_T30_the_plan_is_the_trump_of_the_best_mean_score_over_the_worlds(name: str, seed: int) -> None:
    """Recomputed one world at a time: the same worlds (the same draws), the real
    bidding replayed from the hand's own history, the heuristic's play to the
    first lead (odds.play_position), one exact solve each, the reference score."""
    v = VARIANTS[name]
    h = _at_the_declarers_step(v, seed)
    seat = h.seat_to_move()
    obs = h.observe(seat)
    agent = HeuristicAgent(v, seat)
    plan = plan_by_worlds(v, obs, agent, worlds=5, rng=random.Random(seed), node_budget=0)
    assert plan is not None and plan.solved == plan.worlds == 5
    sums = [0.0] * 4
    solver = Solver()
    discards = set()
    for w in _worlds_again(h, obs, 5, seed):
        for t in range(4):
            start = play_position(w, t, [agent] * 4)
            discards.add((t, start.nest_mask))
            p0 = solver.value(start) + (start.nest_points if v.nest_to == "declarer" and seat % 2 == 0 else 0)
            score = hand_score(v, seat, h.high_bid, (p0, v.total_points - p0))
            sums[t] += score[seat % 2] - score[1 - seat % 2]
    means = tuple(x / 5 for x in sums)
    assert plan.means == pytest.approx(means, abs=1e-9)
    assert plan.trump == max(range(4), key=lambda t: (round(means[t], 9), -t))
    assert (plan.trump, plan.discard) in discards and len(discards) == 4   # one discard set per trump


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_T20_T7_a_pimc_declarer_with_nest_worlds_buries_and_names_what_it_planned(name: str) -> None:
    v = VARIANTS[name]
    h = _at_the_declarers_step(v, 3)
    seat = h.seat_to_move()
    plan = plan_by_worlds(v, h.observe(seat), HeuristicAgent(v, seat), worlds=4, rng=random.Random(9),
                          node_budget=2_000_000)
    bot = PIMCAgent(v, seed=9, worlds=4, nest="worlds")
    bot.rng = random.Random(9)
    while h.phase in (Phase.NEST, Phase.TRUMP):
        h.apply(bot.act(h.observe(seat)))
    assert plan is not None and bot.stats["nest_plans"] == 1
    assert h.trump == plan.trump and h.nest_mask == plan.discard
    assert h.phase == Phase.PLAY


def test_T22_where_cards_are_passed_the_heuristic_keeps_the_nest() -> None:
    v = PRESETS["partnership-57"]
    assert not plannable(v) and all(plannable(PRESETS[p]) for p in ("tournament", "crowsnest", "house-180"))
    h = _at_the_declarers_step(PRESETS["kentucky-rook"], 1)
    seat = h.seat_to_move()
    obs = h.observe(seat)
    assert plan_by_worlds(v, obs, HeuristicAgent(v, seat), worlds=2, rng=random.Random(1)) is None
    other = h.observe((seat + 1) % 4)                    # not the declarer: no plan
    assert plan_by_worlds(h.variant, other, HeuristicAgent(h.variant, 0), worlds=2, rng=random.Random(1)) is None


def test_the_nest_option_is_checked() -> None:
    v = PRESETS["tournament"]
    for bad in ({"nest": "sim"}, {"nest_budget": -1}, {"nest_budget": True}, {"nest_discards": -2},
                {"nest_discards": 1.5}, {"nest_worlds": -1}, {"nest_margin": -0.5}):
        with pytest.raises(RookError, match="nest"):
            PIMCAgent(v, **bad)  # type: ignore[arg-type]
    bot = PIMCAgent(v, nest="worlds")
    h = _at_the_declarers_step(v, 5)
    seat = h.seat_to_move()
    bot.node_budget = bot.nest_budget = 1                 # nothing solves: the heuristic's step
    assert bot.act(h.observe(seat)) == HeuristicAgent(v, seat).act(h.observe(seat))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_T7_T20_with_discards_the_plan_is_the_best_mean_over_every_trump_and_discard_judged(name: str) -> None:
    """``discards=2``: recomputed one world at a time, each trump with the
    heuristic's discard and the nest decision's two best-looking ones
    (``best_looking_discards``, played by ``play_after``); the plan is the
    pair of the best mean, each trump's mean is its best discard's, and with
    the heuristic's discards among those judged no mean is below the plan
    without them on the same worlds."""
    v = VARIANTS[name]
    h = _at_the_declarers_step(v, 4)
    seat = h.seat_to_move()
    obs = h.observe(seat)
    agent = HeuristicAgent(v, seat)
    plan = plan_by_worlds(v, obs, agent, worlds=4, rng=random.Random(7), discards=2)
    plain = plan_by_worlds(v, obs, agent, worlds=4, rng=random.Random(7))
    assert plan is not None and plain is not None and plan.solved == 4
    solver = Solver()
    sums: dict[tuple[int, int], float] = {}
    for w in _worlds_again(h, obs, 4, 7):
        starts = [play_position(w, t, [agent] * 4) for t in range(4)]
        starts += [play_after(w, t, d) for t, d in best_looking_discards(w, 2)]
        seen = set()
        for start in starts:
            if (start.trump, start.nest_mask) in seen:
                continue
            seen.add((start.trump, start.nest_mask))
            p0 = solver.value(start) + (start.nest_points if v.nest_to == "declarer" and seat % 2 == 0 else 0)
            score = hand_score(v, seat, h.high_bid, (p0, v.total_points - p0))
            key = (start.trump, start.nest_mask)
            sums[key] = sums.get(key, 0.0) + score[seat % 2] - score[1 - seat % 2]
    assert plan.options == len(sums) > 4
    best = max(x / 4 for x in sums.values())
    assert sums[(plan.trump, plan.discard)] / 4 == pytest.approx(best, abs=1e-9)
    for t in range(4):
        assert plan.means[t] == pytest.approx(max(x / 4 for (u, _), x in sums.items() if u == t), abs=1e-9)
        assert plan.means[t] >= plain.means[t] - 1e-9


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_T7_T20_a_margin_keeps_the_heuristics_own_plan_unless_the_best_beats_it_clearly(name: str) -> None:
    """``margin``: an unreachable margin gives the heuristic's own trump and
    discard (its play from the nest on); a margin of 0 the best mean; and a
    margin the best clears (its paired gain over the heuristic's own plan,
    in standard errors, recomputed from the per-world scores) keeps it."""
    v = VARIANTS[name]
    changed = 0
    for seed in range(1, 5):
        h = _at_the_declarers_step(v, seed)
        seat = h.seat_to_move()
        obs = h.observe(seat)
        agent = HeuristicAgent(v, seat)
        own = play_position(h, None, [agent] * 4)
        kept = plan_by_worlds(v, obs, agent, worlds=4, rng=random.Random(seed), discards=1, margin=1e9)
        best = plan_by_worlds(v, obs, agent, worlds=4, rng=random.Random(seed), discards=1)
        loose = plan_by_worlds(v, obs, agent, worlds=4, rng=random.Random(seed), discards=1, margin=1e-9)
        assert kept is not None and best is not None and loose is not None
        assert (kept.trump, kept.discard) == (own.trump, own.nest_mask)
        assert kept.means == best.means == loose.means
        if best.means[best.trump] > kept.means[own.trump] + 1e-9:   # the best is strictly better on average
            assert (loose.trump, loose.discard) == (best.trump, best.discard)
            changed += 1
    assert changed      # some hand's best is not the heuristic's own plan


def test_the_nest_cost_tool_is_deterministic_and_no_plan_beats_the_true_best() -> None:
    """tools/nest_cost.py: a run gives the same figures again, every plan's
    cost against the true deal's best plan (nest_decision) is >= 0, a plan's
    worth is the declarer's team's score less the other's in the solved play
    (the heuristic's recomputed here), and the table's gain is the paired
    mean difference."""
    import argparse

    from _support import load_tool
    tool = load_tool("nest_cost")
    args = argparse.Namespace(preset="tournament", hands=3, seed=5, worlds=2, plans="heuristic,worlds1z1",
                              best=False, workers=1, verbose=False)
    got = tool.run(args)
    again = tool.run(args)
    for plan in got:
        for what in ("worth", "points", "made"):
            assert got[plan][what] == again[plan][what]
    v = PRESETS["tournament"]
    for i, h in enumerate(tool.declared_hands(v, 5, 3)):
        seat = h.seat_to_move()
        play = play_position(h, None, [HeuristicAgent(v, s) for s in range(4)])
        p0 = Solver().value(play)
        score = hand_score(v, seat, h.high_bid, (p0, v.total_points - p0))
        assert got["heuristic"]["worth"][i] == score[seat % 2] - score[1 - seat % 2]
    args.hands, args.best = 1, True
    for plan in tool.run(args).values():
        assert len(plan["cost"]) == 1 and plan["cost"][0] >= 0
    rows = {"a": {"worth": [0, 10, 20], "points": [1, 1, 1], "made": [1, 1, 0], "cost": [], "seconds": [0, 0, 0]},
            "b": {"worth": [10, 10, 30], "points": [1, 1, 1], "made": [1, 1, 1], "cost": [], "seconds": [0, 0, 0]}}
    assert tool.table(rows)[3].startswith("| b | 3 | 16.67 | 1.00 | 1.000 | - | +6.67 [+0.13, +13.20] |")
