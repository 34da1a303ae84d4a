"""Playing games for the lab: one game as a task, and a runner that plays tasks on any executor.

A :class:`GameTask` is plain data (picklable), :func:`play_game` plays one to the end with each seat's
agent seeing only its view, and :func:`iter_results` plays many in this process, in a process pool, or
on any ``concurrent.futures.Executor`` a caller brings (a Ray pool, a thread pool), yielding results as
they finish.
"""

from __future__ import annotations

import multiprocessing
import random
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from cardtable.agents import Agent, decide, make_agent
from cardtable.core import Game, load_game, record_of


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
    """The result of one game of the lab."""

    group: int
    rotation: int
    seed: int
    seats: tuple[str, ...]
    winners: tuple[int, ...]
    reason: str
    length: int
    seconds: float
    score_a: float
    """Agent A's share of the win: 1 alone, 1/w of a w-way win, 1/n of an n-seat draw, else 0."""
    truncated: bool
    record: dict[str, Any] | None


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


def process_pool(jobs: int) -> Executor:
    """A process pool of ``jobs`` workers (forked where possible, so run-time registrations carry over)."""
    methods = multiprocessing.get_all_start_methods()
    # fork keeps games and heuristics registered at run time (tests, plug-ins) visible in the workers
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    return ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)


def iter_results(tasks: Sequence[GameTask], jobs: int = 1, executor: Executor | None = None) -> Iterator[GameResult]:
    """Play ``tasks`` on ``executor`` (or ``jobs`` processes if > 1, else here), yielding results as they finish."""
    if executor is None and jobs <= 1:
        for task in tasks:
            yield play_game(task)
        return
    if executor is None:
        with process_pool(jobs) as pool:
            yield from _submit_all(pool, tasks)
        return
    yield from _submit_all(executor, tasks)


def _submit_all(pool: Executor, tasks: Sequence[GameTask]) -> Iterator[GameResult]:
    futures: list[Future[GameResult]] = [pool.submit(play_game, t) for t in tasks]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        for future in futures:
            future.cancel()
