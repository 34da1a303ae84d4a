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


BROWSER_HOWTO: dict[str, str] = {
    "en": "Click (or tap) a trigger card of your hand, then a lit slot of the screen; in the refill, a card and "
          "then your lit train. Drawing, keeping, choosing a train and passing are buttons under the screen. The "
          "move box takes any move by its notation (`place T_HL A2`).",
    "ja": "手札のトリガーカードをクリック(タップ)し、画面の光っている場所をクリックします。補充ではカードを選んでから光っている担当列を選びます。"
          "引く・残す・列を選ぶ・パスは画面の下のボタンです。手の入力欄には表記(`place T_HL A2`)でどの手も入力できます。",
}
"""The how-to-play page's section on playing in the browser, by language."""


WEB = GameWeb(browser_howto=BROWSER_HOWTO, cards=cards, messages=messages,
              tagline="Feed pulse trains, set triggers and capture the slice when they fire. 1 to 4 players.")
"""Oscilloscope's web part (its kit's ``web_routes``)."""
