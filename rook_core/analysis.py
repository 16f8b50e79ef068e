"""The answers of the analysis commands, one JSON object in, one out (FORMATS.md).

``rook legal``, ``rook perft``, ``rook solve``, ``rook analyse`` and ``rook contract``, the
service's ``/analysis/*`` routes and ``rook engine`` all answer through these,
so the three agree by construction.

>>> pos = {"preset": "tournament", "trump": "R", "leader": 0, "trick": ["B5"],
...        "hands": [["B6"], ["B7", "Rook"], ["B8", "R5"], ["B9", "G5"]]}
>>> legal_answer(pos), perft_answer(2)(pos)
({'to_move': 1, 'legal': ['B7', 'Rook']}, {'perft': [2, 2]})
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

from .errors import RookError

if TYPE_CHECKING:
    from .solver import Solver

__all__ = ["legal_answer", "perft_answer", "solve_answer", "review_answer", "contract_answer"]

Answer = Callable[[dict[str, Any]], dict[str, Any]]


def legal_answer(obj: dict[str, Any]) -> dict[str, Any]:
    """The legal cards of the seat to move of a FORMATS.md position (T-9, T-10)."""
    from .hand import HandState
    h = HandState.from_position(obj)
    return {"to_move": h.to_move, "legal": h.legal_cards().names()}


def perft_answer(depth: int, max_nodes: int | None = None, stop: Callable[[], object] | None = None) -> Answer:
    """The perft counts of a position to ``depth`` cards, making at most
    ``max_nodes`` nodes (None: :meth:`HandState.perft`'s bound, ``PERFT_MAX_NODES``),
    ended early once ``stop()`` answers true."""
    def answer(obj: dict[str, Any]) -> dict[str, Any]:
        from .hand import HandState
        h = HandState.from_position(obj)
        return {"perft": h.perft(depth, stop=stop) if max_nodes is None else h.perft(depth, max_nodes, stop)}
    return answer


def solve_answer(budget: int, time_budget: float, at_least: int | None = None,
                 with_solution: bool = False,
                 progress: Callable[[int, int, int], object] | None = None,
                 solver: Solver | None = None) -> Answer:
    """The double-dummy answer of a position, searched within the budgets (0: none);
    ``at_least`` adds whether team 0 takes at least that many points, and
    ``with_solution`` keeps the solver's result (key ``_solution``, with the
    position under ``_position``) for a caller that shows it.  With
    ``progress``, the value is searched anytime and each step's bounds are
    reported to it (``Solver.value``).  ``solver``: the solver to search
    with, one the caller keeps so as to stop it (its own budgets hold);
    None: a new one with these budgets.

    :raises RookError: for a ``solver`` that is no :class:`~rook_core.solver.Solver`."""
    from .solver import Solver
    if solver is None:
        solver = Solver(node_budget=budget, time_budget=time_budget)
    elif not isinstance(solver, Solver):
        raise RookError(f"solver must be a rook_core.solver.Solver or None, not {solver!r}")

    def answer(obj: dict[str, Any]) -> dict[str, Any]:
        from .position import parse_position
        pos = parse_position(obj)
        res = solver.solve(pos, anytime=progress is not None, progress=progress)
        out: dict[str, Any] = res.to_json(obj.get("id"))
        out.pop("id")
        if at_least is not None:
            out["at_least"] = {"target": at_least, "team0": solver.at_least(pos, at_least, 0)}
        if with_solution:
            out["_solution"], out["_position"] = res, pos
        return out
    return answer


def review_answer(budget: int, max_hands: int = 0,
                  searching: Callable[[Solver], AbstractContextManager[object]] | None = None) -> Answer:
    """The double-dummy review of the played hands of a hand, game or
    service-history document (``rook analyse``), each search within
    ``budget`` nodes (0: none); with ``max_hands``, a document of more
    played hands than that is refused before any search.  ``searching``:
    each hand's review runs inside ``searching(solver)``, a caller's
    context in which it may stop the solver from another thread
    (:meth:`Solver.stop`); the review then raises
    :class:`~rook_core.review.ReviewStopped` with the hands it finished.

    :raises RookError: for a ``max_hands`` that is no int >= 0 (0: any number)
        or a ``searching`` that is no function."""
    if isinstance(max_hands, bool) or not isinstance(max_hands, int) or max_hands < 0:
        raise RookError(f"max_hands must be an int >= 0 (0: any number of hands), not {max_hands!r}")
    if searching is not None and not callable(searching):
        raise RookError(f"searching must be a function of the solver or None, not {searching!r}")

    def answer(obj: dict[str, Any]) -> dict[str, Any]:
        from .review import ReviewStopped, played_hands, review_hand, review_table_bytes
        from .solver import SearchStopped, Solver
        hands = played_hands(obj)
        if max_hands and len(hands) > max_hands:
            raise RookError(f"the document has {len(hands)} played hands; a review takes at most {max_hands}")
        done: list[dict[str, Any]] = []
        for i, h in enumerate(hands):
            solver = Solver(review_table_bytes(h), node_budget=budget)
            try:
                with nullcontext() if searching is None else searching(solver):
                    done.append(review_hand(h, solver=solver).to_json())
            except SearchStopped:
                raise ReviewStopped(f"the review was stopped in hand {i + 1} of {len(hands)}; the hands "
                                    f"reviewed whole are in 'hands'", done) from None
        return {"hands": done}
    return answer


def contract_answer(obj: dict[str, Any]) -> dict[str, Any]:
    """Whether a FORMATS.md Toonerville hand meets its contract, its least deadwood
    and one best lay-down (TV-2, TV-4, TV-5, TV-7, TV-12)."""
    from .jsonio import check_id, read_object
    from .toonerville.contracts import contract_for
    from .toonerville.hand import MultiHand
    from .toonerville.solver import solve_contract
    data = read_object(obj, "Toonerville hand", ("id", "hand", "contract"), ("hand", "contract"))
    check_id(data.get("id"))
    if not isinstance(data["hand"], list):
        raise RookError(f"'hand' must be a list of cards, not {data['hand']!r}")
    res = solve_contract(MultiHand.parse(data["hand"]), contract_for(data["contract"]))
    return {"can_meet": res.can_meet, "deadwood": res.deadwood,
            "melds": res.meld_names()}
