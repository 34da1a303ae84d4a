"""Playing and storing a lab run: its batches go down the lab's pipeline, and the store keeps them.

The batches are played by :mod:`cardtable.lab.pipeline` (in this process, in local worker
processes, or on a Ray cluster), and every game is fixed by its seed and its agents' RNG, so the
stored games are the same whichever executor played them (a test proves it for Ray). A batch is
written to the store as soon as it finishes, in one transaction: by the worker that played it
when the workers run on this machine and the store is a file or a server (so the process running
the study only counts), else by the study's process. An interruption (Ctrl-C, a crash) loses only
the batches in flight, and :func:`run_study` with ``config`` None plays the games still missing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from concurrent.futures import Executor

from .pipeline import PlayedSummary, Progress, completed, iter_batches, on_this_machine, process_pool, summary
from .storage import LabStore, RunInfo
from .study import Batch, StudyConfig, batch_size, batches, plan, play_batch

_WORKER_STORES: dict[tuple[int, str], LabStore] = {}
"""The store each worker process opened, by process id and URL (a forked child never reuses its parent's)."""


def store_batch(url: str, run_id: int, batch: Batch) -> tuple[PlayedSummary, ...]:
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
        if pool is not None and url is not None and on_this_machine(pool):
            # the workers store their own batches: this process only counts them
            for done_batch in completed(pool, store_batch, [(url, info.id, b) for b in work]):
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
