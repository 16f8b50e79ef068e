"""Double-dummy solving (see :mod:`rook_core._native.solver`)."""

from ._native.solver import BudgetExceeded, SolveResult, Solver

__all__ = ["BudgetExceeded", "SolveResult", "Solver"]
