"""The web server: a JSON API for rooms, one websocket per client for play, and the lobby page at ``/``.

``create_app(ServerSettings(...))`` builds the ASGI app; ``cardtable serve`` runs it with uvicorn.
Every endpoint and message is in docs/server.md; the OpenAPI description is at ``/openapi.json``
and ``/docs``, and the websocket messages' JSON Schemas at ``/api/protocol``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Path, Query, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route
from starlette.websockets import WebSocketDisconnect, WebSocketState

from cardtable.agents import DIFFICULTIES, SPEC_HELP
from cardtable.core import game_class, game_names
from cardtable.store import DEFAULT_URL, BadToken, NoSuchRoom, RoomInfo, Store, StoreError

from . import tokens
from .bots import BotRunner, ExecutorKind, warm_up
from .hub import Connection, Hub, LiveRoom, refusal_of
from .protocol import (
    ActionMsg,
    AgentsOut,
    Catalog,
    ClientMessage,
    CloseCode,
    Created,
    CreateRoom,
    ErrorBody,
    ErrorCode,
    ErrorMsg,
    FlagOut,
    GameInfo,
    Health,
    Hello,
    History,
    Joined,
    JoinIn,
    Left,
    Me,
    PingMsg,
    Pong,
    RoomList,
    RoomOut,
    ServerMessage,
    SyncMsg,
)
from .rooms import Refusal, check_person_name, first_player, game_out, plan_room, room_out, setup_example

log = logging.getLogger(__name__)

ROOM_ID = r"^[A-Za-z0-9_-]{1,24}$"


@dataclass(frozen=True)
class ServerSettings:
    """How a server runs: its database, its bots' pool and time cap, and its limits."""

    db: str = DEFAULT_URL
    """Any SQLAlchemy URL (``sqlite:///file.db``, ``postgresql+psycopg://user:pw@host/db``)."""
    durable: bool = True
    """False (tests only): SQLite skips its fsync on commit."""
    bot_seconds: float = 2.0
    """The most wall-clock seconds a bot's search may take per move."""
    bot_workers: int = 2
    bot_executor: ExecutorKind = "process"
    max_connections_per_room: int = 64
    max_message_bytes: int = 16_384
    """The longest websocket message a client may send."""
    max_body_bytes: int = 262_144
    """The largest HTTP request body (a Utahime option set as TOML fits easily)."""
    hello_timeout: float = 10.0
    queue_limit: int = 256
    """How many messages may wait for a slow socket before it is disconnected."""
    origin: str | None = field(default=None)
    """This process's name in notifications to other processes (random if None)."""

    @classmethod
    def from_env(cls) -> ServerSettings:
        """Settings from ``CARDTABLE_DB``, ``CARDTABLE_BOT_SECONDS`` and ``CARDTABLE_BOT_WORKERS`` (uvicorn workers)."""
        return cls(db=os.environ.get("CARDTABLE_DB", DEFAULT_URL),
                   bot_seconds=float(os.environ.get("CARDTABLE_BOT_SECONDS", "2.0")),
                   bot_workers=int(os.environ.get("CARDTABLE_BOT_WORKERS", "2")))


class Services:
    """What the routes share: the settings, the store and the hub (set while the app runs)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.store: Store | None = None
        self.hub: Hub | None = None
        self.bots = BotRunner(seconds_cap=settings.bot_seconds, workers=settings.bot_workers,
                              kind=settings.bot_executor)

    async def start(self) -> None:
        """Load the games' registry, open the store (applying migrations) and start the hub."""
        settings = self.settings
        await asyncio.to_thread(warm_up)  # the registry loads once, before worker threads use it
        await asyncio.to_thread(self.bots.start)
        self.store = await asyncio.to_thread(Store.open, settings.db, durable=settings.durable, origin=settings.origin)
        self.hub = Hub(self.store, self.bots, queue_limit=settings.queue_limit,
                       max_connections=settings.max_connections_per_room)
        await self.hub.start()

    async def stop(self) -> None:
        """Stop the hub, the bots and the store."""
        if self.hub is not None:
            await self.hub.stop()
        await asyncio.to_thread(self.bots.close)
        if self.store is not None:
            self.store.close()

    def parts(self) -> tuple[Store, Hub]:
        """The store and the hub (Refusal while the server is starting or stopping)."""
        if self.store is None or self.hub is None or self.hub.stopping:
            raise Refusal(ErrorCode.UNAVAILABLE, "the server is starting or stopping", status=503)
        return self.store, self.hub


