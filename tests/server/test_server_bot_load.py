"""Bots under load: 12 rooms of a person against a bot, all at once, with one bot worker, so that bot moves
queue. Every game ends, every room whose bot waited was told how many moves were queued ahead of it,
no agent failed, and every bot move in every record is the move its agent makes at that position
(so none was ever a random move played in its place)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_support import settings_for

from cardtable.core import Record
from cardtable.server.bench import LoopbackServer
from cardtable.table import Table

pytestmark = pytest.mark.slow

ROOMS = 12
SPEC = "ismcts:iterations=20"


async def person(ws_url: str, room: str, token: str, seed: int) -> dict[str, Any]:
    """Play random legal moves to the end; what the socket was told about the bot's queue."""
    import random

    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    most_ahead = 0
    async with connect(f"{ws_url}/api/rooms/{room}/ws") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if message["type"] == "bot":
                most_ahead = max(most_ahead, message["ahead"])
            elif message["type"] == "error":
                raise AssertionError(message)
            elif message["type"] == "state":
                if message["outcome"] is not None:
                    return {"most_ahead": most_ahead}
                if message["legal"]:
                    await ws.send(json.dumps({"type": "action", "version": message["version"],
                                              "action": message["legal"][rng.randrange(len(message["legal"]))]}))


async def load(base: str, ws_url: str) -> tuple[list[str], list[dict[str, Any]], dict[str, Any]]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        rooms, tokens = [], []
        for _ in range(ROOMS):
            made = await client.post("/api/rooms", json={"game": "zeta", "seats": [
                {"kind": "open"}, {"kind": "bot", "spec": SPEC}]})
            room = made.json()["room"]["id"]
            tokens.append((await client.post(f"/api/rooms/{room}/join", json={"name": "P"})).json()["token"])
            rooms.append(room)
        seen = await asyncio.gather(*(person(ws_url, r, t, i) for i, (r, t) in enumerate(zip(rooms, tokens, strict=True))))
        records = [(await client.get(f"/api/rooms/{r}/records/1")).json() for r in rooms]
        health = (await client.get("/api/health")).json()
    return records, list(seen), health


def test_many_bot_rooms_queue_fairly_and_never_play_at_random(tmp_path: Path) -> None:
    settings = settings_for(f"sqlite:///{tmp_path / 'bots.db'}", bot_workers=1)
    with LoopbackServer(settings) as server:
        records, seen, health = asyncio.run(load(server.url, server.ws_url))
    assert health["bots"]["failures"] == 0 and health["bots"]["queued"] == 0
    assert health["bots"]["peak_queued"] > 1  # the moves did queue
    assert any(s["most_ahead"] > 0 for s in seen)  # and the rooms were told
    for data in records:
        record = Record.from_json(data)
        table = Table.create("zeta", ["human", SPEC], seed=record.seed, setup=record.setup, rules=record.rules)
        for action in record.actions:
            seat = table.current_seat
            assert seat is not None
            if seat == 1:  # the bot's move is exactly its agent's (Table.think), never a random stand-in
                assert table.think(table.state.clone()).action == action
            table.play(seat, action, table.version)
        assert table.is_over
