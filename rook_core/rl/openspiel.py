"""The trick-taking presets as OpenSpiel games.

Importing this module registers ``python_rook_<preset>`` for every preset
(``python_rook_tournament``, ``python_rook_partnership-57``, ...) through
``pyspiel.register_game``, so ``pyspiel.load_game`` and OpenSpiel's own
algorithms and ``evaluate_bots`` run on Rook.

- The deal is chance: one chance node per card of the deck, each outcome a
  card id still undealt, all equally likely; the first ``hand_size`` go to
  seat 0, the next to seat 1, ..., the last ``nest_size`` to the nest
  (T-2).  The game parameter ``dealer`` (default: the variant's
  ``first_dealer``) seats the dealer (T-1).
- Then the four players (seats; 0 and 2 are team 0) act in the action space
  of :mod:`rook_core.actions`, cut after the highest bid, through every
  phase of one hand.  At the end each player's return is its team's hand
  score less the other team's (zero sum); a hand thrown in (T-6) returns 0.
- Information states: the string is the seat's observation in its JSON
  form (docs/FORMATS.md, "An observation"), which holds the seat's cards
  and the whole public history in order, so two histories a seat cannot
  tell apart give the same string; the tensor is the vector of
  :mod:`rook_core.rl.encoding` (a summary: it keeps what was played by
  whom, not the order of the tricks).  Observation strings and tensors are
  the same here.
- ``resample_from_infostate(player, sampler)`` deals the cards the player
  has not seen again with rook_core's world sampler (voids, passed cards
  and the declarer's discards respected: :mod:`rook_core.bots.worlds`) and
  replays the history on the new deal.

>>> import pyspiel
>>> import rook_core.rl.openspiel
>>> game = pyspiel.load_game("python_rook_tournament")
>>> game.num_players(), game.num_distinct_actions()
(4, 193)
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from ..actions import Phase, action_name
from ..bots.knowledge import NEST, Knowledge
from ..bots.worlds import sample_world
from ..cards import CardSet, card_name, iter_bits
from ..errors import IllegalActionError, RookError
from ..hand import HandState
from ..variant import PRESETS, Variant
from .encoding import OBS_SIZE, action_count, encode_state

__all__ = ["RookGame", "RookState", "game_type", "register", "short_name"]

RESAMPLE_TRIES = 64


def short_name(preset: str) -> str:
    """The OpenSpiel short name of a preset."""
    return f"python_rook_{preset}"


def game_type(v: Variant) -> Any:
    return pyspiel.GameType(
        short_name=short_name(v.name), long_name=f"Rook ({v.name})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4, min_num_players=4,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"dealer": v.first_dealer})


def _max_length(v: Variant) -> int:
    """An upper bound on a hand's actions, the deal's chance nodes included."""
    bids = 4 * ((v.max_bid - v.min_bid) // v.bid_step + 2)
    return v.deck_size + bids + v.nest_size + 1 + 4 * v.pass_cards + 4 * v.hand_size


def game_info(v: Variant) -> Any:
    bound = float(2 * (v.total_points + v.max_bid + v.moon_score))
    return pyspiel.GameInfo(num_distinct_actions=action_count(v), max_chance_outcomes=64, num_players=4,
                            min_utility=-bound, max_utility=bound, utility_sum=0.0,
                            max_game_length=_max_length(v))


class RookGame(pyspiel.Game):  # type: ignore[misc]
    """One preset's hand as an OpenSpiel game (see the module docstring)."""

    variant: Variant

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        v = self.variant
        super().__init__(game_type(v), game_info(v), params or {})
        if self.dealer not in range(4):
            raise RookError(f"dealer must be a seat 0..3, not {self.dealer!r}")

    # (read from the class and the parameters: OpenSpiel may copy a game without its instance fields)
    @property
    def dealer(self) -> int:
        return int(self.get_parameters().get("dealer", self.variant.first_dealer))

    @property
    def deck(self) -> list[int]:
        return list(iter_bits(self.variant.deck_mask))

    def new_initial_state(self) -> RookState:
        return RookState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RookObserver:
        if params:
            raise RookError(f"the Rook observer takes no parameters, not {params!r}")
        return RookObserver()


