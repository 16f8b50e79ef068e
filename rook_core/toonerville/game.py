"""A game of Toonerville Rook (RULES.md sections 3 and 5), played through actions.

The game deals each round from its own seed (derived from the game seed and
the round's place, as the trick-taking :class:`~rook_core.game.Game` does),
so a game is its seed, its rules and its list of actions; :meth:`undo`
replays that list.  Phases of a turn:

* ``draw``: the player in turn takes the top discard or draws from the stock
  (TV-6).  Drawing from the stock first offers the discard to the others
  (TV-8): phase ``buy`` asks them one by one from the left of the player in
  turn, and the first who buys gets it, with one penalty card from the stock;
  then the player in turn draws.
* ``play``: lay the contract at once, then further melds, lay-offs and bird
  swaps (TV-7, TV-9); a discard ends the turn (TV-6).  A player who has laid
  the contract and holds no card goes out and ends the round (TV-10).
* ``over``: after the last round; the lowest total wins (TV-12).

Engine choices where RULES.md is silent, each documented where it applies:

* the new meld of a bird swap is part of the swap action, and a swap needs
  the contract laid, as further melds do (TV-7, TV-9);
* with ``no_discard_of_taken``, a player whose hand holds only copies of the
  top discard may take it only if all those cards can then go into melds
  this turn, and no action may leave only copies of the card taken unless
  they can all still be melded or laid off: they could not be discarded
  (section 5, TV-10);
* where the last card may not be a discard (round 11), an action may leave
  one card only if it can be laid off next (TV-10);
* the buy window opens only when the stock (with the pile it would be
  refilled from) can give the buyer's penalty card and the turn's draw (TV-8);
* a round that reaches ``turn_limit`` ends with nobody out, and so does a
  round whose player in turn can neither draw (the stock and the pile
  exhausted, TV-11) nor take.

So a player always has a move: a turn that starts can draw or take, and a
discard or a lay-off is always left after it.

>>> g = ToonervilleGame(4, seed=1)
>>> g.round, g.contract.sets, g.phase, g.to_move, len(g.hand(1))
(1, 2, 'draw', 1, 12)
>>> g.apply("draw"); g.phase, g.to_move      # seat 2 may buy the discard first
('buy', 2)
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, NamedTuple

from .. import _layout as L
from .._html import html_table
from ..cards import card_name
from ..errors import IllegalActionError, RookError, as_int
from ..jsonio import read_document
from ..rng import check_seed, hand_seed
from .actions import Action, Buy, Discard, Draw, Lay, LayOff, Meld, Pass, Swap, Take, parse_action, quoted
from .contracts import CONTRACTS, Contract
from .hand import FULL_DECK, MultiHand, card_points
from .melds import MIN_SET, arrange_meld, candidate_melds
from .rules import ToonervilleRules
from .table import TableMeld, fits_table

__all__ = ["ToonervilleGame", "RoundEnd", "PHASES", "LISTED_LAYS", "leave_problem", "can_shed"]

PHASES = ("draw", "buy", "play", "over")
LISTED_LAYS = 500
"""The most lay-downs an observation lists among its legal actions (see :meth:`ToonervilleGame.legal_actions`)."""
LAY_SEARCH_STEPS = 20_000
"""With ``max_lays``, the search for lay-downs also stops after this many
melds tried (a few tens of ms), whatever it found by then."""
_N = L.N_CARD_IDS
GAME_FORMAT = "rook-toonerville/1"


def _player_number(value: object, players: int) -> int | None:
    """``value`` as a player 0..players-1 (a numpy int is taken; a bool or a
    float is not), or None when it is not one."""
    n = as_int(value)
    return n if n is not None and 0 <= n < players else None


class RoundEnd(NamedTuple):
    """How a round ended: who went out (None: nobody, at the turn limit), the
    turns played, the table, every hand as counts (shown for scoring, TV-12),
    who had laid the contract, and each player's buys."""

    round: int
    went_out: int | None
    turns: int
    table: tuple[TableMeld, ...]
    hands: tuple[tuple[int, ...], ...]
    laid: tuple[bool, ...]
    buys: tuple[int, ...]


