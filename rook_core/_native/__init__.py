"""The compiled modules of rook_core, and the one place the rest of the package imports them from.

Contract: the functions and classes here validate their arguments and raise
rook_core's typed errors (``rook_core.errors``); the C code below them
trusts its inputs and touches no Python object.  They speak ints, masks and
NumPy arrays only: the readable classes (:class:`rook_core.hand.HandState`,
:class:`rook_core.solver.Solver`) subclass the cores here, and the modules
in this folder import nothing of rook_core but ``errors`` and the generated
constants of ``_layout``.
"""

from .contract import MAX_CARDS as CONTRACT_MAX_CARDS
from .contract import MAX_COPIES as CONTRACT_MAX_COPIES
from .contract import solve as contract_solve
from .contract import solve_many as contract_solve_many
from .hand import PERFT_MAX_NODES, HandCore, check_seat
from .rules import Rules, playout_kernels, rules_for
from .sim import (
                  POLICY_CALLBACK,
                  POLICY_HEURISTIC,
                  POLICY_RANDOM,
                  ROW_COLUMNS,
                  ROW_LEN,
                  VIEW_LEN,
                  VIEW_SLOTS,
                  VectorCore,
                  game_winner,
                  hand_seed,
                  sim_games,
                  sim_hands,
                  view_of,
)
from .solver import SolverCore, interrupt_count, work_begun_at

__all__ = [
    "CONTRACT_MAX_CARDS", "CONTRACT_MAX_COPIES", "HandCore", "PERFT_MAX_NODES", "POLICY_CALLBACK", "POLICY_HEURISTIC",
    "POLICY_RANDOM", "ROW_COLUMNS", "ROW_LEN", "Rules", "SolverCore", "VIEW_LEN", "VIEW_SLOTS", "VectorCore",
    "check_seat", "contract_solve", "contract_solve_many", "game_winner", "hand_seed", "playout_kernels",
    "interrupt_count", "rules_for", "sim_games", "sim_hands", "view_of", "work_begun_at",
]
