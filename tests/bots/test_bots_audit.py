"""The built-in bots as a demanding caller uses them: observations built by
another program (legal actions, numbers and seats that cannot be so),
copies and pickles of a bot, one bot shared by threads, and settings at
their extremes.  Each call is answered with a legal action or refused with
a RookError naming what is wrong."""

from __future__ import annotations

import copy
import pickle
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from rook_core import HandState
from rook_core.actions import BID, TRUMP
from rook_core.bots import pimc as pimc_module
from rook_core.bots.agents import RandomAgent, make_agent
from rook_core.bots.heuristic import HeuristicAgent
from rook_core.bots.pimc import DDAgent, PIMCAgent
from rook_core.cards import card_name
from rook_core.errors import RookError
from rook_core.variant import get_preset

V = get_preset("tournament")
KINDS = ["random", "heuristic", "pimc", "modelbid"]
COPIES: list[Callable[[Any], Any]] = [copy.copy, copy.deepcopy, lambda a: pickle.loads(pickle.dumps(a))]


def bot(kind: str, seed: int = 1) -> Any:
    return make_agent(kind, V, seed, **({"worlds": 2, "node_budget": 20_000} if kind == "pimc" else {}))


def played(cards: int, seed: int = 1) -> HandState:
    """A tournament hand played by the heuristic up to ``cards`` cards into its play."""
    h = HandState.deal(V, seed=seed)
    heuristic = HeuristicAgent(V)
    while h.phase != "play" or cards > 0:
        cards -= h.phase == "play"
        h.apply(heuristic.act(h.observe(h.seat_to_move())))
    return h


H = played(20)
TO = H.seat_to_move()
OBS = H.observation(TO)


def changed(**fields: Any) -> dict[str, Any]:
    return dict(OBS, **fields)


# ------------------------------------------------------------ observations

def not_in_hand() -> list[int]:
    hand = H.hand_mask(TO)
    return [c for c in range(64) if V.deck_mask >> c & 1 and not hand >> c & 1 and c not in H.legal_actions()][:2]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("legal", "words"), [
    ([10**6], "ints of the action space"), ([-1, -2], "ints of the action space"),
    ([1.5], "ints of the action space"), ([True], "ints of the action space"),
    ([float("inf")], "ints of the action space"), ([float("nan")], "ints of the action space"),
    (["R14"], "ints of the action space"), ("12", "a list of ints"), (5, "a list of ints"),
    ({"a": 1}, "a list of ints"), (None, "lists no legal action"),
    ("not in hand", "cannot be a legal action of phase 'play'"),
    ([BID + 70, TRUMP], "cannot be a legal action of phase 'play'"),
])
def test_T8_T15_a_bot_refuses_legal_actions_that_cannot_be_legal(kind: str, legal: Any, words: str) -> None:
    """A bot trusted the observation's legal actions: 10**6, 1.5 (as 1), True,
    "12" (as 1 or 2), cards not in the hand or a bid in the play came back
    as its action, silently; -1 raised a bare ValueError, inf OverflowError."""
    if legal == "not in hand":
        legal = not_in_hand()
    with pytest.raises(RookError, match=words):
        bot(kind).act(changed(legal_actions=legal))


def test_T15_legal_actions_may_be_any_collection_of_ints() -> None:
    legal = OBS["legal_actions"]
    for kind in KINDS:
        assert bot(kind).act(changed(legal_actions=tuple(legal))) in legal
        assert bot(kind).act(changed(legal_actions=iter(legal))) in legal


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("field", ["high_bid", "dealer", "points", "tricks_won", "score"])
def test_T15_a_bot_refuses_an_infinite_number_by_name(kind: str, field: str) -> None:
    """An infinite number raised a bare OverflowError (int(inf)) from inside the bot."""
    inf = float("inf")
    value = [inf, 0] if isinstance(OBS.get(field), list) or field == "score" else inf
    with pytest.raises(RookError, match="not an observation|holds inf"):
        bot(kind).act(changed(**{field: value}))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("fields", "words"), [
    ({"seat": (TO + 1) % 4}, f"for seat {(TO + 1) % 4}, but seat {TO} is to move"),
    ({"to_move": (TO + 1) % 4}, f"for seat {TO}, but seat {(TO + 1) % 4} is to move"),
    ({"to_move": None}, "seat None is to move"),
    ({"trump": None}, "the play with no trump named"),
    ({"declarer": None}, "phase 'play' with no declarer"),
    ({"phase": "bid"}, "cannot be a legal action of phase 'bid'"),
    ({"phase": "done"}, "after the hand"),
    ({"phase": None}, "not an observation of a trick-taking hand"),
    ({"hand": []}, "cannot be a legal action of phase 'play'"),
])
def test_T7_T15_a_bot_refuses_a_view_no_seat_to_move_can_be_shown(kind: str, fields: dict[str, Any],
                                                                   words: str) -> None:
    """A view whose seat is not the seat to move, of a hand that is over, with
    no trump or declarer in the play, or whose legal cards are not in its hand
    was answered (a card the seat does not hold), or raised a bare
    AssertionError, KeyError, IndexError or TypeError."""
    with pytest.raises(RookError, match=words):
        bot(kind).act(changed(**fields))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("field", ["phase", "trump", "seat", "hand", "to_move"])
