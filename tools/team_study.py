"""Where two threads' time goes on one search: waiting, or searching more.

    python tools/team_study.py                        # 60 tournament deals from seed 2200
    python tools/team_study.py --what cards --deals 30 --seed 1000

A value or every card's values on two threads (``workers=2``) is searched
by a team that shares the nodes of one search (``src/rook/solve/split.c``).
Two threads fall short of twice one thread's speed in three ways: a thread
waits for work, the two search nodes one thread would not have searched, or
each node costs more (the machine's second core, the shared table).  This
tool tells the first two apart.  It builds the solver with
``-D DD_TEAM_STATS`` (split.c's tallies, the search unchanged), solves each
deal on one thread and then on two, and prints:

* the nodes of two threads over one thread's (each deal's total);
* the helper's time in its loop (``dd_split_help``) as a share of the calls'
  time, and the share of that spent searching at split points (the rest it
  waited for one to be opened);
* the owners' waits at their own split points for the other thread to
  finish a move, and the part of them spent searching below;
* the joins, with the nodes and time of one; the split points opened and
  cut; and the nodes spent on moves after the move that cut (searched only
  because the two threads took moves at once).

Times come from this machine and move with its load; node counts of two
threads depend on timing as well.  The answers must agree with one
thread's (the tool stops otherwise).
"""

from __future__ import annotations

import argparse
import ctypes
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from solver_sides import Side, add_deal_arguments, build, play_until, pos_of, spec_of  # noqa: E402

#: split.c's tallies, in the order of its enum
KINDS = ("help_ns", "help_join_ns", "wait_ns", "wait_join_ns", "joins", "join_nodes", "splits", "cuts",
         "after_cut")


@dataclass
class TeamStudy:
    """The sums over the deals of one question on one and two threads."""

    what: str
    deals: int = 0
    nodes_one: int = 0
    nodes_two: int = 0
    seconds_one: float = 0.0
    seconds_two: float = 0.0
    tally: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))


def team_side(scratch: Path | None = None) -> Side:
    """The worktree's solver built with split.c's tallies."""
    return Side("team", build("worktree", scratch, extra=["-DDD_TEAM_STATS"]))


def read_tally(side: Side) -> dict[str, int]:
    """The library's tallies as they stand (process-wide, cumulative)."""
    n = ctypes.c_int.in_dll(side.lib, "dd_team_stat_n").value
    if n != len(KINDS):
        raise SystemExit(f"team_study: the build tallies {n} kinds, this tool reads {len(KINDS)}")
    arr = (ctypes.c_uint64 * n).in_dll(side.lib, "dd_team_stat")
    return dict(zip(KINDS, arr))


def study(side: Side, what: str, preset: str, seed: int, deals: int, cards_left: int = 36) -> TeamStudy:
    """Solve the deals seed .. seed + deals - 1 on one thread and on two,
    and sum what the two-thread calls tallied."""
    out = TeamStudy(what)
    for i in range(deals):
        h = play_until(preset, seed + i, cards_left)
        spec, pos = spec_of(h.variant), pos_of(h)
        one, t1, n1 = side.run(what, spec, pos)
        before = read_tally(side)
        two, t2, n2 = side.run(what, spec, pos, threads=2)
        after = read_tally(side)
        if two != one:
            raise SystemExit(f"team_study: deal {seed + i}: two threads answered {two}, one thread {one}")
        out.deals += 1
        out.nodes_one += n1
        out.nodes_two += n2
        out.seconds_one += t1
        out.seconds_two += t2
        for k in KINDS:
            out.tally[k] += after[k] - before[k]
    return out


def report(r: TeamStudy) -> list[str]:
    """The study in lines for people."""
    t = r.tally
    calls_ns = r.seconds_two * 1e9
    joins = max(1, t["joins"])
    return [
        f"{r.what}, {r.deals} deals: one thread {r.nodes_one:,} nodes in {r.seconds_one * 1e3:.0f} ms; two threads "
        f"{r.nodes_two:,} nodes ({r.nodes_two / max(1, r.nodes_one):.3f}x) in {r.seconds_two * 1e3:.0f} ms "
        f"({r.seconds_one / max(r.seconds_two, 1e-9):.2f}x faster)",
        f"  the helper: in its loop {t['help_ns'] / 1e6:.0f} ms ({t['help_ns'] / max(calls_ns, 1):.1%} of the calls), "
        f"searching at split points {t['help_join_ns'] / 1e6:.0f} ms of it "
        f"({t['help_join_ns'] / max(1, t['help_ns']):.1%})",
        f"  the owners' waits at their split points: {t['wait_ns'] / 1e6:.0f} ms, searching below "
        f"{t['wait_join_ns'] / 1e6:.0f} ms of it",
        f"  joins: {t['joins']:,}, {t['join_nodes'] / joins:,.0f} nodes and "
        f"{(t['help_join_ns'] + t['wait_join_ns']) / joins / 1e3:.1f} us a join; split points: {t['splits']:,} "
        f"opened, {t['cuts']:,} cut; nodes of moves after the move that cut: {t['after_cut']:,} "
        f"({t['after_cut'] / max(1, r.nodes_two):.1%} of two threads' nodes)",
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_deal_arguments(ap, deals=60, seed=2200)
    ap.add_argument("--what", default="value,cards", help="comma list of value, cards")
    a = ap.parse_args(argv)
    whats = a.what.split(",")
    if any(w not in ("value", "cards") for w in whats):
        ap.error(f"--what takes value and cards, not {a.what!r}")
    side = team_side()
    for what in whats:
        for line in report(study(side, what, a.preset, a.seed, a.deals, a.cards_left)):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
