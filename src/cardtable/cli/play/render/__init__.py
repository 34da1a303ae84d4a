"""Screens of the games: pure functions from one seat's view (plus a :class:`Context`) to rich renderables.

>>> import cardtable
>>> from rich.console import Console
>>> state = cardtable.load_game("zeta").new_game(seed=1)
>>> console = Console(width=100, color_system=None)
>>> with console.capture() as cap:
...     console.print(render_view("zeta", state.view(0), Context(names=("P1", "P2"))))
>>> "Zeta · turn 1" in cap.get()
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from .common import Context, render_choices, render_outcome, seat_text
from .oscilloscope import describe_action as _osc_describe
from .oscilloscope import render_oscilloscope
from .utahime import describe_action as _uta_describe
from .utahime import render_utahime
from .zeta import describe_action as _zeta_describe
from .zeta import render_zeta

Renderer = Callable[[Mapping[str, Any], Context], RenderableType]
Describer = Callable[[str, int, Context], str]

RENDERERS: dict[str, Renderer] = {"zeta": render_zeta, "oscilloscope": render_oscilloscope, "utahime": render_utahime}
"""The screen of each game."""
DESCRIBERS: dict[str, Describer] = {"zeta": _zeta_describe, "oscilloscope": _osc_describe, "utahime": _uta_describe}
"""How each game's moves read in the log, without what the other seats may not know."""


def render_view(game: str, view: Mapping[str, Any], ctx: Context) -> RenderableType:
    """The screen of ``game`` for one view (a generic JSON dump for a game without a screen)."""
    renderer = RENDERERS.get(game)
    if renderer is None:
        return Text(json.dumps(view, ensure_ascii=False, indent=1))
    return renderer(view, ctx)


def describe_action(game: str, action: str, actor: int, ctx: Context) -> str:
    """A move in words for the log, hiding what other seats may not know (a wished card, a set card ...)."""
    describer = DESCRIBERS.get(game)
    if describer is None:
        return f"{ctx.name(actor)}: {action}"
    return describer(action, actor, ctx)


__all__ = ["DESCRIBERS", "RENDERERS", "Context", "describe_action", "render_choices", "render_outcome",
           "render_view", "seat_text"]
