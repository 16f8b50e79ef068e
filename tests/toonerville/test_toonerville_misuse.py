"""Toonerville as a demanding caller misuses it: odd rules, players, seeds and
actions, corrupted saved games, copies of every kind, the multiset hands, the
meld helpers, the contract solver and the bots.  Each call is either done
exactly or refused with a typed error (a RookError) that names what is wrong,
and a refused call changes nothing."""

from __future__ import annotations

import copy
import json
import pickle
import random
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rook_core.errors import IllegalActionError, NotationError, RookError, VariantError
from rook_core.toonerville.actions import Lay, Meld, parse_action
from rook_core.toonerville.agents import contract_value, make_toonerville_agent, play_game
from rook_core.toonerville.contracts import Contract
from rook_core.toonerville.game import ToonervilleGame
from rook_core.toonerville.hand import MultiHand, card_points
from rook_core.toonerville.melds import candidate_melds, is_run, is_set
from rook_core.toonerville.rules import ToonervilleRules
from rook_core.toonerville.solver import contract_deadwood_many, solve_contract

LONG = "x" * 200_000


def view(g: ToonervilleGame) -> tuple[Any, ...]:
    """Everything a caller can read of a game."""
    return (g.to_json(), [g.hand(p).counts() for p in range(g.players)], [g.observation(p) for p in range(g.players)],
            g.phase, g.to_move, g.history(), g.round_scores, g.table, g.stock, g.discard, str(g))


def in_play(seed: int = 0) -> ToonervilleGame:
    """A 3-player game at the first play phase whose player can lay the contract."""
    for s in range(seed, seed + 300):
        g = ToonervilleGame(3, seed=s)
        g.apply("take" if g.is_legal("take") else "draw")
        while g.phase == "buy":
            g.apply("pass")
        if any(isinstance(a, Lay) for a in g.legal_actions()):
            return g
    raise AssertionError("no game found")


# ------------------------------------------------------------ rules

def test_TV5_a_fraction_wild_limit_is_kept_as_a_float_and_the_game_saves_as_json() -> None:
    """ToonervilleRules took a Fraction (TV-5) and kept it, so the game's JSON
    could not be written (json.dumps: Fraction is not serializable)."""
    rules = ToonervilleRules(players=3, max_wild_fraction=Fraction(1, 3))
    assert rules == ToonervilleRules(players=3, max_wild_fraction=1 / 3)
    assert type(rules.max_wild_fraction) is float
    assert type(ToonervilleRules(max_wild_fraction=np.float64(0.4)).max_wild_fraction) is float
    g = ToonervilleGame(rules, seed=2)
    g.apply("draw")
    text = json.dumps(g.to_json())
    assert ToonervilleGame.from_json(text) == g


_ODD = st.one_of(st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.floats(allow_nan=True),
                 st.fractions(), st.text(max_size=3), st.lists(st.integers(-2, 13), max_size=4),
                 st.tuples(st.integers(0, 12)), st.sampled_from([np.int64(3), np.float64(0.25), np.float32(0.5)]))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["players", "max_buys", "max_wild_fraction", "no_discard_of_taken", "rounds", "turn_limit"]),
       _ODD)
def test_TV1_TV2_TV5_TV8_any_rules_field_is_refused_or_makes_rules_that_save_as_json(field: str, value: Any) -> None:
    """A VariantError names the field, or the rules save to JSON text and read back equal."""
    try:
        rules = ToonervilleRules(**{field: value})
    except VariantError as e:
        assert field.split("_")[0] in str(e) or "players" in str(e)
        return
    assert ToonervilleRules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


