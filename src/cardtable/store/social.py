"""Social play in the store: room settings and owners, game clocks and deadlines, chat, reports, mutes,
friends, blocks, notifications, presence, "my games", the lobby and the "play now" queue.

Every function takes the :class:`~cardtable.store.Store` and is one transaction (writes go through
``Store.transaction()``); the server calls them from worker threads.

>>> from cardtable.store import LeavePolicy, SeatStatus, Store
>>> store = Store.open("sqlite://")
>>> room = store.create_room(game="zeta", title="", rules={}, rules_version=1, setup={}, private=False,
...                          invite_hash=None, on_leave=LeavePolicy.REOPEN, leave_bot="",
...                          seats=[(SeatStatus.OPEN, "human"), (SeatStatus.OPEN, "human")], seed=7, to_move=0)
>>> create_settings(store, room.id, RoomSocial(clock=ClockKind.TURN, move_s=86400))
>>> settings(store, room.id).clock.value
'turn'
>>> add_chat(store, room.id, 1, 0, "P1 Ann", "Ann", None, "good luck").text
'good luck'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import Enum
from typing import Any

from sqlalchemy import Connection, and_, delete, func, insert, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from .models import AccountRow, AccountStatus, GameRow, RatingRow, RecordRow, RoomRow, SeatRow, SeatStatus, utcnow
from .social_models import (
    BlockRow,
    ChatMessageRow,
    ChatReportRow,
    ClockKind,
    FriendRow,
    GameClockRow,
    MuteRow,
    NotificationRow,
    PresenceRow,
    QueueRow,
    RoomSocial,
    RoomSocialRow,
)
from .store import Store, _aware

ONLINE_FOR = timedelta(minutes=2)
"""An account seen (a socket, a request) this recently is online."""
CHAT_RECENT = 50
"""How many recent messages a socket gets on (re)connecting."""


@dataclass(frozen=True)
class ClockState:
    """Where a game's clock stands: the seat whose time runs (None: nobody's), since when, when it runs out,
    each seat's time left when its turn began (real-time), and the game's recorded end, if any."""

    game_no: int
    version: int
    seat: int | None
    turn_started_at: datetime | None
    deadline_at: datetime | None
    remaining_ms: tuple[int, ...] = ()
    end: dict[str, Any] | None = None


@dataclass(frozen=True)
class ChatLine:
    """One stored chat message."""

    id: int
    room_id: str
    game_no: int
    seat: int | None
    label: str
    name: str
    account_id: str | None
    text: str
    created_at: datetime


# -- room settings ---------------------------------------------------------------------------------------
def create_settings(store: Store, room_id: str, social: RoomSocial) -> None:
    """Store a new room's social settings."""
    with store.transaction() as conn:
        conn.execute(insert(RoomSocialRow).values(
            room_id=room_id, owner_account=social.owner_account, spectator_chat=social.spectator_chat,
            clock=social.clock.value, base_s=social.base_s, increment_s=social.increment_s, move_s=social.move_s))


def settings(store: Store, room_id: str) -> RoomSocial:
    """A room's social settings (the defaults for a room made before they existed)."""
    with store.engine.connect() as conn:
        return _settings(conn, room_id)


def _settings(conn: Connection, room_id: str) -> RoomSocial:
    row = conn.execute(select(RoomSocialRow).where(RoomSocialRow.room_id == room_id)).first()
    if row is None:
        return RoomSocial()
    return RoomSocial(row.owner_account, bool(row.spectator_chat), ClockKind(row.clock), row.base_s,
                      row.increment_s, row.move_s)


def set_spectator_chat(store: Store, room_id: str, on: bool) -> None:
    """Switch a room's spectator chat on or off."""
    with store.transaction() as conn:
        done = conn.execute(update(RoomSocialRow).where(RoomSocialRow.room_id == room_id)
                            .values(spectator_chat=on)).rowcount
        if not done:
            conn.execute(insert(RoomSocialRow).values(room_id=room_id, owner_account=None, spectator_chat=on,
                                                      clock=ClockKind.NONE.value, base_s=0, increment_s=0, move_s=0))


# -- clocks ----------------------------------------------------------------------------------------------
def clock_state(store: Store, room_id: str, game_no: int) -> ClockState | None:
    """The stored clock of a game (None: none stored yet)."""
    with store.engine.connect() as conn:
        row = conn.execute(select(GameClockRow).where(GameClockRow.room_id == room_id,
                                                      GameClockRow.game_no == game_no)).first()
    return None if row is None else _clock(row)


