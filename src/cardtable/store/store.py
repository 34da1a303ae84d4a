"""The server's storage: rooms, seats, games, append-only actions and finished records in one database.

Any SQLAlchemy URL works: an SQLite file (the default, one server process) or PostgreSQL through
psycopg 3 (several server processes). Opening a store applies the migrations. Every method is one
transaction and blocks; the server calls them from worker threads.

The append-only ``actions`` table has ``UNIQUE(room_id, game_no, version)``: two processes can never
both accept an action at the same version; the loser's :meth:`Store.append_action` raises
:class:`VersionConflict`. On PostgreSQL every write also sends a ``NOTIFY`` on the store's channel, in
the same transaction, so other processes learn of it once it is committed (:meth:`Store.listen`).

>>> store = Store.open("sqlite://")
>>> room = store.create_room(game="zeta", title="", rules={}, rules_version=1, setup={}, private=False,
...                          invite_hash=None, on_leave=LeavePolicy.REOPEN, leave_bot="",
...                          seats=[(SeatStatus.OPEN, "human"), (SeatStatus.BOT, "random")], seed=7, to_move=0)
>>> seat, after = store.join(room.id, None, "Alice", "ab" * 32)
>>> seat, [s.status.value for s in after.seats]
(0, ['taken', 'bot'])
>>> store.append_action(room.id, 1, 0, 0, "pass", to_move=1)
>>> [a.action for a in store.actions(room.id, 1)]
['pass']
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, create_engine, delete, event, func, insert, select, text, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.pool import StaticPool

from .models import (
    ID_LENGTH,
    NAME_LENGTH,
    SPEC_LENGTH,
    TITLE_LENGTH,
    ActionRow,
    GameRow,
    LeavePolicy,
    RecordRow,
    RoomRow,
    SeatRow,
    SeatStatus,
    SittingRow,
    utcnow,
)
from .social_models import ClockKind, RoomSocial, RoomSocialRow

log = logging.getLogger(__name__)

DEFAULT_URL = "sqlite:///cardtable.db"
"""The database ``cardtable serve`` uses without ``--db``: the file ``cardtable.db`` in the current folder."""

CHANNEL = "cardtable"
"""The PostgreSQL ``LISTEN``/``NOTIFY`` channel of the store's changes."""

_MIGRATION_LOCK = 7_301_952_211
"""The PostgreSQL advisory lock that serializes migrations of processes starting together."""


_INSERT_ACTION = insert(ActionRow)
_ADVANCE_GAME = (update(GameRow)
                 .where(GameRow.room_id == bindparam("r"), GameRow.game_no == bindparam("g"),
                        GameRow.version == bindparam("v"), GameRow.finished_at.is_(None))
                 .values(version=bindparam("next"), to_move=bindparam("to_move"), finished_at=bindparam("finished")))
_TOUCH_ROOM = update(RoomRow).where(RoomRow.id == bindparam("r")).values(updated_at=bindparam("now"))
_ROOM_AND_GAME = select(
    RoomRow.id, RoomRow.game, RoomRow.title, RoomRow.rules, RoomRow.rules_version, RoomRow.setup, RoomRow.private,
    RoomRow.invite_hash, RoomRow.on_leave, RoomRow.leave_bot, RoomRow.game_no, RoomRow.rated, RoomRow.created_at,
    RoomRow.updated_at,
    GameRow.seed, GameRow.version, GameRow.to_move, GameRow.started_at, GameRow.finished_at,
).join(GameRow, (GameRow.room_id == RoomRow.id) & (GameRow.game_no == RoomRow.game_no))
_SEATS = select(SeatRow.room_id, SeatRow.seat, SeatRow.status, SeatRow.spec, SeatRow.name, SeatRow.account_id)
"""The statements of the hot paths (an accepted action, reading a room), built once."""


class StoreError(Exception):
    """A request the store refuses; ``code`` is a stable machine-readable reason."""

    code = "store_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NoSuchRoom(StoreError):
    """The room does not exist."""

    code = "no_such_room"


class SeatUnavailable(StoreError):
    """The seat asked for is not open (or no seat is)."""

    code = "seat_taken"


class BadToken(StoreError):
    """The seat token matches no seat of the room (never issued, or revoked when its seat was left)."""

    code = "bad_token"


class VersionConflict(StoreError):
    """Another action was accepted at this version first (or the game moved on)."""

    code = "stale_version"


class GameNotFinished(StoreError):
    """A rematch asked for while the room's game goes on, or a record of an unfinished game."""

    code = "not_finished"


class NoSuchGame(StoreError):
    """The room has no game of that number."""

    code = "no_such_game"