@pytest.mark.parametrize("rounds", [(1, 1, 1), (3, 1), (2, 2), tuple(range(1, 12)) * 2])
def test_TV2_rounds_repeated_or_out_of_order_are_refused_by_the_rules_the_simulator_and_the_service(
        rounds: tuple[int, ...]) -> None:
    """(1, 1, 1) made a game of round 1 three times, and a list of a million
    rounds one that never ended; each of the three entry points had its own check."""
    from rook_core.hosting import HostedGame
    from rook_core.sim.toonerville import simulate_toonerville
    for make in (lambda: ToonervilleRules(rounds=rounds),
                 lambda: simulate_toonerville(["random"] * 3, games=1, rounds=rounds, turn_limit=60),
                 lambda: HostedGame.create({"game": "toonerville", "players": 3, "rounds": list(rounds)})):
        with pytest.raises(VariantError, match=r"each once and in order, not .* \(TV-2\)"):
            make()


def test_TV5_a_table_meld_of_birds_alone_or_of_no_kind_is_refused_by_name_and_a_bot_reading_one_says_so() -> None:
    """TableMeld((15, 15)) was made, and its first question raised a bare
    AssertionError; a bot handed an observation with such a meld did the same."""
    from rook_core.toonerville.table import TableMeld
    for kind, cards, words in (("run", (15, 15), "natural card"), ("pair", (35, 36), "'set' or a 'run'"),
                               ("set", (0, 35), "card ids"), ("set", [35, 51], "card ids"),
                               ("set", (35, True), "card ids")):
        with pytest.raises(RookError, match=words):
            TableMeld(kind, 0, cards)   # type: ignore[arg-type]
    g = in_play()
    obs = g.observation(g.to_move)
    obs["table"] = [{"kind": "run", "owner": 0, "cards": ["Rook", "Rook", "Rook"]}]
    with pytest.raises(RookError, match="natural card"):
        make_toonerville_agent("heuristic", g.rules).act(obs)


# ------------------------------------------------------------ players, seeds

def test_TV1_first_dealer_takes_a_numpy_int_and_refuses_a_float() -> None:
    """first_dealer=1.0 was taken and crashed the deal (list index of a float);
    a numpy int was kept as numpy, and the game's JSON could not be written."""
    for bad in (1.0, True, "1", None, -1, 4, 10**100):
        with pytest.raises(RookError, match="first_dealer must be a player 0..3"):
            ToonervilleGame(4, 0, bad)
    g = ToonervilleGame(4, 0, np.int64(1))
    assert type(g.first_dealer) is int and g.dealer == 1
    assert json.dumps(g.to_json()) == json.dumps(ToonervilleGame(4, 0, 1).to_json())
    with pytest.raises(RookError, match="first_dealer"):
        ToonervilleGame.from_json(dict(ToonervilleGame(4, 0).to_json(), first_dealer=1.0))


@pytest.mark.parametrize("seed", [-1, 2**64, 1.0, True, "1", None, np.float64(5.0), np.bool_(True)])
def test_a_seed_that_is_no_int_in_range_is_refused_by_name(seed: Any) -> None:
    with pytest.raises(RookError, match="seed must be an int in 0 .. 2"):
        ToonervilleGame(3, seed)


def test_TV6_a_player_is_read_alike_by_apply_is_legal_hand_and_observation() -> None:
    """is_legal said True for player True or 1.0, which apply refuses; a numpy
    int, which the core Game takes as a seat, was refused everywhere."""
    g = ToonervilleGame(4, seed=1)
    before = view(g)
    for bad in (True, 1.0, "1", -1, 4):
        assert not g.is_legal("draw", bad)
        with pytest.raises(IllegalActionError, match="a player is 0..3"):
            g.apply("draw", bad)
        with pytest.raises(RookError, match="a player is 0..3"):
            g.hand(bad)
        with pytest.raises(RookError, match="a player is 0..3"):
            g.observation(bad)
    assert view(g) == before
    p = np.int64(1)
    assert g.is_legal("draw", p) and g.hand(p) == g.hand(1) and g.observation(p) == g.observation(1)
    g.apply("draw", p)
    assert g.history() == [(1, parse_action("draw"))] and type(g.history()[0][0]) is int
    json.dumps(g.to_json())


# ------------------------------------------------------------ actions