def _clock(row: Any) -> ClockState:
    return ClockState(row.game_no, row.version, row.seat,
                      _aware(row.turn_started_at) if row.turn_started_at is not None else None,
                      _aware(row.deadline_at) if row.deadline_at is not None else None,
                      tuple(int(x) for x in row.remaining_ms or ()), row.end)


def next_clock(social: RoomSocial, before: ClockState | None, *, game_no: int, version: int, players: int,
               mover: int | None, runs: int | None, now: datetime) -> ClockState:
    """The clock after ``mover`` played (None: nobody played, the clock just (re)starts) and the game reached
    ``version``, with ``runs`` the person seat to move now (None: a bot, an open seat or nobody).

    >>> from datetime import UTC
    >>> t0 = datetime(2026, 1, 1, tzinfo=UTC)
    >>> fresh = next_clock(RoomSocial(clock=ClockKind.REALTIME, base_s=60, increment_s=2), None, game_no=1,
    ...                    version=0, players=2, mover=None, runs=0, now=t0)
    >>> fresh.remaining_ms, fresh.deadline_at == t0 + timedelta(seconds=60)
    ((60000, 60000), True)
    >>> after = next_clock(RoomSocial(clock=ClockKind.REALTIME, base_s=60, increment_s=2), fresh, game_no=1,
    ...                    version=1, players=2, mover=0, runs=1, now=t0 + timedelta(seconds=10))
    >>> after.remaining_ms, after.seat
    ((52000, 60000), 1)
    """
    remaining = list(before.remaining_ms) if before is not None and before.game_no == game_no else []
    if social.clock is ClockKind.REALTIME:
        if len(remaining) != players:
            remaining = [social.base_s * 1000] * players
        if (before is not None and before.game_no == game_no and mover is not None and before.seat == mover
                and before.turn_started_at is not None):
            used = int((now - before.turn_started_at).total_seconds() * 1000)
            remaining[mover] = max(0, remaining[mover] - used) + social.increment_s * 1000
    deadline: datetime | None = None
    if runs is not None:
        if social.clock is ClockKind.REALTIME:
            deadline = now + timedelta(milliseconds=remaining[runs])
        elif social.clock is ClockKind.TURN:
            deadline = now + timedelta(seconds=social.move_s)
    return ClockState(game_no, version, runs, now if runs is not None else None, deadline, tuple(remaining))


def save_clock(store: Store, room_id: str, clock: ClockState) -> None:
    """Store a game's clock (its deadline is what every process enforces)."""
    values = {"version": clock.version, "seat": clock.seat, "turn_started_at": clock.turn_started_at,
              "deadline_at": clock.deadline_at, "remaining_ms": list(clock.remaining_ms), "end": clock.end}
    with store.transaction() as conn:
        done = conn.execute(update(GameClockRow).where(GameClockRow.room_id == room_id,
                                                       GameClockRow.game_no == clock.game_no).values(**values)).rowcount
        if not done:
            conn.execute(insert(GameClockRow).values(room_id=room_id, game_no=clock.game_no, **values))


def record_end(conn: Connection, room_id: str, game_no: int, end: dict[str, Any]) -> None:
    """Keep a game's recorded end (no action) with its clock, its deadline cleared (inside ``Store.end_game``)."""
    done = conn.execute(update(GameClockRow).where(GameClockRow.room_id == room_id, GameClockRow.game_no == game_no)
                        .values(end=end, deadline_at=None, seat=None)).rowcount
    if not done:
        conn.execute(insert(GameClockRow).values(room_id=room_id, game_no=game_no, version=int(end["version"]),
                                                 seat=None, turn_started_at=None, deadline_at=None, remaining_ms=[],
                                                 end=end))


def game_end(store: Store, room_id: str, game_no: int) -> dict[str, Any] | None:
    """The recorded end (no action) of a game, if it ended so."""
    found = clock_state(store, room_id, game_no)
    return None if found is None else found.end


@dataclass(frozen=True)
class Due:
    """A deadline that has passed: the room, its game and version, the seat whose time ran out."""

    room_id: str
    game_no: int
    version: int
    seat: int


def due(store: Store, now: datetime, limit: int = 100) -> list[Due]:
    """Deadlines passed by ``now`` of games still at the version the deadline was set for."""
    query = (select(GameClockRow.room_id, GameClockRow.game_no, GameClockRow.version, GameClockRow.seat)
             .join(GameRow, (GameRow.room_id == GameClockRow.room_id) & (GameRow.game_no == GameClockRow.game_no))
             .join(RoomRow, (RoomRow.id == GameClockRow.room_id) & (RoomRow.game_no == GameClockRow.game_no))
             .where(GameClockRow.deadline_at.is_not(None), GameClockRow.deadline_at <= now,
                    GameRow.finished_at.is_(None), GameRow.version == GameClockRow.version,
                    GameClockRow.seat.is_not(None))
             .order_by(GameClockRow.deadline_at).limit(limit))
    with store.engine.connect() as conn:
        return [Due(r.room_id, r.game_no, r.version, int(r.seat)) for r in conn.execute(query)]


