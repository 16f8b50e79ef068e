"""The trick rules of RULES.md, written out plainly (C-3, C-4, T-8 .. T-14).

This is the slow, obviously correct twin of ``src/rook/rules.h`` and of the
play phase of ``src/rook/hand.c``.  It is the oracle of the parity and perft
tests, never the product.  It works on plain card ids (``Card`` ints) held in
Python sets and lists and derives everything from the plain fields of a
:class:`~rook_core.variant.Variant` (``ranks``, ``bird``, ``bird_rank``,
``one_high``, ``permanent_trumps``, ``counters``, ``must_trump``,
``bird_anytime``, ``last_trick_bonus``, ``most_tricks_bonus``).  It does not
use the bit layout, ``Variant.strength_table``, ``points_table``,
``deck_mask`` or ``special_trumps_mask``: a mistake there must not be copied
here.

Terms used below:

* the *printed* color and rank of a colored card come from
  :class:`~rook_core.cards.Card`; the bird has neither (C-2);
* a card's *suit* is the color it belongs to for following and winning: the
  trump color for the bird (T-10) and for permanent trumps (section 4,
  ``red-one``), the printed color for every other card.

>>> from rook_core.variant import PRESETS
>>> from rook_core.cards import card_name, parse_card as c
>>> v = PRESETS["tournament"]
>>> sorted(card_name(x) for x in legal_cards(v, [c("B5"), c("R7"), c("Rook")], [c("B9")], trump=2))
['B5', 'Rook']
>>> trick_winner(v, [c("B9"), c("B5"), c("R5"), c("B14")], trump=2)
2
>>> card_points(v, [c("B5"), c("R10"), c("Rook"), c("G9")])
35
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rook_core.cards import BIRD, Card, card_name, parse_card
from rook_core.errors import NotationError
from rook_core.position import PositionData, parse_position
from rook_core.variant import Variant

__all__ = [
    "RefPlay", "card_points", "card_value", "deck_cards", "is_trump", "legal_cards",
    "perft", "play_card", "rank_value", "ref_play_from_position", "suit_of",
    "trick_winner", "trump_order",
]

COLORS = (0, 1, 2, 3)  # C-1: B, G, R, Y


# --------------------------------------------------------------------- cards

def _read_printed() -> dict[int, tuple[int | None, int | None]]:
    """Return the printed (color, rank) of every card id, read from Card
    (C-1, C-2); the bird has neither: (None, None)."""
    printed = {}
    for card_id in range(64):
        try:
            card = Card(card_id)
        except NotationError:
            continue
        printed[card_id] = (card.color, card.rank)
    return printed


_PRINTED = _read_printed()


def _printed_color(card: int) -> int:
    """Return the printed color of a colored card (C-1)."""
    color = _PRINTED[card][0]
    assert color is not None, "the bird has no printed color (C-2)"
    return color


def _printed_rank(card: int) -> int:
    """Return the printed rank of a colored card (C-1)."""
    rank = _PRINTED[card][1]
    assert rank is not None, "the bird has no printed rank (C-2)"
    return rank


def rank_value(variant: Variant, rank: int) -> int:
    """Return the place of a printed rank within its color: the rank itself,
    except that the 1 ranks above the 14 when ``one_high`` (C-4)."""
    if variant.one_high and rank == 1:
        return 15
    return rank


@dataclass(frozen=True)
class _Facts:
    """What the rules need to know about a variant's cards, derived once from
    its plain fields (so that the parity tests can afford a million calls)."""

    deck: frozenset[int]           # C-3 (+ permanent trumps, section 4)
    permanent: tuple[int, ...]     # section 4: always trump, highest first
    trump_orders: tuple[tuple[int, ...], ...]  # per trump color: lowest .. highest (C-4)
    values: dict[int, int]         # T-12: points of each card of the deck


_FACTS: dict[int, tuple[Variant, _Facts]] = {}  # id(variant) -> (variant kept alive, facts)


def _facts(variant: Variant) -> _Facts:
    entry = _FACTS.get(id(variant))
    if entry is None or entry[0] is not variant:
        permanent = tuple(int(parse_card(text)) for text in variant.permanent_trumps)
        deck = {int(Card.of(color, rank)) for color in COLORS for rank in variant.ranks}
        deck.update(permanent)
        if variant.bird:
            deck.add(BIRD)
        orders = tuple(tuple(_trump_order(variant, permanent, t)) for t in COLORS)
        values = {c: _card_value(variant, c) for c in deck}
        entry = _FACTS[id(variant)] = (variant, _Facts(frozenset(deck), permanent, orders, values))
    return entry[1]


def _trump_order(variant: Variant, permanent: tuple[int, ...], trump: int) -> list[int]:
    """See :func:`trump_order`."""
    colored = [int(Card.of(trump, rank)) for rank in variant.ranks]
    colored = [c for c in colored if c not in permanent]
    colored.sort(key=lambda c: rank_value(variant, _printed_rank(c)))
    if not variant.bird:
        order = colored
    elif variant.bird_rank == "low":
        order = [BIRD] + colored
    elif variant.bird_rank == "high":
        order = colored + [BIRD]
    else:
        where = variant.bird_rank
        assert isinstance(where, (int, float)), f"bird_rank {where!r} (C-4)"
        below = [c for c in colored if rank_value(variant, _printed_rank(c)) < where]
        above = [c for c in colored if rank_value(variant, _printed_rank(c)) > where]
        order = below + [BIRD] + above
    return order + list(reversed(permanent))


def _card_value(variant: Variant, card: int) -> int:
    """See :func:`card_value` (``card`` is in the deck)."""
    for key, points in variant.counters:
        if isinstance(key, str) and parse_card(key) == card:
            return points
    if card == BIRD:
        return 0
    for key, points in variant.counters:
        if isinstance(key, int) and key == _printed_rank(card):
            return points
    return 0


def deck_cards(variant: Variant) -> frozenset[int]:
    """Return every card of the variant's deck (C-3; section 4 adds
    permanent trumps such as ``red-one``'s R1)."""
    return _facts(variant).deck


