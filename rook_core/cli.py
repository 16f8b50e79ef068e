"""The ``rook`` command line.

* ``rook legal``: FORMATS.md positions on stdin, legal cards on stdout.
* ``rook perft --depth D``: FORMATS.md positions on stdin, perft counts on stdout.
* ``rook solve``: FORMATS.md positions on stdin, double-dummy values on stdout
  (``--show`` prints a table for a person instead).
* ``rook nest``: the declarer's best discard and trump, double dummy, for a
  hand in the nest phase (``--preset P --seed N`` deals one and bids with the
  heuristic bots; without it, hand JSON lines on stdin).
* ``rook play --preset P --seed N``: a complete game between bots, as a readable log
  (``--json``: as game JSON) (``--preset toonerville --players 3..5`` for Toonerville Rook).
* ``rook odds``: the double-dummy odds of a hand making each bid, per trump
  (:mod:`rook_core.odds`).
* ``rook analyse``: hand, game or service-history JSON lines on stdin, a
  double-dummy review of each played hand on stdout (:mod:`rook_core.review`).
* ``rook contract``: Toonerville hands on stdin (FORMATS.md), whether each
  meets its contract, the least deadwood and one best lay-down.
* ``rook demo``: deal a hand, solve it double dummy, simulate a batch.
* ``rook serve``: the HTTP JSON service and its browser table (:mod:`rook_core.service`).
* ``rook engine``: the engine over stdin/stdout, JSON lines (:mod:`rook_core.engine`).
* ``rook simulate``: many seeded hands or games between bots; a summary
  table, columnar results (``--out``) and plots (``--report``); with
  ``--preset toonerville``, whole Toonerville games (one row per round).

The JSON-lines commands answer every input line with one output line, in
order, echoing ``id``; a bad line gets ``{"id": ..., "error": ...}`` and the
run goes on; the exit status is 1 if any line failed.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any, TextIO

from . import flags
from .errors import BotError, RookError
from .jsonio import json_line
from .service.limits import Limits
from .text import fmt_hand, show_solution

if TYPE_CHECKING:
    from .game import Game
    from .hand import HandState

__all__ = ["main"]


# ------------------------------------------------------------ JSON lines
def _run_jsonl(lines: Iterable[str], out: TextIO, answer: Callable[[dict[str, Any]], dict[str, Any]]) -> int:
    from .jsonio import run_jsonl
    return run_jsonl(lines, out, answer)


def _show_lines(lines: Iterable[str], show: Callable[[Any], object]) -> int:
    """The ``--show`` form of the JSON-lines commands: ``show(obj)`` (which
    prints) for the JSON value of each line; a line that is not JSON, or is
    refused, prints ``error: ...`` and the next line is read, as
    :func:`_run_jsonl` answers it.  Return 1 if any line failed, else 0."""
    from .jsonio import answered, read_line
    failed = 0
    for line in lines:
        if not line.strip():
            continue
        try:
            answered(show, read_line(line))   # type: ignore[arg-type]
        except RookError as e:
            failed = 1
            print(f"error: {e}\n")
    return failed


def _solve(budget: int, time_budget: float, at_least: int | None,
           show: bool) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """``rook solve``'s answer; with ``show`` also the table a person reads (key ``_show``)."""
    from .analysis import solve_answer
    answer = solve_answer(budget, time_budget, at_least, with_solution=True,
                          progress=_bounds_line if show else None)

    def shown(obj: dict[str, Any]) -> dict[str, Any]:
        try:
            out = answer(obj)
        finally:
            if show and sys.stderr.isatty():
                sys.stderr.write("\n")
        res, pos = out.pop("_solution"), out.pop("_position")
        if show:
            out["_show"] = show_solution(pos, res)
            if "at_least" in out:
                target, yes = out["at_least"]["target"], out["at_least"]["team0"]
                out["_show"] += f"\nteam 0 takes at least {target} points: {'yes' if yes else 'no'}"
        return out
    return shown


def _bounds_line(lo: int, hi: int, nodes: int) -> None:
    """Show the bounds proven so far on a position's value (stderr, one line
    rewritten in place; nothing when stderr is not a terminal)."""
    if not sys.stderr.isatty():
        return
    what = f"value {lo}" if lo == hi else f"value in [{lo}, {hi}]"
    sys.stderr.write(f"\r  {what} after {nodes:,} nodes   ")
    sys.stderr.flush()


