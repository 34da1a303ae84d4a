"""The arena: two agents play seat-rotated games on shared seeds, and the results become statistics.

Games come in groups. Every game of a group starts from the same seed; in game ``k`` of a group,
agent A sits in seat ``k`` and agent B fills every other seat, so over a group A plays each seat
once (for two players: the usual seat-swapped pair). A's score in a game is its share of the win:
1 for a sole win, ``1/w`` for a win shared by ``w`` seats, ``1/n`` for a draw of ``n`` seats, else
0; B's score is the rest. Confidence intervals are Wilson intervals (``scipy.stats.binomtest``)
when every score is 0 or 1, and otherwise a BCa bootstrap over groups (``scipy.stats.bootstrap``),
which keeps each seat-rotated group together (a paired design).
"""

from __future__ import annotations

import math
import multiprocessing
import random
import re
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats  # type: ignore[import-untyped]

from cardtable.agents import Agent, decide, make_agent
from cardtable.core import Game, load_game, record_of
from cardtable.core.registry import game_class
from cardtable.core.rules import parse_assignments

CONFIDENCE = 0.95


# -- configuration -------------------------------------------------------------------------------
@dataclass(frozen=True)
class ArenaConfig:
    """What to play: the game and its rules and setup, the two agents, how many games, and how."""

    game: str
    agent_a: str
    agent_b: str
    games: int = 100
    """Games to play, rounded up to whole seat-rotated groups (one game per seat)."""
    jobs: int = 1
    """Worker processes (1: play in this process)."""
    seed: int = 0
    rules: Mapping[str, Any] = field(default_factory=dict)
    setup: Mapping[str, Any] = field(default_factory=dict)
    records: Path | None = None
    """Directory to write every game's record to (None: keep no records)."""
    max_actions: int | None = None
    """Stop a game after this many actions and count it a draw (None: the game's termination bound)."""


@dataclass(frozen=True)
class GameTask:
    """One arena game: which group and rotation, its seed, and the spec in each seat."""

    game: str
    rules: Mapping[str, Any]
    setup: Mapping[str, Any]
    group: int
    rotation: int
    seed: int
    arena_seed: int
    seats: tuple[str, ...]
    """'A' or 'B' for each seat."""
    specs: tuple[str, ...]
    """The agent spec in each seat."""
    max_actions: int | None
    keep_record: bool


@dataclass(frozen=True)
class GameResult:
    """The result of one arena game."""

    group: int
    rotation: int
    seed: int
    seats: tuple[str, ...]
    winners: tuple[int, ...]
    reason: str
    length: int
    seconds: float
    score_a: float
    """Agent A's share of the win (see the module docstring)."""
    truncated: bool
    record: dict[str, Any] | None


@dataclass(frozen=True)
class Interval:
    """A point estimate with its confidence interval."""

    value: float
    low: float
    high: float
    method: str

    def flipped(self) -> Interval:
        """The interval of ``1 - value``."""
        return Interval(1.0 - self.value, 1.0 - self.high, 1.0 - self.low, self.method)


@dataclass(frozen=True)
class ArenaResult:
    """Everything an arena run measured."""

    config: ArenaConfig
    players: int
    results: tuple[GameResult, ...]
    wall_seconds: float

    @property
    def games(self) -> int:
        """Games played."""
        return len(self.results)

    @property
    def wins_a(self) -> int:
        """Games agent A won (alone or shared)."""
        return sum(1 for r in self.results if _a_won(r))

    @property
    def wins_b(self) -> int:
        """Games some seat of agent B won while A did not."""
        return sum(1 for r in self.results if r.winners and not _a_won(r))

    @property
    def draws(self) -> int:
        """Games nobody won."""
        return sum(1 for r in self.results if not r.winners)

    @property
    def truncated(self) -> int:
        """Games stopped at the action limit (counted as draws)."""
        return sum(1 for r in self.results if r.truncated)

    @property
    def fair_share(self) -> float:
        """A's expected score if both agents were equally strong: 1 / players."""
        return 1.0 / self.players

    def score_a(self) -> Interval:
        """Agent A's mean score with its 95% confidence interval."""
        return score_interval([r.score_a for r in self.results], [r.group for r in self.results])

    def score_b(self) -> Interval:
        """Agent B's (all its seats together) mean score with its 95% confidence interval."""
        return self.score_a().flipped()

    def elo(self) -> Interval | None:
        """The Elo difference A minus B with its interval (two-player games only)."""
        if self.players != 2 or not self.results:
            return None
        s = self.score_a()
        return Interval(elo_difference(s.value), elo_difference(s.low), elo_difference(s.high), s.method)

    def mean_length(self) -> float:
        """Mean game length in actions."""
        return float(np.mean([r.length for r in self.results])) if self.results else 0.0

    def games_per_second(self) -> float:
        """Throughput of the whole run."""
        return self.games / self.wall_seconds if self.wall_seconds > 0 else 0.0

    def score_by_seat(self) -> list[float]:
        """A's mean score in each seat (seat advantage shows here)."""
        out = []
        for seat in range(self.players):
            scores = [r.score_a for r in self.results if r.rotation == seat]
            out.append(float(np.mean(scores)) if scores else math.nan)
        return out

    def to_json(self) -> dict[str, Any]:
        """A JSON summary (no per-game details)."""
        a, b, elo = self.score_a(), self.score_b(), self.elo()
        return {
            "game": self.config.game, "agent_a": self.config.agent_a, "agent_b": self.config.agent_b,
            "players": self.players, "games": self.games, "seed": self.config.seed, "jobs": self.config.jobs,
            "rules": dict(self.config.rules), "setup": dict(self.config.setup),
            "wins_a": self.wins_a, "wins_b": self.wins_b, "draws": self.draws, "truncated": self.truncated,
            "score_a": [a.value, a.low, a.high], "score_b": [b.value, b.low, b.high], "ci_method": a.method,
            "elo": [elo.value, elo.low, elo.high] if elo else None,
            "score_a_by_seat": self.score_by_seat(), "mean_length": self.mean_length(),
            "wall_seconds": self.wall_seconds, "games_per_second": self.games_per_second(),
        }


