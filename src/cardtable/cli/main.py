"""The ``cardtable`` command: play, replay, benchmark and inspect the games.

Start-up is kept short: this module imports only typer; each command imports what it needs when it
runs, and the commands that live in their own modules (``play``, ``rules``, ``arena``, ``print``) are
loaded only when they are called or their help is asked for (:class:`LazyGroup`). Output goes
through consoles that never read rich markup, so text in square brackets always survives.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer._click.core import Command, Context
from typer._click.formatting import HelpFormatter
from typer.core import TyperGroup

if TYPE_CHECKING:
    from cardtable.core import Outcome

LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("cardtable.cli.play_cmd", "Play a game in the terminal: hot-seat, or against the computer."),
    "rules": ("cardtable.cli.play_cmd", "How to play a game; its numbered rules, or one rule."),
    "arena": ("cardtable.cli.arena_cmd", "Play two agents against each other: scores with 95% intervals, Elo."),
    "print": ("cardtable.cli.print_cmd", "Print-and-play PDF sheets of a game's cards."),
    "serve": ("cardtable.cli.serve_cmd", "Serve online rooms: the lobby page, the API and its docs."),
    "lab": ("cardtable.cli.lab_cmd", "The balance lab: many stored games, seat advantage, card strength, variants."),
    "cards": ("cardtable.cli.cards_cmd", "Card sets: a game's numbers as a file to edit, check and play (--cards)."),
    "train": ("cardtable.cli.train_cmd", "Train the network of the learned agents by self-play (needs the train extra)."),
    "admin": ("cardtable.cli.admin_cmd", "Operate a server's database: list, disable, enable and rename accounts."),
}
"""Commands defined in their own modules: name -> (module with ``register(app)``, one-line help)."""


ORDER = ("play", "rules", "replay", "games", "deck", "demo", "arena", "lab", "bench", "print", "serve")
"""The order of ``cardtable --help``'s command list (commands not named here follow)."""


class LazyGroup(TyperGroup):
    """The main command group: the commands of :data:`LAZY_COMMANDS` are imported on first use."""

    def list_commands(self, ctx: Context) -> list[str]:
        """Every command, eager and lazy, in :data:`ORDER`."""
        names = list(super().list_commands(ctx))
        names += [name for name in LAZY_COMMANDS if name not in names]
        return sorted(names, key=lambda n: (ORDER.index(n) if n in ORDER else len(ORDER), names.index(n)))

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        """A command by name, importing its module the first time it is asked for."""
        found = super().get_command(ctx, cmd_name)
        if found is not None or cmd_name not in LAZY_COMMANDS:
            return found
        command = load_command(cmd_name)
        self.add_command(command, cmd_name)
        return command

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        """The command list of ``--help`` without importing the lazy commands (their help is static)."""
        rows: list[tuple[str, str]] = []
        for name in self.list_commands(ctx):
            if name in self.commands:
                cmd = self.commands[name]
                if cmd.hidden:
                    continue
                rows.append((name, cmd.get_short_help_str(limit=formatter.width - 6 - len(name))))
            else:
                rows.append((name, LAZY_COMMANDS[name][1]))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def load_command(name: str) -> Command:
    """Import the module of a lazy command and build its click command (KeyError for an unknown name)."""
    module = importlib.import_module(LAZY_COMMANDS[name][0])
    sub = typer.Typer(rich_markup_mode=None, add_completion=False)
    module.register(sub)
    built = typer.main.get_command(sub)
    if isinstance(built, TyperGroup):
        return built.commands[name]
    return built


app = typer.Typer(
    name="cardtable",
    help="Play and playtest Zeta, Oscilloscope and Utahime.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    cls=LazyGroup,
)

RulesOpt = Annotated[list[str] | None, typer.Option("--rules", "-r", help="Rule flag as flag=value (repeatable).")]


