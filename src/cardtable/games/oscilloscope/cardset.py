"""Oscilloscope's numbers as a card set (``cardtable cards export oscilloscope``): the decks' composition
(OSC rulebook §2.1) and the numbers of the rule flags a designer tunes.

The composition is shown for reference and fixed in this version (the engine deals from the module's
decks); a set that changes it is refused with the card and the rule named, and so is one whose pulse and
trigger decks no longer hold the seed's 110 cards (card conservation).

>>> sum(n.default for n in SPEC.numbers if n.field in ("pulse_deck", "trigger_deck"))
110
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardtable.core.cardset import CardSetSpec, Item, Number

from .cards import CARD_TYPES

ITEMS: tuple[Item, ...] = (
    *(Item(t.token.lower(), t.seed_name, t.english, "OSC-R1") for t in CARD_TYPES),
    Item("trigger", "トリガー", "Trigger", "OSC-I19", kind="component"),
    Item("noise", "ノイズ", "Noise", "OSC-I49", kind="component"),
    Item("stall", "停滞", "Stall", "OSC-I67", kind="component"),
)

NUMBERS: tuple[Number, ...] = (
    *(n for t in CARD_TYPES for n in (
        Number(t.token.lower(), "pulse_deck", t.pulse_deck, 0, 60, "OSC-R1", fixed=True, doc="copies in the pulse deck"),
        Number(t.token.lower(), "trigger_deck", t.trigger_deck, 0, 60, "OSC-R1", fixed=True,
               doc="copies in the trigger deck"),
    )),
    Number("trigger", "move_range", 1, 1, 4, "OSC-I19", flag="trigger_move_range", doc="how far a trigger moves"),
    Number("noise", "limit", 10, 1, 15, "OSC-I49", flag="mp_noise_limit", doc="the noise count that ends a set"),
    Number("stall", "limit_sets", 20, 1, 100, "OSC-I67", flag="stall_limit_sets", doc="sets before a stall ends the game"),
)


def _check(values: Mapping[str, int], flags: Mapping[str, Any]) -> list[str]:
    """Card conservation: the two decks hold the seed's 110 cards."""
    total = sum(v for k, v in values.items() if k.endswith("_deck"))
    expected = sum(t.total for t in CARD_TYPES)
    if total != expected:
        return [f"the decks hold {total} cards, not the {expected} of the seed (OSC-R1, card conservation)"]
    return []


SPEC = CardSetSpec("oscilloscope", ITEMS, NUMBERS, cards_flag="", check=_check)
"""Oscilloscope's card-set spec (the ``cardset`` facet)."""
