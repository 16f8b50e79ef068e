"""The native double-dummy solver against the exhaustive reference minimax.

``rook_core.solver.Solver`` (``src/rook/solve/``: alpha-beta, bounds table,
equivalent cards, null-window driver) must give exactly the values of
``rook_core._reference.minimax`` (plain minimax over the reference trick
rules, RULES.md T-8 .. T-14), in the FORMATS.md ``rook solve`` sense: the
points team 0 takes from the position to the end of the hand, the cards in
``trick``, ``nest_points``, the last-trick bonus and ``dixie``'s most-tricks
bonus (section 4: the tricks before the position come from its ``tricks``)
included, ``taken`` not.

What is checked, per preset (all nine):

* ``test_T8_T14_solver_equals_minimax``: ``ENDINGS_PER_PRESET`` = 1,250 random
  endings (11,250 in all) by tricks left, the current trick included:
  ``TRICK_COUNTS`` = 1: 220, 2: 380, 3: 460, 4: 180, 5: 10.  A quarter of them
  start at a trick boundary, the rest with 1-3 cards of the current trick
  played.  Half come from whole hands played through ``HandState`` (random
  bidding, nest, trump, passing, then random cards; solved both as a
  ``HandState`` and as FORMATS.md JSON), half from random deals of the ending
  alone with random ``nest_points`` (0-60), ``taken`` and ``tricks``.  For each:
  ``value`` (from ``solve`` and from ``value``), ``move_values`` for every
  legal card, and ``best`` = exactly the cards achieving the value; half the
  positions go to a solver with the smallest table (1,024 entries), so that
  entries are replaced all the time.
* ``test_T14_at_least_agrees_with_value``: on ``AT_LEAST_PER_PRESET`` = 24 of
  those endings (3-4 tricks), ``at_least`` for every target 0 .. total + 1
  and both teams agrees with the exact value (192 positions, ~23,000 calls).
* ``test_T13_team_holding_every_trump_equals_minimax``:
  ``TRUMP_HOLDER_PER_PRESET`` = 40 endings of 2-4 tricks per preset where
  one team holds every trump still out and the nest has points: the case in
  which the solver takes the end points as certain (not with ``must_trump``,
  T-9; dropping that exception fails ``partnership-57``).
* ``test_minimax_plain_equals_memoised``: the reference's memoised search
  equals its textbook form (``plain_value``: every card through
  ``RefPlay``/``play_card``, no memo) on ``PLAIN_PER_PRESET`` = 40 endings of
  1-3 tricks per preset; ``test_minimax_doctests`` runs its examples.
* Metamorphic tests on ``META_PER_PRESET`` = 24 endings of 2-6 tricks per
  preset (the native solver alone beyond 4 tricks; the reference agrees on
  the first 6 of each preset): relabelling the non-trump colors (C-1, T-9,
  T-11: value and per-card values unchanged); a full color permutation that
  moves trump too; rotating the seats by 2 (teams kept: value unchanged) and
  by 1 or 3 (teams swapped: value' = total - value).  Presets with a
  permanent trump (``red-one``'s R1) keep that card's color fixed.
* FORMATS.md errors: duplicate cards, wrong hand sizes, bad trump, an illegal
  card in the trick, unknown preset, a hand not in the play phase, a
  ``dixie`` position after the first trick without ``tricks``, ``tricks``
  that do not add up: ``PositionError`` with a message naming the problem,
  from the solver and from the reference.
* Node budget: ``Solver(node_budget=10)`` on 9-trick positions raises
  ``BudgetExceeded`` from ``value`` with ``lo <= hi`` bounding the true
  value, and from ``solve`` and ``at_least`` with ``lo <= hi``.
* ``tests/data/solve.jsonl`` (288 positions of 1-4 tricks, from
  ``tools/gen_solver_vectors.py``, reference only): the solver reproduces
  every record, and regenerating the file in-process gives the same text.

Every random case comes from a seeded ``random.Random``; a failure prints the
position as FORMATS.md JSON.  Runtime: about 60 s on a 2-core machine, most
of it in the reference on the 4- and 5-trick endings (50-60 s measured).
"""

from __future__ import annotations

import doctest
import functools
import json
import random
import zlib
from pathlib import Path
from typing import Any