def _version(value: bool) -> None:
    """``--version``: print the package version and exit."""
    if value:
        from cardtable import __version__

        typer.echo(f"cardtable {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Play and playtest Zeta, Oscilloscope and Utahime."""


@app.command()
def games() -> None:
    """List the games and their rule flags, with values and defaults."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    import cardtable
    from cardtable.cli.options import console
    from cardtable.core import game_class

    out = console()
    for name in cardtable.game_names():
        cls = game_class(name)
        players = (f"{cls.min_players} players" if cls.min_players == cls.max_players
                   else f"{cls.min_players}-{cls.max_players} players")
        table = Table(title=f"{cls.title} ({name}) · {players} · how to play: cardtable rules {name}",
                      title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
        table.add_column("flag", no_wrap=True)
        table.add_column("values", max_width=22, overflow="fold")
        table.add_column("meaning (ledger entry)", ratio=1, overflow="fold")
        for spec in cls.Rules.flag_specs():
            table.add_row(spec.name, flag_values(spec), Text(f"{spec.doc} ({spec.ledger})"))
        out.print(table)


def flag_values(spec: Any) -> str:
    """A flag's values for ``cardtable games``, the default first: ``6, 4``, ``false, true``, ``25 (4-60)``."""

    def show(value: Any) -> str:
        return str(value).lower() if isinstance(value, bool) else str(value)

    default = show(spec.default)
    if spec.choices is not None:
        return ", ".join([default, *(show(c) for c in spec.choices if c != spec.default)])
    if spec.kind is bool:
        return f"{default}, {show(not spec.default)}"
    return f"{default} ({spec.describe_values()})"


def outcome_line(outcome: Outcome, names: tuple[str, ...] | list[str]) -> str:
    """A finished game in one line, seats as P1..Pn: ``winner: P1; four in a row [ZETA-R20] · scores ...``."""
    who = " and ".join(names[w] for w in outcome.winners) or "nobody (draw)"
    text = f"winner: {who}; {outcome.reason.replace('_', ' ')} [{outcome.rule}]"
    if outcome.scores is not None:
        text += " · scores " + ", ".join(f"{names[p]} {s:g}" for p, s in enumerate(outcome.scores))
    detail = outcome.detail
    if detail and not (outcome.scores is not None and detail.startswith("scores ")):
        text += f" · {detail}"
    return text


@app.command()
def demo(
    game: Annotated[str, typer.Argument(help="Game name (see `cardtable games`).")] = "zeta",
    seed: Annotated[int, typer.Option(help="Seed of the game.")] = 1,
    rules: RulesOpt = None,
    deck: Annotated[list[str] | None, typer.Option(help="A deck (games with deck files, one per seat or one for all): preset name, 'random' or a TOML file.")] = None,
    players: Annotated[int | None, typer.Option(help="Number of players, where the game allows several.")] = None,
    save: Annotated[Path | None, typer.Option(help="Write the record to this file.")] = None,
) -> None:
    """Play a seeded game between random players and print its record."""
    import json
    import random

    from cardtable.cli.options import console, fail, load_with_flags, setup_from_options
    from cardtable.core import play_random, record_of

    out = console()
    g = load_with_flags(game, rules)
    try:
        state = g.new_game(seed=seed, **setup_from_options(game, deck, players))
    except ValueError as exc:
        fail(str(exc))
    play_random(state, random.Random(seed))
    record = record_of(state, players=["random"] * state.num_players, meta={"tool": "cardtable demo"})
    out.print_json(json.dumps(record.to_json(), ensure_ascii=False))
    result = state.outcome()
    assert result is not None
    names = [f"P{p + 1}" for p in range(state.num_players)]
    out.print(f"{g.title}: {len(state.history)} actions; {outcome_line(result, names)}")
    if save is not None:
        record.save(save)
        out.print(f"record saved to {save}")


def _parse_viewer(as_seat: str | None, reveal: bool, players: int) -> int | str | None:
    """``--as P2`` / ``--as 2`` as a 0-based seat, ``--reveal`` as ``"reveal"``, else None (a spectator)."""
    from cardtable.cli.options import fail

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
    file: Annotated[Path, typer.Argument(help="A record written by cardtable (or a list of records: "
                                         "JSON or JSON lines, such as a player's downloaded records).")],
    to_end: Annotated[bool, typer.Option("--to-end", help="Print only the result (of every record in the file).")] = False,
    number: Annotated[int | None, typer.Option("--game", help="Which record of a file of several (1 = the first).")] = None,
    as_seat: Annotated[str | None, typer.Option("--as", help="Show what this seat saw (P1, P2 ...); "
                                                "default: the only person's seat, else a spectator's view.")] = None,
    reveal: Annotated[bool, typer.Option("--reveal", help="Show everything: every hand and every secret "
                                         "(for the table's owner, after the game).")] = False,
) -> None:
    """Step through a record move by move, or print its result.

    Enter shows the next move, b goes back, a number jumps to that move, q quits. The screens are
    those of a seat (--as), of a spectator, or everything revealed (--reveal).
    """
    from cardtable.cli.options import console, fail
    from cardtable.cli.play.records_file import load_records, pick_record
    from cardtable.core import RecordError
    from cardtable.table import HUMAN, Table

    out = console()
    try:
        records = load_records(file)
        if to_end and number is None and len(records) > 1:
            for i, each in enumerate(records, start=1):
                done = Table.resume(each)
                ended = done.state.outcome()
                out.print(f"{i}. {each.game}: {len(each.actions)} actions replayed; "
                          + (outcome_line(ended, done.names) if ended is not None else "the game is not finished"))
            return
        record = pick_record(records, number, file)
        table = Table.resume(record)
    except RecordError as exc:
        fail(str(exc))
    n = len(table.seats)
    viewer = _parse_viewer(as_seat, reveal, n)
    if viewer is None and as_seat is None and not reveal:
        humans = [p for p, spec in enumerate(record.players) if spec == HUMAN]
        viewer = humans[0] if len(humans) == 1 else None
    if not to_end:
        from cardtable.cli.play.loop import step_through

        step_through(record, out, viewer=viewer)
        return
    result = table.state.outcome()
    if result is None:
        out.print(f"{record.game}: {len(record.actions)} actions replayed; the game is not finished "
                  f"({table.name(table.current_seat)} to decide)")
        return
    out.print(f"{record.game}: {len(record.actions)} actions replayed; {outcome_line(result, table.names)}")