_STATUS: dict[str, int] = {ErrorCode.NO_SUCH_ROOM: 404, ErrorCode.BAD_TOKEN: 401, ErrorCode.NO_ACCESS: 403}
_HTTP_CODES = {400: ErrorCode.BAD_REQUEST, 404: ErrorCode.NOT_FOUND, 405: ErrorCode.METHOD_NOT_ALLOWED,
               413: ErrorCode.TOO_LARGE}

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "Refused: the body says why (code, message)."},
    401: {"model": ErrorBody, "description": "The seat token is missing or not valid in this room."},
    403: {"model": ErrorBody, "description": "A private room, without its invite code or a seat token."},
    404: {"model": ErrorBody, "description": "There is no such room."},
    409: {"model": ErrorBody, "description": "The room's state does not allow it (seat taken, game over, ...)."},
}


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {c: ERRORS[c] for c in codes}


def _error_response(code: str, message: str, status: int, rule: str | None = None,
                    headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, "rule": rule}}, status_code=status,
                        headers=headers)


bearer = HTTPBearer(auto_error=False, description="A seat token from POST /api/rooms/{room_id}/join.")
Bearer = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
RoomId = Annotated[str, Path(pattern=ROOM_ID, description="A room id from POST /api/rooms or GET /api/rooms.")]
Invite = Annotated[str | None, Query(max_length=128, description="The invite code of a private room.")]


def _token(creds: HTTPAuthorizationCredentials | None, required: bool = True) -> str | None:
    if creds is None or not creds.credentials:
        if required:
            raise Refusal(ErrorCode.BAD_TOKEN, "this needs the seat token: Authorization: Bearer TOKEN", status=401)
        return None
    if len(creds.credentials) > 128:
        raise Refusal(ErrorCode.BAD_TOKEN, "this seat token is not valid in this room", status=401)
    return creds.credentials


def _join(store: Store, room_id: str, body: JoinIn, name: str, digest: str) -> tuple[int, RoomInfo]:
    """Join a seat (a private room's invite code checked first): the seat and the room after it."""
    info = store.room(room_id)
    if info.private and not tokens.matches(info.invite_hash, body.invite):
        raise Refusal(ErrorCode.NO_ACCESS, "this room is private: it needs its invite code", status=403)
    return store.join(room_id, body.seat, name, digest)


def _socket_seat(store: Store, room_id: str, token: str | None, invite: str | None) -> int | None:
    """The seat a socket's hello may play (None: a spectator); Refusal or NoSuchRoom if it may not join."""
    info = store.room(room_id)
    if token:
        seat = store.seat_of(room_id, tokens.digest(token))
        if seat is None:
            raise Refusal(ErrorCode.BAD_TOKEN, "this seat token is not valid in this room", status=401)
        return seat
    if info.private and not tokens.matches(info.invite_hash, invite):
        raise Refusal(ErrorCode.NO_ACCESS, "this room is private: it needs its invite code", status=403)
    return None


def _check_access(store: Store, info: RoomInfo, invite: str | None, token: str | None) -> int | None:
    """The seat the token holds (None without one); Refusal ``no_access`` for a private room without a key."""
    seat = store.seat_of(info.id, tokens.digest(token)) if token else None
    if token and seat is None:
        raise Refusal(ErrorCode.BAD_TOKEN, "this seat token is not valid in this room", status=401)
    if info.private and seat is None and not tokens.matches(info.invite_hash, invite):
        raise Refusal(ErrorCode.NO_ACCESS, "this room is private: it needs its invite code", status=403)
    return seat


def catalog(bot_seconds: float) -> Catalog:
    """The games, their flags and a working setup each, and the agent specs."""
    games = []
    for name in game_names():
        cls = game_class(name)
        flags = [FlagOut(name=f.name, kind=f.kind.__name__, default=f.default,
                         choices=list(f.choices) if f.choices is not None else None, ledger=f.ledger, doc=f.doc)
                 for f in cls.Rules.flag_specs()]
        games.append(GameInfo(name=name, title=cls.title, min_players=cls.min_players, max_players=cls.max_players,
                              flags=flags, setup_example=setup_example(name)))
    return Catalog(games=games, agents=AgentsOut(specs=dict(SPEC_HELP), difficulties=dict(DIFFICULTIES),
                                                 seconds_cap=bot_seconds))


def protocol_schemas() -> dict[str, Any]:
    """The JSON Schemas of every websocket message, client to server and server to client."""
    return {"client": ClientMessage.json_schema(), "server": ServerMessage.json_schema()}


