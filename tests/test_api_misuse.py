"""The core API as a demanding caller misuses it: copies of every kind (JSON,
pickle, deepcopy, clone, undo) of hands and games of every preset, and bad
arguments to hands, games, variants, cards and positions.  Each is either
done exactly or refused with a typed error (a RookError) that names what is
wrong, and a refused call changes nothing."""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rook_core import HandState, IllegalActionError, RookError, Variant
from rook_core.actions import Phase
from rook_core.cards import Card, CardSet, card_name, parse_card, parse_cards
from rook_core.errors import NotationError, PositionError, VariantError
from rook_core.game import Game
from rook_core.position import parse_position
from rook_core.variant import PRESETS

POSITION = {"preset": "tournament", "trump": "R", "leader": 0, "trick": ["B5"],
            "hands": [["B6"], ["B7", "Rook"], ["B8", "R5"], ["B9", "G5"]]}
LONG = "x" * 200_000


def view(h: HandState) -> tuple[Any, ...]:
    """Everything a caller can read of a hand."""
    return (h.legal_actions(), [h.observation(s) for s in range(4)], h.points, h.score, h.phase, h.history,
            h.to_move, h.to_json(), repr(h), str(h))


def choose(rng: random.Random, legal: list[int]) -> int:
    """A random legal action that passes in the bidding when it can (so bids stay low
    and games reach their target)."""
    return 64 if 64 in legal and rng.random() < 0.8 else rng.choice(legal)


# ------------------------------------------------------------ copies of a hand

@pytest.mark.parametrize("preset", list(PRESETS))
def test_T14_a_hand_of_every_preset_survives_json_pickle_deepcopy_clone_and_undo(preset: str) -> None:
    """At every step of a random hand: from_json(to_json), pickle and deepcopy
    give an equal hand with the same views; a changed clone or copy leaves the
    original as it was; undo back to the start restores the deal exactly."""
    rng = random.Random(preset)
    h = HandState.deal(preset, seed=rng.randrange(2**64))
    start = h.clone()
    while True:
        seen = view(h)
        for copied in (HandState.from_json(h.to_json()), HandState.from_json(json.dumps(h.to_json())),
                       pickle.loads(pickle.dumps(h)), copy.deepcopy(h), copy.copy(h), h.clone()):
            assert type(copied) is HandState and copied == h and hash(copied) == hash(h)
            assert view(copied) == seen
            if not copied.is_over:
                copied.apply(rng.choice(copied.legal_actions()))
                assert view(h) == seen
        if h.is_over:
            break
        if rng.random() < 0.05:   # T-35: a penalty, at any time, is history too
            h.penalty(rng.randrange(2))
        h.apply(choose(rng, h.legal_actions()))
    while len(h):
        h.undo()
    assert h == start and h.raw_bytes() == start.raw_bytes() and view(h) == view(start)
    with pytest.raises(IllegalActionError):
        h.undo()
    assert h == start


def test_a_hand_from_a_position_pickles_and_copies_to_an_equal_hand() -> None:
    h = HandState.from_position(dict(POSITION, taken=[10, 5], nest_points=20))
    h.play("B7")
    for copied in (pickle.loads(pickle.dumps(h)), copy.deepcopy(h), HandState.from_json(h.to_json())):
        assert copied == h and view(copied) == view(h) and copied.start_info == h.start_info


def test_a_hand_is_never_built_empty() -> None:
    """``HandState()`` made a hand with no rules, which crashed the interpreter
    when read; it is refused, and the ways to make a hand still work."""
    for args in ((), ("tournament",), ("tournament", 1)):
        with pytest.raises(RookError, match="HandState.deal"):
            HandState(*args)
    assert HandState.deal("tournament", seed=1).phase == "bid"


