"""Social play: room owners and clocks, game clocks, chat, reports, mutes, friends, blocks, notifications,
presence and the "play now" queue.

Revision ID: 0008_social
Revises: 0007_studio
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardtable.store import social_models  # noqa: F401  (the tables join the store's metadata)

revision = "0008_social"
down_revision = "0007_studio"
branch_labels = None
depends_on = None

_BIG = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Create the social tables."""
    op.create_table(
        "room_social",
        sa.Column("room_id", sa.String(24), nullable=False),
        sa.Column("owner_account", sa.String(24), nullable=True),
        sa.Column("spectator_chat", sa.Boolean(), nullable=False),
        sa.Column("clock", sa.String(16), nullable=False),
        sa.Column("base_s", sa.Integer(), nullable=False),
        sa.Column("increment_s", sa.Integer(), nullable=False),
        sa.Column("move_s", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE", name="fk_room_social_room_id_rooms"),
        sa.PrimaryKeyConstraint("room_id", name="pk_room_social"),
    )
    op.create_table(
        "game_clocks",
        sa.Column("room_id", sa.String(24), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("turn_started_at", _TS, nullable=True),
        sa.Column("deadline_at", _TS, nullable=True),
        sa.Column("remaining_ms", sa.JSON(), nullable=False),
        sa.Column("end", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE", name="fk_game_clocks_room_id_rooms"),
        sa.PrimaryKeyConstraint("room_id", "game_no", name="pk_game_clocks"),
    )
    op.create_index("ix_game_clocks_deadline", "game_clocks", ["deadline_at"])
    op.create_table(
        "chat_messages",
        sa.Column("id", _BIG, autoincrement=True, nullable=False),
        sa.Column("room_id", sa.String(24), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("label", sa.String(96), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("account_id", sa.String(24), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE",
                                name="fk_chat_messages_room_id_rooms"),
        sa.PrimaryKeyConstraint("id", name="pk_chat_messages"),
    )
    op.create_index("ix_chat_messages_room", "chat_messages", ["room_id", "id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", _BIG, autoincrement=True, nullable=False),
        sa.Column("message_id", _BIG, nullable=False),
        sa.Column("reporter", sa.String(96), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.ForeignKeyConstraint(["message_id"], ["chat_messages.id"], ondelete="CASCADE",
                                name="fk_chat_reports_message_id_chat_messages"),
        sa.PrimaryKeyConstraint("id", name="pk_chat_reports"),
    )
    op.create_table(
        "chat_mutes",
        sa.Column("account_id", sa.String(24), nullable=False),
        sa.Column("muted_id", sa.String(24), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.PrimaryKeyConstraint("account_id", "muted_id", name="pk_chat_mutes"),
    )
    op.create_table(
        "friends",
        sa.Column("from_id", sa.String(24), nullable=False),
        sa.Column("to_id", sa.String(24), nullable=False),
        sa.Column("accepted", sa.Boolean(), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.PrimaryKeyConstraint("from_id", "to_id", name="pk_friends"),
    )
    op.create_index("ix_friends_to", "friends", ["to_id"])
    op.create_table(
        "blocks",
        sa.Column("account_id", sa.String(24), nullable=False),
        sa.Column("blocked_id", sa.String(24), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.PrimaryKeyConstraint("account_id", "blocked_id", name="pk_blocks"),
    )
    op.create_table(
        "notifications",
        sa.Column("id", _BIG, autoincrement=True, nullable=False),
        sa.Column("account_id", sa.String(24), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("read_at", _TS, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_notifications"),
    )
    op.create_index("ix_notifications_account", "notifications", ["account_id", "id"])
    op.create_table(
        "presence",
        sa.Column("account_id", sa.String(24), nullable=False),
        sa.Column("last_seen", _TS, nullable=False),
        sa.Column("room_id", sa.String(24), nullable=True),
        sa.PrimaryKeyConstraint("account_id", name="pk_presence"),
    )
    op.create_table(
        "play_queue",
        sa.Column("account_id", sa.String(24), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("bot_after_s", sa.Integer(), nullable=True),
        sa.Column("joined_at", _TS, nullable=False),
        sa.Column("room_id", sa.String(24), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("token", sa.String(64), nullable=True),
        sa.PrimaryKeyConstraint("account_id", name="pk_play_queue"),
    )
    op.create_index("ix_play_queue_pool", "play_queue", ["game", "players", "preset", "room_id"])


def downgrade() -> None:
    """Drop the social tables."""
    op.drop_index("ix_play_queue_pool", "play_queue")
    op.drop_table("play_queue")
    op.drop_table("presence")
    op.drop_index("ix_notifications_account", "notifications")
    op.drop_table("notifications")
    op.drop_table("blocks")
    op.drop_index("ix_friends_to", "friends")
    op.drop_table("friends")
    op.drop_table("chat_mutes")
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_messages_room", "chat_messages")
    op.drop_table("chat_messages")
    op.drop_index("ix_game_clocks_deadline", "game_clocks")
    op.drop_table("game_clocks")
    op.drop_table("room_social")
