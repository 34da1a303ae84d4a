"""Accounts over HTTP: sign-up, sign-in, sign-out, the own account, password change, deletion, joining and claiming."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_support import new_app

from cardtable.store import Store

CHEAP = {"argon2_memory_kib": 1024, "argon2_time_cost": 1}
"""Cheap argon2 parameters: these tests hash many passwords."""
ORIGIN = "http://testserver"


@pytest.fixture
def client(sqlite_db: str) -> Iterator[TestClient]:
    with TestClient(new_app(sqlite_db, **CHEAP)) as c:
        yield c


@pytest.fixture
def any_client(db_url: str) -> Iterator[TestClient]:
    """A client of a server over SQLite, then (where configured) over PostgreSQL."""
    with TestClient(new_app(db_url, **CHEAP)) as c:
        yield c


def error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()["error"]
    assert body["code"] == code, body
    return body


def signup(client: TestClient, name: str = "Alice", password: str = "correct horse") -> dict[str, Any]:
    response = client.post("/api/account/signup", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    out: dict[str, Any] = response.json()
    return out


def csrf(body: dict[str, Any]) -> dict[str, str]:
    return {"X-CSRF-Token": body["csrf"]}


def create_room(client: TestClient, headers: dict[str, str] | None = None, **body: Any) -> dict[str, Any]:
    response = client.post("/api/rooms", json={"game": "zeta", "seats": [{"kind": "open"}, {"kind": "open"}], **body},
                           headers=headers)
    assert response.status_code == 201, response.text
    out: dict[str, Any] = response.json()["room"]
    return out


# -- sign-up, sign-in, sign-out -----------------------------------------------------------------------
def test_sign_up_signs_in_and_me_shows_the_account(client: TestClient) -> None:
    made = signup(client, "  Alice   Liddell ")
    assert made["account"]["name"] == "Alice Liddell" and set(made["account"]) == {"id", "name", "created_at"}
    assert client.cookies.get("cardtable_session")
    me = client.get("/api/account/me").json()
    assert me["account"] == made["account"] and me["csrf"] == made["csrf"]
    assert me["passkeys"] == [] and me["has_password"] is True


def test_names_are_unique_after_folding_and_checked(any_client: TestClient) -> None:
    client = any_client
    signup(client, "Alice")
    other = TestClient(client.app)
    for taken in ("alice", "ＡＬＩＣＥ", " ALICE "):
        error(other.post("/api/account/signup", json={"name": taken, "password": "12345678"}), 409, "name_taken")
    for bad in ("", "   ", "x" * 33, "a\tb", "deleted player", "(open)"):
        error(other.post("/api/account/signup", json={"name": bad, "password": "12345678"}), 400, "bad_name")
    for weak in ("1234567", "x" * 257):
        error(other.post("/api/account/signup", json={"name": "Bob", "password": weak}), 400, "weak_password")
    assert other.post("/api/account/signup", json={"name": "x" * 32, "password": "x" * 256}).status_code == 201


def test_sign_in_and_out(any_client: TestClient) -> None:
    client = any_client
    made = signup(client)
    assert client.post("/api/account/signout", headers=csrf(made)).status_code == 204
    assert not client.cookies.get("cardtable_session")
    error(client.get("/api/account/me"), 401, "not_signed_in")
    again = client.post("/api/account/signin", json={"name": "ALICE", "password": "correct horse"})
    assert again.status_code == 200 and again.json()["account"] == made["account"]
    assert again.json()["csrf"] != made["csrf"]
    assert client.get("/api/account/me").json()["account"]["name"] == "Alice"


def test_signed_out_cookie_no_longer_works(client: TestClient) -> None:
    made = signup(client)
    cookie = client.cookies.get("cardtable_session")
    client.post("/api/account/signout", headers=csrf(made))
    thief = TestClient(client.app, cookies={"cardtable_session": cookie or ""})
    error(thief.get("/api/account/me"), 401, "not_signed_in")


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(client: TestClient) -> None:
    signup(client)
    stranger = TestClient(client.app)
    wrong = stranger.post("/api/account/signin", json={"name": "Alice", "password": "wrong password"})
    unknown = stranger.post("/api/account/signin", json={"name": "Nobody", "password": "wrong password"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert wrong.json()["error"]["code"] == "bad_credentials"
    assert "set-cookie" not in wrong.headers


def test_the_eleventh_wrong_password_in_a_minute_is_rate_limited(client: TestClient) -> None:
    signup(client)
    stranger = TestClient(client.app)
    for _ in range(10):
        error(stranger.post("/api/account/signin", json={"name": "Alice", "password": "guess guess"}), 401,
              "bad_credentials")
    refused = stranger.post("/api/account/signin", json={"name": "alice", "password": "correct horse"})
    error(refused, 429, "rate_limited")
    assert int(refused.headers["Retry-After"]) > 0
    # another name from the same address still gets its own answer (the address allows 30)
    error(stranger.post("/api/account/signin", json={"name": "Bob", "password": "guess guess"}), 401,
          "bad_credentials")


def test_the_thirty_first_failure_from_one_address_is_rate_limited(client: TestClient) -> None:
    stranger = TestClient(client.app)
    for i in range(30):
        error(stranger.post("/api/account/signin", json={"name": f"n{i}", "password": "guess guess"}), 401,
              "bad_credentials")
    error(stranger.post("/api/account/signin", json={"name": "fresh", "password": "guess guess"}), 429, "rate_limited")


def test_a_disabled_account_cannot_sign_in_with_the_same_answer(client: TestClient, sqlite_db: str) -> None:
    from cardtable.store.accounts import Accounts
    from cardtable.store.models import AccountStatus

    made = signup(client)
    Accounts(Store.open(sqlite_db)).set_status("alice", AccountStatus.DISABLED)
    error(client.get("/api/account/me"), 401, "not_signed_in")
    answer = client.post("/api/account/signin", json={"name": "Alice", "password": "correct horse"})
    error(answer, 401, "bad_credentials")
    assert answer.json()["error"]["message"] == client.post(
        "/api/account/signin", json={"name": "Zed", "password": "correct horse"}).json()["error"]["message"]
    assert made


# -- password, deletion ---------------------------------------------------------------------------------
def test_changing_the_password_ends_the_other_sessions(client: TestClient) -> None:
    made = signup(client)
    phone = TestClient(client.app)
    phone.post("/api/account/signin", json={"name": "Alice", "password": "correct horse"})
    assert phone.get("/api/account/me").status_code == 200
    error(client.post("/api/account/password", json={"current": "nope nope", "new": "battery staple"},
                      headers=csrf(made)), 401, "bad_credentials")
    error(client.post("/api/account/password", json={"current": "correct horse", "new": "short"},
                      headers=csrf(made)), 400, "weak_password")
    assert client.post("/api/account/password", json={"current": "correct horse", "new": "battery staple"},
                       headers=csrf(made)).status_code == 204
    assert client.get("/api/account/me").status_code == 200
    error(phone.get("/api/account/me"), 401, "not_signed_in")
    stranger = TestClient(client.app)
    error(stranger.post("/api/account/signin", json={"name": "Alice", "password": "correct horse"}), 401,
          "bad_credentials")
    assert stranger.post("/api/account/signin", json={"name": "Alice", "password": "battery staple"}).status_code == 200


def test_deleting_an_account_keeps_its_games_under_deleted_player(any_client: TestClient) -> None:
    client = any_client
    made = signup(client)
    room = create_room(client, csrf(made))
    joined = client.post(f"/api/rooms/{room['id']}/join", json={"name": "ignored"}, headers=csrf(made))
    assert joined.status_code == 200, joined.text
    error(client.post("/api/account/delete", json={"password": "wrong one"}, headers=csrf(made)), 401,
          "bad_credentials")
    assert client.post("/api/account/delete", json={"password": "correct horse"}, headers=csrf(made)).status_code == 204
    error(client.get("/api/account/me"), 401, "not_signed_in")
    seats = client.get(f"/api/rooms/{room['id']}").json()["seats"]
    assert seats[0]["name"] == "deleted player" and seats[0]["account"] == made["account"]["id"]
    info = client.app.state.services.store.room(room["id"])
    assert [s.name for s in info.sittings] == ["deleted player"]
    # the name is free again; the old password signs nobody in
    error(client.post("/api/account/signin", json={"name": "Alice", "password": "correct horse"}), 401,
          "bad_credentials")
    assert signup(client, "Alice")["account"]["id"] != made["account"]["id"]


# -- seats ---------------------------------------------------------------------------------------------
def test_joining_signed_in_stores_the_account_and_its_name(client: TestClient) -> None:
    made = signup(client, "Alice the Thirty-Two Char Name!!")
    room = create_room(client, csrf(made))
    joined = client.post(f"/api/rooms/{room['id']}/join", json={"name": "Mallory"}, headers=csrf(made)).json()
    seat = joined["room"]["seats"][joined["seat"]]
    assert seat["name"] == "Alice the Thirty-Two Char Name!!" and seat["account"] == made["account"]["id"]
    guest = TestClient(client.app).post(f"/api/rooms/{room['id']}/join", json={"name": "Bob"}).json()
    assert guest["room"]["seats"][guest["seat"]]["account"] is None


def test_a_rated_room_refuses_a_guest(client: TestClient) -> None:
    room = create_room(client, rated=True)
    guest = TestClient(client.app)
    error(guest.post(f"/api/rooms/{room['id']}/join", json={"name": "Bob"}), 403, "needs_account")
    made = signup(guest, "Bob")
    assert guest.post(f"/api/rooms/{room['id']}/join", json={"name": "Bob"}, headers=csrf(made)).status_code == 200
    # one account, one seat of a rated room (nobody plays both sides of a rated game)
    error(guest.post(f"/api/rooms/{room['id']}/join", json={"name": "Bob"}, headers=csrf(made)), 409, "seat_taken")


def test_a_guest_who_signs_up_claims_their_seats_and_games(any_client: TestClient) -> None:
    client = any_client
    room = create_room(client)
    mine = client.post(f"/api/rooms/{room['id']}/join", json={"name": "Guest"}).json()["token"]
    other = TestClient(client.app).post(f"/api/rooms/{room['id']}/join", json={"name": "Other"}).json()["token"]
    made = signup(client, "Carol")
    error(TestClient(client.app).post("/api/account/claim", json={"tokens": [mine]}), 401, "not_signed_in")
    answer = client.post("/api/account/claim", json={"tokens": [mine, "not-a-token", mine]}, headers=csrf(made))
    assert answer.status_code == 200 and answer.json() == {"claimed": 1}
    info = client.app.state.services.store.room(room["id"])
    assert [(s.name, s.account_id) for s in info.seats] == [("Guest", made["account"]["id"]), ("Other", None)]
    assert [(s.name, s.account_id) for s in info.sittings] == [("Guest", made["account"]["id"]), ("Other", None)]
    # a token already claimed, or another's claimed seat, is not claimed again
    assert client.post("/api/account/claim", json={"tokens": [mine]}, headers=csrf(made)).json() == {"claimed": 0}
    assert other


def test_claiming_walks_back_through_rematches_but_not_past_a_new_sitter(sqlite_db: str) -> None:
    from cardtable.store import LeavePolicy, SeatStatus
    from cardtable.store.accounts import Accounts

    store = Store.open(sqlite_db, durable=False)
    accounts = Accounts(store)
    room = store.create_room(game="zeta", title="", rules={}, rules_version=1, setup={}, private=False,
                             invite_hash=None, on_leave=LeavePolicy.REOPEN, leave_bot="",
                             seats=[(SeatStatus.OPEN, "human"), (SeatStatus.BOT, "random")], seed=1, to_move=0)
    store.join(room.id, 0, "Sam", "a" * 64)  # an earlier guest with the same name
    store.leave(room.id, "a" * 64)
    store.join(room.id, 0, "Sam", "b" * 64)
    store.append_action(room.id, 1, 0, 0, "pass", to_move=None, record={}, outcome={})
    store.rematch(room.id, 1, 2, 0)
    alice = accounts.create("Alice", None)
    assert accounts.claim(alice.id, ["b" * 64]) == [room.id]
    with store.engine.connect() as conn:
        from sqlalchemy import select

        from cardtable.store.models import SittingRow

        rows = conn.execute(select(SittingRow.game_no, SittingRow.seat, SittingRow.account_id)
                            .where(SittingRow.seat == 0).order_by(SittingRow.id)).all()
    assert [tuple(r) for r in rows] == [(1, 0, None), (1, 0, alice.id), (2, 0, alice.id)]


def test_signing_in_again_ends_the_browsers_previous_session(client: TestClient) -> None:
    signup(client)
    before = client.cookies.get("cardtable_session") or ""
    assert client.post("/api/account/signin", json={"name": "Alice", "password": "correct horse"}).status_code == 200
    assert client.cookies.get("cardtable_session") not in (None, before)
    error(TestClient(client.app, cookies={"cardtable_session": before}).get("/api/account/me"), 401, "not_signed_in")
    assert client.get("/api/account/me").status_code == 200
