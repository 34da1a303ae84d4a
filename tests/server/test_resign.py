"""Resigning: a seated person ends the game at once over the socket and every other seat wins; the record
replays to the resignation and a rated room rates it; spectators cannot resign, nor anyone once it is over."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from ratings_support import make_account, seated_room
from server_support import new_app
from social_support import app_store, receive_until
from sqlalchemy import select

from cardtable.core import Record
from cardtable.store.models import RatingChangeRow
from cardtable.table import EndKind, Table


def hello(client: TestClient, room: str, token: str | None) -> tuple[Any, dict[str, Any]]:
    ws = client.websocket_connect(f"/api/rooms/{room}/ws").__enter__()
    ws.send_json({"type": "hello", "token": token})
    assert ws.receive_json()["type"] == "welcome"
    return ws, receive_until(ws, "state")


def test_a_player_who_resigns_loses_at_once_and_a_rated_game_is_rated(sqlite_db: str) -> None:
    with TestClient(new_app(sqlite_db)) as client:
        store = app_store(client)
        ann, bob = make_account(store, "Ann"), make_account(store, "Bob")
        info, tokens = seated_room(store, "zeta", [ann, bob])
        room = info.id
        watcher, _ = hello(client, room, None)
        watcher.send_json({"type": "resign", "ref": "w"})
        refused = receive_until(watcher, "error")
        assert refused["code"] == "spectator" and refused["ref"] == "w"
        ws, state = hello(client, room, tokens[1])
        assert state["outcome"] is None
        ws.send_json({"type": "resign", "game_no": 1})
        over = receive_until(ws, "state")
        assert over["outcome"]["end"] == EndKind.RESIGN.value and over["outcome"]["loser"] == 1
        assert over["outcome"]["winners"] == [0] and over["legal"] == [] and over["to_move"] is None
        assert receive_until(watcher, "state")["outcome"]["loser"] == 1  # everybody sees the end
        ws.send_json({"type": "resign"})
        assert receive_until(ws, "error")["code"] == "game_over"
        record = Record.from_json(client.get(f"/api/rooms/{room}/records/1").json())
        assert Table.resume(record).outcome()["loser"] == 1  # the record replays to the resignation
        with store.engine.connect() as conn:
            changes = {r.account_id: r.mu_after - r.mu_before for r in conn.execute(
                select(RatingChangeRow).where(RatingChangeRow.room_id == room))}
        assert changes[ann] > 0 > changes[bob]
        for sock in (ws, watcher):
            sock.__exit__(None, None, None)


def test_resigning_another_game_than_the_rooms_current_one_is_refused(sqlite_db: str) -> None:
    with TestClient(new_app(sqlite_db)) as client:
        store = app_store(client)
        info, tokens = seated_room(store, "zeta", [None, None], rated=False)
        ws, _ = hello(client, info.id, tokens[0])
        ws.send_json({"type": "resign", "game_no": 2})
        assert receive_until(ws, "error")["code"] == "stale_version"
        ws.send_json({"type": "resign", "game_no": 0})
        assert receive_until(ws, "error")["code"] == "bad_message"
        ws.__exit__(None, None, None)