def _names(counts: list[int]) -> list[str]:
    return [card_name(c) for c in FULL_DECK for _ in range(counts[c])]


class ToonervilleGame:
    """A seeded game of Toonerville Rook for 3 to 5 players.

    ``players`` is the number of players or a :class:`ToonervilleRules`.

    :raises VariantError: for rules that break RULES.md section 3.
    :raises RookError: for a seed or first dealer that is not valid.
    """

    def __init__(self, players: int | ToonervilleRules = 4, seed: int = 0, first_dealer: int = 0) -> None:
        self.rules = players if isinstance(players, ToonervilleRules) else ToonervilleRules(players=players)
        seed = check_seed(seed)
        dealer = _player_number(first_dealer, self.rules.players)
        if dealer is None:
            raise RookError(f"first_dealer must be a player 0..{self.rules.players - 1}, not {quoted(first_dealer)}")
        self.seed = seed
        self.first_dealer = dealer
        self.round_scores: list[list[int]] = []
        self.went_out: list[int | None] = []
        self.ended: list[RoundEnd] = []
        self._history: list[tuple[int, Action]] = []
        self._round_index = 0
        self._deal()

    # ------------------------------------------------------------------ state
    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def round(self) -> int:
        """The number (1-11) of the round being played, or of the last one once over (TV-2)."""
        return self.rules.rounds[min(self._round_index, len(self.rules.rounds) - 1)]

    @property
    def contract(self) -> Contract:
        return CONTRACTS[self.round]

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def to_move(self) -> int | None:
        """The player whose action is awaited (the one asked to buy in phase ``buy``)."""
        if self.phase == "over":
            return None
        return self.buy_queue[0] if self.phase == "buy" else self.turn

    @property
    def totals(self) -> list[int]:
        """Each player's total of the rounds played (TV-12)."""
        return [sum(r[p] for r in self.round_scores) for p in range(self.players)]

    @property
    def winners(self) -> list[int]:
        """The players with the lowest total once the game is over (ties share, TV-12), else []."""
        if not self.is_over:
            return []
        t = self.totals
        return [p for p in range(self.players) if t[p] == min(t)]

    def hand(self, player: int) -> MultiHand:
        """The cards ``player`` holds."""
        return MultiHand.from_counts(self.hands[self._check_player(player)])

    def history(self) -> list[tuple[int, Action]]:
        """Every action of the game in order, with the player who took it."""
        return list(self._history)

    # ------------------------------------------------------------------ deal
    def _deal(self) -> None:
        """Deal the round (TV-2, TV-3): one full deck per player, shuffled together."""
        n = self.players
        self.dealer = (self.first_dealer + self._round_index) % n
        self._rng_seed = hand_seed(self.seed, self._round_index)
        shoe = list(FULL_DECK) * n
        random.Random(self._rng_seed).shuffle(shoe)
        self.hands = [[0] * _N for _ in range(n)]
        dealt = self.contract.dealt
        for k in range(dealt * n):                          # one at a time, from the dealer's left
            self.hands[(self.dealer + 1 + k) % n][shoe.pop()] += 1
        self.stock = shoe
        self.discard = [self.stock.pop()]                   # TV-3: the top card turned
        self.table: list[TableMeld] = []
        self.laid = [False] * n
        self.buys = [0] * n
        self.buy_queue: list[int] = []
        self.took: int | None = None
        self.refills = 0
        self.turns = 1
        self.turn = (self.dealer + 1) % n                   # TV-3: left of the dealer starts
        self.phase = "draw"

    def _can_draw(self) -> bool:
        return bool(self.stock) or len(self.discard) >= 2

    def _can_take(self, player: int) -> bool:
        """Whether ``player`` may take the top discard: there is one, and (with
        ``no_discard_of_taken``) the hand holds another card to discard, or all
        its cards, the taken one too, can go into melds this turn (TV-7, TV-10)."""
        if not self.discard:
            return False
        hand, top = self.hands[player], self.discard[-1]
        if not self.rules.no_discard_of_taken or sum(hand) != hand[top]:
            return True
        copies, con = hand[top] + 1, self.contract
        if self.laid[player]:
            return can_shed(top, copies, self.table, self.rules.max_wild_fraction)
        return top != L.BIRD and con.runs == 0 and copies >= MIN_SET * con.sets   # the contract's sets take all

    def _draw_stock(self) -> int:
        """The top card of the stock.  When the stock runs out, the discard pile
        but its top card is shuffled into a new stock (TV-11): at once if the
        pile has cards to give, else at the next draw."""
        if not self.stock:
            self._refill()
        card = self.stock.pop()
        if not self.stock and len(self.discard) >= 2:
            self._refill()
        return card

    def _refill(self) -> None:
        rest, self.discard = self.discard[:-1], self.discard[-1:]
        self.refills += 1
        random.Random(hand_seed(self._rng_seed, 1000 + self.refills)).shuffle(rest)
        self.stock = rest

    # ---------------------------------------------------------------- checks
    def _check_player(self, player: object) -> int:
        """``player`` as a player number (a numpy int is taken); RookError for what is not one."""
        n = _player_number(player, self.players)
        if n is None:
            raise RookError(f"a player is 0..{self.players - 1}, not {quoted(player)}")
        return n

    def _refuse(self, action: Action, why: str, rule: str | None) -> IllegalActionError:
        text = str(action)
        if len(text) > 200:                      # a meld of a thousand cards is quoted short
            text = f"{text[:120]} ... {text[-60:]}"
        return IllegalActionError(f"illegal action {text}: {why}" + (f" ({rule})" if rule else ""), rule=rule)

    def _leaves_ok(self, action: Action, counts: list[int], table: list[TableMeld]) -> None:
        """Refuse ``action`` if the hand it leaves (``counts``, with ``table`` after
        it) may not be left: see :func:`leave_problem`."""
        problem = leave_problem(counts, table, self.took, self.rules, self.contract.discard_out)
        if problem is not None:
            raise self._refuse(action, *problem)

    def _take_from_hand(self, action: Action, counts: list[int], cards: Iterable[int]) -> None:
        for c in cards:
            if counts[c] <= 0:
                raise self._refuse(action, f"{card_name(c)} is not in the hand (or not that many times)", "TV-7")
            counts[c] -= 1

    def _meld(self, action: Action, cards: tuple[int, ...], want: str | None = None) -> tuple[str, tuple[int, ...]]:
        m = arrange_meld(cards, self.rules.max_wild_fraction)
        if m is None or (want is not None and m[0] != want):
            what = f"a {want}" if want else "a set or a run"
            raise self._refuse(action, f"{' '.join(card_name(c) for c in cards)} is not {what}", "TV-4, TV-5")
        return m

    def _check(self, action: Action, player: int) -> Any:
        """Validate ``action`` by ``player``; return what applying it needs.  Changes nothing."""
        if self.phase == "over":
            raise self._refuse(action, "the game is over", "TV-12")
        if player != self.to_move:
            raise self._refuse(action, f"it is player {self.to_move}'s move, not player {player}'s", "TV-6")
        if self.phase == "draw":
            if isinstance(action, Take):
                if not self.discard:
                    raise self._refuse(action, "the discard pile is empty", "TV-6")
                if not self._can_take(player):
                    raise self._refuse(action, f"the hand holds only {card_name(self.discard[-1])}, so it could "
                                       "discard nothing but the card taken (no_discard_of_taken)", "section 5")
                return None
            if isinstance(action, Draw):
                if not self._can_draw():
                    raise self._refuse(action, "the stock is empty and there is nothing to shuffle", "TV-11")
                return None
            raise self._refuse(action, "the turn starts with 'draw' or 'take'", "TV-6")
        if self.phase == "buy":
            if isinstance(action, Buy):
                if self.buys[player] >= self.rules.max_buys:
                    raise self._refuse(action, f"player {player} has bought {self.rules.max_buys} times "
                                       "this round", "TV-8")
                return None
            if isinstance(action, Pass):
                return None
            raise self._refuse(action, f"player {player} is asked to 'buy' or 'pass' the discard", "TV-8")
        # phase play
        if isinstance(action, (Draw, Take, Buy, Pass)):
            raise self._refuse(action, "after drawing: lay, meld, layoff, swap or discard", "TV-6")
        counts = list(self.hands[player])
        if isinstance(action, Discard):
            c = action.card
            if counts[c] <= 0:
                raise self._refuse(action, f"{card_name(c)} is not in the hand", "TV-6")
            if self.rules.no_discard_of_taken and c == self.took:
                raise self._refuse(action, f"{card_name(c)} was taken from the discard pile this turn "
                                   "(no_discard_of_taken)", "section 5")
            if not self.contract.discard_out and sum(counts) == 1:
                raise self._refuse(action, f"round {self.round}'s last card cannot be a discard", "TV-10")
            return None
        if isinstance(action, Lay):
            if self.laid[player]:
                raise self._refuse(action, "the contract is already laid", "TV-7")
            melds = [self._meld(action, m) for m in action.melds]
            sets = sum(k == "set" for k, _ in melds)
            con = self.contract
            if sets != con.sets or len(melds) - sets != con.runs:
                raise self._refuse(action, f"the contract of round {self.round} is exactly {con.sets} set(s) "
                                   f"and {con.runs} run(s), not {sets} and {len(melds) - sets}", "TV-2, TV-7")
            for _, cards in melds:
                self._take_from_hand(action, counts, cards)
            self._leaves_ok(action, counts, self.table + [TableMeld(k, player, m) for k, m in melds])
            return melds, counts
        if not self.laid[player]:
            raise self._refuse(action, "the contract must be laid first, all at once", "TV-7")
        if isinstance(action, Meld):
            meld = self._meld(action, action.cards)
            self._take_from_hand(action, counts, meld[1])
            self._leaves_ok(action, counts, self.table + [TableMeld(meld[0], player, meld[1])])
            return meld, counts
        if isinstance(action, (LayOff, Swap)):
            if not 0 <= action.meld < len(self.table):
                raise self._refuse(action, f"there is no table meld {action.meld} (melds 0..{len(self.table) - 1})",
                                   "TV-7")
            target = self.table[action.meld]
            self._take_from_hand(action, counts, (action.card,))
            if isinstance(action, LayOff):
                grown = target.lay_off(action.card, action.end, self.rules.max_wild_fraction)
                if grown is None:
                    raise self._refuse(action, f"{card_name(action.card)} does not fit meld {action.meld} "
                                       f"({target.text()})", "TV-7, TV-5")
                self._leaves_ok(action, counts, _replaced(self.table, action.meld, grown))
                return grown, counts
            if target.bird_stands_for(action.card) is None:
                rule = "TV-9: a bird in a set is never replaced" if target.kind == "set" else "TV-9"
                raise self._refuse(action, f"no bird of meld {action.meld} ({target.text()}) stands for "
                                   f"{card_name(action.card)}", rule)
            if L.BIRD not in action.new_meld:
                raise self._refuse(action, "the new meld must hold the bird taken from the run", "TV-9")
            meld = self._meld(action, action.new_meld)
            counts[L.BIRD] += 1                                 # the freed bird
            self._take_from_hand(action, counts, meld[1])
            mended = target.replace_bird(action.card)
            self._leaves_ok(action, counts, _replaced(self.table, action.meld, mended)
                            + [TableMeld(meld[0], player, meld[1])])
            return mended, meld, counts
        raise self._refuse(action, "after drawing: lay, meld, layoff, swap or discard", "TV-6")

    def is_legal(self, action: Action | str, player: int | None = None) -> bool:
        """Whether ``action`` (by ``player``, default the one to move) would be accepted
        (False for a ``player`` that :meth:`apply` refuses)."""
        who = self.to_move if player is None else _player_number(player, self.players)
        try:
            self._check(parse_action(action), -1 if who is None else who)
        except RookError:
            return False
        return True

    # --------------------------------------------------------------- actions
    def apply(self, action: Action | str, player: int | None = None) -> None:
        """Apply ``action`` by ``player`` (default: the player to move).

        :raises IllegalActionError: naming the rule broken; the game is unchanged.
        :raises NotationError: for text that is not an action.
        """
        action = parse_action(action)
        if player is None:
            player = self.to_move if self.to_move is not None else -1
        else:
            number = _player_number(player, self.players)
            if number is None:
                raise self._refuse(action, f"a player is 0..{self.players - 1}, not {quoted(player)}", None)
            player = number
        plan = self._check(action, player)
        self._history.append((player, action))
        if isinstance(action, Take):
            c = self.discard.pop()
            self.hands[player][c] += 1
            self.took = c
            self.phase = "play"
        elif isinstance(action, Draw):
            queue = [(player + k) % self.players for k in range(1, self.players)]
            queue = [p for p in queue if self.buys[p] < self.rules.max_buys]
            if self.discard and queue and len(self.stock) + max(0, len(self.discard) - 2) >= 2:
                self.buy_queue, self.phase = queue, "buy"                  # TV-8
            else:
                self._turn_draws()
        elif isinstance(action, Buy):
            self.hands[player][self.discard.pop()] += 1
            self.hands[player][self._draw_stock()] += 1                   # the penalty card
            self.buys[player] += 1
            self.buy_queue = []
            self._turn_draws()
        elif isinstance(action, Pass):
            self.buy_queue.pop(0)
            if not self.buy_queue:
                self._turn_draws()
        elif isinstance(action, Discard):
            self.hands[player][action.card] -= 1
            self.discard.append(action.card)
            if sum(self.hands[player]) == 0:
                self._end_round(player)                                    # TV-10
            else:
                self._next_turn()
        else:
            if isinstance(action, Lay):
                melds, counts = plan
                self.laid[player] = True
                self.table.extend(TableMeld(k, player, cards) for k, cards in melds)
            elif isinstance(action, Meld):
                (k, cards), counts = plan
                self.table.append(TableMeld(k, player, cards))
            elif isinstance(action, LayOff):
                grown, counts = plan
                self.table[action.meld] = grown
            else:
                mended, (k, cards), counts = plan
                self.table[action.meld] = mended
                self.table.append(TableMeld(k, player, cards))
            self.hands[player] = counts
            if sum(counts) == 0:
                self._end_round(player)                                    # TV-10

    def _turn_draws(self) -> None:
        self.hands[self.turn][self._draw_stock()] += 1
        self.phase = "play"

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % self.players
        self.took = None
        self.turns += 1
        self.phase = "draw"
        limit = self.rules.turn_limit
        if (limit is not None and self.turns > limit) or not (self._can_draw() or self._can_take(self.turn)):
            self._end_round(None)

    def _end_round(self, out: int | None) -> None:
        """Score the round (TV-12) and deal the next, or end the game."""
        self.round_scores.append([0 if p == out else sum(card_points(c) * k for c, k in enumerate(h) if k)
                                  for p, h in enumerate(self.hands)])
        self.went_out.append(out)
        self.ended.append(RoundEnd(self.round, out, self.turns, tuple(self.table),
                                   tuple(tuple(h) for h in self.hands), tuple(self.laid), tuple(self.buys)))
        self._round_index += 1
        if self._round_index == len(self.rules.rounds):
            self.phase = "over"
            self.buy_queue = []
        else:
            self._deal()

    def undo(self) -> None:
        """Undo the last action (replaying the others from the deal).

        :raises IllegalActionError: when nothing was played.
        """
        if not self._history:
            raise IllegalActionError("there is no action to undo")
        fresh = ToonervilleGame(self.rules, self.seed, self.first_dealer)
        for player, action in self._history[:-1]:
            fresh.apply(action, player)
        self.__dict__.update(fresh.__dict__)

    def clone(self) -> ToonervilleGame:
        g = ToonervilleGame.__new__(ToonervilleGame)
        g.__dict__.update(self.__dict__)
        for name in ("hands",):
            setattr(g, name, [list(h) for h in getattr(self, name)])
        for name in ("stock", "discard", "table", "laid", "buys", "buy_queue", "_history", "went_out", "ended"):
            setattr(g, name, list(getattr(self, name)))
        g.round_scores = [list(r) for r in self.round_scores]
        return g

    __copy__ = clone   # copy.copy too: a game shares no list with its copy

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToonervilleGame):
            return NotImplemented
        return (self.rules, self.seed, self.first_dealer, self._history) == \
            (other.rules, other.seed, other.first_dealer, other._history)

    __hash__ = None  # type: ignore[assignment]

    # ---------------------------------------------------------- legal actions
    def legal_actions(self, max_lays: int | None = None) -> list[Action]:
        """Return every action the player to move may take, in a fixed order.

        A hand rich in birds can lay its contract in a great many ways (10^5
        for a long one-color hand with three birds); ``max_lays`` lists at
        most that many of them, and stops looking after :data:`LAY_SEARCH_STEPS`
        melds tried, so the call stays short (some lay-downs may then be left
        out, never the contract solver's best one; :meth:`apply` accepts every
        one).

        :raises RookError: for a ``max_lays`` that is neither None nor an int >= 1."""
        if max_lays is not None and (isinstance(max_lays, bool) or not isinstance(max_lays, int) or max_lays < 1):
            raise RookError(f"max_lays must be None or an int >= 1, not {quoted(max_lays)}")
        if self.phase == "over":
            return []
        p = self.to_move
        assert p is not None
        if self.phase == "draw":
            first: list[Action] = [Draw()] if self._can_draw() else []
            return first + ([Take()] if self._can_take(p) else [])
        if self.phase == "buy":
            return [Buy(), Pass()] if self.buys[p] < self.rules.max_buys else [Pass()]
        counts = self.hands[p]
        out: list[Action] = []
        if not self.laid[p]:
            lays = self._lay_options(counts, max_lays)   # valid by construction: only what they leave is checked
            if max_lays is not None:
                best = self._best_lay(counts)                # a cut list still holds the solver's best lay-down
                if best is not None and best not in lays:
                    lays = [best] + lays[:max_lays - 1]
            out += [a for a in lays if self._lay_leaves_ok(a, p, counts)]
        else:
            frac = self.rules.max_wild_fraction
            out += [Meld(cards) for _, cards in candidate_melds(counts, frac)]
            held = [c for c in FULL_DECK if counts[c]]
            for i, m in enumerate(self.table):
                for c in held:
                    for end in (("low", "high") if c == L.BIRD and m.kind == "run" else (None,)):
                        if m.lay_off(c, end, frac) is not None:
                            out.append(LayOff(c, i, end))
                    if m.bird_stands_for(c) is not None:
                        freed = list(counts)
                        freed[c] -= 1
                        freed[L.BIRD] += 1
                        out += [Swap(c, i, cards) for _, cards in candidate_melds(freed, frac)
                                if L.BIRD in cards]
        out += [Discard(c) for c in FULL_DECK if counts[c]]
        return [a for a in out if isinstance(a, Lay) or self.is_legal(a, p)]

    def _best_lay(self, counts: list[int]) -> Lay | None:
        """The contract part of the contract solver's least-deadwood lay-down (TV-7, TV-12)."""
        from .solver import MAX_CARDS, solve_contract
        if sum(counts) > MAX_CARDS:
            return None
        res = solve_contract(MultiHand.from_counts(counts), self.contract, self.rules.max_wild_fraction)
        if not res.can_meet:
            return None
        return Lay(tuple(sorted(tuple(m) for m in res.melds[:self.contract.sets + self.contract.runs])))

    def _lay_leaves_ok(self, lay: Lay, player: int, counts: list[int]) -> bool:
        left = list(counts)
        for m in lay.melds:
            for c in m:
                left[c] -= 1
        if sum(left) > 1 and (self.took is None or left[self.took] != sum(left)):
            return True                                  # the common case: nothing to check
        laid = []
        for m in lay.melds:
            arranged = arrange_meld(m, self.rules.max_wild_fraction)
            assert arranged is not None
            laid.append(TableMeld(arranged[0], player, arranged[1]))
        try:
            self._leaves_ok(lay, left, self.table + laid)
        except IllegalActionError:
            return False
        return True

    def _lay_options(self, counts: list[int], limit: int | None = None) -> list[Lay]:
        """Every distinct way to lay the round's contract from ``counts`` (TV-7),
        or the first ``limit`` of them: its sets, then its runs, each list in
        candidate order so that no choice is made twice, a meld kept only
        while it fits what is left."""
        con = self.contract
        cands = candidate_melds(counts, self.rules.max_wild_fraction)
        need = [m for k, m in cands if k == "set"], [m for k, m in cands if k == "run"]
        found: list[tuple[tuple[int, ...], ...]] = []
        steps = 0

        def pick(left: list[int], kind: int, todo: int, start: int, chosen: list[tuple[int, ...]]) -> None:
            nonlocal steps
            if todo == 0:
                if kind == 0 and con.runs:
                    pick(left, 1, con.runs, 0, chosen)
                else:
                    found.append(tuple(sorted(chosen)))
                return
            melds = need[kind]
            for i in range(start, len(melds)):
                steps += 1
                if limit is not None and (len(found) >= limit or steps > LAY_SEARCH_STEPS):
                    return
                m = melds[i]
                if _take(left, m):
                    pick(left, kind, todo - 1, i, chosen + [m])
                for c in m:
                    left[c] += 1

        if con.sets:
            pick(list(counts), 0, con.sets, 0, [])
        else:
            pick(list(counts), 1, con.runs, 0, [])
        return [Lay(m) for m in sorted(found)]

    # ------------------------------------------------------------------ views
    def observation(self, player: int, legal: bool = True) -> dict[str, Any]:
        """Return what ``player`` may see: their own hand, hand sizes, the table,
        the top discard, the scores; the legal actions (as text) when it is
        their move and ``legal`` is true (at most :data:`LISTED_LAYS` ways to lay the
        contract).  Never another hand or the stock's order."""
        player = self._check_player(player)
        con = self.contract
        obs: dict[str, Any] = {
            "game": "toonerville", "players": self.players, "player": player,
            "round": self.round, "contract": {"sets": con.sets, "runs": con.runs,
                                              "discard_out": con.discard_out},
            "dealer": self.dealer, "turn": self.turn, "phase": self.phase, "to_move": self.to_move,
            "hand": _names(self.hands[player]), "hand_sizes": [sum(h) for h in self.hands],
            "stock_size": len(self.stock), "discard_top": card_name(self.discard[-1]) if self.discard else None,
            "discard_size": len(self.discard),
            "taken_discard": card_name(self.took) if self.took is not None else None,
            "table": [{"kind": m.kind, "owner": m.owner, "cards": [card_name(c) for c in m.cards]}
                      for m in self.table],
            "laid": list(self.laid), "buys": list(self.buys), "max_buys": self.rules.max_buys,
            "round_scores": [list(r) for r in self.round_scores], "totals": self.totals,
            "winners": self.winners,
        }
        if legal and self.to_move == player:
            obs["legal_actions"] = [str(a) for a in self.legal_actions(max_lays=LISTED_LAYS)]
        return obs

    def to_json(self) -> dict[str, Any]:
        """Return the game as JSON-ready data; :meth:`from_json` replays it exactly."""
        return {"format": GAME_FORMAT, "rules": self.rules.to_dict(), "seed": self.seed,
                "first_dealer": self.first_dealer,
                "actions": [[p, str(a)] for p, a in self._history],
                "summary": {"round": self.round, "totals": self.totals, "winners": self.winners}}

    @classmethod
    def from_json(cls, data: Any) -> ToonervilleGame:
        """Return the game :meth:`to_json` wrote (a dict or JSON text).

        :raises RookError: for a malformed document (a ``format`` other than
            ``rook-toonerville/1``, a ``summary`` that is no object, an action
            without its player) or an action the rules refuse.
        """
        what = "Toonerville game JSON"
        data = read_document(data, what, GAME_FORMAT, ("rules", "seed", "first_dealer", "actions"),
                             ("rules", "seed", "actions"))
        g = cls(ToonervilleRules.from_dict(data["rules"]), data["seed"], data.get("first_dealer", 0))
        if not isinstance(data["actions"], list):
            raise RookError(f"{what} 'actions' must be a list")
        for i, item in enumerate(data["actions"]):
            if not (isinstance(item, list) and len(item) == 2) or item[0] is None:
                raise RookError(f"{what} action {i} must be [player, action], not {quoted(item)}")
            try:
                g.apply(item[1], item[0])
            except RookError as e:
                raise type(e)(f"{what} action {i} ({quoted(item)}): {e}") from None
        return g

    def __repr__(self) -> str:
        return (f"<ToonervilleGame players={self.players} seed={self.seed} round={self.round} "
                f"phase={self.phase} totals={self.totals}>")

    def _head(self) -> str:
        c = self.contract
        move = "over" if self.is_over else f"{self.phase}, player {self.to_move} to move"
        return (f"Toonerville, {self.players} players, seed {self.seed}: round {self.round} ({c.sets} set(s), "
                f"{c.runs} run(s)), {move}")

    def _lines(self) -> list[tuple[str, str]]:
        """The game for people as (label, text) rows: each player's cards by name,
        the table's melds, the discard pile's top and the stock, the totals."""
        rows = [(f"player {p}", str(self.hand(p))) for p in range(self.players)]
        rows += [("table", f"{m.kind} of player {m.owner}: {' '.join(card_name(x) for x in m.cards)}")
                 for m in self.table]
        rows.append(("discard pile", f"{card_name(self.discard[-1]) if self.discard else '-'} on top; "
                     f"stock {len(self.stock)}"))
        rows.append(("totals", " / ".join(str(t) for t in self.totals)))
        return rows

    def __str__(self) -> str:
        """For people: the round and its contract (TV-2), who is to move, each player's
        cards by name, the table's melds, the discard pile's top, the totals."""
        return "\n".join([self._head()] + [f"  {k}: {t}" for k, t in self._lines()])

    def _repr_html_(self) -> str:
        """The same for Jupyter: the round over a table of the rest."""
        return html_table(self._lines(), "rook-toonerville", title=self._head())


