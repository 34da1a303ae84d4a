"""What a game adds to the web surface, found through the game registry (``GameEntry.web_routes``).

A game's web module (``cardtable/web/games/<name>.py`` for the built-in games) holds one
:class:`GameWeb`: its routes (deck or option builders) and the card data its pages draw. The
generic routes ask :func:`game_webs` and never name a game.

>>> sorted(game_webs())
['oscilloscope', 'utahime', 'zeta']
>>> toml_string('Curse "Weaver"\\x7f')
'"Curse \\\\"Weaver\\\\"\\\\u007F"'
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict

from cardtable.core import game_names
from cardtable.core.registry import entry, resolve

TEXT_MAX = 65_536
"""The longest TOML text (a deck file or an option set) a page may send."""


class Strict(BaseModel):
    """A request body that refuses unknown fields."""

    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True)
class GameWeb:
    """A game's part of the web surface: its routes, the card data its pages draw (merged into ``/web/cards``),
    and the data strings its pages translate (``(message, where)`` pairs for the message template)."""

    router: APIRouter | None = None
    cards: Callable[[], dict[str, Any]] | None = None
    messages: Callable[[], list[tuple[str, str]]] | None = None


def game_webs() -> dict[str, GameWeb]:
    """The web part of every registered game that has one, by game name."""
    out: dict[str, GameWeb] = {}
    for name in game_names():
        target = entry(name).web_routes
        if target:
            found = resolve(target)
            if not isinstance(found, GameWeb):
                raise TypeError(f"{target} is not a GameWeb")
            out[name] = found
    return out


def toml_string(text: str) -> str:
    """A TOML basic string (every character TOML requires escaped)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007F")
