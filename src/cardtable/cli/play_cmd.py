"""``cardtable play`` and ``cardtable rules``: play the games in a terminal, read their rulebooks.

``register(app)`` adds both commands to the main typer app (idempotent); ``step_through`` is the
interactive replay that ``cardtable replay FILE`` runs unless ``--to-end`` is given.
``python -m cardtable.cli.play_cmd ...`` runs the main app with these commands registered.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cardtable.core.rulebook import find_rule, game_of_rule, has_rulebook, prefixes, rulebook_text

if TYPE_CHECKING:
    from rich.console import Console

    from cardtable.core import Record

__all__ = ["play", "register", "rules", "step_through"]

RulesOpt = Annotated[list[str] | None, typer.Option("--rules", "-r", help="Rule flag as flag=value (repeatable).")]


def play(
    game: Annotated[str | None, typer.Argument(metavar="[GAME]",
                                               help="zeta, oscilloscope or utahime (not needed with --resume).")] = None,
    players: Annotated[int | None, typer.Option(help="Number of players (Oscilloscope: 1-4; the others: 2).")] = None,
    vs: Annotated[list[str] | None, typer.Option(
        "--vs", help="An AI for the next other seat, in seat order (repeatable): random, heuristic, easy, normal, "
                     "hard, ismcts:hard ... Seats left over are people (hot-seat).")] = None,
    seat: Annotated[int | None, typer.Option(help="Your seat, 1 to N (default 1).")] = None,
    deck: Annotated[list[str] | None, typer.Option(
        help="A deck, for a game with deck files: preset name, 'random' or a TOML file (once for both seats, or twice).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the game (default: a fresh one).")] = None,
    rules: RulesOpt = None,
    cards: Annotated[Path | None, typer.Option(help="A card-set file (cardtable cards export GAME).")] = None,
    setup: Annotated[list[str] | None, typer.Option(
        "--setup", help="Setup option as key=value (repeatable), e.g. option_set=designer_example for Utahime.")] = None,
    resume: Annotated[Path | None, typer.Option(
        help="Continue the unfinished game saved in this record (its seats and rules; --vs/--seat re-seat it).")] = None,
    no_pause: Annotated[bool, typer.Option("--no-pause", help="Do not pause after computer moves.")] = False,
    delay: Annotated[float, typer.Option(help="Seconds to pause after each computer move.")] = 0.5,
    hint_agent: Annotated[str, typer.Option(help="The agent that answers `hint`.")] = "ismcts:normal",
    save: Annotated[Path | None, typer.Option(help="Write the record to this file at the end, without asking.")] = None,
    layout: Annotated[str, typer.Option(help="Screen layout: auto (compact below 90x36), compact (fits 80x24) "
                                             "or full.")] = "auto",
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
    if layout not in ("auto", "compact", "full"):
        fail(f"--layout takes auto, compact or full; got {layout!r}")
    if resume is not None:
        if game is not None or rules or cards or setup or deck or seed is not None or players is not None:
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
        from cardtable.cli.cards_cmd import rules_with_cards

        g = load_with_flags(game, rules_with_cards(game, rules, cards))
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
    TableDriver(table, Console(highlight=False, markup=False, emoji=False),
                options=PlayOptions(delay=0.0 if no_pause else delay, hint_spec=hint_agent, save=save,
                                    layout=layout)).run()


def rules(
    game: Annotated[str, typer.Argument(metavar="GAME", help="zeta, oscilloscope or utahime (or a rule id such as ZETA-R12).")],
    rule_id: Annotated[str | None, typer.Argument(metavar="[ID]", help="One rule, e.g. ZETA-R12, OSC-R3, UTA-I7 (or R12).")] = None,
    full: Annotated[bool, typer.Option("--full", help="The numbered rules (the rulebook for players).")] = False,
    index: Annotated[bool, typer.Option("--index", help="The numbered rules' ids and titles.")] = False,
    everything: Annotated[bool, typer.Option("--all", help="The designers' whole specification as written: ledger, "
                                                         "scenarios, the seed's translation line by line.")] = False,
    lang: Annotated[str, typer.Option("--lang", help="Language of the how-to-play page: en or ja.")] = "en",
    raw: Annotated[bool, typer.Option("--raw", help="Print the Markdown source as it is.")] = False,
) -> None:
    """How to play a game (in English or Japanese); its numbered rules (--full), or one rule."""
    from rich.markdown import Markdown

    from cardtable.cli.options import console, fail
    from cardtable.core import rulebook

    if not has_rulebook(game) and rule_id is None and game_of_rule(game):
        game, rule_id = game_of_rule(game) or game, game
    if not has_rulebook(game):
        fail(f"no rulebook for {game!r}; choose one of: {', '.join(prefixes())}")
    if lang not in rulebook.HOWTO_LANGUAGES:
        fail(f"--lang takes one of: {', '.join(rulebook.HOWTO_LANGUAGES)}; got {lang!r}")
    out = console()
    if rule_id is not None:
        try:
            text = rulebook.player_text(game, find_rule(game, rule_id).text)
        except KeyError as exc:
            fail(str(exc.args[0]))
    elif index:
        out.print(rules_index_renderable(game))
        return
    elif everything:
        text = rulebook_text(game)
    elif full:
        text = rulebook.player_rules(game)
    elif rulebook.has_howto(game, lang):
        text = rulebook.howto_text(game, lang)
    else:
        text = rulebook.player_rules(game)
    if raw:
        typer.echo(text)
    else:
        out.print(Markdown(text))


def rules_index_renderable(game: str) -> Any:
    """The index of a game's numbered rules (as the prompt's ``rules index`` shows it)."""
    from cardtable.cli.play.loop import rules_index

    return rules_index(game)


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
