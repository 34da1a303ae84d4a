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

from cardtable.core import registry

from .common import Context, render_choices, render_outcome, seat_text

Renderer = Callable[[Mapping[str, Any], Context], RenderableType]
Describer = Callable[[str, int, Context], str]


def renderer_for(game: str) -> Renderer | None:
    """The terminal screen of ``game`` from its registry entry (None if it has none)."""
    target = registry.entry(game).renderer
    return registry.resolve(target) if target else None


def render_view(game: str, view: Mapping[str, Any], ctx: Context) -> RenderableType:
    """The screen of ``game`` for one view (a generic JSON dump for a game without a screen)."""
    renderer = renderer_for(game)
    if renderer is None:
        return Text(json.dumps(view, ensure_ascii=False, indent=1))
    return renderer(view, ctx)


def describe_action(game: str, action: str, actor: int, ctx: Context) -> str:
    """An action in words (the terminal's move list and hints), hiding what other seats may not know."""
    target = registry.entry(game).describe_action
    if not target:
        return f"{ctx.name(actor)}: {action}"
    describer: Describer = registry.resolve(target)
    return describer(action, actor, ctx)


__all__ = ["Context", "describe_action", "render_choices", "render_outcome", "render_view", "renderer_for",
           "seat_text"]
