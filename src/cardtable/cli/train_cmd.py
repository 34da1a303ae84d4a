"""``cardtable train GAME``: self-play training of the network the ``learned`` agents play (the ``train`` extra).

Registered by ``cardtable.cli.main``; the work is :func:`cardtable.train.run.train`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer


def train_cmd(
    game: Annotated[str, typer.Argument(help="Game name (see `cardtable games`).")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Run directory (default: train-GAME).")] = None,
    generations: Annotated[int, typer.Option(help="Generations of self-play then training.")] = 10,
    games: Annotated[int, typer.Option("--games", "-n", help="Self-play games per generation.")] = 40,
    expert: Annotated[str, typer.Option(help="Who makes the policy targets: auto, ismcts or learned.")] = "auto",
    warmup: Annotated[int, typer.Option(help="Games the heuristic teaches in the first generation (a cheap start).")] = 0,
    expert_iterations: Annotated[int, typer.Option(help="ISMCTS iterations per decision (expert ismcts).")] = 200,
    expert_depth: Annotated[int | None, typer.Option(help="Cut the ISMCTS expert's rollouts after this many actions "
                                                          "(the game's evaluator scores them).")] = None,
    search_iterations: Annotated[int, typer.Option(help="Guided-search iterations per decision (expert learned).")] = 100,
    hidden: Annotated[str, typer.Option(help="The trunk's layer widths, comma-separated.")] = "128,128",
    epochs: Annotated[int, typer.Option(help="Passes over the replay window per generation.")] = 4,
    window: Annotated[int, typer.Option(help="Generations of samples trained on.")] = 4,
    lr: Annotated[float, typer.Option(help="Learning rate (AdamW).")] = 1e-3,
    eval_games: Annotated[int, typer.Option(help="Games against the heuristic after each generation (0: none).")] = 40,
    seed: Annotated[int, typer.Option(help="Seed of the whole run (the same seed and settings give the same network).")] = 0,
    rules: Annotated[list[str] | None, typer.Option("--rules", "-r", help="Rule flag as flag=value (repeatable).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes for the games.")] = 1,
    threads: Annotated[int, typer.Option(help="PyTorch threads for training.")] = 1,
    resume: Annotated[bool, typer.Option(help="Continue the run in --out from its last checkpoint.")] = False,
    ship: Annotated[bool, typer.Option(help="Copy the final weights into the package (the shipped network).")] = False,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """Train GAME's value and policy network by search-guided self-play; checkpoints, report, resumable."""
    from cardtable.cli.options import console, err_console, fail, load_with_flags

    try:
        import torch  # noqa: F401
    except ImportError:
        fail("cardtable train needs PyTorch: pip install 'cardtable[train]'")
    loaded = load_with_flags(game, rules)
    try:
        widths = tuple(int(w) for w in hidden.split(","))
    except ValueError:
        fail(f"--hidden must be comma-separated widths like 128,128, got {hidden!r}")
    from cardtable.train.config import TrainConfig
    from cardtable.train.run import train

    try:
        cfg = TrainConfig(game=loaded.name, rules=dict(loaded.rules.changed_flags()), seed=seed,
                          generations=generations, games=games, expert=expert,  # type: ignore[arg-type]
                          warmup_games=warmup, expert_iterations=expert_iterations, expert_depth=expert_depth,
                          search_iterations=search_iterations, hidden=widths,
                          epochs=epochs, window=window, lr=lr, eval_games=eval_games, jobs=jobs, threads=threads)
    except ValueError as exc:
        fail(str(exc))
    directory = out or Path(f"train-{loaded.name}")
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}", style="bold", markup=False), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[info]}", markup=False), TimeElapsedColumn(), console=err_console(),
                  disable=not progress, transient=True) as bar:
        tasks: dict[str, Any] = {}

        def tick(phase: str, done: int, total: int, info: str) -> None:
            """Show one phase's progress (a line per phase)."""
            if phase not in tasks:
                tasks[phase] = bar.add_task(phase, total=total, info="")
            bar.update(tasks[phase], completed=done, total=total, info=info)
            if done >= total:
                bar.remove_task(tasks.pop(phase))

        try:
            result = train(cfg, directory, resume=resume, ship=ship, tick=tick)
        except ValueError as exc:
            fail(str(exc))
    out_console = console()
    for h in result.history:
        rated = h.get("vs_heuristic")
        strength = (f"  learned vs heuristic {100 * rated['score']:.1f}% [{100 * rated['low']:.1f}, "
                    f"{100 * rated['high']:.1f}] of {rated['games']}" if rated else "")
        out_console.print(f"generation {h['generation']}: {h['samples']} positions, policy loss "
                          f"{h['policy_loss']:.3f}, value loss {h['value_loss']:.3f}{strength} ({h['seconds']:.0f} s)")
    out_console.print(f"weights: {result.weights} (play them: learned:weights={result.weights})")
    out_console.print(f"report: {result.directory / 'report.md'}")
    if ship:
        out_console.print(f"shipped: the package's {loaded.name} network is now this one")


def register(app: typer.Typer) -> None:
    """Add the ``train`` command to the ``cardtable`` app."""
    app.command("train")(train_cmd)
