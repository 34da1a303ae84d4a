"""``cardtable arena``: two agents play seat-rotated games, and the statistics are presented.

The playing is the lab's pipeline (:mod:`cardtable.lab.pipeline`), the statistics
:mod:`cardtable.lab.stats` and the run :mod:`cardtable.lab.arena`; this module only presents them. Registered by ``cardtable.cli.main``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from cardtable.lab.arena import ArenaResult
    from cardtable.lab.pipeline import Progress
    from cardtable.lab.stats import Interval

AGENT_HELP = ("Agent spec: random; heuristic[:epsilon=E]; ismcts[:OPTION,...] with OPTION a level "
              "(easy, normal, hard) or iterations=N, seconds=S, c=C, rollout=random|heuristic, "
              "expand=random|heuristic, widen=W, bias=B, epsilon=E, depth=D; or a difficulty: "
              "easy, normal, hard; or the network learned by self-play: learned[:weights=PATH,temperature=T], "
              "ismcts:learned[,iterations=N,seconds=S,c=C,mix=M,weights=PATH].")
"""The agent specs in words (the same forms as ``cardtable.agents.SPEC_HELP``; written out here so that
``cardtable arena --help`` imports no agent)."""


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
    deck: Annotated[list[str] | None, typer.Option(help="A deck, for a game with deck files: preset name, 'random' or a TOML file.")] = None,
    records: Annotated[Path | None, typer.Option(help="Write every game's record to this directory.")] = None,
    max_actions: Annotated[int | None, typer.Option(help="Stop a game after this many actions (a draw).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """Play AGENT_A against AGENT_B: seat-swapped games on shared seeds, scores with 95% intervals, Elo."""
    from cardtable.cli.options import setup_from_options

    items = list(setup or [])
    extra = setup_from_options(game, deck, players)
    try:
        result = arena_main(game, agent_a, agent_b, games=games, jobs=jobs, seed=seed, rules=rules or [],
                            setup=items, extra_setup=extra, records=str(records) if records else None,
                            max_actions=max_actions, progress=progress, json_out=json_out)
    except ValueError as exc:
        from cardtable.cli.options import fail

        fail(str(exc))
    del result


def _fmt_pct(x: Interval) -> str:
    return f"{100 * x.value:5.1f}%  [{100 * x.low:5.1f}%, {100 * x.high:5.1f}%]"


def _fmt_elo(x: float) -> str:
    return "+inf" if x == math.inf else "-inf" if x == -math.inf else f"{x:+.0f}"


def report_table(result: ArenaResult) -> Any:
    """The arena report as a rich renderable."""
    from rich.table import Table

    from cardtable.lab.stats import CONFIDENCE

    cfg = result.config
    a, b, elo = result.score_a(), result.score_b(), result.elo()
    title = (f"{cfg.game}: A = {cfg.agent_a}  vs  B = {cfg.agent_b}   "
             f"({result.games} games, {result.players} players, seed {cfg.seed})")
    table = Table(title=title, show_header=True, header_style="bold")
    table.add_column("agent")
    table.add_column("wins", justify="right")
    table.add_column(f"score, {int(CONFIDENCE * 100)}% CI ({a.method})", justify="right")
    table.add_column("fair share", justify="right")
    table.add_row(f"A {cfg.agent_a}", str(result.wins_a), _fmt_pct(a), f"{100 * result.fair_share:.1f}%")
    table.add_row(f"B {cfg.agent_b}" + (" (all its seats)" if result.players > 2 else ""), str(result.wins_b),
                  _fmt_pct(b), f"{100 * (1 - result.fair_share):.1f}%")
    lines = [f"draws: {result.draws}" + (f" (of which {result.truncated} stopped at the action limit)"
                                         if result.truncated else ""),
             "A's score by seat: " + ", ".join(f"P{i + 1}: {100 * s:.0f}%" for i, s in enumerate(result.score_by_seat())),
             f"mean game length: {result.mean_length():.1f} actions",
             f"elapsed: {result.wall_seconds:.1f} s with {cfg.jobs} job(s) = {result.games_per_second():.2f} games/s"]
    if elo is not None:
        lines.insert(1, f"Elo difference (A - B): {_fmt_elo(elo.value)}  [{_fmt_elo(elo.low)}, {_fmt_elo(elo.high)}]")
    else:
        lines.insert(1, "Elo difference: not defined for more than two players (compare A's score with its fair share)")
    if cfg.records is not None:
        lines.append(f"records: {result.games} files in {cfg.records}")
    from rich.console import Group
    from rich.text import Text

    return Group(table, Text("\n".join(lines)))


def arena_main(game: str, agent_a: str, agent_b: str, *, games: int = 100, jobs: int = 1, seed: int = 0,
               rules: Sequence[str] = (), setup: Sequence[str] = (), extra_setup: Mapping[str, Any] | None = None,
               records: str | None = None, max_actions: int | None = None, progress: bool = True,
               json_out: bool = False) -> ArenaResult:
    """Run ``cardtable arena`` end to end: parse, play with a progress bar, print the report."""
    import json

    from cardtable.cli.options import console as out_console
    from cardtable.cli.options import progress_bar
    from cardtable.lab.arena import config_from_strings, plan, run_arena, share_of_a

    config = config_from_strings(game, agent_a, agent_b, games=games, jobs=jobs, seed=seed, rules=rules,
                                 setup=setup, extra_setup=extra_setup, records=records, max_actions=max_actions)
    scores: list[float] = []

    def running_score(progress: Progress) -> str:
        """A's running score."""
        scores.extend(share_of_a(g) for g in progress.batch)
        return f"A {100 * sum(scores) / len(scores):.0f}%" if scores else "A -"

    with progress_bar(f"{game} arena", len(plan(config)), running_score, progress) as tick:
        result = run_arena(config, tick)
    console = out_console()
    if json_out:
        console.print_json(json.dumps(result.to_json()))
    else:
        console.print(report_table(result))
    return result


def register(app: typer.Typer) -> None:
    """Add the ``arena`` command to the ``cardtable`` app."""
    app.command("arena")(arena)
