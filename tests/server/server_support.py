"""Helpers of the server tests: an in-process ASGI websocket client, room shortcuts, a PostgreSQL scratch database."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
from collections.abc import AsyncIterator, Iterator, MutableMapping
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from cardtable.server import ServerSettings, create_app

PG_ENV = "CARDTABLE_TEST_PG_URL"
"""The environment variable naming a PostgreSQL database the tests may create scratch databases beside."""


def settings_for(url: str, **changes: Any) -> ServerSettings:
    """Test settings: no fsync, bots in threads with a short cap."""
    base: dict[str, Any] = {"db": url, "durable": False, "bot_executor": "thread", "bot_workers": 2, "bot_iterations": 200,
                            "join_rate": "100000/minute"}
    base.update(changes)
    return ServerSettings(**base)


def sqlite_url(folder: Path, name: str = "rooms.db") -> str:
    """An SQLite file URL in ``folder``."""
    return f"sqlite:///{folder / name}"


@contextmanager
def pg_database() -> Iterator[str]:
    """A fresh, empty PostgreSQL database next to ``$CARDTABLE_TEST_PG_URL`` (dropped afterwards)."""
    import sqlalchemy as sa

    base = sa.engine.make_url(os.environ[PG_ENV])
    name = f"cardtable_t_{secrets.token_hex(6)}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        try:
            _drop(admin, name)
        finally:
            admin.dispose()


def _drop(admin: Any, name: str) -> None:
    """Drop a scratch database, closing what is still connected to it.

    ``WITH (FORCE)`` refuses when an autovacuum worker happens to be in the database (the test role may not
    signal it), so that refusal is retried; a plain ``DROP DATABASE`` itself stops autovacuum workers.
    """
    import time

    import sqlalchemy as sa

    for attempt in range(10):
        try:
            with admin.connect() as conn:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            return
        except sa.exc.ProgrammingError:
            time.sleep(0.2 * (attempt + 1))
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}"'))


class Closed(Exception):
    """The server closed the socket (``code``)."""

    def __init__(self, code: int) -> None:
        super().__init__(f"closed with {code}")
        self.code = code


class AsgiSocket:
    """A websocket to an ASGI app in this process and event loop (no threads, no network)."""

    def __init__(self, app: FastAPI, path: str) -> None:
        self.app = app
        self.path = path
        self.to_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.from_app: asyncio.Queue[MutableMapping[str, Any]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.received: list[dict[str, Any]] = []
        self.texts: list[str] = []

    async def connect(self) -> AsgiSocket:
        """Open the socket (the server accepts it)."""
        scope = {"type": "websocket", "asgi": {"version": "3.0"}, "scheme": "ws", "path": self.path,
                 "raw_path": self.path.encode(), "query_string": b"", "root_path": "",
                 "headers": [(b"host", b"testserver")], "client": ("127.0.0.1", 50000),
                 "server": ("testserver", 80), "subprotocols": [], "state": {}}
        self.task = asyncio.ensure_future(self.app(scope, self.to_app.get, self.from_app.put))
        await self.to_app.put({"type": "websocket.connect"})
        first = await asyncio.wait_for(self.from_app.get(), 10)
        assert first["type"] == "websocket.accept", first
        return self

    async def send(self, text: str) -> None:
        """Send one text frame."""
        await self.to_app.put({"type": "websocket.receive", "text": text})

    async def send_bytes(self, data: bytes) -> None:
        """Send one binary frame."""
        await self.to_app.put({"type": "websocket.receive", "bytes": data})

    async def send_json(self, data: Any) -> None:
        """Send a JSON message."""
        await self.send(json.dumps(data))

    async def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message (Closed if the server closed the socket)."""
        try:
            message = self.from_app.get_nowait()
        except asyncio.QueueEmpty:
            message = await asyncio.wait_for(self.from_app.get(), timeout)
        if message["type"] == "websocket.close":
            raise Closed(message.get("code", 1000))
        text = message.get("text")
        assert isinstance(text, str), message
        self.texts.append(text)
        data: dict[str, Any] = json.loads(text)
        self.received.append(data)
        return data

    async def receive_until(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """Messages until one of type ``kind`` (returned)."""
        while True:
            message = await self.receive(timeout)
            if message["type"] == kind:
                return message

    async def close(self) -> None:
        """Disconnect and wait for the server's side to finish."""
        await self.to_app.put({"type": "websocket.disconnect", "code": 1000})
        if self.task is not None:
            await asyncio.wait_for(self.task, 10)


@asynccontextmanager
async def running(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """Run the app's lifespan and give an HTTP client to it (in process)."""
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield client


async def open_socket(app: FastAPI, room_id: str, token: str | None = None, *, invite: str | None = None,
                      since: int = 0) -> tuple[AsgiSocket, dict[str, Any], dict[str, Any]]:
    """A socket that said hello: the socket, its welcome and its first state."""
    ws = await AsgiSocket(app, f"/api/rooms/{room_id}/ws").connect()
    await ws.send_json({"type": "hello", "token": token, "invite": invite, "since": since})
    welcome = await ws.receive()
    assert welcome["type"] == "welcome", welcome
    state = await ws.receive()
    assert state["type"] == "state", state
    return ws, welcome, state


async def make_room(client: httpx.AsyncClient, game: str, seats: list[dict[str, Any]],
                    setup: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """Create a room (asserting success) and return the answer."""
    response = await client.post("/api/rooms", json={"game": game, "seats": seats, "setup": setup or {}, **extra})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def join(client: httpx.AsyncClient, room_id: str, name: str, seat: int | None = None,
               invite: str | None = None) -> dict[str, Any]:
    """Join a seat (asserting success) and return the answer (with the token)."""
    response = await client.post(f"/api/rooms/{room_id}/join", json={"name": name, "seat": seat, "invite": invite})
    assert response.status_code == 200, response.text
    joined: dict[str, Any] = response.json()
    return joined


def new_app(url: str, **changes: Any) -> FastAPI:
    """An app with test settings over ``url``."""
    return create_app(settings_for(url, **changes))


# -- real server processes -------------------------------------------------------------------------------
def serve_command() -> list[str]:
    """How to start ``cardtable serve`` here (``python -m cardtable serve`` once the command line has it)."""
    import sys

    from cardtable.cli.main import app

    names = {c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands}
    if "serve" in names:
        return [sys.executable, "-m", "cardtable", "serve"]
    return [sys.executable, "-m", "cardtable.cli.serve_cmd", "serve"]


class ServerProcess:
    """``cardtable serve`` in a subprocess on a free loopback port (SIGKILL with :meth:`kill`)."""

    def __init__(self, db: str, port: int | None = None, *, log: Path | None = None, bot_iterations: int = 100) -> None:
        from cardtable.server.bench import free_port

        self.db = db
        self.port = port or free_port()
        self.log = log
        self.bot_iterations = bot_iterations
        self.proc: Any = None
        self.mark = secrets.token_hex(8)
        """Put in the process's environment, which its children inherit (to find them by)."""

    @property
    def url(self) -> str:
        """The server's HTTP address."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """The server's websocket address."""
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> ServerProcess:
        """Start the process and wait until it answers /api/health."""
        import subprocess
        import time

        out = open(self.log, "ab") if self.log is not None else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(
            [*serve_command(), "--host", "127.0.0.1", "--port", str(self.port), "--db", self.db,
             "--bot-iterations", str(self.bot_iterations), "--bot-workers", "1", "--log-level", "warning"],
            stdout=out, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "CARDTABLE_TEST_MARK": self.mark})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"cardtable serve exited with {self.proc.returncode}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.kill()
        raise RuntimeError("cardtable serve did not answer in time")

    def processes(self) -> list[int]:
        """The live processes started by this server (itself and its bot workers), found by their environment."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                environ = (entry / "environ").read_bytes()
                state = (entry / "stat").read_text().split()[2]
            except OSError:
                continue
            if f"CARDTABLE_TEST_MARK={self.mark}".encode() in environ.split(b"\0") and state != "Z":
                found.append(int(entry.name))
        return found

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flushing; what was committed is all that survives."""
        import signal

        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)

    def stop(self) -> None:
        """A normal shutdown (SIGTERM), SIGKILL if it takes too long."""
        import signal
        import subprocess

        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


class SeatPlayer:
    """A websocket client of one seat over the network that plays random legal moves and remembers what it saw."""

    def __init__(self, ws_url: str, room_id: str, token: str | None, seed: str) -> None:
        self.ws_url = ws_url
        self.room_id = room_id
        self.token = token
        self.rng = __import__("random").Random(seed)
        self.accepted: dict[int, str] = {}
        """version after -> action, for every action of this seat the server acknowledged."""
        self.versions: list[int] = []
        self.outcome: dict[str, Any] | None = None
        self.final_version = 0
        self.errors: list[dict[str, Any]] = []
        self.closed: str | None = None
        """Why the socket ended early (the close code and reason), if it did."""

    def __repr__(self) -> str:
        return (f"<SeatPlayer {self.room_id} token={'yes' if self.token else 'no'} outcome={self.outcome is not None} "
                f"versions={self.versions[-3:]} errors={self.errors[-3:]} closed={self.closed}>")

    async def play(self, *, stop_after: int | None = None, timeout: float = 60.0, act: bool = True) -> None:
        """Play until the game ends (or this seat made ``stop_after`` more moves, or the socket drops)."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        made = 0
        try:
            async with connect(f"{self.ws_url}/api/rooms/{self.room_id}/ws", open_timeout=30) as ws:
                await ws.send(json.dumps({"type": "hello", "token": self.token}))
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
                    if message["type"] == "accepted":
                        self.accepted[message["version"]] = message["action"]
                        made += 1
                    elif message["type"] == "error":
                        self.errors.append(message)
                    elif message["type"] == "state":
                        self.versions.append(message["version"])
                        if message["outcome"] is not None:
                            self.outcome, self.final_version = message["outcome"], message["version"]
                            return
                        if stop_after is not None and made >= stop_after:
                            return
                        if act and message["legal"]:
                            legal = message["legal"]
                            await ws.send(json.dumps({"type": "action", "action": legal[self.rng.randrange(len(legal))],
                                                      "version": message["version"]}))
        except ConnectionClosed as exc:
            self.closed = f"{exc.rcvd.code if exc.rcvd else None} {exc.rcvd.reason if exc.rcvd else ''} {exc!r}"
        except OSError as exc:
            self.closed = repr(exc)
