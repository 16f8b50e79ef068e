"""What a programmer can do wrong with the analysis APIs, and what they answer.

The nest decision (``rook_core.nest``), the review (``rook_core.review``),
the bid odds (``rook_core.odds``), hosting (``rook_core.hosting``) and
observations (``rook_core.observation``): bad input gets a RookError that
names what is wrong, a refused action leaves the state as it was, and no
answer is silently wrong.  (tests/test_api_misuse.py covers HandState, Game,
Variant, cards and positions.)
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from _support import MINI_FIELDS, played_to_end, random_nest

from rook_core import Game, HandState, RookError, Variant
from rook_core.actions import Phase
from rook_core.errors import PositionError
from rook_core.hosting import HostedGame
from rook_core.nest import best_looking_discards, discard_order, nest_decision, play_after
from rook_core.observation import Observation
from rook_core.odds import bid_odds
from rook_core.review import review_game, review_hand
from rook_core.variant import PRESETS

BASE = MINI_FIELDS
MINI = Variant(name="mini", **BASE)
TRUMP_FIRST = Variant(name="mini-trump-first", **BASE, post_bid_order=("trump", "nest"))


def _at_nest(variant: Variant = MINI, seed: int = 1) -> HandState:
    """A hand of ``variant`` at the declarer's nest decision (T-20), the bidding at random."""
    return random_nest(variant, seed)



# ------------------------------------------------------------------ nest

@pytest.mark.parametrize("call", [lambda x: nest_decision(x), lambda x: best_looking_discards(x, 1),
                                  lambda x: discard_order(x, 0, 5), lambda x: play_after(x, 0, ())])
@pytest.mark.parametrize("hand", [None, "tournament", Game("tournament", 1)])
def test_the_nest_functions_refuse_what_is_not_a_hand(call: Any, hand: object) -> None:
    with pytest.raises(RookError, match="HandState"):
        call(hand)


def test_nest_decision_refuses_a_progress_that_is_no_function_and_a_bool_of_workers() -> None:
    h = _at_nest()
    with pytest.raises(RookError, match="progress"):
        nest_decision(h, progress=5, node_budget=100)  # type: ignore[arg-type]
    with pytest.raises(RookError, match="workers"):
        nest_decision(h, workers=True, node_budget=100)


@pytest.mark.parametrize("count", [-1, 1.5, "x", None, True])
def test_best_looking_discards_refuses_a_count_that_is_no_int_from_0(count: object) -> None:
    # -1 used to slice off the last discard instead: a silent wrong answer
    with pytest.raises(RookError, match="count"):
        best_looking_discards(_at_nest(), count)  # type: ignore[arg-type]


def test_T20_discard_order_refuses_a_bad_trump_or_count_and_a_hand_not_in_the_nest_phase() -> None:
    h = _at_nest()
    for trump in ("R", None, True, 4):
        with pytest.raises(RookError, match="trump"):
            discard_order(h, trump, 5)  # type: ignore[arg-type]
    for k in (-1, 99, 1.5, True):           # -1 and 99 used to give no discard at all
        with pytest.raises(RookError, match="k must be"):
            discard_order(h, 0, k)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="nest phase"):
        discard_order(HandState.deal(MINI, 1), 0, 5)      # the bidding: used to give []
    assert discard_order(h, 0, 5)


@pytest.mark.parametrize("trump", [True, None, -1, 4, 1.0, "R"])
def test_T7_play_after_refuses_a_trump_that_is_no_color(trump: object) -> None:
    h = _at_nest()
    discard = best_looking_discards(h, 1)[0][1]
    with pytest.raises(RookError, match="trump must be a color"):
        play_after(h, trump, discard)  # type: ignore[arg-type]
    assert h.phase == Phase.NEST and h.remaining == MINI.nest_size


def test_T7_play_after_refuses_another_trump_than_the_one_named_before_the_nest() -> None:
    h = _at_nest(TRUMP_FIRST)
    assert h.trump is not None
    discard = best_looking_discards(h, 1)[0][1]
    assert play_after(h, h.trump, discard).trump == h.trump
    with pytest.raises(PositionError, match="T-7"):       # used to play under h.trump, silently
        play_after(h, (h.trump + 1) % 4, discard)


@pytest.mark.parametrize("discard", [None, "R9", (True,), (-1,), (64,), (1.0,), 5])
def test_T20_play_after_refuses_a_discard_that_is_not_card_ids(discard: object) -> None:
    h = _at_nest()
    with pytest.raises(RookError, match="discard"):
        play_after(h, 0, discard)  # type: ignore[arg-type]
    assert h.phase == Phase.NEST and h.remaining == MINI.nest_size