class _Played:
    """The hand a state plays, held so that OpenSpiel can copy it (``clone``
    deep-copies a Python state's attributes) and serialize it (it pickles
    them): pickled as its JSON form (:meth:`HandState.to_json`)."""

    __slots__ = ("state",)

    def __init__(self, state: HandState) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Played:
        return _Played(self.state.clone())

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _played_from_json, (self.state.to_json(),)


def _played_from_json(data: dict[str, Any]) -> _Played:
    return _Played(HandState.from_json(data))


class RookState(pyspiel.State):  # type: ignore[misc]
    """A hand being dealt (chance) or played."""

    def __init__(self, game: RookGame) -> None:
        super().__init__(game)
        self.dealt: list[int] = []
        self._played: _Played | None = None

    @property
    def hand(self) -> HandState | None:
        """The hand once dealt (None while the deal is chance)."""
        return None if self._played is None else self._played.state

    @property
    def _rook_game(self) -> RookGame:
        game: RookGame = self.get_game()
        return game

    # ------------------------------------------------------------ the deal
    def _deal_done(self) -> None:
        v, d = self._rook_game.variant, self.dealt
        n = v.hand_size
        hands = [CardSet(sum(1 << c for c in d[s * n:(s + 1) * n])).names() for s in range(4)]
        nest = CardSet(sum(1 << c for c in d[4 * n:])).names()
        self._played = _Played(HandState.from_hands(v, hands, nest, dealer=self._rook_game.dealer))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = sorted(set(self._rook_game.deck) - set(self.dealt))
        return [(c, 1.0 / len(left)) for c in left]

    # ------------------------------------------------------------- the API
    def current_player(self) -> int:
        if self.hand is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        to_move = self.hand.to_move
        assert to_move is not None
        return to_move

    def _legal_actions(self, player: int) -> list[int]:
        assert self.hand is not None
        return sorted(self.hand.legal_actions())

    def _apply_action(self, action: int) -> None:
        if self.hand is None:
            card = int(action)
            if not (0 <= card < 64 and self._rook_game.variant.deck_mask >> card & 1) or card in self.dealt:
                raise IllegalActionError(f"the deal's outcome {card} is not a card of the deck still to deal "
                                         f"(the chance outcomes are the undealt cards)", action=card)
            self.dealt.append(card)
            if len(self.dealt) == self._rook_game.variant.deck_size:
                self._deal_done()
        else:
            self.hand.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {card_name(action)}"
        return action_name(action)

    def is_terminal(self) -> bool:
        return self.hand is not None and self.hand.phase in (Phase.DONE, Phase.THROWN_IN)

    def returns(self) -> list[float]:
        if not self.is_terminal() or self.hand is None or self.hand.phase != Phase.DONE:
            return [0.0] * 4
        s = self.hand.score
        return [float(s[p & 1] - s[1 - (p & 1)]) for p in range(4)]

    def __str__(self) -> str:
        if self.hand is None:
            return f"dealing: {len(self.dealt)} of {self._rook_game.variant.deck_size} cards"
        return str(self.hand)

    # -------------------------------------------------------- resampling
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RookState:
        """Return a state the player cannot tell from this one: the cards it
        has not seen dealt again (see the module docstring)."""
        if self.hand is None:
            same: RookState = self.clone()
            return same
        seed = int(probability_sampler() * (1 << 62)) if callable(probability_sampler) else 0
        rng = random.Random(seed)
        for _ in range(RESAMPLE_TRIES):
            state = self._resampled(player_id, rng)
            if state is not None:
                return state
        raise RookError(f"no deal fits what seat {player_id} has seen after {RESAMPLE_TRIES} tries")

    def _resampled(self, me: int, rng: random.Random) -> RookState | None:
        """One try: a world for seat ``me``, turned back into a deal, and the
        history replayed on it with the hidden choices (others' passes, the
        declarer's discards) taken from the world; None when it does not fit."""
        assert self.hand is not None
        v, events = self._rook_game.variant, self.hand.event_ids()
        h = self.hand
        mid_pass = h.phase == Phase.PASS
        if mid_pass:
            # T-22 while the cards are being put aside: sample from the hand
            # before it; the others' cards put aside so far are face down
            h = h.clone()
            while len(h) and h.event_ids()[-1][0] == Phase.PASS:
                h.undo()
        world = sample_world(Knowledge.from_observation(h.observe(me)), rng)
        have = [world[s] for s in range(4)]
        for _, cards, _, _ in h.trick_records():
            for s, c in cards:
                have[s] |= 1 << c
        for s, c in h.trick_seats:
            have[s] |= 1 << int(c)
        hidden: dict[tuple[int, int], list[int]] = {}     # (phase, seat) -> the cards to replay instead
        passes = [0, 0, 0, 0]
        if not mid_pass and any(ph == Phase.PASS for ph, _, _ in events):
            # T-22: seat s passed passes[s] to seat s - 1; `me` knows its own and what it got from me + 1
            passes[me], passes[(me + 1) % 4] = h.passing_mask(me), h.passing_mask((me + 1) % 4)
            for s in ((me + 2) % 4, (me + 3) % 4):
                passes[s] = _pick(have[(s - 1) % 4], v.pass_cards, rng)    # they are with seat s - 1 now
                hidden[(Phase.PASS, s)] = list(iter_bits(passes[s]))
            have = [have[s] & ~passes[(s + 1) % 4] | passes[s] for s in range(4)]
        dealt_nest = world[NEST]
        d = h.declarer
        if h.nest_taken and d is not None:
            pool = have[d] | world[NEST]
            # the dealt nest is known to the declarer and, face up (H-5), to all; the discards only to it
            dealt_nest = h.dealt_nest_mask if me == d or v.exposed_nest else _pick(pool, v.nest_size, rng)
            if me != d:
                hidden[(Phase.NEST, d)] = list(iter_bits(world[NEST]))
            have[d] = pool & ~dealt_nest
        if any(m.bit_count() != v.hand_size for m in have) or dealt_nest.bit_count() != v.nest_size:
            return None
        clone = RookState(self._rook_game)
        for c in [c for s in range(4) for c in iter_bits(have[s])] + list(iter_bits(dealt_nest)):
            clone._apply_action(c)
        try:
            for ph, s, a in events:
                instead = hidden.get((ph, s))
                if instead:
                    a = instead.pop(0)
                elif mid_pass and ph == Phase.PASS and s != me:
                    assert clone.hand is not None
                    a = rng.choice(clone.hand.legal_actions())
                clone._apply_action(a)
        except (RookError, IndexError):
            return None
        return clone