def _is_trump(f: _Facts, card: int, trump: int) -> bool:
    return card == BIRD or card in f.permanent or _printed_color(card) == trump


def is_trump(variant: Variant, card: int, trump: int) -> bool:
    """Return whether ``card`` is a trump when ``trump`` is named: the bird
    (T-10), a permanent trump (section 4), or a card of the trump color."""
    return _is_trump(_facts(variant), card, trump)


def _suit_of(f: _Facts, card: int, trump: int) -> int:
    return trump if _is_trump(f, card, trump) else _printed_color(card)


def suit_of(variant: Variant, card: int, trump: int) -> int:
    """Return the color ``card`` belongs to for following and winning: the
    trump color for every trump (T-10), otherwise its printed color (T-9)."""
    return _suit_of(_facts(variant), card, trump)


def trump_order(variant: Variant, trump: int) -> list[int]:
    """Return the trumps of the deck from lowest to highest (C-4, T-11).

    The cards of the trump color in rank order (C-4, ``one_high``), the bird
    placed by ``bird_rank`` (``low`` below every trump, ``high`` above every
    trump color card, a number such as 10.5 between the two ranks around it),
    then the permanent trumps, which rank above the bird (section 4) and are
    listed highest first in the variant.
    """
    return list(_facts(variant).trump_orders[trump])


# ------------------------------------------------------------ the rule kernels

