"""Bots: the same decisions as ``Table.think``, a time cap on every search, a random legal move when an
agent fails or is too slow, and a process pool that never blocks the event loop."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from cardtable.agents import ISMCTSAgent
from cardtable.core import load_game
from cardtable.server import bots
from cardtable.server.bots import BotJob, BotRunner, think_move
from cardtable.table import Table


def started(game: str = "zeta", spec: str = "random", **setup: Any) -> Table:
    table = Table.create(game, ["human", spec], seed=21, setup=setup)
    if table.current_seat == 0:
        table.play(0, table.legal(0)[0], table.version)
    return table


@pytest.mark.parametrize("spec", ["random", "heuristic", "ismcts:iterations=30"])
def test_a_bot_decides_as_the_table_would(spec: str) -> None:
    table = started(spec=spec)
    expected = table.think(table.state.clone())
    got = think_move(BotJob("zeta", {}, spec, table.state.clone(), 30.0))
    assert got == expected
    from_json = think_move(BotJob("zeta", {}, spec, table.state.to_json(), 30.0))  # as a worker process gets it
    assert from_json == expected


def test_every_search_is_capped_in_time() -> None:
    table = started(spec="ismcts:iterations=1000000")
    start = time.perf_counter()
    decision = think_move(BotJob("zeta", {}, "ismcts:iterations=1000000", table.state.clone(), 0.2))
    assert time.perf_counter() - start < 5.0
    assert decision.action in table.legal(decision.seat)
    agent = bots._agent(load_game("zeta"), "ismcts:seconds=30", 0.5)
    assert isinstance(agent, ISMCTSAgent) and agent.config.seconds == 0.5
    quick = bots._agent(load_game("zeta"), "ismcts:seconds=0.1", 0.5)
    assert isinstance(quick, ISMCTSAgent) and quick.config.seconds == 0.1


def test_a_failing_agent_is_replaced_by_a_random_legal_move(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(job: BotJob) -> Any:
        raise RuntimeError("agent bug")

    monkeypatch.setattr(bots, "think_move", broken)
    table = started()
    runner = BotRunner(seconds_cap=0.5, workers=1, kind="thread")
    decision = asyncio.run(runner.decide("zeta", {}, "random", table.state.clone()))
    assert decision.version == table.version and decision.action in table.legal(decision.seat)
    runner.close()


def test_a_slow_agent_is_replaced_by_a_random_legal_move(monkeypatch: pytest.MonkeyPatch) -> None:
    def slow(job: BotJob) -> Any:
        time.sleep(3)
        raise AssertionError("too late to matter")

    monkeypatch.setattr(bots, "think_move", slow)
    monkeypatch.setattr(bots, "GRACE_SECONDS", 0.2)
    table = started()
    runner = BotRunner(seconds_cap=0.1, workers=1, kind="thread")
    start = time.perf_counter()
    decision = asyncio.run(runner.decide("zeta", {}, "random", table.state.clone()))
    assert time.perf_counter() - start < 2.0
    assert decision.action in table.legal(decision.seat)
    runner.close()


def test_bots_think_in_worker_processes_while_the_loop_runs() -> None:
    table = started("utahime", "ismcts:iterations=200")

    async def main() -> tuple[Any, int]:
        runner = BotRunner(seconds_cap=5.0, workers=1, kind="process")
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        ticker = asyncio.ensure_future(tick())
        try:
            decision = await runner.decide("utahime", {}, "ismcts:iterations=200", table.state.clone())
        finally:
            ticker.cancel()
            runner.close()
        return decision, ticks

    decision, ticks = asyncio.run(main())
    assert decision == table.think(table.state.clone())
    assert ticks > 10  # the event loop kept running while the worker searched


def test_bad_runner_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        BotRunner(seconds_cap=0)
    with pytest.raises(ValueError):
        BotRunner(workers=0)
