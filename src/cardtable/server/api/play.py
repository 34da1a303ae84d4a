"""``/api/rooms/{room_id}/ws``: the play socket (hello, then actions, syncs and pings; docs/server.md)."""

from __future__ import annotations

import asyncio
import json
import logging

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from cardtable.core.errors import ErrorCode
from cardtable.store import NoSuchRoom, Store, StoreError

from .. import access
from ..auth import same_origin, session_of
from ..errors import Refusal
from ..hub import Connection, Hub, LiveRoom, refusal_of
from ..protocol import (
    ActionMsg,
    AnswerIn,
    ChatIn,
    ClientMessage,
    CloseCode,
    ErrorMsg,
    Hello,
    OfferIn,
    PingMsg,
    Pong,
    ResignMsg,
    SyncMsg,
)
from ..services import Services, services_of
from ..throttle import address_of

log = logging.getLogger(__name__)

router = APIRouter()

HELLO_CLOSE: dict[ErrorCode, CloseCode] = {ErrorCode.BAD_TOKEN: CloseCode.BAD_TOKEN,
                                           ErrorCode.NO_ACCESS: CloseCode.NO_ACCESS,
                                           ErrorCode.NO_SUCH_ROOM: CloseCode.NO_SUCH_ROOM,
                                           ErrorCode.RATE_LIMITED: CloseCode.RATE_LIMITED}
"""The close code of a refused hello (``FULL`` for the other refusals)."""


@router.websocket("/api/rooms/{room_id}/ws")
async def room_socket(ws: WebSocket, room_id: str) -> None:
    """Play or watch a room (docs/server.md: the websocket)."""
    await ws.accept()
    try:
        await _serve_socket(ws, room_id, services_of(ws))
    except Exception:
        log.exception("a socket of room %s failed", room_id[:24])
        await _send_and_close(ws, ErrorMsg(code=ErrorCode.INTERNAL_ERROR, message="the server failed; reconnect"),
                              CloseCode.INTERNAL)


async def _send_and_close(ws: WebSocket, message: ErrorMsg, code: CloseCode) -> None:
    try:
        await ws.send_text(message.model_dump_json())
        await ws.close(code.value)
    except (RuntimeError, WebSocketDisconnect, OSError):
        pass