def _pick(mask: int, n: int, rng: random.Random) -> int:
    """n cards of ``mask`` at random."""
    cards = list(iter_bits(mask))
    rng.shuffle(cards)
    return sum(1 << c for c in cards[:n])


class RookObserver:
    """The observer of the information state and the observation (the same here)."""

    def __init__(self) -> None:
        self.tensor = np.zeros(OBS_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RookState, player: int) -> None:
        if state.hand is None:
            self.tensor.fill(0.0)
            n = state._rook_game.variant.hand_size
            for c in state.dealt[player * n:(player + 1) * n]:
                self.tensor[c] = 1.0
            return
        encode_state(state.hand, player, out=self.tensor)

    def string_from(self, state: RookState, player: int) -> str:
        if state.hand is None:
            n = state._rook_game.variant.hand_size
            return f"dealt: {CardSet(sum(1 << c for c in state.dealt[player * n:(player + 1) * n]))}"
        obs = state.hand.observation(player)
        obs.pop("legal_actions", None)
        return json.dumps(obs, sort_keys=True, separators=(",", ":"))


def register() -> None:
    """Register every preset with OpenSpiel (again: no harm)."""
    known = set(pyspiel.registered_names())
    for name, v in PRESETS.items():
        if short_name(name) in known:
            continue
        cls = type(f"RookGame_{name.replace('-', '_')}", (RookGame,), {"variant": v})
        pyspiel.register_game(game_type(v), cls)


register()
