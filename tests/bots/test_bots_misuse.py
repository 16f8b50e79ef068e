"""The built-in bots as a demanding caller misuses them: bad constructor
arguments, observations that are not the bot's to answer (another seat,
another variant, no legal move, not an observation at all), and bots reused
across hands.  Each call is either answered or refused with a typed error (a
RookError) that names what is wrong."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rook_core import HandState
from rook_core.bots.agents import RandomAgent, act_for, make_agent
from rook_core.bots.bidding import ModelBidder, bid_model
from rook_core.bots.heuristic import HeuristicAgent, hand_estimate
from rook_core.bots.knowledge import Knowledge
from rook_core.bots.pimc import DDAgent, PIMCAgent
from rook_core.bots.worlds import sample_world, world_positions
from rook_core.errors import RookError, VariantError
from rook_core.toonerville.game import ToonervilleGame
from rook_core.variant import get_preset

V = get_preset("tournament")
KINDS = [RandomAgent, HeuristicAgent, PIMCAgent, DDAgent, ModelBidder]


def to_play(preset: str = "tournament", seed: int = 1, cards: int = 30) -> HandState:
    """A hand of ``preset`` played by the heuristic up to ``cards`` cards into its play."""
    h = HandState.deal(preset, seed=seed)
    bot = HeuristicAgent(get_preset(preset))
    while h.phase != "play":
        h.apply(bot.act(h.observe(h.seat_to_move())))
    for _ in range(cards):
        h.apply(bot.act(h.observe(h.seat_to_move())))
    return h


def finished(seed: int = 3) -> HandState:
    h = HandState.deal("tournament", seed=seed)
    bot = HeuristicAgent(V)
    while not h.is_over:
        h.apply(bot.act(h.observe(h.seat_to_move())))
    return h


# ------------------------------------------------------------ constructors

@pytest.mark.parametrize("cls", KINDS)
def test_every_bot_takes_a_preset_name_and_refuses_what_is_no_variant(cls: Any) -> None:
    """HeuristicAgent('tournament') raised AttributeError ('str' has no deck_mask),
    as make_agent's own variants None or 5 did; RandomAgent took anything."""
    assert cls("tournament").variant == V
    for bad in (None, 5, ["tournament"]):
        with pytest.raises(VariantError, match="Variant or a preset's name"):
            cls(bad)
    with pytest.raises(VariantError, match="unknown preset"):
        cls("no-such-preset")
    with pytest.raises(VariantError):
        make_agent("heuristic", None)   # type: ignore[arg-type]


@pytest.mark.parametrize("cls", KINDS)
def test_every_bot_seed_is_an_int_and_a_numpy_int_is_the_same_seed(cls: Any) -> None:
    """A seed of None seeded PIMC from the clock (never the same play twice),
    1.5 or 'x' were taken, [1] or a numpy int raised a bare TypeError or
    OverflowError (RandomAgent: np.int64 & M64)."""
    for bad in (None, 1.5, "x", [1], True):
        with pytest.raises(RookError, match="seed must be an int"):
            cls(V, bad)
    h = to_play(cards=3)
    obs = h.observe(h.seat_to_move())
    kw = {"worlds": 2} if cls is PIMCAgent else {}
    if cls is not DDAgent:
        assert cls(V, np.int64(7), **kw).act(obs) == cls(V, 7, **kw).act(obs)
    for seed in (-1, 2**70):   # any int: the streams take every one
        cls(V, seed)


