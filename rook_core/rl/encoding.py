"""One seat's observation as a tensor, and its legal actions as a mask.

Every learning interface of rook_core (:mod:`rook_core.rl.aec`,
:mod:`rook_core.rl.gym`, :mod:`rook_core.rl.openspiel`) hands a learner the
same flat ``float32`` vector, built here from
:meth:`HandState.observe <rook_core.hand.HandState.observe>` -- what the seat
may know and nothing else (T-15).  Seats are *relative*: block ``r`` of a
per-seat field is the seat ``r`` places to the observer's left (0 is the
observer, 2 its partner), so one policy serves every seat.  Card blocks are
64 wide, indexed by card id (bit ``16 * color + rank``, the bird is 15), so
a preset's unused ids stay 0.  :data:`OBS_FIELDS` lists the blocks in order;
docs/rl.md prints the table.

The action space is the one of :mod:`rook_core.actions`, cut after the
variant's highest bid: ``action_count(variant) = BID + max_bid + 1`` ids, so
an action id means the same here as everywhere else in rook_core.

>>> from rook_core import HandState
>>> h = HandState.deal("tournament", seed=1)
>>> x = encode(h.observe(h.to_move))
>>> x.shape, x.dtype.name, int(x[:64].sum())
((1056,), 'float32', 9)
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

import numpy as np
import numpy.typing as npt

from ..actions import BID
from ..errors import RookError
from ..hand import HandState
from ..observation import Observation
from ..variant import Variant

__all__ = ["OBS_FIELDS", "OBS_SIZE", "action_count", "action_mask", "describe", "encode", "encode_state",
           "field_slices", "obs_bounds", "state_mask"]

#: (name, width, what it holds), in order.  Scaled fields lie in [0, 1].
OBS_FIELDS: tuple[tuple[str, int, str], ...] = (
    ("hand", 64, "the seat's own cards"),
    ("played", 256, "the cards each relative seat played to completed tricks (4 x 64)"),
    ("trick", 256, "the current trick's cards, by the relative seat that played them (4 x 64)"),
    ("voids", 256, "the cards each relative seat has shown it cannot hold (T-9, T-10; 4 x 64)"),
    ("nest", 64, "the dealt nest, once this seat may see it (T-15, H-5)"),
    ("discarded", 64, "the declarer's discards, for the declarer only (T-20)"),
    ("passed", 64, "the cards this seat passed (T-22)"),
    ("bid", 4, "each relative seat's last bid / the variant's max bid (0: none yet)"),
    ("passed_bid", 4, "1 for each relative seat that has passed (T-4)"),
    ("high_bid", 1, "the high bid / the max bid (T-3)"),
    ("declarer", 4, "the declarer's relative seat, one-hot (T-5)"),
    ("trump", 4, "the trump color, one-hot (T-7)"),
    ("phase", 5, "the phase, one-hot: bid, nest, trump, pass, play"),
    ("dealer", 4, "the dealer's relative seat, one-hot (T-1)"),
    ("points", 2, "card points taken this hand / the deck's total: own team, other team (T-12)"),
    ("tricks_won", 2, "tricks won this hand / tricks in a hand: own team, other team"),
    ("game", 2, "game scores / the target, in [-1, 1]: own team, other team (0 outside a game; T-33)"),
)
OBS_SIZE = sum(w for _, w, _ in OBS_FIELDS)


def field_slices() -> dict[str, slice]:
    """Return where each field of :data:`OBS_FIELDS` lies in the vector."""
    out, at = {}, 0
    for name, width, _ in OBS_FIELDS:
        out[name] = slice(at, at + width)
        at += width
    return out


_AT = field_slices()
_N_MASKS = (_AT["passed"].stop) // 64          # the leading blocks that are card masks


def obs_bounds() -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """Return the lowest and highest value of each entry: 0 and 1, except
    the game scores, which may be negative (T-30)."""
    low = np.zeros(OBS_SIZE, dtype=np.float32)
    low[_AT["game"]] = -1.0
    return low, np.ones(OBS_SIZE, dtype=np.float32)


def action_count(variant: Variant) -> int:
    """The number of action ids a learner chooses among in ``variant``: every
    id of :mod:`rook_core.actions` up to the variant's highest bid."""
    return BID + variant.max_bid + 1


def _check_width(variant: Variant, n_actions: object, out: object = None) -> int:
    """Return ``n_actions`` when a mask that wide holds every action of
    ``variant`` (and ``out``, when given, is an array of that length).

    :raises RookError: for anything else, naming it.
    """
    least = action_count(variant)
    if isinstance(n_actions, (bool, np.bool_)) or not isinstance(n_actions, Integral) or n_actions < least:
        raise RookError(f"n_actions must be an int >= {least} (the action ids of {variant.name} up to its "
                        f"highest bid), not {n_actions!r}")
    if out is not None and getattr(out, "shape", None) != (n_actions,):
        raise RookError(f"out must be an array of {n_actions} entries, not {getattr(out, 'shape', out)!r}")
    return int(n_actions)


