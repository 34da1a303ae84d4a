"""The ``cardtable`` command: play, replay, benchmark and inspect the games."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

import cardtable
from cardtable.cli.options import fail, load_with_flags, setup_from_options
from cardtable.core import Record, RecordError, game_class, play_random, record_of

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


def _parse_viewer(as_seat: str | None, reveal: bool, players: int) -> int | str | None:
    """``--as P2`` / ``--as 2`` as a 0-based seat, ``--reveal`` as ``"reveal"``, else None (a spectator)."""
    if reveal and as_seat is not None:
        fail("give --as SEAT or --reveal, not both")
    if reveal:
        return "reveal"
    if as_seat is None:
        return None
    text = as_seat.strip().upper().removeprefix("P")
    if not text.isdigit() or not 1 <= int(text) <= players:
        fail(f"--as takes a seat P1 to P{players}, got {as_seat!r}")
    return int(text) - 1


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A record written by cardtable.")],
    to_end: Annotated[bool, typer.Option("--to-end", help="Print only the result.")] = False,
    as_seat: Annotated[str | None, typer.Option("--as", help="Show what this seat saw (P1, P2 ...); "
                                                "default: the only person's seat, else a spectator's view.")] = None,
    reveal: Annotated[bool, typer.Option("--reveal", help="Show everything: every hand and every secret "
                                         "(for the table's owner, after the game).")] = False,
) -> None:
    """Step through a record move by move (Enter, b back, q quit) as a seat saw it; --to-end prints the result."""
    from cardtable.table import HUMAN, Table

    try:
        record = Record.load(file)
        table = Table.resume(record)
    except RecordError as exc:
        fail(str(exc))
    n = len(table.seats)
    viewer = _parse_viewer(as_seat, reveal, n)
    if viewer is None and as_seat is None and not reveal:
        humans = [p for p, spec in enumerate(record.players) if spec == HUMAN]
        viewer = humans[0] if len(humans) == 1 else None
    if not to_end:
        from cardtable.cli import play_cmd

        play_cmd.step_through(record, console, viewer)
        return
    out = table.state.outcome()
    if out is None:
        console.print(f"{record.game}: {len(record.actions)} actions replayed; the game is not finished "
                      f"({table.name(table.current_seat)} to decide)", markup=False)
        return
    who = ", ".join(table.name(w) for w in out.winners) or "nobody (draw)"
    scores = ""
    if out.scores is not None:
        scores = " · scores " + ", ".join(f"{table.name(p)} {s:g}" for p, s in enumerate(out.scores))
    console.print(f"{record.game}: {len(record.actions)} actions replayed; winner: {who}; "
                  f"{out.reason} [{out.rule}]{scores}" + (f" · {out.detail}" if out.detail else ""), markup=False)


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
    from cardtable.cli import arena_cmd, play_cmd, print_cmd

    arena_cmd.register(app)
    play_cmd.register(app)
    print_cmd.register(app)


_register_optional_commands()


if __name__ == "__main__":  # pragma: no cover
    app()
