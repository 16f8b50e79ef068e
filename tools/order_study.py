"""How much better the solver's move order could be, and whether a fitted order gets any of it.

    python tools/order_study.py                      # 10 + 10 tournament deals, nodes of 13 cards or more
    python tools/order_study.py --deals 20 --from-cards 16 --keep build/order-study

The working tree's solver is built by ``tools/solver_sides.py`` with
``-D DD_ORACLE=<cards> -D DD_ORDER_DUMP`` (src/rook/solve/search.c): each
node of that many cards or more in a value search gets every move searched
on its own (uncounted, storing nothing), and a line with the position and
each move's outcome (does it cut alone, and the nodes it took) goes to a
dump.  Two dumps are made in child processes, one on the fitting deals
(``--fit-seed``) and one on held-out deals (``--seed``, where
``bench/solver_vs.py`` measures), both full deals of ``--preset`` played
at random to ``--cards-left`` cards.

Printed per place in the trick (0: the lead):

* **headroom**, at the nodes where some move cuts: the nodes the search's
  own order spends up to its first move that cuts, against those of that
  move alone (an oracle that knows which move cuts, as ``-D DD_ORACLE``)
  and of the cheapest move that cuts.  Nested nodes count once at each
  level, so these are proxies for the search's nodes, not its total;
* **fitted**: a linear order per place (a softmax over the node's moves,
  fitted to the cheapest cutting move, each node weighted by the log of what
  the search's order spends there) on features of the move and the trick
  (the order's own rank among them), and the held-out deals' spend with it
  against the search's order: above 1.00x the fitted order would save.

Everything is deterministic for given arguments.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from solver_sides import Side, add_deal_arguments, build, play_until, pos_of, spec_of  # noqa: E402

Node = dict[str, Any]


def dump_build(from_cards: int) -> Path:
    """The working tree's solver with the dump (nodes of ``from_cards`` cards or more)."""
    return build("worktree", extra=[f"-DDD_ORACLE={from_cards}", "-DDD_ORDER_DUMP"])


def dump(lib: Path, preset: str, seed: int, deals: int, cards_left: int, out: Path) -> None:
    """Write the dump of ``deals`` deals' values with the build ``lib`` (in this process)."""
    os.environ["DD_DUMP"] = str(out)
    side = Side("dump", lib)
    for i in range(deals):
        h = play_until(preset, seed + i, cards_left)
        side.run("value", spec_of(h.variant), pos_of(h))


def parse(path: Path) -> Iterator[tuple[dict[str, Any], Node]]:
    """The dump's nodes with the layout each was searched with."""
    layout: dict[str, Any] = {}
    with open(path) as f:
        for line in f:
            if line.startswith("S "):
                a = list(map(int, line.split()[1:]))
                layout = {"trump": a[0], "anytime": a[1], "pts": a[2:66],
                          "wkey": [a[66 + 64 * lane:130 + 64 * lane] for lane in range(4)]}
            elif line.startswith("N "):
                head, moves = line[2:].split("|")
                h = list(map(int, head.split()))
                yield layout, {"place": h[0], "cards": h[1], "seat": h[2], "leader": h[3], "maximize": h[4],
                               "alpha": h[5], "beta": h[6], "hands": h[7:11], "trick": [c for c in h[11:14] if c >= 0],
                               "total": h[18],
                               "moves": [tuple(map(int, m.split(":"))) for m in moves.split()]}


def _legal(layout: dict[str, Any], hand: int, led: int) -> int:
    """The cards of ``hand`` that may follow ``led`` (solver bits): the led
    lane, or anything when void, and the any-time cards.  A feature only:
    the presets that must trump when void are not modelled."""
    follow = hand & (0xFFFF << (16 * (led >> 4)))
    return follow | (hand & layout["anytime"]) if follow else hand