import pytest
from _support import load_tool, read_jsonl

from rook_core import HandState
from rook_core._reference.minimax import dd_at_least, dd_best, dd_total, dd_value, plain_value
from rook_core._reference.tricks import RefPlay, card_points, deck_cards, is_trump, play_card
from rook_core.actions import Phase
from rook_core.cards import BIRD, Card, card_name, color_name, parse_card, parse_color
from rook_core.errors import PositionError, RookError
from rook_core.solver import BudgetExceeded, Solver
from rook_core.variant import PRESETS, Variant

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "solve.jsonl"
TOOL = ROOT / "tools" / "gen_solver_vectors.py"

NAMES = list(PRESETS)
TRICK_COUNTS = {1: 220, 2: 380, 3: 460, 4: 180, 5: 10}
ENDINGS_PER_PRESET = sum(TRICK_COUNTS.values())
AT_LEAST_PER_PRESET = 24
PLAIN_PER_PRESET = 40
META_PER_PRESET = 24
META_REFERENCE = 6
SHOW = 5  # failing cases printed per assertion

# One solver with a large table and one with the smallest (1,024 entries).
SOLVER = Solver()
SMALL_SOLVER = Solver(tt_bytes=1)


def _rng(test: str, name: str) -> random.Random:
    return random.Random(zlib.crc32(f"solver/{test}/{name}".encode()))


# ------------------------------------------------------------- the endings

def _sorted_cards(cards: Any) -> list[str]:
    return [card_name(c) for c in sorted(cards, key=lambda c: (c == BIRD, c))]


def _position(name: str, trump: int, leader: int, trick: list[int], hands: list[Any],
              nest_points: int, taken: list[int], tricks: list[int]) -> dict[str, Any]:
    """Return the FORMATS.md JSON object of a trick-play position."""
    return {"preset": name, "trump": color_name(trump), "leader": leader,
            "trick": [card_name(c) for c in trick], "hands": [_sorted_cards(h) for h in hands],
            "nest_points": nest_points, "taken": list(taken), "tricks": list(tricks)}


def _cards_of(mask: int) -> list[int]:
    return [c for c in range(64) if mask >> c & 1]


def _game_ending(name: str, rng: random.Random, tricks: int, in_trick: int) -> HandState:
    """Return a whole hand played at random through ``HandState`` (bidding,
    nest, trump, passing: T-3 .. T-22) until ``tricks`` tricks are left with
    ``in_trick`` cards of the current one played (T-8)."""
    seed = rng.randrange(1 << 31)
    while True:
        hand = HandState.deal(name, seed)
        while hand.phase not in (Phase.PLAY, Phase.THROWN_IN, Phase.DONE):
            hand.apply(rng.choice(hand.legal_actions()))
        if hand.phase == Phase.PLAY:
            break
        seed += 1  # all passed (T-6): deal again
    cards_left = 4 * tricks - in_trick
    while sum(hand.hand_mask(s).bit_count() for s in range(4)) > cards_left:
        hand.apply(rng.choice(hand.legal_actions()))
    return hand


def _hand_position(name: str, hand: HandState) -> dict[str, Any]:
    return _position(name, hand.trump or 0, hand.leader or 0, [int(c) for c in hand.trick],
                     [_cards_of(hand.hand_mask(s)) for s in range(4)], hand.nest_points,
                     list(hand.points), list(hand.tricks_won))


def _deal_ending(name: str, rng: random.Random, tricks: int, in_trick: int) -> dict[str, Any]:
    """Return an ending dealt directly: ``tricks`` random cards per seat, a
    random trump, leader, ``nest_points`` and ``taken``, then ``in_trick``
    random legal cards (reference ``play_card``, T-9, T-10); the tricks
    before it are split at random between the teams."""
    variant = PRESETS[name]
    deck = sorted(deck_cards(variant))
    rng.shuffle(deck)
    hands = [set(deck[s * tricks:(s + 1) * tricks]) for s in range(4)]
    state = RefPlay(variant, rng.randrange(4), rng.randrange(4), [], hands)
    for _ in range(in_trick):
        state = play_card(state, rng.choice(sorted(state.legal())))
    done = variant.hand_size - tricks
    won0 = rng.randint(0, done)
    return _position(name, state.trump, state.leader, state.trick, state.hands,
                     rng.randrange(0, 61, 5), [rng.randrange(0, 100, 5), rng.randrange(0, 100, 5)],
                     [won0, done - won0])


