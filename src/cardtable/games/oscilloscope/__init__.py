"""Oscilloscope: a card game for 1 to 4 players read off an oscilloscope screen.

The table is a scope: each channel (pulse train) is a row of five square-wave cards, the time
base scrolls left every set, and a trigger fires when the card under it matches, capturing the
whole time slice. See docs/games/oscilloscope.md and the rulebook's rule ids OSC-R*.
"""

from .actions import (
    AssignTrain,
    Capture,
    ChooseFilters,
    Deck,
    Decline,
    Discard,
    Draw,
    Exchange,
    KeepFilter,
    KeepTrigger,
    Pass,
    PlaceTrigger,
    Refill,
    parse_action,
)
from .cards import CARD_TYPES, PULSE_DECK, TRIGGER_DECK, Card, CardType, Edge, Level
from .events import OscilloscopeEvent, describe_event
from .game import OscilloscopeGame, build_train
from .rules import OscilloscopeRules
from .state import OscilloscopeState
from .vocab import Phase

__all__ = [
    "CARD_TYPES", "PULSE_DECK", "TRIGGER_DECK", "AssignTrain", "Capture", "Card", "CardType", "ChooseFilters",
    "Decline", "Deck", "Discard", "Draw", "Edge", "Exchange", "KeepFilter", "KeepTrigger", "Level",
    "OscilloscopeEvent", "OscilloscopeGame", "OscilloscopeRules", "OscilloscopeState", "Pass", "Phase",
    "PlaceTrigger", "Refill", "build_train", "describe_event", "parse_action",
]
