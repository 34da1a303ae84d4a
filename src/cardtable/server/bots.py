"""Bots: agent decisions computed off the event loop, in a process pool (or a thread pool), each move
within a time budget.

A bot decides exactly as :meth:`cardtable.table.Table.think` does (the seat's agent, from the seat's
view only, with :func:`cardtable.table.agent_rng` of the game's seed, the seat and the version), from a
snapshot of the state; the server then plays the decision through the table like any client's action,
so a decision made at a version the game has left is refused as stale. The server caps every search:
an ISMCTS agent gets a wall-clock budget of at most ``seconds_cap`` per move (on top of its
iterations), and a worker that does not answer in time is replaced by a random legal move.

>>> runner = BotRunner(seconds_cap=0.5, workers=1, kind="thread")
>>> from cardtable.core import load_game
>>> state = load_game("zeta").new_game(seed=3)
>>> decision = think_move(BotJob("zeta", {}, "random", state, 0.5))
>>> decision.version, decision.seat == state.current_player
(0, True)
>>> runner.close()
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Any, Literal

from cardtable.agents import Agent, ISMCTSAgent, decide, make_agent
from cardtable.core import Game, State, load_game
from cardtable.table import Decision, agent_rng

log = logging.getLogger(__name__)

ExecutorKind = Literal["process", "thread"]

GRACE_SECONDS = 5.0
"""How much longer than its cap a decision may take before the server plays a random move instead."""


@dataclass(frozen=True)
class BotJob:
    """One decision to make: the game and rules, the seat's agent spec, the state (or its JSON), the cap."""

    game: str
    rules: dict[str, Any]
    spec: str
    state: State | dict[str, Any]
    seconds_cap: float


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


def _agent(game: Game[Any], spec: str, cap: float) -> Agent:
    """The agent of ``spec`` under the server's cap (agents keep nothing between decisions that matters)."""
    agent = make_agent(spec, game)
    if isinstance(agent, ISMCTSAgent) and (agent.config.seconds is None or agent.config.seconds > cap):
        agent.config = replace(agent.config, seconds=cap)
    return agent


def think_move(job: BotJob) -> Decision:
    """The agent's decision for the seat to move in ``job.state`` (the same procedure as ``Table.think``)."""
    rules_key = json.dumps(job.rules, sort_keys=True)
    game: Game[Any] = _cached(("game", job.game, rules_key), lambda: load_game(job.game, **job.rules))
    agent: Agent = _cached(("agent", job.game, rules_key, job.spec, repr(job.seconds_cap)),
                           lambda: _agent(game, job.spec, job.seconds_cap))
    state = job.state if isinstance(job.state, State) else game.from_json(job.state)
    seat = state.current_player
    if seat is None:
        raise ValueError("the game is over; nobody decides")
    action = decide(agent, state, agent_rng(state.seed, seat, len(state.history)))
    return Decision(seat, len(state.history), str(action))


def fallback_move(state: State) -> Decision:
    """A random legal move for the seat to move (when its agent failed or ran out of time)."""
    seat = state.current_player
    if seat is None:
        raise ValueError("the game is over; nobody decides")
    legal = state.legal_actions()
    rng = agent_rng(state.seed, seat, len(state.history))
    return Decision(seat, len(state.history), str(legal[rng.randrange(len(legal))]))


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


class BotRunner:
    """Where bot decisions are computed: a pool of ``workers`` processes or threads."""

    def __init__(self, *, seconds_cap: float = 2.0, workers: int = 2, kind: ExecutorKind = "process") -> None:
        if seconds_cap <= 0:
            raise ValueError(f"the bot time cap must be positive, got {seconds_cap}")
        if workers < 1:
            raise ValueError(f"at least one bot worker is needed, got {workers}")
        self.seconds_cap = seconds_cap
        self.workers = workers
        self.kind = kind
        self._executor: concurrent.futures.Executor | None = None
        self._lock = threading.Lock()

    def _pool(self) -> concurrent.futures.Executor:
        with self._lock:
            if self._executor is None:
                if self.kind == "process":
                    self._executor = concurrent.futures.ProcessPoolExecutor(
                        self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=warm_up,
                        initargs=(os.getpid(),))
                else:
                    self._executor = concurrent.futures.ThreadPoolExecutor(self.workers, thread_name_prefix="cardtable-bot")
            return self._executor

    def start(self) -> None:
        """Start the worker processes now (each loads the engines), not at the first bot's move."""
        if self.kind == "process":
            pool = self._pool()
            for _ in range(self.workers):
                pool.submit(os.getpid)

    async def decide(self, game: str, rules: dict[str, Any], spec: str, snapshot: State) -> Decision:
        """The decision of ``spec`` for the seat to move in ``snapshot`` (a clone the caller gives away).

        Never raises for an agent's failure or slowness: it logs and returns a random legal move.
        """
        try:
            state: State | dict[str, Any] = snapshot.clone() if self.kind == "thread" else snapshot.to_json()
            future = self._pool().submit(think_move, BotJob(game, rules, spec, state, self.seconds_cap))
            return await asyncio.wait_for(asyncio.wrap_future(future), self.seconds_cap + GRACE_SECONDS)
        except asyncio.CancelledError:
            raise
        except BrokenProcessPool:
            log.error("the bot process pool broke; starting a new one")
            with self._lock:
                self._executor = None
        except TimeoutError:
            log.warning("bot %s took more than %.1f s; playing a random move", spec, self.seconds_cap + GRACE_SECONDS)
        except Exception:
            log.exception("bot %s failed; playing a random move", spec)
        return fallback_move(snapshot)

    def close(self) -> None:
        """Stop the workers (waiting for a decision under way, at most the time cap)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
