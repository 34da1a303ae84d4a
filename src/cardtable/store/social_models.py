"""The tables of social play: a room's owner, chat and clock settings, each game's clocks and deadline, chat
messages and reports, mutes, friends, blocks, notifications, presence and the "play now" queue.

A room's clock lives in the database (``game_clocks``: the seat whose time runs, the absolute UTC time it
runs out, every seat's remaining time), so any server process, or one restarted, enforces it.
Created by the migration ``0008_social``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .models import ID_LENGTH, NAME_LENGTH, Base, utcnow

CHAT_LIMIT = 500
"""The longest chat message, in characters."""


class ClockKind(Enum):
    """How a room times its players."""

    NONE = "none"
    """No clock: a person may think for ever."""
    REALTIME = "realtime"
    """A clock per seat: a base time, plus an increment after each of its moves."""
    TURN = "turn"
    """Turn-based: a deadline per move (hours or days)."""


@dataclass(frozen=True)
class RoomSocial:
    """A room's social settings: its owner account, spectator chat, its clock."""

    owner_account: str | None = None
    spectator_chat: bool = True
    clock: ClockKind = ClockKind.NONE
    base_s: int = 0
    increment_s: int = 0
    move_s: int = 0


class RoomSocialRow(Base):
    """A room's social settings: who created it (its owner), whether spectators may chat, and its clock."""

    __tablename__ = "room_social"

    room_id: Mapped[str] = mapped_column(String(ID_LENGTH), ForeignKey("rooms.id", ondelete="CASCADE"),
                                         primary_key=True)
    owner_account: Mapped[str | None] = mapped_column(String(ID_LENGTH), nullable=True)
    """The account that created the room (NULL: a guest made it; then whoever holds the first seat owns it)."""
    spectator_chat: Mapped[bool] = mapped_column(Boolean, default=True)
    clock: Mapped[str] = mapped_column(String(16), default="none")
    """``none``, ``realtime`` (base + increment per seat) or ``turn`` (a deadline per move)."""
    base_s: Mapped[int] = mapped_column(Integer, default=0)
    increment_s: Mapped[int] = mapped_column(Integer, default=0)
    move_s: Mapped[int] = mapped_column(Integer, default=0)


class GameClockRow(Base):
    """Where a game's clock stands: whose time runs since when, the absolute time it runs out, every seat's
    remaining time; and the game's recorded end when it was no action (a timeout)."""

    __tablename__ = "game_clocks"
    __table_args__ = (Index("ix_game_clocks_deadline", "deadline_at"),)

    room_id: Mapped[str] = mapped_column(String(ID_LENGTH), ForeignKey("rooms.id", ondelete="CASCADE"),
                                         primary_key=True)
    game_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    """The game's version this clock state is for (a deadline of an older version is never enforced)."""
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat whose time runs (NULL: nobody's: a bot's or an open seat's turn, or the game is over)."""
    turn_started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    deadline_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    remaining_ms: Mapped[list[int]] = mapped_column(JSON, default=list)
    """Each seat's time left (real-time clocks) when its turn began; empty for turn-based rooms."""
    end: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The table's recorded end (``{"kind", "seat", "version"}``) of a game that ended by a timeout."""


class ChatMessageRow(Base):
    """One chat message of a room: who sent it (seat label, name, account) and what they typed."""

    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_room", "room_id", "id"),)

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                                    autoincrement=True)
    room_id: Mapped[str] = mapped_column(String(ID_LENGTH), ForeignKey("rooms.id", ondelete="CASCADE"))
    game_no: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The sender's seat (NULL: a spectator)."""
    label: Mapped[str] = mapped_column(String(96))
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    account_id: Mapped[str | None] = mapped_column(String(ID_LENGTH), nullable=True)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatReportRow(Base):
    """A chat message somebody reported (``cardtable admin reports`` lists them)."""

    __tablename__ = "chat_reports"

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                                    autoincrement=True)
    message_id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"),
                                            ForeignKey("chat_messages.id", ondelete="CASCADE"))
    reporter: Mapped[str] = mapped_column(String(96))
    """``account:ID``, ``seat:ROOM:N`` or ``address:ADDR``."""
    reason: Mapped[str] = mapped_column(String(500), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MuteRow(Base):
    """An account that muted another: it no longer receives that account's chat."""

    __tablename__ = "chat_mutes"

    account_id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    muted_id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class FriendRow(Base):
    """A friend request from one account to another: pending until accepted (then they are friends)."""

    __tablename__ = "friends"
    __table_args__ = (Index("ix_friends_to", "to_id"),)

    from_id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    to_id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    accepted: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class BlockRow(Base):
    """An account that blocked another: no chat, friend requests, invites or pairing between them."""

    __tablename__ = "blocks"

    account_id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    blocked_id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class NotificationRow(Base):
    """An in-app notification of an account (a friend request, an invite, a pairing found)."""

    __tablename__ = "notifications"
    __table_args__ = (Index("ix_notifications_account", "account_id", "id"),)

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                                    autoincrement=True)
    account_id: Mapped[str] = mapped_column(String(ID_LENGTH))
    kind: Mapped[str] = mapped_column(String(32))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    read_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PresenceRow(Base):
    """When an account was last seen (an open socket or a request), and in which room."""

    __tablename__ = "presence"

    account_id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    room_id: Mapped[str | None] = mapped_column(String(ID_LENGTH), nullable=True)


class QueueRow(Base):
    """A signed-in player waiting in the "play now" queue of a game, player count and rule preset; once paired,
    the room and the seat token (handed over once, then cleared)."""

    __tablename__ = "play_queue"
    __table_args__ = (Index("ix_play_queue_pool", "game", "players", "preset", "room_id"),)

    account_id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    preset: Mapped[str] = mapped_column(String(32))
    rating: Mapped[float] = mapped_column(Float)
    bot_after_s: Mapped[int | None] = mapped_column(Integer, nullable=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    room_id: Mapped[str | None] = mapped_column(String(ID_LENGTH), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The seat token of the paired room until its player collects it."""
