"""The learning environments under careless use: seeds past the 64-bit range,
opponents that fail, calls from two threads, copies and pickles, reads
before reset, masks too narrow for the variant's actions."""

from __future__ import annotations

import copy
import ctypes
import gc
import pickle
import threading
import weakref
from typing import Any

import numpy as np
import pytest

from rook_core import HandState, IllegalActionError, RookError
from rook_core.actions import BID, PASS, TRUMP
from rook_core.bots.outside import configured_bot
from rook_core.bots.policy import VIEW, NativePolicy
from rook_core.rl import RookGymEnv, VectorEnv, aec_env
from rook_core.rl.encoding import OBS_SIZE, action_count, action_mask, encode_state, state_mask

_PROTO = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.POINTER(ctypes.c_int64), ctypes.c_int64)


def _lowest_legal(view: Any) -> int:
    """A legal action from a seat's native view: pass when it may (T-4), the
    lowest bid when it must, the first color as trump, the lowest legal card."""
    phase = view[VIEW.phase]
    if phase == 0:
        return PASS if view[VIEW.can_pass] else BID + view[VIEW.min_bid]
    if phase == 2:
        return TRUMP
    legal = view[VIEW.legal_cards] & (2**64 - 1)
    return (legal & -legal).bit_length() - 1


class _Compiled:
    """A compiled policy that owns its code, as a Numba @cfunc does: freed, its address is gone."""

    def __init__(self, choose: Any = _lowest_legal) -> None:
        self._code = _PROTO(lambda p, n: choose(p))
        self.address = ctypes.cast(self._code, ctypes.c_void_p).value


def _first_legal(mask: np.ndarray) -> np.ndarray:
    return mask.argmax(axis=1)


# ------------------------------------------------------------------ seeds
@pytest.mark.parametrize("seed", [-(2**63) - 1, -(2**64), -(2**64) - 5, -(2**100)])
@pytest.mark.parametrize("make", ["aec", "gym", "vector"])
def test_a_seed_below_minus_2_63_is_refused_not_wrapped_onto_another_seed(make: str, seed: int) -> None:
    """A negative seed counts as its 64-bit two's complement (docs/rl.md); one
    below -2**63 has none and used to alias another seed (-2**64 dealt seed 0's hands)."""
    env: Any = {"aec": lambda: aec_env("tournament"), "gym": lambda: RookGymEnv("tournament", opponents="random"),
                "vector": lambda: VectorEnv("tournament", 2)}[make]()
    reset = env.reset if make == "vector" else lambda s: env.reset(seed=s)
    with pytest.raises(RookError, match="seed"):
        reset(seed)
    reset(-(2**63))                     # the lowest seed there is still deals
    reset(np.int64(-(2**63)))


# ---------------------------------------------------------- reset options
_BAD_OPTIONS = [({"dealer": 2}, "unknown option.*'dealer'"), ({"seed": 1, "x": 0}, "unknown option.*'seed', 'x'"),
                ([("dealer", 2)], "must be a dict or None, not list"), ("dealer", "must be a dict or None, not str"),
                (0, "must be a dict or None, not int")]


def _aec_played(seed: int = 5, k: int = 3) -> Any:
    env = aec_env("tournament")
    env.reset(seed=seed)
    for _ in range(k):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    return env


@pytest.mark.parametrize("options,words", _BAD_OPTIONS[2:])
def test_aec_reset_refuses_options_that_are_not_a_dict_by_type_and_changes_nothing(options: object,
                                                                                    words: str) -> None:
    """reset(options=...) used to drop the options silently; now anything not
    a dict is refused by name before the seed or the episode is touched."""
    env, twin = _aec_played(), _aec_played()
    before = env.hand.clone()
    with pytest.raises(RookError, match=words):
        env.reset(seed=99, options=options)
    assert env.hand == before and env.agent_selection == twin.agent_selection and env.agents == twin.agents
    assert env._rng.getstate() == twin._rng.getstate() and env._cumulative_rewards == twin._cumulative_rewards
    for e in (env, twin):                    # the episode under way plays on, then the generator deals the same
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
        e.reset()
    assert env.hand == twin.hand


