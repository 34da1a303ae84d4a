"""The tables of the server's database: rooms, their seats, the games played in them, every accepted
action (append-only), the finished records, players' accounts (sessions, passkeys, ratings), and a
generic pair for the lab's runs.

The schema is created and changed only by the Alembic migrations in ``cardtable/store/migrations``
(applied when a store opens); these classes describe the same schema for queries, and a test proves
the two agree.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import Enum
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy import Enum as SAEnum
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Constraint names, fixed so that migrations can refer to them on every database."""

ID_LENGTH = 24
SPEC_LENGTH = 200
NAME_LENGTH = 64
HASH_LENGTH = 64
TITLE_LENGTH = 64


def utcnow() -> datetime:
    """The current time, timezone-aware UTC (every timestamp the store writes)."""
    return datetime.now(UTC)


class SeatStatus(Enum):
    """Who holds a seat of a room."""

    OPEN = "open"
    """Nobody yet: a person may join it."""
    BOT = "bot"
    """An agent plays it (its spec is the seat's ``spec``)."""
    TAKEN = "taken"
    """A person holds it with a seat token."""


class RoomStatus(Enum):
    """Where a room's current game stands."""

    WAITING = "waiting"
    """Some seat is open and play has not started (it starts when every seat is filled)."""
    PLAYING = "playing"
    """Play has started (a seat that reopens later only pauses the game on its turn)."""
    FINISHED = "finished"
    """The game is over; its record can be downloaded, and a seated person may start a rematch."""

    @classmethod
    def of(cls, *, started: bool, finished: bool) -> RoomStatus:
        """The status of a game that has ``started`` and maybe ``finished``.

        >>> RoomStatus.of(started=True, finished=False).value
        'playing'
        """
        if finished:
            return cls.FINISHED
        return cls.PLAYING if started else cls.WAITING


class LeavePolicy(Enum):
    """What happens to a seat whose person leaves the room."""

    REOPEN = "reopen"
    """The seat opens again for somebody else to join."""
    BOT = "bot"
    """The room's ``leave_bot`` agent takes the seat over."""


def _enum(kind: type[Enum], name: str) -> SAEnum:
    return SAEnum(kind, name=name, native_enum=False, create_constraint=True, length=16,
                  values_callable=lambda members: [m.value for m in members], validate_strings=True)


class Base(DeclarativeBase):
    """The declarative base of the store's tables."""

    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {dict[str, Any]: JSON}


class RoomRow(Base):
    """A room: one game's rules and setup, its privacy, and what happens when a person leaves."""

    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    title: Mapped[str] = mapped_column(String(TITLE_LENGTH), default="")
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    """Every rule flag and its value."""
    rules_version: Mapped[int] = mapped_column(Integer)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The normalized setup (``Game.normalize_setup``)."""
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    invite_hash: Mapped[str | None] = mapped_column(String(HASH_LENGTH), nullable=True)
    """SHA-256 of the invite code of a private room (the code itself is never stored)."""
    on_leave: Mapped[LeavePolicy] = mapped_column(_enum(LeavePolicy, "leave_policy"))
    leave_bot: Mapped[str] = mapped_column(String(SPEC_LENGTH), default="")
    """The agent spec that takes a left seat over (with ``on_leave=bot``)."""
    game_no: Mapped[int] = mapped_column(Integer, default=1)
    """The number of the room's current game (1, then 2 after a rematch, ...)."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    """Its games between signed-in players change their ratings (every seat needs an account)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_rooms_private_updated", "private", "updated_at"),)