@pytest.mark.parametrize(("options", "words"), [
    ({"worlds": 10**9}, "worlds must be an int 1 .. 100,000"),
    ({"worlds": 0}, "worlds must be an int 1"),
    ({"worlds": True}, "worlds must be an int 1"),
    ({"worlds": 1.5}, "worlds must be an int 1"),
    ({"nest_worlds": 10**9}, "nest_worlds must be an int 0"),
    ({"decision_time": float("nan")}, "decision_time"),
    ({"decision_time": float("inf")}, "decision_time"),
    ({"decision_time": -1}, "decision_time"),
    ({"time_budget": 1e17}, "time_budget"),
    ({"node_budget": 1.5}, "node_budget must be an int"),
    ({"node_budget": np.float64(2.0)}, "node_budget must be an int"),
    ({"nest_budget": 10**30}, "nest_budget must be an int"),
    ({"nest_discards": 10**30}, "nest_discards must be at most 2,002, the ways"),
    ({"nest_discards": 2003}, "nest_discards must be at most 2,002"),
    ({"workers": 0}, "workers"),
    ({"workers": -1}, "workers"),
    ({"workers": True}, "workers"),
    ({"workers": "1"}, "workers"),
    ({"tt_bytes": 0}, "tt_bytes"),
    ({"tt_bytes": 1.5}, "tt_bytes"),
    ({"tolerance": -1}, "tolerance"),
    ({"tolerance": 0.5}, "tolerance"),
    ({"playout_fallback": "x"}, "playout_fallback"),
])
def test_pimc_refuses_a_bad_setting_when_it_is_made(options: dict[str, Any], words: str) -> None:
    """worlds=10**9 was taken and the first card decision never ended; workers=-1
    with a decision_time solved no world and played the heuristic's card,
    silently; workers, tt_bytes, node_budget and time_budget out of range
    failed only at the first card."""
    with pytest.raises(RookError, match=words):
        PIMCAgent(V, **options)
    with pytest.raises(RookError, match=words):
        make_agent("pimc", V, 0, **options)


def test_pimc_with_many_worlds_is_made_and_the_largest_count_is_taken() -> None:
    assert PIMCAgent(V, worlds=100_000, nest_worlds=100_000).worlds == 100_000
    assert PIMCAgent(V, nest_discards=2002).nest_discards == 2002          # every discard of a 14-card hand, 5 buried
    assert PIMCAgent("house-180", nest_discards=8568).nest_discards == 8568


def test_modelbid_and_dd_refuse_settings_of_the_wrong_kind() -> None:
    """threshold='x' or None and DDAgent(node_budget='x') raised bare TypeErrors;
    dd_margin='no' meant True."""
    for bad in ("x", None, float("nan"), 0, 1, True):
        with pytest.raises(RookError, match="threshold"):
            ModelBidder(V, threshold=bad)
    for bad in ("no", None, 2):
        with pytest.raises(RookError, match="dd_margin"):
            ModelBidder(V, dd_margin=bad)
    for bad in ("x", None, -1, 1.5):
        with pytest.raises(RookError, match="node_budget"):
            DDAgent(V, node_budget=bad)


# ------------------------------------------------------------ observations

@pytest.mark.parametrize("kind", ["random", "heuristic", "pimc", "modelbid"])
def test_T15_a_bot_refuses_an_observation_that_is_not_its_move_to_answer(kind: str) -> None:
    """The view of a seat that is not to move (no legal actions), of a hand that
    is over, with an empty list of legal actions, None, {} or a Toonerville
    view raised KeyError, IndexError, ValueError or TypeError from inside the bot."""
    bot = make_agent(kind, V, 1, **({"worlds": 2} if kind == "pimc" else {}))
    h = to_play()
    to = h.seat_to_move()
    empty = dict(h.observation(to), legal_actions=[])
    for obs, words in ((h.observe((to + 1) % 4), "lists no legal action"),
                       (h.observation((to + 1) % 4), "lists no legal action"),
                       (finished().observe(0), "lists no legal action"), (empty, "lists no legal action"),
                       (None, "observation"), ({}, "lists no legal action"),
                       (ToonervilleGame(4, 1).observation(1), "Toonerville"),
                       (dict(h.observation(to), legal_actions=["x"]), "legal actions are ints")):
        with pytest.raises(RookError, match=words):
            bot.act(obs)   # type: ignore[arg-type]
    assert bot.act(h.observe(to)) in h.legal_actions()


@pytest.mark.parametrize("kind", ["random", "heuristic", "pimc", "modelbid"])
@pytest.mark.parametrize("preset", ["partnership-57", "house-180"])
def test_T15_a_bot_refuses_an_observation_of_another_variant(kind: str, preset: str) -> None:
    """A tournament heuristic handed a partnership-57 view answered with the
    wrong deck and points (silently), a house-180 view gave 'card id 35 is
    not in the deck'."""
    bot = make_agent(kind, V, 1, **({"worlds": 2} if kind == "pimc" else {}))
    h = to_play(preset, seed=2, cards=2)
    for obs in (h.observe(h.seat_to_move()), h.observation(h.seat_to_move())):
        with pytest.raises(RookError, match=f"made for 'tournament' was handed an observation of '{preset}'"):
            bot.act(obs)


