"""The lobby's life (``GET /api/lobby``) says when each game being played last moved, so that a page can
leave out a game whose players went away (no move for a day), as the lobby's room lists do."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from server_support import new_app
from social_support import app_store
from sqlalchemy import update

from cardtable.store.models import RoomRow


@pytest.fixture
def client(sqlite_db: str) -> Iterator[TestClient]:
    with TestClient(new_app(sqlite_db)) as c:
        yield c


def test_a_game_being_played_says_when_it_last_moved(client: TestClient) -> None:
    made = client.post("/api/rooms", json={"game": "zeta", "seats": [{"kind": "open"}, {"kind": "bot", "spec": "random"}],
                                           "rules": {"first_player": "p1"}}).json()
    room = made["room"]["id"]
    assert client.post(f"/api/rooms/{room}/join", json={"name": "Aki"}).status_code < 400
    playing = {g["room"]: g for g in client.get("/api/lobby").json()["playing"]}
    moved = datetime.fromisoformat(playing[room]["updated_at"])
    assert abs(moved - datetime.now(UTC)) < timedelta(minutes=5)
    # a room whose players went away reads so (the store keeps when the room last changed)
    store = app_store(client)
    with store.transaction() as conn:
        conn.execute(update(RoomRow).where(RoomRow.id == room).values(updated_at=datetime(2020, 1, 1, tzinfo=UTC)))
    playing = {g["room"]: g for g in client.get("/api/lobby").json()["playing"]}
    assert datetime.fromisoformat(playing[room]["updated_at"]) == datetime(2020, 1, 1, tzinfo=UTC)
    assert all(g["updated_at"] is None for g in client.get("/api/lobby").json()["finished"])
