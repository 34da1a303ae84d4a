"""The account layer's security: passwords never in clear, the cookie's flags, the CSRF rule, private data kept private."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_support import new_app
from test_accounts import CHEAP, ORIGIN, create_room, csrf, error, signup

PASSWORD = "Sup3r-secret passphrase"


@pytest.fixture
def client(sqlite_db: str) -> Iterator[TestClient]:
    with TestClient(new_app(sqlite_db, **CHEAP)) as c:
        yield c


def set_cookie(response: Any) -> str:
    cookies = [v for k, v in response.headers.multi_items() if k == "set-cookie" and v.startswith("cardtable_session=")]
    assert len(cookies) == 1, response.headers
    return cookies[0]


# -- passwords -----------------------------------------------------------------------------------------
def test_a_password_is_never_stored_or_logged_in_clear(client: TestClient, sqlite_db: str,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    made = signup(client, "Alice", PASSWORD)
    client.post("/api/account/password", json={"current": PASSWORD, "new": PASSWORD + "2"}, headers=csrf(made))
    TestClient(client.app).post("/api/account/signin", json={"name": "Alice", "password": PASSWORD})
    client.app.state.services.store.close()  # flush SQLite's journal into the file
    files = list(Path(sqlite_db.removeprefix("sqlite:///")).parent.glob("rooms.db*"))
    data = b"".join(f.read_bytes() for f in files)
    assert data and PASSWORD.encode() not in data
    assert re.search(rb"\$argon2id\$v=19\$m=1024,t=1,p=4\$", data)
    assert caplog.records and PASSWORD not in caplog.text


def test_the_default_hash_is_argon2id_with_the_documented_parameters() -> None:
    from cardtable.server.credentials import Passwords

    assert Passwords().hash(PASSWORD).startswith("$argon2id$v=19$m=65536,t=3,p=4$")


# -- the cookie ----------------------------------------------------------------------------------------
def test_the_session_cookie_is_httponly_lax_and_not_secure_over_http(client: TestClient) -> None:
    response = client.post("/api/account/signup", json={"name": "Alice", "password": PASSWORD})
    cookie = set_cookie(response)
    value = cookie.split(";")[0].split("=", 1)[1]
    assert len(value) >= 43  # 256 random bits, URL-safe
    flags = [part.strip() for part in cookie.split(";")[1:]]
    assert "HttpOnly" in flags and "SameSite=Lax" in flags and "Path=/" in flags
    assert f"Max-Age={30 * 24 * 3600}" in flags and "Secure" not in flags


@pytest.mark.parametrize("how", ["scheme", "forwarded", "setting"])
def test_the_session_cookie_is_secure_under_https(sqlite_db: str, how: str) -> None:
    changes: dict[str, Any] = {"secure_cookies": True} if how == "setting" else {}
    base = "https://testserver" if how == "scheme" else "http://testserver"
    headers = {"X-Forwarded-Proto": "https"} if how == "forwarded" else {}
    with TestClient(new_app(sqlite_db, **CHEAP, **changes), base_url=base) as client:
        response = client.post("/api/account/signup", json={"name": "Alice", "password": PASSWORD}, headers=headers)
        assert response.status_code == 201
        assert "Secure" in [p.strip() for p in set_cookie(response).split(";")]


def test_signing_out_clears_the_cookie(client: TestClient) -> None:
    made = signup(client)
    cookie = set_cookie(client.post("/api/account/signout", headers=csrf(made)))
    assert cookie.startswith("cardtable_session=;") and "Max-Age=0" in cookie


# -- CSRF ----------------------------------------------------------------------------------------------
def test_a_cross_site_post_with_the_cookie_is_refused(client: TestClient) -> None:
    made = signup(client)
    room = create_room(client, csrf(made))
    evil = {"Origin": "https://evil.example", **csrf(made)}
    error(client.post(f"/api/rooms/{room['id']}/join", json={"name": "x"}, headers=evil), 403, "csrf")
    error(client.post("/api/account/signout", headers=evil), 403, "csrf")
    error(client.post("/api/account/signout", headers={"Origin": "null", **csrf(made)}), 403, "csrf")
    assert client.get("/api/account/me").status_code == 200  # still signed in


def test_a_post_with_the_cookie_and_no_csrf_token_is_refused(client: TestClient) -> None:
    made = signup(client)
    room = create_room(client, csrf(made))
    for headers in ({}, {"X-CSRF-Token": "wrong"}, {"X-CSRF-Token": made["csrf"][:-1]}, {"Origin": ORIGIN}):
        error(client.post(f"/api/rooms/{room['id']}/join", json={"name": "x"}, headers=headers), 403, "csrf")
        error(client.post("/api/rooms", json={"game": "zeta", "seats": [{"kind": "open"}, {"kind": "open"}]},
                          headers=headers), 403, "csrf")
        error(client.post("/api/account/delete", json={"password": "correct horse"}, headers=headers), 403, "csrf")
        error(client.post("/api/account/password", json={"current": "correct horse", "new": "x" * 9},
                          headers=headers), 403, "csrf")
    assert client.get("/api/account/me").status_code == 200
    ok = client.post(f"/api/rooms/{room['id']}/join", json={"name": "x"}, headers={"Origin": ORIGIN, **csrf(made)})
    assert ok.status_code == 200


def test_guests_need_no_csrf_token_and_sign_in_checks_the_origin(client: TestClient) -> None:
    room = create_room(client)
    assert client.post(f"/api/rooms/{room['id']}/join", json={"name": "Guest"}).status_code == 200
    error(client.post("/api/account/signup", json={"name": "Alice", "password": PASSWORD},
                      headers={"Origin": "https://evil.example"}), 403, "csrf")
    assert client.post("/api/account/signup", json={"name": "Alice", "password": PASSWORD},
                       headers={"Origin": ORIGIN}).status_code == 201
    stranger = TestClient(client.app)
    error(stranger.post("/api/account/signin", json={"name": "Alice", "password": PASSWORD},
                        headers={"Origin": "http://testserver.evil.example"}), 403, "csrf")


def test_a_stale_cookie_is_cleared_and_carries_no_authority(client: TestClient) -> None:
    stale = TestClient(client.app, cookies={"cardtable_session": "x" * 43})
    room = create_room(stale)
    joined = stale.post(f"/api/rooms/{room['id']}/join", json={"name": "Guest"})
    assert joined.status_code == 200 and joined.json()["room"]["seats"][0]["account"] is None
    assert "Max-Age=0" in set_cookie(joined)


def test_a_trusted_origin_may_post(sqlite_db: str) -> None:
    with TestClient(new_app(sqlite_db, **CHEAP, trusted_origins=("https://cards.example",))) as client:
        made = signup(client)
        ok = client.post("/api/account/signout", headers={"Origin": "https://cards.example", **csrf(made)})
        assert ok.status_code == 204


# -- private data --------------------------------------------------------------------------------------
def _get_everything(client: TestClient, values: dict[str, str]) -> list[str]:
    """Every GET endpoint of the API with its path parameters filled in: the bodies."""
    bodies = []
    for path, methods in client.app.openapi()["paths"].items():
        if "get" not in methods:
            continue
        url = re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), "1"), path)
        response = client.get(url, params={"players": 2})
        bodies.append(response.text)
    return bodies


def test_another_players_private_data_is_never_returned(client: TestClient, sqlite_db: str) -> None:
    from sqlalchemy import select

    from cardtable.store.models import AccountRow, SessionRow

    alice = signup(client, "Alice", PASSWORD)
    alice_cookie = client.cookies.get("cardtable_session") or ""
    room = create_room(client, csrf(alice))
    client.post(f"/api/rooms/{room['id']}/join", json={"name": "Alice"}, headers=csrf(alice))
    bob = TestClient(client.app)
    signup(bob, "Bob", PASSWORD)
    store = client.app.state.services.store
    with store.engine.connect() as conn:
        mine = SessionRow.account_id == alice["account"]["id"]
        secrets = [r[0] for r in conn.execute(select(SessionRow.token_hash).where(mine))]
        secrets += [r[0] for r in conn.execute(select(SessionRow.csrf).where(mine))]
        secrets += [r[0] for r in conn.execute(select(AccountRow.password_hash))]
    assert len(secrets) == 4
    secrets += [alice_cookie, alice["csrf"], PASSWORD]
    values = {"room_id": room["id"], "account_id": alice["account"]["id"], "game": "zeta", "game_no": "1"}
    for who in (bob, TestClient(client.app)):
        for body in _get_everything(who, values):
            leaked = [s for s in secrets if s and s in body]
            assert leaked == [], body
    own = client.get("/api/account/me").json()
    assert own["csrf"] == alice["csrf"] and "password" not in str(own).lower().replace("has_password", "")


def test_a_script_name_round_trips_as_plain_text(client: TestClient) -> None:
    name = "<script>alert(1)</script>"
    made = signup(client, name)
    assert made["account"]["name"] == name
    room = create_room(client, csrf(made))
    joined = client.post(f"/api/rooms/{room['id']}/join", json={"name": "x"}, headers=csrf(made))
    assert joined.headers["content-type"].startswith("application/json")
    assert joined.json()["room"]["seats"][0]["name"] == name
    assert client.get("/api/account/me").json()["account"]["name"] == name


def test_a_used_session_slides_on_and_an_expired_one_is_refused(client: TestClient) -> None:
    from datetime import timedelta

    from sqlalchemy import select, update

    from cardtable.store.models import SessionRow, utcnow

    signup(client)
    store = client.app.state.services.store
    with store.transaction() as conn:
        conn.execute(update(SessionRow).values(last_seen=utcnow() - timedelta(hours=2),
                                               expires_at=utcnow() + timedelta(days=1)))
    me = client.get("/api/account/me")
    assert me.status_code == 200 and f"Max-Age={30 * 24 * 3600}" in set_cookie(me)
    with store.engine.connect() as conn:
        expires = conn.execute(select(SessionRow.expires_at)).scalar_one()
    assert expires.replace(tzinfo=None) > (utcnow() + timedelta(days=29)).replace(tzinfo=None)
    assert "set-cookie" not in client.get("/api/account/me").headers  # at most once an hour
    with store.transaction() as conn:
        conn.execute(update(SessionRow).values(expires_at=utcnow() - timedelta(seconds=1)))
    expired = client.get("/api/account/me")
    error(expired, 401, "not_signed_in")
    assert "Max-Age=0" in set_cookie(expired)
