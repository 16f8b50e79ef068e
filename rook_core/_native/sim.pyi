from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import Self

from rook_core._native.hand import HandCore
from rook_core._native.rules import Rules

VIEW_LEN: int
ROW_LEN: int
VIEW_SLOTS: tuple[str, ...]
ROW_COLUMNS: tuple[str, ...]
POLICY_RANDOM: int
POLICY_CALLBACK: int
POLICY_HEURISTIC: int

def hand_seed(seed: int, index: int) -> int: ...
def view_of(state: HandCore, seat: int, random: int = ...) -> npt.NDArray[np.int64]: ...
def sim_hands(rules: Rules, policies: Any, seed: int, first: int, n: int,
              duplicate: bool) -> npt.NDArray[np.int64]: ...
def game_winner(target: int, tie_to_team_0: bool, own_bid_only: bool, total_0: int, total_1: int,
                declarer: int) -> int: ...
def sim_games(rules: Rules, policies: Any, seed: int, first: int, n: int, duplicate: bool,
              max_hands: int, target: int, tie_to_team_0: bool = ...,
              own_bid_only: bool = ...) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...

class VectorCore:
    n: int
    def __new__(cls, rules: Rules, policies: Any, learner: int, total_points: int, target: int, n_actions: int,
                reward_scale: float, n: int) -> Self: ...
    def start(self, seeds: Any, obs: Any, mask: Any) -> list[int]: ...
    def step(self, actions: Any, obs: Any, mask: Any, reward: Any, done: Any, error: Any) -> int: ...
    def episode(self, i: int) -> int: ...
    def hand_mask(self, i: int, seat: int) -> int: ...