def test_play_after_refuses_a_hand_in_the_bidding() -> None:
    h = HandState.deal(MINI, 1)
    with pytest.raises(PositionError, match="nest"):
        play_after(h, 0, (int(next(iter(h.hand(h.seat_to_move())))),))


# ---------------------------------------------------------------- review

@pytest.mark.parametrize("hand", [None, Game("tournament", 1), "x"])
def test_review_hand_refuses_what_is_not_a_hand(hand: object) -> None:
    with pytest.raises(RookError, match="HandState"):
        review_hand(hand)  # type: ignore[arg-type]


def test_review_hand_refuses_a_solver_or_progress_of_the_wrong_kind() -> None:
    with pytest.raises(RookError, match="solver"):
        review_hand(played_to_end(MINI), solver="x")  # type: ignore[arg-type]
    with pytest.raises(RookError, match="progress"):
        review_hand(played_to_end(MINI), progress=5)  # type: ignore[arg-type]


def test_review_hand_refuses_a_bad_nest_budget_before_reviewing_the_play() -> None:
    calls: list[tuple[int, int]] = []
    for budget in (-1, "x", True, 2**63):
        with pytest.raises(RookError, match="nest_budget"):
            review_hand(played_to_end(MINI), nest=True, nest_budget=budget,  # type: ignore[arg-type]
                        progress=lambda done, total: calls.append((done, total)))
    assert calls == []       # the play was not reviewed first


@pytest.mark.parametrize("game", [None, "tournament"])
def test_review_game_refuses_what_is_not_a_game(game: object) -> None:
    with pytest.raises(RookError, match="Game"):
        review_game(game)  # type: ignore[arg-type]
    with pytest.raises(RookError, match="Game"):
        review_game(played_to_end(MINI))  # type: ignore[arg-type]


def test_review_game_refuses_an_option_review_hand_does_not_take_even_with_no_hand_played() -> None:
    with pytest.raises(RookError, match="no option bogus"):
        review_game(Game("tournament", 1), bogus=1)        # used to answer [] silently


# ------------------------------------------------------------------ odds

HAND = ["B11", "G12", "Y12", "Y13", "Y14"]


@pytest.fixture(scope="module")
def odds_two_trumps() -> Any:
    return bid_odds(MINI, HAND, worlds=3, seed=1, trumps=(0, 1))


@pytest.mark.parametrize("trump", [2, 7, -1, "R", True, None])
def test_the_odds_refuse_a_trump_they_were_not_drawn_for(odds_two_trumps: Any, trump: object) -> None:
    o = odds_two_trumps
    for ask in (lambda: o.make_rate(trump, 30), lambda: o.make_rate_range(trump, 30),
                lambda: o.make_rate_95(trump, 30), lambda: o.mean(trump), lambda: o.mean_range(trump),
                lambda: o.solved(trump), lambda: o.undecided(trump), lambda: o.proven(trump)):
        with pytest.raises(RookError, match="trump must be one of the colors"):
            ask()


@pytest.mark.parametrize("bid", [19, 0, -5, 65, 1000, math.nan, None, "30", 30.0, True])
def test_T3_the_odds_refuse_a_bid_outside_min_to_max_bid(odds_two_trumps: Any, bid: object) -> None:
    # the figures are clipped to min_bid - 1 .. max_bid: a bid under min_bid
    # used to read 100% and one over max_bid 0%, whatever the hand
    o = odds_two_trumps
    for ask in (o.make_rate, o.make_rate_range, o.make_rate_95):
        with pytest.raises(RookError, match="bid must be an int 20..60"):
            ask(0, bid)
    assert 0.0 <= o.make_rate(0, 20) <= 1.0 and 0.0 <= o.make_rate(1, 60) <= 1.0


@pytest.mark.parametrize("trumps", [(0, 0), (True,), (1.0,), 2, "R", (), None])
def test_bid_odds_refuses_trumps_that_are_not_distinct_colors(trumps: object) -> None:
    # (0, 0) used to count every world twice
    with pytest.raises(RookError, match="trumps"):
        bid_odds(MINI, HAND, worlds=2, trumps=trumps)  # type: ignore[arg-type]


def test_bid_odds_reads_trumps_from_any_iterable_once() -> None:
    o = bid_odds(MINI, HAND, worlds=2, trumps=(t for t in (0, 1)))  # a generator used to give no trump
    assert sorted(o.samples) == [0, 1]


