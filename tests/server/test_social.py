"""My games, friends and presence, blocks, invites and notifications, the lobby, and "play now" pairing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from server_support import new_app
from social_support import app_store, person, receive_until
from sqlalchemy import select, update

from cardtable.store import Store
from cardtable.store.social_models import QueueRow


def wait(store: Store, account: str, seconds: int) -> None:
    """Pretend an account joined the queue ``seconds`` earlier."""
    with store.transaction() as conn:
        joined = conn.execute(select(QueueRow.joined_at).where(QueueRow.account_id == account)).scalar_one()
        conn.execute(update(QueueRow).where(QueueRow.account_id == account)
                     .values(joined_at=joined - timedelta(seconds=seconds)))


@pytest.fixture
def client(sqlite_db: str) -> Iterator[TestClient]:
    with TestClient(new_app(sqlite_db)) as c:
        yield c


def test_my_games_lists_the_games_waiting_for_my_move_first(client: TestClient) -> None:
    store = app_store(client)
    _ann, ann = person(store, "Ann")
    assert client.get("/api/account/games").status_code == 401
    rooms = []
    for _ in range(2):
        room = client.post("/api/rooms", json={"game": "zeta", "clock": {"kind": "turn", "move_s": 3600}}).json()
        rid = room["room"]["id"]
        mine = client.post(f"/api/rooms/{rid}/join", json={"name": "x"}, headers=ann).json()
        client.post(f"/api/rooms/{rid}/join", json={"name": "Bob"})
        rooms.append((rid, mine["seat"], mine["room"]["to_move"]))
    listed = client.get("/api/account/games", headers=ann).json()
    assert {g["room"] for g in listed["games"]} == {r for r, _, _ in rooms}
    waiting = [r for r, seat, to_move in rooms if seat == to_move]
    assert listed["my_turn"] == len(waiting)
    assert [g["room"] for g in listed["games"][:len(waiting)]] == waiting or len(waiting) == 2
    first = listed["games"][0]
    assert first["opponents"][0]["name"] == "Bob" and first["clock"] == "turn"
    if first["my_turn"]:
        assert first["deadline_at"] is not None
    assert client.get("/api/account/games/count", headers=ann).json() == {"my_turn": len(waiting),
                                                                         "notifications": 0}


def test_a_friend_request_acceptance_and_an_invite_the_friend_follows_into_the_seat(client: TestClient) -> None:
    store = app_store(client)
    ann_id, ann = person(store, "Ann")
    bob_id, bob = person(store, "Bob")
    assert client.post("/api/account/friends", json={"name": "BOB"}, headers=ann).json() == {"state": "sent"}
    notes = client.get("/api/account/notifications", headers=bob).json()
    assert notes["unread"] == 1 and notes["notifications"][0]["kind"] == "friend_request"
    assert [f["state"] for f in client.get("/api/account/friends", headers=bob).json()["friends"]] == ["received"]
    assert client.post(f"/api/account/friends/{ann_id}/accept", headers=bob).json() == {"state": "friends"}
    assert client.get("/api/account/friends", headers=bob).json()["friends"][0]["online"] is False
    client.get("/api/account/games/count", headers=ann)  # her browser polls: she is online
    friends = client.get("/api/account/friends", headers=bob).json()["friends"]
    assert friends[0]["name"] == "Ann" and friends[0]["state"] == "friends" and friends[0]["online"] is True
    room = client.post("/api/rooms", json={"game": "zeta"}, headers=ann).json()["room"]["id"]
    t1 = client.post(f"/api/rooms/{room}/join", json={"name": "x"}, headers=ann).json()["token"]
    ws = client.websocket_connect(f"/api/rooms/{room}/ws", headers=ann).__enter__()
    ws.send_json({"type": "hello", "token": t1})
    receive_until(ws, "state")
    seen = client.get("/api/account/friends", headers=bob).json()["friends"][0]
    assert (seen["room"], seen["game"]) == (room, "zeta")  # Ann is in her room
    assert client.post(f"/api/account/friends/{ann_id}/invite", json={"room": room}, headers=bob).status_code == 204
    assert client.post(f"/api/account/friends/{bob_id}/invite", json={"room": room}, headers=ann).status_code == 204
    invite = client.get("/api/account/notifications", headers=bob).json()["notifications"][0]
    assert invite["kind"] == "invite" and invite["data"]["url"] == f"/rooms/{room}" and invite["data"]["seat"] == 1
    joined = client.post(f"/api/rooms/{room}/join", json={"name": "x", "seat": invite["data"]["seat"]}, headers=bob)
    assert joined.json()["room"]["seats"][1]["account"] == bob_id
    assert client.post(f"/api/account/friends/{bob_id}/invite", json={"room": room}, headers=ann).json()[
        "error"]["code"] == "seat_taken"
    ws.__exit__(None, None, None)
    assert client.post("/api/account/notifications/read", json={"upto": invite["id"]}, headers=bob).status_code == 204
    assert client.get("/api/account/games/count", headers=bob).json()["notifications"] == 0
    assert client.delete(f"/api/account/friends/{ann_id}", headers=bob).status_code == 204
    assert client.get("/api/account/friends", headers=ann).json()["friends"] == []


def test_a_blocked_player_cannot_befriend_invite_or_be_paired(client: TestClient) -> None:
    store = app_store(client)
    ann_id, ann = person(store, "Ann")
    bob_id, bob = person(store, "Bob")
    client.post("/api/account/friends", json={"account": bob_id}, headers=ann)
    client.post(f"/api/account/friends/{ann_id}/accept", headers=bob)
    assert client.put(f"/api/account/blocks/{bob_id}", headers=ann).status_code == 204
    assert client.get("/api/account/friends", headers=bob).json()["friends"] == []  # the friendship ended
    refused = client.post("/api/account/friends", json={"account": ann_id}, headers=bob)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "blocked"
    room = client.post("/api/rooms", json={"game": "zeta"}).json()["room"]["id"]
    assert client.post(f"/api/account/friends/{ann_id}/invite", json={"room": room},
                       headers=bob).json()["error"]["code"] == "blocked"
    for headers in (ann, bob):
        assert client.post("/api/play-now", json={"game": "zeta"}, headers=headers).json()["status"] == "waiting"
    assert client.get("/api/play-now", headers=bob).json()["status"] == "waiting"
    assert client.put(f"/api/account/blocks/{ann_id}", headers=ann).json()["error"]["code"] == "no_such_player"


def test_two_players_in_the_queue_are_paired_into_a_rated_room_and_play(client: TestClient) -> None:
    store = app_store(client)
    ann_id, ann = person(store, "Ann")
    bob_id, bob = person(store, "Bob")
    assert client.post("/api/play-now", json={"game": "zeta", "bot_after_s": 30},
                       headers=ann).json()["status"] == "waiting"
    paired_bob = client.post("/api/play-now", json={"game": "zeta"}, headers=bob).json()
    assert paired_bob["status"] == "paired" and paired_bob["token"]
    paired_ann = client.get("/api/play-now", headers=ann).json()
    assert paired_ann["status"] == "paired" and paired_ann["room"] == paired_bob["room"]
    assert client.get("/api/play-now", headers=ann).json()["status"] == "none"  # the token is handed over once
    room = client.get(f"/api/rooms/{paired_ann['room']}").json()
    assert room["rated"] and room["status"] == "playing" and not room["private"]
    assert {s["account"] for s in room["seats"]} == {ann_id, bob_id}
    kinds = [n["kind"] for n in client.get("/api/account/notifications", headers=ann).json()["notifications"]]
    assert kinds == ["paired"]
    mover = room["to_move"]
    token = paired_ann["token"] if paired_ann["seat"] == mover else paired_bob["token"]
    ws = client.websocket_connect(f"/api/rooms/{room['id']}/ws").__enter__()
    ws.send_json({"type": "hello", "token": token})
    state = receive_until(ws, "state")
    ws.send_json({"type": "action", "action": state["legal"][0], "version": state["version"]})
    assert receive_until(ws, "accepted")["version"] == 1
    ws.__exit__(None, None, None)
    lobby = client.get("/api/lobby").json()
    assert [g["room"] for g in lobby["playing"]] == [room["id"]] and lobby["online"] == 2


def test_the_window_widens_with_waiting_and_a_bot_is_offered_after_the_chosen_time(client: TestClient) -> None:
    store = app_store(client)
    _ann_id, ann = person(store, "Ann")
    _bob_id, bob = person(store, "Bob")
    client.post("/api/play-now", json={"game": "zeta", "bot_after_s": 20}, headers=ann)
    with store.transaction() as conn:  # Ann is far better rated than Bob
        conn.execute(update(QueueRow).where(QueueRow.account_id == _ann_id).values(rating=20.0))
    assert client.post("/api/play-now", json={"game": "zeta"}, headers=bob).json()["status"] == "waiting"
    early = client.post("/api/play-now/bot", headers=ann)
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_queued"
    wait(store, _ann_id, 30)  # Ann has waited 30 s: a window of 6 is not yet 20 wide
    status = client.get("/api/play-now", headers=ann).json()
    assert status["status"] == "waiting" and status["bot_offered"] and status["window"] == pytest.approx(6.0, abs=0.1)
    wait(store, _bob_id, 180)  # Bob has waited three minutes: his window (21) reaches her
    assert client.get("/api/play-now", headers=bob).json()["status"] == "paired"
    client.post("/api/play-now", json={"game": "zeta", "bot_after_s": 5}, headers=ann)
    wait(store, _ann_id, 10)
    bot = client.post("/api/play-now/bot", headers=ann).json()
    assert bot["status"] == "paired" and bot["token"]
    room = client.get(f"/api/rooms/{bot['room']}", headers={"Authorization": f"Bearer {bot['token']}"}).json()
    assert not room["rated"] and [s["status"] for s in room["seats"]] == ["taken", "bot"]
    assert client.delete("/api/play-now", headers=ann).status_code == 204


def test_the_lobby_shows_finished_games_and_is_open_to_guests(client: TestClient) -> None:
    from ratings_support import play_out

    room = client.post("/api/rooms", json={"game": "zeta"}).json()["room"]["id"]
    tokens = {i: client.post(f"/api/rooms/{room}/join", json={"name": f"N{i}"}).json()["token"] for i in range(2)}
    play_out(client, room, tokens)
    lobby = client.get("/api/lobby").json()
    assert lobby["playing"] == [] and lobby["finished"][0]["room"] == room
    assert lobby["finished"][0]["url"] == f"/api/rooms/{room}/records/1"
