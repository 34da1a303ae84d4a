"""What every command shares: its consoles, printing an error and exiting, loading a game with
``flag=value`` strings, turning common options (``--deck``, ``--players``, ``--setup``) into a
game's setup keywords, and the progress bar of a run of many games.

Commands import from here, never from ``cardtable.cli.main``, so the command modules have no import
cycle. The consoles never read rich markup: text in square brackets (``[ZETA-R14]``,
``pip install -e '.[bench]'``) is printed as it is, and styles come from ``rich.text.Text``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any, NoReturn

import typer

if TYPE_CHECKING:
    from rich.console import Console

    import cardtable
    from cardtable.lab.pipeline import Progress as RunProgress


@cache
def console() -> Console:
    """The console of a command's output (standard output; markup off)."""
    from rich.console import Console

    return Console(markup=False, highlight=False, emoji=False)


@cache
def err_console() -> Console:
    """The console of a command's errors (standard error; markup off)."""
    from rich.console import Console

    return Console(stderr=True, markup=False, highlight=False, emoji=False)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print an error the way every command does, and exit."""
    from rich.text import Text

    err_console().print(Text.assemble(("error:", "bold red"), " ", message))
    raise typer.Exit(code)


def load_with_flags(name: str, rules: Sequence[str] | None) -> cardtable.Game[Any]:
    """Load a game with ``flag=value`` strings, turning mistakes into clear errors."""
    import cardtable
    from cardtable.core import game_class

    try:
        cls = game_class(name)
        flags = cls.Rules.from_strings(list(rules or [])).changed_flags()
        return cardtable.load_game(name, **flags)
    except ValueError as exc:
        fail(str(exc))


def deck_book(name: str, what: str) -> Any:
    """The kit's ``decks`` facet of game ``name``, or exit 2 naming the games that have decks."""
    from cardtable.core.registry import entries, part

    book = part(name, "decks", required=False)
    if book is None:
        having = [kit.name for kit in entries() if kit.decks]
        fail(f"{what}: {name} has no deck files; the games with decks: {', '.join(having) or 'none'}")
    return book


def games_with_decks() -> list[str]:
    """The games whose kits have deck files (``cardtable deck``), by name."""
    from cardtable.core.registry import entries

    return [kit.name for kit in entries() if kit.decks]


def setup_from_options(name: str, decks: Sequence[str] | None, players: int | None,
                       items: Sequence[str] = ()) -> dict[str, Any]:
    """Translate ``--setup key=value``, ``--deck`` and ``--players`` into a game's setup keywords."""
    from cardtable.core.rules import parse_setup

    try:
        setup: dict[str, Any] = parse_setup(items)
    except ValueError as exc:
        fail(str(exc))
    if decks:
        book = deck_book(name, "--deck")
        specs: list[Any] = []
        for d in decks:
            try:
                specs.append(book.setup_entry(d))
            except ValueError as exc:
                fail(str(exc))
        if len(specs) == 1:
            specs.append(specs[0])
        setup[book.setup_key] = specs
    if players is not None:
        setup["players"] = players
    return setup


@contextmanager
def progress_bar(title: str, total: int, info: Callable[[RunProgress], str],
                 show: bool = True) -> Iterator[Callable[[RunProgress], None]]:
    """A transient bar on standard error for a run of ``total`` games; yields the callback a run reports to.

    The callback advances the bar to the games finished and shows ``info``'s text for that report.
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(TextColumn("{task.description}", style="bold", markup=False), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[info]}", markup=False), TimeElapsedColumn(), TimeRemainingColumn(),
                  console=err_console(), disable=not show, transient=True) as bar:
        task = bar.add_task(title, total=total, info="")

        def tick(progress: RunProgress) -> None:
            """Advance the bar to the games finished and show what ``info`` says of them."""
            bar.update(task, completed=progress.stored, info=info(progress))

        yield tick