@pytest.mark.parametrize("seed", [1.5, "x", -1, None, [1], 2**64, True])
def test_bid_odds_refuses_a_seed_that_is_no_int_in_range(seed: object) -> None:
    # None used to draw from the clock, "x" and 1.5 were taken as seeds
    with pytest.raises(RookError, match="seed"):
        bid_odds(MINI, HAND, worlds=2, seed=seed)  # type: ignore[arg-type]


def test_bid_odds_refuses_a_progress_that_is_no_function() -> None:
    with pytest.raises(RookError, match="progress"):
        bid_odds(MINI, HAND, worlds=2, progress=5)  # type: ignore[arg-type]


# --------------------------------------------------------------- hosting

@pytest.mark.parametrize("spec", [None, [], "tournament", 5])
def test_a_hosted_game_refuses_a_spec_that_is_not_an_object(spec: object) -> None:
    for build in (HostedGame.create, HostedGame.load):
        with pytest.raises(RookError, match="spec"):
            build(spec)  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [None, -1, 4, 9, True, 1.0, "1"])
@pytest.mark.parametrize("spec", [{"game": "tournament", "seed": 3}, {"game": "toonerville", "seed": 3}])
def test_a_hosted_game_refuses_a_seat_that_is_not_one_of_its_own(spec: dict[str, Any], seat: object) -> None:
    g = HostedGame.create(spec)
    with pytest.raises(RookError, match="seat"):
        g.legal(seat)  # type: ignore[arg-type]   (used to answer [] as for a seat not to move)
    action = g.legal(g.to_move)[0]  # type: ignore[arg-type]
    before = (g.moves, g.to_move, g.observation(0))
    with pytest.raises(RookError, match="seat"):       # None used to act for whoever was to move
        g.apply(action, seat)  # type: ignore[arg-type]
    assert (g.moves, g.to_move, g.observation(0)) == before


def test_a_hosted_toonerville_game_refuses_a_trick_taking_bot() -> None:
    t = HostedGame.create({"game": "toonerville", "seed": 3})
    trick_bot = HostedGame.create({"game": "tournament", "seed": 3}).bot("random", 1)
    with pytest.raises(RookError, match="Toonerville bot"):
        t.bot_action(trick_bot, t.to_move)  # type: ignore[arg-type]


# ----------------------------------------------------------- observation

def _seen(**changes: Any) -> dict[str, Any]:
    j = HandState.deal("tournament", seed=1).observe(1).to_json()
    j.update(changes)
    return j


@pytest.mark.parametrize("changes", [
    dict(seat=7), dict(seat=-1), dict(seat=1.9), dict(seat=True), dict(seat="1"), dict(dealer=9),
    dict(to_move=-3), dict(declarer=12), dict(bids=[[9, 100]]),
    dict(trump="R", trick=[[0, "R5"], [9, "G5"]]),         # used to raise IndexError
    dict(trump="R", trick=[[-7, "R5"], [0, "G5"]]),        # used to be read as seat 1
    dict(trump="R", tricks=[{"leader": 9, "cards": [[0, "R5"], [11, "G5"]], "winner": 0}]),
])
def test_T15_an_observation_refuses_seats_that_are_not_0_to_3(changes: dict[str, Any]) -> None:
    with pytest.raises(RookError, match="seat"):
        Observation.from_json(_seen(**changes))


@pytest.mark.parametrize(("changes", "field"), [
    (dict(points=[-20, 0]), "points"), (dict(points=[0, 181]), "points"), (dict(points=[0, 7.5]), "points"),
    (dict(high_bid=-5), "high_bid"), (dict(high_bid=1000), "high_bid"), (dict(high_bid=True), "high_bid"),
    (dict(bids=[[2, 5]]), "bids"), (dict(bids=[[2, 125]]), "bids"), (dict(bids=[[2, 100.5]]), "bids"),
    (dict(tricks_won=[-1, 0]), "tricks_won"), (dict(tricks_won=[0, 10]), "tricks_won"),
])
def test_T3_an_observation_refuses_counts_no_hand_can_show(changes: dict[str, Any], field: str) -> None:
    """Negative points, a high bid of -5, tricks past the hand's nine were read
    as given (``int`` also cut 7.5 points to 7), and PIMC's worlds and the
    bidding bots reasoned from them."""
    with pytest.raises(RookError, match=f"'{field}' holds"):
        Observation.from_json(_seen(**changes))