def test_T15_a_bot_refuses_a_view_with_a_field_missing(kind: str, field: str) -> None:
    """Without 'phase' PIMC raised KeyError; without 'trump' the bots raised AssertionError."""
    obs = dict(OBS)
    del obs[field]
    with pytest.raises(RookError):
        bot(kind).act(obs)


def voided() -> tuple[HandState, int, int]:
    """A hand in its play, a seat not to move that has shown it lacks a suit, and an unseen card of that suit."""
    for seed in range(1, 60):
        for cards in range(8, 30):
            h = played(cards, seed)
            o = h.observe(h.seat_to_move())
            for s in range(4):
                mine = h.hand_mask(s)
                if s != o.seat and o.voids[s] & ~mine & ~h.hand_mask(o.seat) and not o.trick:
                    lacked = o.voids[s] & h.variant.deck_mask & ~sum(1 << c for t in o.tricks for _, c in t.cards)
                    lacked &= ~h.hand_mask(o.seat)
                    if lacked:
                        return h, s, (lacked & -lacked).bit_length() - 1
    raise AssertionError("no void shown")


@pytest.mark.parametrize("kind", KINDS)
def test_T9_T10_a_bot_refuses_a_view_that_contradicts_a_void(kind: str) -> None:
    """A seat that had shown it lacks a suit and later plays a card of it, or
    the seat to move holding a card of a suit it showed it lacks, was taken."""
    h, s, card = voided()
    o = h.observation(h.seat_to_move())
    later = dict(o, trick=[[s, card_name(card)]], to_move=o["seat"], legal_actions=o["legal_actions"])
    with pytest.raises(RookError, match=f"seat {s} played {card_name(card)} in a suit it had shown it lacks"):
        bot(kind).act(later)
    mine = played(20, 1)
    mo = mine.observe(mine.seat_to_move())
    if mo.voids[mo.seat]:
        lacked = mo.voids[mo.seat] & V.deck_mask & ~mine.hand_mask(mo.seat)
        lacked &= ~sum(1 << c for t in mo.tricks for _, c in t.cards)
        if lacked:
            extra = (lacked & -lacked).bit_length() - 1
            obs = dict(mine.observation(mo.seat), hand=list(mine.observation(mo.seat)["hand"]) + [card_name(extra)])
            with pytest.raises(RookError, match="of a suit it had shown it lacks"):
                bot(kind).act(obs)


def test_T20_discard_for_refuses_a_trump_that_is_no_color() -> None:
    h = HandState.deal(V, seed=1)
    heuristic = HeuristicAgent(V)
    while h.phase != "nest":
        h.apply(heuristic.act(h.observe(h.seat_to_move())))
    o = h.observe(h.seat_to_move())
    for bad in (7, -1, None, 1.5):
        with pytest.raises(RookError, match="trump must be a color 0..3"):
            heuristic.discard_for(o, bad)   # type: ignore[arg-type]
    assert heuristic.discard_for(o, 1) in h.legal_actions()


# ------------------------------------------------------------ copies and threads

def choices(agent: Any, n: int = 3) -> list[int]:
    """``agent``'s actions for the first ``n`` card decisions of a fixed hand (each from the same states)."""
    out = []
    for cards in (12, 13, 14)[:n]:
        h = played(cards, 2)
        out.append(agent.act(h.observe(h.seat_to_move())))
    return out


