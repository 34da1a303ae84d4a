"""Oscilloscope cards as data: the eight card types, both decks, and the signal levels each card draws.

A card is one segment of a square wave. ``CARD_TYPES`` says, for every type, how many copies each
deck holds, what the seed's drawing shows (OSC rulebook §2.1) and the signal level at its left and
right edges, which is what a terminal or a browser draws as the waveform.

>>> CARD_TYPES[Card.HL].left, CARD_TYPES[Card.HL].right
(<Edge.HIGH: 'H'>, <Edge.LOW: 'L'>)
>>> sum(CARD_TYPES[c].total for c in Card)
110
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Final


class Card(IntEnum):
    """The eight card types; the value is the card's index in every table of the engine."""

    HL = 0
    """Hi→Low: a falling edge (pulse card)."""
    LH = 1
    """Low→Hi: a rising edge (pulse card)."""
    LOH = 2
    """Low or Hi: a flat line at whatever level comes in (pulse card, and a trigger from hand)."""
    NOISE = 3
    """Noise: a glitch that accepts any level and leaves a wild one (pulse card)."""
    CLEAR = 4
    """Clear: a trigger with no condition that cancels a captured noise."""
    T_HL = 5
    """Hi→Low trigger: fires on a falling edge."""
    T_LH = 6
    """Low→Hi trigger: fires on a rising edge."""
    T_BOTH = 7
    """Both trigger: fires on either edge."""

    def __repr__(self) -> str:
        return f"Card.{self.name}"


class Level(IntEnum):
    """The signal level a placed card leaves at its right edge (its stored out-level, D1)."""

    HIGH = 0
    LOW = 1
    WILD = 2
    """``*``: no level (after noise, or a flat card with nothing before it); anything may follow."""

    @property
    def symbol(self) -> str:
        """``H``, ``L`` or ``*``, as positions and the rulebook write it."""
        return LEVEL_SYMBOLS[self]

    def __repr__(self) -> str:
        return f"Level.{self.name}"


LEVEL_SYMBOLS: Final = ("H", "L", "*")
LEVEL_BY_SYMBOL: Final = {"H": Level.HIGH, "L": Level.LOW, "*": Level.WILD}


class Edge(Enum):
    """What a card draws at one of its edges (rulebook §2.1 'left-edge / right-edge level')."""

    HIGH = "H"
    """The line is high."""
    LOW = "L"
    """The line is low."""
    FOLLOW = "="
    """The line is at the incoming level (the flat 'Low or Hi' card)."""
    BOTH = "HL"
    """Two lines, one high and one low (the X of the both trigger)."""
    NONE = "-"
    """No line is drawn (noise and clear carry a word, not a line)."""


class Stroke(Enum):
    """How the seed draws a card: right-angle steps for pulses, diagonals for triggers (OSC-I4)."""

    STEP = "step"
    FLAT = "flat"
    SLOPE = "slope"
    WORD = "word"


@dataclass(frozen=True)
class CardType:
    """One card type: names, how many of it each deck holds, its drawing and its edge levels."""

    card: Card
    seed_name: str
    """The name printed in the seed's card table."""
    english: str
    pulse_deck: int
    """Copies in the pulse deck (OSC-R1)."""
    trigger_deck: int
    """Copies in the trigger deck (OSC-R1)."""
    left: Edge
    right: Edge
    stroke: Stroke
    drawing: str
    """The seed's description of the drawing, in English."""

    @property
    def total(self) -> int:
        """Copies of this type in the whole game."""
        return self.pulse_deck + self.trigger_deck

    @property
    def token(self) -> str:
        """The card's name in notation and positions (``HL``, ``T_BOTH`` ...)."""
        return self.card.name