def legal_cards(variant: Variant, hand: Iterable[int], trick: list[int] | tuple[int, ...],
                trump: int) -> set[int]:
    """Return the cards of ``hand`` that may be played to ``trick`` (T-9, T-10).

    ``trick`` holds the cards played so far, the led card first; only the led
    card matters.  The leader may lead any card (T-9).  A player who holds a
    card of the led suit must play one (T-9); the bird and permanent trumps
    follow the trump color, so a led bird asks for trump and a bird that is a
    player's only trump must be played to a trump lead (T-10).  With
    ``bird_anytime`` the bird may be played instead of following (T-9).  A
    player void in the led suit plays any card, unless ``must_trump``: then a
    trump, if the player holds one (T-9).
    """
    f = _facts(variant)
    cards = {int(c) for c in hand}
    if not trick:
        return cards
    led_suit = _suit_of(f, trick[0], trump)
    following = {c for c in cards if _suit_of(f, c, trump) == led_suit}
    if following:
        if variant.bird_anytime and BIRD in cards:
            following.add(BIRD)
        return following
    if variant.must_trump:
        trumps = {c for c in cards if _is_trump(f, c, trump)}
        if trumps:
            return trumps
    return cards


def trick_winner(variant: Variant, trick: list[int] | tuple[int, ...], trump: int) -> int:
    """Return the index in ``trick`` (1 to 4 cards, led card first) of the
    card that wins it so far (T-11).

    If any trump was played (the bird and permanent trumps included, T-10),
    the highest trump in :func:`trump_order` wins (C-4); otherwise the highest
    card of the led color by :func:`rank_value` (C-4).  Cards of other colors
    never win.

    :raises ValueError: for an empty, too long or repeating trick.
    """
    if not 1 <= len(trick) <= 4:
        raise ValueError(f"a trick holds 1 to 4 cards, not {len(trick)}")
    if len(set(trick)) != len(trick):
        raise ValueError(f"a trick holds distinct cards, not {list(trick)}")
    f = _facts(variant)
    trump_positions = [i for i, c in enumerate(trick) if _is_trump(f, c, trump)]
    if trump_positions:
        order = f.trump_orders[trump]
        return max(trump_positions, key=lambda i: order.index(trick[i]))
    led_color = _printed_color(trick[0])
    following = [i for i, c in enumerate(trick) if _printed_color(c) == led_color]
    return max(following, key=lambda i: rank_value(variant, _printed_rank(trick[i])))


def card_value(variant: Variant, card: int) -> int:
    """Return the points of one card of the deck (T-12).

    ``counters`` entries are ``(rank, points)`` for every color,
    ``("Rook", points)`` for the bird, or ``("R1", points)`` for one card; an
    entry for one card overrides a rank entry.  Other cards are worth 0.

    :raises ValueError: for a card that is not in the deck (C-3).
    """
    if card not in deck_cards(variant):
        raise ValueError(f"card {card_name(card)} is not in the deck of {variant.name!r} (C-3)")
    return _facts(variant).values[card]


def card_points(variant: Variant, cards: Iterable[int]) -> int:
    """Return the counter points of ``cards`` (T-12).

    :raises ValueError: for a card that is not in the deck (C-3).
    """
    values = _facts(variant).values
    total = 0
    for card in cards:
        if card not in values:
            card_value(variant, card)  # raises, naming the card
        total += values[card]
    return total


# --------------------------------------------------------------- play-out

@dataclass
class RefPlay:
    """The play phase of one hand, every hand visible (T-8 .. T-14).

    ``hands[s]`` is seat ``s``'s cards; ``trick`` the cards of the current
    trick, led by ``leader``; ``points[t]`` team ``t``'s points so far
    (team = seat % 2); ``nest_points`` the points the last trick's team takes
    with the nest (T-13); ``tricks_won`` counts the tricks completed in this
    model (for the section 4 ``most_tricks_bonus``); ``last_winner`` the seat
    that took the latest completed trick.  The nest always goes to the last
    trick (``nest_to = "last_trick"``, T-13).
    """

    variant: Variant
    trump: int
    leader: int
    trick: list[int]
    hands: list[set[int]]
    points: list[int] = field(default_factory=lambda: [0, 0])
    nest_points: int = 0
    last_winner: int | None = None
    tricks_won: list[int] = field(default_factory=lambda: [0, 0])

    @property
    def to_move(self) -> int:
        """Return the seat to play: the leader, then clockwise (T-8)."""
        return (self.leader + len(self.trick)) % 4

    @property
    def is_over(self) -> bool:
        """Return whether every card has been played (T-8: hand_size tricks)."""
        return not self.trick and not any(self.hands)

    def legal(self) -> set[int]:
        """Return the legal cards of the seat to move (T-9, T-10)."""
        if self.is_over:
            return set()
        return legal_cards(self.variant, self.hands[self.to_move], self.trick, self.trump)

    def copy(self) -> RefPlay:
        return RefPlay(self.variant, self.trump, self.leader, list(self.trick),
                       [set(h) for h in self.hands], list(self.points), self.nest_points,
                       self.last_winner, list(self.tricks_won))


