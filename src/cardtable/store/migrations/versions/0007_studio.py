"""The studio: studies launched from the browser and the card sets saved there.

Revision ID: 0007_studio
Revises: 0006_accounts
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardtable.store import studio_models  # noqa: F401  (the tables join the store's metadata)

revision = "0007_studio"
down_revision = "0006_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``studio_studies`` and ``studio_card_sets``."""
    op.create_table(
        "studio_studies",
        sa.Column("id", sa.String(24), nullable=False),
        sa.Column("share_id", sa.String(32), nullable=False),
        sa.Column("owner", sa.String(96), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("request", sa.JSON(), nullable=False),
        sa.Column("runs", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("planned", sa.Integer(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_studio_studies"),
        sa.UniqueConstraint("share_id", name="uq_studio_studies_share_id"),
    )
    op.create_index("ix_studio_studies_owner", "studio_studies", ["owner"])
    op.create_table(
        "studio_card_sets",
        sa.Column("id", sa.String(24), nullable=False),
        sa.Column("owner", sa.String(96), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("values", sa.JSON(), nullable=False),
        sa.Column("flags", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_studio_card_sets"),
    )
    op.create_index("ix_studio_card_sets_owner", "studio_card_sets", ["owner"])


def downgrade() -> None:
    """Drop the studio's tables."""
    op.drop_index("ix_studio_card_sets_owner", "studio_card_sets")
    op.drop_table("studio_card_sets")
    op.drop_index("ix_studio_studies_owner", "studio_studies")
    op.drop_table("studio_studies")
