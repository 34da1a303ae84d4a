"""``cardtable bench startup``: how long the ``cardtable`` command takes to start, per command.

Each command runs ``runs`` times as a fresh process (the installed ``cardtable`` script when it sits
next to this Python, else ``python -m cardtable``), its output thrown away, after one warm-up run that
leaves the byte-code cached as an installed command has it. The table shows the best
and the median wall-clock time and the median CPU time (user + system of the child), and compares
the median CPU time with the start-up targets: on a quiet machine wall time is CPU time plus a few
milliseconds, and CPU time is what a busy machine does not inflate.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import RenderableType

COMMANDS: tuple[tuple[str, ...], ...] = (
    ("--help",), ("--version",), ("games",), ("rules", "zeta"), ("play", "--help"), ("arena", "--help"),
    ("deck", "show", "classic"),
)
"""What ``bench startup`` times."""

TARGETS: dict[tuple[str, ...], float] = {("--help",): 0.3, ("games",): 0.5}
"""Median CPU seconds each command should stay under."""


@dataclass(frozen=True)
class StartupTime:
    """The times of one command over several runs, in seconds."""

    args: tuple[str, ...]
    wall: tuple[float, ...]
    cpu: tuple[float, ...]

    @property
    def best(self) -> float:
        """The fastest wall-clock time."""
        return min(self.wall)

    @property
    def median(self) -> float:
        """The median wall-clock time."""
        return statistics.median(self.wall)

    @property
    def median_cpu(self) -> float:
        """The median CPU time (user + system)."""
        return statistics.median(self.cpu)

    @property
    def target(self) -> float | None:
        """The median CPU time this command should stay under (None: no target)."""
        return TARGETS.get(self.args)


def command_prefix() -> list[str]:
    """How to start ``cardtable`` here: the script next to this Python, else ``python -m cardtable``."""
    script = Path(sys.executable).with_name("cardtable")
    if script.exists():
        return [str(script)]
    found = shutil.which("cardtable")
    return [found] if found else [sys.executable, "-m", "cardtable"]


def time_command(args: tuple[str, ...], runs: int) -> StartupTime:
    """Run ``cardtable ARGS`` ``runs`` times (after one warm-up run) and keep each run's times."""
    prefix = command_prefix()
    env = dict(os.environ, COLUMNS="80", NO_COLOR="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # time an installed command: byte-code cached after the warm-up
    wall: list[float] = []
    cpu: list[float] = []
    for k in range(runs + 1):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([*prefix, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                       check=False)
        elapsed = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if k:  # the first run warms the file cache and the byte-code
            wall.append(elapsed)
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return StartupTime(args, tuple(wall), tuple(cpu))


def startup_times(runs: int = 9, commands: tuple[tuple[str, ...], ...] = COMMANDS) -> list[StartupTime]:
    """The start-up times of every command in ``commands``."""
    return [time_command(args, runs) for args in commands]


def render_startup(rows: list[StartupTime]) -> RenderableType:
    """The times as a table, each with its target when it has one."""
    from rich.table import Table

    runs = len(rows[0].wall) if rows else 0
    table = Table(title=f"cardtable start-up: {runs} runs each, seconds", title_justify="left")
    for col in ("command", "best wall", "median wall", "median CPU", "target (CPU)"):
        table.add_column(col, justify="left" if col == "command" else "right")
    for r in rows:
        target = "-" if r.target is None else f"< {r.target:.1f}: {'met' if r.median_cpu < r.target else 'missed'}"
        table.add_row("cardtable " + " ".join(r.args), f"{r.best:.3f}", f"{r.median:.3f}", f"{r.median_cpu:.3f}",
                      target)
    return table