def leave_problem(counts: list[int], table: list[TableMeld], took: int | None, rules: ToonervilleRules,
                  discard_out: bool) -> tuple[str, str] | None:
    """Why a play action may not leave the hand ``counts`` (with ``table`` the
    table after it), as (message, rule id), or None when it may.

    An action may not leave only copies of the card taken from the discard pile
    this turn (``took``), which could not be discarded (section 5), unless they
    can all still be melded or laid off (:func:`can_shed`).  Where the
    last card may not be a discard (``discard_out`` false: round 11, TV-10), it
    may leave one card only if that card can then be laid off on ``table``.
    So the player can always go out, or go on.  The game checks its actions
    with this, and the heuristic bot its plans."""
    left = sum(counts)
    if (rules.no_discard_of_taken and took is not None and left and counts[took] == left
            and not can_shed(took, left, table, rules.max_wild_fraction)):
        return (f"it would leave only {card_name(took)}, taken from the discard pile this turn, which "
                "cannot be discarded (no_discard_of_taken) nor all melded or laid off", "section 5")
    if discard_out or left != 1:
        return None
    last = next(c for c in FULL_DECK if counts[c])
    if not fits_table(last, table, rules.max_wild_fraction):
        return (f"the round cannot be ended by a discard, and the one card left ({card_name(last)}) could "
                "not be laid off", "TV-10")
    return None