# -- chat ------------------------------------------------------------------------------------------------
def add_chat(store: Store, room_id: str, game_no: int, seat: int | None, label: str, name: str,
             account_id: str | None, text: str) -> ChatLine:
    """Store a chat message; the stored line (with its id and time)."""
    now = utcnow()
    with store.transaction() as conn:
        new_id = conn.execute(insert(ChatMessageRow).values(
            room_id=room_id, game_no=game_no, seat=seat, label=label[:96], name=name[:64], account_id=account_id,
            text=text, created_at=now).returning(ChatMessageRow.id)).scalar_one()
    return ChatLine(int(new_id), room_id, game_no, seat, label[:96], name[:64], account_id, text, now)


def _line(r: Any) -> ChatLine:
    return ChatLine(int(r.id), r.room_id, r.game_no, r.seat, r.label, r.name, r.account_id, r.text,
                    _aware(r.created_at))


def recent_chat(store: Store, room_id: str, limit: int = CHAT_RECENT) -> list[ChatLine]:
    """A room's latest messages, oldest first."""
    with store.engine.connect() as conn:
        rows = conn.execute(select(ChatMessageRow).where(ChatMessageRow.room_id == room_id)
                            .order_by(ChatMessageRow.id.desc()).limit(limit)).all()
    return [_line(r) for r in reversed(rows)]


def game_chat(store: Store, room_id: str, game_no: int) -> list[ChatLine]:
    """Every message said during a game of a room, in order (its record's ``meta.chat``)."""
    with store.engine.connect() as conn:
        rows = conn.execute(select(ChatMessageRow).where(ChatMessageRow.room_id == room_id,
                                                         ChatMessageRow.game_no == game_no)
                            .order_by(ChatMessageRow.id)).all()
    return [_line(r) for r in rows]


def chat_line(store: Store, message_id: int) -> ChatLine | None:
    """One message by id."""
    with store.engine.connect() as conn:
        row = conn.execute(select(ChatMessageRow).where(ChatMessageRow.id == message_id)).first()
    return None if row is None else _line(row)


def report(store: Store, message_id: int, reporter: str, reason: str) -> int:
    """Report a message; the report's id."""
    with store.transaction() as conn:
        return int(conn.execute(insert(ChatReportRow).values(message_id=message_id, reporter=reporter[:96],
                                                             reason=reason[:500], created_at=utcnow())
                                .returning(ChatReportRow.id)).scalar_one())


@dataclass(frozen=True)
class Report:
    """A reported message, for the operators."""

    id: int
    created_at: datetime
    reporter: str
    reason: str
    room_id: str
    label: str
    account_id: str | None
    text: str


def reports(store: Store, limit: int = 200) -> list[Report]:
    """The latest reports, newest first."""
    query = (select(ChatReportRow.id, ChatReportRow.created_at, ChatReportRow.reporter, ChatReportRow.reason,
                    ChatMessageRow.room_id, ChatMessageRow.label, ChatMessageRow.account_id, ChatMessageRow.text)
             .join(ChatMessageRow, ChatMessageRow.id == ChatReportRow.message_id)
             .order_by(ChatReportRow.id.desc()).limit(limit))
    with store.engine.connect() as conn:
        return [Report(int(r[0]), _aware(r[1]), r[2], r[3], r[4], r[5], r[6], r[7]) for r in conn.execute(query)]


# -- mutes and blocks ------------------------------------------------------------------------------------
def _pair_rows(store: Store, table: Any, column: Any, account_id: str, other: str, on: bool) -> None:
    with store.transaction() as conn:
        conn.execute(delete(table).where(table.account_id == account_id, column == other))
        if on:
            conn.execute(insert(table).values({"account_id": account_id, column.key: other, "created_at": utcnow()}))


def mute(store: Store, account_id: str, other: str, on: bool = True) -> None:
    """Mute (or unmute) ``other``'s chat for ``account_id``."""
    _pair_rows(store, MuteRow, MuteRow.muted_id, account_id, other, on)


def mutes(store: Store, account_id: str) -> list[str]:
    """The accounts ``account_id`` muted."""
    with store.engine.connect() as conn:
        return [r[0] for r in conn.execute(select(MuteRow.muted_id).where(MuteRow.account_id == account_id))]


