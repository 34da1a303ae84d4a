"""``cardtable bench lab``: what recording and storing costs the lab, and how it scales with workers.

Per game, with uniformly random agents:

* *bench*: ``cardtable bench``'s random playouts (no events), games per CPU second;
* *lab per worker*: the lab's games (events recorded, facts read), games per CPU second of one worker,
  and its ratio to *bench* (the target is at least 0.8), both on the same deals, measured alternately;
* *scaling*: a whole run (plan, batches, workers, the store) on 1 and on 2 workers, local processes
  and Ray, in games per wall-clock second, and the speedup of 2 workers over 1 (the target is 1.8).
  Wall-clock time moves with whatever else the machine runs, so the runs alternate, 1 worker then
  2, ``ROUNDS`` times, and each side's rate is its games over its summed time.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .bench import random_playout
from .execute import run_study
from .pipeline import RayExecutor, process_pool
from .storage import LabStore
from .study import Batch, StudyConfig, plan, play_batch

GAMES = ("zeta", "oscilloscope", "utahime")
ROUNDS = 2
"""How many times the 1- and 2-worker runs alternate."""


def lab_rate(game: str, seconds: float, seed: int = 1) -> tuple[float, float, int]:
    """Games per CPU second of ``cardtable bench``'s random playouts and of the lab, on the same games.

    The same deals are played both ways, alternately in chunks of 20: as ``cardtable bench`` plays
    them (``new_game`` and random legal actions through the public API, nothing recorded) and as the
    lab does (events recorded, facts read and encoded). Returns (bench rate, lab rate, games each).
    """
    config = StudyConfig(game, ("random",), games=100_000, seed=seed)
    tasks = plan(config)
    loaded = config.load()
    rng = random.Random(seed)
    bench_time = lab_time = 0.0
    played = 0
    while bench_time + lab_time < 2 * seconds and played + 20 <= len(tasks):
        chunk = tasks[played:played + 20]
        start = time.process_time()
        for task in chunk:
            random_playout(loaded.new_game(seed=task.seed), rng)
        bench_time += time.process_time() - start
        start = time.process_time()
        play_batch(Batch(config, tuple(chunk)))
        lab_time += time.process_time() - start
        played += 20
    return played / bench_time, played / lab_time, played


def run_rate(game: str, games: int, workers: int, use_ray: bool) -> float:
    """Games per wall-clock second of a whole stored run on ``workers`` local processes or Ray workers."""
    config = StudyConfig(game, ("random",), games=games, seed=2)
    with tempfile.TemporaryDirectory() as tmp:
        lab = LabStore.open(f"sqlite:///{Path(tmp) / 'bench.db'}")
        executor = RayExecutor(None, workers) if use_ray else process_pool(workers)
        try:
            warm = StudyConfig(game, ("random",), games=workers * 2, seed=3)  # start the workers before the clock
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
        bench, lab, _ = lab_rate(game, seconds)
        n = max(40, int(lab * seconds * 2 / ROUNDS))
        row: dict[str, Any] = {"game": game, "bench_games_per_s": bench, "lab_games_per_s": lab,
                               "lab_vs_bench": lab / bench if bench else None, "run_games": n * ROUNDS}
        for name, use_ray in (("local", False), ("ray", True)):
            if use_ray and not has_ray:
                continue
            times = {1: 0.0, 2: 0.0}
            for _ in range(ROUNDS):
                for workers in (1, 2):
                    times[workers] += n / run_rate(game, n, workers, use_ray)
            one, two = n * ROUNDS / times[1], n * ROUNDS / times[2]
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