def _a_won(result: GameResult) -> bool:
    return any(result.seats[w] == "A" for w in result.winners)


# -- statistics ----------------------------------------------------------------------------------
def score_interval(scores: Sequence[float], groups: Sequence[int] | None = None,
                   confidence: float = CONFIDENCE) -> Interval:
    """Mean score with a confidence interval: Wilson if all scores are 0/1, else a grouped BCa bootstrap."""
    if not scores:
        return Interval(math.nan, 0.0, 1.0, "none")
    mean = float(np.mean(scores))
    if all(s in (0.0, 1.0) for s in scores):
        k = int(round(sum(scores)))
        ci = stats.binomtest(k, len(scores)).proportion_ci(confidence_level=confidence, method="wilson")
        return Interval(mean, float(ci.low), float(ci.high), "wilson")
    by_group: dict[int, list[float]] = {}
    for i, s in enumerate(scores):
        by_group.setdefault(groups[i] if groups is not None else i, []).append(s)
    sample = np.array([np.mean(v) for v in by_group.values()])
    if len(sample) < 2 or np.all(sample == sample[0]):
        return Interval(mean, float(sample.min()), float(sample.max()), "bootstrap")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = stats.bootstrap((sample,), np.mean, confidence_level=confidence, n_resamples=9999,
                              method="BCa", random_state=np.random.default_rng(12345))
        low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
        if not (math.isfinite(low) and math.isfinite(high)):
            res = stats.bootstrap((sample,), np.mean, confidence_level=confidence, n_resamples=9999,
                                  method="percentile", random_state=np.random.default_rng(12345))
            low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    return Interval(mean, max(0.0, low), min(1.0, high), "bootstrap")