CARD_TYPES: Final[tuple[CardType, ...]] = (
    CardType(Card.HL, "Hi→Low", "falling edge", 20, 0, Edge.HIGH, Edge.LOW, Stroke.STEP,
             "starts upper-left, drops at a right angle, continues lower-right"),
    CardType(Card.LH, "Low→Hi", "rising edge", 20, 0, Edge.LOW, Edge.HIGH, Stroke.STEP,
             "starts lower-left, rises at a right angle, continues upper-right"),
    CardType(Card.LOH, "Low or Hi", "flat level", 15, 5, Edge.FOLLOW, Edge.FOLLOW, Stroke.FLAT,
             "one straight horizontal line"),
    CardType(Card.NOISE, "noise", "noise", 15, 0, Edge.NONE, Edge.NONE, Stroke.WORD,
             "the word 'noise'"),
    CardType(Card.CLEAR, "clear", "clear", 0, 5, Edge.NONE, Edge.NONE, Stroke.WORD,
             "the word 'clear'"),
    CardType(Card.T_HL, "Hi→Low trigger", "falling-edge trigger", 0, 10, Edge.HIGH, Edge.LOW, Stroke.SLOPE,
             "a diagonal from upper-left to lower-right"),
    CardType(Card.T_LH, "Low→Hi trigger", "rising-edge trigger", 0, 10, Edge.LOW, Edge.HIGH, Stroke.SLOPE,
             "a diagonal from lower-left to upper-right"),
    CardType(Card.T_BOTH, "both trigger", "either-edge trigger", 0, 10, Edge.BOTH, Edge.BOTH, Stroke.SLOPE,
             "both diagonals, an X"),
)

CARD_BY_TOKEN: Final[dict[str, Card]] = {c.name: c for c in Card}
TOKENS: Final[tuple[str, ...]] = tuple(c.name for c in Card)

PULSE_DECK: Final[tuple[Card, ...]] = tuple(c.card for c in CARD_TYPES for _ in range(c.pulse_deck))
"""The 70-card pulse deck (OSC-R1): HL 20, LH 20, LOH 15, NOISE 15."""
TRIGGER_DECK: Final[tuple[Card, ...]] = tuple(c.card for c in CARD_TYPES for _ in range(c.trigger_deck))
"""The 40-card trigger deck (OSC-R1): LOH 5, CLEAR 5, T_HL 10, T_LH 10, T_BOTH 10."""
ALL_CARDS: Final[Counter[str]] = Counter({c.token: c.total for c in CARD_TYPES})
"""All 110 cards by token: what the zones of every position add up to (§2.3, OSC-I3: an LOH from
either deck is the same card; OSC-I2: the seed's フィルタ山札 is the trigger deck)."""

# Card classes (§2.1), as tuples indexed by card value for the hot path.
IS_PULSE_TYPE: Final = (True, True, True, True, False, False, False, False)
"""May sit in a train: HL, LH, LOH, NOISE."""
IS_XX_TRIGGER: Final = (False, False, False, False, False, True, True, True)
"""The seed's "XX trigger": T_HL, T_LH, T_BOTH."""
IS_TRIGGER_CAPABLE: Final = (False, False, True, False, True, True, True, True)
"""May be placed as a trigger from hand: LOH, CLEAR and the XX triggers (OSC-I14)."""
IS_CONDITIONAL: Final = (False, False, True, False, False, True, True, True)
"""Trigger-capable cards that set a condition (every trigger but CLEAR)."""
IS_TRIGGER_DECK_KIND: Final = (False, False, True, False, True, True, True, True)
"""Kinds the trigger deck can hold (it is never refilled, OSC-R45)."""
IS_WAVEFORM: Final = (True, True, True, False, False, True, True, True)
"""Waveform score cards (D9): everything but NOISE and CLEAR."""
TRIGGER_KINDS: Final[tuple[Card, ...]] = (Card.LOH, Card.CLEAR, Card.T_HL, Card.T_LH, Card.T_BOTH)
"""Trigger-capable kinds in card order (the order legal placements are listed in)."""

TRAIN_LETTERS: Final = "ABCDEF"
"""Trains (channels) are named A, B, C ... in the order they are built (OSC-R3)."""
POSITIONS: Final = 5
"""Time positions 1 (leftmost, oldest) to 5 (rightmost, newest)."""


def train_name(train: int) -> str:
    """The letter of a train: 0 -> ``A``."""
    return TRAIN_LETTERS[train]


def slot_name(train: int, position: int) -> str:
    """A slot in notation: train letter then time position 1-5, e.g. ``A3``."""
    return f"{TRAIN_LETTERS[train]}{position}"