def test_TV6_a_huge_action_text_or_meld_is_refused_quoting_it_short_and_changes_nothing() -> None:
    """A 200,000-character text gave a 200,000-character message; a meld of
    100,000 birds as well."""
    g = in_play()
    before = view(g)
    for action in (LONG, "lay " + "B1 " * 100_000, "meld " + "Rook " * 100_000, "  " * 3000 + "draw",
                   Meld((15,) * 100_000), Lay(((7, 7, 7),) * 50_000)):
        with pytest.raises(RookError) as e:
            g.apply(action)
        assert len(str(e.value)) < 400, len(str(e.value))
    assert view(g) == before
    doc = dict(g.to_json(), actions=[[1, LONG]])
    with pytest.raises(NotationError) as e:
        ToonervilleGame.from_json(doc)
    assert "action 0" in str(e.value) and len(str(e.value)) < 600


def test_legal_actions_refuses_a_max_lays_that_is_no_count() -> None:
    """max_lays='3' raised a bare TypeError; 0 and -1 quietly listed one lay-down."""
    g = in_play()
    for bad in ("3", 0, -1, 1.5, True):
        with pytest.raises(RookError, match="max_lays"):
            g.legal_actions(bad)
    assert g.legal_actions(1)[0] in g.legal_actions()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["draw", "take", "buy", "pass", "lay", "meld", "layoff", "swap", "discard", "/",
                                 "B7", "G7", "R7", "Y9", "Rook", "R3", "R4", "R5", "R6", "0", "1", "99", "low",
                                 "high", "x", "B0", "-1"]), max_size=9), st.integers(0, 3))
def test_TV6_TV7_any_action_text_is_applied_or_refused_leaving_the_game_unchanged(words: list[str],
                                                                                    seed: int) -> None:
    g = in_play(seed)
    before = view(g)
    try:
        g.apply(" ".join(words))
    except RookError:
        assert view(g) == before
    else:
        assert g.history()[-1][1] == parse_action(" ".join(words))


# ------------------------------------------------------------ saved games and copies

@pytest.mark.parametrize(("change", "words"), [
    ({"format": "rook-game/1"}, ["'format'", "rook-toonerville/1"]),
    ({"format": 5}, ["'format'"]),
    ({"summary": 7}, ["'summary'"]),
    ({"actions": [[None, "draw"]]}, ["action 0", "[player, action]"]),
    ({"actions": [[1.0, "draw"]]}, ["action 0", "a player is 0..2"]),
])
def test_game_json_with_a_wrong_format_summary_or_player_is_refused_naming_it(change: dict[str, Any],
                                                                               words: list[str]) -> None:
    """An unknown format, a summary that is no object and an action with no
    player (null: replayed as whoever was to move) were read as a game."""
    doc = dict(ToonervilleGame(3, seed=2).to_json(), **change)
    with pytest.raises(RookError) as e:
        ToonervilleGame.from_json(doc)
    for w in words:
        assert w in str(e.value), str(e.value)


def test_a_game_survives_json_pickle_copy_deepcopy_clone_and_undo_through_a_round() -> None:
    """copy.copy shared the hands, stock and table with the original, so a move
    in the copy changed the original too."""
    rules = ToonervilleRules(players=3, rounds=(1, 11), turn_limit=40)
    g = ToonervilleGame(rules, seed=5)
    bots = [make_toonerville_agent("heuristic", rules, seed=p) for p in range(3)]
    rng = random.Random(5)
    steps = 0
    while not g.is_over:
        if rng.random() < 0.1:
            seen = view(g)
            for c in (copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g)), g.clone(),
                      ToonervilleGame.from_json(json.dumps(g.to_json()))):
                assert c == g and view(c) == seen
                c.apply(bots[c.to_move].act(c.observation(c.to_move)))
                assert view(g) == seen
        p = g.to_move
        g.apply(bots[p].act(g.observation(p)), p)
        steps += 1
    assert steps > 20
    u = g.clone()
    while u.history():
        u.undo()
    assert u == ToonervilleGame(rules, seed=5)


