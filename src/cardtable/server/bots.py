"""Bots: agent decisions computed off the event loop, each within a budget of search iterations, through one
fair queue per server process, on local worker processes or a Ray cluster.

A bot decides exactly as :meth:`cardtable.table.Table.think` does (the seat's agent, from the seat's
view only, with :func:`cardtable.table.agent_rng` of the game's seed, the seat and the version), from a
snapshot of the state; the server then plays the decision through the table like any client's action,
so a decision made at a version the game has left is refused as stale.

**A budget it keeps.** A bot's budget is a number of search iterations (its spec's, capped by the
server's ``max_iterations``), never wall-clock time: a busy machine makes a bot slower, never weaker,
and never makes it play at random. An ISMCTS spec's ``seconds`` option is ignored on the server.

**A fair queue.** Every decision waits in one first-come queue; a room has at most one decision
queued or under way at a time (its bot loop waits for it), so rooms take turns. ``capacity``
decisions run at once: the local workers, or the CPUs a Ray cluster offers (re-read as nodes join or
leave). While a decision waits, the room is told how many moves are queued ahead of it
(:class:`BotStatus`, sent to its sockets as a ``bot`` message).

>>> from cardtable.core import load_game
>>> state = load_game("zeta").new_game(seed=3)
>>> decision = think_move(BotJob("zeta", {}, "random", state, 500))
>>> decision.version, decision.seat == state.current_player
(0, True)
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import json
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from cardtable.agents import Agent, ISMCTSAgent, decide, make_agent
from cardtable.core import Game, State, load_game
from cardtable.table import Decision, agent_rng

log = logging.getLogger(__name__)


class ExecutorKind(Enum):
    """Where bot decisions are computed."""

    PROCESS = "process"
    """A pool of local worker processes (the default)."""
    THREAD = "thread"
    """Threads of the server process (tests)."""
    RAY = "ray"
    """Ray tasks, on a local Ray instance or a cluster: each node that joins adds its CPUs."""


MAX_ITERATIONS = 5000
"""The most search iterations a bot may spend on one move (``hard`` spends 1,000)."""
BACKEND_RETRIES = 3
"""How often a decision is tried again when its worker died (a broken pool, a lost Ray node)."""


class BotFailed(Exception):
    """The agent itself failed on this position (a bug): the room's bot tries again later, never at random."""


@dataclass(frozen=True)
class BotJob:
    """One decision to make: the game and rules, the seat's agent spec, the state (or its JSON), the budget."""

    game: str
    rules: dict[str, Any]
    spec: str
    state: State | dict[str, Any]
    max_iterations: int


class BotPhase(Enum):
    """Where a room's bot decision stands."""

    QUEUED = "queued"
    """Waiting for a worker: ``ahead`` moves of other rooms are before it."""
    THINKING = "thinking"
    """A worker is searching."""
    RETRYING = "retrying"
    """The agent failed; it is tried again shortly."""


@dataclass(frozen=True)
class BotStatus:
    """What a room is told about its bot's move: the seat, the phase, the moves queued ahead of it and in all."""

    seat: int
    phase: BotPhase
    ahead: int
    queued: int


_local = threading.local()


def _cached(key: tuple[str, ...], build: Any) -> Any:
    cache: dict[tuple[str, ...], Any] | None = getattr(_local, "cache", None)
    if cache is None:
        cache = _local.cache = {}
    found = cache.get(key)
    if found is None:
        if len(cache) > 64:
            cache.clear()
        found = cache[key] = build()
    return found


def budgeted_agent(game: Game[Any], spec: str, max_iterations: int) -> Agent:
    """The agent of ``spec`` with an iteration budget only: its own iterations, at most ``max_iterations``
    (an ISMCTS spec's wall-clock ``seconds`` is dropped; one with seconds only gets ``max_iterations``)."""
    agent = make_agent(spec, game)
    if isinstance(agent, ISMCTSAgent):
        iterations = agent.config.iterations
        budget = max_iterations if iterations is None else min(iterations, max_iterations)
        if agent.config.seconds is not None or budget != iterations:
            agent.config = replace(agent.config, seconds=None, iterations=budget)
    return agent


def think_move(job: BotJob) -> Decision:
    """The agent's decision for the seat to move in ``job.state`` (the same procedure as ``Table.think``)."""
    rules_key = json.dumps(job.rules, sort_keys=True)
    game: Game[Any] = _cached(("game", job.game, rules_key), lambda: load_game(job.game, **job.rules))
    agent: Agent = _cached(("agent", job.game, rules_key, job.spec, str(job.max_iterations)),
                           lambda: budgeted_agent(game, job.spec, job.max_iterations))
    state = job.state if isinstance(job.state, State) else game.from_json(job.state)
    seat = state.current_player
    if seat is None:
        raise ValueError("the game is over; nobody decides")
    action = decide(agent, state, agent_rng(state.seed, seat, len(state.history)))
    return Decision(seat, len(state.history), str(action))


