"""Zeta (技術四目並べ・ゼータζ): four in a row on a 6x6 grid with 25-card decks of cards with costs and effects."""

from .actions import ChooseLine, Decline, DestroyFromHand, Mulligan, Pass, Place, Target
from .cards import CARD_BY_ID, CARDS, CardType, card
from .decks import Deck, DeckError, deck_from_mapping, load_deck_file, preset, random_deck, validate_deck
from .events import ZetaEvent, describe_event
from .game import ZetaGame
from .rules import ZetaRules
from .state import ZetaState
from .vocab import EndReason, Phase

__all__ = [
    "CARDS", "CARD_BY_ID", "CardType", "ChooseLine", "Decline", "Deck", "DeckError", "DestroyFromHand", "EndReason",
    "Mulligan", "Pass", "Phase", "Place", "Target", "ZetaEvent", "ZetaGame", "ZetaRules", "ZetaState", "card",
    "deck_from_mapping", "describe_event", "load_deck_file", "preset", "random_deck", "validate_deck",
]