class SeatRow(Base):
    """One seat of a room: open, a bot's (with its spec) or taken by a person (with the token's hash)."""

    __tablename__ = "seats"

    room_id: Mapped[str] = mapped_column(String(ID_LENGTH), ForeignKey("rooms.id", ondelete="CASCADE"),
                                         primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    status: Mapped[SeatStatus] = mapped_column(_enum(SeatStatus, "seat_status"))
    spec: Mapped[str] = mapped_column(String(SPEC_LENGTH))
    """``human``, or the agent spec of a bot seat."""
    name: Mapped[str] = mapped_column(String(NAME_LENGTH), default="")
    token_hash: Mapped[str | None] = mapped_column(String(HASH_LENGTH), nullable=True, unique=True)
    """SHA-256 of the seat token (NULL unless a person holds the seat; cleared when they leave)."""
    account_id: Mapped[str | None] = mapped_column(String(ID_LENGTH), ForeignKey("accounts.id"), nullable=True)
    """The account of the person holding the seat (NULL: a guest, a bot or nobody)."""
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SittingRow(Base):
    """Who sat in a seat from a version of a game on: a person (``human``, their name) or a bot (its spec).

    A row is added when a person joins, when a bot takes a left seat over, and for every filled seat
    when a game begins (the room's first, a rematch); nothing is ever removed, so a seat's history
    keeps everybody who played it."""

    __tablename__ = "sittings"

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                                    autoincrement=True)
    room_id: Mapped[str] = mapped_column(String(ID_LENGTH), ForeignKey("rooms.id", ondelete="CASCADE"))
    game_no: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    from_version: Mapped[int] = mapped_column(Integer)
    """The game's version when they sat down (they made the seat's moves from there on, until the next row)."""
    spec: Mapped[str] = mapped_column(String(SPEC_LENGTH))
    name: Mapped[str] = mapped_column(String(NAME_LENGTH), default="")
    account_id: Mapped[str | None] = mapped_column(String(ID_LENGTH), ForeignKey("accounts.id"), nullable=True)
    """The account of the person who sat down (NULL: a guest or a bot); a player's history reads these."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_sittings_room_game", "room_id", "game_no"),
                      Index("ix_sittings_account", "account_id"))


class GameRow(Base):
    """One game played in a room: its seed (never sent to a client) and where it stands."""

    __tablename__ = "games"

    room_id: Mapped[str] = mapped_column(String(ID_LENGTH), ForeignKey("rooms.id", ondelete="CASCADE"),
                                         primary_key=True)
    game_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    version: Mapped[int] = mapped_column(Integer, default=0)
    """How many actions have been accepted (the count of its ``actions`` rows)."""
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat that decides next (NULL once over)."""
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When every seat was first filled (play starts then)."""
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ActionRow(Base):
    """One accepted action: append-only; ``version`` is its index in the game's history."""

    __tablename__ = "actions"

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                                    autoincrement=True)
    room_id: Mapped[str] = mapped_column(String(ID_LENGTH))
    game_no: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("room_id", "game_no", "version", name="uq_actions_room_game_version"),
        ForeignKeyConstraint(["room_id", "game_no"], ["games.room_id", "games.game_no"], ondelete="CASCADE",
                             name="fk_actions_game"),
    )


class RecordRow(Base):
    """The record of a finished game (``Table.record().to_json()``, what ``cardtable replay`` reads)."""

    __tablename__ = "records"

    room_id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    game_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    outcome: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``Table.outcome()``: the outcome with the winners' labels."""
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        ForeignKeyConstraint(["room_id", "game_no"], ["games.room_id", "games.game_no"], ondelete="CASCADE",
                             name="fk_records_game"),
    )


class AccountStatus(Enum):
    """Whether an account may sign in."""

    ACTIVE = "active"
    """It signs in and plays."""
    DISABLED = "disabled"
    """An operator disabled it (``cardtable admin disable``): it cannot sign in; its sessions are gone."""
    DELETED = "deleted"
    """Its player deleted it: its name, password, sessions and passkeys are gone; its games stay."""


