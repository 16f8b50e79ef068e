"""How many nodes a more general table entry could save at most.

    python tools/ceiling.py                          # 60 tournament deals from seed 1000
    python tools/ceiling.py --deals 60 --seed 2000 --modes lengths,ranks

An entry of the solver's table stands for every position that agrees with
its own above the kept line of each suit and in the counts below it by
seat, suit and points (``src/rook/solve/table.h``).  An entry that stood for
more positions would settle more of the search, if its bound still held
for them.  This tool measures the most that could come of a looser entry,
before anyone builds a sound one: it builds diagnostic solvers whose table
is loosened past what is sound (``-D DD_CEILING``) and counts, on the same
deals, their nodes against the plain build's and the deals whose value they
got wrong.  The modes:

* ``lengths``: a plain card (no points, no mark) counts only as its seat
  holding some or none of its suit, so an entry stands for positions whose
  suits hold other numbers of plain cards (partition search over the suits'
  lengths, as a proof that one discard covers another would need);
* ``points``: the cards below the kept line count without their points (the
  quasi-symmetry table does this soundly, with its bounds widened);
* ``ranks``: an entry keeps one card fewer of each suit where it keeps two
  or more (a kept line one card higher than the search relied on).

A loosened table's answers may be wrong, and a wrong answer changes the
tree, so the figure is a rough ceiling: what a sound entry of that kind
could save is at most about that much.  Both builds get the same table size
(``--tt-mib``, large, so that the looser table's crowding does not count).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from solver_sides import Side, add_deal_arguments, build, play_until, pos_of, spec_of  # noqa: E402

MODES = {"lengths": 1, "points": 2, "ranks": 3}  # table.h's DD_CEILING_* values
WHAT = {"lengths": "plain cards only as void or not",
        "points": "no points below the kept line",
        "ranks": "one kept card fewer per suit"}


@dataclass
class Ceiling:
    """One mode on the deals: each deal's nodes on the plain build and the
    loosened one, and each deal's value on both."""

    mode: str
    plain_nodes: list[int]
    loose_nodes: list[int]
    plain_values: list[int]
    loose_values: list[int]

    @property
    def wrong(self) -> list[int]:
        """The loosened build's error on each deal it got wrong (its value less the true one)."""
        return [b - a for a, b in zip(self.plain_values, self.loose_values) if a != b]

    def line(self) -> str:
        plain, loose = sum(self.plain_nodes), sum(self.loose_nodes)
        per_deal = statistics.median(a / max(b, 1) for a, b in zip(self.plain_nodes, self.loose_nodes))
        wrong = self.wrong
        return (f"{self.mode:>8} ({WHAT.get(self.mode, self.mode)}): nodes {plain:,} -> {loose:,} "
                f"({plain / max(loose, 1):.2f}x fewer; per deal {per_deal:.2f}x); wrong values on "
                f"{len(wrong)} of {len(self.plain_nodes)} deals"
                + (f" ({', '.join(f'{e:+d}' for e in wrong[:10])}{', ...' if len(wrong) > 10 else ''})"
                   if wrong else ""))


def compare(plain: Side, loose: Side, mode: str, preset: str, seed: int, deals: int,
            cards_left: int = 36) -> Ceiling:
    """The value of ``deals`` deals on both sides, each from an empty table."""
    out = Ceiling(mode, [], [], [], [])
    for i in range(deals):
        h = play_until(preset, seed + i, cards_left)
        spec, pos = spec_of(h.variant), pos_of(h)
        for side, nodes, values in ((plain, out.plain_nodes, out.plain_values),
                                    (loose, out.loose_nodes, out.loose_values)):
            v, _, n = side.run("value", spec, pos)
            nodes.append(n)
            values.append(v)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_deal_arguments(ap, deals=60, seed=1000)
    ap.add_argument("--tt-mib", type=int, default=512, help="both builds' table (MiB)")
    ap.add_argument("--modes", default=",".join(MODES), help="comma-separated: " + ", ".join(MODES))
    a = ap.parse_args(argv)
    modes = [m for m in a.modes.split(",") if m]
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        ap.error(f"unknown mode(s) {', '.join(unknown)}: choose from {', '.join(MODES)}")
    plain = Side("plain", build("worktree"), a.tt_mib << 20)
    print(f"{a.preset}, {a.deals} deals from seed {a.seed}, {a.cards_left} cards in hands, the value of each; "
          f"{a.tt_mib} MiB tables")
    for mode in modes:
        loose = Side(mode, build("worktree", extra=[f"-DDD_CEILING={MODES[mode]}"]), a.tt_mib << 20)
        print(compare(plain, loose, mode, a.preset, a.seed, a.deals, a.cards_left).line())
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