@app.command()
def bench(
    game: Annotated[str, typer.Argument(metavar="WHAT", help="A game name (random games through the API); "
                                             "agents (search speed); lab (the lab's recording cost); server "
                                             "(action latency); startup (each command's start-up time).")],
    seconds: Annotated[float, typer.Option(help="Seconds of measurement per case.")] = 3.0,
    openspiel: Annotated[bool, typer.Option(help="Compare with OpenSpiel (needs the bench extra).")] = True,
    runs: Annotated[int, typer.Option(help="startup: runs of each command (the best and the median are shown).")] = 9,
    rooms: Annotated[int, typer.Option(help="server: rooms played at once.")] = 20,
    study_games: Annotated[int, typer.Option(help="server: a studio study of this many heuristic Zeta games plays "
                                                  "on the server meanwhile (0: none).")] = 0,
    builds: Annotated[bool, typer.Option("--builds", help="A game: compare the compiled build with the pure-Python "
                                                          "one (run in a child process), case by case.")] = False,
) -> None:
    """Measure speed: random games, agent search, the lab, the server, or start-up.

    A game name: random playouts and actions per second through the public API; agents: search
    iterations per second; lab: what recording costs the lab; server: action latency over
    loopback; adapters: environment steps per second next to the engine's actions per second;
    startup: how long each cardtable command takes to start. Every report starts with the build
    that ran (compiled or pure Python, and why); ``--builds`` measures a game on both builds.
    """
    from rich.table import Table

    from cardtable import build_info
    from cardtable.cli.options import console, fail

    out = console()
    out.print(f"build: {build_info()}", markup=False, highlight=False)
    if game == "agents":
        from cardtable.lab import agent_bench

        agent_bench.main(seconds=seconds, openspiel=openspiel, console=out)
        return
    if game == "adapters":
        from cardtable.adapters.bench import bench_adapters, format_rows

        out.print(format_rows(bench_adapters(seconds=seconds)))
        return
    if game == "lab":
        from cardtable.lab import lab_bench

        lab_bench.main(seconds=seconds, console=out)
        return
    if game == "server":
        from cardtable.cli.serve_cmd import run_bench_server

        if study_games < 0:
            fail("--study-games must be 0 or more")
        run_bench_server(rooms=rooms, seconds=seconds, study_games=study_games)
        return
    if game == "startup":
        from cardtable.cli.startup import render_startup, startup_times

        with out.status(f"starting each command {runs} times..."):
            times = startup_times(runs=runs)
        out.print(render_startup(times))
        return
    from cardtable.core import game_class
    from cardtable.lab.bench import bench_game

    try:
        game_class(game)
    except ValueError as exc:
        fail(str(exc))
    if builds:
        _bench_builds(game, seconds)
        return
    with out.status(f"benchmarking {game} ({seconds:.0f} s per case)..."):
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
    out.print(table)
    if openspiel and not any("vs_openspiel" in r for r in rows):
        out.print("OpenSpiel is not installed: pip install -e '.[bench]' for the comparison.")


