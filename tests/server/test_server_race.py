"""Race: two clients send an action for the same version at once; exactly one is accepted, the other is
told ``stale_version``, and the game has the accepted one only. Over loopback (a real uvicorn), then
with two server processes over one PostgreSQL database."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from server_support import ServerProcess, settings_for

from cardtable.core import Record
from cardtable.server.bench import LoopbackServer


class Sock:
    """A websocket client whose messages wait in a buffer until asked for by type."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.buffer: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, ws_url: str, room: str, token: str) -> Sock:
        from websockets.asyncio.client import connect

        sock = cls(await connect(f"{ws_url}/api/rooms/{room}/ws"))
        await sock.send({"type": "hello", "token": token})
        assert (await sock.take("welcome"))["type"] == "welcome"
        return sock

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def take(self, *kinds: str) -> dict[str, Any]:
        """The first message of one of ``kinds`` (earlier ones of other kinds stay buffered)."""
        for i, waiting in enumerate(self.buffer):
            if waiting["type"] in kinds:
                return self.buffer.pop(i)
        while True:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), 30))
            if message["type"] in kinds:
                return message
            self.buffer.append(message)

    async def state_at(self, version: int) -> dict[str, Any]:
        """The state at ``version`` (older ones are skipped)."""
        while True:
            state = await self.take("state")
            if state["version"] >= version:
                return state


async def race(base: str, ws_urls: tuple[str, str], rounds: int = 8) -> None:
    """Seat 0 plays from two sockets (on ``ws_urls``); on each of its turns both send at once."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        made = (await client.post("/api/rooms", json={"game": "zeta", "seats": [{"kind": "open"}, {"kind": "open"}]}))
        room = made.json()["room"]["id"]
        mine = (await client.post(f"/api/rooms/{room}/join", json={"name": "Twin", "seat": 0})).json()["token"]
        theirs = (await client.post(f"/api/rooms/{room}/join", json={"name": "Other", "seat": 1})).json()["token"]
        first, second = await Sock.open(ws_urls[0], room, mine), await Sock.open(ws_urls[1], room, mine)
        other = await Sock.open(ws_urls[0], room, theirs)
        socks = (first, second, other)
        states = [await sock.state_at(0) for sock in socks]
        state = states[0]
        accepted: list[tuple[int, str]] = []
        raced = 0
        while state["outcome"] is None and raced < rounds:
            version, legal = state["version"], state["legal"]
            if state["to_move"] == 0:
                picks = (legal[0], legal[-1])
                await asyncio.gather(*(sock.send({"type": "action", "action": a, "version": version})
                                       for sock, a in zip((first, second), picks, strict=True)))
                answers = [await first.take("accepted", "error"), await second.take("accepted", "error")]
                assert sorted(a["type"] for a in answers) == ["accepted", "error"], answers
                refused = next(a for a in answers if a["type"] == "error")
                assert refused["code"] == "stale_version", refused
                won = next(a for a in answers if a["type"] == "accepted")
                accepted.append((version, won["action"]))
                raced += 1
            else:
                await other.send({"type": "action", "action": states[2]["legal"][0], "version": version})
                assert (await other.take("accepted", "error"))["type"] == "accepted"
            states = [await sock.state_at(version + 1) for sock in socks]
            assert len({s["version"] for s in states}) == 1, "every socket sees the same version"
            state = states[0]
        assert raced > 0
        for sock in socks:
            await sock.ws.close()
        info = (await client.get(f"/api/rooms/{room}")).json()
        history = (await client.get(f"/api/rooms/{room}/history")).json()
        assert history["games"][0]["version"] == info["version"] == state["version"]
        if info["status"] == "finished":
            actions = Record.from_json((await client.get(f"/api/rooms/{room}/records/1")).json()).actions
            for version, action in accepted:
                assert actions[version] == action


def test_two_sockets_of_one_seat_racing_get_one_acceptance(tmp_path: Any) -> None:
    with LoopbackServer(settings_for(f"sqlite:///{tmp_path / 'race.db'}")) as server:
        asyncio.run(race(server.url, (server.ws_url, server.ws_url)))


@pytest.mark.postgres
def test_two_server_processes_racing_accept_one_action_per_version(pg_db: str, tmp_path: Any) -> None:
    """One seat on two processes over one PostgreSQL: the unique constraint lets one action per version in."""
    a = ServerProcess(pg_db, log=tmp_path / "a.log").start()
    b = ServerProcess(pg_db, log=tmp_path / "b.log").start()
    try:
        asyncio.run(race(a.url, (a.ws_url, b.ws_url)))
    finally:
        a.stop()
        b.stop()


def test_a_change_announced_while_a_room_loads_is_caught_up_after_the_load() -> None:
    """Another process's action announced while this process is still reading the room from the store
    (its load may have read the version before) is not dropped: the room is refreshed once loaded."""
    from typing import cast

    from cardtable.server.hub import Hub, LiveRoom
    from cardtable.store.store import Change

    async def scenario() -> list[str]:
        hub = Hub(cast(Any, None), cast(Any, None))
        release = asyncio.Event()
        refreshed: list[str] = []

        async def slow_load(room_id: str) -> LiveRoom:
            await release.wait()
            return cast(LiveRoom, object())

        async def refresh(room_id: str, info: Any = None) -> None:
            refreshed.append(room_id)

        hub._load = slow_load  # type: ignore[method-assign]
        hub.refresh = refresh  # type: ignore[method-assign]
        loading = asyncio.ensure_future(hub.live("r1"))
        await asyncio.sleep(0)
        assert "r1" in hub._loading
        hub._on_change(Change("other", "r1", "action", 1, 5))
        await asyncio.sleep(0)
        assert refreshed == []  # not before the load ends
        release.set()
        await loading
        for _ in range(5):
            await asyncio.sleep(0)
        return refreshed

    assert asyncio.run(scenario()) == ["r1"]