# Calls every method and property of a never-dealt HandCore and HandState, each
# on a fresh object, and reports on stdout the name before each call and what
# happened after it: a crash shows as the child's exit with the name last called.
_UNDEALT = """
import inspect, json, sys
import numpy as np
from rook_core import HandState
from rook_core._native import HandCore
from rook_core.errors import IllegalActionError, RookError
ARGS = {"mask_into": (0, np.zeros(1200, np.int8)), "encode_into": (0, np.zeros(1056, np.float32), 120, 300),
        "heuristic_playout": (120, 10, 0, 0), "perft": (2,), "apply": (64,), "apply_text": ("pass",),
        "bid": (70,), "penalty": (0,), "name_trump": ("R",), "play": ("R5",), "discard": (["R5"],),
        "pass_cards": (["R5"],), "hand": (0,), "hand_mask": (0,), "won": (0,), "won_mask": (0,),
        "passing": (0,), "passing_mask": (0,), "observe": (0,), "observation": (0,), "observe_raw": (0,),
        "is_legal": (64,), "__deepcopy__": ({},)}
SPECIAL = {"__repr__", "__str__", "__eq__", "__hash__", "__len__", "__copy__", "__deepcopy__", "__reduce__",
           "_repr_html_"}
for cls in (HandCore, HandState):
    for name in sorted(n for n in dir(cls) if not n.startswith("_") or n in SPECIAL):
        attr = inspect.getattr_static(cls, name)
        if isinstance(attr, classmethod):          # the constructors
            continue
        where = cls.__name__ + "." + name
        print(json.dumps({"calling": where}), flush=True)
        obj = cls.__new__(cls)
        try:
            value = getattr(obj, name)
            if not (isinstance(attr, property) or inspect.isgetsetdescriptor(attr)
                    or inspect.ismemberdescriptor(attr)):
                value(*ARGS.get(name, (obj,) if name == "__eq__" else ()))
            outcome = "returned"
        except IllegalActionError as e:
            outcome = "refused" if "HandState.deal" in str(e) else "illegal: " + str(e)
        except RookError as e:
            outcome = "refused" if "HandState.deal" in str(e) else "RookError: " + str(e)
        except Exception as e:
            outcome = type(e).__name__ + ": " + str(e)
        print(json.dumps({"name": where, "outcome": outcome}), flush=True)
"""

# what reads the rules (or, for the HandState views, the variant) of a hand
_NEEDS_RULES = {"legal_actions", "legal_mask", "mask_into", "is_legal", "apply", "bid", "pass_bid", "penalty",
                "clone", "__copy__", "__deepcopy__", "__eq__", "__hash__", "variant", "nest_taken",
                "trick_records", "observe_raw", "encode_into", "heuristic_playout", "perft"}
_NEEDS_VARIANT = {"__repr__", "__str__", "_repr_html_", "__reduce__", "to_json", "observe", "observation", "apply_text",
                  "name_trump", "play", "legal_cards", "at_start", "tricks"}


def test_a_hand_never_dealt_refuses_every_call_that_needs_its_rules_and_none_crashes() -> None:
    """``HandCore()`` and ``HandState.__new__(HandState)`` have no rules: every
    method and property that reads them (legal actions, apply, clone, repr,
    to_json, ...) crashed the interpreter.  Each now refuses with a RookError
    naming the constructors; the rest read the empty state.  Run in a child,
    so that a crash fails this test instead of ending pytest."""
    import subprocess
    import sys
    res = subprocess.run([sys.executable, "-c", _UNDEALT], capture_output=True, text=True, timeout=120)
    lines = [json.loads(line) for line in res.stdout.splitlines()]
    last = lines[-1] if lines else "?"
    assert res.returncode == 0, f"the child died ({res.returncode}) in {last}: {res.stderr[-800:]}"
    got = {x["name"]: x["outcome"] for x in lines if "name" in x}
    assert len(got) > 100
    for where, outcome in got.items():
        cls, name = where.split(".")
        if name in _NEEDS_RULES or (cls == "HandState" and name in _NEEDS_VARIANT):
            assert outcome == "refused", (where, outcome)
        elif where == "HandCore.__reduce__":     # the core alone never pickles (its C state has pointers)
            assert outcome.startswith("TypeError: "), outcome
        else:       # an empty state read, or the rules' own refusal of it (no action to undo)
            assert outcome == "returned" or outcome.startswith("illegal: "), (where, outcome)


