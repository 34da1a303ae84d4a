"""What every command shares: printing an error and exiting, loading a game with ``flag=value`` strings,
and turning common options (``--deck``, ``--players``, ``--setup``) into a game's setup keywords.

Commands import from here, never from ``cardtable.cli.main``, so the command modules have no import cycle.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

import cardtable
from cardtable.core import game_class
from cardtable.core.rules import parse_setup

err = Console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print an error the way every command does, and exit."""
    err.print(f"[bold red]error:[/] {escape(message)}")
    raise typer.Exit(code)


def load_with_flags(name: str, rules: Sequence[str] | None) -> cardtable.Game[Any]:
    """Load a game with ``flag=value`` strings, turning mistakes into clear errors."""
    try:
        cls = game_class(name)
        flags = cls.Rules.from_strings(list(rules or [])).changed_flags()
        return cardtable.load_game(name, **flags)
    except ValueError as exc:
        fail(str(exc))


def setup_from_options(name: str, decks: Sequence[str] | None, players: int | None,
                       items: Sequence[str] = ()) -> dict[str, Any]:
    """Translate ``--setup key=value``, ``--deck`` and ``--players`` into a game's setup keywords."""
    try:
        setup: dict[str, Any] = parse_setup(items)
    except ValueError as exc:
        fail(str(exc))
    if decks:
        if name != "zeta":
            fail("--deck applies to zeta only")
        from cardtable.games.zeta.decks import PRESET_NAMES, DeckError, load_deck_file

        specs: list[Any] = []
        for d in decks:
            if d in PRESET_NAMES or d == "random":
                specs.append(d)
            else:
                try:
                    specs.append(load_deck_file(d).to_json())
                except DeckError as exc:
                    fail(str(exc))
        if len(specs) == 1:
            specs.append(specs[0])
        setup["decks"] = specs
    if players is not None:
        setup["players"] = players
    return setup
