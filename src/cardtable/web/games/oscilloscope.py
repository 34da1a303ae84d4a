"""Oscilloscope's part of the web surface: the card data its pages draw waveforms from (``/web/cards``)."""

from __future__ import annotations

from typing import Any

from ..kit import GameWeb

TRIGGER_MATCHES = {"T_HL": ["HL", "NOISE"], "T_LH": ["LH", "NOISE"], "T_BOTH": ["HL", "LH", "NOISE"],
                   "LOH": ["LOH", "NOISE"], "CLEAR": ["HL", "LH", "LOH", "NOISE"]}
"""OSC-R27: the train cards each trigger is satisfied by (the rulebook's table, for lighting the slice)."""


def cards() -> dict[str, Any]:
    """Oscilloscope's eight card types with the levels at their edges, and which train cards each trigger takes."""
    from cardtable.games.oscilloscope.cards import CARD_TYPES, IS_PULSE_TYPE, IS_TRIGGER_CAPABLE

    return {"oscilloscope": [
        {"token": k.token, "seed_name": k.seed_name, "english": k.english, "pulse_deck": k.pulse_deck,
         "trigger_deck": k.trigger_deck, "left": k.left.value, "right": k.right.value, "stroke": k.stroke.value,
         "pulse": IS_PULSE_TYPE[k.card], "trigger": IS_TRIGGER_CAPABLE[k.card]} for k in CARD_TYPES],
        "oscilloscope_matches": TRIGGER_MATCHES}


def messages() -> list[tuple[str, str]]:
    """The card names the pages translate."""
    from cardtable.games.oscilloscope.cards import CARD_TYPES

    return [(kind.english, f"oscilloscope card {kind.token}") for kind in CARD_TYPES]


WEB = GameWeb(cards=cards, messages=messages,
              tagline="Feed pulse trains, set triggers and capture the slice when they fire. 1 to 4 players.")
"""Oscilloscope's web part (its kit's ``web_routes``)."""