def test_apply_text_of_a_huge_text_is_refused_quoting_it_short() -> None:
    h = HandState.deal("tournament", seed=1)
    before = h.to_json()
    for text in (LONG, "bid " + "9" * 100_000, " " * 100 + "pass"):
        with pytest.raises(NotationError) as e:
            h.apply_text(text)
        assert len(str(e.value)) < 300
    assert h.to_json() == before
    h.apply_text("  PASS  ")
    assert h.history == [64]


# ------------------------------------------------------------ copies of a game

def _played_game(preset: str, seed: int, hands: int) -> tuple[Game, list[Game]]:
    """A game of ``preset`` (target 100, so that it ends) played at random for up to
    ``hands`` hands, and copies of it at every hand's end."""
    v = Variant.from_preset(preset, target=100)
    g = Game(v, seed=seed)
    rng = random.Random(seed)
    marks = []
    while not g.is_over and g.hand_number <= hands:
        n = g.hand_number
        g.apply(choose(rng, g.legal_actions()))
        if g.hand_number != n or g.is_over:
            marks.append(g.clone())
    return g, marks


@pytest.mark.parametrize("preset", ["tournament", "partnership-57", "kentucky-rook", "house-180", "dixie"])
def test_T34_a_game_survives_json_pickle_deepcopy_clone_and_undo_to_its_end(preset: str) -> None:
    g, marks = _played_game(preset, seed=len(preset), hands=12)
    assert marks
    for m in marks + [g]:
        doc = m.to_json()
        for copied in (Game.from_json(doc), Game.from_json(json.dumps(doc)), pickle.loads(pickle.dumps(m)),
                       copy.deepcopy(m), m.clone()):
            assert copied == m and copied.to_json() == doc
            assert (copied.winner, copied.totals, copied.hand_number) == (m.winner, m.totals, m.hand_number)
            if not copied.is_over:
                copied.apply(copied.legal_actions()[0])
                assert m.to_json() == doc
    with pytest.raises(TypeError):   # a game changes as it is played: unhashable, as a list
        hash(g)
    u = g.clone()
    while u.history():
        u.undo()
    assert u == Game(g.variant, seed=g.seed)
    with pytest.raises(IllegalActionError):
        u.undo()


def test_T34_a_game_over_refuses_every_action_citing_the_rule_and_changes_nothing() -> None:
    g, _ = _played_game("tournament", seed=3, hands=40)
    assert g.is_over
    doc = g.to_json()
    for action in (64, 69, None, "x", 1.5, -5, 10**9, [64]):
        with pytest.raises(IllegalActionError) as e:
            g.apply(action)   # type: ignore[arg-type]
        assert e.value.rule == "T-34"
    with pytest.raises(IllegalActionError, match="T-34"):
        g.apply_text("pass")
    assert g.to_json() == doc
    g.undo()   # undo after the end reopens the last hand
    assert not g.is_over and g.to_move is not None


def test_T34_the_last_hand_of_a_game_over_refuses_actions_of_its_own_and_the_result_stands() -> None:
    """``g.current`` (and ``g.hands[-1]``) is the game's own hand: after the
    end a penalty (T-35, allowed in any phase of a hand) or an undo through it
    changed the finished game's totals and winner behind its back.  It is
    refused as Game.apply refuses (T-34) and changes nothing; a clone of the
    hand is free, and Game.undo reopens the hand."""
    from rook_core.actions import PENALTY
    g, _ = _played_game("tournament", seed=3, hands=40)
    assert g.is_over
    doc, result = g.to_json(), (g.winner, g.totals)
    last = g.history()[-1]
    copies = [g, g.clone(), pickle.loads(pickle.dumps(g)), copy.deepcopy(g), Game.from_json(doc)]
    for m in copies:
        h = m.current
        assert h is m.hands[-1] and not h.is_legal(PENALTY)
        for name, args in (("penalty", (0,)), ("penalty", (1,)), ("apply", (PENALTY + 1,)), ("apply", (last,)),
                           ("apply_text", ("pass",)), ("undo", ()), ("pop", ())):
            with pytest.raises(IllegalActionError) as e:
                getattr(h, name)(*args)
            assert e.value.rule == "T-34" and "game is over" in str(e.value)
        assert m.to_json() == doc and (m.winner, m.totals) == result
    free = g.current.clone()
    free.penalty(0)
    free.undo()
    free.undo()
    assert g.to_json() == doc
    g.undo()                                   # the game reopens its last hand
    assert not g.is_over and g.current.is_legal(last)
    g.current.penalty(1)
    g.current.undo()
    g.apply(last)
    assert g.to_json() == doc
    with pytest.raises(IllegalActionError, match="T-34"):
        g.current.penalty(0)


