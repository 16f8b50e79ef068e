"""``rook analyse`` and :mod:`rook_core.review`: the double-dummy review of played hands.

On short hands the review's values are held to the exhaustive minimax of
the reference (T-8 .. T-14); on full hands the costs add up (what the deal
was worth under best play, less what was taken, is the costs of one team
less the other's), a best card costs nothing and a card that cost points
names better ones; perfect (double-dummy) play costs nothing at all.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from rook_core import Game, HandState, RookError, Variant
from rook_core._reference.minimax import dd_value
from rook_core.actions import Phase, parse_action
from rook_core.bots.agents import act_for, make_agent
from rook_core.review import BIG_TABLE, played_hands, review_game, review_hand

# 4 cards each: whole hands stay within the reference minimax's reach
SMALL = Variant(name="small", ranks=(10, 11, 12, 13, 14), hand_size=4, nest_size=5, min_bid=30, max_bid=100,
                counters=((10, 10), (14, 10), ("Rook", 20)))
SMALL_HOUSE = SMALL.replace(name="small-house", nest_to="declarer", first_lead="declarer",
                            post_bid_order=("nest", "trump", "discard"), discard_counters=False,
                            discard_trump_counters=True, exposed_nest=True, moon_score=200)


def _played(variant: Variant | str, seed: int, kinds: tuple[str, ...] = ("heuristic",) * 4) -> HandState:
    """A hand of ``variant`` played to its end by bots: deal ``seed``, or the
    next deal that was not thrown in (T-6)."""
    while True:
        h = HandState.deal(variant, seed=seed)
        bots = [make_agent(k, h.variant, seed * 4 + s) for s, k in enumerate(kinds)]
        while h.to_move is not None:
            h.apply(act_for(bots[h.to_move], h, h.to_move))
        if h.phase == Phase.DONE:
            return h
        seed += 1000


@pytest.mark.parametrize("variant", [SMALL, SMALL_HOUSE], ids=["small", "small-house"])
@pytest.mark.parametrize("seed", range(8))
def test_T8_T14_each_value_is_the_reference_minimax(variant: Variant, seed: int) -> None:
    h = _played(variant, seed, ("random", "heuristic", "random", "heuristic"))
    review = review_hand(h)
    state = h.at_start()
    assert state.history == [] and state.hand_mask(0) == h.start_masks[1][0]     # T-2: the deal itself
    i = 0
    for a in h.history:
        if state.phase == Phase.PLAY:
            extra = state.nest_points if variant.nest_to == "declarer" and h.declarer % 2 == 0 else 0
            want = state.points[0] + dd_value(state) + extra
            assert review.cards[i].before == (want, want), (seed, i)
            i += 1
        state.apply(a)
    assert i == len(review.cards) == 4 * variant.hand_size
    assert review.cards[-1].after == (h.points[0], h.points[0])


@pytest.mark.parametrize(("preset", "seed"), [("tournament", s) for s in range(6)] + [("crowsnest", 1)])
def test_T8_the_costs_add_up_and_name_better_cards(preset: str, seed: int) -> None:
    h = _played(preset, seed)
    r = review_hand(h)
    assert all(c.exact and c.cost >= 0 for c in r.cards)
    for prev, c in zip(r.cards, r.cards[1:]):
        assert prev.after == c.before
    gave = [sum(c.cost for c in r.cards if c.seat % 2 == t) for t in (0, 1)]
    assert r.worth is not None and r.worth[0] - h.points[0] == gave[0] - gave[1]
    for c in r.cards:
        assert (c.cost > 0) == bool(c.best) and c.card not in c.best
    assert sum(n for n, _ in r.mistakes().values()) == sum(1 for c in r.cards if c.cost)
    data = json.loads(json.dumps(r.to_json()))
    assert data["points"] == list(h.points) and len(data["cards"]) == 36
    assert "seat" in r.text() and "points given away" in r.text() or not any(c.cost for c in r.cards)


def test_T8_double_dummy_play_costs_nothing() -> None:
    h = _played("tournament", 4, ("dd",) * 4)
    r = review_hand(h)
    assert [c.cost for c in r.cards] == [0] * 36 and r.worth == (h.points[0], h.points[0])


def test_a_cut_search_gives_bounds_not_a_wrong_cost() -> None:
    h = _played("tournament", 2)
    exact = review_hand(h)
    cut = review_hand(h, node_budget=200)
    assert any(not c.exact for c in cut.cards)
    for a, b in zip(exact.cards, cut.cards):
        assert b.before[0] <= a.before[0] <= a.before[1] <= b.before[1]
        assert b.cost <= a.cost         # a lower bound when not exact
    # the totals by seat: lower bounds too, and marked so wherever one of the seat's cards is not exact
    full, part = exact.to_json()["mistakes"], cut.to_json()["mistakes"]
    assert all("exact" not in m for m in full.values())
    for s in range(4):
        inexact = any(not c.exact for c in cut.cards if c.seat == s)
        assert part[str(s)].get("exact", True) is not inexact
        assert part[str(s)]["cost"] <= full[str(s)]["cost"]
        if not inexact:
            assert part[str(s)] == full[str(s)]
    assert any("at least" in line for line in cut.text().splitlines() if line.startswith("  seat"))


def test_T8_T14_a_time_budget_gives_bounds_not_a_wrong_cost() -> None:
    """A microsecond a search: the big searches stop at their first look
    at the clock (1,024 nodes) with the bounds proven, the small ones end;
    every bound holds the exact review's value and every cost is a lower
    bound.  ``rook analyse --time-budget`` does the same."""
    h = _played("tournament", 2)
    exact = review_hand(h)
    cut = review_hand(h, time_budget=1e-6)
    assert any(not c.exact for c in cut.cards) and any(c.exact for c in cut.cards)
    for a, b in zip(exact.cards, cut.cards):
        assert b.before[0] <= a.before[0] <= a.before[1] <= b.before[1]
        assert b.after[0] <= a.after[0] <= a.after[1] <= b.after[1]
        assert b.cost <= a.cost
    doc = json.dumps(h.to_json()) + "\n"
    out = subprocess.run([sys.executable, "-m", "rook_core", "analyse", "--time-budget", "0.000001",
                          "--no-progress"], input=doc, capture_output=True, text=True, check=True)
    cards = json.loads(out.stdout)["hands"][0]["cards"]
    assert len(cards) == 36 and any(not c["exact"] for c in cards) and out.stderr == ""
    bad = subprocess.run([sys.executable, "-m", "rook_core", "analyse", "--time-budget", "-1"], input=doc,
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--time-budget" in bad.stderr and "Traceback" not in bad.stderr
    with pytest.raises(RookError, match="time_budget"):
        review_hand(h, time_budget=-1)


def test_the_nest_review_gives_each_trump_its_best_discard() -> None:
    h = _played(SMALL_HOUSE, 3)
    r = review_hand(h, nest=True)
    assert r.nest is not None and len(r.nest.choices) == 4          # H-3: asked at trump
    chosen = next(c for c in r.nest.choices if c.trump == h.trump)
    team = h.declarer % 2
    worth = r.worth[0] if team == 0 else SMALL_HOUSE.total_points - r.worth[0]
    assert chosen.points >= worth           # the best discard does at least as well as the one made
    assert "the nest" in r.text() and r.to_json()["nest"]["chosen"]["trump"] in "BGRY"
    with pytest.raises(RookError, match="nest_time_limit"):
        review_hand(h, nest=True, nest_time_limit=-1)
    limited = review_hand(h, nest=True, nest_time_limit=1e-6).nest       # each trump: its first discard only
    assert limited is not None and not limited.proven and sum(c.unsettled for c in limited.choices) > 0
    assert all(c.points <= full.points for c, full in zip(limited.choices, r.nest.choices))
    widow = review_hand(_played("partnership-57", 1), nest=True, node_budget=20_000)
    assert widow.nest is None and "no nest to bury" in widow.text()          # T-21: a swap, no discard
    passing = review_hand(_played(Variant.from_preset("partnership-57", nest_exchange="discard"), 1),
                          nest=True, node_budget=20_000)
    assert passing.nest is None and "passed after the nest" in passing.to_json()["nest_skipped"]


def test_played_hands_reads_hands_games_and_service_histories() -> None:
    g = Game("tournament", 9)
    rng = random.Random(9)
    while not g.is_over and g.hand_number <= 3:
        g.apply(rng.choice(g.legal_actions()))
    done = [h for h in g.hands if h.phase == Phase.DONE]
    assert [h.history for h in played_hands(g.to_json())] == [h.history for h in g.hands
                                                               if h.declarer is not None]
    assert played_hands(json.dumps(done[0].to_json()))[0].history == done[0].history
    history = {"game": "tournament", "seed": 9,
               "actions": [{"seat": s, "action": a} for h in g.hands
                           for (_, s, _), a in zip(h.events(), h.to_json()["actions"])]}
    assert [h.history for h in played_hands(history)] == [h.history for h in played_hands(g.to_json())]
    assert len(review_game(g)) == len(played_hands(g.to_json()))
    for bad, words in [("{oops", "not valid JSON"), ({"format": "rook-chess/1"}, "not a hand"),
                       ({"game": "toonerville", "seed": 1, "actions": []}, "Toonerville"),
                       ({"game": "tournament", "seed": None, "actions": []}, "seed"), ([1], "object")]:
        with pytest.raises(RookError, match=words):
            played_hands(bad)
    with pytest.raises(RookError, match="play has begun"):
        review_hand(HandState.deal("tournament", 1))


def test_rook_analyse_reviews_what_rook_play_writes() -> None:
    game = subprocess.run([sys.executable, "-m", "rook_core", "play", "--seed", "5", "--max-hands", "2",
                           "--json"], capture_output=True, text=True, check=True).stdout
    assert json.loads(game)["format"] == "rook-game/1"
    out = subprocess.run([sys.executable, "-m", "rook_core", "analyse"], input=game + "{bad\n",
                         capture_output=True, text=True)
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert out.returncode == 1 and "error" in lines[1] and len(lines) == 2
    reviews = lines[0]["hands"]
    want = review_game(Game.from_json(game))
    assert [r["cards"] for r in reviews] == [r.to_json()["cards"] for r in want]
    shown = subprocess.run([sys.executable, "-m", "rook_core", "analyse", "--show"], input=game,
                           capture_output=True, text=True, check=True).stdout
    assert "best play from the first lead" in shown
    bad = subprocess.run([sys.executable, "-m", "rook_core", "analyse", "--workers", "0"], input="",
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--workers" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize("passes", [4, 2])
def test_T6_a_review_of_a_hand_with_no_play_says_why(passes: int) -> None:
    """A hand thrown in (T-6) is named as such; one still in the bidding names its phase."""
    h = HandState.deal("tournament", seed=1)
    for _ in range(passes):
        h.apply(parse_action("pass"))
    with pytest.raises(RookError, match="thrown in" if passes == 4 else "bid phase"):
        review_hand(h)


def test_rook_analyse_takes_an_id_on_every_kind_of_document_and_echoes_it() -> None:
    """FORMATS.md: an answer echoes the request line's ``id``; a hand, a game
    and a service history may each carry one."""
    g = Game("tournament", 3)
    rng = random.Random(3)
    while g.hands[0].phase != Phase.DONE:
        g.apply(rng.choice(g.legal_actions()))
    h = g.hands[0]
    history = {"game": "tournament", "seed": 3,
               "actions": [{"seat": s, "action": a} for (_, s, _), a in zip(h.events(), h.to_json()["actions"])]}
    docs = {"hand": h.to_json(), "game": g.to_json(), "history": history}
    lines = "".join(json.dumps({**d, "id": name}) + "\n" for name, d in docs.items())
    out = subprocess.run([sys.executable, "-m", "rook_core", "analyse", "--budget", "200000", "--no-progress"],
                         input=lines, capture_output=True, text=True)
    answers = [json.loads(x) for x in out.stdout.splitlines()]
    assert out.returncode == 0, out.stdout
    assert [a["id"] for a in answers] == list(docs) and all(len(a["hands"]) == 1 for a in answers)
    assert answers[0]["hands"] == answers[1]["hands"] == answers[2]["hands"]
    assert [r.history for r in played_hands({**docs["game"], "id": 7})] == [h.history]


def test_T6_rook_analyse_show_says_so_when_no_hand_was_played() -> None:
    out = subprocess.run([sys.executable, "-m", "rook_core", "analyse", "--show", "--no-progress"],
                         input='{"game": "tournament", "seed": 1, "actions": []}\n',
                         capture_output=True, text=True, check=True).stdout
    assert "nothing to review" in out


def test_a_review_given_its_solver_raises_SearchStopped_when_another_thread_stops_it() -> None:
    """``review_hand(solver=...)``: a stop from another thread ends the review
    (a budget only leaves bounds); the solver comes without budgets or a table
    size beside it; unstopped, the review is the default one."""
    import threading
    import time

    from rook_core.solver import SearchStopped, Solver
    h = _played("tournament", 5)
    assert review_hand(h, solver=Solver(24 << 20)).to_json() == review_hand(h).to_json()
    for extra in ({"node_budget": 5}, {"time_budget": 1.0}, {"tt_bytes": 1 << 20}):
        with pytest.raises(RookError, match="solver"):
            review_hand(h, solver=Solver(), **extra)    # type: ignore[arg-type]
    solver, done = Solver(BIG_TABLE), threading.Event()

    def stop_until_done() -> None:
        time.sleep(0.05)
        while not done.is_set():
            solver.stop()
            time.sleep(0.002)
    threading.Thread(target=stop_until_done, daemon=True).start()
    try:
        with pytest.raises(SearchStopped):
            review_hand(_played("partnership-57", 5), solver=solver)
    finally:
        done.set()


def test_a_stopped_review_of_a_game_keeps_the_hands_it_finished() -> None:
    """``review_answer(searching=...)``: a stop during the second hand's review
    answers ``ReviewStopped`` holding the first hand's review, the same as an
    unstopped one (in the JSON the engine sends: ``budget`` ``"stopped"``)."""
    import threading
    import time
    from contextlib import contextmanager

    from rook_core.analysis import review_answer
    from rook_core.review import ReviewStopped
    g = Game("tournament", 9)
    rng = random.Random(9)
    while not g.is_over and g.hand_number <= 3:
        g.apply(rng.choice(g.legal_actions()))
    doc = g.to_json()
    whole = review_answer(0)(doc)["hands"]
    assert len(whole) >= 2
    seen: list[object] = []

    @contextmanager
    def searching(solver):  # type: ignore[no-untyped-def]
        seen.append(solver)
        done = threading.Event()

        def stop_until_done() -> None:
            while not done.is_set():
                solver.stop()
                time.sleep(0.001)
        if len(seen) == 2:
            threading.Thread(target=stop_until_done, daemon=True).start()
        try:
            yield solver
        finally:
            done.set()
    with pytest.raises(ReviewStopped, match="hand 2 of") as e:
        review_answer(0, searching=searching)(doc)
    assert e.value.hands == whole[:1] and len(seen) == 2
    assert e.value.details() == {"budget": "stopped", "hands": whole[:1]}
