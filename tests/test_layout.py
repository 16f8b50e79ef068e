"""The card bit layout has one definition (tools/gen_layout.py) and three
generated twins that agree with it (C-1, C-2)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from rook_core import _layout as L
from rook_core.cards import BIRD, Card, CardSet, parse_card

ROOT = Path(__file__).resolve().parent.parent


def _tool():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("gen_layout", ROOT / "tools" / "gen_layout.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_generated_files_are_current() -> None:
    assert _tool().main(["--check"]) == 0


def test_c_header_defines_match_the_python_twin() -> None:
    text = (ROOT / "src" / "rook" / "layout.h").read_text()
    defines = dict(re.findall(r"#define (ROOK_\w+) (0x[0-9a-f]+|\d+)", text))
    assert int(defines["ROOK_BIRD"], 0) == L.BIRD
    assert int(defines["ROOK_BB_BIRD"], 0) == L.BB_BIRD
    assert int(defines["ROOK_BB_ALL_COLORED"], 0) == L.BB_ALL_COLORED
    for c, letter in enumerate(L.COLOR_LETTERS):
        assert int(defines[f"ROOK_BB_COLOR_{letter}"], 0) == L.BB_COLORS[c]


def test_C1_C2_every_card_has_one_bit() -> None:
    """C-1: four colors of ranks 1..14; C-2: one bird; all bits distinct."""
    bits = set()
    for c in range(4):
        for r in range(1, 15):
            card = Card.of(c, r)
            assert (card.color, card.rank) == (c, r)
            assert L.BB_COLORS[c] >> card & 1
            assert L.BB_RANKS[r] >> card & 1
            bits.add(int(card))
    assert BIRD not in bits and len(bits) == 56
    assert parse_card("Rook") == BIRD == parse_card("crow")
    assert len(CardSet(L.BB_ALL_COLORED | L.BB_BIRD)) == 57


def test_the_action_space_phases_and_refusals_come_from_the_one_table() -> None:
    """T-3 .. T-35: the C header, the Python constants and the enums agree."""
    from rook_core import actions
    from rook_core.actions import Phase
    text = (ROOT / "src" / "rook" / "layout.h").read_text()
    defines = dict(re.findall(r"#define (ROOK_\w+) (\d+)\n", text))
    assert int(defines["ROOK_A_PASS"]) == actions.PASS == L.ACTION_PASS
    assert int(defines["ROOK_A_TRUMP"]) == actions.TRUMP
    assert int(defines["ROOK_A_PENALTY"]) == actions.PENALTY
    assert int(defines["ROOK_A_BID"]) == actions.BID
    assert actions.N_ACTIONS == L.ACTION_BID + L.MAX_BID_LIMIT + 1
    assert [p.label for p in Phase] == list(L.PHASES)
    phases = dict(re.findall(r"ROOK_PH_(\w+) = (\d+),", text))
    assert {k.lower(): int(v) for k, v in phases.items()} == {p: i for i, p in enumerate(L.PHASES)}
    codes = re.findall(r"ROOK_E_(\w+), /\*", text)
    assert codes == [name for name, _, _ in L.REFUSALS]


def test_every_refusal_cites_a_rule_of_the_rules_and_formats_its_message() -> None:
    """Each code's message takes only the fields the hand gives it (tools/gen_layout.py)."""
    fields = dict(name="R14", action=46, seat=1, phase="play", led="R5", trump="Red", min_bid=70,
                  max_bid=120, step=5, high=80, next=85)
    ids = set(re.findall(r"\b([TH]-\d+)\b", (ROOT / "docs" / "RULES.md").read_text()))
    for name, rule, message in L.REFUSALS:
        assert rule is None or rule == "by phase" or rule in ids, name
        assert message.format(**fields)


def test_the_view_slots_row_columns_and_seeds_come_from_the_one_table() -> None:
    """The native loop's view and rows (src/rook/sim.h) and the seed constants,
    as C, Cython and Python (and Numba, through plain ints) see them."""
    from rook_core import _native, rng
    text = (ROOT / "src" / "rook" / "layout.h").read_text()
    assert [n.lower() for n in re.findall(r"ROOK_V_(\w+),", text)] == list(L.VIEW_SLOTS)
    assert [n.lower() for n in re.findall(r"ROOK_R_(\w+),", text)] == list(L.ROW_COLUMNS)
    assert all(getattr(L, f"V_{n.upper()}") == i for i, n in enumerate(L.VIEW_SLOTS))
    assert _native.VIEW_SLOTS == L.VIEW_SLOTS and _native.ROW_COLUMNS == L.ROW_COLUMNS
    assert _native.ROW_LEN == len(L.ROW_COLUMNS) and _native.VIEW_LEN == L.VIEW_LEN
    assert (_native.POLICY_RANDOM, _native.POLICY_CALLBACK, _native.POLICY_HEURISTIC) == (
        L.POLICY_RANDOM, L.POLICY_CALLBACK, L.POLICY_HEURISTIC)
    for seed, index in ((0, 0), (7, 3), (2**64 - 1, 12345)):
        assert _native.hand_seed(seed, index) == rng.hand_seed(seed, index)