def block(store: Store, account_id: str, other: str, on: bool = True) -> None:
    """Block (or unblock) ``other``: blocking also ends a friendship or request between them."""
    _pair_rows(store, BlockRow, BlockRow.blocked_id, account_id, other, on)
    if on:
        with store.transaction() as conn:
            conn.execute(delete(FriendRow).where(or_(and_(FriendRow.from_id == account_id, FriendRow.to_id == other),
                                                     and_(FriendRow.from_id == other, FriendRow.to_id == account_id))))


def blocks(store: Store, account_id: str) -> list[str]:
    """The accounts ``account_id`` blocked."""
    with store.engine.connect() as conn:
        return [r[0] for r in conn.execute(select(BlockRow.blocked_id).where(BlockRow.account_id == account_id))]


def blocked_between(conn: Connection, a: str, b: str) -> bool:
    """True when either account blocked the other."""
    return conn.execute(select(BlockRow.account_id).where(or_(
        and_(BlockRow.account_id == a, BlockRow.blocked_id == b),
        and_(BlockRow.account_id == b, BlockRow.blocked_id == a)))).first() is not None


def is_blocked(store: Store, a: str, b: str) -> bool:
    """True when either account blocked the other."""
    with store.engine.connect() as conn:
        return blocked_between(conn, a, b)


def silenced(store: Store, account_id: str) -> set[str]:
    """The accounts whose chat ``account_id`` does not receive: muted, blocked, or blocking it."""
    with store.engine.connect() as conn:
        out = {r[0] for r in conn.execute(select(MuteRow.muted_id).where(MuteRow.account_id == account_id))}
        out |= {r[0] for r in conn.execute(select(BlockRow.blocked_id).where(BlockRow.account_id == account_id))}
        out |= {r[0] for r in conn.execute(select(BlockRow.account_id).where(BlockRow.blocked_id == account_id))}
    return out


# -- accounts --------------------------------------------------------------------------------------------
def account_name(store: Store, account_id: str) -> str | None:
    """An active account's name (None: no such active account)."""
    with store.engine.connect() as conn:
        row = conn.execute(select(AccountRow.name, AccountRow.status).where(AccountRow.id == account_id)).first()
    return None if row is None or row.status is not AccountStatus.ACTIVE else str(row.name)


def names_of(conn: Connection, ids: Sequence[str]) -> dict[str, str]:
    """Display names of accounts (a deleted one is "deleted player")."""
    if not ids:
        return {}
    rows = conn.execute(select(AccountRow.id, AccountRow.name, AccountRow.status).where(AccountRow.id.in_(ids)))
    return {r.id: ("deleted player" if r.status is AccountStatus.DELETED else r.name) for r in rows}


# -- friends ---------------------------------------------------------------------------------------------
class FriendState(Enum):
    """Where two accounts stand."""

    NONE = "none"
    SENT = "sent"
    """A request sent, not yet answered."""
    RECEIVED = "received"
    """A request received, to accept or refuse."""
    FRIENDS = "friends"


def friend_state(conn: Connection, me: str, other: str) -> FriendState:
    """Where ``me`` and ``other`` stand."""
    row = conn.execute(select(FriendRow.from_id, FriendRow.accepted).where(or_(
        and_(FriendRow.from_id == me, FriendRow.to_id == other),
        and_(FriendRow.from_id == other, FriendRow.to_id == me)))).first()
    if row is None:
        return FriendState.NONE
    if row.accepted:
        return FriendState.FRIENDS
    return FriendState.SENT if row.from_id == me else FriendState.RECEIVED


def request_friend(store: Store, me: str, other: str) -> FriendState:
    """Send a friend request (accepting theirs if they sent one first); the state after."""
    with store.transaction() as conn:
        state = friend_state(conn, me, other)
        if state is FriendState.NONE:
            conn.execute(insert(FriendRow).values(from_id=me, to_id=other, accepted=False, created_at=utcnow()))
            notify(conn, other, "friend_request", {"from": me})
            return FriendState.SENT
        if state is FriendState.RECEIVED:
            conn.execute(update(FriendRow).where(FriendRow.from_id == other, FriendRow.to_id == me)
                         .values(accepted=True))
            notify(conn, other, "friend_accepted", {"by": me})
            return FriendState.FRIENDS
        return state


