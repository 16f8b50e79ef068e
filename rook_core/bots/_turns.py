"""What the agents with state share: copies that own that state, and
decisions that take turns between threads.

An agent whose decisions change it (a random stream, a plan, counts, a
solver's table) names those attributes in ``_own``.  A copy
(``copy.copy``, ``copy.deepcopy``, ``pickle``) is then an agent in the same
state that owns its own of each: from the same observations it makes the
same choices as the original would, and neither's decisions move the
other's stream.  Threads that share one agent take turns with it (its
``act`` holds a lock); which thread goes first is up to them, so for play
that repeats from a seed each thread needs an agent (or a copy) of its own.
"""

from __future__ import annotations

import copy
import threading
from typing import Any, ClassVar

__all__ = ["TakesTurns"]


class TakesTurns:
    """The base of the agents with state (see the module docstring)."""

    _own: ClassVar[tuple[str, ...]] = ()
    _turn: threading.RLock

    def _start_turns(self) -> None:
        self._turn = threading.RLock()

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("_turn", None)          # a lock neither pickles nor copies
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._turn = threading.RLock()

    def __copy__(self) -> Any:
        new = object.__new__(type(self))
        with self._turn:
            state = self.__getstate__()
            for name in self._own:
                state[name] = copy.deepcopy(state[name])
        new.__setstate__(state)
        return new
