"""Load: 50 rooms at once over loopback (a real uvicorn), each with two or more websocket clients making
random legal moves and, in most rooms, bots; every game to the end. No action is lost or duplicated:
every stored record replays to the outcome its clients saw, and holds each acknowledged action once,
at the version it was acknowledged at."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_support import SeatPlayer, settings_for

from cardtable.core import Record, replay
from cardtable.server.bench import LoopbackServer

KINDS: list[tuple[str, dict[str, Any], list[dict[str, Any]]]] = [
    ("zeta", {}, [{"kind": "open"}, {"kind": "open"}]),
    ("zeta", {}, [{"kind": "open"}, {"kind": "bot", "spec": "ismcts:iterations=20"}]),
    ("oscilloscope", {"players": 3}, [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "spec": "random"}]),
    ("oscilloscope", {"players": 4}, [{"kind": "open"}, {"kind": "bot", "spec": "heuristic"},
                                      {"kind": "open"}, {"kind": "bot", "spec": "random"}]),
    ("utahime", {}, [{"kind": "open"}, {"kind": "open"}]),
]


async def load(base: str, ws_url: str, rooms: int) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        made = []
        for i in range(rooms):
            game, setup, seats = KINDS[i % len(KINDS)]
            room = (await client.post("/api/rooms", json={"game": game, "setup": setup, "seats": seats})).json()
            room_id = room["room"]["id"]
            players = []
            for seat, kind in enumerate(seats):
                if kind["kind"] == "open":
                    token = (await client.post(f"/api/rooms/{room_id}/join", json={"name": f"L{seat}", "seat": seat})
                             ).json()["token"]
                    players.append(SeatPlayer(ws_url, room_id, token, f"{i}:{seat}"))
            players.append(SeatPlayer(ws_url, room_id, None, f"{i}:watch"))
            made.append((room_id, players))
        await asyncio.gather(*(p.play(timeout=120) for _, players in made for p in players))
        unfinished = [p for _, players in made for p in players if p.outcome is None]
        assert not unfinished, unfinished
        for room_id, players in made:
            record = Record.from_json((await client.get(f"/api/rooms/{room_id}/records/1")).json())
            outcome = replay(record).outcome()
            assert outcome is not None
            acknowledged: dict[int, str] = {}
            for player in players:
                assert player.outcome is not None, room_id
                assert player.outcome["winners"] == list(outcome.winners)
                assert player.final_version == len(record.actions)
                for version, action in player.accepted.items():
                    assert version not in acknowledged, "one version acknowledged twice"
                    acknowledged[version] = action
            for version, action in acknowledged.items():
                assert record.actions[version - 1] == action
            assert all(not p.errors for p in players), [p.errors for p in players]


@pytest.mark.slow
def test_fifty_rooms_at_once_lose_and_duplicate_nothing(tmp_path: Path) -> None:
    settings = settings_for(f"sqlite:///{tmp_path / 'load.db'}", durable=True, bot_workers=2, bot_iterations=200)
    with LoopbackServer(settings) as server:
        asyncio.run(load(server.url, server.ws_url, 50))
