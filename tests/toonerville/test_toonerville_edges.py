"""Edge cases of the Toonerville game and its values: taking the discard into a
hand of its copies (TV-6, TV-10, section 5), the rule named for an action out
of its phase (TV-6), and errors on what is not a card or a contract (TV-1, TV-2)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rook_core.errors import IllegalActionError, RookError
from rook_core.toonerville.contracts import Contract
from rook_core.toonerville.game import ToonervilleGame
from rook_core.toonerville.hand import MultiHand
from rook_core.toonerville.melds import arrange_meld, is_run, is_set, meld_kind
from rook_core.toonerville.rules import ToonervilleRules
from rook_core.toonerville.solver import solve_contract
from rook_core.toonerville.table import TableMeld

from .test_toonerville_game import counts, ids, snapshot


def table(*melds: str) -> list[TableMeld]:
    out = []
    for m in melds:
        arranged = arrange_meld(ids(m))
        assert arranged is not None
        out.append(TableMeld(arranged[0], 0, arranged[1]))
    return out


def at_draw(hand: str, top: str, melds: list[TableMeld], laid: bool = True, rounds: tuple[int, ...] = (1,)
            ) -> ToonervilleGame:
    """Player 1 to draw with ``hand``, ``top`` on the discard pile and ``melds`` on the table."""
    g = ToonervilleGame(ToonervilleRules(players=3, rounds=rounds), seed=1)
    g.turn, g.phase = 1, "draw"
    g.hands[1] = counts(hand)
    g.discard = ids("G2 " + top)
    g.table = list(melds)
    g.laid[1] = laid
    return g


def can_go_out(card: int, copies: int, melds: list[TableMeld]) -> bool:
    """Whether ``copies`` of ``card`` can all be melded or laid off, trying every
    set of some of them (TV-4) and every lay-off of one (TV-7), in any order."""
    if copies == 0:
        return True
    for k in range(3, copies + 1):
        if is_set([card] * k) and can_go_out(card, copies - k, melds):
            return True
    for i, m in enumerate(melds):
        for end in (None, "low", "high"):
            grown = m.lay_off(card, end, 0.5)
            if grown is not None and can_go_out(card, copies - 1, melds[:i] + [grown] + melds[i + 1:]):
                return True
    return False


@pytest.mark.parametrize("hand, top, melds, out", [
    ("B7 B7", "R7", [], ["meld B7 B7 R7"]),                                   # a set of the three
    ("G9", "G9", table("B9 R9 Y9"), ["layoff G9 0", "layoff G9 0"]),          # both laid off
    ("Rook", "Rook", table("R3 R4 R5 R6"), ["layoff Rook 0 high", "layoff Rook 0 low"]),
])
def test_TV6_TV10_section5_the_discard_may_be_taken_into_its_copies_to_go_out(hand, top, melds, out) -> None:
    g = at_draw(hand, top, melds)
    assert g.is_legal("take")
    g.apply("take")
    for a in out:
        g.apply(a)
    assert g.round_scores[-1][1] == 0 and g.went_out == [1]


@pytest.mark.parametrize("hand, top, melds", [
    ("G9", "G9", table("G5 G6 G7 G8")),            # the second G9 fits nowhere
    ("Rook", "Rook", table("B7 G7 Rook")),         # a second bird breaks TV-5
    ("B7", "B7", []),                              # two cards make no set
])
def test_section5_the_discard_is_refused_when_its_copies_could_not_go_out(hand, top, melds) -> None:
    g = at_draw(hand, top, melds)
    before = snapshot(g)
    with pytest.raises(IllegalActionError, match="no_discard_of_taken"):
        g.apply("take")
    assert snapshot(g) == before


def test_TV7_TV10_section5_a_contract_of_sets_may_be_taken_from_copies() -> None:
    g = at_draw("B7 B7 B7 B7 B7", "B7", [], laid=False)          # round 1: two sets
    g.apply("take")
    g.apply("lay B7 B7 B7 / B7 B7 B7")
    assert g.went_out == [1]
    assert not at_draw("B7 B7 B7 B7 B7", "B7", [], laid=False, rounds=(2,)).is_legal("take")  # a run too


@pytest.mark.parametrize("seed", range(4))
def test_TV6_TV10_section5_take_into_copies_iff_they_can_all_go(seed: int) -> None:
    """Over random tables: a hand of copies of the top discard may take it exactly
    when all the copies can then be melded or laid off (by a search over every
    order), and what is left after each step can still go."""
    rnd = random.Random(seed)
    pool = ["R3 R4 R5 R6", "R5 R6 R7 R8 Rook", "B9 R9 Y9", "B9 G9 Rook", "G6 G7 G8 G9", "B1 B2 B3 B4",
            "Y11 Y12 Y13 Y14", "R9 R10 R11 R12", "B2 G2 Y2", "Y7 Y8 Rook Y10"]
    for _ in range(60):
        melds = table(*rnd.sample(pool, rnd.randint(0, 4)))
        top = rnd.choice(["R9", "G9", "R2", "B5", "Rook", "Y10", "G10", "R7"])
        k = rnd.randint(1, 2)
        g = at_draw(" ".join([top] * k), top, melds)
        want = can_go_out(int(ids(top)[0]), k + 1, melds)
        assert g.is_legal("take") == want, (top, k, [m.text() for m in melds])
        if want:
            g.apply("take")
            while not g.went_out:
                acts = g.legal_actions()
                assert acts and not any(str(a).startswith("discard") for a in acts)
                g.apply(rnd.choice(acts))
            assert g.went_out == [1]


def test_TV6_draw_or_take_after_drawing_names_the_turn_rule() -> None:
    g = at_draw("B7 G9 R3", "Y5", [], laid=False)
    g.apply("draw")
    while g.phase == "buy":
        g.apply("pass")
    before = snapshot(g)
    for a in ("draw", "take", "buy", "pass"):
        with pytest.raises(IllegalActionError, match="after drawing") as e:
            g.apply(a)
        assert e.value.rule == "TV-6"
        assert snapshot(g) == before


@pytest.mark.parametrize("call", [
    lambda: MultiHand.from_counts([1] * 10),
    lambda: MultiHand.from_counts([1] + [0] * 63),                # id 0 is no card
    lambda: MultiHand.from_counts([0.5] * 64),
    lambda: MultiHand.from_counts(None),
    lambda: MultiHand.parse("B7").count(99),
    lambda: MultiHand.parse("B7") - MultiHand.parse("B8"),
    lambda: is_set([7, 7, 0]),
    lambda: is_run([99, 100, 101, 102]),
    lambda: is_run(["B7", "B8", "B9", "B10"], "x"),
    lambda: meld_kind(None),
    lambda: arrange_meld("B7 G7 R7"),
    lambda: solve_contract(MultiHand.parse("B7 G7 R7"), Contract(0, 0, "a", 0)),
    lambda: solve_contract(MultiHand.parse("B7 G7 R7"), Contract(0, 0, 1, 1.5)),
])
def test_TV1_TV2_what_is_not_a_card_hand_or_contract_raises_a_rook_error(call) -> None:
    with pytest.raises(RookError):
        call()


def test_TV1_hands_still_take_any_integer_counts() -> None:
    np = pytest.importorskip("numpy")
    h = MultiHand.from_counts(np.array(counts("B7 B7 Rook"), dtype=np.uint8))
    assert h == MultiHand.parse("B7 B7 Rook") and h.count(np.int64(7)) == 2
    assert is_set(np.array(ids("B7 G7 Rook"))) and is_set(ids("B7 G7 Rook"), Fraction(1, 2))
