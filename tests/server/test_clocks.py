"""Clocks: a real-time room gives each seat a base time plus an increment per move, a turn-based room a
deadline per move; the server's times come with every state; deadlines are stored, so a restarted server
enforces them; when time runs out the leave policy applies (a bot takes the seat), or in a rated room the
player loses by a recorded timeout. A fake clock stands in for time (no sleeping)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from ratings_support import make_account, seated_room
from server_support import new_app
from social_support import FakeClock, app_store, hub_of, play_through, receive_until
from sqlalchemy import func, select

from cardtable.core import Record
from cardtable.store import Store, social
from cardtable.store.models import RatingChangeRow
from cardtable.table import EndKind, Table


def at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def start(client: TestClient) -> FakeClock:
    clock = FakeClock()
    hub = hub_of(client)
    hub.now = clock
    hub.clock_interval = 0  # the test enforces deadlines itself (the loop started already only reads the fake clock)
    return clock


def enforce(client: TestClient) -> int:
    return int(client.portal.call(hub_of(client).enforce_clocks))  # type: ignore[union-attr]


def hello(client: TestClient, room: str, token: str | None) -> tuple[Any, dict[str, Any]]:
    ws = client.websocket_connect(f"/api/rooms/{room}/ws").__enter__()
    ws.send_json({"type": "hello", "token": token})
    assert ws.receive_json()["type"] == "welcome"
    return ws, receive_until(ws, "state")


def test_a_clock_needs_time() -> None:
    with TestClient(new_app("sqlite://")) as client:
        for clock in ({"kind": "realtime", "base_s": 0}, {"kind": "turn", "move_s": 59}):
            answer = client.post("/api/rooms", json={"game": "zeta", "clock": clock})
            assert answer.json()["error"]["code"] == "bad_clock", clock
        answer = client.post("/api/rooms", json={"game": "zeta", "clock": {"kind": "turn", "move_s": "60"}})
        assert answer.status_code == 422  # strict: no coercion


def test_a_realtime_utahime_clock_runs_out_and_a_bot_takes_the_seat(sqlite_db: str) -> None:
    with TestClient(new_app(sqlite_db)) as client:
        clock = start(client)
        room = client.post("/api/rooms", json={
            "game": "utahime", "on_leave": "bot", "leave_bot": "random",
            "clock": {"kind": "realtime", "base_s": 60, "increment_s": 2}}).json()["room"]
        assert room["clock"] == {"kind": "realtime", "base_s": 60, "increment_s": 2, "move_s": 0}
        tokens = {i: client.post(f"/api/rooms/{room['id']}/join", json={"name": f"N{i}"}).json()["token"]
                  for i in range(2)}
        ws = {i: hello(client, room["id"], tokens[i]) for i in range(2)}
        state = ws[0][1]
        mover = state["to_move"]
        other = 1 - mover
        assert state["clock"]["seat"] == mover and state["clock"]["remaining_ms"] == [60_000, 60_000]
        assert at(state["clock"]["deadline_at"]) == clock.now + timedelta(seconds=60)
        assert at(state["clock"]["now"]) == clock.now
        clock.advance(seconds=10)
        sock, st = ws[mover]
        sock.send_json({"type": "action", "action": st["legal"][0], "version": st["version"]})
        receive_until(sock, "accepted")
        after = receive_until(ws[other][0], "state")
        if after["to_move"] == other:  # the increment came after the time used: 60 - 10 + 2
            assert after["clock"]["remaining_ms"][mover] == 52_000
            runner = other
        else:
            runner = mover
        assert enforce(client) == 0  # nobody's time is up yet
        clock.advance(seconds=61)
        assert enforce(client) == 1
        error = receive_until(ws[runner][0], "error")
        assert error["code"] == "revoked"  # the seat's token no longer holds it
        watcher = ws[1 - runner][0]
        changed = receive_until(watcher, "room")["room"]["seats"][runner]
        assert (changed["status"], changed["spec"]) == ("bot", "random")
        moved = receive_until(watcher, "state")
        for _ in range(10):  # the bot moves on in the seat whose time ran out
            if moved["version"] > after["version"] or moved["to_move"] != runner:
                break
            moved = receive_until(watcher, "state")
        assert moved["version"] > after["version"] or moved["to_move"] != runner
        assert moved["outcome"] is None
        for sock, _st in ws.values():
            sock.__exit__(None, None, None)


def test_a_turn_based_deadline_survives_a_restart_and_then_reopens_the_seat(sqlite_db: str) -> None:
    with TestClient(new_app(sqlite_db)) as client:
        clock = start(client)
        room = client.post("/api/rooms", json={"game": "zeta", "clock": {"kind": "turn", "move_s": 86_400}}).json()
        room_id = room["room"]["id"]
        tokens = {i: client.post(f"/api/rooms/{room_id}/join", json={"name": f"N{i}"}).json()["token"]
                  for i in range(2)}
        last = play_through(client, room_id, tokens, stop_before=3)
        deadline = last["clock"]["deadline_at"]
        assert at(deadline) == clock.now + timedelta(days=1) and last["clock"]["remaining_ms"] == []
        runner = last["to_move"]
    with TestClient(new_app(sqlite_db)) as client:  # the server restarts on the same database file
        clock = start(client)
        clock.now = at(deadline) - timedelta(hours=1)
        ws, state = hello(client, room_id, tokens[1 - runner])
        assert state["clock"]["deadline_at"] == deadline and state["clock"]["seat"] == runner
        assert enforce(client) == 0
        clock.advance(hours=2)
        games = client.get(f"/api/rooms/{room_id}").json()
        assert games["seats"][runner]["status"] == "taken"
        assert enforce(client) == 1
        assert client.get(f"/api/rooms/{room_id}").json()["seats"][runner]["status"] == "open"  # on_leave: reopen
        assert receive_until(ws, "room")["room"]["seats"][runner]["status"] == "open"
        assert enforce(client) == 0  # an open seat's turn runs no clock
        ws.__exit__(None, None, None)


def rated_clock_room(store: Store, a: str, b: str) -> tuple[str, list[str]]:
    info, tokens = seated_room(store, "zeta", [a, b], names=["Ann", "Bob"])
    social.set_spectator_chat(store, info.id, True)
    from sqlalchemy import update

    from cardtable.store.social_models import RoomSocialRow

    with store.transaction() as conn:
        conn.execute(update(RoomSocialRow).where(RoomSocialRow.room_id == info.id).values(clock="turn", move_s=3600))
    return info.id, tokens


def test_in_a_rated_room_the_player_whose_time_runs_out_loses_and_ratings_change(sqlite_db: str) -> None:
    with TestClient(new_app(sqlite_db)) as client:
        clock = start(client)
        store = app_store(client)
        a, b = make_account(store, "Ann"), make_account(store, "Bob")
        room, tokens = rated_clock_room(store, a, b)
        ws, state = hello(client, room, tokens[0])
        runner = state["to_move"]
        assert state["clock"]["seat"] == runner
        clock.advance(hours=1, seconds=1)
        assert enforce(client) == 1
        over = receive_until(ws, "state")
        assert over["outcome"]["end"] == "timeout" and over["outcome"]["loser"] == runner
        assert over["outcome"]["winners"] == [1 - runner] and over["to_move"] is None and over["legal"] == []
        assert over["clock"]["seat"] is None
        assert enforce(client) == 0
        ws.__exit__(None, None, None)
        record = Record.from_json(client.get(f"/api/rooms/{room}/records/1").json())
        assert record.meta["end"]["kind"] == EndKind.TIMEOUT.value
        assert Table.resume(record).outcome()["loser"] == runner  # the record replays to the timeout
        with store.engine.connect() as conn:
            changes = conn.execute(select(func.count()).select_from(RatingChangeRow)
                                   .where(RatingChangeRow.room_id == room)).scalar_one()
        assert changes == 2
        ws, state = hello(client, room, tokens[1])  # a reloaded room shows the same end
        assert state["outcome"]["end"] == "timeout"
        ws.__exit__(None, None, None)


@pytest.mark.parametrize("kind", list(EndKind))
def test_the_table_records_an_end_that_is_no_action(kind: EndKind) -> None:
    table = Table.create("zeta", ["human", "human"], seed=5)
    table.play(table.current_seat or 0, table.legal(table.current_seat)[0], table.version)
    loser = table.current_seat
    assert loser is not None
    outcome = table.end(kind, loser)
    assert outcome["end"] == kind.value and outcome["winners"] == ([] if kind is EndKind.DRAW else [1 - loser])
    resumed = Table.resume(Record.from_json(table.record().to_json()))
    assert resumed.is_over and resumed.outcome() == outcome
