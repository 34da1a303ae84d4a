"""``cardtable play`` and ``cardtable rules``: play the games in a terminal, read their rulebooks.

``register(app)`` adds both commands to the main typer app (idempotent); ``step_through`` is the
interactive replay that ``cardtable replay FILE`` runs unless ``--to-end`` is given.
``python -m cardtable.cli.play_cmd ...`` runs the main app with these commands registered.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cardtable.core.rulebook import find_rule, game_of_rule, has_rulebook, prefixes, rulebook_text, rules_section

if TYPE_CHECKING:
    from rich.console import Console

    from cardtable.core import Record

__all__ = ["play", "register", "rules", "step_through"]

RulesOpt = Annotated[list[str] | None, typer.Option("--rules", "-r", help="Rule flag as flag=value (repeatable).")]


def play(
    game: Annotated[str | None, typer.Argument(help="zeta, oscilloscope or utahime (not needed with --resume).")] = None,
    players: Annotated[int | None, typer.Option(help="Number of players (Oscilloscope: 1-4; the others: 2).")] = None,
    vs: Annotated[list[str] | None, typer.Option(
        "--vs", help="An AI for the next other seat, in seat order (repeatable): random, heuristic, easy, normal, "
                     "hard, ismcts:hard ... Seats left over are people (hot-seat).")] = None,
    seat: Annotated[int | None, typer.Option(help="Your seat, 1 to N (default 1).")] = None,
    deck: Annotated[list[str] | None, typer.Option(
        help="Zeta deck: preset name, 'random' or a TOML file (once for both seats, or twice).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the game (default: a fresh one).")] = None,
    rules: RulesOpt = None,
    setup: Annotated[list[str] | None, typer.Option(
        "--setup", help="Setup option as key=value (repeatable), e.g. option_set=designer_example for Utahime.")] = None,
    resume: Annotated[Path | None, typer.Option(
        help="Continue the unfinished game saved in this record (its seats and rules; --vs/--seat re-seat it).")] = None,
    no_pause: Annotated[bool, typer.Option("--no-pause", help="Do not pause after computer moves.")] = False,
    delay: Annotated[float, typer.Option(help="Seconds to pause after each computer move.")] = 0.5,
    hint_agent: Annotated[str, typer.Option(help="The agent that answers `hint`.")] = "ismcts:normal",
    save: Annotated[Path | None, typer.Option(help="Write the record to this file at the end, without asking.")] = None,
) -> None:
    """Play a game in the terminal against people (hot-seat) or the computer."""
    from rich.console import Console

    from cardtable.agents import AgentSpecError
    from cardtable.cli.options import fail, load_with_flags, setup_from_options
    from cardtable.cli.play.loop import PlayOptions, TableDriver
    from cardtable.core import Record, RecordError
    from cardtable.table import Table, seat_specs

    if delay < 0:
        fail(f"--delay must not be negative, got {delay}")
    if resume is not None:
        if game is not None or rules or setup or deck or seed is not None or players is not None:
            fail("--resume continues a saved game with its own game, rules and setup; give only --vs/--seat with it")
        try:
            record = Record.load(resume)
            specs = None
            if vs or seat is not None:
                n = len(record.players) or 2
                specs = seat_specs(n, vs or [], None if seat is None else seat - 1)
            table = Table.resume(record, specs)
        except (RecordError, AgentSpecError, ValueError) as exc:
            fail(str(exc))
        if table.is_over:
            fail(f"the game in {resume} is already over; `cardtable replay {resume}` steps through it")
    else:
        if game is None:
            fail("name a game (zeta, oscilloscope, utahime) or give --resume FILE")
        g = load_with_flags(game, rules)
        setup_players: int | None = players
        if players is not None and g.min_players == g.max_players:
            if players != g.min_players:
                fail(f"{g.title} is played by {g.min_players} players, not {players}")
            setup_players = None
        options = setup_from_options(game, deck, setup_players, setup or [])
        try:
            n = g.num_players_for(g.normalize_setup(options))
            specs = seat_specs(n, vs or [], None if seat is None else seat - 1)
            table = Table.create(g, specs, seed=seed, setup=options, meta={"tool": "cardtable play"})
        except (AgentSpecError, ValueError) as exc:
            fail(str(exc))
    TableDriver(table, Console(highlight=False),
                options=PlayOptions(delay=0.0 if no_pause else delay, hint_spec=hint_agent, save=save)).run()


def rules(
    game: Annotated[str, typer.Argument(help="zeta, oscilloscope or utahime (or a rule id such as ZETA-R12).")],
    rule_id: Annotated[str | None, typer.Argument(help="One rule, e.g. ZETA-R12, OSC-R3, UTA-I7 (or R12).")] = None,
    full: Annotated[bool, typer.Option("--all", help="The whole rulebook: ledger, scenarios, translation.")] = False,
    raw: Annotated[bool, typer.Option("--raw", help="Print the Markdown source as it is.")] = False,
) -> None:
    """Print the rules of a game, or one numbered rule."""
    from rich.console import Console
    from rich.markdown import Markdown

    from cardtable.cli.options import fail

    if not has_rulebook(game) and rule_id is None and game_of_rule(game):
        game, rule_id = game_of_rule(game) or game, game
    if not has_rulebook(game):
        fail(f"no rulebook for {game!r}; choose one of: {', '.join(prefixes())}")
    console = Console()
    if rule_id is None:
        text = rulebook_text(game) if full else rules_section(game)
    else:
        try:
            text = find_rule(game, rule_id).text
        except KeyError as exc:
            fail(str(exc.args[0]))
            return
    if raw:
        print(text)
    else:
        console.print(Markdown(text))


def step_through(record: Record, console: Console, viewer: int | str | None = None) -> None:
    """Step through a record in the play screens as ``viewer`` saw it (a seat, None, or ``"reveal"``)."""
    from cardtable.cli.play.loop import step_through as run

    run(record, console, viewer=viewer)


def register(app: typer.Typer) -> None:
    """Add ``play`` and ``rules`` to the main app (a second call does nothing)."""
    names = {c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands}
    if "play" not in names:
        app.command("play")(play)
    if "rules" not in names:
        app.command("rules")(rules)


def main(argv: list[str] | None = None) -> Any:
    """The main ``cardtable`` app with these commands registered (for ``python -m``)."""
    from cardtable.cli.main import app

    register(app)
    return app(args=argv)


if __name__ == "__main__":  # pragma: no cover
    main()