# ------------------------------------------------------------------ nest
def _hand_at_nest(preset: str, seed: int) -> HandState:
    """Deal hand ``seed`` of ``preset`` and bid with the heuristic bots until the
    declarer has taken the nest (T-3 .. T-7, T-20): at the discard, or at
    trump when the nest comes first (H-3)."""
    from .actions import Phase
    from .bots.agents import make_agent
    from .hand import HandState
    from .variant import get_preset
    variant = get_preset(preset)
    hand = HandState.deal(variant, seed)
    bots = [make_agent("heuristic", variant, seed * 4 + i) for i in range(4)]
    stops = {Phase.NEST, Phase.PLAY, Phase.THROWN_IN, Phase.DONE}
    if "discard" in variant.post_bid_order:
        stops.add(Phase.TRUMP)
    while hand.phase not in stops:
        seat = hand.to_move
        assert seat is not None
        hand.apply(bots[seat].act(hand.observation(seat)))
    if hand.phase == Phase.THROWN_IN:
        raise RookError(f"hand {seed} of {preset} was thrown in (every seat passed, T-6); "
                        f"try another --seed")
    if hand.phase not in (Phase.NEST, Phase.TRUMP):
        raise RookError(f"{preset} reaches the {hand.phase.label} phase without a nest "
                        f"discard (T-7, T-20)")
    return hand


def _odds(args: argparse.Namespace) -> int:
    """rook odds: the double-dummy odds of a hand's bids (rook_core.odds)."""
    from ._native import check_seat
    from .odds import bid_odds
    from .sim.report import check_report_path, write_odds_plot
    if args.workers < 1 or args.budget < 0:
        raise RookError("--workers must be at least 1 and --budget not negative")
    if args.plot:
        check_report_path(args.plot)
    if args.hand is not None:
        cards: Any = args.hand
    else:
        from .hand import HandState
        check_seat(args.seat, "--seat")
        cards = HandState.deal(args.preset, args.deal).hand(args.seat).names()
    with _progress_bar(0, "searches", args.no_progress) as progress:
        odds = bid_odds(args.preset, cards, seat=args.seat, worlds=args.worlds, seed=args.seed,
                        workers=args.workers, node_budget=args.budget, time_budget=args.time_budget,
                        progress=progress)
    print(json_line(odds.to_json()) if args.json else odds.text())
    if args.plot:
        print(f"wrote {write_odds_plot(odds, args.plot)}", file=sys.stderr)
    return 0


def _analyse(args: argparse.Namespace) -> int:
    """rook analyse: the review of each played hand of each document on stdin."""
    from .review import played_hands, review_hand
    if args.budget < 0 or args.nest_budget < 0 or args.workers < 1:
        raise RookError("--budget and --nest-budget must not be negative, --workers at least 1")

    def answer(doc: Any) -> dict[str, Any]:
        reviews = []
        for h in played_hands(doc):
            with _progress_bar(0, "cards", args.no_progress) as progress:
                r = review_hand(h, node_budget=args.budget, time_budget=args.time_budget, workers=args.workers,
                                nest=args.nest, nest_budget=args.nest_budget,
                                nest_time_limit=args.nest_time_limit, progress=progress)
            if args.show:
                print(r.text() + "\n")
            reviews.append(r.to_json())
        if args.show and not reviews:
            print("no hand of this document reached its play: nothing to review\n")
        return {"hands": reviews}

    if args.show:
        return _show_lines(sys.stdin, answer)
    return _run_jsonl(sys.stdin, sys.stdout, answer)


def _nest_answer(workers: int, budget: int, time_limit: float, no_progress: bool
                 ) -> Callable[[HandState], dict[str, Any]]:
    def answer(hand: HandState) -> dict[str, Any]:
        from .hand import HandState
        from .nest import nest_decision
        if isinstance(hand, dict):
            hand = HandState.from_json({k: v for k, v in hand.items() if k != "id"})
        with _progress_bar(0, "discards", no_progress) as progress:
            out = nest_decision(hand, workers=workers, node_budget=budget, time_limit=time_limit,
                                progress=progress).to_json()
        out["_hand"] = hand
        return out
    return answer


def _show_nest(hand: HandState, answer: dict[str, Any]) -> str:
    from .cards import CardSet
    d = answer["declarer"]
    lines = [f"{hand.variant.name}: seat {d} (team {d % 2}) declares at {hand.high_bid} and "
             f"holds {fmt_hand(CardSet(hand.hand_mask(d)))}"]
    for s in range(4):
        if s != d:
            lines.append(f"  seat {s} (team {s % 2}): {fmt_hand(CardSet(hand.hand_mask(s)))}")
    lines.append("  trump   bury                     points  (discards tried, solved exactly, nodes)")
    for t in answer["trumps"]:
        mark = "   best" if t["trump"] == answer["best"]["trump"] else ""
        points = ("" if t["exact"] else ">=") + str(t["points"])
        undecided = f", {t['unsettled']} undecided" if t["unsettled"] else ""
        lines.append(f"  {t['trump']:<7} {' '.join(t['discard']):<24} {points:>6}  "
                     f"({t['discards']}, {t['solved']}, {t['nodes']:,}{undecided}){mark}")
    if not answer["proven"]:
        lines.append("  a budget or the time limit cut the decision short: >= marks a lower bound, and an "
                     "undecided discard might do better")
    return "\n".join(lines)