# ------------------------------------------------------------ hands, melds, solver

def test_TV1_a_multihand_is_made_of_card_ids_only() -> None:
    """MultiHand([1.0]) and MultiHand([[1]]) raised bare TypeErrors, MultiHand(None) too;
    MultiHand([True]) held B1; adding or comparing a list raised AttributeError."""
    for bad in ([1.0], [[1]], [True], [0], [64], ["B1"]):
        with pytest.raises(NotationError):
            MultiHand(bad)
    for bad in (None, 5, "B1 B2"):
        with pytest.raises(RookError, match="card ids"):
            MultiHand(bad)
    for bad in (123, None):
        with pytest.raises(RookError, match="list of card names"):
            MultiHand.parse(bad)
    assert MultiHand([np.int64(1), 15]) == MultiHand.parse("B1 Rook")
    h = MultiHand.parse("B1 B1 Rook")
    for other in (None, 5, [1], "B1"):
        with pytest.raises(TypeError, match="MultiHand"):
            h + other  # noqa: B018
        with pytest.raises(TypeError, match="MultiHand"):
            h - other  # noqa: B018
        with pytest.raises(TypeError):
            assert h <= other
        assert h != other
    assert card_points("B1") == 5 and card_points("Rook") == 25 and card_points(np.int64(10)) == 10
    for bad in (None, 1.5, "X9"):
        with pytest.raises(NotationError):
            card_points(bad)


def test_TV1_candidate_melds_refuses_counts_that_are_no_hand() -> None:
    """Counts of 100 copies a card ran for ever; a float or a short list raised bare errors;
    negative counts gave no meld, silently."""
    for bad in (None, [], [0] * 63, [0.5] * 64, "x" * 64, [-1] * 64, [6] + [0] * 63, [100] * 64, [True] * 64):
        with pytest.raises(RookError, match="counts"):
            candidate_melds(bad)   # type: ignore[arg-type]
    full = [0 if c & 15 in (0, 15) and c != 15 else 5 for c in range(64)]   # five whole decks
    assert len(candidate_melds(full)) > 0


@settings(max_examples=50, deadline=None)
@given(st.floats(min_value=1e-300, max_value=1 / 2001))
def test_TV5_a_tiny_wild_limit_still_lets_a_meld_without_birds_be_laid(fraction: float) -> None:
    """A fraction below 1/2000 was rounded to 0, so no meld at all was valid,
    not even B7 G7 R7 (TV-5 asks for fewer birds than the fraction: none)."""
    assert is_set(["B7", "G7", "R7"], fraction) and is_run(["R3", "R4", "R5", "R6"], fraction)
    assert not is_set(["B7", "G7", "R7", "Rook"], fraction)
    hand = MultiHand.parse("B7 G7 R7 B8 G8 R8 Rook")
    r = solve_contract(hand, 1, fraction)
    assert r.can_meet and r.deadwood == 25
    assert contract_deadwood_many([hand.counts()], 1, fraction)[1].tolist() == [25]
    g = ToonervilleGame(ToonervilleRules(players=3, max_wild_fraction=fraction), seed=1)
    assert g.rules.max_wild_fraction == fraction


def test_TV2_the_solver_refuses_a_contract_too_big_for_it_and_a_ragged_batch() -> None:
    """Contract(0, 0, 10**30, 0) raised OverflowError from the native wrapper;
    rows of different lengths a numpy ValueError."""
    hand = MultiHand.parse("B7 G7 R7 Y9 Y9 B9")
    for bad in (Contract(0, 0, 10**30, 0), Contract(0, 0, 0, -(10**30)), Contract(0, 0, 2**31, 0),
                Contract(0, 0, 9, 0)):
        with pytest.raises(RookError, match="0..8"):
            solve_contract(hand, bad)
        with pytest.raises(RookError, match="0..8"):
            contract_deadwood_many([hand.counts()], bad)
    with pytest.raises(RookError, match=r"\(n, 64\)"):
        contract_deadwood_many([[0] * 64, [0] * 63], 1)
    assert solve_contract(hand, Contract(0, 0, 2, 0)).can_meet