def features(layout: dict[str, Any], node: Node) -> list[dict[str, float]]:
    """Each move's features, in the search's order."""
    pts, trump, trick = layout["pts"], layout["trump"], node["trick"]
    seat, hands = node["seat"], node["hands"]
    need = node["beta"] / node["total"] if node["maximize"] else (node["total"] - node["alpha"]) / node["total"]
    tp = sum(pts[c] for c in trick) / 10
    if trick:
        wk = layout["wkey"][trick[0] >> 4]
        best = max(range(len(trick)), key=lambda i: wk[trick[i]])
        bk = wk[trick[best]]
        partner_wins = float(((node["leader"] + best) & 1) == (seat & 1))
        later = 0
        for k in range(len(trick) + 1, 4):
            o = (node["leader"] + k) & 3
            if (o ^ seat) & 1:
                legal = _legal(layout, hands[o], trick[0])
                later = max([later] + [wk[c] for c in range(64) if legal >> c & 1])
    out = []
    for i, (c, *_) in enumerate(node["moves"]):
        p = pts[c] / 10
        x = {"rank": -float(i), "first": float(i == 0), "pts": p, "pts_need": p * need,
             "trump": float(c >> 4 == trump)}
        if not trick:
            lane = 0xFFFF << (16 * (c >> 4))
            others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[seat]
            higher = others & lane & ~((2 << c) - 1)
            opps = [hands[(seat + 1) & 3], hands[(seat + 3) & 3]]
            partner = hands[(seat + 2) & 3]
            tl = 0xFFFF << (16 * trump)
            opp_ruff = float(c >> 4 != trump and any(not o & lane and o & tl for o in opps))
            replies = sum(bin(_legal(layout, o, c)).count("1") for o in opps) / 10
            x.update(trump_need=x["trump"] * need, sure=float(not higher and not opp_ruff), opp_ruff=opp_ruff,
                     under_partner=float(bool(higher) and bool(partner >> (higher.bit_length() - 1) & 1)),
                     partner_void=float(not partner & lane), replies=replies, replies_need=replies * need,
                     length=bin(hands[seat] & lane).count("1") / 10,
                     opp_length=sum(bin(o & lane).count("1") for o in opps) / 10,
                     sure_need=float(not higher and not opp_ruff) * need)
        else:
            wins = float(wk[c] > bk)
            follow = float(c >> 4 == trick[0] >> 4)
            ruff = (1 - follow) * x["trump"]
            last_of = float(bin(hands[seat] & (0xFFFF << (16 * (c >> 4)))).count("1") == 1)
            x.update(wins=wins, sure=wins * (wk[c] > later), follow=follow, ruff=ruff,
                     discard=(1 - follow) * (1 - ruff), last_of=last_of, trick_pts=tp, partner_wins=partner_wins,
                     wins_tp=wins * tp, wins_need=wins * need, pts_wins=p * wins, pts_partner=p * partner_wins,
                     ruff_need=ruff * need, ruff_tp=ruff * tp, lose_tp=(1 - wins) * tp,
                     discard_last=(1 - follow) * (1 - ruff) * last_of)
        out.append(x)
    return out


def spend(moves: list[tuple[int, ...]], order: list[int]) -> int:
    """The nodes spent trying the moves in ``order`` up to the first that cuts."""
    n = 0
    for i in order:
        n += moves[i][3]
        if moves[i][1]:
            break
    return n


