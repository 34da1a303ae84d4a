"""Shared by the terminal-play tests: fixed positions, plain-text rendering, and a pexpect driver."""

from __future__ import annotations

import io
import os
import random
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from rich.console import Console

import cardtable
from cardtable.cli.play.render import Context, render_choices, render_view
from cardtable.core import State

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")
GOLDEN = Path(__file__).parent / "golden"
REPO = Path(__file__).resolve().parents[2]


def strip_ansi(text: str) -> str:
    """Terminal output without escape sequences and carriage returns."""
    return ANSI.sub("", text)


def position(game: str, seed: int, steps: int | None = None, until: Callable[[State], bool] | None = None,
             rng_seed: int = 1, flags: Mapping[str, Any] | None = None, **setup: Any) -> State:
    """A fixed position: random legal actions drawn from ``Random(rng_seed)``, ``steps`` of them or until ``until``."""
    g = cardtable.load_game(game, **dict(flags or {}))
    state = g.new_game(seed=seed, **setup)
    rng = random.Random(rng_seed)
    count = 0
    while not state.is_over:
        if steps is not None and count >= steps:
            break
        if until is not None and until(state):
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        count += 1
    return state


def screen_text(state: State, viewer: int | str | None = "current", width: int = 100) -> str:
    """The play screen of ``viewer`` (default: the seat to move) as plain text, choices included."""
    seat = state.current_player if viewer == "current" else viewer
    assert seat is None or isinstance(seat, int)
    legal = tuple(str(a) for a in state.legal_actions()) if seat is not None and seat == state.current_player else ()
    ctx = Context(names=tuple(f"P{p + 1}" for p in range(state.num_players)), legal=legal,
                  rules=state.game.rules.flags())
    console = quiet_console(width)
    console.print(render_view(state.game.name, state.view(seat), ctx))
    if legal:
        console.print(render_choices(legal))
    text = console.export_text()
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def quiet_console(width: int = 100, height: int = 50) -> Console:
    """A recording console without colours or markup that writes nowhere (read it with ``export_text``)."""
    return Console(width=width, height=height, color_system=None, force_terminal=False, record=True,
                   file=io.StringIO(), markup=False, highlight=False)


def play_command(*args: str) -> list[str]:
    """argv of ``python -m cardtable ...``."""
    return [sys.executable, "-m", "cardtable", *args]


def play_env(plain: bool = True) -> dict[str, str]:
    """The environment of a spawned game: 120 columns, no colour, plain input() unless ``plain`` is False."""
    env = dict(os.environ, COLUMNS="120", LINES="50", NO_COLOR="1", TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1",
               PYTHONIOENCODING="utf-8")
    env.pop("CARDTABLE_PLAIN_INPUT", None)
    if plain:
        env["CARDTABLE_PLAIN_INPUT"] = "1"
    return env
