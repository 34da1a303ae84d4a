"""What a running server's routes share: its settings, its store, its hub and its bots."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.requests import HTTPConnection

from cardtable.core.errors import ErrorCode
from cardtable.store import DEFAULT_URL, Store, ratings

from .bots import MAX_ITERATIONS, BotRunner, ExecutorKind, warm_up
from .credentials import ARGON2_MEMORY_KIB, ARGON2_TIME_COST, PER_ADDRESS, PER_NAME, LoginLimits, Passwords
from .errors import Refusal
from .hub import Hub
from .social import DEFAULT_CHAT_RATE, chat_limiter
from .studio import Studio
from .throttle import DEFAULT_INVITES, DEFAULT_JOINS, Throttle

DB_URL_ENV = "CARDTABLE_DB_URL"
"""The environment variable that may hold the database URL (so that no password is on a command line)."""
DB_URL_FILE_ENV = "CARDTABLE_DB_URL_FILE"
"""The environment variable that may name a file holding the database URL (a container secret, say)."""


class SettingsError(ValueError):
    """A setting that cannot be used (the command line shows its message and exits with 2)."""


def read_db_file(path: str | Path) -> str:
    """The database URL held in a file (its first line, spaces stripped); SettingsError if there is none."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SettingsError(f"cannot read the database URL from {path}: {reason}") from None
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        raise SettingsError(f"the file {path} holds no database URL")
    return lines[0]


def database_url(db: str | None = None, db_file: str | Path | None = None,
                 environ: Mapping[str, str] | None = None) -> str:
    """The database URL: ``db`` (given on the command line), else the file ``db_file``, else the variable
    ``CARDTABLE_DB_URL``, else the file named by ``CARDTABLE_DB_URL_FILE``, else the default SQLite file.

    >>> database_url(environ={"CARDTABLE_DB_URL": "postgresql+psycopg://u:secret@db/rooms"})
    'postgresql+psycopg://u:secret@db/rooms'
    >>> database_url(environ={})
    'sqlite:///cardtable.db'
    """
    env = os.environ if environ is None else environ
    if db is not None and db_file is not None:
        raise SettingsError("give the database as --db or --db-file, not both")
    if db is not None:
        return db
    if db_file is not None:
        return read_db_file(db_file)
    if env.get(DB_URL_ENV):
        return env[DB_URL_ENV]
    if env.get(DB_URL_FILE_ENV):
        return read_db_file(env[DB_URL_FILE_ENV])
    return DEFAULT_URL


