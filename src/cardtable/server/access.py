"""Who may do what in a room: seat tokens, invite codes, and the one access check of every route and socket.

Tokens and invite codes are random secrets from :mod:`secrets`, returned once and stored as SHA-256
hashes. They are long random strings (256 and 96 bits), so a plain hash is enough to make a stolen
database useless for taking seats, and comparing hashes leaks nothing useful through timing.

>>> token = new_token()
>>> len(token), digest(token) == digest(token), len(digest(token))
(43, True, 64)
>>> matches(digest("abc"), "abc"), matches(digest("abc"), "abd"), matches(None, "abc")
(True, False, False)

A request or a socket (a session) holds a seat with its token, or watches: a private room needs its
invite code from whoever holds no seat (:func:`room_access`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Annotated

from fastapi import Depends, Path, Query
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from cardtable.core.errors import ErrorCode
from cardtable.store import RoomInfo, Store

from .errors import Refusal

ROOM_ID = r"^[A-Za-z0-9_-]{1,24}$"
"""What a room id looks like (anything else is no room)."""
SECRET_MAX = 128
"""The longest token or invite code a client may send (the server's own are 43 and 16 characters)."""

NO_TOKEN = "this needs the seat token: Authorization: Bearer TOKEN"
BAD_TOKEN = "this seat token is not valid in this room"
PRIVATE = "this room is private: it needs its invite code"
RATED = "this room is rated: sign in to an account to play in it"

bearer = HTTPBearer(auto_error=False, description="A seat token from POST /api/rooms/{room_id}/join.")
Bearer = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
"""A route's optional ``Authorization: Bearer TOKEN``."""
RoomId = Annotated[str, Path(pattern=ROOM_ID, description="A room id from POST /api/rooms or GET /api/rooms.")]
"""A route's ``{room_id}``."""
Invite = Annotated[str | None, Query(max_length=SECRET_MAX, description="The invite code of a private room.")]
"""A route's ``?invite=CODE``."""


# -- secrets -------------------------------------------------------------------------------------------
def new_token() -> str:
    """A new seat token (256 random bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def new_invite() -> str:
    """A new invite code of a private room (96 random bits, URL-safe)."""
    return secrets.token_urlsafe(12)


def digest(secret: str) -> str:
    """The stored form of a token or invite code: its SHA-256, in hex."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def matches(stored: str | None, secret: str | None) -> bool:
    """True if ``secret`` hashes to ``stored`` (compared in constant time); False if either is missing."""
    if stored is None or not secret:
        return False
    return hmac.compare_digest(stored, digest(secret))


# -- checks --------------------------------------------------------------------------------------------
def token_of(creds: HTTPAuthorizationCredentials | None, *, required: bool = True) -> str | None:
    """The bearer token of a request (None if it sent none and none is ``required``); Refusal ``bad_token``."""
    if creds is None or not creds.credentials:
        if required:
            raise Refusal(ErrorCode.BAD_TOKEN, NO_TOKEN, status=401)
        return None
    if len(creds.credentials) > SECRET_MAX:
        raise Refusal(ErrorCode.BAD_TOKEN, BAD_TOKEN, status=401)
    return creds.credentials


def bearer_token(creds: HTTPAuthorizationCredentials | None) -> str | None:
    """The bearer token a request sent, unchecked (:func:`room_access` checks it after reading the room)."""
    return creds.credentials if creds is not None and creds.credentials else None


def required_token(creds: HTTPAuthorizationCredentials | None) -> str:
    """The bearer token of a request that needs one; Refusal ``bad_token`` without it."""
    token = token_of(creds, required=True)
    assert token is not None
    return token


def room_access(store: Store, room_id: str, token: str | None, invite: str | None) -> tuple[RoomInfo, int | None]:
    """The room and the seat ``token`` holds (None: a spectator); Refusal ``bad_token`` for a token that holds
    no seat, ``no_access`` for a private room without its invite code; NoSuchRoom if there is no room."""
    info = store.room(room_id)
    if token and len(token) > SECRET_MAX:
        raise Refusal(ErrorCode.BAD_TOKEN, BAD_TOKEN, status=401)
    seat = store.seat_of(room_id, digest(token)) if token else None
    if token and seat is None:
        raise Refusal(ErrorCode.BAD_TOKEN, BAD_TOKEN, status=401)
    if info.private and seat is None and not matches(info.invite_hash, invite):
        raise Refusal(ErrorCode.NO_ACCESS, PRIVATE, status=403)
    return info, seat


def seat_of(store: Store, room_id: str, token: str) -> tuple[RoomInfo, int]:
    """The room and the seat ``token`` holds; Refusal ``bad_token`` if it holds none."""
    info, seat = room_access(store, room_id, token, None)
    assert seat is not None
    return info, seat


def join_seat(store: Store, room_id: str, seat: int | None, invite: str | None, name: str,
              token_hash: str, account_id: str | None = None) -> tuple[int, RoomInfo]:
    """Join a seat as a guest or as the signed-in ``account_id`` (a private room's invite code checked first,
    then whether a rated room has a guest, ``needs_account``, or an account in a second seat, ``seat_taken``):
    the seat and the room after it."""
    info = store.room(room_id)
    if info.private and not matches(info.invite_hash, invite):
        raise Refusal(ErrorCode.NO_ACCESS, PRIVATE, status=403)
    if info.rated and account_id is None:
        raise Refusal(ErrorCode.NEEDS_ACCOUNT, RATED, status=403)
    if info.rated and any(s.account_id == account_id for s in info.seats):
        raise Refusal(ErrorCode.SEAT_TAKEN, "this account holds a seat of this rated room already", status=409)
    return store.join(room_id, seat, name, token_hash, account_id=account_id)
