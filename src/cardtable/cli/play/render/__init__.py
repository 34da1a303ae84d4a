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

import importlib
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


GameCommand = tuple[str, Callable[[Mapping[str, Any], Context], RenderableType]]


def _screen_module(game: str) -> Any:
    """The module of a game's terminal screen (None if it has none)."""
    target = registry.entry(game).renderer
    return importlib.import_module(target.partition(":")[0]) if target else None


def game_commands(game: str) -> dict[str, GameCommand]:
    """A game's own prompt commands from its screen module's ``COMMANDS``: name -> (help, show(view, ctx))."""
    module = _screen_module(game)
    commands: dict[str, GameCommand] = dict(getattr(module, "COMMANDS", {}) or {})
    return commands


def forced_reason(game: str, view: Mapping[str, Any], action: str, ctx: Context) -> str:
    """Why ``action`` is a seat's only choice, in one line (the screen module's ``forced_reason``, else plain)."""
    module = _screen_module(game)
    reason = getattr(module, "forced_reason", None)
    if reason is not None:
        text: str = reason(view, action, ctx)
        if text:
            return text
    seat = view.get("current_player")
    return f"your only choice: {describe_action(game, action, int(seat) if seat is not None else 0, ctx)}"


def describe_action(game: str, action: str, actor: int, ctx: Context) -> str:
    """An action in words (the terminal's move list and hints), hiding what other seats may not know."""
    target = registry.entry(game).describe_action
    if not target:
        return f"{ctx.name(actor)}: {action}"
    describer: Describer = registry.resolve(target)
    return describer(action, actor, ctx)


__all__ = ["Context", "GameCommand", "describe_action", "forced_reason", "game_commands", "render_choices",
           "render_outcome", "render_view", "renderer_for", "seat_text"]