# ------------------------------------------------------------ bots

def test_bot_kinds_options_rules_and_seeds_are_checked_when_the_bot_is_made() -> None:
    """An unhashable kind or an unknown option raised a bare TypeError; rules of
    another kind, a seed of None (the clock: never the same game twice) or 1.5
    and a solver that is no function were taken, and failed (or not) later."""
    rules = ToonervilleRules(players=3)
    with pytest.raises(RookError, match="unknown Toonerville agent"):
        make_toonerville_agent(["heuristic"], rules)   # type: ignore[arg-type]
    for kind in ("random", "heuristic"):
        with pytest.raises(RookError, match="bad options"):
            make_toonerville_agent(kind, rules, 0, foo=1)
        for bad in (None, 3, "x"):
            with pytest.raises(RookError, match="ToonervilleRules"):
                make_toonerville_agent(kind, bad)   # type: ignore[arg-type]
        for bad in (None, 1.5, "x", [1], True):
            with pytest.raises(RookError, match="seed must be an int"):
                make_toonerville_agent(kind, rules, bad)   # type: ignore[arg-type]
    with pytest.raises(RookError, match="solver"):
        make_toonerville_agent("heuristic", rules, 0, solver=None)
    g = ToonervilleGame(ToonervilleRules(players=3, rounds=(1,), turn_limit=60), seed=4)
    a = play_game(g.clone(), [make_toonerville_agent("random", g.rules, np.int64(s)) for s in range(3)])
    b = play_game(g.clone(), [make_toonerville_agent("random", g.rules, s) for s in range(3)])
    assert a == b


def test_TV6_bots_refuse_an_observation_that_is_not_their_move() -> None:
    """The random bot raised KeyError on a player's view without legal actions
    (not their move, or the game over); the heuristic one answered an action for
    a player who had no move, or a Discard once the game was over."""
    rules = ToonervilleRules(players=3, rounds=(1,), turn_limit=60)
    g = ToonervilleGame(rules, seed=1)
    done = play_game(g.clone(), [make_toonerville_agent("heuristic", rules, s) for s in range(3)])
    from rook_core import HandState
    core = HandState.deal("tournament", seed=1).observation(1)
    for kind in ("random", "heuristic"):
        bot = make_toonerville_agent(kind, rules)
        for obs, words in ((g.observation(0), "has no move: player 1 is to move"),
                           (done.observation(0), "the game is over"), (None, "observation"), ({}, "observation"),
                           (core, "observation")):
            with pytest.raises(RookError, match=words):
                bot.act(obs)   # type: ignore[arg-type]
    with pytest.raises(RookError, match="legal actions"):
        make_toonerville_agent("random", rules).act(g.observation(1, legal=False))
    assert make_toonerville_agent("heuristic", rules).act(g.observation(1, legal=False)) in g.legal_actions()


def test_play_game_refuses_what_is_no_game_or_no_bots() -> None:
    rules = ToonervilleRules(players=3)
    bots = [make_toonerville_agent("random", rules, s) for s in range(3)]
    with pytest.raises(RookError, match="ToonervilleGame"):
        play_game(None, bots)   # type: ignore[arg-type]
    for bad in (None, [object()] * 3, 5):
        with pytest.raises(RookError, match="agents"):
            play_game(ToonervilleGame(rules), bad)   # type: ignore[arg-type]
    with pytest.raises(RookError, match="3 players need 3 agents"):
        play_game(ToonervilleGame(rules), bots[:2])


def test_contract_value_refuses_counts_that_are_no_hand() -> None:
    with pytest.raises(RookError, match="64 counts"):
        contract_value([0] * 10, 1, 1)
    with pytest.raises(RookError, match="sets, runs >= 0"):
        contract_value([0] * 64, -1, 0)
    assert contract_value([0] * 64, 2, 0) == 0
