"""A deterministic signature of the engine's behaviour, for review.

Prints counts that depend only on the rules, the native deal and the native
random stream, never on timing:

* for every preset, the sum over a fixed set of positions of the native
  ``HandState.perft(4)`` vector ``[n1, n2, n3, n4]``.  The positions: the
  native deal ``HandState.deal(preset, seed)`` for ``DEAL_SEEDS``, each at
  the start of play and after ``MID_CARDS`` cards chosen by a fixed rule
  (so one is mid-trick), with trump and leader derived from the seed;
* for every preset, the sum of ``HandState.perft(4)`` from the same deals
  at the start of the bidding (bids, passes: what the play-phase counts do
  not see), and ``N_SCRIPTED`` whole hands from the deal to the score
  through ``HandState`` (bidding, nest, passing, trump, play) with the
  action picked by a fixed rule: the sum of each team's score, of the
  declarer's team points, and the number of bids made;
* for every preset, ``Rules.random_hands(trump=R, seed=SEED, first=0, out)``
  on ``N_HANDS`` hands: the total points of each team and the CRC-32 of the
  little-endian int32 rows.

``bench/signature.txt`` holds the expected output.  A change of engine
behaviour (rules, deal, random stream, play-out) changes these numbers: the
benchmark ``bench/test_signature.py`` fails until the file is regenerated
with ``--write``, so the change shows up as a diff of that file in review.

Usage (from the repository root)::

    .venv/bin/python bench/signature.py            # print the signature
    .venv/bin/python bench/signature.py --check    # compare with bench/signature.txt
    .venv/bin/python bench/signature.py --write    # regenerate bench/signature.txt
    .venv/bin/python bench/signature.py --reference  # also check perft on the reference
"""

from __future__ import annotations

import sys
import zlib
from pathlib import Path

import numpy as np

from rook_core._native.rules import rules_for
from rook_core._reference.tricks import perft as ref_perft
from rook_core._reference.tricks import play_card, ref_play_from_position
from rook_core.hand import HandState
from rook_core.position import Position
from rook_core.variant import PRESETS

GOLDEN = Path(__file__).resolve().parent / "signature.txt"
DEPTH = 4
DEAL_SEEDS = (1000, 1001, 1002, 1003)
MID_CARDS = 6          # one full trick and two cards of the next
TRUMP = 2              # R
SEED = 20_240_601
N_HANDS = 20_000
N_SCRIPTED = 200


def scripted_hand(name: str, seed: int) -> HandState:
    """Play hand ``seed`` from the deal to the end, action ``k`` being
    ``legal_actions()[(seed + 7 * k) % n]`` where n is the number of legal
    actions, at most 2 in the bidding (a pass or the lowest
    bid, so that some contracts are made and some are set)."""
    h = HandState.deal(name, seed=seed, dealer=seed % 4)
    k = 0
    while not h.is_over:
        acts = h.legal_actions()
        n = min(len(acts), 2) if h.phase.label == "bid" else len(acts)
        h.apply(acts[(seed + 7 * k) % n])
        k += 1
    return h


def positions(name: str) -> list[tuple[str, Position, list[int]]]:
    """Return ``(label, start position, cards played from it)`` of ``name``."""
    v = PRESETS[name]
    rules = rules_for(v)
    out = []
    for seed in DEAL_SEEDS:
        dealt = HandState.deal(name, seed=seed)
        masks = tuple(dealt.hand_mask(s) for s in range(4))
        pos = Position(v, seed % 4, (3 * seed + 1) % 4, (), masks,  # type: ignore[arg-type]
                       rules.points(dealt.nest.mask))
        out.append((f"{name}/{seed}/start", pos, []))
        h = HandState.from_position(pos)
        cards = []
        for i in range(MID_CARDS):
            acts = h.legal_actions()
            card = acts[(seed + 3 * i) % len(acts)]
            h.apply(card)
            cards.append(card)
        out.append((f"{name}/{seed}/mid", pos, cards))
    return out


def native_perft(pos: Position, cards: list[int], depth: int = DEPTH) -> list[int]:
    h = HandState.from_position(pos)
    for c in cards:
        h.apply(c)
    return h.perft(depth)