@pytest.mark.parametrize("options,words", _BAD_OPTIONS[:2] + [({"options": 1}, "unknown option.*'options'")])
def test_aec_reset_warns_of_the_keys_it_ignores_by_name(options: dict[str, Any], words: str) -> None:
    """PettingZoo's api_test resets with options={"options": 1}, so the AEC
    environment takes a dict with keys, as if it had none, and says which
    keys it ignored (it used to drop them without a word)."""
    env, plain = aec_env("tournament"), aec_env("tournament")
    with pytest.warns(UserWarning, match=words):
        env.reset(seed=7, options=options)
    plain.reset(seed=7)
    assert env.hand == plain.hand and env.agent_selection == plain.agent_selection


@pytest.mark.parametrize("options", [None, {}])
def test_aec_reset_takes_none_or_an_empty_dict_as_no_options(options: object) -> None:
    env, plain = aec_env("tournament"), aec_env("tournament")
    env.reset(seed=7, options=options)  # type: ignore[arg-type]
    plain.reset(seed=7)
    assert env.hand == plain.hand and env.agent_selection == plain.agent_selection


@pytest.mark.parametrize("options,words", _BAD_OPTIONS)
def test_gym_reset_refuses_options_it_does_not_take_by_name_and_changes_nothing(options: object, words: str) -> None:
    env, twin = (RookGymEnv("tournament", seat=1, opponents="random") for _ in range(2))
    _, info = _stepped(env, 2)
    _stepped(twin, 2)
    before, np_state = env.hand.clone(), env.np_random.bit_generator.state
    with pytest.raises(RookError, match=words):
        env.reset(seed=99, options=options)  # type: ignore[arg-type]
    assert env.hand == before and env.np_random.bit_generator.state == np_state
    a = int(np.flatnonzero(info["action_mask"])[0])
    got, want = env.step(a), twin.step(a)    # the episode under way plays on as its twin's
    assert np.array_equal(got[0], want[0]) and got[1:4] == want[1:4]
    assert np.array_equal(env.reset()[0], twin.reset()[0]) and env.hand == twin.hand


def test_gym_reset_through_gymnasium_make_takes_empty_options_and_refuses_a_key() -> None:
    import gymnasium
    env = gymnasium.make("rook_core/Tournament-v0", opponents="random")
    plain = RookGymEnv("tournament", opponents="random")
    for options in (None, {}):
        obs, _ = env.reset(seed=4, options=options)
        assert np.array_equal(obs, plain.reset(seed=4)[0])
    with pytest.raises(RookError, match="unknown option.*'seat'"):
        env.reset(seed=4, options={"seat": 2})


# ------------------------------------------------------------- Gymnasium
def _stepped(env: RookGymEnv, k: int) -> tuple[np.ndarray, dict[str, Any]]:
    obs, info = env.reset(seed=3)
    for _ in range(k):
        obs, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not (term or trunc)
    return obs, info


@pytest.mark.parametrize("bad", [None, "64", 1.5, np.float32(64), True, np.array([64, 65]), [64]])
def test_something_not_an_action_id_is_refused_under_lose_too_and_changes_nothing(bad: object) -> None:
    """illegal_action="lose" ends the episode for an action the rules refuse;
    a value that is no action id at all is a caller's mistake: refused by name,
    the episode goes on (it used to end with illegal_reward)."""
    env = RookGymEnv("tournament", opponents="random")
    obs, info = _stepped(env, 2)
    before = env.hand.clone()
    with pytest.raises(IllegalActionError, match="action id"):
        env.step(bad)
    assert env.hand == before
    env.step(int(np.flatnonzero(info["action_mask"])[0]))


@pytest.mark.parametrize("kind", ["illegal", "raises"])
def test_an_opponent_that_fails_ends_the_episode_by_its_seat_and_the_learner_is_not_charged(kind: str) -> None:
    """An opponent's refused action (or its bot's exception) used to leave its
    seat to move, so the learner's next action was 'not your turn' and cost it
    illegal_reward; now the step raises RookError naming the seat, and the
    episode is over."""
    armed = [False]

    def bot(observation: dict[str, Any]) -> Any:
        if not armed[0]:
            return observation["legal_actions"][0]
        if kind == "illegal":
            return 9999
        raise KeyError("the bot's own bug")

    env = RookGymEnv("tournament", seat=0, opponents=[bot, "random", "random"])
    obs, info = env.reset(seed=1)
    armed[0] = True
    with pytest.raises(RookError, match="opponent at seat 1") as caught:
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert not isinstance(caught.value, IllegalActionError)      # not the learner's action refused
    with pytest.raises(RookError, match="reset"):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    armed[0] = False
    env.reset(seed=1)                                             # and a new episode starts as usual