class GameFinished(StoreError):
    """The room's game is over (nobody can join it)."""

    code = "game_over"


@dataclass(frozen=True)
class SeatInfo:
    """One seat as stored: its status, its spec (``human`` or an agent spec), a person's name and account."""

    seat: int
    status: SeatStatus
    spec: str
    name: str
    account_id: str | None = None
    """The account of the person holding it (None: a guest, a bot or nobody)."""


@dataclass(frozen=True)
class Sitting:
    """Who sat in a seat from a version of the current game on: a person (spec ``human``) or a bot."""

    seat: int
    from_version: int
    spec: str
    name: str
    account_id: str | None = None
    """The account of the person who sat down (None: a guest or a bot)."""


@dataclass(frozen=True)
class RoomInfo:
    """A room as stored, with its seats and its current game (its seed stays on the server)."""

    id: str
    game: str
    title: str
    rules: dict[str, Any]
    rules_version: int
    setup: dict[str, Any]
    private: bool
    invite_hash: str | None
    on_leave: LeavePolicy
    leave_bot: str
    game_no: int
    seed: int
    version: int
    to_move: int | None
    started: bool
    finished: bool
    created_at: datetime
    updated_at: datetime
    seats: tuple[SeatInfo, ...]
    sittings: tuple[Sitting, ...] = ()
    """Everybody who sat in a seat during the current game, in the order they sat down."""
    rated: bool = False
    """Its games between signed-in players change their ratings."""
    social: RoomSocial = RoomSocial()
    """Its owner account, spectator chat and clock (``cardtable.store.social``)."""

    @property
    def open_seats(self) -> list[int]:
        """The seats a person may join."""
        return [s.seat for s in self.seats if s.status is SeatStatus.OPEN]


@dataclass(frozen=True)
class StoredAction:
    """One accepted action: its version (index in the history), the seat that made it, its string."""

    version: int
    seat: int
    action: str


@dataclass(frozen=True)
class NewAction:
    """An action to store: its room, game and version, the seat, its string, who moves next; the record and
    outcome if it ended the game."""

    room_id: str
    game_no: int
    version: int
    seat: int
    action: str
    to_move: int | None
    record: Mapping[str, Any] | None = None
    outcome: Mapping[str, Any] | None = None


FinishHook = Callable[[Connection, NewAction], None]
"""What runs in the transaction that stores a game's last action (:meth:`Store.on_finish`)."""


@dataclass(frozen=True)
class GameSummary:
    """One game of a room's history."""

    game_no: int
    version: int
    started: bool
    finished_at: datetime | None
    outcome: dict[str, Any] | None


@dataclass(frozen=True)
class Change:
    """A committed change another process announced: its room, what changed, the game and version."""

    origin: str
    room_id: str
    kind: str
    game_no: int
    version: int


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _cut(value: str, limit: int) -> str:
    if len(value) > limit:
        raise ValueError(f"at most {limit} characters, got {len(value)}")
    return value


