"""The HTML forms Jupyter shows (``_repr_html_``) of a solver answer and a
Toonerville game: well-formed, escaped, and the same facts as ``str``."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest

from rook_core import HandState
from rook_core import cards as cards_module
from rook_core.actions import Phase
from rook_core.cards import Card, card_name
from rook_core.solver import Solver, SolveResult
from rook_core.toonerville.agents import make_toonerville_agent
from rook_core.toonerville.game import ToonervilleGame
from rook_core.toonerville.rules import ToonervilleRules

_TAGS = {"p", "table", "tr", "th", "td"}
_CARD = re.compile(r"^(?:[BGRY]\d{1,2}|Rook)$")


class _Reader(HTMLParser):
    """Reads the HTML these forms write: its paragraphs and its table rows as
    [(tag, text)] (text unescaped); fails on any other tag or an unbalanced one."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.paragraphs: list[str] = []
        self.rows: list[list[tuple[str, str]]] = []
        self.tables: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        assert tag in _TAGS, f"unexpected tag <{tag}>"
        if tag == "p":
            self.paragraphs.append("")
        elif tag == "table":
            self.tables.append(dict(attrs).get("class") or "")
        elif tag == "tr":
            self.rows.append([])
        else:
            assert self.open and self.open[-1] == "tr", f"<{tag}> outside a row"
            self.rows[-1].append((tag, ""))
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes {self.open}"
        self.open.pop()

    def handle_data(self, data: str) -> None:
        assert self.open, f"text outside any tag: {data!r}"
        where = self.open[-1]
        if where == "p":
            self.paragraphs[-1] += data
        elif where in ("th", "td"):
            tag, text = self.rows[-1][-1]
            self.rows[-1][-1] = (tag, text + data)
        else:
            raise AssertionError(f"text {data!r} directly in <{where}>")


def _read(markup: str) -> _Reader:
    reader = _Reader()
    reader.feed(markup)
    reader.close()
    assert not reader.open, f"unclosed tags {reader.open}"
    assert reader.rawdata == "", f"unparsed {reader.rawdata!r}"
    return reader


# ----------------------------------------------------------------- the solver

def _ending(seed: int, in_trick: int) -> HandState:
    """A hand of ``tournament`` played at random to 3 tricks left, ``in_trick``
    cards of the current one played."""
    rng = random.Random(seed)
    while True:
        hand = HandState.deal("tournament", seed)
        while hand.phase not in (Phase.PLAY, Phase.THROWN_IN, Phase.DONE):
            hand.apply(rng.choice(hand.legal_actions()))
        if hand.phase == Phase.PLAY:
            break
        seed += 1000
    while sum(hand.hand_mask(s).bit_count() for s in range(4)) > 12 - in_trick:
        hand.apply(rng.choice(hand.legal_actions()))
    return hand


def _shown_in_text(r: SolveResult) -> list[tuple[str, str, str]]:
    """The (card, value, mark) of each card as ``str(r)`` lists them, in order."""
    return re.findall(r"(\S+) (-?\d+)(\*?)", str(r).split("best): ", 1)[1])


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_a_solve_result_in_html_shows_its_value_and_every_card_by_name_with_its_value(seed: int) -> None:
    r = Solver().solve(_ending(seed, in_trick=seed % 4))
    page = _read(r._repr_html_())
    assert page.tables == ["rook-solve"]
    assert page.paragraphs == [str(r).split(", its cards", 1)[0]]
    assert f"team 0 takes {r.value} points" in page.paragraphs[0]
    assert f"seat {r.to_move} (team {r.to_move % 2}) to move" in page.paragraphs[0]
    head, *rows = page.rows
    assert head == [("th", "card"), ("th", "team 0's points after it"), ("th", "best")]
    assert all([t for t, _ in row] == ["th", "td", "td"] for row in rows)
    cells = [tuple(text for _, text in row) for row in rows]
    assert cells == _shown_in_text(r)               # the same cards, values, marks and order as str
    assert len(cells) == len(r.move_values) >= 1
    assert all(_CARD.match(card) for card, _, _ in cells), cells   # names, never card ids
    assert {card: int(v) for card, v, _ in cells} == {str(c): v for c, v in r.move_values.items()}
    assert {card for card, _, mark in cells if mark == "*"} == {str(c) for c in r.best}
    assert {mark for _, _, mark in cells} <= {"*", ""}


def test_a_solve_result_in_html_puts_the_best_cards_of_team_1_first() -> None:
    pos = {"preset": "tournament", "trump": "R", "leader": 1, "trick": [],
           "hands": [["R14", "B5"], ["R5", "B14"], ["R6", "B6"], ["R7", "B10"]]}
    r = Solver().solve(pos)
    rows = _read(r._repr_html_()).rows[1:]
    assert sorted(text for _, text in (row[0] for row in rows)) == ["B14", "R5"]
    values = [int(row[1][1]) for row in rows]
    assert values == sorted(values) and values[0] == r.value


def test_a_solve_result_without_cards_shows_a_dash_as_str_does() -> None:
    r = SolveResult(25, to_move=2)
    page = _read(r._repr_html_())
    assert str(r).endswith(": -")
    assert page.paragraphs == ["team 0 takes 25 points from here with best play; seat 2 (team 0) to move"]
    assert page.rows[1:] == [[("th", "-"), ("td", ""), ("td", "")]]


def test_a_solve_result_in_html_escapes_card_names(monkeypatch: pytest.MonkeyPatch) -> None:
    odd = Card.of(0, 14)
    monkeypatch.setitem(cards_module._NAMES, int(odd), "<B&14>")
    r = SolveResult(10, {odd: 10, Card.of(1, 5): 0}, [odd], to_move=0)
    markup = r._repr_html_()
    assert "&lt;B&amp;14&gt;" in markup and "<B&14>" not in markup
    assert _read(markup).rows[1] == [("th", "<B&14>"), ("td", "10"), ("td", "*")]