async def _receive_text(ws: WebSocket) -> str | None:
    """The next text message (None once the client is gone; a binary frame reads as an empty string)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is None:
        return ""
    return str(text)


def parse_message(text: str, limit: int) -> (Hello | ActionMsg | SyncMsg | PingMsg | ChatIn | ResignMsg | OfferIn | AnswerIn
                                             | ErrorMsg):
    """A client message, or the error to answer it with."""
    if len(text) > limit:
        return ErrorMsg(code=ErrorCode.TOO_LARGE, message=f"messages are limited to {limit} characters")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return ErrorMsg(code=ErrorCode.BAD_JSON, message="messages are JSON objects (send text frames)")
    try:
        return ClientMessage.validate_python(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'message'}: {e['msg']}"
                             for e in exc.errors(include_url=False)[:3])
        ref = data.get("ref") if isinstance(data, dict) and isinstance(data.get("ref"), (str, int)) else None
        if isinstance(ref, str) and len(ref) > 64:
            ref = None
        return ErrorMsg(code=ErrorCode.BAD_MESSAGE, message=f"not a valid message: {problems}", ref=ref)


async def _writer(ws: WebSocket, conn: Connection) -> None:
    try:
        while True:
            text = await conn.outbox.get()
            if text is None:
                break
            await ws.send_text(text)
        await ws.close(conn.close_code.value if conn.close_code else 1000)
    except (RuntimeError, WebSocketDisconnect, OSError):
        pass


def _session_seat(store: Store, room_id: str, hello: Hello) -> tuple[int | None, str | None]:
    """The seat a socket's hello may play (None: a spectator) and the account holding it; Refusal or NoSuchRoom
    if it may not join."""
    if len(room_id) > 24:
        raise NoSuchRoom(f"there is no room {room_id[:24]!r}...")
    info, seat = access.room_access(store, room_id, hello.token, hello.invite)
    return seat, (info.seats[seat].account_id if seat is not None else None)


async def _socket_account(ws: WebSocket, services: Services) -> tuple[str | None, str]:
    """The account signed in on the socket's browser (its session cookie, from this server's own pages only)."""
    origin = ws.headers.get("origin")
    if origin is not None and not same_origin(origin, ws.headers.get("host"), services.settings.trusted_origins):
        return None, ""
    session = await session_of(ws.scope, services)
    if session is None:
        return None, ""
    return session.account.id, session.account.name


async def _serve_socket(ws: WebSocket, room_id: str, services: Services) -> None:
    settings = services.settings
    try:
        store, hub = services.parts()
    except Refusal as exc:
        await _send_and_close(ws, ErrorMsg(code=exc.code, message=exc.message), CloseCode.FULL)
        return
    try:
        first = await asyncio.wait_for(_receive_text(ws), settings.hello_timeout)
    except TimeoutError:
        await _send_and_close(ws, ErrorMsg(code=ErrorCode.HELLO_TIMEOUT, message="send hello first"),
                              CloseCode.HELLO_TIMEOUT)
        return
    except (WebSocketDisconnect, RuntimeError):
        return
    if first is None:
        return
    hello = parse_message(first, settings.max_message_bytes)
    if not isinstance(hello, Hello):
        error = hello if isinstance(hello, ErrorMsg) else ErrorMsg(code=ErrorCode.BAD_MESSAGE,
                                                                   message="send hello first")
        await _send_and_close(ws, error, CloseCode.BAD_HELLO)
        return
    digest = access.digest(hello.token) if hello.token else None
    try:
        with services.throttle.invite_attempt(address_of(ws.client), hello.invite):
            seat, seat_account = await asyncio.to_thread(_session_seat, store, room_id, hello)
        account, account_name = await _socket_account(ws, services)
    except (Refusal, StoreError) as exc:
        refused = refusal_of(exc)
        await _send_and_close(ws, ErrorMsg(code=refused.code, message=refused.message),
                              HELLO_CLOSE.get(refused.code, CloseCode.FULL))
        return
    conn = Connection(seat, digest, queue_limit=settings.queue_limit, account_id=seat_account or account,
                      name=account_name, address=address_of(ws.client))
    writer = asyncio.ensure_future(_writer(ws, conn))
    live: LiveRoom | None = None
    try:
        try:
            live = await hub.attach(room_id, conn, hello.since)
        except (Refusal, StoreError) as exc:
            failed = refusal_of(exc)
            conn.push(ErrorMsg(code=failed.code, message=failed.message))
            conn.close(CloseCode.FULL)
            return
        while conn.close_code is None:
            try:
                text = await _receive_text(ws)
            except (WebSocketDisconnect, RuntimeError):
                break
            if text is None:
                break
            message = parse_message(text, settings.max_message_bytes)
            if isinstance(message, ErrorMsg):
                conn.push(message)
            elif isinstance(message, ActionMsg):
                await _act(hub, live, conn, message)
            elif isinstance(message, SyncMsg):
                await hub.resync(live, conn, message.since)
            elif isinstance(message, PingMsg):
                conn.push(Pong())
                await hub.seen(conn)
            elif isinstance(message, ResignMsg):
                await _resign(hub, live, conn, message)
            elif isinstance(message, ChatIn):
                await _chat(hub, live, conn, message)
            elif isinstance(message, (OfferIn, AnswerIn)):
                await _offer(hub, live, conn, message)
            else:
                conn.push(ErrorMsg(code=ErrorCode.BAD_MESSAGE, message="hello is sent once, first"))
    finally:
        if live is not None:
            await hub.detach(live, conn)
        conn.close(conn.close_code or CloseCode.FULL)
        if ws.client_state is WebSocketState.DISCONNECTED or ws.application_state is WebSocketState.DISCONNECTED:
            writer.cancel()
        try:
            await asyncio.wait_for(writer, 5.0)
        except (TimeoutError, asyncio.CancelledError):
            writer.cancel()


async def _resign(hub: Hub, live: LiveRoom, conn: Connection, message: ResignMsg) -> None:
    ref = message.ref if not (isinstance(message.ref, str) and len(message.ref) > 64) else None
    try:
        await hub.resign(live, conn, message.game_no)
    except Refusal as refused:
        conn.push(ErrorMsg(code=refused.code, message=refused.message, ref=ref))


async def _offer(hub: Hub, live: LiveRoom, conn: Connection, message: OfferIn | AnswerIn) -> None:
    """Make or answer an offer (a rematch, a draw, a takeback); a refusal goes back to this socket only."""
    ref = message.ref if not (isinstance(message.ref, str) and len(message.ref) > 64) else None
    try:
        if isinstance(message, OfferIn):
            await hub.offer(live, conn.seat, message.kind, message.game_no)
        else:
            await hub.answer(live, conn.seat, message.kind, message.accept, message.game_no)
    except Refusal as refused:
        conn.push(ErrorMsg(code=refused.code, message=refused.message, ref=ref))


async def _chat(hub: Hub, live: LiveRoom, conn: Connection, message: ChatIn) -> None:
    ref = message.ref if not (isinstance(message.ref, str) and len(message.ref) > 64) else None
    try:
        await hub.chat(live, conn, message.text)
    except Refusal as refused:
        conn.push(ErrorMsg(code=refused.code, message=refused.message, ref=ref))


async def _act(hub: Hub, live: LiveRoom, conn: Connection, message: ActionMsg) -> None:
    ref = message.ref if not (isinstance(message.ref, str) and len(message.ref) > 64) else None
    if conn.seat is None:
        conn.push(ErrorMsg(code=ErrorCode.SPECTATOR, message="a spectator cannot play; join a seat first", ref=ref))
        return
    if message.seat is not None and message.seat != conn.seat:
        conn.push(ErrorMsg(code=ErrorCode.WRONG_SEAT,
                           message=f"this connection plays seat {conn.seat}, not {message.seat}", ref=ref))
        return
    try:
        await hub.play(live, conn.seat, message.action, message.version, conn=conn, ref=ref)
    except Refusal as refused:
        conn.push(ErrorMsg(code=refused.code, message=refused.message, rule=refused.rule, ref=ref))
