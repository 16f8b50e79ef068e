"""rook_core for learning agents: PettingZoo, Gymnasium and OpenSpiel.

Install the ``rl`` extra (``pip install 'rook_core[rl]'``).  The entry points:

- :func:`aec_env` (``rook_core.rl.aec_env(preset, **options)``): the
  PettingZoo AEC environment, four agents at one table
  (:mod:`rook_core.rl.aec`);
- the Gymnasium ids ``rook_core/Tournament-v0`` and one per preset
  (:data:`GYM_IDS`), registered by importing this package: one seat learns,
  the others are rook_core bots (:mod:`rook_core.rl.gym`);
- :class:`VectorEnv` (``rook_core.rl.VectorEnv(preset, n, ...)``): ``n``
  tables stepping together in C, opponents played natively
  (:mod:`rook_core.rl.vector`);
- the observation tensor and the action mask they share
  (:mod:`rook_core.rl.encoding`).
"""

from __future__ import annotations

from ..errors import missing_extra

try:
    from .aec import RookAECEnv, aec_env
    from .encoding import OBS_FIELDS, OBS_SIZE, action_count, action_mask, encode
    from .gym import GYM_IDS, RookGymEnv, register_gym_ids
    from .vector import VectorEnv
except ModuleNotFoundError as e:
    if (e.name or "").split(".")[0] in ("gymnasium", "pettingzoo"):
        raise missing_extra("rook_core.rl", "rl", e) from e
    raise

__all__ = ["GYM_IDS", "OBS_FIELDS", "OBS_SIZE", "RookAECEnv", "RookGymEnv", "VectorEnv", "action_count", "action_mask",
           "aec_env", "encode", "register_gym_ids"]

register_gym_ids()