@pytest.mark.parametrize("cls", [RandomAgent, PIMCAgent])
@pytest.mark.parametrize("how", COPIES)
def test_a_copy_of_a_seeded_bot_goes_on_with_its_own_stream(cls: Any, how: Callable[[Any], Any]) -> None:
    """copy.copy of a random or PIMC bot shared its generator with the
    original: each one's draws moved the other's, so the two played neither
    the original's stream nor the same cards as each other."""
    kw = {"worlds": 3, "node_budget": 20_000} if cls is PIMCAgent else {}
    original = cls(V, 5, **kw)
    choices(original, 1)
    expected = choices(copy.deepcopy(original))
    twin = how(original)
    assert choices(twin) == expected       # the copy goes on where the original was
    assert choices(original) == expected   # and its draws did not move the original's stream
    if cls is PIMCAgent:
        assert twin.stats is not original.stats and twin.stats == original.stats


def test_a_copy_of_the_dd_bot_has_a_solver_of_its_own_and_plays_alike() -> None:
    """copy.copy of a dd bot shared its solver (and its table) with the original."""
    dd = DDAgent(V, node_budget=50_000)
    for how in COPIES:
        twin = how(dd)
        assert twin.solver is not dd.solver
        assert twin.act_with_state(H) == dd.act_with_state(H)


def on_threads(work: Callable[[], list[int]], n: int) -> list[int]:
    """What ``work()`` returns on each of ``n`` threads started together, joined
    (an error in a thread is raised here)."""
    with ThreadPoolExecutor(n) as pool:
        return [x for f in [pool.submit(work) for _ in range(n)] for x in f.result()]


def test_threads_that_share_a_pimc_bot_take_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two threads in one PIMC bot searched at once, sharing its generator,
    its counts and its plan (a plan made for one hand could be read for
    another); now they take turns, and every decision is counted."""
    inside, most = [0], [0]
    real = pimc_module.solve_many

    def slow(*args: Any, **kwargs: Any) -> Any:
        inside[0] += 1
        most[0] = max(most[0], inside[0])
        time.sleep(0.02)
        try:
            return real(*args, **kwargs)
        finally:
            inside[0] -= 1

    monkeypatch.setattr(pimc_module, "solve_many", slow)
    agent = PIMCAgent(V, 1, worlds=2, node_budget=20_000)
    obs = H.observe(TO)
    answers = on_threads(lambda: [agent.act(obs) for _ in range(3)], 4)
    assert most[0] == 1
    assert agent.stats["decisions"] == 12 and set(answers) <= set(H.legal_actions())


def test_threads_that_share_a_random_bot_draw_its_stream_once_each() -> None:
    """The draws of threads sharing a random bot are, together, the stream's draws."""
    shared, alone = RandomAgent(V, 9), RandomAgent(V, 9)
    obs = played(0).observe(played(0).seat_to_move())
    got = on_threads(lambda: [shared.act(obs) for _ in range(200)], 4)
    assert sorted(got) == sorted(alone.act(obs) for _ in range(800))
    assert shared.act(obs) == alone.act(obs)


# ------------------------------------------------------------ settings at their extremes

@pytest.mark.parametrize("options", [
    {"worlds": 1}, {"node_budget": 1}, {"time_budget": 1e-9}, {"decision_time": 1e-9},
    {"tolerance": 10**30}, {"tt_bytes": 1}, {"bid_signal": 1e-300}, {"playout_fallback": True, "node_budget": 1},
    {"nest": "worlds", "nest_budget": 1, "nest_worlds": 1},
])
def test_T8_pimc_at_the_extremes_of_its_settings_plays_a_legal_card(options: dict[str, Any]) -> None:
    for h in (played(0), played(20)):
        agent = PIMCAgent(V, 1, **{"worlds": 2, **options})
        assert agent.act(h.observe(h.seat_to_move())) in h.legal_actions()


def test_a_copy_of_a_native_policy_agent_owns_its_stream_and_its_seed_is_an_int() -> None:
    """copy.copy of a native policy's agent shared the stream its random slot
    comes from; a seed of 1.5 or "7" was masked or raised a bare TypeError."""
    pytest.importorskip("numba")
    from rook_core.bots.policy import example_policy

    agent = example_policy().agent(V, 5)
    twin = copy.copy(agent)
    assert twin.stream is not agent.stream
    expected = copy.deepcopy(agent.stream).next()
    twin.act_with_state(H)                    # draws from the twin's stream only
    assert agent.stream.next() == expected
    for seed in (1.5, "7", True, None):
        with pytest.raises(RookError, match="seed"):
            example_policy().agent(V, seed)  # type: ignore[arg-type]
