"""``cardtable arena``: two agents play seat-rotated games and the statistics are printed.

Registered by ``cardtable.cli.main`` with one line (``arena_cmd.register(app)``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from cardtable.agents import SPEC_HELP

AGENT_HELP = "Agent spec: " + "; ".join(SPEC_HELP)


def arena(
    game: Annotated[str, typer.Argument(help="Game name (see `cardtable games`).")],
    agent_a: Annotated[str, typer.Argument(help=AGENT_HELP)],
    agent_b: Annotated[str, typer.Argument(help="Agent spec of the opponent (same forms).")],
    games: Annotated[int, typer.Option("-n", "--games", help="Games to play (rounded up to whole seat rotations).")] = 100,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes.")] = 1,
    seed: Annotated[int, typer.Option(help="Seed of the whole run (game seeds and agent RNGs derive from it).")] = 0,
    rules: Annotated[list[str] | None, typer.Option("--rules", "-r", help="Rule flag as flag=value (repeatable).")] = None,
    setup: Annotated[list[str] | None, typer.Option("--setup", help="Setup option as key=value (repeatable).")] = None,
    players: Annotated[int | None, typer.Option(help="Number of players, where the game allows several.")] = None,
    deck: Annotated[list[str] | None, typer.Option(help="Zeta deck: preset name, 'random' or a TOML file.")] = None,
    records: Annotated[Path | None, typer.Option(help="Write every game's record to this directory.")] = None,
    max_actions: Annotated[int | None, typer.Option(help="Stop a game after this many actions (a draw).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """Play AGENT_A against AGENT_B: seat-swapped games on shared seeds, scores with 95% intervals, Elo."""
    from cardtable.cli.main import setup_from_options
    from cardtable.lab.arena import arena_main

    items = list(setup or [])
    extra = setup_from_options(game, deck, players)
    try:
        result = arena_main(game, agent_a, agent_b, games=games, jobs=jobs, seed=seed, rules=rules or [],
                            setup=items, extra_setup=extra, records=str(records) if records else None,
                            max_actions=max_actions, progress=progress, json_out=json_out)
    except ValueError as exc:
        Console(stderr=True).print(f"[bold red]error:[/] {exc}")
        raise typer.Exit(2) from None
    del result


def register(app: typer.Typer) -> None:
    """Add the ``arena`` command to the ``cardtable`` app."""
    app.command("arena")(arena)
