"""Playing a run's batches: in this process, in local worker processes, or on a Ray cluster.

Every executor gets the same batches and every game is fixed by its seed and its seats' RNGs, so
the stored games are the same whichever executor played them (a test proves it for Ray). A batch
is written to the store as soon as it finishes, in one transaction: by the worker that played it
when the workers run on this machine and the store is a file or a server (so the process running
the study only counts), else by the study's process. An interruption (Ctrl-C, a crash) loses only
the batches in flight, and :func:`run_study` with ``config`` None plays the games still missing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, NamedTuple

from .runner import process_pool
from .storage import LabStore, RunInfo
from .study import Batch, PlayedGame, StudyConfig, batch_size, batches, plan, play_batch


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


class GameSummary(NamedTuple):
    """What the progress display needs of a stored game: its index, first player, winners and seats.

    A named tuple: a worker sends one back per game it stored, and a tuple pickles in a fifth of a
    frozen dataclass's time.
    """

    index: int  # type: ignore[assignment]  # a field, shadowing tuple.index
    first_player: int | None
    winners: tuple[int, ...]
    players: int


def summary(game: PlayedGame) -> GameSummary:
    """A stored game's summary."""
    return GameSummary(game.index, game.facts.first_player, game.winners, game.players)


@dataclass(frozen=True)
class Progress:
    """How far a run is: games stored of the planned ones, and the batch just stored."""

    stored: int
    planned: int
    batch: tuple[GameSummary, ...]


_WORKER_STORES: dict[tuple[int, str], LabStore] = {}
"""The store each worker process opened, by process id and URL (a forked child never reuses its parent's)."""


def store_batch(url: str, run_id: int, batch: Batch) -> tuple[GameSummary, ...]:
    """Play a batch and store it from this (worker) process; only the games' summaries go back.

    The process that runs the study then only waits and counts: on a machine with as many cores as
    workers it would otherwise compete with them for the time it spends receiving and storing games.
    """
    games = play_batch(batch)
    key = (os.getpid(), url)
    lab = _WORKER_STORES.get(key)
    if lab is None:
        lab = _WORKER_STORES[key] = LabStore.open(url, migrate=False)  # the study's process has migrated it
    lab.save(run_id, games, finish=False)  # the study's process marks the run finished
    return tuple(summary(g) for g in games)


def _on_this_machine(executor: Executor) -> bool:
    """Whether the executor's workers run on this machine (local processes, a Ray instance started here)."""
    if isinstance(executor, ProcessPoolExecutor):
        return True
    return isinstance(executor, RayExecutor) and executor.local


def iter_batches(work: Sequence[Batch], executor: Executor | None) -> Iterator[list[PlayedGame]]:
    """Play ``work`` here (``executor`` None) or on ``executor``, yielding each batch's games as it finishes."""
    if executor is None:
        for batch in work:
            yield play_batch(batch)
        return
    yield from _completed(executor, [(play_batch, (b,)) for b in work])


def _completed(executor: Executor, calls: Sequence[tuple[Callable[..., Any], tuple[Any, ...]]]) -> Iterator[Any]:
    """Submit every ``(fn, args)`` call; yield their results as they finish (cancel the rest if stopped)."""
    futures: list[Future[Any]] = [executor.submit(fn, *args) for fn, args in calls]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        for future in futures:
            future.cancel()


def make_executor(jobs: int = 1, ray_address: str | None = None, use_ray: bool = False) -> Executor | None:
    """The executor for ``jobs`` workers: None (this process) for one local job, a process pool, or Ray."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if use_ray or ray_address:
        return RayExecutor(ray_address or None, jobs)
    return process_pool(jobs) if jobs > 1 else None


def run_study(lab: LabStore, name: str, config: StudyConfig | None = None, *, jobs: int = 1,
              executor: Executor | None = None, batch: int | None = None,
              on_progress: Callable[[Progress], None] | None = None) -> RunInfo:
    """Create the run ``name`` with ``config`` (or, with ``config`` None, resume it) and play its missing games.

    ``executor`` None plays in this process when ``jobs`` is 1, else in a pool of ``jobs`` processes.
    """
    info = lab.create(name, config) if config is not None else lab.adopt_codebook(lab.get(name))
    done = lab.stored_indexes(info.id)
    todo = [t for t in plan(info.config) if t.index not in done]
    stored = len(done)
    if not todo:
        return lab.get(name)
    workers = jobs if executor is None else max(jobs, getattr(executor, "workers", jobs))
    size = batch if batch is not None else batch_size(len(todo), workers)
    work = batches(info.config, todo, size)
    own = executor is None and jobs > 1
    pool = process_pool(jobs) if own else executor
    try:
        url = lab.shared_url
        if pool is not None and url is not None and _on_this_machine(pool):
            # the workers store their own batches: this process only counts them
            for done_batch in _completed(pool, [(store_batch, (url, info.id, b)) for b in work]):
                stored += len(done_batch)
                if on_progress is not None:
                    on_progress(Progress(stored, info.planned, done_batch))
            lab.finish_if_complete(info.id)
        else:
            for games in iter_batches(work, pool):
                lab.save(info.id, games)
                stored += len(games)
                if on_progress is not None:
                    on_progress(Progress(stored, info.planned, tuple(summary(g) for g in games)))
    finally:
        if own and pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    return lab.get(name)


def ensure_run(lab: LabStore, name: str, config: StudyConfig, *, jobs: int = 1, executor: Executor | None = None,
               batch: int | None = None, on_progress: Callable[[Progress], None] | None = None) -> RunInfo:
    """Play the run ``name`` with ``config``: create it, or finish it if it is stored with the same configuration.

    A stored run of that name with another configuration is an error (so a study never mixes games).
    """
    found = lab.find(name)
    if found is not None and _canonical(found.config) != _canonical(config):
        raise ValueError(f"a lab run named {name!r} is stored with another configuration; choose another --name")
    return run_study(lab, name, None if found is not None else config, jobs=jobs, executor=executor, batch=batch,
                     on_progress=on_progress)


def _canonical(config: StudyConfig) -> str:
    return json.dumps(config.to_json(), sort_keys=True)
