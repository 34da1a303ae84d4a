"""``cardtable bench lab``: what recording and storing costs the lab, and how it scales with workers.

Per game, with uniformly random agents:

* *bench*: ``cardtable bench``'s random playouts (no events), games per CPU second;
* *lab per worker*: the lab's games (events recorded, facts read), games per CPU second of one worker,
  and its ratio to *bench* (the target is at least 0.8);
* *scaling*: a whole run (plan, batches, workers, the store) on 1 and on 2 workers, local processes
  and Ray, in games per wall-clock second, and the speedup of 2 workers over 1 (the target is 1.8).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .bench import playouts
from .execute import RayExecutor, run_study
from .runner import process_pool
from .storage import LabStore
from .study import Batch, StudyConfig, plan, play_batch

GAMES = ("zeta", "oscilloscope", "utahime")


def lab_rate(game: str, seconds: float, seed: int = 1) -> tuple[float, int]:
    """The lab's random games per CPU second in this process (events recorded, facts read), and games played."""
    config = StudyConfig(game, ("random",), games=100_000, seed=seed)
    tasks = plan(config)
    played = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        play_batch(Batch(config, tuple(tasks[played:played + 20])))
        played += 20
    return played / (time.process_time() - start), played


def run_rate(game: str, games: int, workers: int, use_ray: bool) -> float:
    """Games per wall-clock second of a whole stored run on ``workers`` local processes or Ray workers."""
    config = StudyConfig(game, ("random",), games=games, seed=2)
    with tempfile.TemporaryDirectory() as tmp:
        lab = LabStore.open(f"sqlite:///{Path(tmp) / 'bench.db'}")
        executor = RayExecutor(None, workers) if use_ray else process_pool(workers)
        try:
            if use_ray:  # start the workers before the clock does
                warm = StudyConfig(game, ("random",), games=workers * 2, seed=3)
                run_study(lab, "warm", warm, jobs=workers, executor=executor, batch=1)
            start = time.perf_counter()
            run_study(lab, "bench", config, jobs=workers, executor=executor)
            elapsed = time.perf_counter() - start
        finally:
            executor.shutdown()
            lab.close()
    return games / elapsed


def bench_lab(seconds: float = 2.0, games: Sequence[str] = GAMES, ray: bool = True) -> list[dict[str, Any]]:
    """Measure every game: bench and lab rates per worker, and 1- and 2-worker runs (local; Ray if installed)."""
    try:
        import ray as _ray  # noqa: F401

        has_ray = ray
    except ImportError:
        has_ray = False
    rows = []
    for game in games:
        bench = playouts(game, {}, {}, seconds).games_per_second
        lab, _ = lab_rate(game, seconds)
        n = max(40, int(lab * seconds * 2))
        row: dict[str, Any] = {"game": game, "bench_games_per_s": bench, "lab_games_per_s": lab,
                               "lab_vs_bench": lab / bench if bench else None, "run_games": n}
        for name, use_ray in (("local", False), ("ray", True)):
            if use_ray and not has_ray:
                continue
            one = run_rate(game, n, 1, use_ray)
            two = run_rate(game, n, 2, use_ray)
            row[f"{name}_1"] = one
            row[f"{name}_2"] = two
            row[f"{name}_speedup"] = two / one if one else None
        rows.append(row)
    return rows


def main(seconds: float = 2.0, ray: bool = True, console: Any = None) -> list[dict[str, Any]]:
    """Run the lab benchmark and print its table (what ``cardtable bench lab`` shows)."""
    from rich.console import Console
    from rich.table import Table

    out = console if console is not None else Console()
    with out.status("benchmarking the lab..."):
        rows = bench_lab(seconds, ray=ray)
    table = Table(title="the lab with random agents: cost of recording, and scaling", title_justify="left")
    for col in ("game", "bench g/s", "lab g/s per worker", "lab/bench (>= 0.8)", "local 1 / 2 workers",
                "local speedup (>= 1.8)", "Ray 1 / 2 workers", "Ray speedup (>= 1.8)"):
        table.add_column(col, justify="left" if col == "game" else "right")
    for r in rows:
        table.add_row(r["game"], f"{r['bench_games_per_s']:,.0f}", f"{r['lab_games_per_s']:,.0f}",
                      f"{r['lab_vs_bench']:.2f}", f"{r['local_1']:,.0f} / {r['local_2']:,.0f}",
                      f"{r['local_speedup']:.2f}x",
                      f"{r['ray_1']:,.0f} / {r['ray_2']:,.0f}" if "ray_1" in r else "-",
                      f"{r['ray_speedup']:.2f}x" if "ray_speedup" in r else "-")
    out.print(table)
    return rows