def answer_friend(store: Store, me: str, other: str, accept: bool) -> bool:
    """Accept or refuse ``other``'s request; False if there was none."""
    with store.transaction() as conn:
        if friend_state(conn, me, other) is not FriendState.RECEIVED:
            return False
        if accept:
            conn.execute(update(FriendRow).where(FriendRow.from_id == other, FriendRow.to_id == me)
                         .values(accepted=True))
            notify(conn, other, "friend_accepted", {"by": me})
        else:
            conn.execute(delete(FriendRow).where(FriendRow.from_id == other, FriendRow.to_id == me))
        return True


def remove_friend(store: Store, me: str, other: str) -> None:
    """End a friendship, or withdraw a request either way."""
    with store.transaction() as conn:
        conn.execute(delete(FriendRow).where(or_(and_(FriendRow.from_id == me, FriendRow.to_id == other),
                                                 and_(FriendRow.from_id == other, FriendRow.to_id == me))))


@dataclass(frozen=True)
class Friend:
    """One friend (or request) of an account, with presence."""

    account_id: str
    name: str
    state: FriendState
    online: bool
    last_seen: datetime | None
    room_id: str | None
    game: str | None


def friends(store: Store, me: str, now: datetime | None = None) -> list[Friend]:
    """An account's friends and pending requests, with each one's presence (online first, then by name)."""
    now = now or utcnow()
    with store.engine.connect() as conn:
        rows = conn.execute(select(FriendRow).where(or_(FriendRow.from_id == me, FriendRow.to_id == me))).all()
        others = {(r.to_id if r.from_id == me else r.from_id):
                  (FriendState.FRIENDS if r.accepted else FriendState.SENT if r.from_id == me else FriendState.RECEIVED)
                  for r in rows}
        names = names_of(conn, list(others))
        seen = {p.account_id: p for p in conn.execute(select(PresenceRow).where(
            PresenceRow.account_id.in_(list(others))))} if others else {}
        rooms = [p.room_id for p in seen.values() if p.room_id]
        games = {r.id: r.game for r in conn.execute(select(RoomRow.id, RoomRow.game).where(
            RoomRow.id.in_(rooms)))} if rooms else {}
    out: list[Friend] = []
    for other, state in others.items():
        p = seen.get(other)
        last = _aware(p.last_seen) if p is not None else None
        online = state is FriendState.FRIENDS and last is not None and now - last <= ONLINE_FOR
        room = p.room_id if online and p is not None else None
        out.append(Friend(other, names.get(other, "deleted player"), state, online,
                          last if state is FriendState.FRIENDS else None, room, games.get(room) if room else None))
    return sorted(out, key=lambda f: (not f.online, f.name.casefold()))


# -- notifications ---------------------------------------------------------------------------------------
def notify(conn: Connection, account_id: str, kind: str, data: dict[str, Any]) -> None:
    """Add a notification for an account (inside a write transaction)."""
    conn.execute(insert(NotificationRow).values(account_id=account_id, kind=kind, data=data, created_at=utcnow()))


def add_notification(store: Store, account_id: str, kind: str, data: dict[str, Any]) -> None:
    """Add a notification for an account."""
    with store.transaction() as conn:
        notify(conn, account_id, kind, data)


@dataclass(frozen=True)
class Notice:
    """One notification."""

    id: int
    kind: str
    data: dict[str, Any]
    created_at: datetime
    read: bool


def notifications(store: Store, account_id: str, since: int = 0, limit: int = 50) -> list[Notice]:
    """An account's notifications after id ``since``, newest first."""
    with store.engine.connect() as conn:
        rows = conn.execute(select(NotificationRow).where(NotificationRow.account_id == account_id,
                                                          NotificationRow.id > since)
                            .order_by(NotificationRow.id.desc()).limit(limit)).all()
    return [Notice(int(r.id), r.kind, dict(r.data), _aware(r.created_at), r.read_at is not None) for r in rows]


def unread_count(store: Store, account_id: str) -> int:
    """How many notifications of an account are unread."""
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(NotificationRow).where(
            NotificationRow.account_id == account_id, NotificationRow.read_at.is_(None))).scalar_one())


def mark_read(store: Store, account_id: str, upto: int) -> None:
    """Mark an account's notifications up to id ``upto`` read."""
    with store.transaction() as conn:
        conn.execute(update(NotificationRow).where(NotificationRow.account_id == account_id,
                                                   NotificationRow.id <= upto, NotificationRow.read_at.is_(None))
                     .values(read_at=utcnow()))