@functools.cache
def _endings(name: str) -> list[tuple[dict[str, Any], HandState | None]]:
    """Return the ``ENDINGS_PER_PRESET`` endings of ``name`` (deterministic):
    (FORMATS.md position, the ``HandState`` it came from or None)."""
    rng = _rng("endings", name)
    out: list[tuple[dict[str, Any], HandState | None]] = []
    for tricks, count in TRICK_COUNTS.items():
        for i in range(count):
            in_trick = rng.choice((0, 1, 2, 3))
            if i % 2 == 0:
                hand = _game_ending(name, rng, tricks, in_trick)
                out.append((_hand_position(name, hand), hand))
            else:
                out.append((_deal_ending(name, rng, tricks, in_trick), None))
    for i, (position, _) in enumerate(out):
        position["id"] = f"{name}/{i}"
    return out


@functools.cache
def _reference(name: str) -> list[tuple[int, dict[int, int], list[int]]]:
    """Return the reference's (value, move_values, best) of every ending."""
    return [dd_best(position) for position, _ in _endings(name)]


def _tricks_left(position: dict[str, Any]) -> int:
    return max(len(h) for h in position["hands"])


def _show(position: dict[str, Any]) -> str:
    return json.dumps(position, separators=(",", ":"))


def _report(name: str, what: str, n: int, bad: list[str]) -> str:
    shown = "\n  ".join(bad[:SHOW])
    return f"{name}: {len(bad)} of {n} {what} (native vs reference):\n  {shown}"


def _names(values: dict[int, int]) -> dict[str, int]:
    return {card_name(c): v for c, v in values.items()}


# ------------------------------------------------- native == reference

@pytest.mark.parametrize("name", NAMES)
def test_T8_T14_solver_equals_minimax(name: str) -> None:
    """T-8 .. T-14, FORMATS.md ``rook solve``: value, every card's value and
    the best cards of the native solver are the reference minimax's."""
    bad: list[str] = []
    endings = _endings(name)
    for i, ((position, hand), (value, values, best)) in enumerate(zip(endings, _reference(name))):
        solver = SOLVER if i % 2 == 0 else SMALL_SOLVER
        got = solver.solve(position)
        got_values = {int(c): v for c, v in got.move_values.items()}
        got_best = sorted(int(c) for c in got.best)
        problems = []
        if got.value != value:
            problems.append(f"value {got.value} != {value}")
        if got_values != values:
            problems.append(f"move_values {_names(got_values)} != {_names(values)}")
        if got_best != best:
            problems.append(f"best {_sorted_cards(got_best)} != {_sorted_cards(best)}")
        if got.to_move != (position["leader"] + len(position["trick"])) % 4:
            problems.append(f"to_move {got.to_move}")
        plain = solver.value(position)
        if plain != value:
            problems.append(f"Solver.value {plain} != {value}")
        if hand is not None:
            from_hand = solver.solve(hand)
            if (from_hand.value, from_hand.move_values) != (got.value, got.move_values):
                problems.append(f"solve(HandState) {from_hand.value} "
                                f"{_names({int(c): v for c, v in from_hand.move_values.items()})}"
                                f" != solve(JSON)")
        if problems:
            bad.append(f"{'; '.join(problems)}\n    {_show(position)}")
    assert not bad, _report(name, "endings differ", len(endings), bad)


def test_endings_sizes() -> None:
    """The counts the module docstring promises: 10,000 endings of 1-5
    tricks, a mix of trick boundaries and positions inside a trick."""
    assert ENDINGS_PER_PRESET * len(NAMES) >= 10_000
    for name in NAMES:
        endings = [p for p, _ in _endings(name)]
        assert len(endings) == ENDINGS_PER_PRESET
        by_tricks = {k: sum(_tricks_left(p) == k for p in endings) for k in TRICK_COUNTS}
        assert by_tricks == TRICK_COUNTS
        inside = sum(bool(p["trick"]) for p in endings)
        assert 0.6 * len(endings) < inside < 0.8 * len(endings)
        assert len({p["nest_points"] for p in endings}) > 5


@pytest.mark.parametrize("name", NAMES)
def test_minimax_plain_equals_memoised(name: str) -> None:
    """The reference's memoised, cut-off search equals the textbook minimax
    over ``RefPlay``/``play_card`` (T-8 .. T-14)."""
    rng = _rng("plain", name)
    bad = []
    for i in range(PLAIN_PER_PRESET):
        position = _deal_ending(name, rng, 1 + i % 3, rng.choice((0, 1, 2, 3)))
        memo, plain = dd_value(position), plain_value(position)
        if memo != plain:
            bad.append(f"memoised {memo} != plain {plain}: {_show(position)}")
    assert not bad, _report(name, "endings differ", PLAIN_PER_PRESET, bad)


def test_minimax_doctests() -> None:
    """The examples in ``rook_core._reference.minimax`` hold (``test_doctests``
    covers only the public modules)."""
    from rook_core._reference import minimax
    result = doctest.testmod(minimax)
    assert result.attempted > 0 and result.failed == 0


# ----------------------------------------------------------- yes / no

@pytest.mark.parametrize("name", NAMES)
def test_T14_at_least_agrees_with_value(name: str) -> None:
    """``at_least(position, t, team)`` is ``value >= t`` for team 0 and
    ``total - value >= t`` for team 1 (T-14: the two teams share ``total``),
    for every target 0 .. total + 1."""
    chosen = [i for i, (p, _) in enumerate(_endings(name)) if _tricks_left(p) in (3, 4)]
    chosen = chosen[::max(1, len(chosen) // AT_LEAST_PER_PRESET)][:AT_LEAST_PER_PRESET]
    assert len(chosen) == AT_LEAST_PER_PRESET
    bad = []
    calls = 0
    for k, i in enumerate(chosen):
        position, hand = _endings(name)[i]
        value = _reference(name)[i][0]
        total = dd_total(position)
        for team in (0, 1):
            takes = value if team == 0 else total - value
            for target in range(total + 2):
                calls += 1
                got = (SOLVER if target % 2 else SMALL_SOLVER).at_least(position, target, team)
                if got != (takes >= target):
                    bad.append(f"at_least(target={target}, team={team}) = {got} but value "
                               f"{value} of total {total}: {_show(position)}")
            if k < 4:  # the reference's own yes/no, around the answer
                for target in (takes - 1, takes, takes + 1):
                    assert dd_at_least(position, target, team) == (takes >= target)
        if hand is not None:
            assert SOLVER.at_least(hand, value) and not SOLVER.at_least(hand, value + 1)
    assert calls > 1000
    assert not bad, _report(name, "at_least answers differ", calls, bad)


TRUMP_HOLDER_PER_PRESET = 40


@pytest.mark.parametrize("name", NAMES)
def test_T13_team_holding_every_trump_equals_minimax(name: str) -> None:
    """T-13 with T-9: the solver takes the nest and the last-trick bonus as
    certain for a team holding every trump still out (unless a void seat must
    trump).  On ``TRUMP_HOLDER_PER_PRESET`` endings of 2-4 tricks at a trick
    boundary where one team holds every remaining trump, with nest points,
    value and every card's value are the reference minimax's."""
    rng = _rng("trump-holder", name)
    variant = PRESETS[name]
    bad = []
    found = 0
    while found < TRUMP_HOLDER_PER_PRESET:
        position = _deal_ending(name, rng, rng.choice((2, 3, 3, 4)), 0)
        position["nest_points"] = rng.randrange(5, 61, 5)
        trump = parse_color(position["trump"])
        holders = {s % 2 for s in range(4) for c in position["hands"][s]
                   if is_trump(variant, int(parse_card(c)), trump)}
        if len(holders) != 1:
            continue
        found += 1
        value, values, _ = dd_best(position)
        got = (SOLVER if found % 2 else SMALL_SOLVER).solve(position)
        got_values = {int(c): v for c, v in got.move_values.items()}
        if (got.value, got_values) != (value, values):
            bad.append(f"{got.value} {_names(got_values)} != {value} {_names(values)}: "
                       f"{_show(position)}")
    assert not bad, _report(name, "endings differ", found, bad)


# -------------------------------------------------------- metamorphic

def _movable_colors(variant: Variant) -> list[int]:
    """Colors whose cards can be relabelled: not those of a permanent trump
    (``red-one``'s R1 has no twin in the other colors, section 4)."""
    fixed = {parse_card(text).color for text in variant.permanent_trumps}
    return [c for c in range(4) if c not in fixed]


def _recolor(position: dict[str, Any], perm: dict[int, int]) -> tuple[dict[str, Any], Any]:
    """Return ``position`` with every colored card's color c replaced by
    ``perm[c]`` (same rank), trump too; the bird and permanent trumps stay.
    Also return the card map (card text -> card text)."""
    permanent = {int(parse_card(t)) for t in PRESETS[position["preset"]].permanent_trumps}

    def card(text: str) -> str:
        c = parse_card(text)
        if c.is_bird or int(c) in permanent:
            return str(c)
        assert c.color is not None and c.rank is not None
        return str(Card.of(perm[c.color], c.rank))

    out = dict(position)
    out["trump"] = color_name(perm[parse_color(position["trump"])])
    out["trick"] = [card(t) for t in position["trick"]]
    out["hands"] = [[card(t) for t in h] for h in position["hands"]]
    return out, card


def _rotate(position: dict[str, Any], by: int) -> tuple[dict[str, Any], Any]:
    """Return ``position`` with seat s's cards given to seat s + ``by`` and
    the leader moved with them (T-8), and the teams' tricks swapped when
    the teams are; cards keep their names."""
    out = dict(position)
    out["leader"] = (position["leader"] + by) % 4
    if by % 2 and "tricks" in position:
        out["tricks"] = position["tricks"][::-1]
    out["hands"] = [position["hands"][(s - by) % 4] for s in range(4)]
    return out, str


@functools.cache
def _meta_endings(name: str) -> list[tuple[dict[str, Any], Any, int]]:
    """Return ``META_PER_PRESET`` endings of 2-6 tricks with their native
    ``solve`` and total (the first ``META_REFERENCE`` of 2-3 tricks, so that
    the reference can check them too)."""
    rng = _rng("meta", name)
    out = []
    for i in range(META_PER_PRESET):
        tricks = 2 + i % 2 if i < META_REFERENCE else rng.randint(2, 6)
        in_trick = rng.choice((0, 1, 2, 3))
        if i % 2:
            position = _deal_ending(name, rng, tricks, in_trick)
        else:
            position = _hand_position(name, _game_ending(name, rng, tricks, in_trick))
        out.append((position, SOLVER.solve(position), dd_total(position)))
    return out


def _check_transform(name: str, transform: Any, complement: bool) -> None:
    """Check that ``transform`` (position -> (position', card map)) keeps
    every value, or with ``complement`` turns each into total - value, and
    maps every card's value the same way."""
    bad = []
    for i, (position, before, total) in enumerate(_meta_endings(name)):
        moved, card_map = transform(position)
        after = SOLVER.solve(moved)

        def expect(v: int, total: int = total) -> int:
            return total - v if complement else v

        want_values = {card_map(str(c)): expect(v) for c, v in before.move_values.items()}
        got_values = {str(c): v for c, v in after.move_values.items()}
        if after.value != expect(before.value) or got_values != want_values:
            bad.append(f"value {before.value} -> {after.value} (want {expect(before.value)}), "
                       f"cards {got_values} != {want_values}:\n    {_show(position)}\n"
                       f" -> {_show(moved)}")
        if i < META_REFERENCE and dd_value(moved) != expect(dd_value(position)):
            bad.append(f"the reference breaks the relation (test bug?): {_show(position)}")
    assert not bad, _report(name, "transformed endings break the relation",
                            META_PER_PRESET, bad)


@pytest.mark.parametrize("name", NAMES)
def test_C1_T9_T11_relabel_non_trump_colors_keeps_value(name: str) -> None:
    """Colors other than trump play the same part (C-1, T-9, T-11): permuting
    them consistently in every hand and the trick changes no value."""
    rng = _rng("relabel", name)
    movable = _movable_colors(PRESETS[name])

    def transform(position: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        trump = parse_color(position["trump"])
        others = [c for c in movable if c != trump]
        shuffled = others[:]
        while len(others) > 1 and shuffled == others:
            rng.shuffle(shuffled)
        return _recolor(position, {c: c for c in range(4)} | dict(zip(others, shuffled)))

    _check_transform(name, transform, False)


@pytest.mark.parametrize("name", NAMES)
def test_C1_T10_T11_color_permutation_moving_trump_keeps_value(name: str) -> None:
    """Which color is trump does not matter, only which cards are trump
    (T-10, T-11): a full color permutation that moves trump to another color
    changes no value (``red-one`` with red trump: the other colors only)."""
    rng = _rng("permute", name)
    movable = _movable_colors(PRESETS[name])

    def transform(position: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        trump = parse_color(position["trump"])
        shuffled = movable[:]
        rng.shuffle(shuffled)
        while trump in movable and shuffled[movable.index(trump)] == trump:
            rng.shuffle(shuffled)
        return _recolor(position, {c: c for c in range(4)} | dict(zip(movable, shuffled)))

    _check_transform(name, transform, False)


@pytest.mark.parametrize("name", NAMES)
def test_T8_T14_rotate_seats_by_two_keeps_value(name: str) -> None:
    """Seats s and s + 2 are partners (T-14): giving every hand to the
    partner's seat, leader included, keeps the teams and every value."""
    _check_transform(name, lambda p: _rotate(p, 2), False)


@pytest.mark.parametrize("by", [1, 3])
@pytest.mark.parametrize("name", NAMES)
def test_T8_T14_rotate_seats_by_one_swaps_teams(name: str, by: int) -> None:
    """Moving every hand one seat on (leader included) swaps the teams: team
    0 now takes what team 1 took, value' = total - value (T-14)."""
    _check_transform(name, lambda p: _rotate(p, by), True)


# ----------------------------------------------------- FORMATS.md errors

_GOOD = {"preset": "tournament", "trump": "R", "leader": 0, "trick": ["B5"],
         "hands": [["B6"], ["B7", "Rook"], ["B8", "R5"], ["B9", "G5"]]}

BAD_POSITIONS = {
    "duplicate-in-hands": (dict(_GOOD, hands=[["B6"], ["B7", "R5"], ["B8", "R5"], ["B9", "G5"]]),
                           "appear twice"),
    "duplicate-trick-and-hand": (dict(_GOOD, hands=[["B6"], ["B5", "Rook"], ["B8", "R5"],
                                                    ["B9", "G5"]]), "appear twice"),
    "wrong-size": (dict(_GOOD, hands=[["B6"], ["B7", "Rook"], ["B8", "R5", "R6"], ["B9", "G5"]]),
                   "should hold"),
    "mover-empty": (dict(_GOOD, trick=[], hands=[[], [], [], []]), "holds no card"),
    "too-many-cards": (dict(_GOOD, trick=[], hands=[[f"B{r}" for r in range(5, 15)],
                                                    [f"G{r}" for r in range(5, 15)],
                                                    [f"R{r}" for r in range(5, 15)],
                                                    [f"Y{r}" for r in range(5, 15)]]),
                       "more than the hand size"),
    "bad-trump": (dict(_GOOD, trump="Q"), "trump"),
    "trump-missing": ({k: v for k, v in _GOOD.items() if k != "trump"}, "'trump' is required"),
    "illegal-trick-card": (dict(_GOOD, trick=["B5", "R6"],
                                hands=[["B6"], ["B7"], ["B8", "R5"], ["B9", "G5"]]),
                           "was illegal"),
    "card-not-in-deck": (dict(_GOOD, hands=[["B2"], ["B7", "Rook"], ["B8", "R5"], ["B9", "G5"]]),
                         "B2"),
    "unknown-card": (dict(_GOOD, hands=[["X9"], ["B7", "Rook"], ["B8", "R5"], ["B9", "G5"]]),
                     "X9"),
    "unknown-preset": (dict(_GOOD, preset="whist"), "whist"),
    "long-trick": (dict(_GOOD, trick=["B5", "B7", "B8", "B9"],
                        hands=[["B6"], ["Rook"], ["R5"], ["G5"]]), "0 to 3"),
    "bad-leader": (dict(_GOOD, leader=4), "leader"),
    "not-json": ("{not json", "JSON"),
    "dixie-without-tricks": ({"preset": "dixie", "trump": "R", "leader": 0, "trick": [],
                              "hands": [["B5"], ["B6"], ["B7"], ["B8"]]}, "'tricks'"),
    "tricks-do-not-add-up": (dict(_GOOD, tricks=[3, 3]), "completed tricks"),
    "tricks-not-a-pair": (dict(_GOOD, tricks=[8]), "two integers"),
}


@pytest.mark.parametrize("case", list(BAD_POSITIONS))
def test_FORMATS_bad_positions_raise_position_error(case: str) -> None:
    """FORMATS.md: an inconsistent position is rejected with an error that
    says what is wrong, by every solver entry point and by the reference."""
    position, words = BAD_POSITIONS[case]
    calls = [lambda: SOLVER.value(position), lambda: SOLVER.solve(position),
             lambda: SOLVER.at_least(position, 10), lambda: SOLVER.at_least(position, 10, 1),
             lambda: dd_value(position), lambda: dd_best(position)]
    for call in calls:
        with pytest.raises(PositionError) as info:
            call()
        assert words.lower() in str(info.value).lower(), (
            f"{case}: message {str(info.value)!r} does not mention {words!r}")


def test_FORMATS_good_position_is_accepted() -> None:
    """The base of ``BAD_POSITIONS`` itself is fine (so each bad case breaks
    exactly what its name says)."""
    assert SOLVER.value(_GOOD) == dd_value(_GOOD)


def test_FORMATS_hand_not_in_play_phase_is_refused() -> None:
    hand = HandState.deal("tournament", 1)
    with pytest.raises(PositionError, match="play phase"):
        SOLVER.solve(hand)
    with pytest.raises(PositionError, match="play phase"):
        dd_value(hand)


# ---------------------------------------------------------------- budget

def _nine_tricks(seed: int) -> dict[str, Any]:
    variant = PRESETS["tournament"]
    rng = random.Random(seed)
    deck = sorted(deck_cards(variant))
    rng.shuffle(deck)
    hands = [deck[s * 9:(s + 1) * 9] for s in range(4)]
    return _position("tournament", rng.randrange(4), rng.randrange(4), [], hands,
                     card_points(variant, deck[36:]), [0, 0], [0, 0])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_budget_exceeded_gives_bounds(seed: int) -> None:
    """A node budget of 10 cannot prove a 9-trick value: ``BudgetExceeded``
    with proven bounds lo <= true value <= hi, within 0 .. total."""
    position = _nine_tricks(seed)
    total = dd_total(position)
    value = SOLVER.value(position)
    small = Solver(node_budget=10)
    with pytest.raises(BudgetExceeded) as info:
        small.value(position)
    e = info.value
    assert 0 <= e.lo <= e.hi <= total, (e.lo, e.hi, total)
    assert e.lo <= value <= e.hi, (e.lo, value, e.hi)
    assert e.nodes > 0
    with pytest.raises(BudgetExceeded) as info:
        small.solve(position)
    assert info.value.lo <= info.value.hi
    with pytest.raises(BudgetExceeded) as info:
        small.at_least(position, value)
    assert info.value.lo <= info.value.hi


@pytest.mark.parametrize("seed", [4, 5])
def test_budget_bounds_narrow_and_hold_at_every_budget(seed: int) -> None:
    """Nothing proven is lost: at every node budget the bounds of ``value``
    and ``solve`` hold the true value, the stop says it was the node budget,
    and once ``solve`` has proven the position's value it reports lo == hi."""
    position = _nine_tricks(seed)
    fresh = Solver()
    value = fresh.value(position)
    full = fresh.last_nodes                  # solve() proves the value first, the same way
    fresh = Solver()
    exact = fresh.solve(position).move_values
    every = fresh.last_nodes
    kept = 0
    for budget in (10, 1_000, 30_000, full + 1, (full + every) // 2, every):
        for call in ("value", "solve"):
            solver = Solver(node_budget=budget)
            try:
                got = getattr(solver, call)(position)
            except BudgetExceeded as e:
                assert e.kind == "nodes" and e.nodes == budget + 1
                assert e.lo <= value <= e.hi, (budget, call, e.lo, value, e.hi)
                if call == "solve" and budget > full:
                    assert e.lo == e.hi == value   # the value was proven, a card's was not
                if call == "solve":
                    # the cards' values proven before the stop are kept, and right
                    assert all(exact[c] == v for c, v in e.move_values.items())
                    kept += len(e.move_values)
            else:
                assert (got if call == "value" else got.value) == value
    assert kept > 0   # some budget stopped solve() after some cards were proven


def _cards_in_hands(hand: HandState) -> int:
    return sum(bin(hand.hand_mask(seat)).count("1") for seat in range(4))


def test_budget_stops_the_same_search_with_bounds_that_hold() -> None:
    """A node budget only stops the search: a call that ends within it gives
    the unbudgeted answer with the unbudgeted node count, and one that does
    not keeps bounds holding the value (the best of the root's moves
    searched so far) -- on full deals and on positions of 4 to 6 tricks,
    some in the middle of a trick, at five budgets."""
    for seed in range(40):
        position = _nine_tricks(seed)
        fresh = Solver()
        if seed % 4:
            hand = HandState.deal("tournament", seed=seed)
            rng = random.Random(seed)
            while hand.phase != Phase.PLAY or _cards_in_hands(hand) > 4 * (seed % 4 + 1) + 8 - seed % 3:
                hand.apply(rng.choice(hand.legal_actions()))
            position = hand
        value = fresh.value(position)
        nodes = fresh.last_nodes
        for budget in (1, 50, 300, 2_000, 20_000):
            solver = Solver(node_budget=budget)
            try:
                assert solver.value(position) == value
                assert solver.last_nodes == nodes <= budget
            except BudgetExceeded as e:
                assert nodes > budget
                assert e.lo <= value <= e.hi, (seed, budget, e.lo, value, e.hi)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_time_budget_stops_with_bounds_and_says_so(seed: int) -> None:
    """A time budget stops a search the same way (checked every 1,024
    nodes): a budget of a nanosecond stops any search longer than that."""
    position = _nine_tricks(seed)
    value = SOLVER.value(position)
    assert SOLVER.last_nodes > 2048   # these 9-trick values take far more
    solver = Solver(time_budget=1e-9)
    assert solver.time_budget == 1e-9
    for call in (solver.value, solver.solve, lambda p: solver.at_least(p, value)):
        with pytest.raises(BudgetExceeded, match="time budget") as info:
            call(position)
        e = info.value
        assert e.kind == "time" and e.lo <= value <= e.hi and 1024 <= e.nodes <= 2048
    assert Solver(time_budget=60.0).value(position) == value


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf")])
def test_bad_time_budget_is_refused(bad: float) -> None:
    with pytest.raises(RookError, match="time_budget"):
        Solver(time_budget=bad)


# ------------------------------------------------------- reference vectors

def _load_tool() -> Any:
    return load_tool("gen_solver_vectors")


def _records() -> list[dict[str, Any]]:
    return read_jsonl(DATA)


RECORDS = _records()
_ANSWER = ("value", "move_values", "best")


@pytest.mark.parametrize("record", RECORDS, ids=[r["id"] for r in RECORDS])
def test_T8_T14_solver_reproduces_reference_vectors(record: dict[str, Any]) -> None:
    """FORMATS.md ``rook solve``: the native answer is the file's, which the
    reference minimax wrote."""
    position = {k: v for k, v in record.items() if k not in _ANSWER}
    answer = SOLVER.solve(position).to_json(record["id"])
    got = {k: answer[k] for k in ("id", *_ANSWER)}
    expected = {"id": record["id"], **{k: record[k] for k in _ANSWER}}
    assert got == expected, f"{record['id']}: native {got} != reference {expected}"
    assert answer["to_move"] == (position["leader"] + len(position["trick"])) % 4 and answer["nodes"] >= 0


def test_solve_vectors_cover_every_preset() -> None:
    assert len(RECORDS) >= 250
    assert {r["preset"] for r in RECORDS} == set(NAMES)
    assert any(r["trick"] for r in RECORDS) and any(not r["trick"] for r in RECORDS)


def test_solve_vectors_are_generated_not_hand_edited() -> None:
    """Generated data, never edited by hand: the file is exactly what the tool writes."""
    text = _load_tool().generate_text()
    assert DATA.read_text() == text, (
        "tests/data/solve.jsonl differs from what tools/gen_solver_vectors.py generates; "
        "do not edit it by hand, run: python tools/gen_solver_vectors.py")