class Store:
    """The database of rooms; open one with :meth:`Store.open`."""

    def __init__(self, engine: Engine, *, origin: str | None = None) -> None:
        self.engine = engine
        self.origin = origin or secrets.token_hex(8)
        """This process's name in the notifications it sends (so it can ignore its own)."""
        self._sqlite_writer = threading.Lock() if engine.dialect.name == "sqlite" else None
        self._finish_hooks: list[FinishHook] = []

    # -- opening ------------------------------------------------------------------------------------
    @classmethod
    def open(cls, url: str = DEFAULT_URL, *, migrate: bool = True, durable: bool = True,
             origin: str | None = None) -> Store:
        """Connect to ``url`` (any SQLAlchemy URL) and apply the migrations.

        ``durable=False`` (tests only) lets SQLite skip its fsync on commit.
        """
        engine = _engine(url, durable=durable)
        store = cls(engine, origin=origin)
        if migrate:
            store.migrate()
        return store

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql`` (or whatever the URL names)."""
        return self.engine.dialect.name

    def migrate(self) -> None:
        """Bring the schema to the newest migration (several processes may do it at once on PostgreSQL)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", "cardtable.store:migrations")
        with self.engine.begin() as conn:
            if self.dialect == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    def transaction(self) -> contextlib.AbstractContextManager[Connection]:
        """One write transaction (committed when the block ends): what other parts of the server (accounts,
        ratings) write with, queued like the store's own writes."""
        return self._write()

    def on_finish(self, hook: FinishHook) -> None:
        """Run ``hook(conn, item)`` inside the transaction that stores a game's last action and its record,
        once per finished game: what it writes commits with the record or not at all. A hook that raises
        is logged and its writes are rolled back (a savepoint); the action is stored all the same."""
        self._finish_hooks.append(hook)

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """A write transaction. SQLite has one writer at a time: this process's writers queue on a lock
        (not in SQLite's sleeping busy handler), and ``BEGIN IMMEDIATE`` takes the database's write
        lock at once (against other processes)."""
        lock = self._sqlite_writer
        if lock is not None:
            lock.acquire()
        try:
            with self.engine.connect().execution_options(cardtable_write=True) as conn, conn.begin():
                yield conn
        finally:
            if lock is not None:
                lock.release()

    # -- rooms --------------------------------------------------------------------------------------
    def create_room(self, *, game: str, title: str, rules: Mapping[str, Any], rules_version: int,
                    setup: Mapping[str, Any], private: bool, invite_hash: str | None, on_leave: LeavePolicy,
                    leave_bot: str, seats: Sequence[tuple[SeatStatus, str]], seed: int,
                    to_move: int | None, rated: bool = False, social: RoomSocial | None = None) -> RoomInfo:
        """A new room with its seats and its first game (and its owner, chat and clock settings); its id is a
        fresh random string."""
        _cut(title, TITLE_LENGTH)
        _cut(leave_bot, SPEC_LENGTH)
        for _, spec in seats:
            _cut(spec, SPEC_LENGTH)
        now = utcnow()
        started = all(status is not SeatStatus.OPEN for status, _ in seats)
        for _ in range(5):
            room_id = secrets.token_urlsafe(9)
            try:
                with self._write() as conn:
                    conn.execute(insert(RoomRow).values(
                        id=room_id, game=game, title=title, rules=dict(rules), rules_version=rules_version,
                        setup=dict(setup), private=private, invite_hash=invite_hash, on_leave=on_leave,
                        leave_bot=leave_bot, game_no=1, rated=rated, created_at=now, updated_at=now))
                    conn.execute(insert(SeatRow), [
                        {"room_id": room_id, "seat": i, "status": status, "spec": spec, "name": "",
                         "token_hash": None, "updated_at": now} for i, (status, spec) in enumerate(seats)])
                    conn.execute(insert(GameRow).values(
                        room_id=room_id, game_no=1, seed=seed, version=0, to_move=to_move,
                        started_at=now if started else None, finished_at=None, created_at=now))
                    bots = [{"room_id": room_id, "game_no": 1, "seat": i, "from_version": 0, "spec": spec, "name": "",
                             "created_at": now} for i, (status, spec) in enumerate(seats) if status is SeatStatus.BOT]
                    if bots:
                        conn.execute(insert(SittingRow), bots)
                    if social is not None:
                        conn.execute(insert(RoomSocialRow).values(
                            room_id=room_id, owner_account=social.owner_account, spectator_chat=social.spectator_chat,
                            clock=social.clock.value, base_s=social.base_s, increment_s=social.increment_s,
                            move_s=social.move_s))
                    self._publish(conn, room_id, "room", 1, 0)
            except IntegrityError:  # pragma: no cover - a 72-bit id collision
                continue
            return self.room(room_id)
        raise StoreError("could not find a free room id")  # pragma: no cover

    def room(self, room_id: str) -> RoomInfo:
        """The room ``room_id`` with its seats and current game (NoSuchRoom if none)."""
        with self.engine.connect() as conn:
            found = self._rooms(conn, [room_id])
        if not found:
            raise NoSuchRoom(f"there is no room {room_id!r}")
        return found[0]

    def list_rooms(self, *, open_only: bool = True, limit: int = 50, offset: int = 0) -> list[RoomInfo]:
        """Public rooms, most recently active first; ``open_only``: those with an open seat and a game on."""
        query = (select(RoomRow.id).join(GameRow, (GameRow.room_id == RoomRow.id) & (GameRow.game_no == RoomRow.game_no))
                 .where(RoomRow.private.is_(False)))
        if open_only:
            has_open = (select(SeatRow.seat).where(SeatRow.room_id == RoomRow.id, SeatRow.status == SeatStatus.OPEN)
                        .exists())
            query = query.where(GameRow.finished_at.is_(None), has_open)
        query = query.order_by(RoomRow.updated_at.desc(), RoomRow.id).limit(limit).offset(offset)
        with self.engine.connect() as conn:
            ids = [row[0] for row in conn.execute(query)]
            return self._rooms(conn, ids)

    def _rooms(self, conn: Connection, ids: Sequence[str]) -> list[RoomInfo]:
        if not ids:
            return []
        rows = conn.execute(_ROOM_AND_GAME.where(RoomRow.id.in_(ids))).all()
        seats: dict[str, list[SeatInfo]] = {}
        for s in conn.execute(_SEATS.where(SeatRow.room_id.in_(ids)).order_by(SeatRow.room_id, SeatRow.seat)):
            seats.setdefault(s.room_id, []).append(SeatInfo(s.seat, s.status, s.spec, s.name, s.account_id))
        games = {r.id: r.game_no for r in rows}
        sat: dict[str, list[Sitting]] = {}
        for t in conn.execute(select(SittingRow.room_id, SittingRow.game_no, SittingRow.seat, SittingRow.from_version,
                                     SittingRow.spec, SittingRow.name, SittingRow.account_id)
                              .where(SittingRow.room_id.in_(ids)).order_by(SittingRow.id)):
            if games.get(t.room_id) == t.game_no:
                sat.setdefault(t.room_id, []).append(Sitting(t.seat, t.from_version, t.spec, t.name, t.account_id))
        social = {r.room_id: RoomSocial(r.owner_account, bool(r.spectator_chat), ClockKind(r.clock), r.base_s,
                                        r.increment_s, r.move_s)
                  for r in conn.execute(select(RoomSocialRow).where(RoomSocialRow.room_id.in_(ids)))}
        by_id: dict[str, RoomInfo] = {}
        for r in rows:
            by_id[r.id] = RoomInfo(
                id=r.id, game=r.game, title=r.title, rules=dict(r.rules), rules_version=r.rules_version,
                setup=dict(r.setup), private=r.private, invite_hash=r.invite_hash, on_leave=r.on_leave,
                leave_bot=r.leave_bot, game_no=r.game_no, seed=r.seed, version=r.version, to_move=r.to_move,
                started=r.started_at is not None, finished=r.finished_at is not None,
                created_at=_aware(r.created_at), updated_at=_aware(r.updated_at), seats=tuple(seats.get(r.id, [])),
                sittings=tuple(sat.get(r.id, [])), rated=bool(r.rated), social=social.get(r.id, RoomSocial()))
        return [by_id[i] for i in ids if i in by_id]

    # -- seats --------------------------------------------------------------------------------------
    def join(self, room_id: str, seat: int | None, name: str, token_hash: str,
             account_id: str | None = None) -> tuple[int, RoomInfo]:
        """Give ``seat`` (None: the first open one) to a person with a token of this hash (signed in to
        ``account_id``, or a guest); the seat and the room.

        NoSuchRoom, GameFinished, or SeatUnavailable if the seat is not open (another person may have
        just taken it: the check and the change are one statement).
        """
        _cut(name, NAME_LENGTH)
        for _ in range(8):
            with self._write() as conn:
                room = self._room_row(conn, room_id)
                game = self._game_row(conn, room_id, room.game_no)
                if game.finished_at is not None:
                    raise GameFinished("the game in this room is over")
                chosen = seat
                if chosen is None:
                    chosen = conn.execute(select(func.min(SeatRow.seat)).where(
                        SeatRow.room_id == room_id, SeatRow.status == SeatStatus.OPEN)).scalar()
                    if chosen is None:
                        raise SeatUnavailable("no seat of this room is open")
                done = conn.execute(update(SeatRow).where(
                    SeatRow.room_id == room_id, SeatRow.seat == chosen, SeatRow.status == SeatStatus.OPEN,
                ).values(status=SeatStatus.TAKEN, spec="human", name=name, token_hash=token_hash,
                         account_id=account_id, updated_at=utcnow())).rowcount
                if done == 1:
                    conn.execute(insert(SittingRow).values(room_id=room_id, game_no=room.game_no, seat=chosen,
                                                           from_version=game.version, spec="human", name=name,
                                                           account_id=account_id, created_at=utcnow()))
                    self._seats_changed(conn, room_id, room.game_no, game.version)
                    taken = int(chosen)
                    break
            if seat is not None:
                exists = self._seat_exists(room_id, seat)
                raise SeatUnavailable(f"seat {seat} is already taken" if exists else
                                      f"this room has no seat {seat}")
        else:  # pragma: no cover - eight joins raced this one
            raise SeatUnavailable("no seat of this room is open")
        return taken, self.room(room_id)

    def _seat_exists(self, room_id: str, seat: int) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(SeatRow.seat).where(SeatRow.room_id == room_id, SeatRow.seat == seat)).first() is not None

    def leave(self, room_id: str, token_hash: str) -> tuple[int, RoomInfo]:
        """Revoke the token: its seat reopens, or the room's bot takes it. The seat and the room; BadToken."""
        with self._write() as conn:
            room = self._room_row(conn, room_id)
            seat = conn.execute(select(SeatRow.seat).where(SeatRow.room_id == room_id,
                                                           SeatRow.token_hash == token_hash)).scalar()
            if seat is None:
                raise BadToken("this seat token is not valid in this room")
            if room.on_leave is LeavePolicy.BOT:
                values: dict[str, Any] = {"status": SeatStatus.BOT, "spec": room.leave_bot}
            else:
                values = {"status": SeatStatus.OPEN, "spec": "human"}
            conn.execute(update(SeatRow).where(SeatRow.room_id == room_id, SeatRow.seat == seat,
                                               SeatRow.token_hash == token_hash)
                         .values(name="", token_hash=None, account_id=None, updated_at=utcnow(), **values))
            game = self._game_row(conn, room_id, room.game_no)
            if room.on_leave is LeavePolicy.BOT:
                conn.execute(insert(SittingRow).values(room_id=room_id, game_no=room.game_no, seat=seat,
                                                       from_version=game.version, spec=room.leave_bot, name="",
                                                       created_at=utcnow()))
            self._seats_changed(conn, room_id, room.game_no, game.version)
        return seat, self.room(room_id)

    def seat_of(self, room_id: str, token_hash: str) -> int | None:
        """The seat the token holds in this room (None if it holds none)."""
        with self.engine.connect() as conn:
            found = conn.execute(select(SeatRow.seat).where(SeatRow.room_id == room_id,
                                                            SeatRow.token_hash == token_hash)).scalar()
        return None if found is None else int(found)

    def token_hashes(self, room_id: str) -> dict[int, str]:
        """The token hash of every seat a person holds (server side: to drop connections whose token was revoked)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(SeatRow.seat, SeatRow.token_hash).where(
                SeatRow.room_id == room_id, SeatRow.token_hash.is_not(None))).all()
        return {int(seat): str(h) for seat, h in rows}

    def _seats_changed(self, conn: Connection, room_id: str, game_no: int, version: int) -> None:
        now = utcnow()
        still_open = conn.execute(select(func.count()).select_from(SeatRow).where(
            SeatRow.room_id == room_id, SeatRow.status == SeatStatus.OPEN)).scalar()
        if not still_open:
            conn.execute(update(GameRow).where(GameRow.room_id == room_id, GameRow.game_no == game_no,
                                               GameRow.started_at.is_(None)).values(started_at=now))
        conn.execute(update(RoomRow).where(RoomRow.id == room_id).values(updated_at=now))
        self._publish(conn, room_id, "seats", game_no, version)

    # -- actions ------------------------------------------------------------------------------------
    def actions(self, room_id: str, game_no: int, start: int = 0) -> list[StoredAction]:
        """The accepted actions of a game from version ``start``, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(ActionRow.version, ActionRow.seat, ActionRow.action).where(
                ActionRow.room_id == room_id, ActionRow.game_no == game_no, ActionRow.version >= start,
            ).order_by(ActionRow.version)).all()
        return [StoredAction(int(v), int(s), str(a)) for v, s, a in rows]

    def append_action(self, room_id: str, game_no: int, version: int, seat: int, action: str, *,
                      to_move: int | None, record: Mapping[str, Any] | None = None,
                      outcome: Mapping[str, Any] | None = None) -> None:
        """Store the action accepted at ``version`` (and, if it ended the game, the record) in one commit.

        VersionConflict if an action is already stored at this version, or the game is over or replaced.
        """
        item = NewAction(room_id, game_no, version, seat, action, to_move, record, outcome)
        try:
            with self._write() as conn:
                self._append(conn, item, utcnow())
        except IntegrityError:
            raise VersionConflict(f"another action was accepted at version {version} first") from None

    def append_actions(self, items: Sequence[NewAction]) -> list[VersionConflict | None]:
        """Store actions of several rooms in one commit (one fsync for all: a group commit).

        Each is stored or refused on its own (a savepoint each): the answer holds, in order, None for an
        action stored and the VersionConflict of one that lost its version. If the commit itself fails,
        the exception is raised and none is stored.
        """
        now = utcnow()
        if len(items) == 1:  # alone in its commit: no savepoint needed to refuse it alone
            try:
                with self._write() as conn:
                    self._append(conn, items[0], now)
                return [None]
            except IntegrityError:
                return [VersionConflict(f"another action was accepted at version {items[0].version} first")]
            except VersionConflict as exc:
                return [exc]
        rooms = {(item.room_id, item.game_no) for item in items}
        if len(rooms) == len(items) and all(item.record is None for item in items):
            try:  # the usual batch: one action per room, none ending its game: stored together, no savepoints
                with self._write() as conn:
                    self._append_many(conn, items, now)
                return [None] * len(items)
            except (IntegrityError, VersionConflict):
                pass  # some action lost its version: store them one savepoint each, to refuse just that one
        results: list[VersionConflict | None] = []
        with self._write() as conn:
            for item in items:
                try:
                    with conn.begin_nested():
                        self._append(conn, item, now)
                    results.append(None)
                except IntegrityError:
                    results.append(VersionConflict(f"another action was accepted at version {item.version} first"))
                except VersionConflict as exc:
                    results.append(exc)
        return results

    def _append_many(self, conn: Connection, items: Sequence[NewAction], now: datetime) -> None:
        """Store actions of distinct rooms, none ending its game, with one statement of each kind (an
        executemany); VersionConflict (or IntegrityError) if any of them lost its version."""
        conn.execute(_INSERT_ACTION, [{"room_id": i.room_id, "game_no": i.game_no, "version": i.version, "seat": i.seat,
                                       "action": i.action, "created_at": now} for i in items])
        advances = [{"r": i.room_id, "g": i.game_no, "v": i.version, "next": i.version + 1, "to_move": i.to_move,
                     "finished": None} for i in items]
        if conn.dialect.supports_sane_multi_rowcount:
            moved = conn.execute(_ADVANCE_GAME, advances).rowcount
        else:  # pragma: no cover - the drivers the store supports count executemany's rows
            moved = sum(conn.execute(_ADVANCE_GAME, a).rowcount for a in advances)
        if moved != len(items):
            raise VersionConflict("a game has moved on")
        conn.execute(_TOUCH_ROOM, [{"r": i.room_id, "now": now} for i in items])
        for i in items:
            self._publish(conn, i.room_id, "action", i.game_no, i.version + 1)

    def _append(self, conn: Connection, item: NewAction, now: datetime) -> None:
        conn.execute(_INSERT_ACTION, {"room_id": item.room_id, "game_no": item.game_no, "version": item.version,
                                      "seat": item.seat, "action": item.action, "created_at": now})
        moved = conn.execute(_ADVANCE_GAME, {"r": item.room_id, "g": item.game_no, "v": item.version,
                                             "next": item.version + 1, "to_move": item.to_move,
                                             "finished": now if item.record is not None else None}).rowcount
        if moved != 1:
            raise VersionConflict(f"the game has moved on from version {item.version}")
        if item.record is not None:
            conn.execute(insert(RecordRow).values(room_id=item.room_id, game_no=item.game_no, record=dict(item.record),
                                                  outcome=dict(item.outcome or {}), finished_at=now))
            for hook in self._finish_hooks:
                try:
                    with conn.begin_nested():
                        hook(conn, item)
                except Exception:
                    log.exception("a finish hook failed for game %s of room %s", item.game_no, item.room_id)
        conn.execute(_TOUCH_ROOM, {"r": item.room_id, "now": now})
        self._publish(conn, item.room_id, "action", item.game_no, item.version + 1)

    def end_game(self, item: NewAction, also: Callable[[Connection], None] | None = None) -> None:
        """End game ``item.game_no`` at ``item.version`` without an action (a timeout, a resignation): store its
        record and outcome, run the finish hooks and ``also(conn)``, in one commit. VersionConflict if the
        game has moved on or is over (an action or another process's end came first)."""
        now = utcnow()
        with self._write() as conn:
            moved = conn.execute(update(GameRow).where(
                GameRow.room_id == item.room_id, GameRow.game_no == item.game_no, GameRow.version == item.version,
                GameRow.finished_at.is_(None)).values(to_move=None, finished_at=now)).rowcount
            if moved != 1:
                raise VersionConflict(f"the game has moved on from version {item.version}")
            conn.execute(insert(RecordRow).values(room_id=item.room_id, game_no=item.game_no,
                                                  record=dict(item.record or {}), outcome=dict(item.outcome or {}),
                                                  finished_at=now))
            if also is not None:
                also(conn)
            for hook in self._finish_hooks:
                try:
                    with conn.begin_nested():
                        hook(conn, item)
                except Exception:
                    log.exception("a finish hook failed for game %s of room %s", item.game_no, item.room_id)
            conn.execute(_TOUCH_ROOM, {"r": item.room_id, "now": now})
            self._publish(conn, item.room_id, "end", item.game_no, item.version)

    def take_back(self, room_id: str, game_no: int, version: int, target: int, to_move: int | None) -> None:
        """Take game ``game_no`` back from ``version`` to ``target`` (a takeback every person at the table agreed
        to): its actions from ``target`` on are removed and the game stands at ``target`` again, in one commit.
        The only change to ``actions`` that is not an append. VersionConflict if the game has moved on or is over."""
        if not 0 <= target < version:
            raise ValueError(f"a takeback goes back to a version before {version}, not to {target}")
        now = utcnow()
        with self._write() as conn:
            moved = conn.execute(update(GameRow).where(
                GameRow.room_id == room_id, GameRow.game_no == game_no, GameRow.version == version,
                GameRow.finished_at.is_(None)).values(version=target, to_move=to_move)).rowcount
            if moved != 1:
                raise VersionConflict(f"the game has moved on from version {version}")
            conn.execute(delete(ActionRow).where(ActionRow.room_id == room_id, ActionRow.game_no == game_no,
                                                 ActionRow.version >= target))
            conn.execute(_TOUCH_ROOM, {"r": room_id, "now": now})
            self._publish(conn, room_id, "takeback", game_no, target)

    def rematch(self, room_id: str, game_no: int, seed: int, to_move: int | None) -> RoomInfo:
        """Start game ``game_no + 1`` in the room, same seats and tokens (GameNotFinished, VersionConflict)."""
        now = utcnow()
        try:
            with self._write() as conn:
                room = self._room_row(conn, room_id)
                if room.game_no != game_no:
                    raise VersionConflict(f"the room is at game {room.game_no}, not {game_no}")
                game = self._game_row(conn, room_id, game_no)
                if game.finished_at is None:
                    raise GameNotFinished("the game in this room is not over")
                still_open = conn.execute(select(func.count()).select_from(SeatRow).where(
                    SeatRow.room_id == room_id, SeatRow.status == SeatStatus.OPEN)).scalar()
                conn.execute(insert(GameRow).values(room_id=room_id, game_no=game_no + 1, seed=seed, version=0,
                                                    to_move=to_move, started_at=None if still_open else now,
                                                    finished_at=None, created_at=now))
                if conn.execute(update(RoomRow).where(RoomRow.id == room_id, RoomRow.game_no == game_no)
                                .values(game_no=game_no + 1, updated_at=now)).rowcount != 1:
                    raise VersionConflict("another rematch started first")  # pragma: no cover - guarded above
                filled = conn.execute(select(SeatRow.seat, SeatRow.spec, SeatRow.name, SeatRow.account_id).where(
                    SeatRow.room_id == room_id, SeatRow.status != SeatStatus.OPEN).order_by(SeatRow.seat)).all()
                if filled:
                    conn.execute(insert(SittingRow), [
                        {"room_id": room_id, "game_no": game_no + 1, "seat": f.seat, "from_version": 0, "spec": f.spec,
                         "name": f.name, "account_id": f.account_id, "created_at": now} for f in filled])
                self._publish(conn, room_id, "game", game_no + 1, 0)
        except IntegrityError:
            raise VersionConflict("another rematch started first") from None
        return self.room(room_id)

    # -- history ------------------------------------------------------------------------------------
    def history(self, room_id: str) -> list[GameSummary]:
        """Every game of the room, first first, with the outcome of the finished ones."""
        with self.engine.connect() as conn:
            self._room_row(conn, room_id)
            rows = Session(bind=conn).execute(select(GameRow, RecordRow.outcome).outerjoin(
                RecordRow, (RecordRow.room_id == GameRow.room_id) & (RecordRow.game_no == GameRow.game_no),
            ).where(GameRow.room_id == room_id).order_by(GameRow.game_no)).all()
        return [GameSummary(g.game_no, g.version, g.started_at is not None,
                            _aware(g.finished_at) if g.finished_at is not None else None,
                            dict(out) if out is not None else None) for g, out in rows]

    def record(self, room_id: str, game_no: int) -> dict[str, Any]:
        """The record of a finished game (NoSuchRoom, NoSuchGame, GameNotFinished)."""
        with self.engine.connect() as conn:
            self._room_row(conn, room_id)
            found = conn.execute(select(RecordRow.record).where(RecordRow.room_id == room_id,
                                                                RecordRow.game_no == game_no)).scalar()
            exists = found is not None or conn.execute(select(GameRow.game_no).where(
                GameRow.room_id == room_id, GameRow.game_no == game_no)).first() is not None
        if not exists:
            raise NoSuchGame(f"this room has no game {game_no}")
        if found is None:
            raise GameNotFinished(f"game {game_no} of this room is not finished")
        return dict(found)

    def rooms_to_resume(self) -> list[str]:
        """Rooms whose game is on with a bot to move (a starting server sets those bots thinking)."""
        query = (select(RoomRow.id)
                 .join(GameRow, (GameRow.room_id == RoomRow.id) & (GameRow.game_no == RoomRow.game_no))
                 .join(SeatRow, (SeatRow.room_id == RoomRow.id) & (SeatRow.seat == GameRow.to_move))
                 .where(GameRow.finished_at.is_(None), GameRow.started_at.is_not(None),
                        SeatRow.status == SeatStatus.BOT)
                 .order_by(RoomRow.updated_at))
        with self.engine.connect() as conn:
            return [str(r[0]) for r in conn.execute(query)]

    # -- helpers ------------------------------------------------------------------------------------
    def _room_row(self, conn: Connection, room_id: str) -> RoomRow:
        if len(room_id) > ID_LENGTH:
            raise NoSuchRoom(f"there is no room {room_id!r}")
        row = Session(bind=conn).scalar(select(RoomRow).where(RoomRow.id == room_id))
        if row is None:
            raise NoSuchRoom(f"there is no room {room_id!r}")
        return row

    def _game_row(self, conn: Connection, room_id: str, game_no: int) -> GameRow:
        row = Session(bind=conn).scalar(select(GameRow).where(GameRow.room_id == room_id, GameRow.game_no == game_no))
        if row is None:  # pragma: no cover - a room always has its current game
            raise NoSuchRoom(f"room {room_id!r} has no game {game_no}")
        return row

    # -- notifications ------------------------------------------------------------------------------
    def _publish(self, conn: Connection, room_id: str, kind: str, game_no: int, version: int) -> None:
        if self.dialect != "postgresql":
            return
        payload = json.dumps({"o": self.origin, "r": room_id, "k": kind, "g": game_no, "v": version})
        conn.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": payload})

    def listen(self, on_change: Callable[[Change], None], on_reconnect: Callable[[], None]) -> Listener | None:
        """Start a thread that calls ``on_change`` for every change another process commits (PostgreSQL
        only; None elsewhere). ``on_reconnect`` is called after a lost listening connection comes back
        (notifications may have been missed meanwhile)."""
        if self.dialect != "postgresql":
            return None
        listener = Listener(self, on_change, on_reconnect)
        listener.start()
        return listener


