"""What a running server's routes share: its settings, its store, its hub and its bots."""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field

from starlette.requests import HTTPConnection

from cardtable.core.errors import ErrorCode
from cardtable.store import DEFAULT_URL, Store

from .bots import BotRunner, ExecutorKind, warm_up
from .errors import Refusal
from .hub import Hub


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


def services_of(conn: HTTPConnection) -> Services:
    """The services of the app a request or a socket came to (a route's dependency)."""
    found = getattr(conn.app.state, "services", None)
    if not isinstance(found, Services):
        raise Refusal(ErrorCode.UNAVAILABLE, "the server is starting or stopping", status=503)
    return found
