"""The studio's tune studies: the journal of each study's search (Optuna's journal storage).

Revision ID: 0009_studio_tune
Revises: 0008_social
Create Date: 2026-12-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardtable.store import studio_models  # noqa: F401  (the tables join the store's metadata)

revision = "0009_studio_tune"
down_revision = "0008_social"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``studio_tune_log``."""
    op.create_table(
        "studio_tune_log",
        sa.Column("study", sa.String(24), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("entry", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("study", "seq", name="pk_studio_tune_log"),
    )


def downgrade() -> None:
    """Drop ``studio_tune_log``."""
    op.drop_table("studio_tune_log")