@pytest.mark.parametrize("agent", ["random", "heuristic"])
@pytest.mark.parametrize("preset", ["tournament", "partnership-57", "kentucky-rook", "house-180", "crowsnest"])
def test_T1_T6_T34_a_game_played_straight_on_its_current_hand_deals_and_ends_as_one_played_through_it(
        preset: str, agent: str) -> None:
    """Every action applied to ``g.current`` itself, never through ``Game.apply``:
    the hand's end used to leave the game stalled (``to_move`` None, no next
    deal).  The game catches up when next asked, dealing the next hand (T-1;
    a thrown-in hand is dealt again, T-6) or ending (T-34), so both games
    stay equal action by action."""
    from rook_core.bots.agents import act_for, make_agent
    through, straight = Game(preset, seed=11), Game(preset, seed=11)
    agents = [make_agent(agent, preset, seed) for seed in range(4)]
    for _ in range(3_000):      # random bidders' games can run for hundreds of hands
        if through.is_over:
            break
        seat = through.to_move
        assert seat is not None and straight.to_move == seat
        action = act_for(agents[seat], through.current, seat)
        through.apply(action)
        straight.current.apply(action)
        assert straight.hand_number == through.hand_number
    assert through.hand_number > 2 and straight == through and straight.to_json() == through.to_json()
    assert (straight.is_over, straight.winner) == (through.is_over, through.winner)
    if agent == "heuristic":
        assert straight.is_over
        with pytest.raises(IllegalActionError, match="T-34"):
            straight.current.penalty(0)


def test_T6_a_hand_thrown_in_straight_on_the_current_hand_is_dealt_again_by_the_same_dealer() -> None:
    from rook_core.actions import PASS
    through, straight = Game("tournament", seed=5), Game("tournament", seed=5)
    for _ in range(4):
        through.apply(PASS)
        straight.current.apply(PASS)
    assert straight.hand_number == through.hand_number == 2 and straight == through
    assert straight.hands[0].phase == Phase.THROWN_IN and straight.current.dealer == straight.hands[0].dealer


@pytest.mark.parametrize(("change", "words"), [
    ({"format": "rook-game/9"}, ["'format'", "rook-game/9"]),
    ({"summary": 5}, ["'summary'"]),
    ({"variant": {}}, ["'variant'", "missing"]),
    ({"variant": {"target": 5}}, ["'variant'", "missing"]),
    ({"variant": {"preset": "tournament", "ranks": [5]}}, ["'variant'", "T-2"]),
    ({"first_dealer": True}, ["first_dealer", "0..3"]),
    ({"first_dealer": 1.0}, ["first_dealer", "0..3"]),
    ({"seed": "1"}, ["seed"]),
    ({"actions": [LONG]}, ["action 0"]),
    ({"actions": ["pass", 7.5]}, ["action 1"]),
])
def test_game_json_that_is_malformed_is_refused_naming_the_field(change: dict[str, Any], words: list[str]) -> None:
    """Game.from_json reads as HandState.from_json does: an unknown format, a
    summary that is no object, a variant object that is not whole, an action
    that is no action's text (quoted short) are refused by name."""
    doc = dict(Game("tournament", seed=1).to_json(), **change)
    with pytest.raises(RookError) as e:
        Game.from_json(doc)
    for w in words:
        assert w in str(e.value), str(e.value)
    assert len(str(e.value)) < 400


