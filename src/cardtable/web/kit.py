"""What a game adds to the web surface, found through its kit (``GameKit.web_routes`` and ``client_module``).

A game's web module (``cardtable/web/games/<name>.py`` for the built-in games) holds one
:class:`GameWeb`: its routes (deck or option builders), the card data its pages draw and its
lobby line. Its page in the browser is an ES module of the client (``GameKit.client_module``);
a game without one gets the plain page (:data:`PLAIN_MODULE`). The generic routes ask
:func:`game_webs` and :func:`page_module` and never name a game.

>>> sorted(game_webs())
['oscilloscope', 'utahime', 'zeta']
>>> page_module("zeta")
'/client/js/games/zeta.js'
>>> toml_string('Curse "Weaver"\\x7f')
'"Curse \\\\"Weaver\\\\"\\\\u007F"'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict

from cardtable.core import game_names
from cardtable.core.registry import entry, part

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
    tagline: str = ""
    """The game's one-line description in the lobby (English; the pages translate it)."""
    browser_howto: Mapping[str, str] = field(default_factory=dict)
    """The how-to-play page's section on playing in the browser, by language (none when empty)."""


PLAIN_MODULE = "js/games/plain.js"
"""The page of a game whose kit names no client module: its view as data, its moves as typed."""


def game_webs() -> dict[str, GameWeb]:
    """The web part of every registered game that has one, by game name."""
    out: dict[str, GameWeb] = {}
    for name in game_names():
        found = part(name, "web_routes", required=False)
        if found is not None:
            if not isinstance(found, GameWeb):
                raise TypeError(f"the web part of {name!r} ({entry(name).web_routes}) is not a GameWeb")
            out[name] = found
    return out


def page_module(name: str) -> str:
    """The address of the ES module that draws game ``name``'s page (the plain page if its kit names none)."""
    return "/client/" + (entry(name).client_module or PLAIN_MODULE).lstrip("/")


def toml_string(text: str) -> str:
    """A TOML basic string (every character TOML requires escaped)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007F")
