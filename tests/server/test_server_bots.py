"""Bots: the same decisions as ``Table.think``, a budget of search iterations (never wall-clock time), no
random move ever, one fair queue across rooms that tells each room where its move stands, and a process
pool that never blocks the event loop."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from cardtable.agents import ISMCTSAgent
from cardtable.core import load_game
from cardtable.server import bots
from cardtable.server.bots import BotFailed, BotJob, BotPhase, BotRunner, BotStatus, think_move
from cardtable.table import Table


def started(game: str = "zeta", spec: str = "random", **setup: Any) -> Table:
    table = Table.create(game, ["human", spec], seed=21, setup=setup)
    if table.current_seat == 0:
        table.play(0, table.legal(0)[0], table.version)
    return table


@pytest.mark.parametrize("spec", ["random", "heuristic", "ismcts:iterations=30", "normal"])
def test_a_bot_decides_as_the_table_would(spec: str) -> None:
    table = started(spec=spec)
    expected = table.think(table.state.clone())
    got = think_move(BotJob("zeta", {}, spec, table.state.clone(), 5000))
    assert got == expected
    from_json = think_move(BotJob("zeta", {}, spec, table.state.to_json(), 5000))  # as a worker process gets it
    assert from_json == expected


def test_a_bots_budget_is_iterations_never_seconds() -> None:
    game = load_game("zeta")
    capped = bots.budgeted_agent(game, "ismcts:iterations=1000000", 500)
    assert isinstance(capped, ISMCTSAgent) and capped.config.iterations == 500 and capped.config.seconds is None
    timed = bots.budgeted_agent(game, "ismcts:seconds=30", 500)  # a wall-clock spec gets the cap in iterations
    assert isinstance(timed, ISMCTSAgent) and timed.config.iterations == 500 and timed.config.seconds is None
    both = bots.budgeted_agent(game, "ismcts:iterations=40,seconds=0.001", 500)
    assert isinstance(both, ISMCTSAgent) and both.config.iterations == 40 and both.config.seconds is None
    hard = bots.budgeted_agent(game, "hard", 5000)
    assert isinstance(hard, ISMCTSAgent) and hard.config.iterations == 1000


def test_the_same_position_gets_the_same_move_however_busy_the_machine() -> None:
    table = started(spec="ismcts:iterations=200")
    quiet = think_move(BotJob("zeta", {}, "ismcts:iterations=200", table.state.clone(), 5000))
    stop = threading.Event()

    def burn() -> None:
        while not stop.is_set():
            sum(i * i for i in range(10_000))

    burners = [threading.Thread(target=burn) for _ in range(3)]
    for b in burners:
        b.start()
    try:
        busy = think_move(BotJob("zeta", {}, "ismcts:iterations=200", table.state.clone(), 5000))
    finally:
        stop.set()
        for b in burners:
            b.join()
    assert busy == quiet  # a budget of iterations: slower when busy, never weaker


def test_a_failing_agent_is_never_replaced_by_a_random_move(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(job: BotJob) -> Any:
        raise RuntimeError("agent bug")

    monkeypatch.setattr(bots, "think_move", broken)
    table = started()
    runner = BotRunner(workers=1, kind="thread")
    with pytest.raises(BotFailed):
        asyncio.run(runner.decide("r", "zeta", {}, "random", table.state.clone()))
    assert runner.failures == 1 and runner.decisions == 0
    runner.close()


def test_a_slow_decision_is_waited_for_and_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    real = bots.think_move

    def slow(job: BotJob) -> Any:
        time.sleep(1.5)
        return real(job)

    monkeypatch.setattr(bots, "think_move", slow)
    table = started(spec="ismcts:iterations=20")
    runner = BotRunner(workers=1, kind="thread")
    decision = asyncio.run(runner.decide("r", "zeta", {}, "ismcts:iterations=20", table.state.clone()))
    assert decision == table.think(table.state.clone())
    runner.close()


def test_the_queue_is_first_come_first_served_and_tells_each_room_its_place(monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()
    real = bots.think_move

    def held(job: BotJob) -> Any:
        gate.wait(10)
        return real(job)

    monkeypatch.setattr(bots, "think_move", held)
    table = started()
    heard: dict[str, list[BotStatus]] = {}
    order: list[str] = []

    async def main() -> None:
        runner = BotRunner(workers=1, kind="thread")

        async def room(name: str) -> None:
            heard[name] = []
            await runner.decide(name, "zeta", {}, "random", table.state.clone(), heard[name].append)
            order.append(name)

        tasks = []
        for name in ("a", "b", "c", "d"):
            tasks.append(asyncio.ensure_future(room(name)))
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        assert runner.running == 1 and runner.queued == 3
        gate.set()
        await asyncio.gather(*tasks)
        runner.close()

    asyncio.run(main())
    assert order == ["a", "b", "c", "d"]
    assert heard["a"][0].phase is BotPhase.THINKING
    d = heard["d"]
    assert d[0] == BotStatus(d[0].seat, BotPhase.QUEUED, 2, 3)  # two moves queued ahead of it
    assert [s.ahead for s in d if s.phase is BotPhase.QUEUED] == [2, 1, 0]
    assert d[-1].phase is BotPhase.THINKING


def test_a_cancelled_wait_gives_its_place_up(monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()
    real = bots.think_move
    monkeypatch.setattr(bots, "think_move", lambda job: (gate.wait(10), real(job))[1])
    table = started()

    async def main() -> int:
        runner = BotRunner(workers=1, kind="thread")
        first = asyncio.ensure_future(runner.decide("a", "zeta", {}, "random", table.state.clone()))
        await asyncio.sleep(0.01)
        second = asyncio.ensure_future(runner.decide("b", "zeta", {}, "random", table.state.clone()))
        await asyncio.sleep(0.01)
        second.cancel()
        await asyncio.sleep(0.01)
        left = runner.queued
        gate.set()
        await first
        runner.close()
        return left

    assert asyncio.run(main()) == 0


def test_bots_think_in_worker_processes_while_the_loop_runs() -> None:
    table = started("utahime", "ismcts:iterations=200")

    async def main() -> tuple[Any, int]:
        runner = BotRunner(workers=1, kind="process")
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        ticker = asyncio.ensure_future(tick())
        try:
            decision = await runner.decide("r", "utahime", {}, "ismcts:iterations=200", table.state.clone())
        finally:
            ticker.cancel()
            runner.close()
        return decision, ticks

    decision, ticks = asyncio.run(main())
    assert decision == table.think(table.state.clone())
    assert ticks > 10  # the event loop kept running while the worker searched


def test_bad_runner_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        BotRunner(max_iterations=0)
    with pytest.raises(ValueError):
        BotRunner(workers=0)
    with pytest.raises(ValueError):
        BotRunner(kind="cloud")


def test_a_room_is_told_its_bots_place_in_the_queue_and_a_new_socket_hears_it_too(
        sqlite_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from server_support import make_room, new_app, open_socket, running

    gate = threading.Event()
    real = bots.think_move
    monkeypatch.setattr(bots, "think_move", lambda job: (gate.wait(10), real(job))[1])

    async def main() -> None:
        app = new_app(sqlite_db, bot_workers=1)
        async with running(app) as client:
            rooms = [(await make_room(client, "zeta", [{"kind": "bot", "spec": "random"}] * 2))["room"]["id"]
                     for _ in range(3)]
            await asyncio.sleep(0.1)
            ws, _, state = await open_socket(app, rooms[2])  # the third room's bot waits behind two moves
            told = await ws.receive()
            assert told["type"] == "bot" and told["phase"] == "queued" and told["ahead"] == 1, told
            assert told["seat"] == state["to_move"] and told["queued"] == 2
            gate.set()
            while True:  # its turn comes: thinking, then the move's state
                message = await ws.receive()
                if message["type"] == "state":
                    assert message["version"] == 1
                    break
                assert message["type"] == "bot"
            await ws.close()

    asyncio.run(main())
