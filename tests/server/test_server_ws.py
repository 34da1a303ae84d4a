"""Every websocket message and every bad input: each gets a clear error to its own socket only, and the
room is unchanged. In process, through the ASGI app."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from server_support import AsgiSocket, Closed, join, make_room, new_app, open_socket, running

Body = Callable[[FastAPI, httpx.AsyncClient], Awaitable[None]]


def run(url: str, body: Body, **settings: Any) -> None:
    async def main() -> None:
        app = new_app(url, **settings)
        async with running(app) as client:
            await body(app, client)

    asyncio.run(main())


async def two_player_room(app: FastAPI, client: httpx.AsyncClient, game: str = "zeta",
                          setup: dict[str, Any] | None = None) -> tuple[str, dict[int, AsgiSocket],
                                                                         dict[int, dict[str, Any]], list[str]]:
    """A started room of two people with a socket each: (room, sockets, first states, tokens)."""
    room = (await make_room(client, game, [{"kind": "open"}, {"kind": "open"}], setup))["room"]["id"]
    tokens = [(await join(client, room, "Alice"))["token"], (await join(client, room, "Bob"))["token"]]
    sockets, states = {}, {}
    for seat in (0, 1):
        ws, welcome, state = await open_socket(app, room, tokens[seat])
        assert welcome["seat"] == seat
        sockets[seat], states[seat] = ws, state
    return room, sockets, states, tokens


async def quiet(ws: AsgiSocket) -> None:
    """Nothing more arrives on this socket (for a moment)."""
    with pytest.raises(asyncio.TimeoutError):
        await ws.receive(timeout=0.2)


async def expect_error(ws: AsgiSocket, code: str) -> dict[str, Any]:
    message = await ws.receive()
    assert message["type"] == "error" and message["code"] == code, message
    assert message["message"]
    return message


def test_a_seat_gets_its_view_log_and_legal_actions_and_others_get_theirs(sqlite_db: str) -> None:
    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        room, sockets, states, _ = await two_player_room(app, client)
        mover = states[0]["to_move"]
        assert states[mover]["legal"] and states[1 - mover]["legal"] == []
        assert states[0]["view"]["viewer"] == 0 and states[1]["view"]["viewer"] == 1
        assert states[0]["names"] == ["P1 Alice", "P2 Bob"] and states[0]["started"] is True
        spectator, welcome, watched = await open_socket(app, room)
        assert welcome["seat"] is None and watched["view"]["viewer"] is None and watched["legal"] == []
        action = states[mover]["legal"][0]
        await sockets[mover].send_json({"type": "action", "action": action, "version": 0, "ref": "r1"})
        accepted = await sockets[mover].receive()
        assert accepted == {"type": "accepted", "version": 1, "action": action, "ref": "r1"}
        for ws in (sockets[0], sockets[1], spectator):
            state = await ws.receive()
            assert state["type"] == "state" and state["version"] == 1 and state["events_from"] >= 0
        for ws in (*sockets.values(), spectator):
            await ws.close()

    run(sqlite_db, body)


def test_a_stale_version_an_illegal_or_unreadable_action_leave_the_room_unchanged(sqlite_db: str) -> None:
    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        room, sockets, states, _ = await two_player_room(app, client)
        mover = states[0]["to_move"]
        ws, other = sockets[mover], sockets[1 - mover]
        await ws.send_json({"type": "action", "action": states[mover]["legal"][0], "version": 5, "ref": 7})
        stale = await expect_error(ws, "stale_version")
        assert stale["ref"] == 7
        await ws.send_json({"type": "action", "action": "chant_practice@z9", "version": 0})
        illegal = await ws.receive()
        assert illegal["code"] in ("illegal_action", "invalid_action")
        await ws.send_json({"type": "action", "action": "fire_mage@a1", "version": 0})
        rule = await ws.receive()
        assert rule["type"] == "error" and rule["code"] == "illegal_action" and rule["rule"].startswith("ZETA-R")
        assert "position" not in rule["message"]
        await ws.send_json({"type": "action", "action": "%%%", "version": 0})
        await expect_error(ws, "invalid_action")
        await other.send_json({"type": "action", "action": states[mover]["legal"][0], "version": 0})
        await expect_error(other, "not_your_turn")
        await other.send_json({"type": "action", "action": states[mover]["legal"][0], "version": 0, "seat": mover})
        await expect_error(other, "wrong_seat")
        await quiet(ws)  # the mover heard nothing of the other seat's errors
        assert (await client.get(f"/api/rooms/{room}")).json()["version"] == 0
        await ws.send_json({"type": "action", "action": states[mover]["legal"][0], "version": 0})
        assert (await ws.receive())["type"] == "accepted"
        for s in sockets.values():
            await s.close()

    run(sqlite_db, body)


@pytest.mark.parametrize(("text", "code"), [
    ("not json", "bad_json"), ("[1, 2]", "bad_message"), ('{"type": "teleport"}', "bad_message"),
    ('{"type": "action", "action": "pass"}', "bad_message"),
    ('{"type": "action", "action": "pass", "version": -1}', "bad_message"),
    ('{"type": "action", "action": 5, "version": 0}', "bad_message"),
    ('{"type": "action", "action": "pass", "version": 0, "extra": 1}', "bad_message"),
    ('{"type": "hello"}', "bad_message"), ("[" * 20_000, "too_large"), ("[" * 5_000 + "]" * 5_000, "bad_json"),
    ("\"" + "x" * 20_000 + "\"", "too_large"),
])
def test_malformed_messages_get_an_error_and_the_socket_stays_open(sqlite_db: str, text: str, code: str) -> None:
    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        _, sockets, states, _ = await two_player_room(app, client)
        await sockets[0].send(text)
        await expect_error(sockets[0], code)
        await sockets[0].send_json({"type": "ping"})
        assert (await sockets[0].receive()) == {"type": "pong"}
        await quiet(sockets[1])
        for s in sockets.values():
            await s.close()

    run(sqlite_db, body)


def test_a_binary_frame_is_refused(sqlite_db: str) -> None:
    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        _, sockets, _, _ = await two_player_room(app, client)
        await sockets[0].send_bytes(b'{"type": "ping"}')
        await expect_error(sockets[0], "bad_json")
        for s in sockets.values():
            await s.close()

    run(sqlite_db, body)


@pytest.mark.parametrize(("hello", "code", "close"), [
    ({"type": "hello", "token": "made-up"}, "bad_token", 4401),
    ({"type": "ping"}, "bad_message", 4400),
    ({"type": "hello", "since": "x"}, "bad_message", 4400),
    ("nonsense", "bad_json", 4400),
])
def test_a_bad_hello_is_answered_and_the_socket_closed(sqlite_db: str, hello: Any, code: str, close: int) -> None:
    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        room = (await make_room(client, "zeta", [{"kind": "open"}, {"kind": "open"}]))["room"]["id"]
        ws = await AsgiSocket(app, f"/api/rooms/{room}/ws").connect()
        await ws.send(hello if isinstance(hello, str) else json.dumps(hello))
        await expect_error(ws, code)
        with pytest.raises(Closed) as closed:
            await ws.receive()
        assert closed.value.code == close
        await ws.close()

    run(sqlite_db, body)


def test_no_room_and_no_hello_close_the_socket(sqlite_db: str) -> None:
    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        ws = await AsgiSocket(app, "/api/rooms/nosuchroom/ws").connect()
        await ws.send_json({"type": "hello"})
        await expect_error(ws, "no_such_room")
        with pytest.raises(Closed) as closed:
            await ws.receive()
        assert closed.value.code == 4404
        room = (await make_room(client, "zeta", [{"kind": "open"}, {"kind": "open"}]))["room"]["id"]
        silent = await AsgiSocket(app, f"/api/rooms/{room}/ws").connect()
        await expect_error(silent, "hello_timeout")
        with pytest.raises(Closed) as closed:
            await silent.receive()
        assert closed.value.code == 4408

    run(sqlite_db, body, hello_timeout=0.3)


def test_a_private_room_is_watched_with_its_invite_code_only(sqlite_db: str) -> None:
    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        made = await make_room(client, "zeta", [{"kind": "open"}, {"kind": "open"}], private=True)
        room, invite = made["room"]["id"], made["invite"]
        ws = await AsgiSocket(app, f"/api/rooms/{room}/ws").connect()
        await ws.send_json({"type": "hello", "invite": "wrong"})
        await expect_error(ws, "no_access")
        with pytest.raises(Closed) as closed:
            await ws.receive()
        assert closed.value.code == 4403
        watcher, welcome, state = await open_socket(app, room, invite=invite)
        assert welcome["seat"] is None and state["view"]["viewer"] is None
        await watcher.close()

    run(sqlite_db, body)


def test_a_spectator_cannot_play(sqlite_db: str) -> None:
    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        room, sockets, states, _ = await two_player_room(app, client)
        watcher, _, state = await open_socket(app, room)
        mover = state["to_move"]
        await watcher.send_json({"type": "action", "action": states[mover]["legal"][0], "version": 0})
        await expect_error(watcher, "spectator")
        await quiet(sockets[mover])
        for s in (*sockets.values(), watcher):
            await s.close()

    run(sqlite_db, body)


def test_play_waits_until_every_seat_is_filled(sqlite_db: str) -> None:
    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        room = (await make_room(client, "zeta", [{"kind": "open"}, {"kind": "open"}]))["room"]["id"]
        tokens = [(await join(client, room, "Alice", seat=0))["token"]]
        ws, welcome, state = await open_socket(app, room, tokens[0])
        assert state["started"] is False and state["legal"] == [] and welcome["room"]["status"] == "waiting"
        await ws.send_json({"type": "action", "action": "pass", "version": 0})
        await expect_error(ws, "not_started")
        await join(client, room, "Bob", seat=1)
        room_message = await ws.receive()
        assert room_message["type"] == "room" and room_message["room"]["status"] == "playing"
        started = await ws.receive()
        assert started["type"] == "state" and started["started"] is True
        assert bool(started["legal"]) == (started["to_move"] == 0)
        await ws.close()

    run(sqlite_db, body)


def test_leaving_closes_the_seats_sockets_and_the_token_cannot_come_back(sqlite_db: str) -> None:
    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        room, sockets, _, tokens = await two_player_room(app, client)
        left = await client.post(f"/api/rooms/{room}/leave", headers={"Authorization": f"Bearer {tokens[0]}"})
        assert left.status_code == 200
        revoked = await sockets[0].receive_until("error")
        assert revoked["code"] == "revoked"
        with pytest.raises(Closed) as closed:
            await sockets[0].receive()
        assert closed.value.code == 4409
        change = await sockets[1].receive()
        assert change["type"] == "room" and change["room"]["seats"][0]["status"] == "open"
        again = await AsgiSocket(app, f"/api/rooms/{room}/ws").connect()
        await again.send_json({"type": "hello", "token": tokens[0]})
        await expect_error(again, "bad_token")
        await sockets[1].close()

    run(sqlite_db, body)


def test_a_reconnecting_socket_gets_the_log_from_where_it_was(sqlite_db: str) -> None:
    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        room, sockets, states, tokens = await two_player_room(app, client, "oscilloscope", {"players": 2})
        count = states[0]["events_from"] + len(states[0]["events"])
        for _ in range(6):
            mover = states[0]["to_move"]
            await sockets[mover].send_json({"type": "action", "action": states[mover]["legal"][0],
                                            "version": states[mover]["version"]})
            assert (await sockets[mover].receive())["type"] == "accepted"
            for seat in (0, 1):
                states[seat] = await sockets[seat].receive()
                assert states[seat]["type"] == "state"
        total = states[0]["events_from"] + len(states[0]["events"])
        await sockets[0].close()
        ws, _, state = await open_socket(app, room, tokens[0], since=count)
        assert state["events_from"] == count and len(state["events"]) == total - count
        await ws.send_json({"type": "sync", "since": 0})
        full = await ws.receive()
        assert full["events_from"] == 0 and len(full["events"]) == total and len(full["log"]) == total
        await ws.send_json({"type": "sync", "since": 10**6})  # beyond the log: the whole log again
        assert (await ws.receive())["events_from"] == 0
        await ws.close()
        await sockets[1].close()

    run(sqlite_db, body)


def test_bots_move_through_the_table_and_never_block_the_others(sqlite_db: str) -> None:
    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        room = (await make_room(client, "zeta", [{"kind": "open"}, {"kind": "bot", "spec": "ismcts:iterations=30"}]))
        room_id = room["room"]["id"]
        token = (await join(client, room_id, "Alice"))["token"]
        ws, _, state = await open_socket(app, room_id, token)
        while state["outcome"] is None:
            if state["legal"]:
                await ws.send_json({"type": "action", "action": state["legal"][-1], "version": state["version"]})
                assert (await ws.receive())["type"] == "accepted"
            state = await ws.receive(timeout=30)
            while state["type"] == "bot":  # where the bot's move stands, then its state
                assert state["phase"] in ("queued", "thinking") and state["seat"] == 1
                state = await ws.receive(timeout=30)
            assert state["type"] == "state"
        await ws.send_json({"type": "action", "action": "pass", "version": state["version"]})
        await expect_error(ws, "game_over")
        record = (await client.get(f"/api/rooms/{room_id}/records/1")).json()
        assert record["players"] == ["human", "ismcts:iterations=30"] and len(record["actions"]) == state["version"]
        await ws.close()

    run(sqlite_db, body)


def test_a_room_of_bots_plays_itself_to_the_end(sqlite_db: str) -> None:
    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        made = await make_room(client, "oscilloscope", [{"kind": "bot", "spec": "random"}] * 3, {"players": 3})
        room = made["room"]["id"]
        assert made["room"]["status"] == "playing"
        for _ in range(300):
            if (await client.get(f"/api/rooms/{room}")).json()["status"] == "finished":
                break
            await asyncio.sleep(0.05)
        assert (await client.get(f"/api/rooms/{room}/records/1")).status_code == 200

    run(sqlite_db, body)


def test_too_many_sockets_in_one_room_are_refused(sqlite_db: str) -> None:
    async def body(app: FastAPI, client: httpx.AsyncClient) -> None:
        room = (await make_room(client, "zeta", [{"kind": "open"}, {"kind": "open"}]))["room"]["id"]
        first, _, _ = await open_socket(app, room)
        second, _, _ = await open_socket(app, room)
        third = await AsgiSocket(app, f"/api/rooms/{room}/ws").connect()
        await third.send_json({"type": "hello"})
        await expect_error(third, "room_full")
        for ws in (first, second):
            await ws.close()

    run(sqlite_db, body, max_connections_per_room=2)