def warm_up(parent: int | None = None) -> None:
    """Load the registry and every game (in a new worker process, or a server before it serves).

    In a worker process, ``parent`` is the server's process id: the worker exits when the server is
    gone, even killed with SIGKILL (a pool's workers otherwise wait on their queue for ever).
    """
    import cardtable.agents  # noqa: F401
    from cardtable.core import game_names

    for name in game_names():
        load_game(name)
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent,), name="cardtable-parent-watch", daemon=True).start()


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


class RayBackend:
    """Bot decisions as Ray tasks (one CPU each) on the cluster at ``address`` (None: a local instance of
    ``workers`` CPUs started here; ``auto``: the cluster this machine belongs to)."""

    def __init__(self, address: str | None, workers: int) -> None:
        try:
            import ray
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ValueError("Ray is not installed: pip install 'cardtable[ray]'") from exc
        self._ray = ray
        self._started = not ray.is_initialized()
        if self._started:
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
            if address:
                ray.init(address=address, **kwargs)
            else:
                ray.init(num_cpus=workers, **kwargs)
        self._think = ray.remote(num_cpus=1, max_retries=BACKEND_RETRIES)(think_move)
        self._cpus = 1
        self._read_at = -1.0

    def capacity(self) -> int:
        """The CPUs the cluster offers now (read at most once a second)."""
        now = time.monotonic()
        if now - self._read_at > 1.0:
            self._read_at = now
            self._cpus = max(1, int(self._ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
        return self._cpus

    def submit(self, job: BotJob) -> concurrent.futures.Future[Decision]:
        """Run ``think_move(job)`` as a Ray task."""
        future: concurrent.futures.Future[Decision] = self._think.remote(job).future()
        return future

    def close(self) -> None:
        """Stop the local Ray instance if this backend started it (a joined cluster keeps running)."""
        if self._started and self._ray.is_initialized():
            self._ray.shutdown()


@dataclass
class _Waiting:
    room: str
    seat: int
    job: BotJob
    future: asyncio.Future[Decision]
    notify: Callable[[BotStatus], None]
    tries: int = 0


class BotRunner:
    """Where bot decisions are computed (local processes or threads, or Ray) and the fair queue in front."""

    def __init__(self, *, max_iterations: int = MAX_ITERATIONS, workers: int = 2,
                 kind: ExecutorKind | str = ExecutorKind.PROCESS, ray_address: str | None = None) -> None:
        if max_iterations < 1:
            raise ValueError(f"a bot's iteration budget must be at least 1, got {max_iterations}")
        if workers < 1:
            raise ValueError(f"at least one bot worker is needed, got {workers}")
        self.max_iterations = max_iterations
        self.workers = workers
        self.kind = ExecutorKind(kind)
        self.ray_address = ray_address
        self._executor: concurrent.futures.Executor | None = None
        self._ray: RayBackend | None = None
        self._lock = threading.Lock()
        self._waiting: collections.deque[_Waiting] = collections.deque()
        self._running = 0
        self.peak_running = 0
        """The most decisions that ran at once (a measure of the capacity used)."""
        self.decisions = 0
        """Decisions made since the runner started."""
        self.peak_queued = 0
        """The longest the queue has been."""
        self.failures = 0
        """Decisions whose agent failed (each tried again later; none was ever replaced by a random move)."""

    # -- backends -------------------------------------------------------------------------------------
    def _pool(self) -> concurrent.futures.Executor:
        with self._lock:
            if self._executor is None:
                if self.kind is ExecutorKind.PROCESS:
                    self._executor = concurrent.futures.ProcessPoolExecutor(
                        self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=warm_up,
                        initargs=(os.getpid(),))
                else:
                    self._executor = concurrent.futures.ThreadPoolExecutor(self.workers, thread_name_prefix="cardtable-bot")
            return self._executor

    def _ray_backend(self) -> RayBackend:
        with self._lock:
            if self._ray is None:
                self._ray = RayBackend(self.ray_address, self.workers)
            return self._ray

    def start(self) -> None:
        """Start the workers now (each loads the engines; Ray connects), not at the first bot's move."""
        if self.kind is ExecutorKind.PROCESS:
            pool = self._pool()
            for _ in range(self.workers):
                pool.submit(os.getpid)
        elif self.kind is ExecutorKind.RAY:
            self._ray_backend()

    @property
    def capacity(self) -> int:
        """How many decisions run at once: the local workers, or the CPUs of the Ray cluster now."""
        if self.kind is ExecutorKind.RAY:
            return self._ray_backend().capacity()
        return self.workers

    @property
    def queued(self) -> int:
        """Decisions waiting for a worker."""
        return len(self._waiting)

    @property
    def running(self) -> int:
        """Decisions being computed now."""
        return self._running

    def _submit(self, job: BotJob) -> concurrent.futures.Future[Decision]:
        if self.kind is ExecutorKind.RAY:
            return self._ray_backend().submit(job)
        return self._pool().submit(think_move, job)

    # -- the queue ------------------------------------------------------------------------------------
    async def decide(self, room: str, game: str, rules: dict[str, Any], spec: str, snapshot: State,
                     notify: Callable[[BotStatus], None] | None = None) -> Decision:
        """The decision of ``spec`` for the seat to move in ``snapshot`` (a clone the caller gives away), once
        its turn in the queue comes; ``notify`` hears where it stands. BotFailed if the agent failed."""
        seat = snapshot.current_player
        if seat is None:
            raise ValueError("the game is over; nobody decides")
        state: State | dict[str, Any] = snapshot if self.kind is ExecutorKind.THREAD else snapshot.to_json()
        waiting = _Waiting(room, seat, BotJob(game, rules, spec, state, self.max_iterations),
                           asyncio.get_running_loop().create_future(), notify or (lambda _status: None))
        self._waiting.append(waiting)
        self.peak_queued = max(self.peak_queued, len(self._waiting))
        self._pump()
        try:
            return await waiting.future
        finally:
            if waiting in self._waiting:  # cancelled while queued: give its place up
                self._waiting.remove(waiting)
                self._tell_queue()

    def _pump(self) -> None:
        """Start queued decisions while there is capacity, first come first served; tell every room waiting."""
        capacity = self.capacity
        while self._waiting and self._running < capacity:
            waiting = self._waiting.popleft()
            if waiting.future.done():
                continue
            self._start(waiting)
        self._tell_queue()

    def _start(self, waiting: _Waiting) -> None:
        self._running += 1
        self.peak_running = max(self.peak_running, self._running)
        waiting.notify(BotStatus(waiting.seat, BotPhase.THINKING, 0, len(self._waiting)))
        try:
            future = asyncio.wrap_future(self._submit(waiting.job))
        except Exception as exc:  # the pool cannot take work (shut down, broken)
            self._running -= 1
            self._finished(waiting, None, exc)
            return
        future.add_done_callback(lambda done: self._done(waiting, done))

    def _done(self, waiting: _Waiting, done: asyncio.Future[Decision]) -> None:
        self._running -= 1
        if done.cancelled():
            self._finished(waiting, None, asyncio.CancelledError())
        else:
            exc = done.exception()
            self._finished(waiting, None if exc is not None else done.result(), exc)
        self._pump()

    def _finished(self, waiting: _Waiting, decision: Decision | None, exc: BaseException | None) -> None:
        if waiting.future.done():
            return
        if exc is None and decision is not None:
            self.decisions += 1
            waiting.future.set_result(decision)
            return
        if isinstance(exc, BrokenProcessPool) or _lost_worker(exc):
            log.error("a bot worker died; starting new ones and trying the move again")
            with self._lock:
                self._executor = None
            if waiting.tries < BACKEND_RETRIES:
                waiting.tries += 1
                self._waiting.appendleft(waiting)  # it keeps its place at the front
                return
        self.failures += 1
        log.error("bot %s failed in room %s", waiting.job.spec, waiting.room, exc_info=exc)
        waiting.future.set_exception(BotFailed(f"the {waiting.job.spec} bot failed: {exc!r}"))

    def _tell_queue(self) -> None:
        total = len(self._waiting)
        for ahead, waiting in enumerate(self._waiting):
            waiting.notify(BotStatus(waiting.seat, BotPhase.QUEUED, ahead, total))

    def close(self) -> None:
        """Stop the workers (waiting for a decision under way)."""
        with self._lock:
            executor, self._executor = self._executor, None
            ray, self._ray = self._ray, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
        if ray is not None:
            ray.close()


def _lost_worker(exc: BaseException | None) -> bool:
    """True for a Ray error that means the worker or its node was lost (not the agent's own failure)."""
    name = type(exc).__name__ if exc is not None else ""
    return name in ("WorkerCrashedError", "NodeDiedError", "RaySystemError", "ActorDiedError")
