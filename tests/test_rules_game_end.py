"""How a game ends: T-34, and the house rules H-6 (a tie at the target goes to
seats 0 and 2) and H-7 (a team wins only on its own bid), in the Python game
and in the native loop, which must agree."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rook_core import Game, Variant, VariantError
from rook_core import _layout as L
from rook_core._native import game_winner as native_winner
from rook_core.game import game_winner
from rook_core.sim.simulate import simulate

TOTALS = st.integers(-2000, 2000)
DECLARERS = st.sampled_from([None, 0, 1, 2, 3])


@given(TOTALS, TOTALS, st.integers(1, 1000), st.booleans(), st.booleans(), DECLARERS)
def test_T34_H6_H7_the_native_game_end_equals_the_python_one(t0: int, t1: int, target: int, tie: bool,
                                                             own: bool, declarer: int | None) -> None:
    v = Variant.from_preset("tournament", target=target, tie_to_team_0=tie, win_on_own_bid=own)
    want = game_winner(v, (t0, t1), declarer)
    got = native_winner(target, tie, own, t0, t1, L.NO_SEAT if declarer is None else declarer)
    assert got == (-1 if want is None else want)


def test_T34_a_tie_at_the_target_plays_another_hand_by_default() -> None:
    v = Variant.from_preset("tournament")
    assert game_winner(v, (300, 300), 1) is None
    assert game_winner(v, (310, 300), 1) == 0 and game_winner(v, (290, 295), 1) is None


def test_H6_a_tie_at_the_target_goes_to_seats_0_and_2() -> None:
    v = Variant.from_preset("tournament", tie_to_team_0=True)
    assert game_winner(v, (300, 300), 1) == 0 and game_winner(v, (320, 320), 0) == 0
    assert game_winner(v, (290, 290), 1) is None                           # below the target: play on
    assert game_winner(v, (300, 310), 0) == 1                              # no tie: T-34 as ever


def test_H7_a_team_wins_only_at_the_end_of_a_hand_it_declared() -> None:
    v = Variant.from_preset("tournament", win_on_own_bid=True)
    assert game_winner(v, (350, 100), 1) is None and game_winner(v, (350, 100), 3) is None
    assert game_winner(v, (350, 100), 0) == 0 and game_winner(v, (350, 100), 2) == 0
    assert game_winner(v, (100, 350), 3) == 1
    both = Variant.from_preset("tournament", win_on_own_bid=True, tie_to_team_0=True)
    assert game_winner(both, (300, 300), 1) is None and game_winner(both, (300, 300), 2) == 0


@pytest.mark.parametrize("seed", range(6))
def test_H7_whole_games_end_on_the_winners_own_bid(seed: int) -> None:
    v = Variant.from_preset("tournament", win_on_own_bid=True)
    g = Game(v, seed)
    rng = random.Random(seed)
    while not g.is_over and g.hand_number <= 60:
        h = g.current
        g.apply(rng.choice(h.legal_actions()))
        if g.hand_number > 1 and not g.is_over and g.hands[-2].phase.label == "done":
            last = g.hands[-2]
            t = tuple(sum(x.score[i] for x in g.hands[:-1]) for i in range(2))
            if max(t) >= v.target and t[0] != t[1]:                       # T-34 alone would have ended it
                assert last.declarer is not None and last.declarer % 2 != (0 if t[0] > t[1] else 1)
    if g.is_over:
        assert g.current.declarer is not None and g.current.declarer % 2 == g.winner


@pytest.mark.parametrize("flags", [{"tie_to_team_0": True}, {"win_on_own_bid": True},
                                   {"tie_to_team_0": True, "win_on_own_bid": True, "target": 200}])
def test_H6_H7_native_games_equal_the_python_games(flags: dict[str, object]) -> None:
    v = Variant.from_preset("tournament", **flags)
    agents = ["heuristic", "random", "heuristic", "random"]
    fast = simulate(v, agents, games=12, seed=3, max_hands=40)
    assert fast.meta.get("native") is True
    slow = simulate(v, agents, games=12, seed=3, max_hands=40, native=False)
    diff = [k for k in fast.games if not np.array_equal(fast.games[k], slow.games[k])]
    assert fast == slow, f"game columns that differ: {diff}"
    if flags.get("win_on_own_bid"):                                   # the rule changes how games end
        plain = simulate(Variant.from_preset("tournament", target=v.target), agents, games=12, seed=3, max_hands=40)
        assert not np.array_equal(plain.games["hands"], fast.games["hands"])


def test_H6_H7_fields_are_checked() -> None:
    with pytest.raises(VariantError, match="tie_to_team_0"):
        Variant.from_preset("tournament", tie_to_team_0="yes")
    with pytest.raises(VariantError, match="win_on_own_bid"):
        Variant.from_preset("tournament", win_on_own_bid=1)
