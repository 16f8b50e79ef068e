"""The one integer action space of a trick-taking hand, and its text form.

=====================  ==============================================================
action                 meaning
=====================  ==============================================================
``0 .. 63``            a card id: discard it to the nest (T-20, T-21), put it aside
                       to pass (T-22), or play it to the trick (T-8 .. T-11)
``PASS`` (64)          pass in the bidding (T-4)
``TRUMP + c`` (65-68)  name color ``c`` trump (T-7); B=65, G=66, R=67, Y=68
``PENALTY + t`` (69,70) record the T-35 penalty against team ``t``; allowed in any
                       phase, never listed as legal, does not change the turn
``BID + n`` (72 + n)   bid ``n`` points (T-3), e.g. 142 bids 70
=====================  ==============================================================

The same numbers are used by the C core (``src/rook/layout.h``, generated), bots, the
simulator and the JSON forms.  Text forms: a card (``R14``), ``pass``,
``bid 70`` (or just ``70``), ``trump R`` (or ``trump Red``), ``penalty 0``.

>>> parse_action("bid 75"), action_name(147), action_name(parse_action("trump y"))
(147, 'bid 75', 'trump Y')
"""

from __future__ import annotations

from enum import IntEnum
from typing import Protocol

from . import _layout as L
from .cards import card_name, color_name, parse_card, parse_color
from .errors import NotationError, RookError

__all__ = ["PASS", "TRUMP", "PENALTY", "BID", "MAX_BID_LIMIT", "N_ACTIONS", "Phase",
           "action_name", "parse_action", "bid_action", "trump_action", "replay"]

# the encoding is generated from one table (tools/gen_layout.py) for C, Cython and Python
PASS = L.ACTION_PASS
TRUMP = L.ACTION_TRUMP
PENALTY = L.ACTION_PENALTY
BID = L.ACTION_BID
MAX_BID_LIMIT = L.MAX_BID_LIMIT
N_ACTIONS = L.N_ACTIONS


class Phase(IntEnum):
    """The phases of a hand (T-1 .. T-14), numbered as ``_layout.PHASES`` (tests/test_layout.py).

    A phase is the same thing everywhere: ``HandState.phase`` and a typed
    observation's ``phase`` are a ``Phase``, and the JSON forms (observations,
    ``rook engine``, the service) carry its :attr:`label`.  So that the two
    agree, a phase also equals its label and prints as it:
    ``h.phase == h.observation(0)["phase"]`` holds, and ``str(Phase.PLAY)`` is
    ``'play'``.  It still equals its number (``Phase.PLAY == 4``) and hashes
    as that number.
    """

    BID = 0
    NEST = 1
    TRUMP = 2
    PASS = 3
    PLAY = 4
    DONE = 5
    THROWN_IN = 6

    @property
    def label(self) -> str:
        """The phase's name in JSON: ``bid``, ``nest``, ``trump``, ``pass``, ``play``, ``done``, ``thrown_in``."""
        return self.name.lower()

    @classmethod
    def parse(cls, phase: Phase | int | str) -> Phase:
        """Return the phase of a label, a number or a phase.

        :raises NotationError: for anything else.
        """
        if isinstance(phase, str):
            for p in cls:
                if p.label == phase:
                    return p
        elif isinstance(phase, int) and not isinstance(phase, bool) and 0 <= phase < len(cls):
            return cls(phase)
        raise NotationError(f"no phase {phase!r}; the phases are {', '.join(p.label for p in cls)}", phase)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return self.label == other
        return int.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = IntEnum.__hash__

    def __str__(self) -> str:
        return self.label

    def __format__(self, spec: str) -> str:
        return format(self.label, spec)


def bid_action(amount: int) -> int:
    """Return the action that bids ``amount`` points."""
    if not isinstance(amount, int) or not 0 < amount <= MAX_BID_LIMIT:
        raise NotationError(f"a bid must be a whole number 1..{MAX_BID_LIMIT}, not {amount!r}", amount)
    return BID + amount


def trump_action(color: int | str) -> int:
    """Return the action that names ``color`` trump."""
    return TRUMP + parse_color(color)


def action_name(action: int) -> str:
    """Return the text form of ``action``.

    :raises NotationError: for a number outside the encoding.
    """
    if isinstance(action, int) and not isinstance(action, bool):
        if 0 <= action < 64:
            return card_name(action)
        if action == PASS:
            return "pass"
        if TRUMP <= action < TRUMP + 4:
            return f"trump {color_name(action - TRUMP)}"
        if action in (PENALTY, PENALTY + 1):
            return f"penalty {action - PENALTY}"
        if BID < action < N_ACTIONS:
            return f"bid {action - BID}"
    raise NotationError(f"{action!r} is not an action of the encoding", action)


def parse_action(text: str | int) -> int:
    """Return the action written ``text`` (an int is checked and returned).

    :raises NotationError: quoting ``text`` when it is not an action.
    """
    if isinstance(text, int) and not isinstance(text, bool):
        action_name(text)
        return text
    if not isinstance(text, str):
        raise NotationError(f"an action must be text or an int, not {text!r}", text)
    words = text.split()
    t = [w.lower() for w in words]
    try:
        if len(t) == 1 and t[0] == "pass":
            return PASS
        if len(t) == 1 and t[0].isascii() and t[0].isdigit():
            return bid_action(int(t[0]))
        if len(t) == 2 and t[0] == "bid" and t[1].isascii() and t[1].isdigit():
            return bid_action(int(t[1]))
        if len(t) == 2 and t[0] == "trump":
            return trump_action(words[1])
        if len(t) == 2 and t[0] == "penalty" and t[1] in ("0", "1"):
            return PENALTY + int(t[1])
        if len(t) == 1:
            return int(parse_card(words[0]))
    except NotationError as e:
        raise NotationError(f"bad action {text!r}: {e}", text) from None
    raise NotationError(f"unknown action {text!r} (a card, 'pass', 'bid N', 'trump C' or 'penalty T')", text)


class _Applies(Protocol):
    def apply(self, action: int, seat: int | None = None) -> None: ...


def replay(target: _Applies, actions: object, what: str) -> None:
    """Apply ``actions`` (ints or their text forms) to ``target`` in order.

    :raises RookError: naming the index and text of the first action refused.
    """
    if not isinstance(actions, list):
        raise RookError(f"{what} 'actions' must be a list")
    for i, a in enumerate(actions):
        try:
            target.apply(parse_action(a))
        except RookError as e:
            raise type(e)(f"{what} action {i} ({a!r}): {e}") from None
