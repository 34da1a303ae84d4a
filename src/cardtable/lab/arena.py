"""The arena: two agents play seat-rotated games on shared seeds, and the results become statistics.

Games come in groups. Every game of a group starts from the same seed; in game ``k`` of a group,
agent A sits in seat ``k`` and agent B fills every other seat, so over a group A plays each seat
once (for two players: the usual seat-swapped pair). A's score in a game is its share of the win:
1 for a sole win, ``1/w`` for a win shared by ``w`` seats, ``1/n`` for a draw of ``n`` seats, else
0; B's score is the rest. Confidence intervals are Wilson intervals (``scipy.stats.binomtest``)
when every score is 0 or 1, and otherwise a BCa bootstrap over groups (``scipy.stats.bootstrap``),
which keeps each seat-rotated group together (a paired design).

The games go down the lab's one pipeline (:mod:`cardtable.lab.pipeline`), one game a batch, with
each seat's agent drawing from its own RNG (:attr:`~cardtable.lab.study.Randomness.PER_SEAT`); the
results are the lab's :class:`~cardtable.lab.study.PlayedGame` values, in which agent A sits in the
seat of the game's rotation.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from cardtable.agents import make_agent
from cardtable.core import load_game
from cardtable.core.registry import game_class
from cardtable.core.rules import parse_assignments, parse_setup

from .pipeline import Progress, iter_batches, make_executor, summary
from .stats import CONFIDENCE, Interval, elo_difference, score_interval
from .study import Batch, GameTask, PlayedGame, Randomness, StudyConfig

__all__ = ["CONFIDENCE", "ArenaConfig", "ArenaResult", "GameTask", "Interval", "PlayedGame", "config_from_strings",
           "elo_difference", "parse_setup", "plan", "record_path", "run_arena", "score_interval", "seats", "share_of_a",
           "study_config"]


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
class ArenaResult:
    """Everything an arena run measured."""

    config: ArenaConfig
    players: int
    results: tuple[PlayedGame, ...]
    """The games in (group, rotation) order."""
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
        return score_interval([share_of_a(r) for r in self.results], [r.group for r in self.results])

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
            scores = [share_of_a(r) for r in self.results if r.rotation == seat]
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


class Finished(Protocol):
    """A finished arena game as a played game or its progress summary shows it."""

    @property
    def rotation(self) -> int:
        """The game's rotation in its group: the seat of agent A."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats (none for a draw)."""

    @property
    def players(self) -> int:
        """Seats of the game."""


def seats(game: GameTask | Finished) -> tuple[str, ...]:
    """'A' or 'B' for each seat of an arena game: A sits in the seat of the game's rotation."""
    players = len(game.specs) if isinstance(game, GameTask) else game.players
    return tuple("A" if s == game.rotation else "B" for s in range(players))


def share_of_a(game: Finished) -> float:
    """Agent A's share of the win: 1 alone, 1/w of a w-way win, 1/n of an n-seat draw, else 0."""
    if not game.winners:
        return 1.0 / game.players
    return sum(1.0 / len(game.winners) for w in game.winners if w == game.rotation)


def _a_won(game: Finished) -> bool:
    return game.rotation in game.winners


# -- planning and playing -------------------------------------------------------------------------
def study_config(config: ArenaConfig) -> StudyConfig:
    """The arena run as the lab's pipeline plays it: the agents A and B, the setup normalized."""
    if config.games < 1:
        raise ValueError(f"the arena needs at least one game, got {config.games}")
    if config.jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {config.jobs}")
    game = load_game(config.game, **dict(config.rules))
    make_agent(config.agent_a, game)  # fail here, with the valid specs listed, rather than in a worker
    make_agent(config.agent_b, game)
    setup = game.normalize_setup(dict(config.setup))
    return StudyConfig(config.game, (config.agent_a, config.agent_b), config.games, config.seed, dict(config.rules),
                       setup, config.max_actions)


def plan(config: ArenaConfig) -> list[GameTask]:
    """The games an arena run plays: whole seat-rotated groups on seeds drawn from ``config.seed``.

    In game ``k`` of a group agent A sits in seat ``k`` and B in every other seat.
    """
    study = study_config(config)
    players = study.players()
    seeds = random.Random(f"arena:{config.seed}")
    tasks: list[GameTask] = []
    for g in range(-(-config.games // players)):
        seed = seeds.getrandbits(48)
        for k in range(players):
            specs = tuple(config.agent_a if s == k else config.agent_b for s in range(players))
            tasks.append(GameTask(len(tasks), g, k, seed, specs))
    return tasks


def record_path(directory: Path, game: PlayedGame, name: str) -> Path:
    """Where the record of one arena game of the game ``name`` goes."""
    return directory / f"{name}-g{game.group:04d}-r{game.rotation}-{game.seed}.json"


def run_arena(config: ArenaConfig, on_progress: Callable[[Progress], None] | None = None) -> ArenaResult:
    """Play every game of ``config`` and return the statistics; records are written as games finish."""
    study = study_config(config)
    tasks = plan(config)
    work = [Batch(study, (task,), Randomness.PER_SEAT, records=config.records is not None) for task in tasks]
    if config.records is not None:
        config.records.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    results: list[PlayedGame] = []
    executor = make_executor(config.jobs)
    try:
        for games in iter_batches(work, executor):
            for game in games:
                if config.records is not None and game.record is not None:
                    _save_record(config, game)
            results.extend(games)
            if on_progress is not None:
                on_progress(Progress(len(results), len(tasks), tuple(summary(g) for g in games)))
    finally:
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
    results.sort(key=lambda r: (r.group, r.rotation))
    return ArenaResult(config, len(tasks[0].specs), tuple(results), time.perf_counter() - start)


def _save_record(config: ArenaConfig, game: PlayedGame) -> None:
    from cardtable.core import Record

    assert config.records is not None and game.record is not None
    meta = {"arena_seed": config.seed, "group": game.group, "rotation": game.rotation, "seats": list(seats(game))}
    Record.from_json({**game.record, "meta": meta}).save(record_path(config.records, game, config.game))


def config_from_strings(game: str, agent_a: str, agent_b: str, *, games: int = 100, jobs: int = 1, seed: int = 0,
                        rules: Sequence[str] = (), setup: Sequence[str] = (), extra_setup: Mapping[str, Any] | None = None,
                        records: str | Path | None = None, max_actions: int | None = None) -> ArenaConfig:
    """An arena configuration from command-line strings (ValueError saying what is wrong)."""
    cls = game_class(game)
    flags = parse_assignments(cls.Rules, rules)
    return ArenaConfig(game, agent_a, agent_b, games, jobs, seed, flags, {**parse_setup(setup), **(extra_setup or {})},
                       Path(records) if records is not None else None, max_actions)