# ---------------------------------------------------------- Toonerville games

def _states(players: int, seed: int) -> list[ToonervilleGame]:
    """Copies of a game of rounds 1, 2 and 11 played by heuristic bots: its start, a
    state after every 7th action and its end."""
    g = ToonervilleGame(ToonervilleRules(players=players, rounds=(1, 2, 11)), seed=seed)
    agents = [make_toonerville_agent("heuristic", g.rules, seed * 10 + p) for p in range(players)]
    out = [g.clone()]
    steps = 0
    while not g.is_over:
        p = g.to_move
        assert p is not None
        g.apply(agents[p].act(g.observation(p)), p)
        steps += 1
        if steps % 7 == 0 or g.is_over:
            out.append(g.clone())
    return out


def _check_game_html(g: ToonervilleGame) -> list[tuple[str, str]]:
    """Check ``g``'s HTML against its text; return its (label, text) rows."""
    first, *lines = str(g).splitlines()
    page = _read(g._repr_html_())
    assert page.tables == ["rook-toonerville"]
    assert page.paragraphs == [first]
    assert all([t for t, _ in row] == ["th", "td"] for row in page.rows)
    rows = [(row[0][1], row[1][1]) for row in page.rows]
    assert rows == [tuple(line.strip().split(": ", 1)) for line in lines]     # every line of str, in order
    return rows


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3), (4, 7)])
def test_a_toonerville_game_in_html_shows_what_its_text_shows(players: int, seed: int) -> None:
    states = _states(players, seed)
    saw_melds = saw_scores = False
    for g in states:
        rows = _check_game_html(g)
        c = g.contract
        head = _read(g._repr_html_()).paragraphs[0]
        assert f"round {g.round} ({c.sets} set(s), {c.runs} run(s))" in head
        assert ("over" if g.is_over else f"player {g.to_move} to move") in head
        by_label = dict(rows)
        for p in range(players):
            shown = by_label[f"player {p}"].split()
            assert shown == (g.hand(p).names() or ["-"]) and len(g.hand(p).names()) == sum(g.hands[p])
        melds = [text for label, text in rows if label == "table"]
        assert melds == [f"{m.kind} of player {m.owner}: {' '.join(card_name(x) for x in m.cards)}"
                         for m in g.table]
        assert all(_CARD.match(name) for text in melds for name in text.split(": ", 1)[1].split())
        top = card_name(g.discard[-1]) if g.discard else "-"
        assert by_label["discard pile"] == f"{top} on top; stock {len(g.stock)}"
        assert by_label["totals"] == " / ".join(str(t) for t in g.totals)
        saw_melds |= bool(g.table)
        saw_scores |= any(g.totals)
    assert states[-1].is_over and saw_melds and saw_scores     # the walk reached melds and scores


def test_a_toonerville_game_in_html_escapes_card_names(monkeypatch: pytest.MonkeyPatch) -> None:
    g = ToonervilleGame(3, seed=4)
    top = g.discard[-1]
    monkeypatch.setitem(cards_module._NAMES, top, "<x&y>")
    markup = g._repr_html_()
    assert "&lt;x&amp;y&gt; on top" in markup and "<x&y>" not in markup
    assert dict(_check_game_html(g))["discard pile"].startswith("<x&y> on top")


# ------------------------------------------------------------- the form

_ROW = re.compile(r"<tr><th style='text-align:right'>[^<]*</th>(?:<td>[^<]*</td>)+</tr>")


def _row_forms(markup: str) -> list[str]:
    """The table rows of ``markup`` but the header, each blanked to its form."""
    rows = re.findall(r"<tr>.*?</tr>", markup)
    return [re.sub(r">[^<]+<", "><", r) for r in rows if not r.startswith("<tr><th>")]


@pytest.mark.parametrize("seed", [0, 5, 9])
def test_the_new_tables_have_the_row_form_of_a_hand_state_table(seed: int) -> None:
    """A right-aligned label, then cells: the markup of ``HandState._repr_html_``."""
    h = _ending(seed, in_trick=1)
    assert all(_ROW.fullmatch(r) for r in re.findall(r"<tr>.*?</tr>", h._repr_html_()))
    solved = Solver().solve(h)._repr_html_()
    game = _states(3, seed)[-1]._repr_html_()
    for markup in (solved, game):
        assert markup.startswith("<p>") and markup.endswith("</table>")
        forms = _row_forms(markup)
        assert forms and all(_ROW.fullmatch(r) for r in forms), forms
    assert set(_row_forms(game)) == set(_row_forms(h._repr_html_()))    # label and one cell, as a hand


@pytest.mark.parametrize("seed", range(6))
def test_a_contract_result_in_html_shows_each_meld_by_name_tv_12(seed: int) -> None:
    """A contract answer's table holds what its text holds: met or not, the deadwood, the melds by name."""
    from rook_core.toonerville.solver import solve_contract
    g = ToonervilleGame(4, seed=seed)
    r = solve_contract(g.hand(1), g.round)
    page = _read(r._repr_html_())
    assert page.tables == ["rook-contract"]
    assert [cells for cells in page.rows] == [[("th", f"meld {i}"), ("td", " ".join(m))]
                                              for i, m in enumerate(r.meld_names(), 1)]
    assert page.paragraphs == [str(r).split(":", 1)[0] if r.can_meet else str(r)]
    assert ("cannot meet" in page.paragraphs[0]) == (not r.can_meet)