def can_shed(card: int, copies: int, table: list[TableMeld], max_wild_fraction: float) -> bool:
    """Whether a hand of ``copies`` copies of ``card`` can all go into melds in
    one turn: three naturals or more as a set of their own, else laid off one
    by one on ``table`` (TV-4, TV-7)."""
    if copies == 0 or (card != L.BIRD and copies >= MIN_SET):
        return True
    if card == L.BIRD:                          # each meld takes birds whatever the others take
        room = 0
        for m in table:
            grown: TableMeld | None = m
            while room < copies and grown is not None:
                grown = next((g for end in ("low", "high", None)
                              if (g := grown.lay_off(card, end, max_wild_fraction)) is not None), None)
                room += grown is not None
        return room >= copies
    return any(can_shed(card, copies - 1, _replaced(table, i, g), max_wild_fraction)
               for i, m in enumerate(table) if (g := m.lay_off(card, None, max_wild_fraction)) is not None)


def _replaced(table: list[TableMeld], i: int, meld: TableMeld) -> list[TableMeld]:
    return table[:i] + [meld] + table[i + 1:]


def _take(counts: list[int], cards: Iterable[int]) -> bool:
    """Take ``cards`` from ``counts``; whether they were all there (the counts are
    left short by the cards, so a caller puts them back either way)."""
    ok = True
    for c in cards:
        counts[c] -= 1
        ok = ok and counts[c] >= 0
    return ok