class Place:
    """The cut nodes of one place in the trick."""

    def __init__(self) -> None:
        self.x: list[np.ndarray] = []
        self.target: list[int] = []
        self.moves: list[list[tuple[int, ...]]] = []
        self.names: list[str] = []

    def add(self, layout: dict[str, Any], node: Node) -> None:
        mv = node["moves"]
        cuts = [i for i, m in enumerate(mv) if m[1]]
        if len(mv) < 2 or not cuts:
            return
        feats = features(layout, node)
        self.names = sorted(feats[0])
        self.x.append(np.array([[f[k] for k in self.names] for f in feats]))
        self.target.append(min(cuts, key=lambda i: mv[i][3]))
        self.moves.append(mv)

    def headroom(self) -> tuple[int, int, int]:
        own = sum(spend(mv, list(range(len(mv)))) for mv in self.moves)
        first = sum(next(m[3] for m in mv if m[1]) for mv in self.moves)
        cheapest = sum(min(m[3] for m in mv if m[1]) for mv in self.moves)
        return own, first, cheapest

    def fit(self, iters: int = 300, rate: float = 0.5, l2: float = 1e-3) -> np.ndarray:
        n, k = len(self.x), len(self.names)
        width = max(len(a) for a in self.x)
        t = np.zeros((n, width, k))
        mask = np.full((n, width), -1e9)
        for j, a in enumerate(self.x):
            t[j, :len(a)] = a
            mask[j, :len(a)] = 0
        weight = np.log1p([spend(mv, list(range(len(mv)))) for mv in self.moves])
        weight /= weight.mean()
        chosen = t[np.arange(n), self.target]
        w = np.zeros(k)
        for _ in range(iters):
            s = t @ w + mask
            e = np.exp(s - s.max(axis=1, keepdims=True))
            p = e / e.sum(axis=1, keepdims=True)
            grad = (np.einsum("n,nm,nmf->f", weight, p, t) - weight @ chosen) / n + l2 * w
            w -= rate * grad
        return w

    def spend_with(self, w: np.ndarray) -> int:
        total = 0
        for a, mv in zip(self.x, self.moves):
            s = a @ w
            total += spend(mv, sorted(range(len(mv)), key=lambda i: (-s[i], i)))
        return total


def places_of(path: Path) -> dict[int, Place]:
    out: dict[int, Place] = defaultdict(Place)
    for layout, node in parse(path):
        out[node["place"]].add(layout, node)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_deal_arguments(ap, deals=10, seed=1000, deals_help="deals in each of the two dumps",
                       seed_help="first held-out deal")
    ap.add_argument("--fit-seed", type=int, default=3000, help="first fitting deal")
    ap.add_argument("--from-cards", type=int, default=13, help="nodes with this many cards in hands or more")
    ap.add_argument("--keep", type=Path, default=None, help="a folder to keep the dumps in (reused when there)")
    ap.add_argument("--dump-only", type=Path, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--lib", type=Path, default=None, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.dump_only:
        dump(a.lib, a.preset, a.seed, a.deals, a.cards_left, a.dump_only)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = a.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        paths, jobs, lib = {}, [], None
        for name, seed in (("fit", a.fit_seed), ("held-out", a.seed)):
            path = folder / f"{a.preset}-{seed}-{a.deals}-{a.cards_left}-{a.from_cards}.txt"
            paths[name] = path
            if not path.exists():
                part = path.with_suffix(".part")
                part.unlink(missing_ok=True)
                lib = lib or dump_build(a.from_cards)
                cmd = [sys.executable, __file__, "--dump-only", str(part), "--lib", str(lib), "--preset", a.preset,
                       "--seed", str(seed), "--deals", str(a.deals), "--cards-left", str(a.cards_left)]
                jobs.append((subprocess.Popen(cmd), part, path))
        for proc, part, path in jobs:
            if proc.wait():
                raise SystemExit(f"order_study: the dump {path.name} failed")
            part.rename(path)
        fit, held = places_of(paths["fit"]), places_of(paths["held-out"])
    print(f"{a.preset}: {a.deals} fitting deals from seed {a.fit_seed}, {a.deals} held-out from {a.seed}; "
          f"nodes of {a.from_cards} cards or more where a move cuts")
    for p in sorted(held):
        own, first, cheapest = held[p].headroom()
        w = fit[p].fit()
        learned = held[p].spend_with(w)
        print(f"place {p}: {len(held[p].x):,} nodes; spent {own:,}; oracle first cut {own / first:.2f}x, "
              f"cheapest cut {own / cheapest:.2f}x; fitted order {own / learned:.3f}x "
              f"(on its own deals {fit[p].headroom()[0] / fit[p].spend_with(w):.3f}x)")
        print("   weights: " + " ".join(f"{k}={v:+.2f}" for k, v in zip(fit[p].names, w)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
