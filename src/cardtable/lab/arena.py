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
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from cardtable.agents import make_agent
from cardtable.core import load_game
from cardtable.core.registry import game_class
from cardtable.core.rules import parse_assignments, parse_setup

from .runner import GameResult, GameTask, iter_results, play_game
from .stats import CONFIDENCE, Interval, elo_difference, score_interval

__all__ = ["CONFIDENCE", "ArenaConfig", "ArenaResult", "GameResult", "GameTask", "Interval", "config_from_strings",
           "elo_difference", "iter_results", "parse_setup", "plan", "play_game", "record_path", "run_arena",
           "score_interval"]


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


# -- planning and playing -------------------------------------------------------------------------
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


def config_from_strings(game: str, agent_a: str, agent_b: str, *, games: int = 100, jobs: int = 1, seed: int = 0,
                        rules: Sequence[str] = (), setup: Sequence[str] = (), extra_setup: Mapping[str, Any] | None = None,
                        records: str | Path | None = None, max_actions: int | None = None) -> ArenaConfig:
    """An arena configuration from command-line strings (ValueError saying what is wrong)."""
    cls = game_class(game)
    flags = parse_assignments(cls.Rules, rules)
    return ArenaConfig(game, agent_a, agent_b, games, jobs, seed, flags, {**parse_setup(setup), **(extra_setup or {})},
                       Path(records) if records is not None else None, max_actions)