def _module_bot(observation: dict[str, Any]) -> int:
    return int(observation["legal_actions"][-1])


def test_a_gym_env_pickles_and_deep_copies_and_the_copy_plays_on_alone() -> None:
    """Bot kinds, BotFactory objects and module functions pickle, so the
    environment does (its makers were lambdas), and the copy plays the same."""
    env = RookGymEnv("crowsnest", seat=2, opponents=["heuristic", configured_bot("random"), _module_bot])
    _stepped(env, 2)
    for again in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert again.hand == env.hand and again.hand is not env.hand
        ours, theirs = env.hand.clone(), again
        a = int(np.flatnonzero(again._observe()[1]["action_mask"])[0])
        got = theirs.step(a)
        assert env.hand == ours                                   # the original did not move
        want = copy.deepcopy(env).step(a)
        assert np.array_equal(got[0], want[0]) and got[1:4] == want[1:4]


# ------------------------------------------------------ the batched env
def test_reading_a_table_before_reset_is_refused_not_uninitialised_memory() -> None:
    env = VectorEnv("tournament", 300)
    for call in (lambda: env.episode(0), lambda: env.hand_mask(299, 1)):
        with pytest.raises(RookError, match="reset"):
            call()
    env.reset(seed=2)
    assert env.episode(299) == 0 and env.hand_mask(0, 0).bit_count() > 0


@pytest.mark.parametrize("how", [copy.copy, copy.deepcopy, pickle.dumps])
def test_a_vector_env_refuses_copies_and_pickles_by_name(how: Any) -> None:
    """Its tables live in C: a shallow copy would step the same tables, and
    a deep copy or pickle failed inside Cython."""
    env = VectorEnv("tournament", 2)
    env.reset(seed=1)
    with pytest.raises(TypeError, match="VectorEnv is neither copied nor pickled"):
        how(env)


def test_a_native_policy_lives_as_long_as_the_env_that_calls_it() -> None:
    """The env kept only the policy's address: with its NativePolicy dropped,
    the compiled code was freed while the tables still called it (a crash)."""
    code = _Compiled()
    alive = weakref.ref(code)
    env = VectorEnv("tournament", 4, opponents=NativePolicy(code))
    del code
    gc.collect()
    assert alive() is not None
    _, mask = env.reset(seed=4)
    for _ in range(40):
        _, mask, _, _ = env.step(_first_legal(mask))
        assert not env.error.any()


def test_step_or_reset_while_another_thread_steps_the_same_env_is_refused_by_name() -> None:
    """Two threads stepping one env raced on its tables (wrong masks, refused
    actions, tables stuck); the second call is now refused and the first
    finishes as if alone.  The first thread is held inside a policy's turn."""
    inside, go, first = threading.Event(), threading.Event(), [True]

    def hold(view: Any) -> int:
        if armed[0] and first[0]:
            first[0] = False
            inside.set()
            go.wait(60)
        return _lowest_legal(view)

    armed = [False]
    code = _Compiled(hold)
    env = VectorEnv("tournament", 4, opponents=NativePolicy(code))
    _, mask = env.reset(seed=6)
    actions = _first_legal(mask)
    armed[0] = True
    stepper = threading.Thread(target=env.step, args=(actions,))
    stepper.start()
    try:
        assert inside.wait(60)
        for call in (lambda: env.step(actions), lambda: env.reset(seed=6)):
            with pytest.raises(RookError, match="another thread"):
                call()
    finally:
        go.set()
        stepper.join(60)
    assert not env.error.any()
    alone = VectorEnv("tournament", 4, opponents=NativePolicy(_Compiled()))
    alone.reset(seed=6)
    alone.step(actions)
    assert np.array_equal(env.obs, alone.obs) and np.array_equal(env.mask, alone.mask)


