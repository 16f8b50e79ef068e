"""Objects people read (issue 18): a hand, a game and a solver answer print as
text a person can follow and render as HTML in Jupyter, from the same rows."""

from __future__ import annotations

import html
import random
import re

import pytest
from _walks import random_hand_states

from rook_core import PRESETS, Game, HandState
from rook_core import _layout as L
from rook_core.actions import Phase
from rook_core.cards import CardSet
from rook_core.solver import Solver
from rook_core.text import fmt_hand


def _by_color_spelled_out(mask: int) -> str:
    """The colors in order B G R Y, each with its ranks highest first, then the bird."""
    parts = []
    for letter, c in zip("BGRY", range(4)):
        ranks = [r for r in range(15, -1, -1) if 16 * c + r != 15 and mask >> (16 * c + r) & 1]
        if ranks:
            parts.append(f"{letter}:" + ",".join(map(str, ranks)))
    if mask >> 15 & 1:
        parts.append("Rook")
    return "  ".join(parts) or "-"


def test_a_card_set_by_color_names_every_card_once_highest_first() -> None:
    rng = random.Random(5)
    deck = [c for c in range(64) if PRESETS["partnership-57"].deck_mask >> c & 1]
    for _ in range(500):
        mask = sum(1 << c for c in rng.sample(deck, rng.randint(0, 20)))
        assert CardSet(mask).by_color() == _by_color_spelled_out(mask) == fmt_hand(CardSet(mask)) \
            == fmt_hand(list(CardSet(mask)))


_walk = random_hand_states


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_T15_a_hand_prints_its_four_hands_its_contract_trick_and_points(preset: str) -> None:
    for h in _walk(preset, 2):
        text = str(h)
        rows = dict(line.strip().split(": ", 1) for line in text.splitlines())
        for s in range(4):
            assert rows[f"seat {s} (team {s % 2})"] == h.hand(s).by_color()
        assert rows["taken"].startswith(f"tricks {h.tricks_won[0]} / {h.tricks_won[1]}, points "
                                        f"{h.points[0]} / {h.points[1]}")
        if h.trump is not None:
            assert f"trump {L.COLOR_NAMES[h.trump]}" in rows["contract"]
        if h.trick_ids:
            assert rows["trick"] == ", ".join(f"seat {s} {c}" for s, c in h.trick_seats)
        if h.is_over:
            assert rows["score"] == f"{h.score[0]} / {h.score[1]}"
        if h.variant.nest_size:          # T-20: once a card went back it is the discards, before it the nest
            buried = any(ph == Phase.NEST and a < 64 for ph, _, a in h.events())
            assert rows["discards" if buried else "nest"] == h.nest.by_color()
        cells = re.findall(r"<tr><th[^>]*>(.*?)</th><td>(.*?)</td></tr>", h._repr_html_())
        assert [(html.unescape(k), html.unescape(v)) for k, v in cells] == \
            [(k.strip(), v) for k, v in (line.split(": ", 1) for line in text.splitlines())]
        assert "\n" not in repr(h)


def test_a_game_prints_its_totals_over_its_hand() -> None:
    g = Game("crowsnest", 7)
    first, rest = str(g).split("\n", 1)
    assert first == "crowsnest game, seed 7: hand 1, totals 0 / 0 (team 0 / team 1), playing to 300"
    assert rest == str(g.current) and g.current._repr_html_() in g._repr_html_()


def test_a_solver_answer_prints_each_card_with_its_value_best_first() -> None:
    pos = {"preset": "tournament", "trump": "R", "leader": 1, "trick": [],
           "hands": [["R14", "B5"], ["R5", "B14"], ["R6", "B6"], ["R7", "B10"]]}
    r = Solver().solve(pos)
    text = str(r)
    assert text.startswith(f"team 0 takes {r.value} points from here with best play; seat 1 (team 1) to move")
    shown = re.findall(r"(\w+) (\d+)(\*?)", text.split("best): ")[1])
    assert {c: int(v) for c, v, _ in shown} == {str(c): v for c, v in r.move_values.items()}
    assert {c for c, _, star in shown if star} == {str(c) for c in r.best}
    values = [int(v) for _, v, _ in shown]
    assert values == sorted(values)                  # team 1 to move: fewest team 0 points first


def test_what_people_read_names_the_trump_and_json_keeps_its_letter() -> None:
    from rook_core.bots.agents import make_agent
    from rook_core.odds import bid_odds
    from rook_core.review import review_hand
    h = HandState.deal("tournament", seed=3)
    bots = [make_agent("heuristic", h.variant, s) for s in range(4)]
    while h.to_move is not None:
        h.apply(bots[h.to_move].act(h.observe(h.to_move)))
    assert h.trump is not None
    r = review_hand(h)
    assert f"trump {L.COLOR_NAMES[h.trump]};" in r.text() and r.to_json()["trump"] == L.COLOR_LETTERS[h.trump]
    o = bid_odds("tournament", [f"R{r}" for r in range(6, 15)], worlds=4, seed=1)
    assert f"best trump: {L.COLOR_NAMES[o.best_trump]}" in o.text()
    assert o.to_json()["best_trump"] == L.COLOR_LETTERS[o.best_trump]


def test_a_toonerville_hand_its_contract_answer_and_game_read_by_card_names() -> None:
    """TV-2, TV-4, TV-12: melds by name, not card ids; a game shows each hand and the table."""
    from rook_core.cards import card_name
    from rook_core.toonerville.game import ToonervilleGame
    from rook_core.toonerville.hand import MultiHand
    from rook_core.toonerville.solver import solve_contract
    h = MultiHand.parse("B7 G7 R7 Y9 Y9 B9 R3 R4 R5 R6 G2 Rook")
    r = solve_contract(h, 1)
    assert str(h) == " ".join(h.names()) and str(MultiHand()) == "-"
    assert r.meld_names() == [[card_name(c) for c in m] for m in r.melds] == \
        [["B7", "G7", "Rook"], ["B9", "Y9", "Y9"], ["R3", "R4", "R5", "R6", "R7"]]
    assert str(r) == ("the hand meets the contract with 5 points of deadwood (TV-12): "
                      "B7 G7 Rook; B9 Y9 Y9; R3 R4 R5 R6 R7")
    assert "cannot meet" in str(solve_contract(MultiHand.parse("B7 G2"), 1))
    g = ToonervilleGame(3, seed=2)
    lines = str(g).splitlines()
    assert lines[0].startswith("Toonerville, 3 players, seed 2: round 1 (2 set(s), 0 run(s))")
    for p in range(3):
        assert f"  player {p}: {g.hand(p)}" in lines
    assert f"discard pile: {card_name(g.discard[-1])} on top" in str(g)