def test_T1_a_game_takes_a_numpy_seat_as_first_dealer_and_refuses_a_bool() -> None:
    np = pytest.importorskip("numpy")
    assert Game("tournament", 1, np.int64(2)).current.dealer == 2
    assert Game("tournament", 1, np.int64(2)).to_json() == Game("tournament", 1, 2).to_json()
    for bad in (True, 2.0, "2", 4):
        with pytest.raises(RookError, match="first_dealer must be a seat 0..3"):
            Game("tournament", 1, bad)


# ------------------------------------------------------------ variants

@pytest.mark.parametrize(("changes", "words"), [
    ({"bird_rank": 10**400}, ["bird_rank", "C-4"]),
    ({"bird_rank": -(10**400)}, ["bird_rank", "C-4"]),
    ({"counters": ((5, 5), (5, 10), (10, 10), (14, 10), ("Rook", 20))}, ["counters", "5 twice", "T-12"]),
    ({"counters": ((5, 5), (10, 10), (14, 10), ("Rook", 20), ("Crow", 5))}, ["counters", "'Rook' twice", "T-12"]),
    ({"counters": ((5, 5), (10, 10), (14, 10), ("Rook", 20), ("R1", 30))}, ["counter card R1", "deck", "T-12"]),
    ({"counters": ((5, 5), (10, 10), (14, 10), ("Rook", 20), ("G2", 0))}, ["counter card G2", "deck", "T-12"]),
    ({"permanent_trumps": ("R1", "r1"), "nest_size": 6}, ["permanent_trumps", "twice"]),
    ({"permanent_trumps": ("R1", " R1 "), "nest_size": 6}, ["permanent_trumps", "twice"]),
    ({"colour": "red"}, ["unknown variant field", "colour"]),
])
def test_variant_contradictions_are_refused_naming_the_field(changes: dict[str, Any], words: list[str]) -> None:
    for make in (lambda: PRESETS["tournament"].replace(**changes),
                 lambda: Variant.from_dict({"preset": "tournament", **changes}),
                 lambda: Variant(**{**PRESETS["tournament"].to_dict(), **changes})):
        with pytest.raises(VariantError) as e:
            make()
        for w in words:
            assert w in str(e.value), str(e.value)


@pytest.mark.parametrize("preset", [n for n, v in PRESETS.items() if v.hand_size % 2 == 0])
def test_T14_a_most_tricks_bonus_needs_an_odd_number_of_tricks(preset: str) -> None:
    """With an even number of tricks both teams can take as many, the bonus
    (section 4) goes to no one and the hand's points fall short of the
    variant's total (T-14): such a variant is refused."""
    with pytest.raises(VariantError, match="most_tricks_bonus needs an odd hand_size.*T-14"):
        Variant.from_preset(preset, most_tricks_bonus=20)
    assert Variant.from_preset("dixie", most_tricks_bonus=30).total_points == 130


def test_variant_constructor_refuses_unknown_and_repeated_fields_as_a_variant_error() -> None:
    with pytest.raises(VariantError, match="unknown variant field.*colour"):
        Variant(colour="red")   # type: ignore[call-arg]
    with pytest.raises(VariantError, match="given twice: name"):
        Variant("a", name="b")   # type: ignore[misc]
    with pytest.raises(VariantError, match="fields"):
        Variant(*range(100))   # type: ignore[arg-type]


def test_C2_T12_a_variant_names_cards_in_their_one_spelling() -> None:
    """``r1``, `` R1`` and ``R1`` are one card, ``Crow`` is the bird (C-2): a variant
    that spells them otherwise is the same variant, and compares and hashes so."""
    red = PRESETS["red-one"]
    other = Variant(**{**red.to_dict(), "permanent_trumps": ["r1 "],
                       "counters": [[5, 5], [10, 10], [14, 10], ["crow", 20], ["r1", 30]]})
    assert other == red and hash(other) == hash(red)
    assert other.permanent_trumps == ("R1",) and ("Rook", 20) in other.counters


