"""Oscilloscope's part of the web surface: the card data its pages draw waveforms from (``/web/cards``), and
the solo game's par (``/web/par/oscilloscope``): the terminal's stored par, the mean score of the heuristic player.

>>> par_of({}, {"players": 1})["games"]
1000
>>> par_of({}, {"players": 2}) is None
True
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from ..kit import GameWeb, Strict

PAR_DATA = ("cli", "play", "par.json")
"""The stored pars (measured by ``python -m cardtable.cli.play.par``), read as data where the terminal reads them."""

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


@cache
def _pars() -> tuple[dict[str, Any], ...]:
    """Every stored par entry (the terminal's own file, read as data: the web imports nothing of the terminal)."""
    return tuple(json.loads(resources.files("cardtable").joinpath(*PAR_DATA).read_text(encoding="utf-8")))


def par_of(rules: dict[str, Any], setup: dict[str, Any]) -> dict[str, Any] | None:
    """The stored par entry of a solo game with these rule flags and setup (None: not solo, or none measured)."""
    import cardtable

    game = cardtable.load_game("oscilloscope", **rules)
    normal = game.normalize_setup(setup)
    if game.num_players_for(normal) != 1:
        return None
    changed = dict(game.rules.changed_flags())
    for entry in _pars():
        if entry["game"] == "oscilloscope" and dict(entry.get("flags", {})) == changed \
                and all(normal.get(k) == v for k, v in entry.get("setup", {}).items()):
            return entry
    return None


class ParIn(Strict):
    """A room's rule flags and setup."""

    rules: dict[str, Any] = Field(default_factory=dict, max_length=64)
    setup: dict[str, Any] = Field(default_factory=dict, max_length=16)


class ParOut(BaseModel):
    """A solo game's par: the heuristic player's mean score over seeded games and its 95% interval (par None: none)."""

    par: float | None
    games: int = 0
    low: float | None = None
    high: float | None = None


router = APIRouter(tags=["web"])


@router.post("/web/par/oscilloscope", response_model=ParOut)
async def par(body: ParIn) -> ParOut:
    """The par of a solo game with these rules (OSC-R61's score), as the terminal's end screen shows it."""
    try:
        entry = par_of(body.rules, body.setup)
    except (TypeError, ValueError):
        entry = None
    if entry is None:
        return ParOut(par=None)
    low, high = entry.get("ci95", [None, None])
    return ParOut(par=float(entry["mean"]), games=int(entry["games"]), low=low, high=high)


WEB = GameWeb(browser_howto=BROWSER_HOWTO, cards=cards, messages=messages, router=router,
              tagline="Feed pulse trains, set triggers and capture the slice when they fire. 1 to 4 players.")
"""Oscilloscope's web part (its kit's ``web_routes``)."""
