"""The balance lab's named runs, their games and the games' facts.

Revision ID: 0002_lab
Revises: 0001_rooms
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

# The lab's models live on the store's Base; importing them here puts them in its metadata whenever the
# migrations run, so the schema the migrations create and the models describe are compared whole.
from cardtable.store import lab_models  # noqa: F401

revision = "0002_lab"
down_revision = "0001_rooms"
branch_labels = None
depends_on = None

_BIGID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Create the lab's tables."""
    op.create_table(
        "lab_series",
        sa.Column("id", _BIGID, autoincrement=True, nullable=False),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("planned", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_lab_series"),
        sa.UniqueConstraint("name", name="uq_lab_series_name"),
    )
    op.create_table(
        "lab_series_games",
        sa.Column("series_id", _BIGID, nullable=False),
        sa.Column("game_index", sa.Integer(), nullable=False),
        sa.Column("group_no", sa.Integer(), nullable=False),
        sa.Column("rotation", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("specs", sa.JSON(), nullable=False),
        sa.Column("first_player", sa.Integer(), nullable=True),
        sa.Column("winners", sa.JSON(), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("rule", sa.String(32), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=True),
        sa.Column("length", sa.Integer(), nullable=False),
        sa.Column("turns", sa.Integer(), nullable=False),
        sa.Column("truncated", sa.Boolean(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("context", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["series_id"], ["lab_series.id"], name="fk_lab_series_games_series_id_lab_series",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("series_id", "game_index", name="pk_lab_series_games"),
    )
    op.create_table(
        "lab_series_facts",
        sa.Column("series_id", _BIGID, nullable=False),
        sa.Column("game_index", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("verb", sa.String(16), nullable=False),
        sa.Column("item", sa.String(64), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["series_id", "game_index"], ["lab_series_games.series_id", "lab_series_games.game_index"],
                                name="fk_lab_series_facts_game", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("series_id", "game_index", "seat", "verb", "item", "turn", name="pk_lab_series_facts"),
    )


def downgrade() -> None:
    """Drop the lab's tables."""
    for name in ("lab_series_facts", "lab_series_games", "lab_series"):
        op.drop_table(name)
