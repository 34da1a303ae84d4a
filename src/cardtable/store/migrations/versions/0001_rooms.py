"""Rooms, seats, games, actions, records, and the lab's runs.

Revision ID: 0001_rooms
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_rooms"
down_revision = None
branch_labels = None
depends_on = None

_BIGID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _enum(name: str, *values: str) -> sa.Enum:
    return sa.Enum(*values, name=name, native_enum=False, create_constraint=True, length=16)


def _when(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    """Create the tables."""
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(24), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("title", sa.String(64), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("rules_version", sa.Integer(), nullable=False),
        sa.Column("setup", sa.JSON(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("invite_hash", sa.String(64), nullable=True),
        sa.Column("on_leave", _enum("leave_policy", "reopen", "bot"), nullable=False),
        sa.Column("leave_bot", sa.String(200), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        _when("created_at"),
        _when("updated_at"),
        sa.PrimaryKeyConstraint("id", name="pk_rooms"),
    )
    op.create_index("ix_rooms_private_updated", "rooms", ["private", "updated_at"])
    op.create_table(
        "seats",
        sa.Column("room_id", sa.String(24), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("status", _enum("seat_status", "open", "bot", "taken"), nullable=False),
        sa.Column("spec", sa.String(200), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        _when("updated_at"),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name="fk_seats_room_id_rooms", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id", "seat", name="pk_seats"),
        sa.UniqueConstraint("token_hash", name="uq_seats_token_hash"),
    )
    op.create_table(
        "games",
        sa.Column("room_id", sa.String(24), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("to_move", sa.Integer(), nullable=True),
        _when("started_at", nullable=True),
        _when("finished_at", nullable=True),
        _when("created_at"),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name="fk_games_room_id_rooms", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id", "game_no", name="pk_games"),
    )
    op.create_table(
        "actions",
        sa.Column("id", _BIGID, autoincrement=True, nullable=False),
        sa.Column("room_id", sa.String(24), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.Text(), nullable=False),
        _when("created_at"),
        sa.ForeignKeyConstraint(["room_id", "game_no"], ["games.room_id", "games.game_no"],
                                name="fk_actions_game", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_actions"),
        sa.UniqueConstraint("room_id", "game_no", "version", name="uq_actions_room_game_version"),
    )
    op.create_table(
        "records",
        sa.Column("room_id", sa.String(24), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("outcome", sa.JSON(), nullable=False),
        _when("finished_at"),
        sa.ForeignKeyConstraint(["room_id", "game_no"], ["games.room_id", "games.game_no"],
                                name="fk_records_game", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id", "game_no", name="pk_records"),
    )
    op.create_table(
        "lab_runs",
        sa.Column("id", _BIGID, autoincrement=True, nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("summary", sa.JSON(), nullable=True),
        _when("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_lab_runs"),
    )
    op.create_table(
        "lab_games",
        sa.Column("id", _BIGID, autoincrement=True, nullable=False),
        sa.Column("run_id", _BIGID, nullable=False),
        sa.Column("game_index", sa.Integer(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["run_id"], ["lab_runs.id"], name="fk_lab_games_run_id_lab_runs", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_lab_games"),
        sa.UniqueConstraint("run_id", "game_index", name="uq_lab_games_run_index"),
    )


def downgrade() -> None:
    """Drop the tables."""
    for name in ("lab_games", "lab_runs", "records", "actions", "games", "seats"):
        op.drop_table(name)
    op.drop_index("ix_rooms_private_updated", table_name="rooms")
    op.drop_table("rooms")