# -- presence --------------------------------------------------------------------------------------------
def touch(store: Store, account_id: str, room_id: str | None = None, *, keep_room: bool = False) -> None:
    """Record that an account is here now (in ``room_id``; ``keep_room``: wherever it was)."""
    now = utcnow()
    values: dict[str, Any] = {"last_seen": now} if keep_room else {"last_seen": now, "room_id": room_id}
    with store.transaction() as conn:
        if conn.dialect.name in ("postgresql", "sqlite"):  # one statement: sockets of one account race to insert
            dialect_insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
            row = dialect_insert(PresenceRow).values(account_id=account_id, last_seen=now, room_id=room_id)
            conn.execute(row.on_conflict_do_update(index_elements=[PresenceRow.account_id], set_=values))
        elif not conn.execute(update(PresenceRow).where(PresenceRow.account_id == account_id)
                              .values(**values)).rowcount:  # pragma: no cover - the store runs on SQLite or PostgreSQL
            conn.execute(insert(PresenceRow).values(account_id=account_id, last_seen=now, room_id=room_id))


def online_count(store: Store, now: datetime | None = None) -> int:
    """How many accounts were seen lately."""
    since = (now or utcnow()) - ONLINE_FOR
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(PresenceRow)
                                .where(PresenceRow.last_seen >= since)).scalar_one())


# -- my games and the lobby ------------------------------------------------------------------------------
@dataclass(frozen=True)
class MyGame:
    """An unfinished game an account holds a seat in."""

    room_id: str
    game: str
    title: str
    game_no: int
    seat: int
    version: int
    to_move: int | None
    started: bool
    my_turn: bool
    deadline_at: datetime | None
    clock: ClockKind
    remaining_ms: tuple[int, ...]
    opponents: list[dict[str, Any]] = field(default_factory=list)
    updated_at: datetime | None = None


def my_games(store: Store, account_id: str) -> list[MyGame]:
    """Every unfinished game ``account_id`` is seated in: the ones where it is their turn first (soonest
    deadline first), then the rest, most recently active first."""
    query = (select(SeatRow.room_id, SeatRow.seat, RoomRow.game, RoomRow.title, RoomRow.game_no, RoomRow.updated_at,
                    GameRow.version, GameRow.to_move, GameRow.started_at)
             .join(RoomRow, RoomRow.id == SeatRow.room_id)
             .join(GameRow, (GameRow.room_id == RoomRow.id) & (GameRow.game_no == RoomRow.game_no))
             .where(SeatRow.account_id == account_id, SeatRow.status == SeatStatus.TAKEN,
                    GameRow.finished_at.is_(None)))
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
        ids = [r.room_id for r in rows]
        if not ids:
            return []
        seats: dict[str, list[Any]] = {}
        for s in conn.execute(select(SeatRow.room_id, SeatRow.seat, SeatRow.name, SeatRow.status, SeatRow.spec,
                                     SeatRow.account_id).where(SeatRow.room_id.in_(ids)).order_by(SeatRow.seat)):
            seats.setdefault(s.room_id, []).append(s)
        clocks = {(c.room_id, c.game_no): c for c in conn.execute(select(GameClockRow).where(
            GameClockRow.room_id.in_(ids)))}
        kinds = {r.room_id: r.clock for r in conn.execute(select(RoomSocialRow.room_id, RoomSocialRow.clock)
                                                          .where(RoomSocialRow.room_id.in_(ids)))}
    out: list[MyGame] = []
    for r in rows:
        c = clocks.get((r.room_id, r.game_no))
        fresh = c is not None and c.version == r.version
        started = r.started_at is not None
        opponents = [{"seat": s.seat, "name": s.name, "account": s.account_id, "status": s.status.value,
                      "spec": s.spec} for s in seats.get(r.room_id, []) if s.seat != r.seat]
        out.append(MyGame(r.room_id, r.game, r.title, r.game_no, r.seat, r.version, r.to_move, started,
                          started and r.to_move == r.seat,
                          _aware(c.deadline_at) if fresh and c is not None and c.deadline_at is not None else None,
                          ClockKind(kinds.get(r.room_id, "none")),
                          tuple(c.remaining_ms or ()) if c is not None else (), opponents,
                          _aware(r.updated_at)))
    far = datetime.max.replace(tzinfo=utcnow().tzinfo)
    mine = sorted((g for g in out if g.my_turn), key=lambda g: g.deadline_at or far)
    rest = sorted((g for g in out if not g.my_turn), key=lambda g: g.updated_at or far, reverse=True)
    return mine + rest


def my_turn_count(store: Store, account_id: str) -> int:
    """How many games wait for ``account_id``'s move (cheap: one count)."""
    query = (select(func.count()).select_from(SeatRow)
             .join(RoomRow, RoomRow.id == SeatRow.room_id)
             .join(GameRow, (GameRow.room_id == RoomRow.id) & (GameRow.game_no == RoomRow.game_no))
             .where(SeatRow.account_id == account_id, SeatRow.status == SeatStatus.TAKEN,
                    GameRow.finished_at.is_(None), GameRow.started_at.is_not(None), GameRow.to_move == SeatRow.seat))
    with store.engine.connect() as conn:
        return int(conn.execute(query).scalar_one())


