"""The nest decision (T-7, T-20, T-13) against brute force.

``rook_core.nest.nest_decision`` merges equivalent discards, tries the
discards best-looking first and settles most of them with a yes/no search.
Brute force here buries every subset of the declarer's cards, names every
trump, and solves each play position exactly with ``Solver.value`` (a new
solver each time, while the decision shares one table between discards
with different nest points); the
decision must find, for every trump, exactly the brute-force maximum of the
declarer's team's points, and its discard must score that maximum.

The variants are small (5 cards a hand, a nest of 5: 252 discards x 4
trumps) so brute force stays quick, with the knobs that change the
decision: counters that may not be buried (T-20), the nest to the declarer
instead of the last trick (T-13, section 4), a last-trick bonus, trump named
before the nest (T-7), a most-tricks bonus (section 4), and a low bird
(C-4).  ``DEALS`` hands of each, the bidding played at random.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from _support import random_nest

from rook_core import HandState
from rook_core.actions import TRUMP, Phase
from rook_core.errors import PositionError, RookError
from rook_core.nest import NestDecision, best_looking_discards, discard_order, nest_decision, play_after
from rook_core.solver import Solver
from rook_core.variant import Variant

DEALS = 4
BASE = dict(ranks=tuple(range(9, 15)), hand_size=5, nest_size=5,
            counters=((10, 10), (14, 10), ("Rook", 20)), min_bid=20, max_bid=60, bid_step=5)
VARIANTS = {
    "plain": Variant(name="mini", **BASE),
    "no-counters-buried": Variant(name="mini-keep", **BASE, discard_counters=False),
    "nest-to-declarer": Variant(name="mini-decl", **BASE, nest_to="declarer"),
    "last-trick-bonus": Variant(name="mini-bonus", **BASE, last_trick_bonus=20),
    "trump-first": Variant(name="mini-trump-first", **BASE, post_bid_order=("trump", "nest")),
    "most-tricks": Variant(name="mini-most", **BASE, most_tricks_bonus=20),
    "low-bird": Variant(name="mini-low", **dict(BASE, counters=((10, 10), (14, 10), ("Rook", 20))),
                        bird_rank="low"),
}


def _at_nest(variant: Variant, seed: int) -> HandState:
    return random_nest(variant, seed, step=1000)


def _declarer_points(state: HandState, value: int, declarer: int) -> int:
    cards = 0
    for s in range(4):
        cards |= state.hand_mask(s)
    v = state.variant
    from rook_core._native.rules import rules_for
    total = rules_for(v).points(cards) + v.last_trick_bonus + v.most_tricks_bonus
    if v.nest_to == "last_trick":
        total += state.nest_points
    points = value if declarer % 2 == 0 else total - value
    return points + (state.nest_points if v.nest_to == "declarer" else 0)


def _brute_force(hand: HandState) -> dict[int, int]:
    """Return {trump: the most points the declarer's team can take}."""
    declarer = hand.to_move
    allowed = [a for a in hand.legal_actions() if a < 64]
    trumps = [hand.trump] if hand.trump is not None else [0, 1, 2, 3]
    best: dict[int, int] = {}
    for trump in trumps:
        for discard in itertools.combinations(allowed, hand.remaining):
            state = hand.clone()
            for c in discard:
                state.apply(c)
            if state.phase == Phase.TRUMP:
                state.apply(TRUMP + trump)
            # a fresh table each time: nothing carried over between nests
            points = _declarer_points(state, Solver(1 << 20).value(state), declarer)
            best[trump] = max(best.get(trump, -1), points)
    return best


@pytest.mark.parametrize("knob", list(VARIANTS))
def test_T7_T20_nest_decision_equals_brute_force(knob: str) -> None:
    variant = VARIANTS[knob]
    solver = Solver(4 << 20)
    for seed in range(DEALS):
        hand = _at_nest(variant, seed)
        want = _brute_force(hand)
        got = nest_decision(hand)
        assert {c.trump: c.points for c in got.choices} == want, (knob, seed, hand.to_json())
        assert got.best.points == max(want.values())
        for choice in got.choices:
            # the reported discard scores the reported points
            state = hand.clone()
            for c in choice.discard:
                state.apply(int(c))
            if state.phase == Phase.TRUMP:
                state.apply(TRUMP + choice.trump)
            value = solver.value(state)
            assert value == choice.value
            assert _declarer_points(state, value, got.declarer) == choice.points
            assert 1 <= choice.solved <= choice.discards


def _decisions_with_brute_force(**options: Any) -> Iterator[tuple[int, HandState, dict[int, int], NestDecision]]:
    """(seed, hand, brute force's best points per trump, the decision under
    ``options``) for the ``DEALS`` hands of the last-trick-bonus variant."""
    for seed in range(DEALS):
        hand = _at_nest(VARIANTS["last-trick-bonus"], seed)
        yield seed, hand, _brute_force(hand), nest_decision(hand, **options)


@pytest.mark.parametrize("budget", [1, 30, 300, 3000])
def test_T20_nest_decision_under_a_budget_keeps_what_it_proved(budget: int) -> None:
    """A node budget per search never loses the decision: each trump still
    gets a discard, and what is reported holds.  Its points are at most the
    true best (brute force); when ``exact``, the discard scores exactly
    those points; when also nothing is ``unsettled``, they are the best."""
    solver = Solver(4 << 20)
    cut = 0
    for seed, hand, want, got in _decisions_with_brute_force(node_budget=budget):
        assert got.proven == all(c.exact and not c.unsettled for c in got.choices)
        cut += not got.proven
        for choice in got.choices:
            assert choice.points <= want[choice.trump], (seed, choice)
            state = hand.clone()
            for c in choice.discard:
                state.apply(int(c))
            if state.phase == Phase.TRUMP:
                state.apply(TRUMP + choice.trump)
            points = _declarer_points(state, solver.value(state), got.declarer)
            assert points >= choice.points, (seed, choice)   # the discard gives at least that
            if choice.exact:
                assert points == choice.points
            else:   # the choice's own value search was cut: it is not counted as solved
                assert choice.solved < choice.discards
            if choice.proven:
                assert choice.points == want[choice.trump]
    if budget == 1:
        assert all(c.solved == 0 for *_, got in _decisions_with_brute_force(node_budget=1) for c in got.choices)
        assert cut == DEALS   # one node proves nothing here: every decision says so


def test_T20_nest_decision_under_a_time_limit_keeps_what_it_proved() -> None:
    """A whole-decision time limit: past each trump's share the discards not
    yet compared stay undecided.  With a microsecond, each trump compares its
    first discard only (these searches take fewer nodes than a look at the
    clock), the reported points hold as under a node budget, and a limit
    that is never reached changes nothing."""
    solver = Solver(4 << 20)
    unsettled = 0
    for _, hand, want, got in _decisions_with_brute_force(time_limit=1e-6):
        for choice in got.choices:
            assert choice.solved == 1 and choice.exact and choice.points <= want[choice.trump]
            unsettled += choice.unsettled
            state = play_after(hand, choice.trump, tuple(int(c) for c in choice.discard))
            assert _declarer_points(state, solver.value(state), got.declarer) == choice.points
        assert nest_decision(hand, time_limit=1000, workers=2) == nest_decision(hand)
    assert unsettled > 0
    for bad in (-1, True, "1", float("inf")):
        with pytest.raises(RookError, match="time_limit"):
            nest_decision(hand, time_limit=bad)
    res = _rook("nest", "--preset", "tournament", "--seed", "7", "--time-limit", "0.000001", "--show")
    assert res.returncode == 0 and "undecided" in res.stdout and "time limit" in res.stdout, res.stderr
    res = _rook("nest", "--preset", "tournament", "--seed", "7", "--time-limit", "-1")
    assert res.returncode == 2 and "--time-limit" in res.stderr and "Traceback" not in res.stderr
    res = _rook("nest", "--seed", "7")     # a seed without a preset would read stdin and ignore it
    assert res.returncode == 2 and "--preset" in res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize("time_limit,workers", [(0.4, 1), (8.0, 2), (0.0, 1)])
def test_T20_a_time_limit_sizes_each_table_to_its_share_and_touches_it_before_the_shares_begin(
        monkeypatch: pytest.MonkeyPatch, time_limit: float, workers: int) -> None:
    """The first touch of a new table's pages is the system's work, up to
    about 0.6 s for 256 MiB here: paid inside the first trump's share, it
    left that trump a few hundred nodes while the others searched millions.
    Under a time limit each thread's table is touched before the trumps'
    clocks start, and is no bigger than a share can fill."""
    import rook_core.nest as nest
    events: list[tuple[str, int]] = []

    class Recorded(Solver):
        def __init__(self, tt_bytes: int, *args: Any, **kw: Any) -> None:   # the native base takes the args
            self.size = tt_bytes

        def touch(self) -> None:
            events.append(("touch", self.size))
            super().touch()

        def at_least(self, *args: Any, **kw: Any) -> bool:
            events.append(("search", self.size))
            return super().at_least(*args, **kw)

        def value(self, *args: Any, **kw: Any) -> Any:
            events.append(("search", self.size))
            return super().value(*args, **kw)

    monkeypatch.setattr(nest, "Solver", Recorded)
    hand = _at_nest(VARIANTS["last-trick-bonus"], 0)
    got = nest_decision(hand, time_limit=time_limit, workers=workers)
    kinds = [k for k, _ in events]
    threads = min(workers, len(got.choices))
    share = time_limit / -(-len(got.choices) // threads)
    want = min(256 << 20, max(nest.MIN_TIMED_TABLE, int(share * nest.TABLE_BYTES_PER_SECOND))) if share \
        else 256 << 20
    assert {size for _, size in events} == {want}
    assert kinds[:threads] == ["touch"] * threads if time_limit else "touch" not in kinds
    assert kinds.count("touch") == (threads if time_limit else 0) and "search" in kinds


@pytest.mark.parametrize("knob", list(VARIANTS))
def test_T7_T20_best_looking_discards_are_legal_distinct_plays_and_one_of_them_is_best(knob: str) -> None:
    """Every discard of ``discard_order`` is legal and distinct, and
    ``play_after`` plays it into the play phase with that trump and nest;
    all of them together hold a best discard of each trump (brute force),
    and ``best_looking_discards(hand, n)`` is their first ``n`` per trump."""
    variant = VARIANTS[knob]
    solver = Solver(4 << 20)
    for seed in range(DEALS):
        hand = _at_nest(variant, seed)
        want = _brute_force(hand)
        every = best_looking_discards(hand, 10_000)
        for trump in want:
            mine = [d for t, d in every if t == trump]
            assert mine == discard_order(hand, trump, hand.remaining)
            assert len({frozenset(d) for d in mine}) == len(mine)
            assert [d for t, d in best_looking_discards(hand, 3) if t == trump] == mine[:3]
            points = []
            for d in mine:
                state = play_after(hand, trump, d)
                assert state.phase == Phase.PLAY and state.trump == trump
                assert state.nest_mask == sum(1 << c for c in d) | hand.nest_mask
                points.append(_declarer_points(state, solver.value(state), hand.to_move))
            assert max(points) == want[trump], (knob, seed, trump)


def test_T20_equivalent_discards_are_merged() -> None:
    """Fewer distinct discards than subsets: equivalent cards are tried once."""
    hand = _at_nest(VARIANTS["plain"], 7)
    got = nest_decision(hand)
    assert all(c.discards < 252 for c in got.choices)


def test_nest_decision_same_with_two_workers_and_progress() -> None:
    hand = _at_nest(VARIANTS["plain"], 11)
    seen: list[tuple[int, int]] = []
    one = nest_decision(hand)
    two = nest_decision(hand, workers=2, progress=lambda done, total: seen.append((done, total)))
    assert one == two
    assert seen[-1][0] == seen[-1][1] == sum(c.discards for c in one.choices)
    assert [d for d, _ in seen] == list(range(1, len(seen) + 1))


@pytest.mark.parametrize("budget", [40, 400])
def test_nest_decision_under_a_budget_same_with_one_or_two_workers(budget: int) -> None:
    """A thread's solver goes from trump to trump: each trump starts from an
    empty table, so even the budget stops (which depend on what the table
    holds) are the same whichever thread searched which trump."""
    for seed in (3, 11):
        hand = _at_nest(VARIANTS["plain"], seed)
        assert nest_decision(hand, node_budget=budget) == nest_decision(hand, node_budget=budget,
                                                                        workers=2)


def test_T20_nest_decision_refuses_other_phases() -> None:
    hand = HandState.deal("tournament", 3)
    with pytest.raises(PositionError, match="nest phase"):
        nest_decision(hand)
    before = hand.to_json()
    assert hand.to_json() == before


def test_T22_nest_decision_refuses_passing_after_the_nest() -> None:
    """partnership-57 passes cards after the widow (T-22): the hands of the
    play are not known at the nest, so there is no double-dummy answer."""
    hand = _at_nest(Variant(name="p57", **{**BASE, "nest_size": 1, "hand_size": 6,
                                            "ranks": tuple(range(9, 15)), "pass_cards": 1,
                                            "post_bid_order": ("trump", "nest", "pass"),
                                            "nest_exchange": "swap_one"}), 1)
    with pytest.raises(PositionError, match="passed"):
        nest_decision(hand)


def test_nest_decision_json() -> None:
    hand = _at_nest(VARIANTS["plain"], 2)
    got = nest_decision(hand).to_json()
    assert set(got) == {"declarer", "best", "trumps", "nodes", "proven"}
    assert got["proven"] is True
    assert all(t["exact"] is True and t["unsettled"] == 0 for t in got["trumps"])
    assert len(got["trumps"]) == 4
    assert got["best"]["points"] == max(t["points"] for t in got["trumps"])
    assert all(len(t["discard"]) == 5 for t in got["trumps"])


# ---------------------------------------------------------------- rook nest

def _rook(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rook_core.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=300)


def test_T20_cli_nest_answers_hand_json_lines() -> None:
    """``rook nest`` reads hand JSON lines (``HandState.to_json``), answers
    each in order with the API's decision, echoes ``id``, and gives a bad
    line an error answer and exit status 1."""
    hands = [_at_nest(VARIANTS[k], 3) for k in ("plain", "last-trick-bonus")]
    lines = [json.dumps(dict(h.to_json(), id=f"h{i}")) for i, h in enumerate(hands)]
    lines.insert(1, json.dumps({"id": "bad", "variant": "tournament", "start": {}, "actions": []}))
    res = _rook("nest", stdin="\n".join(lines) + "\n")
    assert res.returncode == 1, res.stderr
    out = [json.loads(x) for x in res.stdout.splitlines()]
    assert [o["id"] for o in out] == ["h0", "bad", "h1"]
    assert "error" in out[1] and "start" in out[1]["error"]
    for hand, answer in zip(hands, (out[0], out[2])):
        want = nest_decision(hand).to_json()
        assert {k: v for k, v in answer.items() if k != "id"} == want


def test_cli_nest_show_and_refusals() -> None:
    hand = _at_nest(VARIANTS["plain"], 5)
    res = _rook("nest", "--show", stdin=json.dumps(hand.to_json()) + "\n")
    assert res.returncode == 0, res.stderr
    best = nest_decision(hand).best
    assert "best" in res.stdout and " ".join(best.discard.names()) in res.stdout
    res = _rook("nest", "--preset", "partnership-57", "--seed", "1")
    assert res.returncode == 2 and "error" in res.stderr
    res = _rook("nest", "--workers", "0", "--preset", "tournament")
    assert res.returncode == 2 and "--workers" in res.stderr