# ------------------------------------------------------------------ play
def play_game(preset: str, seed: int, agents: list[str], max_hands: int,
              on_hand: Callable[[Game, int], None] | None = None, made: list[Any] | None = None) -> Game:
    """Play a seeded game between bots (``agents``, one kind per seat, seeded
    ``seed * 4 + seat``) to its end or ``max_hands`` hands; ``on_hand(game,
    n)`` is called as hand ``n`` (1-based) ends; the bots are appended to ``made``."""
    from .bots.agents import act_for, make_agent
    from .game import Game
    from .variant import get_preset

    variant = get_preset(preset)
    game = Game(variant, seed)
    bots = [make_agent(kind, variant, seed * 4 + i) for i, kind in enumerate(agents)]
    if made is not None:
        made.extend(bots)
    n_reported = 0
    while not game.is_over and game.hand_number <= max_hands:
        seat = game.to_move
        assert seat is not None
        game.apply(act_for(bots[seat], game.current, seat))
        while n_reported < len(game.hands) - 1 or (game.is_over and n_reported < len(game.hands)):
            n_reported += 1
            if on_hand is not None:
                on_hand(game, n_reported)
    return game


def play_game_log(preset: str, seed: int, agents: list[str], max_hands: int, out: TextIO) -> int:
    """Play a seeded game between bots and write a readable log; return the winner or -1."""
    from . import _layout as L
    from .actions import Phase
    from .variant import get_preset

    variant = get_preset(preset)
    w = out.write
    w(f"rook play: {variant.name}, seed {seed}, target {variant.target}; "
      f"seats 0-3: {', '.join(agents)}; teams: 0 = seats 0+2, 1 = seats 1+3\n")

    def hand_report(h: HandState, number: int) -> None:
        w(f"\n=== Hand {number}: dealer seat {h.dealer} ===\n")
        start = h.at_start()
        for s in range(4):
            w(f"  seat {s}: {fmt_hand(start.hand(s))}\n")
        if variant.nest_size:
            w(f"  nest:   {fmt_hand(start.nest)}\n")
        bids = h.bids()
        w("  bidding: " + ", ".join(f"s{s} {'pass' if b is None else b}" for s, b in bids) + "\n")
        if h.phase == Phase.THROWN_IN:
            w("  all passed: the same dealer deals again (T-6)\n")
            return
        d = h.declarer
        if d is None:           # a hand not thrown in has a declarer (T-5)
            return
        w(f"  declarer: seat {d} (team {d % 2}) at {h.high_bid}\n")
        for ph, _seat, a in h.events():
            if ph == Phase.TRUMP:
                w(f"  trump: {L.COLOR_NAMES[a - L.ACTION_TRUMP]}\n")
        if variant.nest_size and h.phase in (Phase.PLAY, Phase.DONE):
            w(f"  seat {d} takes the nest {fmt_hand(h.dealt_nest)} and discards {fmt_hand(h.nest)}\n")
        if variant.pass_cards and h.phase in (Phase.PLAY, Phase.DONE):
            for s in range(4):
                w(f"  seat {s} passes {fmt_hand(h.passing(s))} to seat {(s + 3) % 4}\n")
        for i, t in enumerate(h.tricks, 1):
            cards = ", ".join(f"s{s} {c}" for s, c in t["cards"])
            w(f"  trick {i}: {cards} -> seat {t['winner']}" + (f" (+{t['points']})" if t["points"] else "") + "\n")
        if h.phase == Phase.DONE:
            p, sc = h.points, h.score
            team = d % 2
            last = h.tricks[-1]["winner"] % 2
            extra = []
            if h.nest_points and variant.nest_to == "last_trick":               # T-13
                extra.append(f"nest {h.nest_points}")
            if variant.last_trick_bonus:
                extra.append(f"last-trick bonus {variant.last_trick_bonus}")
            if extra:
                w(f"  team {last} takes the last trick: {' and '.join(extra)}\n")
            if h.nest_points and variant.nest_to == "declarer":                 # section 4
                w(f"  team {team}, the declaring team, holds the nest: {h.nest_points}\n")
            w(f"  points: team 0 {p[0]}, team 1 {p[1]}\n")
            verdict = "made" if h.made else "set"
            w(f"  team {team} bid {h.high_bid} and took {p[team]}: {verdict}; "
              f"scores: team 0 {sc[0]:+d}, team 1 {sc[1]:+d}\n")

    def reported(game: Game, n: int) -> None:
        hand_report(game.hands[n - 1], n)
        before = [0, 0]
        for prev in game.hands[:n]:
            before = [before[0] + prev.score[0], before[1] + prev.score[1]]
        w(f"  totals: team 0 {before[0]}, team 1 {before[1]}\n")

    bots: list[Any] = []
    game = play_game(preset, seed, agents, max_hands, reported, bots)
    for s, bot in enumerate(bots):
        st = getattr(bot, "stats", None)
        if st and st["decisions"]:
            w(f"\nseat {s} ({bot.name}): {st['decisions']} card decisions searched, {st['solved']:,} of "
              f"{st['worlds']:,} worlds solved within the budget, {st['fallbacks']} played by the heuristic "
              f"(no world solved)")
    if any(getattr(b, "stats", None) for b in bots):
        w("\n")
    t = game.totals
    if game.is_over:
        win = game.winner
        assert win is not None
        w(f"\nTeam {win} (seats {win} and {win + 2}) wins {t[win]} to {t[1 - win]} "
          f"after {len(game.hands)} hands.\n")
        return win
    w(f"\nNo winner after {max_hands} hands (totals {t[0]} to {t[1]}): stopped by --max-hands.\n")
    return -1