def test_a_changed_preset_read_from_a_dict_is_not_named_as_that_preset() -> None:
    """FORMATS.md: an observation's ``variant`` is the preset's name, or another
    name for a changed one.  A variant object with a preset and changes was
    named as the preset, so readers took it for the preset."""
    low = Variant.from_dict({"preset": "tournament", "bird_rank": "low"})
    assert low.name == "tournament*" and low != PRESETS["tournament"]
    h = HandState.deal(low, seed=1)
    assert h.observation(0)["variant"] not in PRESETS
    assert HandState.from_json(h.to_json()) == h
    assert Variant.from_dict({"preset": "tournament", "target": 300}) == PRESETS["tournament"]
    assert Variant.from_dict({"preset": "tournament", "bird_rank": "low", "name": "mine"}).name == "mine"


_JUNK: list[Any] = [None, True, False, 0, 1, -1, 3, 9, 10**400, 0.5, 10.5, float("nan"), "", "x", "high", "R1",
                    "Rook", [], [5], (), ("nest",), {}, [[5, 5]], (("R5", 5),), ("R1",), 2**31, 10**6]


_FIELDS = sorted(f for f in PRESETS["tournament"].to_dict() if f != "name")


@st.composite
def _changes(draw: st.DrawFn) -> dict[str, Any]:
    """One to three fields, each set to junk or to another preset's value."""
    out = {}
    for f in draw(st.lists(st.sampled_from(_FIELDS), min_size=1, max_size=3, unique=True)):
        other = draw(st.sampled_from(sorted(PRESETS)))
        out[f] = draw(st.sampled_from(_JUNK) | st.just(getattr(PRESETS[other], f)))
    return out


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), _changes(), st.integers(0, 2**32))
def test_T2_T14_a_variant_with_junk_fields_is_refused_or_deals_and_scores(preset: str, changes: dict[str, Any],
                                                                        seed: int) -> None:
    """Any fields replaced by junk or by another preset's values: a
    VariantError, or a variant that deals a whole deck (T-2), plays a hand
    whose points add up to its total (T-14) and reads back from its JSON."""
    try:
        v = PRESETS[preset].replace(**changes)
    except VariantError as e:
        assert str(e)
        return
    h = HandState.deal(v, seed=seed)
    dealt = sum(h.hand(s).mask for s in range(4)) | h.nest.mask
    assert dealt == v.deck_mask and sum(len(h.hand(s)) for s in range(4)) + len(h.nest) == v.deck_size
    rng = random.Random(seed)
    while not h.is_over:
        h.apply(choose(rng, h.legal_actions()))
    assert h.phase == "thrown_in" or sum(h.points) == v.total_points
    assert HandState.from_json(json.loads(json.dumps(h.to_json()))) == h
    assert Variant.from_dict(json.loads(json.dumps(v.to_dict()))) == v


# ------------------------------------------------------------ cards

@pytest.mark.parametrize("bad", [True, False, 46.0, 1.5, "R14", None, -1, 64, 31, [46]])
def test_C1_C2_a_card_id_is_an_integer_naming_a_card(bad: Any) -> None:
    """``Card(True)`` was the card B1 and ``Card(46.0)`` R14; no bool, float or
    text is a card id."""
    with pytest.raises(NotationError):
        Card(bad)
    with pytest.raises(NotationError):
        card_name(bad)


def test_C1_card_ids_of_numpy_are_read() -> None:
    np = pytest.importorskip("numpy")
    assert Card(np.int64(46)) == Card(46) and card_name(np.uint8(15)) == "Rook"
    assert CardSet([np.int16(46), 15]) == CardSet.parse("R14 Rook")
    assert CardSet(np.uint64(1 << 46)) == CardSet.parse("R14")


@pytest.mark.parametrize("bad", [1, 1 << 16, 1 << 31, 1 << 63, (1 << 46) | 1, -1, 1 << 64, True, None, 1.5, "R14",
                                 b"R14"])