class Listener:
    """A thread that ``LISTEN``s on the store's channel over its own PostgreSQL connection."""

    def __init__(self, store: Store, on_change: Callable[[Change], None], on_reconnect: Callable[[], None]) -> None:
        self.store = store
        self.on_change = on_change
        self.on_reconnect = on_reconnect
        self._stop = threading.Event()
        self.ready = threading.Event()
        """Set once the first ``LISTEN`` is in place."""
        self._thread = threading.Thread(target=self._run, name="cardtable-listen", daemon=True)

    def start(self) -> None:
        """Start listening."""
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop listening and wait for the thread."""
        self._stop.set()
        self._thread.join(timeout)

    def _connect(self) -> Any:
        import psycopg

        url = self.store.engine.url
        params: dict[str, Any] = {k: v for k, v in {
            "host": url.host, "port": url.port, "user": url.username, "password": url.password,
            "dbname": url.database}.items() if v is not None}
        params.update({k: v for k, v in url.query.items() if isinstance(v, str)})
        return psycopg.connect(autocommit=True, **params)

    def _run(self) -> None:
        first = True
        while not self._stop.is_set():
            try:
                with self._connect() as conn:
                    conn.execute("LISTEN cardtable")  # CHANNEL
                    self.ready.set()
                    if not first:
                        self.on_reconnect()
                    first = False
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5, stop_after=100):
                            change = _change(note.payload)
                            if change is not None and change.origin != self.store.origin:
                                self.on_change(change)
            except Exception:  # a lost connection: try again shortly
                log.warning("lost the PostgreSQL LISTEN connection; reconnecting", exc_info=True)
                self._stop.wait(1.0)


def _change(payload: str) -> Change | None:
    try:
        d = json.loads(payload)
        return Change(str(d["o"]), str(d["r"]), str(d["k"]), int(d["g"]), int(d["v"]))
    except (ValueError, KeyError, TypeError):
        log.warning("ignoring a malformed notification %r", payload[:200])
        return None


def _engine(url: str, *, durable: bool) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(parsed, pool_pre_ping=True, pool_size=10, max_overflow=20)
    database = parsed.database or ""
    memory = database in ("", ":memory:")
    if not memory:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
    if memory:
        kwargs["poolclass"] = StaticPool  # one shared connection: one thread at a time (doctests, experiments)
    engine = create_engine(parsed, **kwargs)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # SQLAlchemy emits BEGIN itself (below)
        cur = dbapi_conn.cursor()
        if not memory:
            cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA synchronous={'FULL' if durable else 'OFF'}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get("cardtable_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine
