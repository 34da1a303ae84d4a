"""Oscilloscope actions: one small frozen value per kind of decision, with a canonical string.

Notation (see docs/games/oscilloscope.md): trains are letters ``A``-``F``, time positions 1-5, a
slot is ``A3``; cards are ``HL LH LOH NOISE CLEAR T_HL T_LH T_BOTH``; levels ``H`` and ``L``.

>>> from cardtable.games.oscilloscope.actions import parse_action
>>> str(parse_action("place T_HL A3"))
'place T_HL A3'
>>> parse_action("refill B LOH H")
Refill.parse('refill B LOH H')
>>> parse_action("pass") == PASS, parse_action("decline") == DECLINE
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from cardtable.core import Action, InvalidAction
from cardtable.core.actions import DECLINE as DECLINE
from cardtable.core.actions import PASS as PASS
from cardtable.core.actions import Decline as Decline
from cardtable.core.actions import Pass as Pass

from .cards import CARD_BY_TOKEN, LEVEL_BY_SYMBOL, POSITIONS, TRAIN_LETTERS, Card, Level


class Deck(Enum):
    """The two decks a top-up may draw from (OSC-R40)."""

    PULSE = "pulse"
    TRIGGER = "trigger"

    def __repr__(self) -> str:
        return f"Deck.{self.name}"


@dataclass(frozen=True, slots=True, repr=False)
class AssignTrain(Action):
    """Take an unassigned train as your own (OSC-R6): ``assign B``."""

    train: int

    def __str__(self) -> str:
        return f"assign {TRAIN_LETTERS[self.train]}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.train) ^ 0xdf2d23


@dataclass(frozen=True, slots=True, repr=False)
class ChooseFilters(Action):
    """Solo setup: the filters for train A and train B; the third card is the stock (OSC-R8)."""

    a: Card
    b: Card

    def __str__(self) -> str:
        return f"filters A={self.a.name} B={self.b.name}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash((self.a, self.b)) ^ 0x2e4cb2


@dataclass(frozen=True, slots=True, repr=False)
class PlaceTrigger(Action):
    """Lay a trigger-capable card from hand on a slot (OSC-R12): ``place T_HL A3``."""

    card: Card
    train: int
    position: int
    """Time position 1-5."""

    def __str__(self) -> str:
        return f"place {self.card.name} {TRAIN_LETTERS[self.train]}{self.position}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash((self.card, self.train, self.position)) ^ 0x1a0dd3


@dataclass(frozen=True, slots=True, repr=False)
class Capture(Action):
    """Take the capture the triggers offer (only under ``capture_optional``, OSC-I33); ``decline`` refuses it."""

    def __str__(self) -> str:
        return "capture"

    def __hash__(self) -> int:
        """A constant: every value of this kind is equal (and search trees look actions up often)."""
        return 0x439f79


@dataclass(frozen=True, slots=True, repr=False)
class KeepTrigger(Action):
    """Keep one conditional trigger of the captured position as a score card (OSC-R30)."""

    card: Card

    def __str__(self) -> str:
        return f"keep {self.card.name}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.card) ^ 0x3e5cb7


@dataclass(frozen=True, slots=True, repr=False)
class KeepFilter(Action):
    """Solo: keep the filter of this train as a score card (OSC-R57): ``keep A``."""

    train: int

    def __str__(self) -> str:
        return f"keep {TRAIN_LETTERS[self.train]}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.train) ^ 0xedd5b6


@dataclass(frozen=True, slots=True, repr=False)
class Refill(Action):
    """Play a connecting card from hand at the refill slot of a train (OSC-R37): ``refill A HL``.

    ``level`` is the declared level of a Low or Hi card after a wild level (``flat_after_wild =
    declare``) and None otherwise.
    """

    train: int
    card: Card
    level: Level | None = None

    def __str__(self) -> str:
        text = f"refill {TRAIN_LETTERS[self.train]} {self.card.name}"
        return text if self.level is None else f"{text} {self.level.symbol}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash((self.train, self.card, self.level)) ^ 0x51a1ca


@dataclass(frozen=True, slots=True, repr=False)
class Discard(Action):
    """Refill with a card that does not connect: it goes to the discard pile (OSC-R37)."""

    card: Card

    def __str__(self) -> str:
        return f"discard {self.card.name}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.card) ^ 0xf10d56


@dataclass(frozen=True, slots=True, repr=False)
class Draw(Action):
    """Top-up: draw one card from this deck (OSC-R40): ``draw pulse`` or ``draw trigger``."""

    deck: Deck

    def __str__(self) -> str:
        return f"draw {self.deck.value}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.deck) ^ 0xc01231


@dataclass(frozen=True, slots=True, repr=False)
class Exchange(Action):
    """Solo: put the stock in this train's filter position, discarding any filter there (OSC-R55)."""

    train: int

    def __str__(self) -> str:
        return f"exchange {TRAIN_LETTERS[self.train]}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.train) ^ 0x4dd22f


OscilloscopeAction = (AssignTrain | ChooseFilters | PlaceTrigger | Pass | Capture | Decline | KeepTrigger | KeepFilter
                      | Refill | Discard | Draw | Exchange)
"""Every Oscilloscope action; ``Pass`` (place nothing more, OSC-R13, OSC-R42, OSC-I22) and ``Decline``
(refuse an optional capture, OSC-I33) are the shared actions of :mod:`cardtable.core.actions`."""

CAPTURE: Final = Capture()
DRAW_PULSE: Final = Draw(Deck.PULSE)
DRAW_TRIGGER: Final = Draw(Deck.TRIGGER)

# Every action a position can offer, made once: legal-action lists reuse these values.
PLACE: Final = tuple(tuple(tuple(PlaceTrigger(card, t, p + 1) for p in range(POSITIONS))
                           for t in range(len(TRAIN_LETTERS))) for card in Card)
"""``PLACE[card][train][slot]`` with slot 0-based."""
REFILL: Final = tuple(tuple(Refill(t, card) for card in Card) for t in range(len(TRAIN_LETTERS)))
"""``REFILL[train][card]`` (no declared level)."""
REFILL_DECLARED: Final = tuple(tuple(tuple(Refill(t, card, level) for level in (Level.HIGH, Level.LOW)) for card in Card)
                               for t in range(len(TRAIN_LETTERS)))
"""``REFILL_DECLARED[train][card][level]`` for levels HIGH (0) and LOW (1)."""
DISCARD: Final = tuple(Discard(card) for card in Card)
KEEP_TRIGGER: Final = tuple(KeepTrigger(card) for card in Card)
KEEP_FILTER: Final = tuple(KeepFilter(t) for t in range(len(TRAIN_LETTERS)))
ASSIGN: Final = tuple(AssignTrain(t) for t in range(len(TRAIN_LETTERS)))
EXCHANGE: Final = tuple(Exchange(t) for t in range(len(TRAIN_LETTERS)))


def _train(token: str, text: str) -> int:
    if len(token) != 1 or token not in TRAIN_LETTERS:
        raise InvalidAction(text, f"{token!r} is not a train (A-F)", game="oscilloscope")
    return TRAIN_LETTERS.index(token)


def _card(token: str, text: str) -> Card:
    card = CARD_BY_TOKEN.get(token)
    if card is None:
        raise InvalidAction(text, f"{token!r} is not a card ({', '.join(CARD_BY_TOKEN)})", game="oscilloscope")
    return card


def _words(text: str, count: int) -> list[str]:
    words = text.split(" ")
    if len(words) != count:
        raise InvalidAction(text, f"expected {count} words separated by single spaces", game="oscilloscope")
    return words


def parse_action(text: object) -> OscilloscopeAction:
    """Parse canonical notation into an action; anything else raises InvalidAction."""
    if not isinstance(text, str):
        raise InvalidAction(text, "expected a string", game="oscilloscope")
    verb = text.split(" ", 1)[0]
    if verb == "pass" and text == "pass":
        return PASS
    if verb == "capture" and text == verb:
        return CAPTURE
    if verb == "decline" and text == verb:
        return DECLINE
    if verb == "place":
        _, card, slot = _words(text, 3)
        if len(slot) != 2 or slot[1] not in "12345":
            raise InvalidAction(text, f"{slot!r} is not a slot like A3", game="oscilloscope")
        return PLACE[_card(card, text)][_train(slot[0], text)][int(slot[1]) - 1]
    if verb == "refill":
        words = text.split(" ")
        if len(words) == 4:
            level = LEVEL_BY_SYMBOL.get(words[3])
            if level is None or level is Level.WILD:
                raise InvalidAction(text, f"{words[3]!r} is not a declared level (H or L)", game="oscilloscope")
            return REFILL_DECLARED[_train(words[1], text)][_card(words[2], text)][level]
        _, train, card = _words(text, 3)
        return REFILL[_train(train, text)][_card(card, text)]
    if verb == "discard":
        return DISCARD[_card(_words(text, 2)[1], text)]
    if verb == "keep":
        token = _words(text, 2)[1]
        if token in CARD_BY_TOKEN:
            return KEEP_TRIGGER[CARD_BY_TOKEN[token]]
        return KEEP_FILTER[_train(token, text)]
    if verb == "draw":
        token = _words(text, 2)[1]
        if token == "pulse":
            return DRAW_PULSE
        if token == "trigger":
            return DRAW_TRIGGER
        raise InvalidAction(text, "draw from 'pulse' or 'trigger'", game="oscilloscope")
    if verb == "assign":
        return ASSIGN[_train(_words(text, 2)[1], text)]
    if verb == "exchange":
        return EXCHANGE[_train(_words(text, 2)[1], text)]
    if verb == "filters":
        _, a, b = _words(text, 3)
        if not a.startswith("A=") or not b.startswith("B="):
            raise InvalidAction(text, "write filters A=<card> B=<card>", game="oscilloscope")
        return ChooseFilters(_card(a[2:], text), _card(b[2:], text))
    raise InvalidAction(text, "unknown verb; expected place, pass, capture, decline, keep, refill, discard, draw, "
                              "assign, exchange or filters", game="oscilloscope")
