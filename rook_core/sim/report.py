"""Reading simulation results: a summary table for a person, and plots for a bidder.

:func:`format_summary` prints :meth:`SimResult.summary` as a table;
:func:`write_report` draws three panels a bidder cares about into one image
(PNG, SVG or PDF by the file's extension, matplotlib's Agg backend):

1. make rate by winning bid, with the number of hands at each bid;
2. the declaring team's hand points, a histogram;
3. winning bid against the declarer's dealt hand strength
   (:func:`~rook_core.bots.heuristic.hand_estimate`), made and set hands apart.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..errors import RookError
from .simulate import SimResult
from .summary import format_summary
from .tables import check_folder, path_text, write_files

if TYPE_CHECKING:
    from ..odds import BidOdds

__all__ = ["format_summary", "write_report", "write_odds_plot", "check_report_path", "declarer_strength"]


def declarer_strength(result: SimResult) -> npt.NDArray[Any]:
    """Return, per hand, the declarer's dealt hand valued by
    :func:`~rook_core.bots.heuristic.hand_estimate` for the trump it named (NaN
    for a hand thrown in)."""
    from ..bots.heuristic import hand_estimate
    from ..variant import get_preset
    v = result.meta.get("variant") or get_preset(result.preset)   # a custom variant travels in meta
    h = result.hands
    out = np.full(len(h["unit"]), np.nan)
    for i in np.flatnonzero(h["declarer"] >= 0):
        d = int(h["declarer"][i])
        out[i] = hand_estimate(v, int(h[f"hand_{d}"][i]), int(h["trump"][i]))
    return out


def check_report_path(path: str | os.PathLike[str]) -> str:
    """Return ``path`` if a report can be drawn there.

    :raises RookError: for an extension other than .png, .svg or .pdf.
    """
    p = path_text(path, "a report")
    if os.path.splitext(p)[1].lower() not in (".png", ".svg", ".pdf"):
        raise RookError(f"cannot write a report to {p!r}: use a .png, .svg or .pdf file")
    check_folder(p)
    return p


def _save_figure(fig: Any, path: str) -> None:
    """Write ``fig`` to ``path`` whole or not at all (:func:`~rook_core.sim.tables.write_files`)."""
    fmt = os.path.splitext(path)[1].lower()[1:]
    write_files([(path, lambda tmp: fig.savefig(tmp, format=fmt, dpi=110))])


def write_report(result: SimResult, path: str | os.PathLike[str]) -> str:
    """Draw the report panels of the module docstring into ``path``; return it.

    :raises RookError: when matplotlib is missing, the extension is not
        .png, .svg or .pdf, or no hand was declared.
    """
    p = check_report_path(path)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RookError("matplotlib is needed for --report: pip install 'rook_core[sim]'") from None
    h = result.hands
    decl = h["made"] >= 0
    if not decl.any():
        raise RookError("no hand was declared: nothing to plot")
    bids = h["bid"][decl]
    made = h["made"][decl] == 1
    team = h["declarer"][decl] % 2
    pts = np.where(team == 0, h["points_0"][decl], h["points_1"][decl])
    strength = declarer_strength(result)[decl]
    fig, ax = plt.subplots(1, 3, figsize=(15, 4.6))
    levels = np.unique(bids)
    rate = [made[bids == b].mean() for b in levels]
    count = [(bids == b).sum() for b in levels]
    ax[0].bar(levels, rate, width=3.5, color="#4477aa")
    for b, r, c in zip(levels, rate, count):
        ax[0].text(b, r + 0.02, str(c), ha="center", fontsize=7)
    ax[0].set(title="make rate by winning bid (hands above bars)", xlabel="winning bid",
              ylabel="made", ylim=(0, 1.1))
    ax[1].hist(pts, bins=np.arange(-2.5, pts.max() + 7.5, 5), color="#228833")
    ax[1].set(title="declaring team's hand points", xlabel="points", ylabel="hands")
    jitter = np.random.default_rng(0).uniform(-1.5, 1.5, len(bids))   # bids sit on steps of 5
    ax[2].scatter(strength[~made], bids[~made] + jitter[~made], s=6, alpha=0.4, label="set",
                  color="#ee6677")
    ax[2].scatter(strength[made], bids[made] + jitter[made], s=6, alpha=0.4, label="made",
                  color="#228833")
    ax[2].set(title="winning bid against hand strength (bids jittered)",
              xlabel="declarer's hand estimate (points)",
              ylabel="winning bid")
    ax[2].legend()
    fig.suptitle(f"{result.preset}: {', '.join(result.agents)}; seed {result.seed}; "
                 f"{int(decl.sum())} hands declared")
    fig.tight_layout()
    try:
        _save_figure(fig, p)
    finally:
        plt.close(fig)
    return p


def write_odds_plot(odds: BidOdds, path: str | os.PathLike[str]) -> str:
    """Draw the odds of making each bid (:func:`rook_core.odds.bid_odds`),
    one line per trump, into ``path`` (.png, .svg or .pdf); return it.

    :raises RookError: when matplotlib is missing or the extension is not one of those.
    """
    p = check_report_path(path)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RookError("matplotlib is needed for --plot: pip install 'rook_core[sim]'") from None
    from ..cards import CardSet, color_name
    fig, ax = plt.subplots(figsize=(7, 4.6))
    colors = {"B": "#222222", "G": "#228833", "R": "#cc3311", "Y": "#ccbb44"}
    for t in sorted(odds.samples):
        name = color_name(t)
        ax.plot(odds.levels, [100 * odds.make_rate(t, b) for b in odds.levels], marker="o",
                color=colors[name], label=f"trump {name}")
        band = [odds.make_rate_95(t, b) for b in odds.levels]
        ax.fill_between(odds.levels, [100 * lo for lo, _ in band], [100 * hi for _, hi in band],
                        color=colors[name], alpha=0.12, linewidth=0)
    ax.set(xlabel="bid", ylabel="made (%) with every hand open", ylim=(0, 100),
           title=f"{odds.variant.name}, seat {odds.seat}: {CardSet(odds.hand)}\n"
                 f"{odds.worlds} deals of the unseen cards (bands: 95% intervals)")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    try:
        _save_figure(fig, p)
    finally:
        plt.close(fig)
    return p