class AccountRow(Base):
    """A player's account: a display name, maybe a password hash (argon2id), and whether it is active.

    An account is never removed: a deleted one keeps its id (its games and ratings point at it) and
    is shown as "deleted player"."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    """The display name as typed (shown as text, never HTML)."""
    name_key: Mapped[str | None] = mapped_column(String(NAME_LENGTH), unique=True, nullable=True)
    """The name folded for comparison (NFKC, casefolded): two accounts never share it (NULL once deleted)."""
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    """The argon2id hash of the password (NULL: passkeys only); the password itself is never stored."""
    status: Mapped[AccountStatus] = mapped_column(_enum(AccountStatus, "account_status"), default=AccountStatus.ACTIVE)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SessionRow(Base):
    """A signed-in browser: the hash of its cookie's secret, its CSRF token, and when it expires."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(HASH_LENGTH), primary_key=True)
    """SHA-256 of the session cookie's value (the value itself is never stored)."""
    account_id: Mapped[str] = mapped_column(String(ID_LENGTH), ForeignKey("accounts.id", ondelete="CASCADE"))
    csrf: Mapped[str] = mapped_column(String(HASH_LENGTH))
    """The token every state-changing request of this session sends in ``X-CSRF-Token``."""
    user_agent: Mapped[str] = mapped_column(String(SPEC_LENGTH), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_sessions_account", "account_id"),)


class PasskeyRow(Base):
    """A WebAuthn credential (passkey) of an account: its id, public key and signature counter."""

    __tablename__ = "passkeys"

    id: Mapped[str] = mapped_column(String(512), primary_key=True)
    """The credential id, base64url."""
    account_id: Mapped[str] = mapped_column(String(ID_LENGTH), ForeignKey("accounts.id", ondelete="CASCADE"))
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    """The COSE public key."""
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    transports: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """``{"transports": [...]}`` as the authenticator reported them."""
    label: Mapped[str] = mapped_column(String(NAME_LENGTH), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (Index("ix_passkeys_account", "account_id"),)


class ChallengeRow(Base):
    """A WebAuthn challenge waiting for its answer (any server process may receive it); used once."""

    __tablename__ = "webauthn_challenges"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    challenge: Mapped[str] = mapped_column(String(HASH_LENGTH * 2))
    """The challenge, base64url."""
    purpose: Mapped[str] = mapped_column(String(16))
    """``register`` or ``signin``."""
    account_id: Mapped[str | None] = mapped_column(String(ID_LENGTH), nullable=True)
    """The account a passkey is added to (NULL: a sign-up or a sign-in)."""
    name: Mapped[str] = mapped_column(String(NAME_LENGTH), default="")
    """The display name of a passkey sign-up."""
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """A player's rating for one game at one player count (openskill's mu and sigma) and games rated."""

    __tablename__ = "ratings"

    account_id: Mapped[str] = mapped_column(String(ID_LENGTH), ForeignKey("accounts.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_ratings_board", "game", "players"),)


class RatingChangeRow(Base):
    """What one rated game did to one player's rating (before and after): its history, applied once."""

    __tablename__ = "rating_changes"

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                                    autoincrement=True)
    room_id: Mapped[str] = mapped_column(String(ID_LENGTH))
    game_no: Mapped[int] = mapped_column(Integer)
    account_id: Mapped[str] = mapped_column(String(ID_LENGTH), ForeignKey("accounts.id"))
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("room_id", "game_no", "account_id", name="uq_rating_changes_game_account"),
        ForeignKeyConstraint(["room_id", "game_no"], ["games.room_id", "games.game_no"], ondelete="CASCADE",
                             name="fk_rating_changes_game"),
        Index("ix_rating_changes_account", "account_id", "game", "players"),
    )


class LabRunRow(Base):
    """A run of the lab (an arena, a balance study): its kind, parameters and summary. Extension point."""

    __tablename__ = "lab_runs"

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                                    autoincrement=True)
    kind: Mapped[str] = mapped_column(String(32))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LabGameRow(Base):
    """One game of a lab run, as a record. Extension point."""

    __tablename__ = "lab_games"

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                                    autoincrement=True)
    run_id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"),
                                        ForeignKey("lab_runs.id", ondelete="CASCADE"))
    game_index: Mapped[int] = mapped_column(Integer)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)

    __table_args__ = (UniqueConstraint("run_id", "game_index", name="uq_lab_games_run_index"),)