class BodyLimit:
    """ASGI middleware: refuse HTTP bodies larger than ``limit`` bytes with 413."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: MutableMapping[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", []):
            if key == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    response = _error_response(ErrorCode.TOO_LARGE, f"request bodies are limited to {self.limit} bytes", 413)
                    await response(scope, receive, send)
                    return
        seen = 0

        async def limited() -> Any:
            """The next body chunk; an empty last one once the limit is passed."""
            nonlocal seen
            message = await receive()
            if message.get("type") == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    return {"type": "http.request", "body": b"", "more_body": False}
            return message

        await self.app(scope, limited, send)


PAGE_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                "connect-src 'self' ws: wss:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}
"""The headers of the lobby page and its files (``no-cache``: revalidated, so a new version shows at once)."""


def create_app(settings: ServerSettings | None = None, pages: Callable[[FastAPI], None] | None = None) -> FastAPI:
    """The server's ASGI app (opens its store when it starts).

    ``pages`` adds a browser client's pages and files to the app (after the API, which keeps its
    paths); without it the minimal lobby page is served at ``/``.
    """
    settings = settings or ServerSettings()
    services = Services(settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        """Open the store and start the hub while the app runs."""
        await services.start()
        try:
            yield
        finally:
            await services.stop()

    app = FastAPI(title="cardtable", version="1", lifespan=lifespan,
                  description="Online rooms for Zeta, Oscilloscope and Utahime: seats, bots, spectators. "
                              "Play is over the websocket /api/rooms/{room_id}/ws (messages: /api/protocol).")
    app.state.services = services
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)

    @app.exception_handler(Refusal)
    async def _refused(_request: Request, exc: Refusal) -> JSONResponse:
        return _error_response(exc.code, exc.message, exc.status, exc.rule)

    @app.exception_handler(StoreError)
    async def _store_refused(_request: Request, exc: StoreError) -> JSONResponse:
        return _error_response(exc.code, exc.message, _STATUS.get(exc.code, 409))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        headers = dict(exc.headers or {})
        if exc.status_code == 405:  # name every method of the path (Starlette names only one route's)
            allowed = sorted({m for route in app.router.routes if isinstance(route, Route)
                              and route.matches(request.scope)[0] is not Match.NONE for m in route.methods or ()})
            headers["Allow"] = ", ".join(allowed)
        code = _HTTP_CODES.get(exc.status_code, ErrorCode.HTTP_ERROR)
        return _error_response(code, str(exc.detail), exc.status_code, headers=headers)

    @app.exception_handler(RecursionError)
    async def _too_deep(_request: Request, _exc: RecursionError) -> JSONResponse:
        return _error_response(ErrorCode.BAD_REQUEST, "the request is nested too deeply", 400)

    @app.middleware("http")
    async def _headers(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response = await call_next(request)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if pages is None and (request.url.path == "/" or request.url.path.startswith("/static/")):
            for key, value in PAGE_HEADERS.items():
                response.headers[key] = value
        return response

    # -- catalog ---------------------------------------------------------------------------------
    @app.get("/api/health", response_model=Health, tags=["server"])
    async def health() -> Health:
        """The server is up and its database answers."""
        store, _ = services.parts()
        await asyncio.to_thread(store.list_rooms, limit=1)
        return Health(status="ok", database=store.dialect)

    @app.get("/api/games", response_model=Catalog, tags=["server"])
    async def games() -> Catalog:
        """Every game with its rule flags and a working setup, and the agent specs a bot seat may take."""
        return catalog(settings.bot_seconds)

    @app.get("/api/protocol", tags=["server"])
    async def protocol() -> dict[str, Any]:
        """The JSON Schemas of the websocket messages (``client``: what a client sends; ``server``: what it gets)."""
        return protocol_schemas()

    # -- rooms -----------------------------------------------------------------------------------
    @app.get("/api/rooms", response_model=RoomList, tags=["rooms"])
    async def list_rooms(open: Annotated[bool, Query(description="Only rooms with an open seat and a game on.")] = True,
                         limit: Annotated[int, Query(ge=1, le=100)] = 50,
                         offset: Annotated[int, Query(ge=0, le=100_000)] = 0) -> RoomList:
        """Public rooms, most recently active first (private rooms are never listed)."""
        store, _ = services.parts()
        rooms = await asyncio.to_thread(store.list_rooms, open_only=open, limit=limit, offset=offset)
        return RoomList(rooms=[room_out(r) for r in rooms])

    @app.post("/api/rooms", response_model=Created, status_code=201, tags=["rooms"], responses=_errors(400))
    async def create_room(body: CreateRoom) -> Created:
        """Make a room: a game, its rule flags and setup, each seat open or a bot, private or listed."""
        store, hub = services.parts()
        plan = await asyncio.to_thread(plan_room, body)
        invite = tokens.new_invite() if body.private else None
        info = await asyncio.to_thread(
            lambda: store.create_room(
                game=plan.game, title=plan.title, rules=plan.rules, rules_version=plan.rules_version, setup=plan.setup,
                private=body.private, invite_hash=tokens.digest(invite) if invite else None, on_leave=body.on_leave,
                leave_bot=plan.leave_bot, seats=plan.seats, seed=plan.seed, to_move=plan.to_move))
        await hub.wake(info.id, info)
        return Created(room=room_out(info), invite=invite)

    @app.get("/api/rooms/{room_id}", response_model=RoomOut, tags=["rooms"], responses=_errors(401, 403, 404))
    async def get_room(room_id: RoomId, creds: Bearer, invite: Invite = None) -> RoomOut:
        """One room (a private one needs its invite code or a seat token)."""
        store, _ = services.parts()
        info = await asyncio.to_thread(store.room, room_id)
        await asyncio.to_thread(_check_access, store, info, invite, _token(creds, required=False))
        return room_out(info)

    @app.post("/api/rooms/{room_id}/join", response_model=Joined, tags=["seats"],
              responses=_errors(400, 403, 404, 409))
    async def join(room_id: RoomId, body: JoinIn) -> Joined:
        """Take an open seat; the answer holds the seat token, shown only this once (keep it to come back)."""
        store, hub = services.parts()
        name = check_person_name(body.name)
        token = tokens.new_token()
        seat, after = await asyncio.to_thread(_join, store, room_id, body, name, tokens.digest(token))
        await hub.refresh(room_id, after)
        return Joined(token=token, seat=seat, room=room_out(after))

    @app.post("/api/rooms/{room_id}/leave", response_model=Left, tags=["seats"], responses=_errors(401, 404))
    async def leave(room_id: RoomId, creds: Bearer) -> Left:
        """Leave the seat: the token is revoked at once; the seat reopens or the room's bot takes it."""
        store, hub = services.parts()
        token = _token(creds)
        assert token is not None
        seat, after = await asyncio.to_thread(store.leave, room_id, tokens.digest(token))
        await hub.refresh(room_id, after)
        return Left(seat=seat, room=room_out(after))

    @app.get("/api/rooms/{room_id}/me", response_model=Me, tags=["seats"], responses=_errors(401, 404))
    async def me(room_id: RoomId, creds: Bearer) -> Me:
        """The seat a token holds (to come back after a reload or a restart)."""
        store, _ = services.parts()
        token = _token(creds)
        assert token is not None
        info = await asyncio.to_thread(store.room, room_id)
        seat = await asyncio.to_thread(store.seat_of, room_id, tokens.digest(token))
        if seat is None:
            raise BadToken("this seat token is not valid in this room")
        return Me(seat=seat, name=info.seats[seat].name, room=room_out(info))

    @app.post("/api/rooms/{room_id}/rematch", response_model=RoomOut, tags=["seats"],
              responses=_errors(401, 404, 409))
    async def rematch(room_id: RoomId, creds: Bearer) -> RoomOut:
        """Start the next game in a room whose game is over: same seats, same tokens, a new deal."""
        store, hub = services.parts()
        token = _token(creds)
        assert token is not None
        info = await asyncio.to_thread(store.room, room_id)
        if await asyncio.to_thread(store.seat_of, room_id, tokens.digest(token)) is None:
            raise BadToken("this seat token is not valid in this room")
        from cardtable.core.rng import fresh_seed

        seed = fresh_seed()
        to_move = await asyncio.to_thread(first_player, info, seed)
        after = await asyncio.to_thread(store.rematch, room_id, info.game_no, seed, to_move)
        await hub.refresh(room_id, after)
        return room_out(after)

    @app.get("/api/rooms/{room_id}/history", response_model=History, tags=["records"],
             responses=_errors(401, 403, 404))
    async def history(room_id: RoomId, creds: Bearer, invite: Invite = None) -> History:
        """Every game of the room, with the outcome and the record's address of each finished one."""
        store, _ = services.parts()
        info = await asyncio.to_thread(store.room, room_id)
        await asyncio.to_thread(_check_access, store, info, invite, _token(creds, required=False))
        games = await asyncio.to_thread(store.history, room_id)
        return History(room=room_id, games=[game_out(room_id, g) for g in games])

    @app.get("/api/rooms/{room_id}/records/{game_no}", tags=["records"],
             responses={200: {"description": "The record (what `cardtable replay FILE` reads).",
                              "content": {"application/json": {"schema": {"type": "object"}}}},
                        **_errors(401, 403, 404, 409)})
    async def record(room_id: RoomId, game_no: Annotated[int, Path(ge=1, le=1_000_000)], creds: Bearer,
                     invite: Invite = None) -> JSONResponse:
        """The record of a finished game, as a download."""
        store, _ = services.parts()
        info = await asyncio.to_thread(store.room, room_id)
        await asyncio.to_thread(_check_access, store, info, invite, _token(creds, required=False))
        data = await asyncio.to_thread(store.record, room_id, game_no)
        name = f"cardtable-{info.game}-{room_id}-{game_no}.json"
        return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    # -- play ------------------------------------------------------------------------------------
    @app.websocket("/api/rooms/{room_id}/ws")
    async def room_socket(ws: WebSocket, room_id: str) -> None:
        """Play or watch a room (docs/server.md: the websocket)."""
        await ws.accept()
        try:
            await _serve_socket(ws, room_id, services)
        except Exception:
            log.exception("a socket of room %s failed", room_id[:24])
            await _send_and_close(ws, ErrorMsg(code=ErrorCode.INTERNAL_ERROR, message="the server failed; reconnect"),
                                  CloseCode.INTERNAL)

    # -- pages -----------------------------------------------------------------------------------
    if pages is not None:
        pages(app)
    else:
        static = resources.files("cardtable.web") / "static"

        @app.get("/", include_in_schema=False)
        async def lobby() -> FileResponse:
            """The minimal lobby page."""
            return FileResponse(str(static / "index.html"), media_type="text/html")

        app.mount("/static", StaticFiles(directory=str(static)), name="static")

    return app


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


