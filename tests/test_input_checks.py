"""Bad input is refused with a typed error (a subclass of RookError) that
names what is wrong, and a refused call changes nothing: hand JSON
documents (FORMATS.md), the seats and teams the hand's methods take, the
convenience methods out of their phase (T-7), the bounds of a variant's
numbers (what the native layer holds) and trick-play positions."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from _support import nest_phase, pass_phase, trump_phase, widow_phase

from rook_core import HandState, IllegalActionError, Phase, RookError, Variant
from rook_core.errors import NotationError, PositionError, VariantError
from rook_core.position import parse_position
from rook_core.variant import POINTS_LIMIT, PRESETS, SOLVER_END_LIMIT, TARGET_LIMIT

# ------------------------------------------------------------------ helpers

POSITION = {"preset": "tournament", "trump": "R", "leader": 0, "trick": ["B5"],
            "hands": [["B6"], ["B7", "Rook"], ["B8", "R5"], ["B9", "G5"]]}






def play_phase() -> HandState:
    h = trump_phase()
    h.name_trump("R")
    assert h.phase == Phase.PLAY
    return h


def refused(h: HandState, act: Callable[[HandState], object], error: type[RookError] = RookError) -> str:
    """Run ``act`` on ``h``; it must raise ``error`` and leave ``h`` as it was."""
    raw, history, js = h.raw_bytes(), list(h.history), h.to_json()
    with pytest.raises(error) as e:
        act(h)
    assert (h.raw_bytes(), list(h.history), h.to_json()) == (raw, history, js)
    return str(e.value)


def documents() -> dict[str, dict[str, Any]]:
    """Valid hand documents: dealt and mid-play, a widow and passing, a custom
    variant, and one built from a position."""
    mid = play_phase()
    for _ in range(5):
        mid.apply(mid.legal_actions()[0])
    passing = pass_phase()
    custom = HandState.deal(Variant.from_preset("tournament", target=500, last_trick_bonus=10), seed=4)
    custom.bid(80)
    from_pos = HandState.from_position(POSITION)
    from_pos.play("B7")
    return {"dealt": HandState.deal("tournament", seed=2).to_json(), "mid-play": mid.to_json(),
            "pass phase": passing.to_json(), "custom variant": custom.to_json(), "position": from_pos.to_json()}


# ------------------------------------------- 1. hand JSON documents (FORMATS.md)

BASE_DOC: dict[str, Any] = {"format": "rook-hand/1", "variant": "tournament",
                            "start": {"deal": {"dealer": 0, "hands": [], "nest": []}}, "actions": []}


@pytest.mark.parametrize(("start", "words"), [
    ({"deal": {"dealer": 0, "hands": {"a": 1, "b": 2, "c": 3, "d": 4}, "nest": []}}, ["start.deal", "hands"]),
    ({"deal": {"dealer": 0, "hands": [[], [], []], "nest": []}}, ["start.deal", "hands"]),
    ({"deal": {"dealer": 0, "hands": [1, 2, 3, 4], "nest": []}}, ["start.deal", "hands"]),
    ({"deal": {"dealer": 0, "hands": [[], [], [], []], "nest": 5}}, ["start.deal", "nest"]),
    ({"deal": {"dealer": 0, "hands": [[[1]], [], [], []], "nest": []}}, ["hands[0]", "not a card"]),
    ({"deal": {"dealer": "0", "hands": [[], [], [], []], "nest": []}}, ["dealer", "0..3"]),
    ({"deal": {"dealer": 7, "hands": [[], [], [], []], "nest": []}}, ["dealer", "0..3"]),
    ({"deal": [0, [], []]}, ["start.deal", "dealer, hands, nest"]),
    ({"position": 5}, ["start.position", "position object"]),
    ({"position": [1, 2]}, ["start.position", "position object"]),
    ({"position": {"preset": "tournament"}}, ["start.position", "trump"]),
    ({}, ["start"]),
    ({"deal": {}, "position": {}}, ["start"]),
    ({"nest": {}}, ["start"]),
    ([], ["start"]),
])
def test_T2_hand_json_with_a_malformed_start_is_refused_naming_the_field(start: Any, words: list[str]) -> None:
    with pytest.raises(RookError) as e:
        HandState.from_json(dict(BASE_DOC, start=start))
    for w in words:
        assert w in str(e.value), str(e.value)


def test_hand_json_nested_too_deeply_is_not_valid_json() -> None:
    with pytest.raises(RookError, match="not valid JSON"):
        HandState.from_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(RookError, match="not valid JSON"):
        HandState.from_json(b'{"actions": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")


def test_hand_json_of_an_unknown_format_is_refused_by_name() -> None:
    doc = HandState.deal("tournament", seed=1).to_json()
    with pytest.raises(RookError, match="rook-hand/99"):
        HandState.from_json(dict(doc, format="rook-hand/99"))
    with pytest.raises(RookError, match="'format'"):
        HandState.from_json(dict(doc, format=1))
    del doc["format"]   # the tag may be left out, as it always could
    assert HandState.from_json(doc) == HandState.deal("tournament", seed=1)


def test_hand_json_variant_and_summary_of_the_wrong_kind_are_refused() -> None:
    doc = HandState.deal("tournament", seed=1).to_json()
    for bad in (5, None, ["tournament"], {}, {"target": 500}):
        with pytest.raises(VariantError, match="'variant'"):
            HandState.from_json(dict(doc, variant=bad))
    with pytest.raises(RookError, match="'summary'"):
        HandState.from_json(dict(doc, summary=[]))
    # a variant object with a preset to start from, and a whole one, are read
    assert HandState.from_json(dict(doc, variant={"preset": "tournament"})).variant == PRESETS["tournament"]
    assert HandState.from_json(dict(doc, variant=PRESETS["tournament"].to_dict())) == HandState.deal("tournament", 1)


def test_hand_json_position_of_another_variant_than_the_hand_says_is_refused() -> None:
    doc = HandState.from_position(POSITION).to_json()
    with pytest.raises(RookError, match="'crowsnest'"):
        HandState.from_json(dict(doc, variant="crowsnest"))


def test_hand_json_action_that_is_not_text_or_a_number_is_refused_naming_it() -> None:
    doc = HandState.deal("tournament", seed=1).to_json()
    for bad in ([70], {"bid": 70}, 7.5, True, None, "bid " + "9" * 5000):
        with pytest.raises(NotationError, match="action 0"):
            HandState.from_json(dict(doc, actions=[bad]))


# The mutations: every place of a valid document, dropped, or replaced with
# JSON of another kind, size or depth.
JUNK: list[Any] = [None, True, False, 0, -1, 1, 3, 4, 2**31, 2**64, -(2**63), 10**30, 0.5, 1e308, "", "x",
                   "tournament", "R", "Rook", "B5", "bid 70", "rook-hand/1", "9" * 5000, [], [[]], [None],
                   [1, 2], ["B5"] * 60, [[]] * 4, [["B5"]] * 4, [0, 0, 0], [-5, 5], {}, {"": None}, {"deal": {}},
                   {"position": {}}, {"preset": "tournament"}, {"ranks": [5]}, [[[[[[[[[[]]]]]]]]]],
                   {"a": {"b": {"c": [1, {"d": []}]}}}]


def _paths(x: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, path + (i,))


def _set(doc: Any, path: tuple[Any, ...], value: Any, drop: bool = False) -> Any:
    if not path:
        return value
    out = copy.deepcopy(doc)
    parent = out
    for k in path[:-1]:
        parent = parent[k]
    if drop:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return out


def _resize(x: Any, rng: random.Random) -> Any:
    """A list of another length: shorter, longer, or with an element repeated."""
    if not x:
        return [None]
    return rng.choice([x[:-1], x + x[:1], x[1:] + x[:1] * 2, x * 3])


def _try(doc: Any) -> None:
    """``from_json`` answers ``doc`` with a hand or a RookError, nothing else;
    as a dict and as JSON text alike."""
    for form in (doc, json.dumps(doc)):
        try:
            HandState.from_json(form)
        except RookError as e:
            assert str(e)
        except Exception as e:   # noqa: BLE001 - what is checked is that nothing else comes
            raise AssertionError(f"{type(e).__name__}: {e} from {json.dumps(doc)[:400]}") from e


@pytest.mark.parametrize("name", list(documents()))
def test_mutated_hand_documents_raise_only_rook_errors(name: str) -> None:
    """Every field of a valid hand JSON document dropped, replaced with each
    kind of junk (wrong types, sizes, depths), and lists resized: from_json
    answers a hand or a RookError (rook analyse and rook nest then answer the
    line and go on, the service a 4xx), never KeyError, TypeError, ..."""
    doc = documents()[name]
    rng = random.Random(f"mutate/{name}")
    paths = list(_paths(doc))
    assert len(paths) > 20
    for path in paths:
        if path:
            _try(_set(doc, path, None, drop=True))
        for junk in JUNK:
            _try(_set(doc, path, junk))
        here: Any = doc
        for k in path:
            here = here[k]
        if isinstance(here, list):
            for _ in range(3):
                _try(_set(doc, path, _resize(here, rng)))
    for _ in range(300):   # two places at once
        a, b = rng.sample(paths[1:], 2)
        mutated = _set(doc, a, rng.choice(JUNK))
        try:
            mutated = _set(mutated, b, rng.choice(JUNK))
        except (KeyError, IndexError, TypeError):
            pass   # b was inside what a replaced
        _try(mutated)


def test_cli_analyse_answers_a_malformed_hand_line_and_goes_on() -> None:
    """``rook analyse`` (FORMATS.md): a malformed hand document is one error
    answer, not a traceback that drops the rest of the input."""
    good = dict(HandState.deal("tournament", seed=1).to_json(), id="good")
    bad = [dict(BASE_DOC, id="deal-hands", start={"deal": {"dealer": 0, "hands": {"a": 1, "b": 2, "c": 3, "d": 4},
                                                              "nest": []}}),
           dict(BASE_DOC, id="position-int", start={"position": 5}),
           dict(BASE_DOC, id="position-list", start={"position": [1, 2]}),
           dict(good, id="format", format="rook-hand/99")]
    lines = [json.dumps(d) for d in bad + [good]]
    res = subprocess.run([sys.executable, "-m", "rook_core.cli", "analyse"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, timeout=300)
    assert "Traceback" not in res.stderr, res.stderr
    out = [json.loads(x) for x in res.stdout.splitlines()]
    assert [o["id"] for o in out] == ["deal-hands", "position-int", "position-list", "format", "good"]
    for o in out[:4]:
        assert "error" in o and "internal error" not in o["error"], o
    assert out[4]["hands"] == [] and res.returncode == 1


# -------------------------------------------- 2. play() only in the play phase (T-7)

def test_T7_play_in_the_nest_phase_is_refused_not_a_discard() -> None:
    h = nest_phase()
    card = list(h.hand(1))[0]
    msg = refused(h, lambda h: h.play(card), IllegalActionError)
    assert "nest phase" in msg and "discard" in msg and "T-7" in msg


def test_T7_T21_play_in_the_widow_exchange_is_refused() -> None:
    h = widow_phase()
    msg = refused(h, lambda h: h.play(list(h.hand(1))[0]), IllegalActionError)
    assert "nest phase" in msg and "T-7" in msg


def test_T7_T22_play_in_the_pass_phase_is_refused_not_a_pass() -> None:
    h = pass_phase()
    with pytest.raises(IllegalActionError) as e:
        h.play(list(h.hand(1))[0])
    assert e.value.rule == "T-7" and "pass phase" in str(e.value) and "pass_cards" in str(e.value)
    refused(h, lambda h: h.play(list(h.hand(1))[0], seat=1), IllegalActionError)
    assert h.phase == Phase.PASS and not h.passing(1)


@pytest.mark.parametrize(("make", "act"), [
    (nest_phase, lambda h: h.bid(75)), (nest_phase, lambda h: h.pass_bid()),
    (nest_phase, lambda h: h.name_trump("R")), (nest_phase, lambda h: h.pass_cards(h.hand(1).names()[:3])),
    (pass_phase, lambda h: h.discard(h.hand(1).names()[:1])), (pass_phase, lambda h: h.bid(75)),
    (pass_phase, lambda h: h.name_trump("G")), (play_phase, lambda h: h.discard(h.hand(1).names()[:5])),
    (play_phase, lambda h: h.pass_bid()),
], ids=["bid-in-nest", "pass-in-nest", "trump-in-nest", "pass-cards-in-nest", "discard-in-pass", "bid-in-pass",
        "trump-in-pass", "discard-in-play", "pass-bid-in-play"])
def test_T7_every_convenience_method_out_of_its_phase_is_refused(make: Callable[[], HandState],
                                                                  act: Callable[[HandState], None]) -> None:
    assert "phase" in refused(make(), act, IllegalActionError)


def test_T8_play_in_the_play_phase_still_plays() -> None:
    h = play_phase()
    seat = h.to_move
    card = h.legal_cards().names()[0]
    h.play(card, seat=seat)
    assert h.trick_seats[-1][0] == seat and str(h.trick_seats[-1][1]) == card


# ------------------------------------------------------------ 3. seats and teams

ACTIONS: dict[str, tuple[Callable[[], HandState], Callable[[HandState, Any], None]]] = {
    "bid": (lambda: HandState.deal("tournament", seed=1), lambda h, s: h.bid(70, seat=s)),
    "pass_bid": (lambda: HandState.deal("tournament", seed=1), lambda h, s: h.pass_bid(seat=s)),
    "apply": (lambda: HandState.deal("tournament", seed=1), lambda h, s: h.apply(64, s)),
    "apply_text": (lambda: HandState.deal("tournament", seed=1), lambda h, s: h.apply_text("bid 70", seat=s)),
    "discard": (nest_phase, lambda h, s: h.discard(h.hand(1).names()[:5], seat=s)),
    "name_trump": (trump_phase, lambda h, s: h.name_trump("R", seat=s)),
    "pass_cards": (pass_phase, lambda h, s: h.pass_cards(h.hand(1).names()[:3], seat=s)),
    "play": (play_phase, lambda h, s: h.play(h.legal_cards().names()[0], seat=s)),
}


@pytest.mark.parametrize("method", list(ACTIONS))
@pytest.mark.parametrize("seat", ["1", 9, -1, 4, 2.5, [1], "seat", True, 1.0])
def test_a_seat_that_is_not_0_to_3_is_refused_as_such(method: str, seat: Any) -> None:
    """RULES.md: seats are 0, 1, 2, 3.  A seat of another kind is not "not to
    move": it is not a seat, and the message says so.  True and 1.0 are
    refused even where seat 1 is to move (every state here but the play
    phase's), ``apply`` included."""
    make, act = ACTIONS[method]
    h = make()
    msg = refused(h, lambda h: act(h, seat), IllegalActionError)
    assert "0..3" in msg and "not to move" not in msg, msg


def test_T3_a_seat_not_to_move_still_cites_the_turn_rule() -> None:
    h = HandState.deal("tournament", seed=1)
    msg = refused(h, lambda h: h.bid(70, seat=2), IllegalActionError)
    assert "seat 2 is not to move, seat 1 is" in msg and "T-3" in msg


@pytest.mark.parametrize("team", [2, -1, True, False, "0", 0.0, None])
def test_T14_won_refuses_a_team_that_is_not_0_or_1(team: Any) -> None:
    h = play_phase()
    with pytest.raises(RookError, match="seats 0 and 2"):
        h.won(team)
    with pytest.raises(RookError, match="seats 0 and 2"):   # the native view too (2 read team 0's)
        h.won_mask(team)


@pytest.mark.parametrize("view", ["hand", "passing", "observe", "observation"])
@pytest.mark.parametrize("seat", [True, "1", 1.0, 4, -1, None])
def test_views_refuse_a_seat_that_is_not_0_to_3(view: str, seat: Any) -> None:
    h = pass_phase()
    with pytest.raises(RookError, match="0..3"):
        getattr(h, view)(seat)


def test_views_take_numpy_integers_as_seats() -> None:
    np = pytest.importorskip("numpy")
    h = play_phase()
    assert h.hand(np.int64(2)) == h.hand(2) and h.won(np.int8(1)) == h.won(1)
    assert h.observe(np.int32(3)).seat == 3


# ------------------------------------------- 4. a variant's numbers and sequences

@pytest.mark.parametrize(("changes", "words"), [
    ({"counters": ((5, 10**12),)}, ["counters", str(POINTS_LIMIT), "T-12"]),
    ({"counters": ((5, 40_000), (10, 10))}, ["counters", str(POINTS_LIMIT)]),
    ({"last_trick_bonus": 10**12}, ["last_trick_bonus", str(POINTS_LIMIT), "T-13"]),
    ({"most_tricks_bonus": 2**31}, ["most_tricks_bonus", str(POINTS_LIMIT)]),
    ({"penalty_points": 2**40}, ["penalty_points", str(POINTS_LIMIT), "T-35"]),
    ({"penalty_points": -40}, ["penalty_points", "negative", "T-35"]),
    ({"target": 2**31}, ["target", str(TARGET_LIMIT), "T-33"]),
    ({"target": 10**20}, ["target", str(TARGET_LIMIT)]),
    ({"min_bid": 10**12}, ["min_bid", "1000", "T-3"]),
    ({"bid_step": 10**12}, ["bid_step", "1000", "T-3"]),
    ({"max_bid": 10**12}, ["max_bid", "1000", "T-3"]),
    ({"moon_score": 10**12}, ["moon_score", "10000"]),
])
def test_variant_numbers_beyond_the_engine_are_refused_naming_field_and_limit(changes: dict[str, Any],
                                                                              words: list[str]) -> None:
    with pytest.raises(VariantError) as e:
        Variant.from_preset("tournament", **changes)
    for w in words:
        assert w in str(e.value), str(e.value)


def test_T13_negative_last_trick_bonus_has_its_own_message() -> None:
    with pytest.raises(VariantError) as e:
        Variant.from_preset("tournament", last_trick_bonus=-20)
    assert "last_trick_bonus" in str(e.value) and "negative" in str(e.value)
    assert "max_bid" not in str(e.value)
    with pytest.raises(VariantError, match="most_tricks_bonus.*negative"):
        Variant.from_preset("dixie", most_tricks_bonus=-1)


def test_T12_T35_a_variant_at_the_limits_deals_plays_and_scores() -> None:
    # (a card at the limit stays out of the last trick: the nest goes to the declarer, T-13)
    v = Variant.from_preset("tournament", counters=((5, 5), (10, 10), (14, 10), ("Rook", 20), ("R5", POINTS_LIMIT)),
                            nest_to="declarer", last_trick_bonus=SOLVER_END_LIMIT, penalty_points=POINTS_LIMIT,
                            target=TARGET_LIMIT)
    h = HandState.deal(v, seed=3)
    h.penalty(0)
    h.bid(70)
    for _ in range(3):
        h.pass_bid()
    h.discard(h.hand(h.to_move).names()[:5])
    h.name_trump("R")
    while not h.is_over:
        h.apply(h.legal_actions()[0])
    assert sum(h.points) == v.total_points == POINTS_LIMIT + 115 + SOLVER_END_LIMIT
    assert h.penalties == (-POINTS_LIMIT, 0)


def test_C3_sequences_given_as_lists_are_tuples() -> None:
    """ranks, permanent_trumps, post_bid_order and counters (a list or a
    tuple) are kept as tuples, so a variant always hashes and deals."""
    v = Variant.from_preset("tournament", ranks=list(range(5, 15)), counters=[[5, 5], [10, 10], [14, 10], ["Rook", 20]],
                            post_bid_order=["nest", "trump"])
    assert v == PRESETS["tournament"].replace() and hash(v) == hash(PRESETS["tournament"].replace())
    assert isinstance(v.ranks, tuple) and all(isinstance(c, tuple) for c in v.counters)
    assert HandState.deal(v, seed=1).raw_bytes() == HandState.deal("tournament", seed=1).raw_bytes()
    w = Variant(name="red", permanent_trumps=["R1"], nest_size=6, max_bid=120)  # type: ignore[arg-type]
    assert w.permanent_trumps == ("R1",) and HandState.deal(w, seed=1).variant is w


@pytest.mark.parametrize(("field", "value"), [
    ("ranks", 5), ("ranks", "5678"), ("ranks", {"a": 5}), ("ranks", [[5]]), ("ranks", [True] + list(range(5, 14))),
    ("permanent_trumps", "R1"), ("permanent_trumps", [["R1"]]), ("post_bid_order", "nest"),
    ("post_bid_order", [["nest"], "trump"]), ("counters", 5), ("counters", [[5]]), ("counters", [[[5], 5]]),
    ("name", ["x"]), ("deck_name", 5), ("bird_rank", [10.5]), ("nest_to", ["x"]),
])
def test_variant_fields_of_the_wrong_kind_are_refused_naming_them(field: str, value: Any) -> None:
    with pytest.raises(VariantError, match=field if field != "name" else "string"):
        Variant.from_preset("tournament", **{field: value}) if field != "name" else Variant(name=value)


def test_every_preset_is_within_the_limits() -> None:
    for v in PRESETS.values():
        assert Variant.from_dict(v.to_dict()) == v


# ----------------------------------------------- 5. trick-play positions (FORMATS.md)

def test_position_with_both_preset_and_variant_is_refused() -> None:
    both = dict(POSITION, variant=PRESETS["crowsnest"].to_dict())
    with pytest.raises(PositionError, match="not both"):
        parse_position(both)


@pytest.mark.parametrize("variant", [{}, {"target": 500}, {"name": "x", "ranks": list(range(5, 15))}, [], 5])
def test_position_variant_that_is_not_a_whole_variant_is_refused(variant: Any) -> None:
    pos = {k: v for k, v in POSITION.items() if k != "preset"}
    with pytest.raises(PositionError, match="variant"):
        parse_position(dict(pos, variant=variant))


def test_position_variant_whole_or_from_a_preset_is_read() -> None:
    pos = {k: v for k, v in POSITION.items() if k != "preset"}
    v = Variant.from_preset("tournament", last_trick_bonus=20, max_bid=140)
    assert parse_position(dict(pos, variant=v.to_dict())).variant == v
    assert parse_position(dict(pos, variant={"preset": "crowsnest", "target": 500})).variant.target == 500
    # a variant written before the house-rule fields existed is still whole
    old = {k: x for k, x in v.to_dict().items() if k not in ("moon_score", "exposed_nest", "tie_to_team_0",
                                                               "win_on_own_bid", "dealer_takes_minimum",
                                                               "discard_trump_counters")}
    assert parse_position(dict(pos, variant=old)).variant == v


@pytest.mark.parametrize(("preset", "total"), [("tournament", 120), ("crowsnest-100", 100), ("partnership-57", 180)])
def test_T13_nest_points_beyond_the_decks_points_are_refused(preset: str, total: int) -> None:
    pos = {"preset": preset, "trump": "R", "leader": 0, "trick": [], "hands": [["B6"], ["B7"], ["B8"], ["B9"]]}
    with pytest.raises(PositionError, match=f"nest_points.*0..{total}"):
        parse_position(dict(pos, nest_points=1000))
    with pytest.raises(PositionError, match="nest_points"):
        HandState.from_position(dict(pos, nest_points=total + 1))
    assert HandState.from_position(dict(pos, nest_points=total)).nest_points == total


@pytest.mark.parametrize("ident", [[1], {"a": 1}, 1.5, True, ["h", 1]])
def test_position_id_that_is_not_a_string_is_refused(ident: Any) -> None:
    with pytest.raises(PositionError, match="id must be a string"):
        parse_position(dict(POSITION, id=ident))
    with pytest.raises(PositionError, match="id must be a string"):
        HandState.from_position(json.dumps(dict(POSITION, id=ident)))


def test_position_id_as_a_string_is_kept() -> None:
    assert parse_position(dict(POSITION, id="deal-3")).id == "deal-3"
    assert parse_position(POSITION).id is None


def test_position_nested_too_deeply_is_not_valid_json() -> None:
    with pytest.raises(PositionError, match="not valid JSON"):
        parse_position("[" * 100_000 + "]" * 100_000)


@pytest.mark.parametrize("ident", [[1, 2], {"a": 1}, True, 1.5, [], {}])
def test_every_document_kind_refuses_an_id_that_is_not_a_string_or_an_integer(ident: Any) -> None:
    """Positions, Toonerville hands and played hand documents read ``id`` alike
    (FORMATS.md): a string or an integer, echoed; anything else refused by name."""
    from rook_core.analysis import contract_answer
    from rook_core.game import Game
    from rook_core.review import played_hands
    toon = {"hand": ["R5", "R5", "R5", "G7", "G7", "G7"], "contract": 1}
    game = Game("tournament", 3)
    while game.hand_number == 1:
        game.apply(game.current.legal_actions()[0])
    played = game.to_json()
    for read, doc, error in ((parse_position, POSITION, PositionError), (contract_answer, toon, RookError),
                             (played_hands, played, RookError)):
        good = ("x", 7)
        for ok in good:
            read({**doc, "id": ok})
        with pytest.raises(error, match=r"^id must be a string or an integer"):
            read({**doc, "id": ident})

