"""The lab's one game pipeline: batches of planned games, played here or on any executor.

The arena (:mod:`cardtable.lab.arena`) and a lab run (:mod:`cardtable.lab.execute`) both plan
their games as :class:`~cardtable.lab.study.GameTask` values, cut them into batches
(:class:`~cardtable.lab.study.Batch`) and hand them to :func:`iter_batches`, which plays them with
:func:`~cardtable.lab.study.play_batch` in this process, in a pool of local worker processes, on a
Ray cluster or on any ``concurrent.futures.Executor`` a caller brings, yielding each batch's
:class:`~cardtable.lab.study.PlayedGame` values as it finishes. Every game is fixed by its seed and
its agents' RNGs, so the games are the same whichever executor played them. A
:class:`PlayedSummary` is what a front end's progress display needs of a finished game.

>>> from cardtable.lab.study import Batch, StudyConfig, plan
>>> config = StudyConfig("zeta", ("random",), games=2, seed=1)
>>> games = [g for batch in iter_batches([Batch(config, (t,)) for t in plan(config)], None) for g in batch]
>>> [(s.index, s.players) for s in map(summary, games)]
[(0, 2), (1, 2)]
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from .study import Batch, PlayedGame, play_batch

_T = TypeVar("_T")


class PlayedSummary(NamedTuple):
    """What a progress display needs of a finished game: its index, rotation, first player, winners and seats.

    A named tuple: a worker that stores its own games sends one back per game, and a tuple pickles
    in a fifth of a frozen dataclass's time.
    """

    index: int  # type: ignore[assignment]  # a field, shadowing tuple.index
    rotation: int
    first_player: int | None
    winners: tuple[int, ...]
    players: int


def summary(game: PlayedGame) -> PlayedSummary:
    """A finished game's summary."""
    return PlayedSummary(game.index, game.rotation, game.facts.first_player, game.winners, game.players)


@dataclass(frozen=True)
class Progress:
    """How far a run is: games finished of the planned ones, and the batch just finished."""

    stored: int
    planned: int
    batch: tuple[PlayedSummary, ...]


class RayExecutor(Executor):
    """A ``concurrent.futures`` executor whose tasks run as Ray tasks (one CPU each).

    ``address`` None starts a local Ray instance with ``workers`` CPUs; otherwise it joins the
    cluster at ``address`` (``auto`` or ``ray://host:10001``), whose nodes need cardtable installed.
    """

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        try:
            import ray
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ValueError("Ray is not installed: pip install -e '.[ray]'") from exc
        self._ray = ray
        self._started = not ray.is_initialized()
        if self._started:
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                      "configure_logging": False}
            if address:
                ray.init(address=address, **kwargs)
            else:
                ray.init(num_cpus=workers or os.cpu_count() or 1, **kwargs)
        self._remote: dict[Callable[..., Any], Any] = {}
        self.local = self._started and not address
        """True when this executor started the Ray instance on this machine (its workers run here)."""

    @property
    def workers(self) -> int:
        """CPUs the cluster offers."""
        return int(self._ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Run ``fn(*args, **kwargs)`` as a Ray task; its result comes back through a Future."""
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(num_cpus=1, max_retries=0)(fn)
        future: Future[Any] = remote.remote(*args, **kwargs).future()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the local Ray instance this executor started (a joined cluster keeps running)."""
        if self._started and self._ray.is_initialized():
            self._ray.shutdown()


def process_pool(jobs: int) -> Executor:
    """A pool of ``jobs`` worker processes (forked where possible, so run-time registrations carry over)."""
    methods = multiprocessing.get_all_start_methods()
    # fork keeps games and heuristics registered at run time (tests, plug-ins) visible in the workers
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    return ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)


def make_executor(jobs: int = 1, ray_address: str | None = None, use_ray: bool = False) -> Executor | None:
    """The executor for ``jobs`` workers: None (this process) for one local job, a process pool, or Ray."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if use_ray or ray_address:
        return RayExecutor(ray_address or None, jobs)
    return process_pool(jobs) if jobs > 1 else None


def on_this_machine(executor: Executor) -> bool:
    """Whether the executor's workers run on this machine (local processes, a Ray instance started here)."""
    if isinstance(executor, ProcessPoolExecutor):
        return True
    return isinstance(executor, RayExecutor) and executor.local


def completed(executor: Executor, fn: Callable[..., _T], calls: Sequence[tuple[Any, ...]]) -> Iterator[_T]:
    """Submit ``fn(*args)`` for every ``args`` of ``calls``; yield the results as they finish.

    Stopping early (an exception, a closed generator, Ctrl-C) cancels the calls not yet started.
    """
    futures: list[Future[_T]] = [executor.submit(fn, *args) for args in calls]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        for future in futures:
            future.cancel()


def iter_batches(work: Sequence[Batch], executor: Executor | None) -> Iterator[list[PlayedGame]]:
    """Play ``work`` here (``executor`` None) or on ``executor``, yielding each batch's games as it finishes."""
    if executor is None:
        for batch in work:
            yield play_batch(batch)
        return
    yield from completed(executor, play_batch, [(b,) for b in work])


__all__ = ["PlayedSummary", "Progress", "RayExecutor", "completed", "iter_batches", "make_executor", "on_this_machine",
           "process_pool", "summary"]
