"""Restart: a real ``cardtable serve`` process killed with SIGKILL in the middle of games, twice, and started
again on the same database: every room resumes at its last acknowledged action, the tokens still
hold their seats, the bots move on, and every game finishes with a record that replays to its outcome."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_support import SeatPlayer, ServerProcess

from cardtable.core import Record, replay

ROOMS: list[tuple[str, dict[str, Any], list[dict[str, Any]]]] = [
    ("zeta", {}, [{"kind": "open"}, {"kind": "open"}]),
    ("zeta", {}, [{"kind": "open"}, {"kind": "bot", "spec": "random"}]),
    ("oscilloscope", {"players": 3}, [{"kind": "open"}, {"kind": "bot", "spec": "heuristic"}, {"kind": "open"}]),
    ("utahime", {}, [{"kind": "open"}, {"kind": "bot", "spec": "random"}]),
    ("utahime", {}, [{"kind": "open"}, {"kind": "open"}]),
    ("oscilloscope", {"players": 2}, [{"kind": "bot", "spec": "random"}, {"kind": "bot", "spec": "random"}]),
]


async def set_up(server: ServerProcess) -> list[dict[str, Any]]:
    rooms = []
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        for game, setup, seats in ROOMS:
            made = (await client.post("/api/rooms", json={"game": game, "setup": setup, "seats": seats})).json()
            room_id = made["room"]["id"]
            tokens = {}
            for i, seat in enumerate(seats):
                if seat["kind"] == "open":
                    joined = await client.post(f"/api/rooms/{room_id}/join", json={"name": f"P{i}", "seat": i})
                    tokens[i] = joined.json()["token"]
            rooms.append({"id": room_id, "tokens": tokens, "acked": {}})
    return rooms


async def play_a_while(server: ServerProcess, rooms: list[dict[str, Any]], moves: int, seed: int) -> None:
    """Every person makes up to ``moves`` moves; what the server acknowledged is remembered per room."""
    players = []
    for room in rooms:
        for seat, token in room["tokens"].items():
            players.append((room, SeatPlayer(server.ws_url, room["id"], token, f"{seed}:{room['id']}:{seat}")))
    await asyncio.gather(*(p.play(stop_after=moves, timeout=30) for _, p in players))
    for room, player in players:
        room["acked"].update(player.accepted)


async def kill_midway(server: ServerProcess, rooms: list[dict[str, Any]], seed: int) -> None:
    """Play, and SIGKILL the server while the sockets are busy."""
    rng = random.Random(seed)
    task = asyncio.ensure_future(play_a_while(server, rooms, 10_000, seed))
    await asyncio.sleep(rng.uniform(1.0, 2.5))
    assert len(server.processes()) >= 2, "the server and its bot worker"
    await asyncio.to_thread(server.kill)
    await asyncio.wait_for(task, 60)
    for _ in range(50):  # its bot workers notice and exit too
        if not server.processes():
            break
        await asyncio.sleep(0.2)
    assert server.processes() == []


async def check_resumed(server: ServerProcess, rooms: list[dict[str, Any]]) -> None:
    """Each room is at least at its last acknowledged action, and holds every acknowledged action."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        for room in rooms:
            info = (await client.get(f"/api/rooms/{room['id']}")).json()
            last = max(room["acked"], default=0)
            assert info["version"] >= last, (room["id"], info["version"], last)
            for seat, token in room["tokens"].items():
                me = await client.get(f"/api/rooms/{room['id']}/me", headers={"Authorization": f"Bearer {token}"})
                assert me.status_code == 200 and me.json()["seat"] == seat  # tokens survive a restart


async def finish(server: ServerProcess, rooms: list[dict[str, Any]]) -> None:
    players = []
    for room in rooms:
        room["players"] = []
        for seat, token in room["tokens"].items():
            player = SeatPlayer(server.ws_url, room["id"], token, f"finish:{room['id']}:{seat}")
            room["players"].append(player)
            players.append(player)
    await asyncio.gather(*(p.play(timeout=60) for p in players))
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        for room in rooms:
            for player in room["players"]:
                room["acked"].update(player.accepted)
            for _ in range(600):  # the all-bot room plays on by itself
                info = (await client.get(f"/api/rooms/{room['id']}")).json()
                if info["status"] == "finished":
                    break
                await asyncio.sleep(0.1)
            assert info["status"] == "finished", info
            record = Record.from_json((await client.get(f"/api/rooms/{room['id']}/records/1")).json())
            state = replay(record)  # the record replays to its own outcome
            outcome = state.outcome()
            assert outcome is not None
            for version, action in room["acked"].items():  # every acknowledged action is in it, once, in place
                assert record.actions[version - 1] == action
            for player in room["players"]:
                assert player.outcome is not None and player.outcome["winners"] == list(outcome.winners)
                assert player.final_version == len(record.actions)


def restart_scenario(db: str, log: Path) -> None:
    async def main() -> None:
        server = ServerProcess(db, log=log).start()
        try:
            rooms = await set_up(server)
            for round_ in range(2):
                await kill_midway(server, rooms, seed=round_)
                assert any(room["acked"] for room in rooms), "nothing was played before the kill"
                server = ServerProcess(db, port=server.port, log=log).start()
                await check_resumed(server, rooms)
            await finish(server, rooms)
        finally:
            server.stop()

    asyncio.run(main())


def test_a_killed_server_resumes_every_room_sqlite(tmp_path: Path) -> None:
    restart_scenario(f"sqlite:///{tmp_path / 'rooms.db'}", tmp_path / "server.log")


@pytest.mark.postgres
def test_a_killed_server_resumes_every_room_postgres(pg_db: str, tmp_path: Path) -> None:
    restart_scenario(pg_db, tmp_path / "server.log")
