"""Group 5: one ``apply`` + ``legal_actions`` from Python on a play-phase
``HandState`` (``tournament``), in nanoseconds per operation.

Two moments of a trick: ``follow`` (the second card of a trick; the next seat
must follow the led color) and ``complete`` (the fourth card: the trick is
resolved, points counted, and ``legal_actions`` lists the winner's whole
hand).  Each benchmarked call repeats the operation ``N_OPS`` times with
methods bound once, so the timer and the call of the benchmark harness are
amortised:

* ``apply+legal+undo``: ``apply(card); legal_actions(); undo()``;
* ``apply+undo``: the same without ``legal_actions`` (so legal_actions alone
  = the difference);
* ``undo``: ``undo()`` alone, ``N_OPS`` times on one state that was given
  ``N_OPS`` actions outside the timing (T-35 penalty actions, which any
  phase accepts; ``undo`` restores a snapshot whatever the action was), so
  it can be subtracted: apply+legal_actions = (apply+legal+undo) - undo.
  The loop overhead is in both and cancels too;
* baseline: the reference ``play_card(state, card)`` + ``.legal()``
  (it builds a new immutable state, so there is nothing to undo).  The
  interleaved ratio (``ledger.interleave``) alternates the reference with
  the whole ``apply+legal+undo`` loop, undo included, so it is a little
  lower than the ratio of the medians, which subtracts the undo.

The undo benchmark runs first, then per moment the reference,
``apply+undo`` and ``apply+legal+undo`` one after the other, so the medians
that are subtracted or divided are taken moments apart.  Every variant
asserts that the state is restored bit for bit and that the legal actions
equal the reference's.

Target: apply+legal_actions <= 1 us (printed, never asserted).
"""

from __future__ import annotations

import pytest
import rookbench as B

from rook_core._reference.tricks import RefPlay, card_points, play_card
from rook_core.actions import PENALTY
from rook_core.hand import HandState
from rook_core.position import Position

NAME = "tournament"
TRUMP = 2
N_OPS = 1_000
TARGET_NS = 1_000.0
KINDS = {"follow": 1, "complete": 3}  # cards already in the trick before the benchmarked one


def _states(kind: str) -> tuple[HandState, RefPlay, int]:
    """Return the native state, the equal reference state, and the card to apply."""
    v = B.get_preset(NAME)
    rng = B.rng_for("bench-apply", NAME, kind)
    hands, nest = B.deal_random(v, rng)
    pos = Position(v, TRUMP, 0, (), tuple(B.mask_of(h) for h in hands),  # type: ignore[arg-type]
                   card_points(v, nest))
    h = HandState.from_position(pos)
    ref = RefPlay(v, TRUMP, 0, [], [set(x) for x in hands], [0, 0], card_points(v, nest))
    for _ in range(KINDS[kind]):
        card = rng.choice(h.legal_actions())
        h.apply(card)
        ref = play_card(ref, card)
    card = h.legal_actions()[0]
    assert sorted(ref.legal()) == h.legal_actions()
    return h, ref, card


@pytest.mark.benchmark(group="5-apply-legal")
def test_undo_alone(benchmark, ledger):
    h, _, _ = _states("follow")
    c = h.clone()
    undo = c.undo

    def setup():
        # N_OPS actions on the one state (T-35 penalties: always accepted,
        # never change the phase), so that the timed loop undoes them on a
        # hot object exactly as the apply+legal+undo loop does.
        for _ in range(N_OPS):
            c.apply(PENALTY)
        return (), {}

    def run():
        for _ in range(N_OPS):
            undo()

    benchmark.pedantic(run, setup=setup, rounds=200, iterations=1, warmup_rounds=5)
    ledger.record("apply/undo", benchmark, N_OPS, "op")
    assert c == h, "undo must restore the state exactly"


def _reference_run(ref: RefPlay, card: int):
    def run():
        out = None
        for _ in range(N_OPS):
            out = play_card(ref, card).legal()
        return sorted(out)
    return run


WHATS = ("reference", "apply+undo", "apply+legal+undo")
CASES = [(kind, what) for kind in KINDS for what in WHATS]


@pytest.mark.benchmark(group="5-apply-legal")
@pytest.mark.parametrize(("kind", "what"), CASES, ids=[f"{k}-{w}" for k, w in CASES])
def test_apply_legal(benchmark, ledger, kind, what):
    h, ref, card = _states(kind)
    before = h.clone()
    apply, legal, undo = h.apply, h.legal_actions, h.undo
    if what == "reference":
        run = _reference_run(ref, card)
    elif what == "apply+undo":
        def run():
            for _ in range(N_OPS):
                apply(card)
                undo()
            return None
    else:
        def run():
            out = None
            for _ in range(N_OPS):
                apply(card)
                out = legal()
                undo()
            return out

    got = benchmark(run)
    m = ledger.record(f"apply/{kind}/{what}", benchmark, N_OPS, "op")
    assert h == before, "apply/undo must restore the state exactly"
    want = sorted(play_card(ref, card).legal())
    if got is not None:
        assert got == want
    if what != "apply+legal+undo":
        return
    u = ledger.get("apply/undo")
    au = ledger.get(f"apply/{kind}/apply+undo")
    if m is None or u is None:
        return
    net = ledger.derive(f"apply/{kind}/native", m.per_item - u.per_item, "op")
    ns = net.per_item * 1e9
    benchmark.extra_info["apply_legal_ns"] = ns
    benchmark.extra_info["undo_ns"] = u.per_item * 1e9
    title = f"5 apply+legal_actions ({kind}) vs reference play_card+legal"
    ledger.pair(title, f"apply/{kind}/native", f"apply/{kind}/reference", benchmark)
    ref_run = _reference_run(ref, card)
    ledger.interleave(title, run, ref_run, N_OPS, N_OPS, benchmark, pairs=15)
    parts = f"apply+legal+undo {m.per_item * 1e9:.0f} ns - undo {u.per_item * 1e9:.0f} ns"
    if au is not None:
        parts += (f"; apply alone ~{(au.per_item - u.per_item) * 1e9:.0f} ns, "
                  f"legal_actions alone ~{(m.per_item - au.per_item) * 1e9:.0f} ns")
    ledger.target(f"5 apply+legal_actions ({kind}): {ns:.0f} ns/op ({parts}); "
                  f"target <= {TARGET_NS:.0f} ns: {'MET' if ns <= TARGET_NS else 'NOT MET'}")
