"""Bad input, each answered as docs/server.md says and the room left unchanged: values of the wrong JSON type
are never coerced, a game that does not exist is 404, oversized and non-UTF-8 frames over a real socket,
invite codes and joins rate-limited per address, and a seat's history keeps everybody who sat in it."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from server_support import join, make_room, new_app, open_socket, running, settings_for

from cardtable.core import Record
from cardtable.server.bench import LoopbackServer


def run(url: str, body: Any, **settings: Any) -> None:
    async def main() -> None:
        app = new_app(url, **settings)
        async with running(app) as client:
            await body(app, client)

    asyncio.run(main())


@pytest.mark.parametrize("fields", [
    {"version": "0"}, {"version": True}, {"version": 1.0}, {"version": 0, "seat": "0"}, {"version": 0, "seat": False},
    {"version": 0, "ref": True}, {"version": 0, "ref": 1.5}, {"version": [0]},
])
def test_an_action_with_a_value_of_the_wrong_json_type_is_refused_not_coerced(sqlite_db: str,
                                                                               fields: dict[str, Any]) -> None:
    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        room = (await make_room(client, "zeta", [{"kind": "open"}, {"kind": "open"}]))["room"]["id"]
        tokens = [(await join(client, room, name))["token"] for name in ("Alice", "Bob")]
        ws, _, state = await open_socket(app, room, tokens[0])
        other, _, other_state = await open_socket(app, room, tokens[1])
        mover = state["to_move"]
        player = ws if mover == 0 else other
        legal = (state if mover == 0 else other_state)["legal"]
        await player.send_json({"type": "action", "action": legal[0], **fields})
        refused = await player.receive()
        assert refused["type"] == "error" and refused["code"] == "bad_message", refused
        assert (await client.get(f"/api/rooms/{room}")).json()["version"] == 0  # nothing was played
        await player.send_json({"type": "ping"})
        assert await player.receive() == {"type": "pong"}  # no state came: the room did not change
        for s in (ws, other):
            await s.close()

    run(sqlite_db, body)


def test_a_hello_with_a_value_of_the_wrong_json_type_is_refused(sqlite_db: str) -> None:
    from server_support import AsgiSocket, Closed

    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        room = (await make_room(client, "zeta", [{"kind": "open"}, {"kind": "open"}]))["room"]["id"]
        for hello in ({"type": "hello", "since": "0"}, {"type": "hello", "since": True}, {"type": "hello", "token": 5}):
            ws = await AsgiSocket(app, f"/api/rooms/{room}/ws").connect()
            await ws.send_json(hello)
            assert (await ws.receive())["code"] == "bad_message"
            with pytest.raises(Closed) as closed:
                await ws.receive()
            assert closed.value.code == 4400

    run(sqlite_db, body)


def test_a_private_flag_that_is_not_a_boolean_makes_no_room(sqlite_db: str) -> None:
    async def body(_app: FastAPI, client: httpx.AsyncClient) -> None:
        for value in ("yes", 1, "true", None):
            answer = await client.post("/api/rooms", json={"game": "zeta", "private": value})
            assert answer.status_code == 422 and answer.json()["error"]["code"] == "bad_request", answer.text
        assert (await client.get("/api/rooms", params={"open": False})).json()["rooms"] == []

    run(sqlite_db, body)


def test_a_record_of_a_game_that_does_not_exist_is_404_and_of_one_under_way_409(sqlite_db: str) -> None:
    async def body(_app: FastAPI, client: httpx.AsyncClient) -> None:
        room = (await make_room(client, "zeta", [{"kind": "open"}, {"kind": "open"}]))["room"]["id"]
        missing = await client.get(f"/api/rooms/{room}/records/999")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_such_game"
        going = await client.get(f"/api/rooms/{room}/records/1")
        assert going.status_code == 409 and going.json()["error"]["code"] == "not_finished"
        nowhere = await client.get("/api/rooms/nosuchroom/records/1")
        assert nowhere.status_code == 404 and nowhere.json()["error"]["code"] == "no_such_room"

    run(sqlite_db, body)


@pytest.mark.parametrize("name", ["", "x" * 25])
def test_an_empty_name_is_answered_like_a_too_long_one(sqlite_db: str, name: str) -> None:
    async def body(_app: FastAPI, client: httpx.AsyncClient) -> None:
        room = (await make_room(client, "zeta", [{"kind": "open"}, {"kind": "open"}]))["room"]["id"]
        answer = await client.post(f"/api/rooms/{room}/join", json={"name": name})
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_name"
        assert [s["status"] for s in (await client.get(f"/api/rooms/{room}")).json()["seats"]] == ["open", "open"]

    run(sqlite_db, body)


def test_wrong_invite_codes_are_rate_limited_per_address(sqlite_db: str) -> None:
    async def body(_app: FastAPI, client: httpx.AsyncClient) -> None:
        made = await make_room(client, "zeta", [{"kind": "open"}, {"kind": "open"}], private=True)
        room, invite = made["room"]["id"], made["invite"]
        for i in range(3):
            wrong = await client.get(f"/api/rooms/{room}", params={"invite": f"guess{i}"})
            assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "no_access"
        limited = await client.get(f"/api/rooms/{room}", params={"invite": "guess4"})
        assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"
        assert int(limited.headers["Retry-After"]) >= 1
        # while limited, even the right code is refused from this address: guessing gains nothing
        right = await client.get(f"/api/rooms/{room}", params={"invite": invite})
        assert right.status_code == 429
        joined = await client.post(f"/api/rooms/{room}/join", json={"name": "Eve", "invite": invite})
        assert joined.status_code == 429
        assert made["room"]["seats"][0]["status"] == "open"

    run(sqlite_db, body, invite_rate="3/minute")


def test_an_invite_limit_is_per_address_and_spares_people_without_a_code(sqlite_db: str) -> None:
    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        made = await make_room(client, "zeta", [{"kind": "open"}, {"kind": "open"}], private=True)
        room, invite = made["room"]["id"], made["invite"]
        assert (await client.get(f"/api/rooms/{room}", params={"invite": "guess"})).status_code == 403
        assert (await client.get(f"/api/rooms/{room}", params={"invite": invite})).status_code == 429
        other = httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=("10.9.8.7", 1234)),
                                  base_url="http://testserver")
        async with other:
            assert (await other.get(f"/api/rooms/{room}", params={"invite": invite})).status_code == 200
        public = (await make_room(client, "zeta", [{"kind": "open"}, {"kind": "open"}]))["room"]["id"]
        assert (await client.get(f"/api/rooms/{public}")).status_code == 200  # no code sent: not limited

    run(sqlite_db, body, invite_rate="1/minute")


def test_wrong_invite_codes_on_the_socket_are_rate_limited(sqlite_db: str) -> None:
    from server_support import AsgiSocket, Closed

    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        made = await make_room(client, "zeta", [{"kind": "open"}, {"kind": "open"}], private=True)
        room = made["room"]["id"]
        for code, close in (("no_access", 4403), ("no_access", 4403), ("rate_limited", 4430)):
            ws = await AsgiSocket(app, f"/api/rooms/{room}/ws").connect()
            await ws.send_json({"type": "hello", "token": None, "invite": "guess"})
            assert (await ws.receive())["code"] == code
            with pytest.raises(Closed) as closed:
                await ws.receive()
            assert closed.value.code == close

    run(sqlite_db, body, invite_rate="2/minute")


def test_joins_are_rate_limited_per_address(sqlite_db: str) -> None:
    async def body(_app: FastAPI, client: httpx.AsyncClient) -> None:
        room = (await make_room(client, "oscilloscope", [{"kind": "open"}] * 4, {"players": 4}))["room"]["id"]
        for i in range(3):
            await join(client, room, f"P{i}")
        limited = await client.post(f"/api/rooms/{room}/join", json={"name": "P3"})
        assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"
        assert [s["status"] for s in (await client.get(f"/api/rooms/{room}")).json()["seats"]][3] == "open"

    run(sqlite_db, body, join_rate="3/minute")


def test_a_seat_keeps_everybody_who_sat_in_it_and_the_record_credits_them(sqlite_db: str) -> None:
    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        made = await make_room(client, "zeta", [{"kind": "open"}, {"kind": "open"}], on_leave="bot",
                               leave_bot="random")
        room = made["room"]["id"]
        alice = (await join(client, room, "Alice", 0))["token"]
        bob = (await join(client, room, "Bob", 1))["token"]
        sockets = {0: (await open_socket(app, room, alice))[0], 1: (await open_socket(app, room, bob))[0]}
        moved = 0
        while moved < 2:  # two actions, then Alice leaves to the bot
            info = (await client.get(f"/api/rooms/{room}")).json()
            seat = info["to_move"]
            await sockets[seat].send_json({"type": "sync", "since": 0})
            state = await sockets[seat].receive_until("state")
            await sockets[seat].send_json({"type": "action", "action": state["legal"][0], "version": state["version"]})
            await sockets[seat].receive_until("accepted")
            moved += 1
        left = await client.post(f"/api/rooms/{room}/leave", headers={"Authorization": f"Bearer {alice}"})
        assert left.status_code == 200
        seat0 = left.json()["room"]["seats"][0]
        assert seat0["status"] == "bot" and seat0["history"] == [
            {"name": "Alice", "spec": "human", "from_version": 0, "account": None},
            {"name": "", "spec": "random", "from_version": 2, "account": None}]
        await sockets[0].close()
        ws = sockets[1]
        while True:  # Bob plays on against the bot to the end
            message = await ws.receive(timeout=30)
            if message["type"] == "state" and message["outcome"] is not None:
                break
            if message["type"] == "state" and message["legal"]:
                await ws.send_json({"type": "action", "action": message["legal"][0], "version": message["version"]})
        await ws.close()
        record = Record.from_json((await client.get(f"/api/rooms/{room}/records/1")).json())
        assert record.meta["seat_history"][0] == [{"name": "Alice", "spec": "human", "from_version": 0},
                                                  {"name": "", "spec": "random", "from_version": 2}]
        assert record.meta["seat_history"][1] == [{"name": "Bob", "spec": "human", "from_version": 0}]

    run(sqlite_db, body)


# -- frames over a real socket (uvicorn's websocket layer) -----------------------------------------------
async def _frames(server: LoopbackServer) -> dict[str, Any]:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed
    from websockets.frames import Frame, Opcode

    seen: dict[str, Any] = {}
    async with httpx.AsyncClient(base_url=server.url) as client:
        room = (await client.post("/api/rooms", json={"game": "zeta"})).json()["room"]["id"]
        token = (await client.post(f"/api/rooms/{room}/join", json={"name": "Alice"})).json()["token"]
        async with connect(f"{server.ws_url}/api/rooms/{room}/ws", max_size=2**24) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            await ws.recv()
            await ws.recv()
            await ws.send("x" * 1_048_576)  # 1 MiB
            seen["big"] = json.loads(await asyncio.wait_for(ws.recv(), 10))
            await ws.send(json.dumps({"type": "ping"}))
            seen["after_big"] = json.loads(await asyncio.wait_for(ws.recv(), 10))
            ws.protocol.send_frame(Frame(Opcode.TEXT, b'{"type": "ping"\xff}'))
            ws.send_data()
            try:
                await asyncio.wait_for(ws.recv(), 10)
            except ConnectionClosed as closed:
                seen["utf8_close"] = closed.rcvd.code if closed.rcvd else None
        seen["room"] = (await client.get(f"/api/rooms/{room}")).json()
    return seen


def test_an_oversized_frame_is_too_large_and_invalid_utf8_closes_with_1007_without_a_traceback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    uvicorn_log = logging.getLogger("uvicorn")  # uvicorn's loggers do not propagate to the root
    with caplog.at_level(logging.WARNING), LoopbackServer(settings_for(f"sqlite:///{tmp_path / 'r.db'}")) as server:
        uvicorn_log.addHandler(caplog.handler)
        try:
            seen = asyncio.run(_frames(server))
        finally:
            uvicorn_log.removeHandler(caplog.handler)
    assert seen["big"]["type"] == "error" and seen["big"]["code"] == "too_large"
    assert seen["after_big"] == {"type": "pong"}  # the socket stayed open
    assert seen["utf8_close"] == 1007
    assert seen["room"]["version"] == 0 and seen["room"]["seats"][0]["name"] == "Alice"
    utf8 = [r for r in caplog.records if "UTF-8" in r.getMessage()]
    assert utf8 and all(r.exc_info is None and r.exc_text is None for r in utf8)
    assert not any(r.exc_info for r in caplog.records if r.name.startswith(("uvicorn", "cardtable")))
