"""What a seat knows (rook_core.bots.knowledge) and the worlds drawn from it (rook_core.bots.worlds).

The central property: every world drawn for a seat could be the true deal.
Put the world's cards back with the cards each seat played, and the whole
play so far must be legal in it (T-9, T-10), card for card; passed cards
(T-22) and the declarer's discards (T-20, T-21) stay where the seat knows
them to be; the sizes fit (T-2, T-8).
"""

from __future__ import annotations

import random

import pytest

from rook_core import HandState
from rook_core._native.rules import rules_for
from rook_core.bots.agents import make_agent
from rook_core.bots.knowledge import NEST, Knowledge
from rook_core.bots.worlds import sample_world, world_positions
from rook_core.cards import iter_bits, parse_card
from rook_core.errors import RookError
from rook_core.variant import PRESETS

TRICK_PRESETS = sorted(PRESETS)


def _random_play_state(preset: str, seed: int) -> HandState:
    """Bid with heuristic bots, then play random cards to a random point of the play."""
    rng = random.Random(seed)
    h = HandState.deal(preset, seed)
    bots = [make_agent("heuristic", h.variant, seed * 4 + s) for s in range(4)]
    while h.phase.label not in ("play", "done", "thrown_in"):
        s = h.to_move
        h.apply(bots[s].act(h.observation(s)))
    if h.phase.label != "play":
        return h
    stop = rng.randrange(h.variant.hand_size * 4)
    for _ in range(stop):
        h.apply(rng.choice(h.legal_actions()))
    return h


def _states(n: int) -> list[tuple[str, int, HandState]]:
    out = []
    for i in range(n):
        preset = TRICK_PRESETS[i % len(TRICK_PRESETS)]
        h = _random_play_state(preset, 1000 + i)
        if h.phase.label == "play":
            out.append((preset, i, h))
    return out


STATES = _states(120)


def _replay_is_legal(h: HandState, world: dict, seat: int) -> None:
    """Assert that the play so far is legal had the hands been ``world`` plus the cards played."""
    rules = rules_for(h.variant)
    obs = h.observation(seat)
    tricks = [[(s, int(parse_card(c))) for s, c in t["cards"]] for t in obs["tricks"]]
    if obs["trick"]:
        tricks.append([(s, int(parse_card(c))) for s, c in obs["trick"]])
    held = {s: world[s] for s in range(4)}
    for cards in tricks:
        for s, c in cards:
            held[s] |= 1 << c
    for cards in tricks:
        led = cards[0][1]
        for i, (s, c) in enumerate(cards):
            legal = held[s] if i == 0 else rules.legal_mask(held[s], led, h.trump)
            assert legal >> c & 1, f"seat {s} could not have played card {c} in this world"
            held[s] &= ~(1 << c)


@pytest.mark.parametrize("preset,i,h", STATES, ids=[f"{p}-{i}" for p, i, _ in STATES])
def test_T9_T20_T22_every_world_could_be_the_deal(preset: str, i: int, h: HandState) -> None:
    seat = h.to_move
    k = Knowledge.from_observation(h.observation(seat))
    rng = random.Random(i)
    v = h.variant
    for _ in range(5):
        w = sample_world(k, rng)
        # the seat's own cards, and every card exactly once
        assert w[seat] == h.hand_mask(seat)
        seen = 0
        for _holder, m in w.items():
            assert not m & seen, "a card in two places"
            seen |= m
        assert seen | h.played.mask == v.deck_mask
        assert not seen & h.played.mask
        # sizes (T-2, T-8)
        for s in range(4):
            assert w[s].bit_count() == h.hand_mask(s).bit_count()
        if v.nest_size:
            assert w[NEST].bit_count() == v.nest_size
        # what the seat knows for sure stays put
        if seat == h.declarer and v.nest_size:
            assert w[NEST] == h.nest.mask                     # T-20, T-21: its own discards
        passed = h.passing(seat).mask & ~h.played.mask
        if passed:
            assert passed & ~w[(seat - 1) % 4] == 0           # T-22: passed to the right
        _replay_is_legal(h, w, seat)


@pytest.mark.parametrize("preset,i,h", STATES[:60], ids=[f"{p}-{i}" for p, i, _ in STATES[:60]])
def test_T9_T10_inferred_voids_hold_in_the_true_deal(preset: str, i: int, h: HandState) -> None:
    for seat in range(4):
        k = Knowledge.from_observation(h.observation(seat))
        for s in range(4):
            assert not k.lacks[s] & h.hand_mask(s), f"seat {s} holds a card seat {seat} thinks it lacks"


def test_worlds_are_uniform_when_only_sizes_are_known() -> None:
    """At the first lead nothing but sizes is known: each unseen card goes to each
    holder in proportion to the holder's size (within 5 standard deviations)."""
    h = HandState.deal("tournament", 5)
    bots = [make_agent("heuristic", h.variant, s) for s in range(4)]
    while h.phase.label != "play":
        s = h.to_move
        h.apply(bots[s].act(h.observation(s)))
    seat = h.to_move
    if seat == h.declarer:
        pytest.skip("the leader is never the declarer (T-8)")
    k = Knowledge.from_observation(h.observation(seat))
    sizes = k.hidden_sizes()
    total = sum(sizes.values())
    rng = random.Random(0)
    n = 2000
    card = next(iter_bits(k.unseen))
    hits = {holder: 0 for holder in sizes}
    for _ in range(n):
        w = sample_world(k, rng)
        for holder in sizes:
            if w[holder] >> card & 1:
                hits[holder] += 1
    for holder, size in sizes.items():
        p = size / total
        sd = (n * p * (1 - p)) ** 0.5
        assert abs(hits[holder] - n * p) < 5 * sd, (holder, hits)


def test_world_positions_fit_the_solver_and_need_the_play_phase() -> None:
    from rook_core.solver import Solver
    preset, i, h = STATES[0]
    obs = h.observation(h.to_move)
    positions = world_positions(obs, 3, random.Random(1))
    solver = Solver(1 << 20)
    for p in positions:
        assert p.to_move == h.to_move
        assert set(solver.solve(p).move_values) == set(h.legal_cards())
    bid = HandState.deal("tournament", 1)
    with pytest.raises(RookError, match="play phase"):
        world_positions(bid.observation(1), 1, random.Random(0))


def test_knowledge_refuses_a_foreign_object() -> None:
    with pytest.raises(RookError, match="observation"):
        Knowledge.from_observation({"seat": 0})