def _parse(text: str, limit: int) -> Hello | ActionMsg | SyncMsg | PingMsg | ErrorMsg:
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
        await _send_and_close(ws, ErrorMsg(code=ErrorCode.HELLO_TIMEOUT, message="send hello first"), CloseCode.HELLO_TIMEOUT)
        return
    except (WebSocketDisconnect, RuntimeError):
        return
    if first is None:
        return
    hello = _parse(first, settings.max_message_bytes)
    if not isinstance(hello, Hello):
        error = hello if isinstance(hello, ErrorMsg) else ErrorMsg(code=ErrorCode.BAD_MESSAGE, message="send hello first")
        await _send_and_close(ws, error, CloseCode.BAD_HELLO)
        return
    digest = tokens.digest(hello.token) if hello.token else None
    try:
        if len(room_id) > 24:
            raise NoSuchRoom(f"there is no room {room_id[:24]!r}...")
        seat = await asyncio.to_thread(_socket_seat, store, room_id, hello.token, hello.invite)
    except (Refusal, StoreError) as exc:
        refused: Refusal = refusal_of(exc)
        code = {str(ErrorCode.BAD_TOKEN): CloseCode.BAD_TOKEN, ErrorCode.NO_ACCESS: CloseCode.NO_ACCESS,
                ErrorCode.NO_SUCH_ROOM: CloseCode.NO_SUCH_ROOM}.get(refused.code, CloseCode.FULL)
        await _send_and_close(ws, ErrorMsg(code=refused.code, message=refused.message), code)
        return
    conn = Connection(seat, digest, queue_limit=settings.queue_limit)
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
            message = _parse(text, settings.max_message_bytes)
            if isinstance(message, ErrorMsg):
                conn.push(message)
            elif isinstance(message, ActionMsg):
                await _act(hub, live, conn, message)
            elif isinstance(message, SyncMsg):
                await hub.resync(live, conn, message.since)
            elif isinstance(message, PingMsg):
                conn.push(Pong())
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


async def _act(hub: Hub, live: LiveRoom, conn: Connection, message: ActionMsg) -> None:
    ref = message.ref if not (isinstance(message.ref, str) and len(message.ref) > 64) else None
    if conn.seat is None:
        conn.push(ErrorMsg(code=ErrorCode.SPECTATOR, message="a spectator cannot play; join a seat first", ref=ref))
        return
    if message.seat is not None and message.seat != conn.seat:
        conn.push(ErrorMsg(code=ErrorCode.WRONG_SEAT, message=f"this connection plays seat {conn.seat}, not {message.seat}",
                           ref=ref))
        return
    try:
        await hub.play(live, conn.seat, message.action, message.version, conn=conn, ref=ref)
    except Refusal as refused:
        conn.push(ErrorMsg(code=refused.code, message=refused.message, rule=refused.rule, ref=ref))


def app_from_env() -> FastAPI:
    """The app with :meth:`ServerSettings.from_env` and the browser client (``uvicorn --factory``, several workers)."""
    from cardtable.web.routes import mount

    return create_app(ServerSettings.from_env(), pages=mount)
