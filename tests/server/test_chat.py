"""Chat at the table: seated players and spectators talk over the room's socket; text is stored as typed
(shown as text by the pages), checked, rate-limited, muted, switched off for spectators, reported, and kept
in the finished game's record."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_support import new_app
from social_support import app_store, person, play_through, receive_until
from typer.testing import CliRunner

from cardtable.store import social

XSS = '<img src=x onerror="alert(1)"><script>alert(2)</script>'


@pytest.fixture
def client(sqlite_db: str) -> Iterator[TestClient]:
    with TestClient(new_app(sqlite_db, chat_rate="5 per 10 seconds")) as c:
        yield c


def zeta_room(client: TestClient, **extra: Any) -> tuple[str, str, str]:
    """A Zeta room with two guests seated: the room and both tokens."""
    room = client.post("/api/rooms", json={"game": "zeta", **extra}).json()["room"]["id"]
    t1 = client.post(f"/api/rooms/{room}/join", json={"name": "Ann"}).json()["token"]
    t2 = client.post(f"/api/rooms/{room}/join", json={"name": "Bob"}).json()["token"]
    return room, t1, t2


def hello(client: TestClient, room: str, token: str | None, headers: dict[str, str] | None = None) -> Any:
    ws = client.websocket_connect(f"/api/rooms/{room}/ws", headers=headers or {}).__enter__()
    ws.send_json({"type": "hello", "token": token})
    assert ws.receive_json()["type"] == "welcome"
    assert ws.receive_json()["type"] == "state"
    return ws


def test_two_players_and_a_spectator_chat_and_the_text_comes_back_as_typed(client: TestClient) -> None:
    room, t1, t2 = zeta_room(client)
    ann, bob, watcher = hello(client, room, t1), hello(client, room, t2), hello(client, room, None)
    ann.send_json({"type": "chat", "text": XSS})
    for ws in (ann, bob, watcher):
        said = receive_until(ws, "chat")
        assert said["text"] == XSS  # plain text: the page shows it with textContent, never as HTML
        assert (said["seat"], said["label"], said["name"], said["account"]) == (0, "P1 Ann", "Ann", None)
        assert set(said) == {"type", "id", "seat", "label", "name", "account", "text", "at"}
    watcher.send_json({"type": "chat", "text": "nice move"})
    said = receive_until(bob, "chat")
    assert (said["seat"], said["label"]) == (None, "Spectator")
    for ws in (ann, bob, watcher):
        ws.__exit__(None, None, None)
    again = client.websocket_connect(f"/api/rooms/{room}/ws").__enter__()
    again.send_json({"type": "hello", "token": t2})
    kinds = [again.receive_json()["type"] for _ in range(3)]
    assert kinds == ["welcome", "state", "chat_log"]
    again.__exit__(None, None, None)
    lines = social.recent_chat(app_store(client), room)
    assert [line.text for line in lines] == [XSS, "nice move"]


def test_a_message_is_plain_text_of_at_most_500_characters_without_control_characters(client: TestClient) -> None:
    room, t1, _t2 = zeta_room(client)
    ws = hello(client, room, t1)
    for text, code in (("x" * 501, "bad_message"), ("", "bad_message"), ("hi\u0007", "bad_chat"),
                       ("line\nbreak", "bad_chat"), ("   ", "bad_chat"), ("\u2028", "bad_chat")):
        ws.send_json({"type": "chat", "text": text, "ref": 7})
        error = receive_until(ws, "error")
        assert error["code"] == code, text
    ws.send_json({"type": "chat", "text": 5})
    assert receive_until(ws, "error")["code"] == "bad_message"
    ws.send_json({"type": "chat", "text": "x" * 500})
    assert len(receive_until(ws, "chat")["text"]) == 500
    ws.__exit__(None, None, None)


def test_chat_flooding_is_refused_with_rate_limited(client: TestClient) -> None:
    room, t1, _t2 = zeta_room(client)
    ws = hello(client, room, t1)
    answers = []
    for i in range(7):
        ws.send_json({"type": "chat", "text": f"spam {i}"})
        answers.append(ws.receive_json())
    assert [a["type"] for a in answers] == ["chat"] * 5 + ["error"] * 2
    assert answers[-1]["code"] == "rate_limited"
    ws.__exit__(None, None, None)


def test_the_owner_switches_spectator_chat_off_and_players_still_chat(client: TestClient) -> None:
    room, t1, t2 = zeta_room(client)
    refused = client.post(f"/api/rooms/{room}/chat/settings", json={"spectators": False},
                          headers={"Authorization": f"Bearer {t2}"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_owner"
    watcher, bob = hello(client, room, None), hello(client, room, t2)
    done = client.post(f"/api/rooms/{room}/chat/settings", json={"spectators": False},
                       headers={"Authorization": f"Bearer {t1}"})  # a guest's room: the first seat owns it
    assert done.status_code == 200 and done.json()["spectator_chat"] is False
    assert receive_until(watcher, "room")["room"]["spectator_chat"] is False
    watcher.send_json({"type": "chat", "text": "hello?"})
    assert receive_until(watcher, "error")["code"] == "chat_off"
    bob.send_json({"type": "chat", "text": "gg"})
    assert receive_until(watcher, "chat")["text"] == "gg"  # spectators still read the players
    for ws in (watcher, bob):
        ws.__exit__(None, None, None)


def test_a_signed_in_creator_owns_the_room(client: TestClient) -> None:
    store = app_store(client)
    owner, headers = person(store, "Owner")
    room = client.post("/api/rooms", json={"game": "zeta", "spectator_chat": False}, headers=headers).json()["room"]
    assert room["owner"] == owner and room["spectator_chat"] is False
    t1 = client.post(f"/api/rooms/{room['id']}/join", json={"name": "Ann"}).json()["token"]
    refused = client.post(f"/api/rooms/{room['id']}/chat/settings", json={"spectators": True},
                          headers={"Authorization": f"Bearer {t1}"})
    assert refused.json()["error"]["code"] == "not_owner"
    assert client.post(f"/api/rooms/{room['id']}/chat/settings", json={"spectators": True},
                       headers=headers).json()["spectator_chat"] is True


def test_a_muted_or_blocked_account_is_not_heard(client: TestClient) -> None:
    store = app_store(client)
    ann, ann_h = person(store, "Ann")
    bob, bob_h = person(store, "Bob")
    room = client.post("/api/rooms", json={"game": "zeta"}).json()["room"]["id"]
    t1 = client.post(f"/api/rooms/{room}/join", json={"name": "x"}, headers=ann_h).json()["token"]
    t2 = client.post(f"/api/rooms/{room}/join", json={"name": "x"}, headers=bob_h).json()["token"]
    a, b = hello(client, room, t1, ann_h), hello(client, room, t2, bob_h)
    assert client.put(f"/api/account/mutes/{bob}", headers=ann_h).status_code == 204
    assert [p["name"] for p in client.get("/api/account/mutes", headers=ann_h).json()["accounts"]] == ["Bob"]
    b.send_json({"type": "chat", "text": "muted words"})
    assert receive_until(b, "chat")["account"] == bob
    a.send_json({"type": "chat", "text": "can you hear me"})
    first = receive_until(a, "chat")
    assert first["text"] == "can you hear me"  # Bob's line never reached Ann: hers is the first chat she gets
    assert receive_until(b, "chat")["text"] == "can you hear me"
    assert client.delete(f"/api/account/mutes/{bob}", headers=ann_h).status_code == 204
    assert client.put(f"/api/account/blocks/{ann}", headers=bob_h).status_code == 204
    a.send_json({"type": "chat", "text": "blocked words"})
    assert receive_until(a, "chat")["text"] == "blocked words"
    b.send_json({"type": "chat", "text": "after the block"})
    assert receive_until(b, "chat")["text"] == "after the block"  # Ann's line never reached Bob
    for ws in (a, b):
        ws.__exit__(None, None, None)


def test_a_reported_message_is_listed_by_cardtable_admin_reports(client: TestClient, sqlite_db: str) -> None:
    from cardtable.cli.main import app as cli

    room, t1, t2 = zeta_room(client)
    ws = hello(client, room, t1)
    ws.send_json({"type": "chat", "text": "rude words"})
    message = receive_until(ws, "chat")
    ws.__exit__(None, None, None)
    answer = client.post(f"/api/rooms/{room}/chat/{message['id']}/report", json={"reason": "rude"},
                         headers={"Authorization": f"Bearer {t2}"})
    assert answer.status_code == 201, answer.text
    missing = client.post(f"/api/rooms/{room}/chat/{message['id'] + 99}/report", json={})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_such_message"
    result = CliRunner().invoke(cli, ["admin", "reports", "--db", sqlite_db], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    assert "rude words" in result.output and f"seat:{room}:1" in result.output


def test_the_finished_game_record_keeps_its_chat(client: TestClient) -> None:
    room, t1, t2 = zeta_room(client)
    ws = hello(client, room, t1)
    ws.send_json({"type": "chat", "text": "have fun"})
    receive_until(ws, "chat")
    ws.__exit__(None, None, None)
    play_through(client, room, {0: t1, 1: t2})
    record = client.get(f"/api/rooms/{room}/records/1").json()
    assert [(c["label"], c["text"]) for c in record["meta"]["chat"]] == [("P1 Ann", "have fun")]