# ------------------------------------------------------------------ main
def build_parser() -> argparse.ArgumentParser:
    from ._native import PERFT_MAX_NODES
    from ._version import __version__
    from .variant import PRESETS
    p = argparse.ArgumentParser(prog="rook", description="rook_core: the Rook card-game engine.")
    p.add_argument("--version", action="version", version=f"rook_core {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("legal", help="legal cards of FORMATS.md positions (JSON lines on stdin)")
    pf = sub.add_parser("perft", help="perft counts of FORMATS.md positions (JSON lines on stdin)")
    pf.add_argument("--depth", type=flags.int_in(1, 64), required=True, help="number of cards to look ahead (1..64)")
    pf.add_argument("--max-nodes", type=flags.int_in(1, flags.BUDGET_MAX), default=PERFT_MAX_NODES, metavar="N",
                    help="the most nodes (cards played) one position's perft makes; a perft that needs more "
                         "gets an error line naming its depth (Ctrl-C stops one under way)")
    so = sub.add_parser("solve", help="double-dummy values of FORMATS.md positions (JSON lines on stdin)")
    so.add_argument("--budget", type=flags.BUDGET, default=0,
                    help="node budget per position (0: none); past it the line gets an error with bounds")
    so.add_argument("--time-budget", type=flags.seconds, default=0.0, metavar="SECONDS",
                    help="time budget per position (0: none), the same way; unlike a node "
                         "budget its answers depend on the machine")
    so.add_argument("--at-least", type=flags.int_in(-(2**31), 2**31 - 1), default=None, metavar="T",
                    help="also answer whether team 0 can take at least T points")
    so.add_argument("--show", action="store_true", help="print a readable table instead of JSON")
    ne = sub.add_parser("nest", help="the declarer's best discard and trump, double dummy")
    ne.add_argument("--preset", choices=sorted(PRESETS),
                    help="deal a hand of this preset (with --seed) instead of reading hand JSON lines")
    ne.add_argument("--seed", type=flags.seed, default=None, help="the deal's seed (with --preset; default 0)")
    ne.add_argument("--workers", type=flags.WORKERS, default=1, help="threads searching the trumps side by side")
    ne.add_argument("--budget", type=flags.BUDGET, default=0,
                    help="node budget per search (0: none); past it the answer keeps what was "
                         "proven and says so (exact, unsettled, proven)")
    ne.add_argument("--time-limit", type=flags.seconds, default=0.0, metavar="SECONDS",
                    help="seconds for the whole decision (0: none), shared equally by the trumps; past a "
                         "trump's share its discards not yet compared stay undecided (unsettled) and the best "
                         "so far stands; it ends in about that time, and its answer depends on the machine")
    ne.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    ne.add_argument("--show", action="store_true", help="print a readable table instead of JSON")
    games = sorted(PRESETS) + ["toonerville"]
    pl = sub.add_parser("play", help="play a seeded game between bots and print it")
    pl.add_argument("--preset", default="tournament", choices=games, help="the game")
    pl.add_argument("--seed", type=flags.seed, default=0, help="the game's seed (default 0)")
    pl.add_argument("--agents", default=None,
                    help="agent kinds, comma separated, one per seat (random, heuristic, pimc, dd, modelbid; "
                         "Toonerville: random, heuristic); default heuristic everywhere")
    pl.add_argument("--max-hands", type=flags.int_in(1, 10**6), default=1000,
                    help="stop a game that has no winner after this many hands")
    pl.add_argument("--json", action="store_true",
                    help="write the game as one JSON line (format rook-game/1, what rook analyse reads; "
                         "Toonerville: rook-toonerville/1) instead of the log")
    _toonerville_options(pl)
    an = sub.add_parser(
        "analyse", aliases=["analyze"],
        help="a double-dummy review of played hands: each card's cost against the best, the mistakes "
             "by seat (JSON lines on stdin: a hand, a game or a rook serve history each)",
        description="Reads one JSON document per line on stdin: a hand (rook-hand/1), a game "
                    "(rook-game/1, e.g. from rook play --json) or the history of a finished rook serve "
                    "game; writes one JSON line per document with the review of each played hand, or "
                    "text with --show.")
    an.add_argument("--budget", type=flags.BUDGET, default=0,
                    help="node budget per search (0: none, the default); past it a card's cost is a lower bound")
    an.add_argument("--time-budget", type=flags.seconds, default=0.0, metavar="SECONDS",
                    help="time budget per search (0: none), the same way; unlike a node budget its answers "
                         "depend on the machine")
    an.add_argument("--workers", type=flags.WORKERS, default=1, help="threads per search (default 1)")
    an.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    an.add_argument("--nest", action="store_true",
                    help="also review the nest: each trump with its best discard, double dummy (slow)")
    an.add_argument("--nest-budget", type=flags.BUDGET, default=0,
                    help="node budget per search of the nest review (0: none)")
    an.add_argument("--nest-time-limit", type=flags.seconds, default=0.0, metavar="SECONDS",
                    help="seconds for the whole nest review of a hand (0: none), as rook nest --time-limit")
    an.add_argument("--show", action="store_true", help="print the reviews for people instead of JSON")
    od = sub.add_parser(
        "odds", help="the odds of making each bid with a hand, per trump, by double-dummy simulation",
        description="Deals the cards a seat cannot see at random, makes the seat the declarer and "
                    "solves each deal double dummy for each trump (the nest handled by the heuristic "
                    "declarer); prints the share of deals in which the declaring team makes each bid.")
    od.add_argument("--preset", default="tournament", choices=sorted(PRESETS), help="the game")
    hand = od.add_mutually_exclusive_group(required=True)
    hand.add_argument("--hand", help="the seat's cards before the bidding (e.g. 'R14 R13 B5 ...')")
    hand.add_argument("--deal", type=flags.seed, metavar="SEED", help="take the seat's cards of this deal")
    od.add_argument("--seat", type=flags.int_in(0, 3), default=0, help="the seat (default 0)")
    od.add_argument("--worlds", type=flags.int_in(1, 100_000), default=200,
                    help="deals of the unseen cards (default 200)")
    od.add_argument("--seed", type=flags.seed, default=0, help="the seed of those deals (default 0)")
    od.add_argument("--workers", type=flags.WORKERS, default=1, help="threads solving them (default 1)")
    od.add_argument("--budget", type=flags.BUDGET, default=0,
                    help="node budget per search (0: none); a world whose search runs out keeps what it "
                         "proved, and a share it leaves open is printed as a range")
    od.add_argument("--time-budget", type=flags.seconds, default=0.0, metavar="SECONDS",
                    help="time budget per search (0: none), the same way")
    od.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    od.add_argument("--json", action="store_true", help="print JSON instead of a table")
    od.add_argument("--plot", type=flags.file_name, metavar="FILE", help="also draw the odds (.png, .svg or .pdf)")
    sub.add_parser("contract", help="Toonerville: does each hand meet its contract, and its least "
                                    "deadwood (JSON lines on stdin)")
    de = sub.add_parser("demo", help="deal a hand, solve it double dummy, simulate a batch")
    de.add_argument("--seed", type=flags.seed, default=8, help="the seed of the deal and the simulation (default 8)")
    de.add_argument("--hands", type=flags.int_in(1, flags.COUNT_MAX), default=400,
                    help="deals in the simulation, each played twice (default 400)")
    si = sub.add_parser("simulate", help="many seeded hands or games between bots: summary, "
                                         "columns, plots")
    si.add_argument("--preset", default="tournament", choices=games, help="the game")
    si.add_argument("--agents", default=None,
                    help="agent kinds, seat 0 first (random, heuristic, pimc, dd, modelbid; Toonerville: random, "
                         "heuristic); default heuristic,random,... alternating")
    unit = si.add_mutually_exclusive_group()
    unit.add_argument("--hands", type=flags.int_in(0, flags.COUNT_MAX),
                      help="single hands to play (default 1000; Toonerville plays --games)")
    unit.add_argument("--games", type=flags.int_in(0, flags.COUNT_MAX),
                      help="games to play to the target (Toonerville: default 20); --out also writes them")
    si.add_argument("--seed", type=flags.seed, default=0, help="the run's seed (default 0)")
    si.add_argument("--workers", type=flags.WORKERS, default=1,
                    help="threads for the native loop (random and heuristic agents), processes "
                         "for the others (default 1)")
    si.add_argument("--duplicate", action="store_true",
                    help="play every deal twice with the sides swapped")
    si.add_argument("--max-hands", type=flags.int_in(1, 10**6), default=200, help="stop a game after this many hands")
    si.add_argument("--worlds", type=flags.int_in(1, 100_000), default=None,
                    help="worlds per card decision of pimc agents (default 16)")
    si.add_argument("--tolerance", type=flags.int_in(0, 10_000), default=None, metavar="POINTS",
                    help="pimc agents take each world's card values only to within this many points, "
                         "times the share of the hand's points not yet taken (0: exact, the default; "
                         "docs/bots.md has what it saves and what it costs in play)")
    si.add_argument("--decision-time", type=flags.seconds, default=None, metavar="SECONDS",
                    help="pimc agents choose each card from the worlds they solve within this many seconds "
                         "(0: every world, the default); the results then depend on the machine's speed and "
                         "are not reproducible from the seed alone")
    si.add_argument("--engine", action="append", metavar="NAME=COMMAND",
                    help="an outside bot: a program that answers JSON lines (docs/FORMATS.md, "
                         "\"An outside bot\"), usable by NAME in --agents; e.g. "
                         "--engine mine='python examples/outside_bot.py' --agents mine,heuristic,mine,heuristic")
    si.add_argument("--engine-timeout", type=flags.seconds, default=None, metavar="SECONDS",
                    help="the longest an outside bot of --engine may take to answer one request (default 30)")
    si.add_argument("--out", type=flags.file_name, metavar="FILE",
                    help="write the hands (and games) as .parquet, .csv or .npz")
    si.add_argument("--report", type=flags.file_name, metavar="FILE",
                    help="write plots for bidders (.png, .svg or .pdf)")
    si.add_argument("--json", action="store_true", help="print the summary as JSON, not a table")
    si.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    _toonerville_options(si)
    se = sub.add_parser("serve", help="the HTTP JSON service, with a browser table (needs the serve extra)")
    se.add_argument("--host", default="127.0.0.1",
                    help="the address to listen on (127.0.0.1: this machine only; 0.0.0.0: every interface)")
    se.add_argument("--port", type=flags.int_in(0, 65535), default=8000,
                    help="the TCP port (default 8000; 0: any free one)")
    se.add_argument("--db", type=flags.file_name, default="rook-games.sqlite",
                    help="the SQLite file of the games (default %(default)s)")
    se.add_argument("--jobs-dir", type=flags.file_name, default=None,
                    help="where simulation results go (default: beside --db)")
    Limits.add_arguments(se)
    sub.add_parser("engine", help="the engine over stdin/stdout, one JSON message per line")
    for name, parser in sub.choices.items():
        described = flags.COMMANDS.get(name)
        if described is not None and parser.epilog is None:         # an alias shares its parser
            parser.description = textwrap.fill(parser.description or described[0], 79, break_on_hyphens=False)
            parser.epilog = "example:\n  " + described[1]
        parser.formatter_class = flags.HelpFormatter
    return p




def subcommands(parser: argparse.ArgumentParser | None = None) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """Each subcommand of ``rook`` as (name, one-line summary, its parser), in
    the order ``rook --help`` lists them, aliases left out."""
    parser = parser if parser is not None else build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [(c.dest, c.help or "", sub.choices[c.dest]) for c in sub._choices_actions]


def _toonerville_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("Toonerville (--preset toonerville)")
    g.add_argument("--players", type=flags.int_in(3, 5), default=None,
                   help="3 to 5 players (default 4, or one per --agents)")
    g.add_argument("--rounds", default=None, help="the rounds to play, e.g. 1,2,11 (default all eleven)")
    g.add_argument("--turn-limit", type=flags.int_in(1, 10**6), default=1000,
                   help="end a round with nobody out after this many turns (default 1000)")


def _agent_list(args: argparse.Namespace, default: list[str]) -> list[str]:
    """The --agents kinds, or ``default`` cycled over the seats."""
    toon = args.preset == "toonerville"
    if args.agents is not None:
        agents = [a.strip() for a in args.agents.split(",")]
        if toon and args.players is not None and len(agents) != args.players:
            raise RookError(f"--players {args.players} needs {args.players} agents, got {len(agents)}")
        if not toon and len(agents) != 4:
            raise RookError(f"--agents needs four kinds, got {len(agents)}")
        return agents
    seats = (4 if args.players is None else args.players) if toon else 4
    return [default[i % len(default)] for i in range(seats)]


def _toonerville_rounds(args: argparse.Namespace) -> tuple[int, ...]:
    if args.rounds is None:
        return tuple(range(1, 12))
    try:
        return tuple(int(x) for x in args.rounds.split(","))
    except ValueError:
        raise RookError(f"--rounds is a list of round numbers like 1,2,11, not {args.rounds!r}") from None


def _check_trick_only(args: argparse.Namespace) -> None:
    """Refuse Toonerville options for a trick-taking preset and the reverse."""
    if args.preset == "toonerville":
        for flag, value in (("--hands", getattr(args, "hands", None)),
                            ("--duplicate", getattr(args, "duplicate", False)),
                            ("--report", getattr(args, "report", None)), ("--worlds", getattr(args, "worlds", None))):
            if value:
                raise RookError(f"{flag} is for the trick-taking presets, not toonerville "
                                "(which plays whole games: --games N)")
    elif args.players is not None or args.rounds is not None:
        raise RookError("--players and --rounds are for --preset toonerville")
    pimc_flags = [f for f, name in (("--worlds", "worlds"), ("--tolerance", "tolerance"),
                                    ("--decision-time", "decision_time")) if getattr(args, name, None) is not None]
    if args.preset != "toonerville" and pimc_flags and "pimc" not in (args.agents or ""):
        raise RookError(f"{', '.join(pimc_flags)} set pimc agents, and --agents has none")


def _one_line(text: str) -> str:
    """``text`` with every character that is not printable (a newline, U+001E)
    written as its escape: an error stays one line, and nothing raw of what
    the user typed reaches the terminal."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _serve(args: argparse.Namespace) -> int:
    try:
        from .service.app import create_app
        from .service.serving import serve
    except ImportError as e:
        raise RookError(f"rook serve: {e}") from None
    if not 0 <= args.port <= 65535:
        raise RookError(f"--port must be 0..65535, not {args.port}")
    folder = os.path.dirname(os.path.abspath(args.db))
    if not os.path.isdir(folder):
        raise RookError(f"--db {args.db!r}: the folder {folder!r} does not exist")
    limits = Limits.from_arguments(args)
    serve(create_app(args.db, args.jobs_dir, limits=limits), args.host, args.port, limits)
    return 0


@contextmanager
def _progress_bar(total: int, unit: str, off: bool) -> Iterator[Callable[[int, int], None]]:
    """A tqdm bar on stderr for the work of the with-block (none when
    ``off``; silent when stderr is not a terminal), closed at its end; yields
    the ``progress(done, total)`` callback that moves it (``total`` may come
    with the callback: 0 until then)."""
    bar = None
    if not off:
        from tqdm import tqdm  # type: ignore[import-untyped]
        bar = tqdm(total=total, unit=unit, file=sys.stderr, disable=None, dynamic_ncols=True)

    def progress(done: int, total: int) -> None:
        if bar is not None:
            if bar.total != total:
                bar.total = total
            bar.update(done - bar.n)
    try:
        yield progress
    finally:
        if bar is not None:
            bar.close()


def _simulate_toonerville(args: argparse.Namespace) -> int:
    from .sim.simulate import check_out_path
    from .sim.toonerville import format_toonerville_summary, simulate_toonerville
    agents = _agent_list(args, ["heuristic", "random"])
    if args.out:
        check_out_path(args.out)
    games = 20 if args.games is None else args.games
    with _progress_bar(games, "games", args.no_progress) as progress:
        result = simulate_toonerville(agents, games=games, seed=args.seed, rounds=_toonerville_rounds(args),
                                      turn_limit=args.turn_limit, workers=args.workers, progress=progress)
    summary = result.summary()
    print(json_line(summary) if args.json else format_toonerville_summary(summary))
    sys.stdout.flush()
    if args.out:
        for path in result.save(args.out):
            print(f"wrote {path}", file=sys.stderr)
    return 0


def _engines(specs: list[str] | None, timeout: float) -> dict[str, Any]:
    """The --engine NAME=COMMAND bots, by name (rook_core.bots.outside.EngineBot)."""
    from .bots.agents import AGENTS
    from .bots.outside import EngineBot
    out: dict[str, Any] = {}
    for spec in specs or []:
        name, eq, command = spec.partition("=")
        name = name.strip()
        if not eq or not name or not command.strip():
            raise RookError(f"--engine takes NAME=COMMAND, not {spec!r}")
        if name in AGENTS or name in out:
            raise RookError(f"--engine {name!r}: that name is taken")
        out[name] = EngineBot(command, name, timeout)
    return out


def _simulate(args: argparse.Namespace) -> int:
    from .sim.report import check_report_path, format_summary, write_report
    from .sim.simulate import check_out_path, simulate
    _check_trick_only(args)
    if args.preset == "toonerville":
        return _simulate_toonerville(args)
    agents = _agent_list(args, ["heuristic", "random"])
    if args.out:
        check_out_path(args.out)
    if args.report:
        check_report_path(args.report)
    pimc = {k: v for k, v in (("worlds", args.worlds), ("tolerance", args.tolerance),
                              ("decision_time", args.decision_time)) if v is not None}
    options = {"pimc": pimc} if pimc and "pimc" in agents else {}
    if args.engine_timeout is not None and not args.engine:
        raise RookError("--engine-timeout sets outside bots, and there is no --engine")
    engines = _engines(args.engine, 30.0 if args.engine_timeout is None else args.engine_timeout)
    seats: list[Any] = [engines.get(a, a) for a in agents]
    count = {"games": args.games} if args.games is not None else {"hands": 1000 if args.hands is None
                                                                   else args.hands}
    with _progress_bar(next(iter(count.values())), next(iter(count)), args.no_progress) as progress:
        result = simulate(args.preset, seats, seed=args.seed, workers=args.workers,
                          duplicate=args.duplicate, max_hands=args.max_hands,
                          agent_options=options, progress=progress, **count)
    summary = result.summary()
    if args.json:
        print(json_line(summary))
    else:
        print(format_summary(summary))
    sys.stdout.flush()
    if args.out:
        for path in result.save(args.out):
            print(f"wrote {path}", file=sys.stderr)
    if args.report:
        print(f"wrote {write_report(result, args.report)}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    from .analysis import contract_answer, legal_answer, perft_answer
    args = build_parser().parse_args(argv)
    try:
        if args.command == "legal":
            return _run_jsonl(sys.stdin, sys.stdout, legal_answer)
        if args.command == "perft":
            if not 1 <= args.depth <= 64:
                raise RookError(f"--depth must be 1..64, not {args.depth}")
            return _run_jsonl(sys.stdin, sys.stdout, perft_answer(args.depth, args.max_nodes))
        if args.command == "solve":
            if args.budget < 0:
                raise RookError("--budget must not be negative")
            if not 0 <= args.time_budget < 1e9:
                raise RookError("--time-budget must be a number of seconds >= 0")
            answer = _solve(args.budget, args.time_budget, args.at_least, args.show)
            if not args.show:
                return _run_jsonl(sys.stdin, sys.stdout, answer)
            return _show_lines(sys.stdin, lambda obj: print(answer(obj)["_show"] + "\n"))
        if args.command == "nest":
            if args.workers < 1 or args.budget < 0:
                raise RookError("--workers must be at least 1 and --budget not negative")
            nest = _nest_answer(args.workers, args.budget, args.time_limit, args.no_progress)

            def nest_line(obj: Any) -> dict[str, Any]:
                out = nest(obj)
                hand = out.pop("_hand")
                if args.show:
                    print(_show_nest(hand, out) + "\n")
                return out
            if args.preset is None and args.seed is not None:
                raise RookError("--seed deals a hand of --preset; without --preset, rook nest reads hand "
                                "JSON lines from stdin")
            if args.preset is not None:
                decision = nest_line(_hand_at_nest(args.preset, args.seed or 0))
                if not args.show:
                    print(json_line(decision))
                return 0
            if args.show:
                return _show_lines(sys.stdin, nest_line)
            return _run_jsonl(sys.stdin, sys.stdout, nest_line)
        if args.command == "odds":
            return _odds(args)
        if args.command in ("analyse", "analyze"):
            return _analyse(args)
        if args.command == "contract":
            return _run_jsonl(sys.stdin, sys.stdout, contract_answer)
        if args.command == "demo":
            if args.hands < 1:
                raise RookError("--hands must be at least 1")
            from .demo import run_demo
            run_demo(sys.stdout, args.seed, args.hands)
            return 0
        if args.command == "simulate":
            return _simulate(args)
        if args.command == "engine":
            from .engine import run_engine
            return run_engine(sys.stdin, sys.stdout)
        if args.command == "serve":
            return _serve(args)
        if args.command == "play":
            _check_trick_only(args)
            agents = _agent_list(args, ["heuristic"])
            if args.preset == "toonerville":
                from .toonerville.agents import play_game as play_toonerville
                from .toonerville.playlog import new_table, write_game_log
                players = args.players if args.players is not None else len(agents)
                if args.json:
                    game, bots = new_table(players, args.seed, agents, _toonerville_rounds(args), args.turn_limit)
                    print(json_line(play_toonerville(game, bots).to_json()))
                    return 0
                write_game_log(players, args.seed, agents, sys.stdout, _toonerville_rounds(args), args.turn_limit)
                return 0
            from .bots.agents import AGENTS
            for a in agents:
                if a not in AGENTS:
                    raise RookError(f"unknown agent {a!r}; known: {', '.join(AGENTS)}")
            if args.max_hands < 1:
                raise RookError("--max-hands must be at least 1")
            if args.json:
                print(json_line(play_game(args.preset, args.seed, agents, args.max_hands).to_json()))
                return 0
            play_game_log(args.preset, args.seed, agents, args.max_hands, sys.stdout)
            return 0
    except BotError as e:    # a bot that failed during the run, not a bad argument
        print(f"rook: error: {_one_line(str(e))}", file=sys.stderr)
        return 1
    except RookError as e:
        print(f"rook: error: {_one_line(str(e))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `rook play | head`
        sys.stderr.close()
        return 0
    except OSError as e:     # the system refused a read or write (a full disk, stdout on /dev/full)
        print(f"rook: error: {e.strerror or e}" + (f": {e.filename}" if e.filename else ""), file=sys.stderr)
        with suppress(OSError):
            sys.stdout.close()   # (what it still held cannot be written either)
        return 1
    except KeyboardInterrupt:  # Ctrl-C: a search under way stops within a few hundred nodes
        print("rook: interrupted", file=sys.stderr)
        return 130
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
