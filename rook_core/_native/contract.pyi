from typing import Any

import numpy as np
import numpy.typing as npt

MAX_COPIES: int
MAX_CARDS: int
MAX_NEED: int
MAX_DEN: int
REPR_PLANES: int
REPR_COUNTS: int

def solve(counts: Any, sets: int, runs: int, num: int,
          den: int) -> tuple[int, list[tuple[int, list[int]]]]: ...
def solve_many(counts: npt.NDArray[np.uint8], sets: int, runs: int, num: int, den: int,
               can_meet: npt.NDArray[np.uint8], deadwood: npt.NDArray[np.int32],
               repr: int = ...) -> None: ...