def test_after_a_reset_a_policy_failed_in_step_waits_for_a_good_reset() -> None:
    """A reset whose native policy was refused leaves tables stopped mid-turn:
    step used to go on from the reset before it."""
    fail = [False]
    code = _Compiled(lambda view: 9999 if fail[0] else _lowest_legal(view))
    env = VectorEnv("tournament", 2, opponents=NativePolicy(code))
    _, mask = env.reset(seed=1)
    fail[0] = True
    with pytest.raises(RookError, match="refused at the start"):
        env.reset(seed=2)
    with pytest.raises(RookError, match="reset"):
        env.step(_first_legal(mask))
    fail[0] = False
    env.reset(seed=2)
    env.step(_first_legal(env.mask))


# ------------------------------------------------------------- encoding
@pytest.mark.parametrize("n", [0, 10, 64, 192, -1, 193.0, True, None, "193"])
def test_a_mask_narrower_than_the_variants_actions_is_refused_by_name(n: object) -> None:
    """action_mask raised IndexError from inside NumPy, and state_mask cut the
    mask silently (a seat to bid showed no legal action); T-3's bids up to the
    highest need action_count ids."""
    h = HandState.deal("tournament", seed=1)
    seat = h.to_move
    assert seat is not None
    for call in (lambda: action_mask(h.observe(seat), n), lambda: state_mask(h, seat, n)):  # type: ignore[arg-type]
        with pytest.raises(RookError, match="n_actions"):
            call()
    wide = action_count(h.variant) + 7
    assert np.array_equal(action_mask(h.observe(seat), np.int64(wide)), state_mask(h, seat, wide))


def test_a_mask_into_an_array_of_another_length_is_refused_by_name() -> None:
    h = HandState.deal("tournament", seed=1)
    seat = h.to_move
    assert seat is not None
    with pytest.raises(RookError, match="out"):
        action_mask(h.observe(seat), 193, out=np.zeros(5, np.int8))
    out = np.ones(193, np.int8)
    assert action_mask(h.observe(seat), 193, out=out) is out and out.sum() == len(h.legal_actions())


@pytest.mark.parametrize("scale", [1e38, 1e31, float("inf")])
def test_a_reward_scale_past_what_a_float32_reward_holds_is_refused(scale: float) -> None:
    """reward_scale=1e38 was taken and the rewards came out as +-inf."""
    from rook_core.rl.aec import MAX_REWARD_SCALE
    assert scale > MAX_REWARD_SCALE
    for make in (lambda: VectorEnv("tournament", 2, reward_scale=scale),
                 lambda: RookGymEnv("tournament", reward_scale=scale)):
        with pytest.raises(RookError, match="reward_scale must be a finite positive number"):
            make()
    VectorEnv("tournament", 2, reward_scale=MAX_REWARD_SCALE)


def test_a_vector_envs_opponents_may_be_a_numpy_array_of_names() -> None:
    """np.array(['random'] * 3) raised NumPy's 'truth value is ambiguous'."""
    env = VectorEnv("tournament", 2, opponents=np.array(["random", "heuristic", "random"]))
    same = VectorEnv("tournament", 2, opponents=["random", "heuristic", "random"])
    assert np.array_equal(env.reset(seed=3)[0], same.reset(seed=3)[0])


@pytest.mark.parametrize("out", [np.zeros(OBS_SIZE, dtype=np.float64), np.zeros(OBS_SIZE * 2, dtype=np.float32)[::2],
                                 np.zeros(OBS_SIZE + 1, dtype=np.float32), [0.0] * OBS_SIZE])
def test_encode_state_refuses_an_out_array_it_cannot_write_by_name(out: Any) -> None:
    """A float64 or strided ``out`` failed with Cython's buffer errors."""
    h = HandState.deal("tournament", seed=1)
    with pytest.raises(RookError, match="out must be a writable contiguous float32 array"):
        encode_state(h, 0, out=out)
    good = np.zeros(OBS_SIZE, dtype=np.float32)
    assert np.array_equal(encode_state(h, 0, out=good), encode_state(h, 0))


def test_a_closed_vector_env_refuses_every_call_by_name_and_closes_twice() -> None:
    """A VectorEnv had no close(): its C tables lived until the object went."""
    env = VectorEnv("tournament", 3)
    env.reset(seed=1)
    env.close()
    env.close()
    for call in (lambda: env.reset(seed=1), lambda: env.step([0, 0, 0]), lambda: env.episode(0),
                 lambda: env.hand_mask(0, 1)):
        with pytest.raises(RookError, match="the environment is closed"):
            call()