def reference_perft(pos: Position, cards: list[int], depth: int = DEPTH) -> list[int]:
    s = ref_play_from_position(pos)
    for c in cards:
        s = play_card(s, c)
    return ref_perft(s, depth)


def random_hands_figures(name: str) -> tuple[int, int, int]:
    """Return (team 0 total, team 1 total, crc32 of the rows) of the batch."""
    out = np.zeros((N_HANDS, 2), dtype=np.int32)
    rules_for(PRESETS[name]).random_hands(TRUMP, SEED, 0, out)
    t0, t1 = (int(x) for x in out.sum(axis=0, dtype=np.int64))
    return t0, t1, zlib.crc32(out.astype("<i4").tobytes())


def compute(reference: bool = False) -> str:
    """Return the signature text; with ``reference``, first assert that the
    reference perft equals the native one on every position."""
    width = max(map(len, PRESETS))
    lines = [
        "# rook_core engine signature (bench/signature.py; regenerate with --write)",
        f"perft({DEPTH}) summed over {2 * len(DEAL_SEEDS)} positions per preset "
        f"(HandState.deal seeds {DEAL_SEEDS[0]}..{DEAL_SEEDS[-1]} x start / {MID_CARDS} cards played):",
    ]
    for name in PRESETS:
        total = [0] * DEPTH
        for label, pos, cards in positions(name):
            got = native_perft(pos, cards)
            if reference:
                want = reference_perft(pos, cards)
                assert got == want, f"{label}: native perft {got} != reference {want}"
            total = [a + b for a, b in zip(total, got)]
        lines.append(f"  {name:<{width}}  " + "  ".join(f"n{i + 1}={n}" for i, n in enumerate(total)))
    lines.append(f"perft({DEPTH}) from the deal (bidding), summed over the same {len(DEAL_SEEDS)} deals:")
    for name in PRESETS:
        total = [0] * DEPTH
        for seed in DEAL_SEEDS:
            total = [a + b for a, b in zip(total, HandState.deal(name, seed=seed).perft(DEPTH))]
        lines.append(f"  {name:<{width}}  " + "  ".join(f"n{i + 1}={n}" for i, n in enumerate(total)))
    lines.append(f"{N_SCRIPTED} scripted whole hands (deal seeds 0..{N_SCRIPTED - 1}): score sums, "
                 "declarer-team points, bids, contracts made, actions, thrown in:")
    for name in PRESETS:
        s0 = s1 = decl = bids = n_actions = thrown = made = 0
        for seed in range(N_SCRIPTED):
            h = scripted_hand(name, seed)
            s0 += h.score[0]
            s1 += h.score[1]
            n_actions += len(h)
            bids += sum(1 for _, amount in h.bids() if amount is not None)
            if h.declarer is None:
                thrown += 1
            else:
                decl += h.points[h.declarer % 2]
                made += bool(h.made)
        lines.append(f"  {name:<{width}}  score0={s0}  score1={s1}  declarer_points={decl}  "
                     f"bids={bids}  made={made}  actions={n_actions}  thrown_in={thrown}")
    lines.append(f"random_hands(trump=R, seed={SEED}, first=0, n={N_HANDS}): "
                 "team points totals, crc32 of the int32 rows:")
    for name in PRESETS:
        t0, t1, crc = random_hands_figures(name)
        lines.append(f"  {name:<{width}}  team0={t0}  team1={t1}  crc32={crc:08x}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    text = compute(reference="--reference" in argv)
    if "--write" in argv:
        GOLDEN.write_text(text)
        print(f"wrote {GOLDEN}")
        return 0
    sys.stdout.write(text)
    if "--check" in argv:
        want = GOLDEN.read_text() if GOLDEN.exists() else ""
        if text != want:
            import difflib
            sys.stdout.writelines(difflib.unified_diff(
                want.splitlines(True), text.splitlines(True), str(GOLDEN), "now"))
            print("signature CHANGED (engine behaviour differs from bench/signature.txt)")
            return 1
        print("signature unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
