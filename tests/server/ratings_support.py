"""Helpers of the ratings and profile tests: accounts as rows, rooms seated by accounts, finished games."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import insert, update

from cardtable.core.registry import load_game
from cardtable.server.protocol import CreateRoom
from cardtable.server.rooms import plan_room
from cardtable.store import LeavePolicy, RoomInfo, SeatStatus, Store
from cardtable.store.models import AccountRow, AccountStatus, GameRow, RecordRow, SessionRow, utcnow


def make_account(store: Store, name: str, status: AccountStatus = AccountStatus.ACTIVE) -> str:
    """A new account row (no password): its id."""
    account_id = secrets.token_urlsafe(12)
    with store.transaction() as conn:
        conn.execute(insert(AccountRow).values(id=account_id, name=name, name_key=name.casefold(), status=status,
                                               created_at=utcnow(), updated_at=utcnow()))
    return account_id


def sign_in(store: Store, client: TestClient, account_id: str) -> str:
    """A session row for the account, its cookie set on the client: the cookie's value."""
    cookie = secrets.token_urlsafe(32)
    with store.transaction() as conn:
        conn.execute(insert(SessionRow).values(
            token_hash=hashlib.sha256(cookie.encode()).hexdigest(), account_id=account_id, csrf=secrets.token_hex(16),
            user_agent="test", created_at=utcnow(), last_seen=utcnow(), expires_at=utcnow() + timedelta(days=30)))
    client.cookies.set("cardtable_session", cookie)
    return cookie


def seated_room(store: Store, game: str, sitters: Sequence[str | None], *, rated: bool = True, seed: int = 1,
                setup: dict[str, Any] | None = None, bots: Sequence[int] = (), private: bool = False,
                names: Sequence[str] | None = None) -> tuple[RoomInfo, list[str]]:
    """A room of ``game`` made in the store (not through the API), every seat but ``bots`` joined: an account
    id, or None for a guest. The room and each person's seat token (bots get "")."""
    plan = plan_room(CreateRoom(game=game, setup=setup or {}))
    to_move = load_game(game, **plan.rules).new_game(seed=seed, **plan.setup).current_player
    seats = [(SeatStatus.BOT, "random") if i in bots else (SeatStatus.OPEN, "human") for i in range(len(sitters))]
    info = store.create_room(game=game, title="", rules=plan.rules, rules_version=plan.rules_version,
                             setup=plan.setup, private=private, invite_hash=None, on_leave=LeavePolicy.REOPEN,
                             leave_bot="", seats=seats, seed=seed, to_move=to_move, rated=rated)
    tokens: list[str] = []
    for i, account in enumerate(sitters):
        if i in bots:
            tokens.append("")
            continue
        token = secrets.token_urlsafe(32)
        name = names[i] if names is not None else f"P{i + 1}"
        _, info = store.join(info.id, i, name, hashlib.sha256(token.encode()).hexdigest(), account_id=account)
        tokens.append(token)
    return info, tokens


def finish(store: Store, room_id: str, outcome: dict[str, Any], game_no: int = 1,
           record: dict[str, Any] | None = None) -> None:
    """Mark a room's game finished with this outcome and a record row (no moves: what the hook reads)."""
    with store.transaction() as conn:
        conn.execute(update(GameRow).where(GameRow.room_id == room_id, GameRow.game_no == game_no)
                     .values(finished_at=utcnow()))
        conn.execute(insert(RecordRow).values(room_id=room_id, game_no=game_no, record=record or {"players": []},
                                              outcome=outcome, finished_at=utcnow()))


def play_out(client: TestClient, room: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Play the first legal action of whoever moves until the game ends, over the sockets; the last state."""
    sockets = {}
    states: dict[int, dict[str, Any]] = {}
    for seat, token in tokens.items():
        ws = client.websocket_connect(f"/api/rooms/{room}/ws").__enter__()
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["type"] == "welcome"
        states[seat] = ws.receive_json()
        sockets[seat] = ws
    state = states[next(iter(tokens))]
    while state["outcome"] is None:
        mover = state["to_move"]
        ws = sockets[mover]
        ws.send_json({"type": "action", "action": states[mover]["legal"][0], "version": states[mover]["version"]})
        assert ws.receive_json()["type"] == "accepted"
        for seat, other in sockets.items():
            states[seat] = other.receive_json()
        state = states[mover]
    for ws in sockets.values():
        ws.__exit__(None, None, None)
    return state