@pytest.mark.parametrize("field", ["high_bid", "dealer", "points", "tricks_won", "score"])
def test_T15_an_observation_refuses_an_infinite_number_by_name(field: str) -> None:
    """``int(inf)`` raised a bare OverflowError out of the reading."""
    value: Any = [float("inf"), 0] if field in ("points", "tricks_won", "score") else float("inf")
    with pytest.raises(RookError, match="not an observation"):
        Observation.from_json(_seen(**{field: value}))


def test_an_observation_of_every_preset_at_every_step_of_random_play_reads_back() -> None:
    """The bounds above hold for what the engine itself shows (points taken up to
    the hand's whole, the last trick's bonus included)."""
    for name in PRESETS:
        for seed in range(6):
            rng, h = random.Random(seed), HandState.deal(name, seed=seed, dealer=seed % 4)
            while True:
                for seat in range(4):
                    o = h.observe(seat)
                    assert Observation.from_json(o.to_json()).points == o.points
                if h.is_over:
                    break
                h.apply(rng.choice(list(h.legal_actions())))


def _unseen(n: int) -> list[str]:
    """n cards of the deck that seat 1 of _seen() does not hold, highest first."""
    held = set(_seen()["hand"])
    return [c for c in ("R14", "G14", "B14", "Y14", "R13", "G13", "B13", "Y13") if c not in held][:n]


@pytest.mark.parametrize("what", ["twice in a trick", "in two tricks", "played and held", "not of the deck",
                                  "a seat twice", "five cards"])
def test_T2_T8_T11_an_observation_refuses_cards_that_cannot_all_be_so(what: str) -> None:
    """A card played twice, played and still held, outside the deck, or a trick
    with a seat in it twice was read as it came (PIMC's worlds then rest on it)."""
    a, b, c, d, e = _unseen(5)
    held = _seen()["hand"][0]
    changes = {
        "twice in a trick": dict(trick=[[0, a], [1, a]]),
        "in two tricks": dict(trick=[[0, a]], tricks=[{"leader": 0, "cards": [[0, a], [1, b], [2, c], [3, d]],
                                                       "winner": 0}]),
        "played and held": dict(trick=[[0, held]]),
        "not of the deck": dict(trick=[[0, "R2"]]),
        "a seat twice": dict(trick=[[0, a], [0, b]]),
        "five cards": dict(tricks=[{"leader": 0, "cards": [[0, a], [1, b], [2, c], [3, d], [0, e]], "winner": 0}]),
    }[what]
    with pytest.raises(RookError, match="not an observation"):
        Observation.from_json(_seen(trump="R", **changes))


def test_an_observation_takes_a_variant_or_a_preset_name_and_refuses_anything_else() -> None:
    j = _seen(trump="R", trick=[[0, "R5"], [1, "G5"]])
    assert Observation.from_json(j, variant="tournament") == Observation.from_json(j)  # used to raise AttributeError
    for variant in (5, "nope", ["x"]):
        with pytest.raises(RookError, match="preset"):
            Observation.from_json(j, variant=variant)  # type: ignore[arg-type]


def test_an_observation_is_a_mapping_whose_missing_keys_raise_KeyError() -> None:
    o = HandState.deal("tournament", seed=1).observe(1)
    assert o.get("nope") is None and "nope" not in o        # the Mapping contract: KeyError, on purpose
    with pytest.raises(KeyError):
        o["nope"]


# ------------------------------------------------------- progress that raises

ENDING = {"preset": "tournament", "trump": "R", "leader": 0, "trick": [],
          "hands": [["R14", "B5"], ["R5", "B14"], ["R6", "B6"], ["R7", "B10"]]}


class _Told(Exception):
    """The caller's own signal to stop, raised from its progress function."""


def _raising(done: int, total: int) -> None:
    raise _Told(done, total)


@pytest.mark.parametrize("call", ["nest_decision", "review_hand", "bid_odds", "solve_many"])
def test_a_progress_that_raises_stops_the_call_with_that_very_error(call: str) -> None:
    """A caller stops a long call by raising from its progress function, and
    gets its own error back, unwrapped: the service stops a review whose
    client hung up, or that ran out of time, this way (service/searches.py)."""
    from rook_core.solver import solve_many
    run = {"nest_decision": lambda: nest_decision(_at_nest(), node_budget=2000, progress=_raising),
           "review_hand": lambda: review_hand(played_to_end(MINI), progress=_raising),
           "bid_odds": lambda: bid_odds(MINI, HAND, worlds=2, progress=_raising),
           "solve_many": lambda: solve_many([ENDING] * 2, progress=_raising)}[call]
    with pytest.raises(_Told) as e:
        run()
    assert e.value.args[0] == 1                              # at the first report