@dataclass(frozen=True)
class LobbyGame:
    """A public game, being played or just finished: its room, game, seats and their players' mean rating."""

    room_id: str
    game: str
    title: str
    game_no: int
    rated: bool
    players: list[dict[str, Any]]
    rating: float | None
    version: int
    finished_at: datetime | None
    outcome: dict[str, Any] | None


def _mean_ratings(conn: Connection, game: str, accounts: list[str]) -> float | None:
    if not accounts:
        return None
    rows = conn.execute(select(RatingRow.mu, RatingRow.sigma).where(RatingRow.account_id.in_(accounts),
                                                                    RatingRow.game == game)).all()
    if not rows:
        return None
    return sum(mu - 3 * sigma for mu, sigma in rows) / len(rows)


def lobby(store: Store, limit: int = 20) -> tuple[list[LobbyGame], list[LobbyGame]]:
    """Public games being played (highest rated first: the mean conservative skill of their players, then
    most recently active) and the latest finished ones."""
    base = (select(RoomRow.id, RoomRow.game, RoomRow.title, RoomRow.game_no, RoomRow.rated, RoomRow.updated_at,
                   GameRow.version, GameRow.finished_at)
            .join(GameRow, (GameRow.room_id == RoomRow.id) & (GameRow.game_no == RoomRow.game_no))
            .where(RoomRow.private.is_(False)))
    with store.engine.connect() as conn:
        playing = conn.execute(base.where(GameRow.started_at.is_not(None), GameRow.finished_at.is_(None))
                               .order_by(RoomRow.updated_at.desc()).limit(200)).all()
        finished = conn.execute(select(RoomRow.id, RoomRow.game, RoomRow.title, RecordRow.game_no, RoomRow.rated,
                                       RecordRow.finished_at, RecordRow.outcome)
                                .join(RecordRow, RecordRow.room_id == RoomRow.id)
                                .where(RoomRow.private.is_(False))
                                .order_by(RecordRow.finished_at.desc()).limit(limit)).all()
        ids = list({r.id for r in playing} | {r.id for r in finished})
        seats: dict[str, list[dict[str, Any]]] = {}
        for s in conn.execute(select(SeatRow.room_id, SeatRow.seat, SeatRow.name, SeatRow.status, SeatRow.spec,
                                     SeatRow.account_id).where(SeatRow.room_id.in_(ids)).order_by(SeatRow.seat)):
            seats.setdefault(s.room_id, []).append({"seat": s.seat, "name": s.name, "account": s.account_id,
                                                    "status": s.status.value, "spec": s.spec})
        live = [LobbyGame(r.id, r.game, r.title, r.game_no, bool(r.rated), seats.get(r.id, []),
                          _mean_ratings(conn, r.game, [p["account"] for p in seats.get(r.id, []) if p["account"]]),
                          r.version, None, None) for r in playing]
    live.sort(key=lambda g: (g.rating is None, -(g.rating or 0.0)))
    done = [LobbyGame(r.id, r.game, r.title, r.game_no, bool(r.rated), seats.get(r.id, []), None, 0,
                      _aware(r.finished_at), dict(r.outcome)) for r in finished]
    return live[:limit], done


# -- play now --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Waiting:
    """A player's place in the "play now" queue (or the room it was paired into)."""

    account_id: str
    game: str
    players: int
    preset: str
    rating: float
    bot_after_s: int | None
    joined_at: datetime
    room_id: str | None
    seat: int | None
    token: str | None


def _waiting(r: Any) -> Waiting:
    return Waiting(r.account_id, r.game, r.players, r.preset, float(r.rating), r.bot_after_s, _aware(r.joined_at),
                   r.room_id, r.seat, r.token)


def rating_of(store: Store, account_id: str, game: str, players: int) -> float:
    """An account's conservative skill (mu - 3 sigma) in a game and player count (0 when unrated)."""
    with store.engine.connect() as conn:
        row = conn.execute(select(RatingRow.mu, RatingRow.sigma).where(
            RatingRow.account_id == account_id, RatingRow.game == game, RatingRow.players == players)).first()
    return 0.0 if row is None else float(row.mu - 3 * row.sigma)


