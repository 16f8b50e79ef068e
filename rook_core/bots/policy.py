"""Native policies: agents written as C functions (e.g. Numba ``@cfunc``) over an int64 view.

A native policy is a function ``int64 policy(int64 *view, int64 len)``
that returns an action of the integer space (:mod:`rook_core.actions`)
for the seat whose view it reads.  The view holds what the seat may know
(T-15), one int64 per slot; :data:`VIEW` names the slots (masks are stored
bit for bit: reinterpret them as ``uint64``).  ``VIEW.random`` holds 64
fresh random bits from the seat's seeded stream for every decision.

With Numba::

    from numba import cfunc, carray, types
    from rook_core.bots.policy import VIEW, NativePolicy

    @cfunc(types.int64(types.CPointer(types.int64), types.int64))
    def lowest(view_ptr, n):
        v = carray(view_ptr, n)
        ...
        return action

    simulate("tournament", [NativePolicy(lowest), "random", NativePolicy(lowest), "random"],
             hands=100_000, workers=2)

When every agent of a simulation is ``"random"``, ``"heuristic"`` or a
:class:`NativePolicy`, :func:`~rook_core.sim.simulate.simulate` plays the hands
or games in the native loop (``src/rook/sim.c``) on threads, without the
GIL; any other mix runs in Python, where :class:`NativePolicy` builds the very same
view (``rook_view_fill``) and calls the function through ctypes, so both
paths give the same rows.  A policy that returns an action the rules refuse
raises :class:`~rook_core.errors.IllegalActionError` naming the seat, the
action and the hand.

:func:`example_policy` compiles a small example (Numba): pass in the
bidding unless forced, discard and pass the lowest cards, name the longest
color, and play the strongest legal card when leading or winning is
possible, else the weakest.
"""

from __future__ import annotations

import ctypes
from collections import namedtuple
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .._native import VIEW_SLOTS, view_of
from ..errors import RookError
from ..rng import M64, NativeStream, check_agent_seed
from ..variant import Variant
from ._turns import TakesTurns

if TYPE_CHECKING:
    from ..hand import HandState

__all__ = ["VIEW", "NativePolicy", "example_policy"]

VIEW: Any = namedtuple("View", VIEW_SLOTS)(*range(len(VIEW_SLOTS)))
"""Slot numbers of the view: ``VIEW.hand``, ``VIEW.legal_cards``, ..."""

_PROTO = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.POINTER(ctypes.c_int64), ctypes.c_int64)


class NativePolicy:
    """A native policy given by a function address (``fn.address`` of a Numba
    ``@cfunc``, or an int).  ``name`` labels it in results.

    :raises RookError: when ``fn`` has no usable address.
    """

    def __init__(self, fn: Any, name: str | None = None) -> None:
        address = fn if isinstance(fn, int) and not isinstance(fn, bool) else getattr(fn, "address", None)
        if not isinstance(address, int) or address <= 0:
            raise RookError(f"a native policy needs a C function address (a Numba @cfunc), not {fn!r}")
        self.fn = fn           # keeps the compiled function alive
        self.address = address
        self.name: str = str(name or getattr(fn, "__name__", None) or getattr(
            getattr(fn, "_pyfunc", None), "__name__", "native"))
        self._call = _PROTO(address)

    def __repr__(self) -> str:
        return f"NativePolicy({self.name})"

    def agent(self, variant: Variant, seed: int = 0) -> NativePolicyAgent:
        """Return an agent that runs this policy from Python for one seat."""
        return NativePolicyAgent(self, variant, seed)


class NativePolicyAgent(TakesTurns):
    """Runs a :class:`NativePolicy` for one seat from Python: the seat's view
    is filled natively from the state and the random slot comes from the
    seat's stream, as in the native loop.  A copy owns its stream, and
    threads that share one take turns (:mod:`rook_core.bots._turns`).

    :raises RookError: for a ``seed`` that is no int."""

    _own = ("stream",)

    def __init__(self, policy: NativePolicy, variant: Variant, seed: int = 0) -> None:
        self.policy = policy
        self.name: str = policy.name
        self.variant = variant
        self.stream = NativeStream(check_agent_seed(seed) & M64)
        self._start_turns()

    def act(self, observation: Mapping[str, Any]) -> int:
        raise RookError("a native policy reads the seat's native view: call act_with_state(state)")

    def act_with_state(self, state: HandState) -> int:
        with self._turn:
            view = view_of(state, state.seat_to_move(), self.stream.next())
            ptr = view.ctypes.data_as(ctypes.POINTER(ctypes.c_int64))
            return int(self.policy._call(ptr, len(view)))


def example_policy() -> NativePolicy:
    """Compile and return the example policy of the module docstring (needs Numba)."""
    from .._kernels.example_policy import compile_example
    return NativePolicy(compile_example(), "example")
