"""``rook demo``: deal a hand, solve it double dummy, simulate a batch.

The tour a new user sees first (the README's first command):

1. deal a seeded ``tournament`` hand (T-2); heuristic bots bid (T-3 .. T-5),
   the declarer takes the nest, discards and names trump (T-20, T-7);
2. solve the position at the first lead double dummy: the value for each
   team and the value of every card of the leader (:mod:`rook_core.solver`);
3. simulate a batch of duplicate hands, heuristic against random bots, and
   print the summary with 95% intervals (:mod:`rook_core.sim.simulate`);
4. run a million random playouts through the native kernel on every core
   (:mod:`rook_core.sim.playout`).
"""

from __future__ import annotations

import os
import time
from typing import TextIO

from .bots.agents import make_agent
from .rng import M64, check_seed

__all__ = ["run_demo"]


def run_demo(out: TextIO, seed: int = 8, hands: int = 400, playouts: int = 1_000_000) -> None:
    """Write the demo to ``out`` (see the module docstring)."""
    from . import _layout as L
    from .actions import Phase
    from .hand import HandState
    from .position import Position
    from .sim.playout import random_playouts
    from .sim.report import format_summary
    from .sim.simulate import check_run_fits, simulate
    from .solver import Solver
    from .text import fmt_hand, show_solution

    w = out.write
    preset = "tournament"
    seed = check_seed(seed)
    check_run_fits(hands, duplicate=True)          # before a line is written
    w(f"== 1. A seeded deal: {preset}, seed {seed} ==\n")
    deal = seed
    while True:
        h = HandState.deal(preset, deal)
        for s in range(4):
            w(f"  seat {s}: {fmt_hand(h.hand(s))}\n")
        w(f"  nest:   {fmt_hand(h.nest)}\n")
        bots = [make_agent("heuristic", h.variant, (deal * 4 + s) & M64) for s in range(4)]
        while h.phase not in (Phase.PLAY, Phase.THROWN_IN):
            seat = h.to_move
            assert seat is not None
            h.apply(bots[seat].act(h.observation(seat)))
        w("  bidding: " + ", ".join(f"s{s} {'pass' if b is None else b}" for s, b in h.bids()) + "\n")
        if h.phase != Phase.THROWN_IN:
            break
        deal = (deal + 1) & M64              # T-6: the hand is thrown in, and the next deal is played
        w(f"  every seat passed: the hand is thrown in (T-6); the next deal, seed {deal}:\n")
    d, trump = h.declarer, h.trump
    assert d is not None and trump is not None
    w(f"  seat {d} declares at {h.high_bid}, takes the nest, discards {fmt_hand(h.nest)} "
      f"and names {L.COLOR_NAMES[trump]} trump\n\n")

    w("== 2. Double-dummy solution at the first lead ==\n")
    pos = Position(h.variant, trump, h.leader, (), tuple(h.hand_mask(s) for s in range(4)),  # type: ignore[arg-type]
                   h.nest_points)
    solver = Solver()
    t = time.perf_counter()
    res = solver.solve(pos)
    dt = time.perf_counter() - t
    w(show_solution(pos, res) + "\n")
    team = d % 2
    mine = res.value if team == 0 else h.variant.total_points - res.value
    w(f"  with best play by all four seats the declarer's team takes {mine} of "
      f"{h.variant.total_points}: the bid of {h.high_bid} is "
      f"{'made' if mine >= h.high_bid else 'set'}  ({res.nodes:,} nodes, {dt * 1000:.0f} ms)\n\n")

    w(f"== 3. Simulation: {hands} deals played twice (duplicate), heuristic vs random bots ==\n")
    t = time.perf_counter()
    r = simulate(preset, ["heuristic", "random", "heuristic", "random"], hands=hands, seed=seed,
                 duplicate=True, workers=min(2, os.cpu_count() or 1))
    w(format_summary(r.summary()) + "\n")
    w(f"  ({len(r)} hands in {(time.perf_counter() - t) * 1000:.0f} ms)\n\n")

    w(f"== 4. {playouts:,} random playouts in the native kernel ==\n")
    t = time.perf_counter()
    pts = random_playouts(preset, playouts, seed=seed, workers=None)
    dt = time.perf_counter() - t
    w(f"  random cards, Red trump: team 0 takes {pts[:, 0].mean():.2f} of 120 points on average; "
      f"{playouts / dt:,.0f} hands/s on {os.cpu_count() or 1} cores\n")
