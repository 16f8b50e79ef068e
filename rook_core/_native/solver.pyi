from collections.abc import Callable
from typing import Any

from rook_core.cards import Card
from rook_core.errors import RookError

class BudgetExceeded(RookError):
    lo: int
    hi: int
    nodes: int
    kind: str
    move_values: dict[Card, int]
    def __init__(self, message: str, lo: int, hi: int, nodes: int, kind: str = "nodes",
                 move_values: dict[Card, int] | None = None) -> None: ...

class BestCards:
    value: int
    best: list[Card]
    to_move: int
    nodes: int
    def __init__(self, value: int, best: list[Card] = ..., to_move: int = ..., nodes: int = ...) -> None: ...
    def to_json(self, ident: Any = None) -> dict[str, Any]: ...

class SolveResult:
    value: int
    move_values: dict[Card, int]
    best: list[Card]
    to_move: int
    nodes: int
    def __init__(self, value: int, move_values: dict[Card, int] = ..., best: list[Card] = ...,
                 to_move: int = ..., nodes: int = ...) -> None: ...
    def to_json(self, ident: Any = None) -> dict[str, Any]: ...

class Solver:
    node_budget: int
    time_budget: float
    last_nodes: int
    def __init__(self, tt_bytes: int = ..., node_budget: int = 0, generalize: bool = True,
                 time_budget: float = 0.0) -> None: ...
    def clear(self) -> None: ...
    def stats(self) -> dict[str, Any]: ...
    def value(self, position: Any, *, guess: int | None = None, window: tuple[int, int] | None = None,
              anytime: bool = False, progress: Callable[[int, int, int], object] | None = None,
              workers: int = 1) -> int: ...
    def at_least(self, position: Any, target: int, team: int = 0) -> bool: ...
    def best_cards(self, position: Any, *, guess: int | None = None) -> BestCards: ...
    def solve_batch(self, positions: Any, *, keep_table: bool = False,
                    guesses: bool = False) -> list[SolveResult | RookError]: ...
    def solve(self, position: Any, *, guess: int | None = None, anytime: bool = False,
              progress: Callable[[int, int, int], object] | None = None,
              workers: int = 1) -> SolveResult: ...
