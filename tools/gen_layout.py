"""Generate the cross-language encodings from one table.

The card bit layout, the action space, the phases of a hand and the codes
of a refused action (with the rule each cites and its message) are defined
here and nowhere else.  Running this script writes

* ``src/rook/layout.h``            (C11)
* ``rook_core/_native/layout.pxd`` (Cython declarations of the C header)
* ``rook_core/_layout.py``         (pure Python constants)

A card is a small int that is also its bit position in a ``uint64`` mask:
color ``c`` (0=B, 1=G, 2=R, 3=Y, rule C-1) owns bits ``16c .. 16c+15`` and
rank ``r`` (1..14) of that color is bit ``16c + r``.  Bits ``16c`` and
``16c+15`` hold no colored card; the bird (C-2) takes bit 15, the spare slot
of the first lane.  Actions are ints: card ids 0..63, then the pass, the
trumps, the penalties and the bids (T-3 .. T-35).  ``tests/test_layout.py``
checks that the three twins agree with this table.

Usage: ``python tools/gen_layout.py [--check]``
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COLOR_LETTERS = "BGRY"
COLOR_NAMES = ("Black", "Green", "Red", "Yellow")
N_COLORS = 4
LANE_BITS = 16
MIN_RANK = 1
MAX_RANK = 14
BIRD = 15  # spare slot of lane 0


def card_id(color: int, rank: int) -> int:
    return LANE_BITS * color + rank


def color_mask(color: int) -> int:
    m = 0
    for r in range(MIN_RANK, MAX_RANK + 1):
        m |= 1 << card_id(color, r)
    return m


def rank_mask(rank: int) -> int:
    return sum(1 << card_id(c, rank) for c in range(N_COLORS))


# The action space (T-3, T-4, T-7, T-35): card ids 0..63, then these offsets.
ACTION_PASS = 64
ACTION_TRUMP = 65            # + color
ACTION_PENALTY = 69          # + team
ACTION_BID = 72              # + points
MAX_BID_LIMIT = 1000
N_ACTIONS = ACTION_BID + MAX_BID_LIMIT + 1
NO_SEAT = 255

# The phases of a hand (T-1 .. T-14), in order.
PHASES = ("bid", "nest", "trump", "pass", "play", "done", "thrown_in")

# Why an action was refused: (code name, the rule it cites, the message).
# Code 0 is "applied"; code i (1, 2, ...) is REFUSALS[i - 1].  A rule of
# None cites nothing; "by phase" cites the rule of the phase (T-20 in the
# nest, T-22 in the pass, T-8 in play).  Message fields: {name} the action,
# {action} its int, {seat} the seat to move, {phase}, {led} the led card,
# {trump} the trump color, {min_bid}, {max_bid}, {step}, {high} the high
# bid, {next} the one bid allowed without jumps.
REFUSALS = (
    ("UNKNOWN_ACTION", None, "{action} is not an action of the encoding"),
    ("WRONG_PHASE", "T-7", "{name} is not an action of the {phase} phase"),
    ("HAND_OVER", "T-14", "{name}: the hand is over ({phase})"),
    ("NOT_IN_HAND", "by phase", "{name} is not in seat {seat}'s hand"),
    ("MUST_FOLLOW", "T-9", "{name}: seat {seat} holds the led color of {led} and must follow it"),
    ("MUST_FOLLOW_TRUMP", "T-10", "{name}: {led} asks for trump ({trump}, the bird included) and "
     "seat {seat} holds trump, so must play it"),
    ("MUST_TRUMP", "T-9", "{name}: seat {seat} is void in the led color and holds trump; "
     "must_trump requires a trump"),
    ("BID_BELOW_MIN", "T-3", "{name}: bids start at {min_bid}"),
    ("BID_ABOVE_MAX", "T-3", "{name}: no bid may exceed {max_bid}"),
    ("BID_STEP", "T-3", "{name}: bids are multiples of {step}"),
    ("BID_NOT_HIGHER", "T-3", "{name}: a bid must be higher than the current {high}"),
    ("BID_JUMP", "T-3", "{name}: jump bids are not allowed; the only bid is {next}"),
    ("OPENER_MUST_BID", "T-6", "{name}: the opener must bid in this variant"),
    ("DEALER_STUCK", "T-6", "{name}: all others passed and the dealer must bid (stick_the_dealer)"),
    ("DISCARD_COUNTER", "T-20", "{name}: counters may not be discarded into the nest in this variant"),
    ("BAD_COLOR", "T-7", "{name}: there is no such color"),
    ("DISCARD_TIER", "H-4", "{name}: the nest takes cards worth 0 while enough are left, then "
     "trump counters (the bird included), never other counters"),
)

# The view a native policy reads (src/rook/sim.h), one int64 slot each, in order.
VIEW_SLOTS = ("seat", "phase", "dealer", "to_move", "declarer", "trump", "high_bid", "leader",
              "trick_n", "trick0", "trick1", "trick2", "trick3", "points0", "points1", "tricks0",
              "tricks1", "remaining", "hand", "played", "legal_cards", "min_bid", "max_bid",
              "bid_step", "can_pass", "nest", "discarded", "passed", "random", "tricks_done")
VIEW_LEN = 32                # slots after the named ones are 0 (room to grow)

# The columns of a result row of the native hand loop, in order: (name, the
# NumPy type of the simulator's column, what it holds).  The error columns
# stay inside the loop's rows (the simulator raises on an error).
ROW_SCHEMA = (
    ("dealer", "int8", "the dealer's seat (T-1)"),
    ("bid_0", "int16", "the highest bid of seat 0, 0 if it never bid (T-3); bid_1..bid_3 alike"),
    ("bid_1", "int16", ""),
    ("bid_2", "int16", ""),
    ("bid_3", "int16", ""),
    ("declarer", "int8", "the declarer's seat, -1 when every seat passed (T-5, T-6)"),
    ("bid", "int16", "the winning bid, 0 when thrown in"),
    ("trump", "int8", "the trump color 0..3 (B, G, R, Y), -1 when thrown in (T-7)"),
    ("points_0", "int16", "team 0's hand points (T-14)"),
    ("points_1", "int16", "team 1's hand points"),
    ("made", "int8", "1 made, 0 set, -1 thrown in (T-31, T-32)"),
    ("score_0", "int16", "team 0's score for the hand (T-30 .. T-32)"),
    ("score_1", "int16", "team 1's score for the hand"),
    ("hand_0", "uint64", "seat 0's dealt cards as a card mask (T-2); hand_1..hand_3 alike"),
    ("hand_1", "uint64", ""),
    ("hand_2", "uint64", ""),
    ("hand_3", "uint64", ""),
    ("nest", "uint64", "the dealt nest as a card mask (T-2)"),
    ("error", "int8", "1 when an action was refused (the hand stopped there)"),
    ("error_seat", "int8", "the seat whose action was refused"),
    ("error_action", "int16", "the refused action"),
)
ROW_COLUMNS = tuple(name for name, _, _ in ROW_SCHEMA)

# The kinds of native policy.
POLICIES = ("random", "callback", "heuristic")

# Seeds: splitmix64 (rng.h) steps by GOLDEN_GAMMA and mixes with MIX_1, MIX_2;
# hand_seed(S, i) mixes S * GOLDEN_GAMMA + (i + 1) * SEED_STEP the same way;
# the seat's agent stream is seeded by hand_seed(hand_seed(S, u) ^ AGENT_SALT, seat).
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
SEED_STEP = 0xBF58476D1CE4E5B9
MIX_1 = 0xBF58476D1CE4E5B9
MIX_2 = 0x94D049BB133111EB
AGENT_SALT = 0xA5A5A5A5
assert len(VIEW_SLOTS) <= VIEW_LEN

ALL_COLORED = sum(color_mask(c) for c in range(N_COLORS))
BB_BIRD = 1 << BIRD
assert ALL_COLORED & BB_BIRD == 0

HEADER = "generated by tools/gen_layout.py from its one table; do not edit"


def c_header() -> str:
    out = [
        f"/* {HEADER}. */",
        "/* Card bit layout: color c owns bits [16c, 16c+15]; rank r of color c is",
        "   bit 16c+r; the bird is bit 15 (the spare slot of lane 0). */",
        "#ifndef ROOK_LAYOUT_H",
        "#define ROOK_LAYOUT_H",
        "#include <stdint.h>",
        "",
        f"#define ROOK_N_COLORS {N_COLORS}",
        f"#define ROOK_LANE_BITS {LANE_BITS}",
        f"#define ROOK_MIN_RANK {MIN_RANK}",
        f"#define ROOK_MAX_RANK {MAX_RANK}",
        f"#define ROOK_BIRD {BIRD}",
        "#define ROOK_N_CARD_IDS 64",
        "#define ROOK_NO_CARD 255",
        f"#define ROOK_BB_BIRD 0x{BB_BIRD:016x}ULL",
        f"#define ROOK_BB_ALL_COLORED 0x{ALL_COLORED:016x}ULL",
    ]
    for c in range(N_COLORS):
        out.append(f"#define ROOK_BB_COLOR_{COLOR_LETTERS[c]} 0x{color_mask(c):016x}ULL")
    out += [
        "",
        "/* Mask of the colored cards of color c (0..3). */",
        f"#define ROOK_BB_COLOR(c) (0x{color_mask(0):016x}ULL << (ROOK_LANE_BITS * (c)))",
        "/* Card id of rank r in color c. */",
        "#define ROOK_CARD(c, r) ((uint8_t)(ROOK_LANE_BITS * (c) + (r)))",
        "/* Color of a colored card id (undefined for the bird). */",
        "#define ROOK_COLOR_OF(card) ((card) >> 4)",
        "/* Rank of a colored card id (undefined for the bird). */",
        "#define ROOK_RANK_OF(card) ((card) & 15)",
        "",
        "/* The action space: card ids 0..63, then these (T-3, T-4, T-7, T-35). */",
        f"#define ROOK_A_PASS {ACTION_PASS}",
        f"#define ROOK_A_TRUMP {ACTION_TRUMP}",
        f"#define ROOK_A_PENALTY {ACTION_PENALTY}",
        f"#define ROOK_A_BID {ACTION_BID}",
        f"#define ROOK_MAX_BID_LIMIT {MAX_BID_LIMIT}",
        "#define ROOK_N_ACTIONS (ROOK_A_BID + ROOK_MAX_BID_LIMIT + 1)",
        f"#define ROOK_NO_SEAT {NO_SEAT}",
        "",
        "/* The phases of a hand (T-1 .. T-14). */",
        "enum {",
    ]
    out += [f"    ROOK_PH_{p.upper()} = {i}," for i, p in enumerate(PHASES)]
    out += [
        "};",
        "",
        "/* Codes of rook_hand_apply (0: applied); each cites a rule (tools/gen_layout.py). */",
        "enum {",
        "    ROOK_OK = 0,",
    ]
    out += [f"    ROOK_E_{name}, /* {rule or 'no rule'} */" for name, rule, _ in REFUSALS]
    out += [
        "    ROOK_E_N_ERRORS",
        "};",
        "",
        "/* Slots of the view a native policy reads (int64 each; masks bit for bit). */",
        "enum {",
    ]
    out += [f"    ROOK_V_{n.upper()}," for n in VIEW_SLOTS]
    out += [f"    ROOK_VIEW_LEN = {VIEW_LEN}", "};", "",
            "/* Columns of a result row of the native hand loop (int64 each). */", "enum {"]
    out += [f"    ROOK_R_{n.upper()}," for n in ROW_COLUMNS]
    out += ["    ROOK_R_LEN", "};", "", "/* Kinds of native policy. */", "enum {"]
    out += [f"    ROOK_POLICY_{n.upper()} = {i}," for i, n in enumerate(POLICIES)]
    out += [
        "};",
        "",
        "/* Seeds (rook_core/rng.py): the hand-seed mixer and the agents' salt. */",
        f"#define ROOK_GOLDEN_GAMMA 0x{GOLDEN_GAMMA:016x}ULL",
        f"#define ROOK_SEED_STEP 0x{SEED_STEP:016x}ULL",
        f"#define ROOK_MIX_1 0x{MIX_1:016x}ULL",
        f"#define ROOK_MIX_2 0x{MIX_2:016x}ULL",
        f"#define ROOK_AGENT_SALT 0x{AGENT_SALT:08x}ULL",
        "",
        "#endif",
        "",
    ]
    return "\n".join(out)


def pxd() -> str:
    names = [
        "ROOK_N_COLORS", "ROOK_LANE_BITS", "ROOK_MIN_RANK", "ROOK_MAX_RANK",
        "ROOK_BIRD", "ROOK_N_CARD_IDS", "ROOK_NO_CARD",
    ]
    out = [f"# {HEADER}.", "from libc.stdint cimport uint8_t, uint64_t", "",
           'cdef extern from "rook/layout.h":']
    for n in names:
        out.append(f"    int {n}")
    for n in ["ROOK_BB_BIRD", "ROOK_BB_ALL_COLORED"] + [
        f"ROOK_BB_COLOR_{x}" for x in COLOR_LETTERS
    ]:
        out.append(f"    uint64_t {n}")
    out += [
        "    uint64_t ROOK_BB_COLOR(int c) nogil",
        "    uint8_t ROOK_CARD(int c, int r) nogil",
        "    int ROOK_COLOR_OF(int card) nogil",
        "    int ROOK_RANK_OF(int card) nogil",
    ]
    out += [f"    int {n}" for n in ("ROOK_A_PASS", "ROOK_A_TRUMP", "ROOK_A_PENALTY", "ROOK_A_BID",
                                    "ROOK_MAX_BID_LIMIT", "ROOK_N_ACTIONS", "ROOK_NO_SEAT")]
    out += [f"    int ROOK_PH_{p.upper()}" for p in PHASES]
    out += ["    int ROOK_OK"] + [f"    int ROOK_E_{name}" for name, _, _ in REFUSALS]
    out += ["    int ROOK_E_N_ERRORS"]
    out += [f"    int ROOK_V_{n.upper()}" for n in VIEW_SLOTS] + ["    int ROOK_VIEW_LEN"]
    out += [f"    int ROOK_R_{n.upper()}" for n in ROW_COLUMNS] + ["    int ROOK_R_LEN"]
    out += [f"    int ROOK_POLICY_{n.upper()}" for n in POLICIES]
    out += [""]
    return "\n".join(out)


def py() -> str:
    out = [
        f'"""The card bit layout, the action space, the phases and the refusal codes ({HEADER})."""',
        "",
        f"N_COLORS = {N_COLORS}",
        f"LANE_BITS = {LANE_BITS}",
        f"MIN_RANK = {MIN_RANK}",
        f"MAX_RANK = {MAX_RANK}",
        f"BIRD = {BIRD}",
        "N_CARD_IDS = 64",
        f'COLOR_LETTERS = "{COLOR_LETTERS}"',
        f"COLOR_NAMES = {COLOR_NAMES!r}",
        f"BB_BIRD = 0x{BB_BIRD:016x}",
        f"BB_ALL_COLORED = 0x{ALL_COLORED:016x}",
        "BB_COLORS = (",
    ]
    for c in range(N_COLORS):
        out.append(f"    0x{color_mask(c):016x},  # {COLOR_NAMES[c]}")
    out += [")", "BB_RANKS = {"]
    for r in range(MIN_RANK, MAX_RANK + 1):
        out.append(f"    {r}: 0x{rank_mask(r):016x},")
    out += [
        "}",
        "",
        "",
        "def card_id(color: int, rank: int) -> int:",
        '    """Return the card id (bit position) of ``rank`` in ``color``."""',
        f"    return {LANE_BITS} * color + rank",
        "",
        "",
        "def color_of(card: int) -> int:",
        '    """Return the color of a colored card id (not the bird)."""',
        "    return card >> 4",
        "",
        "",
        "def rank_of(card: int) -> int:",
        '    """Return the rank of a colored card id (not the bird)."""',
        "    return card & 15",
        "",
        "",
        "def card_name(card: int) -> str:",
        '    """Return the name of a card id of the layout (``R14``, ``Rook``; C-1, C-2)."""',
        f"    if card == {BIRD}:",
        '        return "Rook"',
        '    return f"{COLOR_LETTERS[card >> 4]}{card & 15}"',
        "",
        "",
        "# The action space: card ids 0..63, then these (T-3, T-4, T-7, T-35).",
        f"ACTION_PASS = {ACTION_PASS}",
        f"ACTION_TRUMP = {ACTION_TRUMP}",
        f"ACTION_PENALTY = {ACTION_PENALTY}",
        f"ACTION_BID = {ACTION_BID}",
        f"MAX_BID_LIMIT = {MAX_BID_LIMIT}",
        f"N_ACTIONS = {N_ACTIONS}",
        f"NO_SEAT = {NO_SEAT}",
        "",
        "# The phases of a hand (T-1 .. T-14), by number.",
        f"PHASES = {PHASES!r}",
        "",
        "# Why an action was refused, by code - 1: (code name, rule, message).",
        "REFUSALS = (",
    ]
    out += [f"    ({name!r}, {rule!r}, {msg!r})," for name, rule, msg in REFUSALS]
    out += [")", "", "# The view a native policy reads: its slots in order, and each slot's number",
            "# (plain ints, so that Numba code can read them as constants)."]
    out += [f"VIEW_SLOTS = {VIEW_SLOTS!r}", f"VIEW_LEN = {VIEW_LEN}"]
    out += [f"V_{n.upper()} = {i}" for i, n in enumerate(VIEW_SLOTS)]
    out += ["", "# The columns of a result row of the native hand loop: (name, NumPy type, what it holds).",
            "ROW_SCHEMA = ("]
    out += [f"    ({n!r}, {t!r}, {d!r})," for n, t, d in ROW_SCHEMA]
    out += [")", "ROW_COLUMNS = tuple(name for name, _, _ in ROW_SCHEMA)", f"ROW_LEN = {len(ROW_COLUMNS)}", "",
            "# The kinds of native policy."]
    out += [f"POLICY_{n.upper()} = {i}" for i, n in enumerate(POLICIES)]
    out += ["", "# Seeds: the hand-seed mixer and the agents' salt (rook_core/rng.py).",
            f"GOLDEN_GAMMA = 0x{GOLDEN_GAMMA:016x}", f"SEED_STEP = 0x{SEED_STEP:016x}", f"MIX_1 = 0x{MIX_1:016x}",
            f"MIX_2 = 0x{MIX_2:016x}", f"AGENT_SALT = 0x{AGENT_SALT:08x}", ""]
    return "\n".join(out)


TARGETS = {
    ROOT / "src" / "rook" / "layout.h": c_header,
    ROOT / "rook_core" / "_native" / "layout.pxd": pxd,
    ROOT / "rook_core" / "_layout.py": py,
}


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for path, make in TARGETS.items():
        text = make()
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(str(path.relative_to(ROOT)))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    if stale:
        print("stale generated files: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
