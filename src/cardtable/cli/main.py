"""The ``cardtable`` command: play, replay, benchmark and inspect the games."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

import cardtable
from cardtable.core import Record, RecordError, game_class, play_random, record_of, replay

app = typer.Typer(
    name="cardtable",
    help="Play and playtest Zeta, Oscilloscope and Utahime.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err = Console(stderr=True)

RulesOpt = Annotated[list[str] | None, typer.Option("--rules", "-r", help="Rule flag as flag=value (repeatable).")]


def fail(message: str, code: int = 2) -> None:
    """Print an error the way every command does, and exit."""
    err.print(f"[bold red]error:[/] {message}")
    raise typer.Exit(code)


def load_with_flags(name: str, rules: list[str] | None) -> cardtable.Game[Any]:
    """Load a game with ``flag=value`` strings, turning mistakes into clear errors."""
    try:
        cls = game_class(name)
        flags = cls.Rules.from_strings(rules or []).changed_flags()
        return cardtable.load_game(name, **flags)
    except ValueError as exc:
        fail(str(exc))
        raise  # unreachable


def setup_from_options(name: str, decks: list[str] | None, players: int | None) -> dict[str, Any]:
    """Translate common command-line options into a game's setup keywords."""
    setup: dict[str, Any] = {}
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


@app.command()
def games() -> None:
    """List the games and their rule flags."""
    for name in cardtable.game_names():
        cls = game_class(name)
        table = Table(title=f"{cls.title} ({name})", title_justify="left")
        table.add_column("flag")
        table.add_column("default")
        table.add_column("values")
        table.add_column("ledger")
        table.add_column("meaning")
        for spec in cls.Rules.flag_specs():
            default = str(spec.default).lower() if isinstance(spec.default, bool) else str(spec.default)
            table.add_row(spec.name, default, spec.describe_values(), spec.ledger, spec.doc)
        console.print(table)


@app.command()
def demo(
    game: Annotated[str, typer.Argument(help="Game name (see `cardtable games`).")] = "zeta",
    seed: Annotated[int, typer.Option(help="Seed of the game.")] = 1,
    rules: RulesOpt = None,
    deck: Annotated[list[str] | None, typer.Option(help="Zeta deck: preset name, 'random' or a TOML file.")] = None,
    players: Annotated[int | None, typer.Option(help="Number of players, where the game allows several.")] = None,
    save: Annotated[Path | None, typer.Option(help="Write the record to this file.")] = None,
) -> None:
    """Play a seeded game between random players and print its record."""
    g = load_with_flags(game, rules)
    try:
        state = g.new_game(seed=seed, **setup_from_options(game, deck, players))
    except ValueError as exc:
        fail(str(exc))
        return
    play_random(state, random.Random(seed))
    record = record_of(state, players=["random"] * state.num_players, meta={"tool": "cardtable demo"})
    console.print_json(json.dumps(record.to_json(), ensure_ascii=False))
    out = state.outcome()
    assert out is not None
    who = ", ".join(f"seat {w}" for w in out.winners) or "nobody (draw)"
    console.print(f"[bold]{g.title}[/]: {len(state.history)} actions; winner: {who}; {out.reason} [{out.rule}] {out.detail}")
    if save is not None:
        record.save(save)
        console.print(f"record saved to {save}")


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A record written by cardtable.")],
    to_end: Annotated[bool, typer.Option("--to-end", help="Print only the result.")] = False,
) -> None:
    """Step through a record move by move (Enter, b back, q quit); --to-end prints only the outcome."""
    try:
        record = Record.load(file)
        if not to_end:
            from cardtable.cli import play_cmd

            play_cmd.step_through(record, console)
            return
        state = replay(record)
    except RecordError as exc:
        fail(str(exc))
        return
    out = state.outcome()
    if out is None:
        console.print(f"{record.game}: {len(record.actions)} actions replayed; the game is not finished "
                      f"({state.summary()})")
        return
    who = ", ".join(f"seat {w}" for w in out.winners) or "nobody (draw)"
    scores = f" scores {list(out.scores)}" if out.scores is not None else ""
    console.print(f"{record.game}: {len(record.actions)} actions replayed; winner: {who}; "
                  f"{out.reason} [{out.rule}]{scores} {out.detail}")