def enqueue(store: Store, account_id: str, game: str, players: int, preset: str, rating: float,
            bot_after_s: int | None) -> Waiting:
    """Put an account in a queue (replacing its place in any other queue)."""
    now = utcnow()
    with store.transaction() as conn:
        conn.execute(delete(QueueRow).where(QueueRow.account_id == account_id))
        conn.execute(insert(QueueRow).values(account_id=account_id, game=game, players=players, preset=preset,
                                             rating=rating, bot_after_s=bot_after_s, joined_at=now))
    return Waiting(account_id, game, players, preset, rating, bot_after_s, now, None, None, None)


def queue_entry(store: Store, account_id: str) -> Waiting | None:
    """An account's place in the queue (or its pairing), if any."""
    with store.engine.connect() as conn:
        row = conn.execute(select(QueueRow).where(QueueRow.account_id == account_id)).first()
    return None if row is None else _waiting(row)


def leave_queue(store: Store, account_id: str) -> bool:
    """Take an account out of the queue (a pairing it has not collected goes too); False if it was in none."""
    with store.transaction() as conn:
        return bool(conn.execute(delete(QueueRow).where(QueueRow.account_id == account_id)).rowcount)


def collect(store: Store, account_id: str) -> Waiting | None:
    """An account's pairing, its token handed over once (the row goes)."""
    with store.transaction() as conn:
        row = conn.execute(select(QueueRow).where(QueueRow.account_id == account_id,
                                                  QueueRow.room_id.is_not(None))).first()
        if row is None:
            return None
        conn.execute(delete(QueueRow).where(QueueRow.account_id == account_id))
    return _waiting(row)


def take_group(conn: Connection, entry: Waiting, window: float, locking: bool) -> list[Waiting]:
    """Inside a write transaction: ``entry`` and the players it pairs with (same game, player count and preset,
    unpaired, not blocked with any other, rating within ``window``), locked (``FOR UPDATE SKIP LOCKED`` on
    PostgreSQL) so no other process takes them; empty when there are not enough."""
    query = (select(QueueRow).where(QueueRow.game == entry.game, QueueRow.players == entry.players,
                                    QueueRow.preset == entry.preset, QueueRow.room_id.is_(None),
                                    QueueRow.rating >= entry.rating - window, QueueRow.rating <= entry.rating + window)
             .order_by(QueueRow.joined_at))
    if locking:
        query = query.with_for_update(skip_locked=True)
    rows = [_waiting(r) for r in conn.execute(query)]
    me = [w for w in rows if w.account_id == entry.account_id]
    if not me:
        return []
    group = [me[0]]
    for w in sorted((w for w in rows if w.account_id != entry.account_id),
                    key=lambda w: abs(w.rating - entry.rating)):
        if len(group) == entry.players:
            break
        if any(blocked_between(conn, w.account_id, g.account_id) for g in group):
            continue
        group.append(w)
    return group if len(group) == entry.players else []


def mark_paired(conn: Connection, account_id: str, room_id: str, seat: int, token: str) -> None:
    """Inside a write transaction: an entry was paired into a room's seat (its token waits to be collected)."""
    conn.execute(update(QueueRow).where(QueueRow.account_id == account_id)
                 .values(room_id=room_id, seat=seat, token=token))


def claim_group(conn: Connection, accounts: Sequence[str], claim: str) -> bool:
    """Inside the pairing transaction: mark the group's rows taken by ``claim`` (only rows still unpaired);
    False if another process took one first (the caller rolls back)."""
    done = conn.execute(update(QueueRow).where(QueueRow.account_id.in_(list(accounts)), QueueRow.room_id.is_(None))
                        .values(room_id=claim)).rowcount
    if done != len(accounts):
        raise ClaimLost()
    return True


class ClaimLost(Exception):
    """A queue row of the group was claimed by another pairing first."""


def release_claim(store: Store, claim: str) -> None:
    """Put a group back in the queue (making its room failed)."""
    with store.transaction() as conn:
        conn.execute(update(QueueRow).where(QueueRow.room_id == claim).values(room_id=None))


def finish_pairing(store: Store, claim: str, room_id: str, seats: Sequence[tuple[str, int, str]], game: str) -> None:
    """A claimed group is seated in ``room_id``: each row gets its room, seat and token (collected once), the
    room becomes public (to watch), and everybody is notified."""
    with store.transaction() as conn:
        for account_id, seat, token in seats:
            conn.execute(update(QueueRow).where(QueueRow.account_id == account_id, QueueRow.room_id == claim)
                         .values(room_id=room_id, seat=seat, token=token))
            notify(conn, account_id, "paired", {"room": room_id, "game": game, "seat": seat,
                                                "url": f"/rooms/{room_id}"})
        conn.execute(update(RoomRow).where(RoomRow.id == room_id).values(private=False))