def test_C1_a_card_set_holds_only_cards(bad: Any) -> None:
    """A mask with bits that are no card was taken, and then failed with a
    KeyError when printed or iterated."""
    with pytest.raises(NotationError):
        CardSet(bad)
    with pytest.raises(NotationError):
        CardSet.parse("R14") | bad


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**64 - 1))
def test_C1_a_card_set_of_any_mask_is_refused_or_whole(mask: int) -> None:
    try:
        cs = CardSet(mask)
    except NotationError:
        return
    assert len(list(cs)) == len(cs) == len(cs.names()) and CardSet.parse(str(cs)) == cs
    assert cs == frozenset(cs) and hash(cs) == hash(frozenset(cs)) and cs == set(cs)


def test_a_card_set_equals_a_set_only_of_its_cards_and_never_raises() -> None:
    a = CardSet.parse("R14 G5")
    assert a == {Card(46), Card(21)} and {Card(46), Card(21)} == a
    assert hash(a) == hash(frozenset({46, 21}))
    assert len({a, frozenset(a)}) == 1
    for other in ({"R14", "G5"}, {"x"}, {None}, {1.5}, set(), frozenset({46})):
        assert a != other and other != a


@pytest.mark.parametrize("text", [LONG, "R" + "1" * 100_000, " " * 100_000, "R14" * 50_000])
def test_C2_a_very_long_card_text_is_refused_quoting_it_short(text: str) -> None:
    for read in (parse_card, parse_cards, lambda t: parse_cards([t]), lambda t: CardSet.parse(t)):
        try:
            read(text)
        except NotationError as e:
            assert len(str(e)) < 300 and e.text == text or len(str(e)) < 300
        else:
            assert not text.strip()


def test_C2_card_text_in_any_case_and_spacing_names_one_card() -> None:
    assert {parse_card(t) for t in ("r14", " R14 ", "R14\n", "\tr14")} == {Card(46)}
    assert {parse_card(t) for t in ("Rook", "ROOK", "rook", "Crow", "crow ")} == {Card(15)}
    with pytest.raises(NotationError, match="twice"):
        parse_cards(["Rook", "Crow"])
    with pytest.raises(NotationError, match="twice"):
        parse_cards("r14, R14")
    with pytest.raises(NotationError, match="list of cards"):
        parse_cards(b"R14")
    for bad in ("R 14", "R014", "R15", "R0", "bird", "B-5", "Y10.0"):
        with pytest.raises(NotationError):
            parse_card(bad)
    assert parse_cards("") == 0 and parse_cards([]) == 0


# ------------------------------------------------------------ positions

@pytest.mark.parametrize(("change", "words"), [
    ({"trick": ["Zz"]}, ["trick", "'Zz'"]),
    ({"trick": [True]}, ["trick"]),
    ({"trick": ["B5", LONG]}, ["trick"]),
    ({"hands": [["B6"], ["B7", "Bird"], ["B8", "R5"], ["B9", "G5"]]}, ["hands[1]", "'Bird'"]),
    ({"hands": [["B6"], ["B7", LONG], ["B8", "R5"], ["B9", "G5"]]}, ["hands[1]"]),
    ({"hands": [[None], ["B7", "Rook"], ["B8", "R5"], ["B9", "G5"]]}, ["hands[0]"]),
    ({"hands": [[1.5], ["B7", "Rook"], ["B8", "R5"], ["B9", "G5"]]}, ["hands[0]"]),
])
def test_a_position_card_that_cannot_be_read_names_its_field(change: dict[str, Any], words: list[str]) -> None:
    """FORMATS.md: a position that does not add up is refused with a
    PositionError saying what is wrong; a card that cannot be read is named
    with the field it is in, and quoted short."""
    with pytest.raises(PositionError) as e:
        HandState.from_position(dict(POSITION, **change))
    for w in words:
        assert w in str(e.value), str(e.value)
    assert len(str(e.value)) < 300


def test_a_position_reads_card_ids_in_the_trick_as_in_the_hands() -> None:
    """The hands took card ids and the trick refused them; both take them now."""
    by_id = dict(POSITION, trick=[5], hands=[[6], ["B7", "Rook"], ["B8", "R5"], ["B9", "G5"]])
    assert parse_position(by_id) == parse_position(POSITION)