@dataclass(frozen=True)
class ServerSettings:
    """How a server runs: its database, its bots' workers and budget, and its limits."""

    db: str = DEFAULT_URL
    """Any SQLAlchemy URL (``sqlite:///file.db``, ``postgresql+psycopg://user:pw@host/db``)."""
    durable: bool = True
    """False (tests only): SQLite skips its fsync on commit."""
    bot_iterations: int = MAX_ITERATIONS
    """The most search iterations a bot may spend on a move (its budget is iterations, never seconds)."""
    bot_workers: int = 2
    """Local bot worker processes (or the CPUs of a local Ray instance)."""
    bot_executor: ExecutorKind | str = ExecutorKind.PROCESS
    """``process``, ``thread`` (tests) or ``ray``."""
    ray_address: str | None = None
    """With ``bot_executor=ray``: the Ray cluster to join (``auto``, ``ray://host:10001``); None starts one here."""
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
    group_commits: bool = True
    """Store the actions of every room that arrive during a commit together in the next one (one fsync)."""
    join_rate: str = DEFAULT_JOINS
    """How many joins one client address may attempt (a ``limits`` rate: ``60/minute``)."""
    invite_rate: str = DEFAULT_INVITES
    """How many wrong invite codes one client address may send (``10/minute``)."""
    secure_cookies: bool = False
    """Mark the session cookie Secure on every answer (it is anyway on requests that came over https)."""
    rp_id: str | None = None
    """The WebAuthn relying party id of passkeys (None: the host name of each request)."""
    trusted_origins: tuple[str, ...] = ()
    """Origins other than the server's own (its ``Host``) that may send state-changing requests with a session
    (a front proxy's public origin, ``https://cards.example``)."""
    login_name_rate: str = PER_NAME
    """Failed sign-ins allowed per account name (``10/minute``)."""
    login_address_rate: str = PER_ADDRESS
    """Failed sign-ins allowed per client address (``30/minute``)."""
    argon2_memory_kib: int = ARGON2_MEMORY_KIB
    """argon2id memory per password hash, in KiB (tests lower it to run fast)."""
    argon2_time_cost: int = ARGON2_TIME_COST
    """argon2id passes per password hash."""
    studio_workers: int = 1
    """Low-priority processes playing the studio's studies (apart from the bots'), or CPUs asked of Ray."""
    studio_max_running: int = 2
    """How many studies one person (an account, or a guest's address) may have queued or running at once."""
    lab_ray: str | None = None
    """A Ray cluster's address for the studio's studies (None: local worker processes)."""
    chat_rate: str = DEFAULT_CHAT_RATE
    """How many chat messages one sender may send (a ``limits`` rate; past it: ``rate_limited``)."""
    card_sets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Per game, the rule flags of the card set its new rooms play unless they set those flags themselves
    (``cardtable serve --cards SET.toml``)."""
    bot_pace: float = 0.0
    """The least seconds between two moves of a room where no person is seated while somebody watches it, so
    spectators can follow a game of bots (``cardtable serve`` makes it 1; 0 here: tests and benchmarks)."""

    @classmethod
    def from_env(cls) -> ServerSettings:
        """Settings of a uvicorn worker process, from the environment ``cardtable serve --workers N`` sets:
        the database (``CARDTABLE_DB_URL`` or ``CARDTABLE_DB_URL_FILE``), ``CARDTABLE_BOT_ITERATIONS``,
        ``CARDTABLE_BOT_WORKERS``, ``CARDTABLE_BOT_EXECUTOR``, ``CARDTABLE_RAY_ADDRESS``,
        ``CARDTABLE_JOIN_LIMIT``, ``CARDTABLE_INVITE_LIMIT``, ``CARDTABLE_SECURE_COOKIES`` (``1``),
        ``CARDTABLE_RP_ID``, ``CARDTABLE_TRUSTED_ORIGINS`` (comma-separated) and ``CARDTABLE_CARD_SETS`` (JSON: per
        game, the flags of its card set); ``CARDTABLE_BOT_PACE`` (seconds, default 1)."""
        return cls(db=database_url(),
                   bot_iterations=int(os.environ.get("CARDTABLE_BOT_ITERATIONS", str(MAX_ITERATIONS))),
                   bot_workers=int(os.environ.get("CARDTABLE_BOT_WORKERS", "2")),
                   bot_executor=ExecutorKind(os.environ.get("CARDTABLE_BOT_EXECUTOR", "process")),
                   ray_address=os.environ.get("CARDTABLE_RAY_ADDRESS") or None,
                   join_rate=os.environ.get("CARDTABLE_JOIN_LIMIT", DEFAULT_JOINS),
                   invite_rate=os.environ.get("CARDTABLE_INVITE_LIMIT", DEFAULT_INVITES),
                   group_commits=os.environ.get("CARDTABLE_GROUP_COMMITS", "1") != "0",
                   secure_cookies=os.environ.get("CARDTABLE_SECURE_COOKIES", "0") == "1",
                   rp_id=os.environ.get("CARDTABLE_RP_ID") or None,
                   trusted_origins=tuple(o.strip() for o in os.environ.get("CARDTABLE_TRUSTED_ORIGINS", "").split(",")
                                         if o.strip()),
                   card_sets=json.loads(os.environ.get("CARDTABLE_CARD_SETS") or "{}"),
                   bot_pace=float(os.environ.get("CARDTABLE_BOT_PACE", "1.0")))


class Services:
    """What the routes share: the settings, the store and the hub (set while the app runs)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.store: Store | None = None
        self.hub: Hub | None = None
        self.bots = BotRunner(max_iterations=settings.bot_iterations, workers=settings.bot_workers,
                              kind=settings.bot_executor, ray_address=settings.ray_address)
        self.throttle = Throttle(joins=settings.join_rate, invites=settings.invite_rate)
        self.passwords = Passwords(memory_kib=settings.argon2_memory_kib, time_cost=settings.argon2_time_cost)
        self.logins = LoginLimits(per_name=settings.login_name_rate, per_address=settings.login_address_rate)
        self.studio: Studio | None = None

    async def start(self) -> None:
        """Load the games' registry, open the store (applying migrations) and start the hub."""
        settings = self.settings
        await asyncio.to_thread(warm_up)  # the registry loads once, before worker threads use it
        await asyncio.to_thread(self.bots.start)
        self.store = await asyncio.to_thread(Store.open, settings.db, durable=settings.durable, origin=settings.origin)
        self.store.on_finish(ratings.on_finish)  # a rated room's finished game updates its players' ratings
        self.hub = Hub(self.store, self.bots, queue_limit=settings.queue_limit,
                       max_connections=settings.max_connections_per_room, group_commits=settings.group_commits,
                       bot_pace=settings.bot_pace)
        self.hub.chat_limit = chat_limiter(settings.chat_rate)
        await self.hub.start()
        self.studio = Studio(self.store, settings.db, workers=settings.studio_workers,
                             max_running=settings.studio_max_running, ray_address=settings.lab_ray)
        await self.studio.start()  # studies a stopped server left running resume

    async def stop(self) -> None:
        """Stop the studio, the hub, the bots and the store."""
        if self.studio is not None:
            await self.studio.stop()
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
