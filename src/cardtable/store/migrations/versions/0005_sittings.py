"""Every person and bot who sat in a seat, per game (a seat's history).

Revision ID: 0005_sittings
Revises: 0004_lab_packed_facts
Create Date: 2026-12-03

Rooms stored before get one row per filled seat of their current game, from version 0 (who sat
there earlier was not kept).
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0005_sittings"
down_revision = "0004_lab_packed_facts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``sittings`` and fill it from the seats of every room's current game."""
    sittings = op.create_table(
        "sittings",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.String(24), sa.ForeignKey("rooms.id", ondelete="CASCADE",
                                                          name="fk_sittings_room_id_rooms"), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("from_version", sa.Integer(), nullable=False),
        sa.Column("spec", sa.String(200), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_sittings"),
    )
    op.create_index("ix_sittings_room_game", "sittings", ["room_id", "game_no"])
    bind = op.get_bind()
    rows = bind.execute(sa.text(
        "SELECT s.room_id, r.game_no, s.seat, s.spec, s.name FROM seats s JOIN rooms r ON r.id = s.room_id "
        "WHERE s.status IN ('taken', 'bot')")).all()
    now = datetime.now(UTC)
    if rows:
        op.bulk_insert(sittings, [{"room_id": r[0], "game_no": r[1], "seat": r[2], "from_version": 0, "spec": r[3],
                                   "name": r[4], "created_at": now} for r in rows])


def downgrade() -> None:
    """Drop ``sittings``."""
    op.drop_index("ix_sittings_room_game", table_name="sittings")
    op.drop_table("sittings")
