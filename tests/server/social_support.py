"""Helpers of the social tests: people signed in by header (several in one test client), a fake clock."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from ratings_support import make_account
from sqlalchemy import insert

from cardtable.store import Store
from cardtable.store.models import SessionRow, utcnow


def app_store(client: TestClient) -> Store:
    """The store of a running test app."""
    store = client.app.state.services.store  # type: ignore[attr-defined]
    assert isinstance(store, Store)
    return store


def person(store: Store, name: str) -> tuple[str, dict[str, str]]:
    """A new account and the headers of its signed-in browser (cookie and CSRF token)."""
    account = make_account(store, name)
    cookie, csrf = secrets.token_urlsafe(32), secrets.token_hex(16)
    with store.transaction() as conn:
        conn.execute(insert(SessionRow).values(
            token_hash=hashlib.sha256(cookie.encode()).hexdigest(), account_id=account, csrf=csrf, user_agent="test",
            created_at=utcnow(), last_seen=utcnow(), expires_at=utcnow() + timedelta(days=30)))
    return account, {"Cookie": f"cardtable_session={cookie}", "X-CSRF-Token": csrf}


class FakeClock:
    """A clock the tests move by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: Any) -> None:
        """Move the clock on (``seconds=30``, ``hours=25``)."""
        self.now += timedelta(**delta)


def hub_of(client: TestClient) -> Any:
    """The hub of a running test app."""
    return client.app.state.services.hub  # type: ignore[attr-defined]


def receive_until(ws: Any, kind: str, limit: int = 50) -> dict[str, Any]:
    """Messages from a test client's socket until one of type ``kind``."""
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def play_through(client: TestClient, room: str, tokens: dict[int, str], *, stop_before: int | None = None
                 ) -> dict[str, Any]:
    """Play the first legal action of whoever moves (over the sockets) until the game ends, or until the
    version ``stop_before``; the last state. Chat and clock messages on the way are skipped."""
    sockets: dict[int, Any] = {}
    states: dict[int, dict[str, Any]] = {}
    for seat, token in tokens.items():
        ws = client.websocket_connect(f"/api/rooms/{room}/ws").__enter__()
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["type"] == "welcome"
        states[seat] = receive_until(ws, "state")
        sockets[seat] = ws
    state = states[next(iter(tokens))]
    while state["outcome"] is None and (stop_before is None or state["version"] < stop_before):
        mover = state["to_move"]
        if mover not in sockets:
            break
        ws = sockets[mover]
        ws.send_json({"type": "action", "action": states[mover]["legal"][0], "version": states[mover]["version"]})
        receive_until(ws, "accepted")
        for seat, other in sockets.items():
            states[seat] = receive_until(other, "state")
        state = states[mover]
    for ws in sockets.values():
        ws.__exit__(None, None, None)
    return state
