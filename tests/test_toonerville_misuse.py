"""Toonerville's helpers misused: contracts, card points, the heuristic bot's
inputs, the game log, table melds, NumPy ints in the rules and the
simulator's summary.  Each call is done exactly or refused with a RookError
that names what is wrong, never a bare Python error or a made-up answer."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest

from rook_core.errors import NotationError, RookError
from rook_core.sim.toonerville import format_toonerville_summary, simulate_toonerville
from rook_core.toonerville.agents import contract_value, make_toonerville_agent
from rook_core.toonerville.contracts import contract_for
from rook_core.toonerville.game import ToonervilleGame
from rook_core.toonerville.hand import MultiHand, card_points
from rook_core.toonerville.playlog import cards_text, contract_text, new_table, write_game_log
from rook_core.toonerville.rules import ToonervilleRules
from rook_core.toonerville.table import TableMeld


def test_TV2_a_contract_with_keys_of_mixed_types_is_refused_by_name() -> None:
    """contract_for({1: 2, "x": 3}) raised a bare TypeError while sorting the keys for its message."""
    with pytest.raises(RookError, match="only 'sets' and 'runs', not 'x', 1|only 'sets' and 'runs', not 1, 'x'"):
        contract_for({1: 2, "x": 3})
    with pytest.raises(RookError, match="only 'sets' and 'runs'"):
        contract_for({None: 1, "sets": 1})


def test_TV12_card_points_of_an_id_that_is_no_card_is_refused() -> None:
    """card_points(0), (16) and (999) answered 5 points: ids of no card of the full-57 deck."""
    for bad in (0, 16, 999, -1, 10**20):
        with pytest.raises(NotationError, match="not in the full-57 deck"):
            card_points(bad)
    assert [card_points(c) for c in (1, 9, 10, 15, 62)] == [5, 5, 10, 25, 10]
    assert MultiHand.parse("B1 Y14 Rook").points() == 40


@pytest.mark.parametrize("counts, sets, runs", [
    ([0] * 64, "1", 0), ([0] * 64, 1.5, 0), ([0] * 64, 1, None), ([0] * 64, True, 0),
    (None, 1, 0), (["a"] * 64, 1, 0), ([-5] * 64, 1, 0), ([9] + [0] * 63, 1, 0), ([0.5] * 64, 1, 0)])
def test_TV1_TV2_contract_value_refuses_what_is_no_hand_or_contract(counts: Any, sets: Any, runs: Any) -> None:
    """Sets of '1' or 1.5 and counts of None or text raised bare TypeErrors; counts of -5
    answered -25 cards toward the contract."""
    with pytest.raises(RookError, match="contract_value takes 64 counts"):
        contract_value(counts, sets, runs)


def test_TV1_contract_value_still_values_hands() -> None:
    hand = MultiHand.parse("B7 G7 R7 Y9 Y9 R3 R4 R5 Rook").counts()
    assert contract_value(hand, 2, 0) == 6 and contract_value(hand, 1, 1) == 7
    assert contract_value(np.array(hand, dtype=np.int64), 1, 1) == 7


def _observation() -> dict[str, Any]:
    return ToonervilleGame(3, seed=1).observation(1)


@pytest.mark.parametrize("change", [
    {"hand": None}, {"contract": None}, {"contract": {"sets": 1}}, {"laid": 3}, {"phase": None}, {"table": "x"}])
def test_TV6_the_heuristic_bot_refuses_an_observation_without_its_fields(change: dict[str, Any]) -> None:
    """An observation lacking its hand, contract, laid, phase or table raised KeyError or TypeError."""
    obs = {**_observation(), **change}
    bot = make_toonerville_agent("heuristic", ToonervilleRules(players=3))
    with pytest.raises(RookError, match="observation lacks"):
        bot.act(obs)


@pytest.mark.parametrize("key", ["hand", "contract", "laid", "phase", "discard_top", "buys"])
def test_TV6_the_heuristic_bot_names_a_missing_field(key: str) -> None:
    obs = _observation()
    del obs[key]
    with pytest.raises(RookError, match=key):
        make_toonerville_agent("heuristic", ToonervilleRules(players=3)).act(obs)


def test_TV6_the_random_bot_needs_only_the_legal_actions() -> None:
    obs = {k: v for k, v in _observation().items() if k in ("game", "player", "to_move", "legal_actions")}
    assert str(make_toonerville_agent("random", ToonervilleRules(players=3)).act(obs)) in obs["legal_actions"]


def test_TV2_contract_text_names_every_contract_contract_for_takes() -> None:
    """contract_text(6, 0) .. (8, 0) raised IndexError, though contract_for takes up to 8 of each."""
    assert contract_text(8, 0) == "eight sets" and contract_text(1, 6) == "six runs, one set"
    for bad in ((9, 0), (-1, 0), ("1", 0), (True, 1)):
        with pytest.raises(RookError, match="0..8"):
            contract_text(*bad)


def test_TV1_cards_text_refuses_what_is_no_hand() -> None:
    """cards_text([1, 2]) raised IndexError."""
    assert cards_text(MultiHand.parse("B2 B7 B7 R13 Rook").counts()) == "B: 2 7 7  R: 13  Rook"
    for bad in ([1, 2], None, [-1] * 64):
        with pytest.raises(RookError, match="64"):
            cards_text(bad)   # type: ignore[arg-type]


def test_the_game_log_refuses_agents_or_an_output_that_are_not_ones() -> None:
    """Agents of None raised a bare TypeError, an output of None an AttributeError
    (after the game was dealt); a generator of agents was read twice, so the log's
    first line named none."""
    with pytest.raises(RookError, match="agents must be a list"):
        new_table(3, 1, None)   # type: ignore[arg-type]
    with pytest.raises(RookError, match="agents must be a list"):
        write_game_log(3, 1, None, io.StringIO(), rounds=(1,))   # type: ignore[arg-type]
    with pytest.raises(RookError, match="out must be a text stream"):
        write_game_log(3, 1, ["random"] * 3, None, rounds=(1,))   # type: ignore[arg-type]
    with pytest.raises(RookError, match="3 players need 3 agents"):
        new_table(3, 1, ["random"] * 2)
    out = io.StringIO()
    write_game_log(3, 1, (k for k in ["random"] * 3), out, rounds=(1,), turn_limit=30)
    assert out.getvalue().startswith("rook play: toonerville, 3 players (random, random, random), seed 1, round 1")
    game, bots = new_table(3, 1, ["random"] * 3, rounds=(r for r in (1, 2)))
    assert game.rules.rounds == (1, 2) and len(bots) == 3


@pytest.mark.parametrize("kind, cards, owner", [
    ("set", (1, 2, 3), 0),                 # B1 B2 B3: no rank shared
    ("set", (1, 17), 0),                   # two cards
    ("run", (15, 15, 15, 1), 0),           # Rook Rook Rook B1: a run below rank 1
    ("run", (1, 2, 3), 0),                 # three cards
    ("run", (1, 2, 19, 4), 0),             # two colors
    ("run", (4, 3, 2, 1), 0),              # not from its lowest rank up
    ("run", (11, 12, 13, 14, 15), 0),      # a bird above rank 14
    ("run", (1, 2, 3, 4), "x"), ("set", (1, 17, 33), -1), ("set", (1, 17, 33), True)])
def test_TV4_a_table_meld_that_is_no_such_meld_is_refused(kind: str, cards: tuple[int, ...], owner: Any) -> None:
    """TableMeld("set", 0, (B1 B2 B3)) was made, and laying B1 off on it was accepted;
    TableMeld("run", 0, (Rook Rook Rook B1)) had lowest rank -2."""
    with pytest.raises(RookError, match="table order|owner"):
        TableMeld(kind, owner, cards)


def test_TV4_table_melds_in_table_order_are_made() -> None:
    assert TableMeld("run", 0, (15, 2, 3, 4)).lowest_rank() == 1
    assert TableMeld("run", 2, (11, 12, 13, 15)).lay_off(15, "low", 0.5) is not None
    assert TableMeld("set", 1, (1, 17, 15)).lay_off(33, None, 0.5) is not None
    assert TableMeld("", 0, (4, 3, 2, 1)).cards == (4, 3, 2, 1)     # a bot's meld before it is arranged


def test_TV1_TV8_rules_take_numpy_ints_as_ints() -> None:
    """ToonervilleRules(players=np.int64(4)) was refused as 'not 3 to 5 players', though
    the game takes a NumPy int as its first dealer and the hands as counts."""
    rules = ToonervilleRules(players=np.int64(4), max_buys=np.int32(2), rounds=[np.int8(1), 2],
                             turn_limit=np.uint16(9))
    assert rules == ToonervilleRules(players=4, max_buys=2, rounds=(1, 2), turn_limit=9)
    assert all(type(v) is int for v in (rules.players, rules.max_buys, rules.turn_limit, *rules.rounds))
    assert ToonervilleGame(np.int64(3)).players == 3   # type: ignore[arg-type]
    for bad in ({"players": True}, {"players": 4.0}, {"rounds": [True]}, {"max_buys": np.float64(1)}):
        with pytest.raises(RookError):
            ToonervilleRules(**bad)


def test_the_simulator_summary_formatter_refuses_what_is_no_summary() -> None:
    """format_toonerville_summary({}) raised KeyError."""
    for bad in ({}, None, {"games": 1}):
        with pytest.raises(RookError, match="summary"):
            format_toonerville_summary(bad)   # type: ignore[arg-type]
    r = simulate_toonerville(["random"] * 3, games=2, rounds=(1,), turn_limit=20)
    assert format_toonerville_summary(r.summary()).startswith("toonerville: 2 games")


def test_the_simulator_bounds_its_workers_as_simulate_does_and_takes_numpy_counts() -> None:
    """workers=10**6 was taken (a process a chunk of games), and NumPy counts refused."""
    for workers in (0, 257, 10**6, 1.5, True):
        with pytest.raises(RookError, match="workers"):
            simulate_toonerville(["random"] * 3, games=1, workers=workers)
    for games in (0, -1, 1.5, True):
        with pytest.raises(RookError, match="games"):
            simulate_toonerville(["random"] * 3, games=games)
    r = simulate_toonerville(["random"] * 3, games=np.int64(2), workers=np.int64(1), rounds=(1,))
    assert r == simulate_toonerville(["random"] * 3, games=2, rounds=(1,))