def action_mask(obs: Observation, n_actions: int, out: npt.NDArray[Any] | None = None) -> npt.NDArray[Any]:
    """Return an ``int8`` vector of ``n_actions`` with 1 at the seat's legal
    actions (all 0 when it is not to move).

    :raises RookError: for an ``n_actions`` below :func:`action_count` (the
        mask could not hold every legal action), or an ``out`` of another length.
    """
    n_actions = _check_width(obs.variant, n_actions, out)
    mask = np.zeros(n_actions, dtype=np.int8) if out is None else out
    if out is not None:
        mask[:] = 0
    if obs.legal_actions:
        mask[list(obs.legal_actions)] = 1
    return mask


def state_mask(state: HandState, seat: int, n_actions: int) -> npt.NDArray[Any]:
    """Return ``action_mask(state.observe(seat), n_actions)``, written natively.

    :raises RookError: as :func:`action_mask`; for a seat not 0..3.
    """
    mask = np.empty(_check_width(state.variant, n_actions), dtype=np.int8)
    state.mask_into(seat, mask)
    return mask


def encode(obs: Observation, game_scores: tuple[int, int] | None = None,
           out: npt.NDArray[Any] | None = None) -> npt.NDArray[Any]:
    """Return ``obs`` as the vector of :data:`OBS_FIELDS` (into ``out`` when given).

    :param game_scores: the game's running scores of team 0 and team 1, for
        a learner that plays whole games.
    """
    x = np.zeros(OBS_SIZE, dtype=np.float32) if out is None else out
    if out is not None:
        x[:] = 0.0
    v, me = obs.variant, obs.seat
    masks = [0] * _N_MASKS
    masks[0] = obs.hand
    for t in obs.tricks:
        for s, c in t.cards:
            masks[1 + (s - me) % 4] |= 1 << c
    for s, c in obs.trick:
        masks[5 + (s - me) % 4] |= 1 << c
    for s in range(4):
        masks[9 + (s - me) % 4] = obs.voids[s]
    masks[13] = obs.nest or 0
    masks[14] = obs.discarded or 0
    masks[15] = obs.passed
    bits = np.unpackbits(np.array(masks, dtype="<u8").view(np.uint8), bitorder="little")
    x[:64 * _N_MASKS] = bits
    top = float(v.max_bid)
    bid, passed = _AT["bid"].start, _AT["passed_bid"].start
    for s, amount in obs.bids:
        r = (s - me) % 4
        if amount is None:
            x[passed + r] = 1.0
        else:
            x[bid + r] = amount / top
    x[_AT["high_bid"].start] = obs.high_bid / top
    if obs.declarer is not None:
        x[_AT["declarer"].start + (obs.declarer - me) % 4] = 1.0
    if obs.trump is not None:
        x[_AT["trump"].start + obs.trump] = 1.0
    if obs.phase < 5:
        x[_AT["phase"].start + int(obs.phase)] = 1.0
    x[_AT["dealer"].start + (obs.dealer - me) % 4] = 1.0
    team = me & 1
    total = float(v.total_points)
    p, w = _AT["points"].start, _AT["tricks_won"].start
    x[p], x[p + 1] = _clip(obs.points[team] / total, 0.0), _clip(obs.points[1 - team] / total, 0.0)
    x[w], x[w + 1] = obs.tricks_won[team] / v.hand_size, obs.tricks_won[1 - team] / v.hand_size
    if game_scores is not None:
        g, target = _AT["game"].start, float(v.target)
        x[g], x[g + 1] = _clip(game_scores[team] / target, -1.0), _clip(game_scores[1 - team] / target, -1.0)
    return x


def encode_state(state: HandState, seat: int, game_scores: tuple[int, int] | None = None,
                 out: npt.NDArray[Any] | None = None) -> npt.NDArray[Any]:
    """Return ``encode(state.observe(seat), game_scores)``, built natively from
    the state and its history without an observation in between (about 6x
    faster; the two are equal: tests/rl/test_encoding.py).

    :raises RookError: for an ``out`` that is not a contiguous float32 array of
        ``OBS_SIZE`` entries.
    """
    if out is not None and not (isinstance(out, np.ndarray) and out.dtype == np.float32
                                and out.shape == (OBS_SIZE,) and out.flags.c_contiguous and out.flags.writeable):
        raise RookError(f"out must be a writable contiguous float32 array of {OBS_SIZE} entries, not "
                        f"{getattr(out, 'dtype', type(out).__name__)} {getattr(out, 'shape', '')}")
    x = np.empty(OBS_SIZE, dtype=np.float32) if out is None else out
    v = state.variant
    state.encode_into(seat, x, v.total_points, v.target, game_scores)
    return x


def _clip(a: float, low: float) -> float:
    """Keep a scaled figure in [low, 1] (a game score may pass the target, or fall below -target)."""
    return low if a < low else 1.0 if a > 1 else a


def describe(x: npt.NDArray[Any]) -> dict[str, Any]:
    """Return the vector's non-zero entries by field (for reading a tensor back)."""
    return {name: np.flatnonzero(x[sl]).tolist() for name, sl in _AT.items() if x[sl].any()}