def elo_difference(score: float) -> float:
    """The Elo difference that predicts this expected score (infinite at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


# -- playing -------------------------------------------------------------------------------------
def plan(config: ArenaConfig) -> list[GameTask]:
    """The games an arena run plays: whole seat-rotated groups on seeds drawn from ``config.seed``."""
    if config.games < 1:
        raise ValueError(f"the arena needs at least one game, got {config.games}")
    if config.jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {config.jobs}")
    game = load_game(config.game, **dict(config.rules))
    make_agent(config.agent_a, game)  # fail here, with the valid specs listed, rather than in a worker
    make_agent(config.agent_b, game)
    setup = game.normalize_setup(dict(config.setup))
    players = game.num_players_for(setup)
    groups = -(-config.games // players)
    seeds = random.Random(f"arena:{config.seed}")
    tasks = []
    for g in range(groups):
        seed = seeds.getrandbits(48)
        for k in range(players):
            seats = tuple("A" if s == k else "B" for s in range(players))
            specs = tuple(config.agent_a if s == "A" else config.agent_b for s in seats)
            tasks.append(GameTask(config.game, dict(config.rules), setup, g, k, seed, config.seed, seats, specs,
                                  config.max_actions, config.records is not None))
    return tasks


_AGENTS: dict[tuple[str, str, tuple[tuple[str, Any], ...]], tuple[Game[Any], Agent]] = {}


def _agent(task: GameTask, spec: str) -> tuple[Game[Any], Agent]:
    key = (task.game, spec, tuple(sorted(task.rules.items())))
    if key not in _AGENTS:
        game = load_game(task.game, **dict(task.rules))
        _AGENTS[key] = (game, make_agent(spec, game))
    return _AGENTS[key]


def play_game(task: GameTask) -> GameResult:
    """Play one arena game to the end (or the action limit); each seat has its own seeded RNG."""
    start = time.perf_counter()
    game = load_game(task.game, **dict(task.rules))
    state = game.new_game(seed=task.seed, **dict(task.setup))
    agents = [_agent(task, spec)[1] for spec in task.specs]
    rngs = [random.Random(f"arena:{task.arena_seed}:{task.group}:{task.rotation}:{seat}")
            for seat in range(len(task.specs))]
    limit = task.max_actions if task.max_actions is not None else game.termination_bound
    actions = 0
    while state.current_player is not None and actions < limit:
        seat = state.current_player
        state.apply(decide(agents[seat], state, rngs[seat]), player=seat)
        actions += 1
    outcome = state.outcome()
    winners = outcome.winners if outcome is not None else ()
    n = len(task.seats)
    if not winners:
        score_a = sum(1.0 / n for s in task.seats if s == "A")
    else:
        score_a = sum(1.0 / len(winners) for w in winners if task.seats[w] == "A")
    record = None
    if task.keep_record:
        meta = {"arena_seed": task.arena_seed, "group": task.group, "rotation": task.rotation,
                "seats": list(task.seats)}
        record = record_of(state, players=list(task.specs), meta=meta).to_json()
    return GameResult(task.group, task.rotation, task.seed, task.seats, tuple(winners),
                      outcome.reason if outcome is not None else "action limit", len(state.history),
                      time.perf_counter() - start, score_a, outcome is None, record)


def _pool(jobs: int) -> Executor:
    methods = multiprocessing.get_all_start_methods()
    # fork keeps games and heuristics registered at run time (tests, plug-ins) visible in the workers
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    return ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)


def iter_results(tasks: Sequence[GameTask], jobs: int = 1) -> Iterator[GameResult]:
    """Play ``tasks`` (in parallel over ``jobs`` processes if > 1), yielding results as they finish."""
    if jobs <= 1:
        for task in tasks:
            yield play_game(task)
        return
    with _pool(jobs) as pool:
        futures: list[Future[GameResult]] = [pool.submit(play_game, t) for t in tasks]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


def record_path(directory: Path, result: GameResult, game: str) -> Path:
    """Where the record of one arena game goes."""
    return directory / f"{game}-g{result.group:04d}-r{result.rotation}-{result.seed}.json"


def run_arena(config: ArenaConfig, on_result: Callable[[GameResult], None] | None = None) -> ArenaResult:
    """Play every game of ``config`` and return the statistics; records are written as games finish."""
    tasks = plan(config)
    if config.records is not None:
        config.records.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    results = []
    for result in iter_results(tasks, config.jobs):
        if config.records is not None and result.record is not None:
            from cardtable.core import Record

            Record.from_json(result.record).save(record_path(config.records, result, config.game))
        results.append(result)
        if on_result is not None:
            on_result(result)
    results.sort(key=lambda r: (r.group, r.rotation))
    players = len(tasks[0].seats)
    return ArenaResult(config, players, tuple(results), time.perf_counter() - start)


# -- the command ---------------------------------------------------------------------------------
def parse_setup(items: Sequence[str]) -> dict[str, Any]:
    """``key=value`` setup options (ints, true/false and strings) as a mapping."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"setup option {item!r} must be written key=value")
        value: Any = text.strip()
        low = value.lower()
        if low in ("true", "false"):
            value = low == "true"
        elif re.fullmatch(r"[+-]?\d+", value):
            value = int(value)
        out[key.strip().replace("-", "_")] = value
    return out


def config_from_strings(game: str, agent_a: str, agent_b: str, *, games: int = 100, jobs: int = 1, seed: int = 0,
                        rules: Sequence[str] = (), setup: Sequence[str] = (), extra_setup: Mapping[str, Any] | None = None,
                        records: str | Path | None = None, max_actions: int | None = None) -> ArenaConfig:
    """An arena configuration from command-line strings (ValueError saying what is wrong)."""
    cls = game_class(game)
    flags = parse_assignments(cls.Rules, rules)
    return ArenaConfig(game, agent_a, agent_b, games, jobs, seed, flags, {**parse_setup(setup), **(extra_setup or {})},
                       Path(records) if records is not None else None, max_actions)


def _fmt_pct(x: Interval) -> str:
    return f"{100 * x.value:5.1f}%  [{100 * x.low:5.1f}%, {100 * x.high:5.1f}%]"


def _fmt_elo(x: float) -> str:
    return "+inf" if x == math.inf else "-inf" if x == -math.inf else f"{x:+.0f}"


def report_table(result: ArenaResult) -> Any:
    """The arena report as a rich renderable."""
    from rich.table import Table

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
             "A's score by seat: " + ", ".join(f"seat {i}: {100 * s:.0f}%" for i, s in enumerate(result.score_by_seat())),
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

    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    config = config_from_strings(game, agent_a, agent_b, games=games, jobs=jobs, seed=seed, rules=rules,
                                 setup=setup, extra_setup=extra_setup, records=records, max_actions=max_actions)
    total = len(plan(config))
    console = Console()
    err = Console(stderr=True)
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("A {task.fields[score]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                  console=err, disable=not progress, transient=True) as bar:
        task_id = bar.add_task(f"{game} arena", total=total, score="-")
        scores: list[float] = []

        def tick(result: GameResult) -> None:
            """Advance the bar and show A's running score."""
            scores.append(result.score_a)
            bar.update(task_id, advance=1, score=f"{100 * sum(scores) / len(scores):.0f}%")

        result = run_arena(config, tick)
    if json_out:
        console.print_json(json.dumps(result.to_json()))
    else:
        console.print(report_table(result))
    return result