def _bench_builds(game: str, seconds: float) -> None:
    """``cardtable bench GAME --builds``: each case on the compiled and the pure build, and their ratio."""
    from rich.table import Table

    from cardtable.cli.options import console, fail
    from cardtable.lab.bench import compare_builds

    out = console()
    with out.status(f"benchmarking {game} on both builds ({seconds:.0f} s per case and build)..."):
        try:
            rows = compare_builds(game, seconds=seconds)
        except RuntimeError as exc:
            fail(str(exc))
    table = Table(title=f"{game}: compiled vs pure Python, interleaved rounds (CPU time; ratio: compiled actions/s "
                        f"over pure)", title_justify="left")
    for col in ("case", "measure", "compiled games/s", "pure games/s", "compiled actions/s", "pure actions/s", "ratio"):
        table.add_column(col, justify="right" if col not in ("case", "measure") else "left")
    for r in rows:
        table.add_row(r["case"], r["measure"], f"{r['compiled_games_per_s']:,.0f}", f"{r['pure_games_per_s']:,.0f}",
                      f"{r['compiled_actions_per_s']:,.0f}", f"{r['pure_actions_per_s']:,.0f}", f"{r['ratio']:.2f}x")
    out.print(table)


deck_app = typer.Typer(help="Check, generate and show deck files (of the games that have decks: see `cardtable games`).",
                       no_args_is_help=True, rich_markup_mode=None)
app.add_typer(deck_app, name="deck")

DeckGameOpt = Annotated[str | None, typer.Option(
    "--game", help="The game whose decks (default: the one game with deck files).")]


def _deck_game(game: str | None, rules: list[str] | None) -> tuple[Any, Any]:
    """The game (with ``--rules``) and its kit's decks facet for a ``deck`` command; exit 2 if there is none."""
    from cardtable.cli.options import deck_book, fail, games_with_decks, load_with_flags

    if game is None:
        having = games_with_decks()
        if len(having) != 1:
            fail(f"name the game with --game (the games with decks: {', '.join(having) or 'none'})")
        game = having[0]
    book = deck_book(game, "deck")
    return load_with_flags(game, rules), book


@deck_app.command("check")
def deck_check(
    file: Annotated[Path, typer.Argument(help="A TOML deck file.")],
    game: DeckGameOpt = None,
    rules: RulesOpt = None,
) -> None:
    """Check a deck file against the game's deck-construction rules and list every problem."""
    from cardtable.cli.options import console, err_console

    g, book = _deck_game(game, rules)
    report = book.check_file(file, g)
    if report.problems:
        err = err_console()
        count = len(report.problems)
        err.print(f"deck {report.name!r} is not legal: {count} problem{'s' if count != 1 else ''} ({file})")
        for k, problem in enumerate(report.problems, 1):
            err.print(f"  {k}. {problem}")
        if report.advice:
            err.print(report.advice)
        raise typer.Exit(1)
    console().print(f"deck {report.name!r} is legal: {report.size} cards")


@deck_app.command("random")
def deck_random(
    seed: Annotated[int | None, typer.Option(help="Seed of the generator (default: a fresh one, printed).")] = None,
    name: Annotated[str, typer.Option(help="Name of the deck.")] = "random",
    game: DeckGameOpt = None,
    rules: RulesOpt = None,
) -> None:
    """Print a uniformly random legal deck as TOML (its first line names the seed)."""
    import random
    import secrets

    from cardtable.cli.options import fail

    g, book = _deck_game(game, rules)
    used = secrets.randbelow(2**31) if seed is None else seed
    try:
        text = book.random_toml(random.Random(used), g, name)
    except ValueError as exc:
        fail(str(exc))
    typer.echo(f"# cardtable deck random --seed {used}")
    typer.echo(text, nl=False)


@deck_app.command("show")
def deck_show(
    preset_name: Annotated[str, typer.Argument(help="Preset name.")],
    game: DeckGameOpt = None,
) -> None:
    """Print one of the project's preset decks as TOML."""
    from cardtable.cli.options import fail

    _, book = _deck_game(game, None)
    try:
        typer.echo(book.preset_toml(preset_name), nl=False)
    except ValueError as exc:
        fail(str(exc))


if __name__ == "__main__":  # pragma: no cover
    app()
