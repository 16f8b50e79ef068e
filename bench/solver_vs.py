"""Two solver builds on the same deals, in turns: times, node counts, agreement.

    python bench/solver_vs.py                          # worktree vs 649b7bd, 60 tournament deals
    python bench/solver_vs.py --base 649b7bd --deals 300 --what value,cards
    python bench/solver_vs.py --seeds 1000,2000,5000 --deals 300 --what value,cards   # 900 deals, one report
    python bench/solver_vs.py --preset crowsnest --cards-left 36 --what value
    python bench/solver_vs.py --base HEAD --preset partnership-57 --cards-left 56 --deals 8 \
        --seed 4000 --tt-mib 512 --what anytime --budget 40000000

Each side is a shared library built by ``tools/solver_sides.py`` from
one commit (or the working tree); both load into this process.  For each
deal the two sides run one after the other (which one goes first alternates
from deal to deal), each with a fresh table, so a load that drifts during
the run hits both alike.  Every answer must agree: the value, and in
``cards`` mode every legal card's value; a disagreement stops the run.

Printed per mode: for each side the median, p90, p99 and max time per deal
and the nodes per second; then the ratio base/new of the medians, of the
total time, and the median of the per-deal ratios, each with a 95%
bootstrap interval over the deals (how far another draw of as many deals
could move it: the ratio of the medians of 60 deals swings by a third
between sets of deals); and a node signature of the new side (the sum and
a CRC of its node counts) that changes whenever the search does.

``anytime`` asks each side for the value with probes from the ends (the
bounds narrow from the start) and reads the bounds when ``--budget`` nodes
are spent: a node budget, not a time, so the widths are the same on every
run and two probe schedules compare exactly.  The sides may differ here.

Deals: ``_play_until`` of ``bench/test_solver.py``'s kind: a seeded
``HandState`` played at random (bids, nest, trump) until ``--cards-left``
cards are in the hands (36 = a full ``tournament`` deal after the nest).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from solver_sides import Side, add_deal_arguments, build, play_until, pos_of, quantile, signature, spec_of  # noqa: E402

from rook_core import HandState  # noqa: E402


@dataclass
class Tally:
    times: list[float]
    nodes: list[int]

    def line(self, name: str) -> str:
        t = self.times
        ms = 1e3
        return (f"{name:>10}: median {statistics.median(t) * ms:8.2f} ms  p90 {quantile(t, .9) * ms:8.2f}"
                f"  p99 {quantile(t, .99) * ms:8.2f}  max {max(t) * ms:8.2f}  mean "
                f"{statistics.mean(t) * ms:8.2f} ms  nodes median {statistics.median(self.nodes):,.0f}"
                f"  {sum(self.nodes) / sum(t) / 1e6:.2f} M nodes/s")


def compare(new: Side, base: Side | None, deals: list[HandState], what: str,
            targets: list[int] | None = None, quiet: bool = False, threads: int = 1,
            runs: int = 1) -> dict[str, Tally]:
    """Run both sides on every deal (alternating which goes first); return
    their tallies: each deal's best time of ``runs`` runs per side (the sides
    in turns) and the nodes of its first run, on ``threads`` threads.

    :raises SystemExit: when the two sides disagree on a deal.
    """
    tallies = {"new": Tally([], []), "base": Tally([], [])}
    for i, h in enumerate(deals):
        spec, pos = spec_of(h.variant), pos_of(h)
        target = targets[i] if targets else 0
        answers: dict[str, Any] = {}
        best: dict[str, tuple[float, int]] = {}
        for r in range(runs):
            order = [("new", new), ("base", base)] if (i + r) % 2 == 0 else [("base", base), ("new", new)]
            for key, side in order:
                if side is None:
                    continue
                out, dt, nodes = side.run(what, spec, pos, target, threads)
                best[key] = (min(dt, best[key][0]), best[key][1]) if key in best else (dt, nodes)
                if answers.setdefault(key, out) != out:
                    raise SystemExit(f"deal {i}: {what} differs between runs of {key}")
        for key, (dt, nodes) in best.items():
            tallies[key].times.append(dt)
            tallies[key].nodes.append(nodes)
        if base is not None and answers["new"] != answers["base"]:
            raise SystemExit(f"deal {i}: {what} differs: new {answers['new']} base {answers['base']}")
        if not quiet and (i + 1) % 25 == 0:
            print(f"  {what}: {i + 1}/{len(deals)} deals", file=sys.stderr)
    return tallies


# The window of an unclipped value: the solver's largest bound (table.h's
# DD_BOUND_MAX), above any deal's points.
WHOLE_RANGE = (0, 16383)


def anytime_bounds(side: Side, deals: list[HandState]) -> list[tuple[int, int, int]]:
    """Return the bounds (lo, hi) and the nodes of each deal's anytime value
    search (probes from the ends) when the side's node budget ends it: the
    same on every run, so two builds' schedules compare without noise.  A
    budget that ends before the first probe does gives (0, the variant's
    card points): nothing proven."""
    out = []
    try:
        for h in deals:
            spec, pos = spec_of(h.variant), pos_of(h)
            side.trace()
            value, _, nodes = side.run("window", spec, pos, (*WHOLE_RANGE, -1, 1))
            steps = side.steps()
            lo, hi = (value, value) if value >= 0 else (steps[-1][:2] if steps else (0, h.variant.total_points))
            out.append((lo, hi, nodes))
    finally:
        side.untrace()
    return out


def anytime_report(name: str, bounds: list[tuple[int, int, int]]) -> str:
    widths = [hi - lo for lo, hi, _ in bounds]
    return (f"{name:>10}: exact {widths.count(0)}/{len(widths)}, widths {widths} (sum {sum(widths)}, "
            f"max {max(widths)}); {signature([n for _, _, n in bounds])}")


def ratios(base: Sequence[float], new: Sequence[float]) -> tuple[float, float, float]:
    """Return base/new for paired per-deal times: the ratio of the medians,
    of the means, and the median of the per-deal ratios."""
    return (statistics.median(base) / statistics.median(new), statistics.mean(base) / statistics.mean(new),
            statistics.median([b / n for b, n in zip(base, new)]))


def ratio_intervals(base: Sequence[float], new: Sequence[float], rounds: int = 1000,
                    seed: int = 0) -> list[tuple[float, float]]:
    """Return the 95% percentile-bootstrap interval of each of :func:`ratios`:
    the deals drawn again with replacement (a deal's two times stay
    together), ``rounds`` times, from a fixed ``seed`` so that the interval
    is the same on every run of the same times.

    :raises ValueError: for times of unequal length, none, or a time <= 0.
    """
    if len(base) != len(new) or not base:
        raise ValueError(f"paired times needed: {len(base)} base against {len(new)} new")
    if min(base) <= 0 or min(new) <= 0:
        raise ValueError("every time must be > 0")
    rng = random.Random(seed)
    n = len(base)
    drawn: list[tuple[float, float, float]] = []
    for _ in range(rounds):
        pick = [rng.randrange(n) for _ in range(n)]
        drawn.append(ratios([base[i] for i in pick], [new[i] for i in pick]))
    return [(quantile([d[k] for d in drawn], .025), quantile([d[k] for d in drawn], .975)) for k in range(3)]


def report(what: str, tallies: dict[str, Tally], new_name: str, base_name: str) -> list[str]:
    new, base = tallies["new"], tallies["base"]
    lines = [f"== {what}: {len(new.times)} deals", new.line(new_name)]
    if base.times:
        lines.append(base.line(base_name))
        per = [b / n for b, n in zip(base.times, new.times)]
        pern = [b / n for b, n in zip(base.nodes, new.nodes) if n > 0]
        of_medians, of_means, per_deal = ratios(base.times, new.times)
        lines.append(
            f"     ratio: median {of_medians:.2f}x  mean {of_means:.2f}x"
            f"  per-deal median {per_deal:.2f}x (p10 {quantile(per, .1):.2f}x, p90 "
            f"{quantile(per, .9):.2f}x); nodes total {sum(base.nodes) / sum(new.nodes):.2f}x, "
            f"per-deal median {statistics.median(pern):.2f}x")
        ci = ratio_intervals(base.times, new.times)
        lines.append("       95%: " + "  ".join(f"{name} {lo:.2f}-{hi:.2f}x" for name, (lo, hi)
                                             in zip(("median", "mean", "per-deal median"), ci))
                     + f" (bootstrap over the {len(per)} deals)")
    lines.append(f" signature: {signature(new.nodes)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--new", default="worktree", help="commit of the new side (default: worktree)")
    ap.add_argument("--base", default="649b7bd", help="commit of the base side ('none': no base)")
    add_deal_arguments(ap, deals=60, seed=2000)
    ap.add_argument("--what", default="value",
                    help="comma list of value, cards, at_value, anytime (bounds when --budget ends the search)")
    ap.add_argument("--seeds", default="",
                    help="comma list of first seeds, each giving --deals deals, all in one report (instead of --seed)")
    ap.add_argument("--tt-mib", type=int, default=24)
    ap.add_argument("--base-tt-mib", type=int, default=None,
                    help="the base side's table (default: --tt-mib)")
    ap.add_argument("--budget", type=int, default=0, help="node budget per call (0: none)")
    ap.add_argument("--threads", type=int, default=1,
                    help="threads on one search, both sides (value and cards; node counts then vary)")
    ap.add_argument("--runs", type=int, default=1, help="each deal's best time of this many runs per side")
    ap.add_argument("-D", dest="defines", action="append", default=[],
                    help="-D definition for the new side's build (experiments)")
    ap.add_argument("--cflag", dest="cflags", action="append", default=[],
                    help="a compiler flag for the new side's build (experiments)")
    ap.add_argument("--base-D", dest="base_defines", action="append", default=[],
                    help="-D definition for the base side's build (experiments)")
    a = ap.parse_args(argv)
    try:
        seeds = [int(x) for x in a.seeds.split(",")] if a.seeds else [a.seed]
    except ValueError:
        raise SystemExit(f"solver_vs: --seeds takes a comma list of ints, not {a.seeds!r}") from None
    new_lib = build(a.new, extra=[f"-D{d}" for d in a.defines] + a.cflags)
    new = Side(a.new, new_lib, a.tt_mib << 20)
    base = None
    if a.base != "none":
        base_mib = a.tt_mib if a.base_tt_mib is None else a.base_tt_mib
        base = Side(a.base, build(a.base, extra=[f"-D{d}" for d in a.base_defines]), base_mib << 20)
    for side in (new, base):
        if side is not None and a.budget:
            side.set_budget(a.budget)
    deals = [play_until(a.preset, seed + i, a.cards_left) for seed in seeds for i in range(a.deals)]
    print(f"{a.preset}, {a.deals} deals from seed {', '.join(map(str, seeds))}, {a.cards_left} cards in hands; "
          f"new = {a.new}, base = {a.base}; {a.tt_mib} MiB tables"
          + (f" (base {a.base_tt_mib} MiB)" if a.base_tt_mib is not None else "")
          + (f"; {a.threads} threads" if a.threads > 1 else "") + (f"; best of {a.runs} runs" if a.runs > 1 else ""))
    for what in a.what.split(","):
        if what == "anytime":
            if not a.budget:
                raise SystemExit("solver_vs: --what anytime needs --budget (the nodes after which to read the bounds)")
            print(f"== anytime bounds after {a.budget:,} nodes")
            for name, side in ((a.new, new), (a.base, base)):
                if side is not None:
                    print(anytime_report(name, anytime_bounds(side, deals)))
            sys.stdout.flush()
            continue
        targets = None
        run_what = what
        if what == "at_value":
            # "does team 0 take at least the exact value?" (the hardest target)
            ref = base or new
            targets = [ref.run("value", spec_of(h.variant), pos_of(h))[0] for h in deals]
            run_what = "at_least"
        tallies = compare(new, base, deals, run_what, targets, threads=a.threads, runs=a.runs)
        print("\n".join(report(what, tallies, a.new, a.base)))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