def play_card(state: RefPlay, card: int) -> RefPlay:
    """Return the state after the seat to move plays ``card``; ``state`` is
    left unchanged.

    A fourth card completes the trick: its winner (T-11) takes the trick's
    counters for their team (T-12) and leads the next trick (T-8).  When every
    hand is empty the team of the last trick's winner also takes the nest
    points and the ``last_trick_bonus`` (T-13, T-14), and the team that took
    more tricks in this play-out gets ``most_tricks_bonus`` (section 4).

    :raises ValueError: when the hand is over or ``card`` is not legal (T-9, T-10).
    """
    if state.is_over:
        raise ValueError("the hand is over: every card has been played")
    if card not in state.legal():
        raise ValueError(f"seat {state.to_move} may not play {Card(card)} (T-9, T-10)")
    return _play_legal_card(state, card)


def _play_legal_card(state: RefPlay, card: int) -> RefPlay:
    """Return :func:`play_card`'s result for a card known to be legal."""
    new = state.copy()
    new.hands[new.to_move].remove(card)
    new.trick.append(card)
    if len(new.trick) < 4:
        return new
    winner = (new.leader + trick_winner(new.variant, new.trick, new.trump)) % 4
    team = winner % 2
    new.points[team] += card_points(new.variant, new.trick)
    new.tricks_won[team] += 1
    new.last_winner = winner
    new.leader = winner
    new.trick = []
    if not any(new.hands):
        new.points[team] += new.nest_points + new.variant.last_trick_bonus
        if new.tricks_won[0] != new.tricks_won[1]:
            most = 0 if new.tricks_won[0] > new.tricks_won[1] else 1
            new.points[most] += new.variant.most_tricks_bonus
    return new


def ref_play_from_position(position: PositionData) -> RefPlay:
    """Return the :class:`RefPlay` of a FORMATS.md trick-play position
    (``taken`` becomes the starting points).  Reading the position goes
    through ``parse_position``, which checks the cards already in the trick
    with the native kernel; everything after that is the reference's own.

    :raises PositionError: for an inconsistent position (see ``parse_position``).
    """
    p = parse_position(position)
    hands = [set(_cards_of(mask)) for mask in p.hands]
    return RefPlay(p.variant, p.trump, p.leader, list(p.trick), hands,
                   list(p.taken), p.nest_points, tricks_won=list(p.tricks_won()))


def _cards_of(mask: int) -> list[int]:
    """Return the card ids in ``mask`` (the form a Position holds hands in)."""
    return [i for i in range(64) if mask >> i & 1]


def perft(position: PositionData | RefPlay, depth: int) -> list[int]:
    """Return ``[n1, ..., n_depth]``: the number of distinct legal sequences
    of the next 1 .. depth cards (FORMATS.md ``rook perft``).  A sequence that
    ends the hand counts at every deeper length too (T-8, T-9, T-10)."""
    state = position if isinstance(position, RefPlay) else ref_play_from_position(position)
    counts = [0] * depth

    def walk(s: RefPlay, d: int) -> None:
        for card in sorted(s.legal()):
            child = _play_legal_card(s, card)
            counts[d] += 1
            if child.is_over:
                for k in range(d + 1, depth):
                    counts[k] += 1
            elif d + 1 < depth:
                walk(child, d + 1)

    if depth > 0 and not state.is_over:
        walk(state, 0)
    return counts
