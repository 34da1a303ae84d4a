"""``cardtable lab sweep`` and ``cardtable lab tune``: card-set numbers tried on paired seeds, one value at a
time or searched with Optuna. The work is :mod:`cardtable.lab.sweep` and :mod:`cardtable.lab.tune`; this module
parses and presents. :func:`register` adds both commands to the ``lab`` app.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from cardtable.core.cardset import CardSet

__all__ = ["register", "sweep_cmd", "tune_cmd"]

console = Console(soft_wrap=True)
err = Console(stderr=True)

CardsOpt = Annotated[Path | None, typer.Option("--cards", help="Start from this card-set file (default: the rulebook's numbers).")]
AgentsOpt = Annotated[list[str] | None, typer.Option("--agents", "-a", help="Agent specs, rotated over the seats (default: heuristic).")]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", help="Worker processes.")]
RayOpt = Annotated[str | None, typer.Option("--ray", help="Play on Ray: `local` (a local cluster of --jobs CPUs), `auto` "
                                            "or `ray://HOST:10001`.")]


def _fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(code)


def _base(game: str, cards: Path | None) -> CardSet:
    from cardtable.core.cardset import CardSetError, default_set, load

    try:
        return load(cards, game) if cards is not None else default_set(game)
    except (CardSetError, ValueError) as exc:
        raise _fail(str(exc)) from None


def _executor(jobs: int, ray: str | None = None) -> Executor | None:
    from cardtable.lab.pipeline import make_executor

    if jobs < 1:
        raise _fail(f"--jobs must be at least 1, got {jobs}")
    try:
        return make_executor(jobs, None if ray in (None, "local") else ray, use_ray=ray is not None)
    except (ImportError, ValueError, RuntimeError) as exc:
        raise _fail(f"cannot start the workers: {exc}") from None


def sweep_cmd(
    game: Annotated[str, typer.Argument(help="zeta, oscilloscope or utahime.")],
    param: Annotated[str, typer.Argument(help="KEY=v1,v2,... or KEY=lo..hi: a card-set number (ice_mage.cost) or a rule flag.")],
    cards: CardsOpt = None,
    agents: AgentsOpt = None,
    games: Annotated[int, typer.Option("-n", "--games", help="Paired games per value.")] = 400,
    seed: Annotated[int, typer.Option(help="Seed of the games (every value plays the same ones).")] = 0,
    target: Annotated[float, typer.Option(help="The first player's score the designer wants (0.5: even).")] = 0.5,
    jobs: JobsOpt = 1,
    ray: RayOpt = None,
    chart: Annotated[Path | None, typer.Option("--chart", help="Write the chart (PNG) here.")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the numbers as JSON here.")] = None,
    max_actions: Annotated[int | None, typer.Option(help="Stop a game after this many actions (a draw).")] = None,
) -> None:
    """Play one number at several values on the same seeds: seat advantage, length and the card's strength."""
    from rich.progress import Progress

    from cardtable.core.registry import entry
    from cardtable.lab.sweep import parse_param, run_sweep, sweep_plot

    try:
        entry(game)
        key, values = parse_param(game, param)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if games < 1:
        raise _fail(f"--games must be at least 1, got {games}")
    if not 0 <= target <= 1:
        raise _fail(f"--target is a share between 0 and 1, not {target}")
    base = _base(game, cards)
    executor = _executor(jobs, ray)
    try:
        with Progress(console=err, transient=True) as bar:
            task = bar.add_task(f"{game}: {key}", total=len(values) + 1)

            def tick(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            result = run_sweep(game, key, values, base=base, agents=tuple(agents or ["heuristic"]), games=games,
                               seed=seed, target=target, max_actions=max_actions, executor=executor,
                               workers=jobs, progress=tick)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    finally:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
    console.print(f"{game} · {key} · set {base.name} #{base.hash} · {result.games} paired games per value "
                  f"({', '.join(result.agents)}), seed {seed}", markup=False)
    for line in result.lines():
        console.print("  " + line, markup=False)
    if chart is not None:
        chart.write_bytes(sweep_plot(result))
        console.print(f"chart: {chart}", markup=False)
    if json_out is not None:
        json_out.write_text(json.dumps(result.to_json(), indent=2, default=str), encoding="utf-8")


def tune_cmd(
    game: Annotated[str, typer.Argument(help="zeta, oscilloscope or utahime.")],
    vary: Annotated[list[str], typer.Option("--vary", help="KEY=lo..hi or KEY=a,b,c: a number or rule flag to search (repeatable).")],
    target: Annotated[list[str] | None, typer.Option("--target", help="seat=SHARE (default seat=0.5) or length=ACTIONS (repeatable).")] = None,
    cards: CardsOpt = None,
    agents: AgentsOpt = None,
    trials: Annotated[int, typer.Option(help="Trials the study should hold (finished or stopped early).")] = 60,
    step_games: Annotated[int, typer.Option("--step-games", help="Paired games per step of a trial.")] = 200,
    steps: Annotated[int, typer.Option(help="Steps of a full trial (successive halving stops bad ones early).")] = 8,
    seed: Annotated[int, typer.Option(help="Seed of the search's games (held-out seeds differ).")] = 0,
    store: Annotated[Path, typer.Option(help="The study's SQLite file: run again to go on with it.")] = Path("tune.db"),
    name: Annotated[str | None, typer.Option(help="The study's name in the store (default: game and what varies).")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for the best sets, the chart and the reports.")] = Path("tuned"),
    best: Annotated[int, typer.Option(help="How many of the best sets to check and write.")] = 3,
    verify_games: Annotated[int, typer.Option("--verify-games", help="Held-out games per set in the check.")] = 2000,
    check_agent: Annotated[str | None, typer.Option("--check-agent", help="Also play the best set with this stronger agent (e.g. ismcts:normal).")] = None,
    check_games: Annotated[int, typer.Option("--check-games", help="Games of the stronger agent's check.")] = 100,
    timeout: Annotated[float | None, typer.Option(help="Stop searching after this many seconds.")] = None,
    change_cost: Annotated[float, typer.Option("--change-cost", help="Objective cost per changed number.")] = 0.002,
    jobs: JobsOpt = 1,
    ray: RayOpt = None,
) -> None:
    """Search card-set numbers with Optuna until the target is met; check the best sets on held-out seeds."""
    try:
        import optuna  # noqa: F401
    except ImportError:
        raise _fail("lab tune needs optuna: pip install 'cardtable[tune]'") from None
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from cardtable.core.registry import entry
    from cardtable.lab.tune import TuneSettings, best_sets, parse_target, parse_vary, run_search, verify, write_outputs

    try:
        entry(game)
        dims = tuple(parse_vary(game, v) for v in vary)
        targets = tuple(parse_target(t) for t in (target or ["seat=0.5"]))
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if not dims:
        raise _fail("give at least one --vary KEY=lo..hi")
    for n, label in ((trials, "--trials"), (step_games, "--step-games"), (steps, "--steps"), (best, "--best"),
                     (verify_games, "--verify-games")):
        if n < 1:
            raise _fail(f"{label} must be at least 1, got {n}")
    base = _base(game, cards)
    settings = TuneSettings(game, dims, targets, base, tuple(agents or ["heuristic"]), step_games, steps, seed,
                            change_cost)
    study_name = name or f"{game}:" + ",".join(d.key for d in dims) + f":{base.hash}:{seed}"
    executor = _executor(jobs, ray)
    started = time.monotonic()
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                      TimeElapsedColumn(), console=err, transient=True) as bar:
            task = bar.add_task(f"{game}: searching", total=trials)

            def tick(done: int, total: int, best_value: float | None) -> None:
                shown = "" if best_value is None else f" · best {100 * best_value:.2f} points off"
                bar.update(task, completed=done, total=total, description=f"{game}: searching{shown}")

            study = run_search(settings, storage=f"sqlite:///{store}", name=study_name, trials=trials,
                               timeout=timeout, executor=executor, workers=jobs, progress=tick)
            found = best_sets(settings, study, best)
            if not found:
                raise _fail("no trial finished: raise --trials or --timeout")
            sets = [cs for cs, _ in found]
            bar.update(task, description=f"{game}: held-out check", completed=0, total=1)
            base_row, rows = verify(settings, sets, games=verify_games, executor=executor, workers=jobs)
            check: list[dict[str, Any]] = []
            if check_agent is not None:
                _, strong = verify(settings, sets[:1], games=check_games, agents=[check_agent], executor=executor,
                                   workers=jobs)
                check = [{"name": sets[0].name, "agent": check_agent, "games": strong[0]["games"],
                          "first": strong[0]["first"]}]
    except ValueError as exc:
        raise _fail(str(exc)) from None
    finally:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
    seconds = time.monotonic() - started
    written = write_outputs(out, settings, study, sets, base_row, rows, seconds, check)
    console.print((out / "report.en.md").read_text(encoding="utf-8"), markup=False)
    console.print(f"study {study_name!r} in {store} · {seconds / 60:.1f} minutes · wrote "
                  + ", ".join(str(p) for p in written), markup=False)


def register(app: typer.Typer) -> None:
    """Add ``sweep`` and ``tune`` to the ``lab`` app (a second call does nothing)."""
    if any(c.name == "sweep" for c in app.registered_commands):
        return
    app.command("sweep")(sweep_cmd)
    app.command("tune")(tune_cmd)
