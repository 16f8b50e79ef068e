"""A native batched environment: ``n`` tables stepping together in C.

:class:`VectorEnv` (``rook_core.rl.VectorEnv(preset, n, ...)``) keeps ``n``
tables of one preset, each with one learner seat (``seat``); the other seats
are native policies -- ``"random"``, ``"heuristic"`` or a
:class:`~rook_core.bots.policy.NativePolicy` (a Numba ``@cfunc``) -- played
inside the same C call without the GIL (``src/rook/venv.c``), so only the
learner's decisions come back to Python.  Observations, masks, rewards and
done flags are written into NumPy arrays the environment owns and hands
out (``obs``, ``mask``, ``reward``, ``done``, ``error``); :meth:`step`
overwrites them.

Episodes are hands.  A table whose hand ended in a step has ``done`` set and
its reward (the learner's team's score less the other's, times
``reward_scale``; 0 for a hand thrown in, T-6) and has already started its
next hand: its ``obs`` and ``mask`` are that hand's first decision
(auto-reset).  Table ``i`` is seeded ``seed + i``; its episode ``e`` is dealt
as unit ``e`` of a simulation with that seed (dealer ``e % 4``), and its
agents draw from the simulator's streams, so :func:`reset` with a seed
reproduces everything.  The observation is the tensor of
:mod:`rook_core.rl.encoding`, equal to what :func:`~rook_core.rl.encoding.encode`
gives for the same hand (tests/rl/test_vector.py).

Actions are integer ids (an array of any integer dtype).  An action a table
cannot take -- an id too large for 32 bits included -- leaves that table as
it was, with ``error`` the rules' code (and ``-1`` when a policy failed); the
other tables step on.

One call at a time: :meth:`reset` or :meth:`step` while another thread is in
one of them on the same environment raises :class:`~rook_core.errors.RookError`
(the tables and arrays are shared; give each thread its own environment).
The tables live in C, so an environment is neither copied nor pickled: build
another with the same options and ``reset`` it with the same seed.

>>> env = VectorEnv("tournament", 4, opponents="random")
>>> obs, mask = env.reset(seed=1)
>>> obs.shape, mask.shape
((4, 1056), (4, 193))
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from .._native import VectorCore, rules_for
from ..bots.policy import NativePolicy
from ..errors import RookError
from ..rng import M64
from ..sim.simulate import native_policies
from ..variant import Variant, as_variant
from .aec import MAX_REWARD_SCALE, check_int, check_number, check_seat, check_seed
from .encoding import OBS_SIZE, action_count

__all__ = ["VectorEnv"]

PolicySpec = str | NativePolicy


_CLOSED = "the environment is closed: build another"


class VectorEnv:
    """``n`` tables with one learner seat each (see the module docstring).

    :param variant: a trick-taking preset name or a :class:`Variant`.
    :param n: the number of tables.
    :param seat: the learner's seat, 0..3.
    :param opponents: one policy for the other three seats or three in seat
        order: ``"random"``, ``"heuristic"`` or a ``NativePolicy``.
    :param reward_scale: multiplies the rewards.
    :raises RookError: for a bad option; VariantError for an unknown preset.
    """

    def __init__(self, variant: Variant | str, n: int, *, seat: int = 0,
                 opponents: PolicySpec | Sequence[PolicySpec] = "random", reward_scale: float = 1.0) -> None:
        self.variant = as_variant(variant)
        n = check_int(n, "n", 1, 1 << 20)
        seat = check_seat(seat)
        reward_scale = check_number(reward_scale, "reward_scale", positive=True, top=MAX_REWARD_SCALE)
        specs: list[PolicySpec] = (list(opponents) if isinstance(opponents, (list, tuple, np.ndarray))
                                   else [cast(PolicySpec, opponents)] * 3)
        if len(specs) != 3:
            raise RookError(f"opponents: one policy or three (the other seats in order), not {len(specs)}")
        for p in specs:
            if p not in ("random", "heuristic") and not isinstance(p, NativePolicy):
                raise RookError(f"an opponent of the batched environment is 'random', 'heuristic' or a "
                                f"NativePolicy, not {p!r}")
        seats = list(specs)
        seats.insert(seat, "random")          # (the learner's entry is not used)
        self._opponents = seats               # (the tables call the native policies' code: keep it alive)
        self.n, self.seat = n, seat
        self.n_actions = action_count(self.variant)
        self._core: VectorCore | None = VectorCore(rules_for(self.variant), native_policies(self.variant, seats), seat,
                                self.variant.total_points, self.variant.target, self.n_actions,
                                float(reward_scale), n)
        self.obs = np.zeros((n, OBS_SIZE), dtype=np.float32)
        self.mask = np.zeros((n, self.n_actions), dtype=np.int8)
        self.reward = np.zeros(n, dtype=np.float32)
        self.done = np.zeros(n, dtype=np.uint8)
        self.error = np.zeros(n, dtype=np.int32)
        self._started = False
        self._busy = threading.Lock()

    def __reduce__(self) -> Any:
        raise TypeError("a VectorEnv is neither copied nor pickled (its tables live in C): build another with "
                        "the same options and reset it with the same seed")

    def _enter(self) -> VectorCore:
        """Take the environment for one call; return its tables (release ``_busy`` after)."""
        if not self._busy.acquire(blocking=False):
            raise RookError("the environment is in reset() or step() in another thread: one call at a time "
                            "(give each thread its own environment)")
        if self._core is None:
            self._busy.release()
            raise RookError(_CLOSED)
        return self._core

    def close(self) -> None:
        """Free the tables (their memory is in C); a closed environment refuses
        every call, and closing it again does nothing.

        :raises RookError: while another thread is in :meth:`reset` or :meth:`step`.
        """
        if self._core is None:
            return
        self._enter()
        try:
            self._core, self._started = None, False
        finally:
            self._busy.release()

    def reset(self, seed: int | None = 0) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        """Start every table (table ``i`` seeded ``seed + i``, modulo 2**64;
        ``seed=None`` draws a fresh seed); return ``(obs, mask)``.

        :raises RookError: for a seed that is not an int or None; when a
            native policy's action was refused (then :meth:`step` waits for
            another reset); while another thread is in :meth:`reset` or :meth:`step`.
        """
        seed = check_seed(seed)
        if seed is None:
            seed = random.SystemRandom().getrandbits(64)
        seeds = np.arange(self.n, dtype=np.uint64) + np.uint64(seed & M64)
        core = self._enter()
        try:
            self._started = False
            failed = core.start(seeds, self.obs, self.mask)
            if failed:
                raise RookError(f"a native policy's action was refused at the start of tables {failed[:8]}")
            self.reward[:] = 0
            self.done[:] = 0
            self.error[:] = 0
            self._started = True
        finally:
            self._busy.release()
        return self.obs, self.mask

    def step(self, actions: Any) -> tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any]]:
        """Play one learner action per table (``n`` ints); return ``(obs, mask, reward, done)``
        (``error`` holds each table's refusal code, 0 when none).

        An id outside the action space (even one too large for 32 bits) is
        refused on its table like any other action the table cannot take.

        :raises RookError: before :meth:`reset`, for an array of the wrong
            shape or of anything but integers, or while another thread is in
            :meth:`reset` or :meth:`step`.
        """
        if not self._started:
            raise RookError(_CLOSED if self._core is None else "call reset() before step()")
        given = np.asarray(actions)
        if given.shape != (self.n,):
            raise RookError(f"step takes one action per table: shape ({self.n},), not {given.shape}")
        if given.dtype.kind not in "iu":
            raise RookError(f"step takes integer action ids, not an array of {given.dtype}")
        # (an id beyond 32 bits -> -1, which the rules refuse, rather than wrapped into a legal one)
        a = np.where((given >= 0) & (given <= np.iinfo(np.int32).max), given, -1).astype(np.int32)
        core = self._enter()
        try:
            core.step(a, self.obs, self.mask, self.reward, self.done, self.error)
        finally:
            self._busy.release()
        return self.obs, self.mask, self.reward, self.done

    def episode(self, i: int) -> int:
        """The episode (0-based) table ``i`` plays now.

        :raises RookError: before :meth:`reset`, or for a table not in ``0 .. n-1``.
        """
        return self._live().episode(self._table(i))

    def hand_mask(self, i: int, seat: int) -> int:
        """The cards ``seat`` holds at table ``i``."""
        return self._live().hand_mask(self._table(i), check_seat(seat))

    def _live(self) -> VectorCore:
        if self._core is None:
            raise RookError(_CLOSED)
        return self._core

    def _table(self, i: object) -> int:
        self._live()
        if not self._started:
            raise RookError("call reset() before reading the tables")
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)) or not 0 <= i < self.n:
            raise RookError(f"table {i!r} is not one of 0..{self.n - 1}")
        return int(i)
