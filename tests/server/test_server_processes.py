"""Several server processes over one PostgreSQL database serve the same rooms: an action, a join or a
leave accepted by one process reaches the sockets connected to the other (LISTEN/NOTIFY)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_support import SeatPlayer, ServerProcess

from cardtable.core import Record, replay

pytestmark = pytest.mark.postgres


async def scenario(a: ServerProcess, b: ServerProcess) -> None:
    from websockets.asyncio.client import connect

    async with httpx.AsyncClient(timeout=30) as client:
        rooms = []
        for game, setup, seats in (("zeta", {}, 2), ("utahime", {}, 2), ("oscilloscope", {"players": 3}, 3)):
            made = await client.post(f"{a.url}/api/rooms", json={"game": game, "setup": setup,
                                                                  "seats": [{"kind": "open"}] * seats})
            room = made.json()["room"]["id"]
            tokens = [(await client.post(f"{(a, b)[i % 2].url}/api/rooms/{room}/join",
                                         json={"name": f"P{i}", "seat": i})).json()["token"] for i in range(seats)]
            rooms.append((room, tokens))
        players: list[tuple[str, SeatPlayer]] = []
        for room, tokens in rooms:
            for i, token in enumerate(tokens):  # even seats play on A, odd seats on B
                players.append((room, SeatPlayer((a, b)[i % 2].ws_url, room, token, f"{room}:{i}")))
            players.append((room, SeatPlayer(b.ws_url, room, None, f"{room}:watch")))  # a spectator on B
        await asyncio.gather(*(p.play(timeout=30) for _, p in players))
        assert all(p.outcome is not None for _, p in players), [p for _, p in players if p.outcome is None]
        for _, p in players:  # every socket, on either process, got a state for every accepted action
            missing = sorted(set(range(p.versions[0], p.final_version + 1)) - set(p.versions))
            assert missing == [], (p, missing)
            assert p.versions == sorted(p.versions)  # in order
        for room, _ in rooms:
            record = Record.from_json((await client.get(f"{b.url}/api/rooms/{room}/records/1")).json())
            outcome = replay(record).outcome()
            assert outcome is not None
            for owner, player in players:
                if owner == room:
                    assert player.outcome is not None and player.outcome["winners"] == list(outcome.winners)
                    assert player.final_version == len(record.actions)

        # a bot room made on A and watched from B plays itself out
        made = await client.post(f"{a.url}/api/rooms", json={"game": "zeta", "seats": [{"kind": "bot", "spec": "random"}] * 2})
        bot_room = made.json()["room"]["id"]
        watcher = SeatPlayer(b.ws_url, bot_room, None, "bots")
        await watcher.play(timeout=30, act=False)
        assert watcher.outcome is not None
        assert set(range(watcher.versions[0], watcher.final_version + 1)) <= set(watcher.versions)

        # a seat joined on A; its person leaves on B; A's socket of that seat is closed as revoked
        made = await client.post(f"{a.url}/api/rooms", json={"game": "zeta", "seats": [{"kind": "open"}] * 2})
        room = made.json()["room"]["id"]
        token = (await client.post(f"{a.url}/api/rooms/{room}/join", json={"name": "Leaver"})).json()["token"]
        async with connect(f"{a.ws_url}/api/rooms/{room}/ws") as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            assert json.loads(await ws.recv())["type"] == "state"
            await client.post(f"{b.url}/api/rooms/{room}/join", json={"name": "Joiner"})
            seen: list[dict[str, Any]] = []
            while not any(m["type"] == "room" and m["room"]["seats"][1]["status"] == "taken" for m in seen):
                seen.append(json.loads(await asyncio.wait_for(ws.recv(), 15)))
            left = await client.post(f"{b.url}/api/rooms/{room}/leave", headers={"Authorization": f"Bearer {token}"})
            assert left.status_code == 200
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 15))
                if message["type"] == "error":
                    assert message["code"] == "revoked"
                    break
            with pytest.raises(Exception, match="4409"):
                await asyncio.wait_for(ws.recv(), 15)


def test_two_processes_serve_the_same_rooms(pg_db: str, tmp_path: Path) -> None:
    a = ServerProcess(pg_db, log=tmp_path / "a.log").start()
    b = ServerProcess(pg_db, log=tmp_path / "b.log").start()
    try:
        asyncio.run(scenario(a, b))
    finally:
        a.stop()
        b.stop()
    for _ in range(50):  # a stopped server leaves no bot worker behind
        if not a.processes() and not b.processes():
            break
        time.sleep(0.2)
    assert a.processes() == [] and b.processes() == []