def test_T15_dd_and_act_for_answer_only_the_seat_to_move_of_their_variant() -> None:
    """DDAgent played a house-180 hand with tournament rules, silently; act_for
    for a seat not to move answered for the seat to move (dd) or raised KeyError."""
    h = to_play()
    to = h.seat_to_move()
    with pytest.raises(RookError, match="made for 'tournament' was handed a hand of 'house-180'"):
        DDAgent(V).act_with_state(to_play("house-180", seed=2, cards=2))
    with pytest.raises(RookError, match="HandState"):
        DDAgent(V).act_with_state(None)   # type: ignore[arg-type]
    for bot in (DDAgent(V), HeuristicAgent(V)):
        with pytest.raises(RookError, match=f"seat {(to + 1) % 4} is not to move: seat {to} is"):
            act_for(bot, h, (to + 1) % 4)
        assert act_for(bot, h, to) in h.legal_actions()
    with pytest.raises(RookError, match="no seat is to move"):
        act_for(HeuristicAgent(V), finished(), 0)


def test_a_bot_reused_across_hands_decides_as_a_new_one() -> None:
    """A heuristic or PIMC bot keeps no state from one hand that changes its
    choices in the next (PIMC's nest plan is keyed by the hand)."""
    for make in (lambda: HeuristicAgent(V, 4), lambda: PIMCAgent(V, 4, worlds=2, nest="worlds", nest_worlds=2)):
        old = make()
        for seed in (5, 6):
            h, fresh = HandState.deal(V, seed=seed), make()
            while not h.is_over and h.phase != "play":
                obs = h.observe(h.seat_to_move())
                a = old.act(obs)
                assert a == fresh.act(obs)
                h.apply(a)


# ------------------------------------------------------------ worlds and estimates

def test_worlds_refuse_a_count_rng_or_knowledge_of_the_wrong_kind() -> None:
    """n=1.5 or None raised TypeError, n=10**9 ran for ever, rng=None and k=None
    raised AttributeError."""
    obs = to_play().observe(to_play().seat_to_move())
    for bad in (1.5, None, True, -1, 10**9):
        with pytest.raises(RookError, match="n must be an int 0 .. 100,000"):
            world_positions(obs, bad, random.Random(1))   # type: ignore[arg-type]
    for rng in (None, 5):
        with pytest.raises(RookError, match="rng must be a random.Random"):
            world_positions(obs, 2, rng)   # type: ignore[arg-type]
        with pytest.raises(RookError, match="rng must be a random.Random"):
            sample_world(Knowledge.from_observation(obs), rng)   # type: ignore[arg-type]
    with pytest.raises(RookError, match="Knowledge"):
        sample_world(None, random.Random(1))   # type: ignore[arg-type]
    with pytest.raises(RookError, match="observation"):
        world_positions(None, 1, random.Random(1))   # type: ignore[arg-type]
    assert world_positions(obs, 0, random.Random(1)) == []
    assert len(world_positions(obs, 2, random.Random(1))) == 2


@settings(max_examples=100, deadline=None)
@given(st.one_of(st.integers(-5, 2**65), st.none(), st.floats(), st.text(max_size=2)), st.one_of(
    st.integers(-3, 6), st.none(), st.floats(), st.booleans()))
def test_hand_estimate_answers_a_hand_of_the_deck_or_names_what_is_wrong(hand: Any, trump: Any) -> None:
    """A hand of -1 raised IndexError, 'x' TypeError, trump None TypeError."""
    try:
        value = hand_estimate(V, hand, trump)
    except RookError as e:
        assert "hand must be a mask" in str(e) or "trump must be a color" in str(e)
    else:
        assert isinstance(value, float) and hand & ~V.deck_mask == 0 and trump in range(4)


def test_estimates_and_models_take_a_preset_name() -> None:
    """hand_estimate('tournament', ...) and bid_model('tournament') raised AttributeError."""
    hand = HandState.deal(V, seed=1).hand_mask(0)
    assert hand_estimate("tournament", hand, 1) == hand_estimate(V, hand, 1)
    assert bid_model("tournament") == bid_model(V)
    assert hand_estimate(V, np.uint64(hand), np.int64(1)) == hand_estimate(V, hand, 1)