@app.command()
def bench(
    game: Annotated[str, typer.Argument(help="Game name, or 'agents' for the search benchmark.")],
    seconds: Annotated[float, typer.Option(help="Seconds of measurement per case.")] = 3.0,
    openspiel: Annotated[bool, typer.Option(help="Compare with OpenSpiel (needs the bench extra).")] = True,
) -> None:
    """Measure random playouts and actions per second through the public API."""
    from cardtable.lab.bench import bench_game

    if game == "agents":
        from cardtable.lab import agent_bench

        agent_bench.main(seconds=seconds, openspiel=openspiel, console=console)
        return
    try:
        game_class(game)
    except ValueError as exc:
        fail(str(exc))
    with console.status(f"benchmarking {game} ({seconds:.0f} s per case)..."):
        rows = bench_game(game, seconds=seconds, with_openspiel=openspiel)
    table = Table(title=f"{game}: random games through the public API", title_justify="left")
    for col in ("case", "measure", "games", "games/s", "actions/s", "mean length", "vs OpenSpiel"):
        table.add_column(col, justify="right" if col not in ("case", "measure") else "left")
    for r in rows:
        table.add_row(
            r["case"], r["measure"], str(r["games"]), f"{r['games_per_s']:,.0f}",
            f"{r['actions_per_s']:,.0f}" if r["actions_per_s"] is not None else "-",
            f"{r['mean_length']:.1f}" if r["mean_length"] is not None else "-",
            f"{r['vs_openspiel']:.2f}x" if "vs_openspiel" in r else "-",
        )
    console.print(table)
    if openspiel and not any("vs_openspiel" in r for r in rows):
        console.print("OpenSpiel is not installed: pip install -e '.[bench]' for the comparison.")


deck_app = typer.Typer(help="Check and generate Zeta decks.", no_args_is_help=True)
app.add_typer(deck_app, name="deck")


@deck_app.command("check")
def deck_check(
    file: Annotated[Path, typer.Argument(help="A TOML deck file.")],
    rules: RulesOpt = None,
) -> None:
    """Validate a Zeta deck file against the deck-construction rules (ZETA-R6)."""
    from cardtable.games.zeta.decks import DeckError, load_deck_file, validate_deck

    g = load_with_flags("zeta", rules)
    try:
        deck = load_deck_file(file)
        validate_deck(deck, deck_size=g.rules.deck_size, limits=g.rules.construction_limits)
    except DeckError as exc:
        fail(str(exc), code=1)
        return
    console.print(f"deck {deck.name!r} is legal: {deck.size} cards")


@deck_app.command("random")
def deck_random(
    seed: Annotated[int, typer.Option(help="Seed of the generator.")] = 1,
    name: Annotated[str, typer.Option(help="Name of the deck.")] = "random",
) -> None:
    """Print a uniformly random legal Zeta deck as TOML."""
    from cardtable.games.zeta.decks import random_deck

    print(random_deck(random.Random(seed), name=name).to_toml(), end="")


@deck_app.command("show")
def deck_show(preset_name: Annotated[str, typer.Argument(help="Preset name.")]) -> None:
    """Print one of the project's preset decks as TOML."""
    from cardtable.games.zeta.decks import DeckError, preset

    try:
        print(preset(preset_name).to_toml(), end="")
    except DeckError as exc:
        fail(str(exc))


def _register_optional_commands() -> None:
    """Commands that live in their own modules (added as their features land)."""
    from cardtable.cli import arena_cmd, play_cmd

    arena_cmd.register(app)
    play_cmd.register(app)


_register_optional_commands()


if __name__ == "__main__":  # pragma: no cover
    app()
