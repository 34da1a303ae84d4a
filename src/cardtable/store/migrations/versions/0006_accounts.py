"""Players' accounts: accounts, sessions, passkeys and their challenges, ratings and rating changes;
rated rooms; the account of a seat and of each sitting.

Revision ID: 0006_accounts
Revises: 0005_sittings
Create Date: 2026-12-03

Rooms stored before are unrated, and their seats and sittings belong to no account (guests).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_accounts"
down_revision = "0005_sittings"
branch_labels = None
depends_on = None


def _stamp(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    """Create the account tables and add ``rooms.rated``, ``seats.account_id`` and ``sittings.account_id``."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(24), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=True),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("status", sa.Enum("active", "disabled", "deleted", name="account_status", native_enum=False,
                                    create_constraint=True, length=16), nullable=False),
        _stamp("created_at"), _stamp("updated_at"),
        sa.PrimaryKeyConstraint("id", name="pk_accounts"),
        sa.UniqueConstraint("name_key", name="uq_accounts_name_key"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("account_id", sa.String(24), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("user_agent", sa.String(200), nullable=False),
        _stamp("created_at"), _stamp("last_seen"), _stamp("expires_at"),
        sa.PrimaryKeyConstraint("token_hash", name="pk_sessions"),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_sessions_account_id_accounts",
                                ondelete="CASCADE"),
    )
    op.create_index("ix_sessions_account", "sessions", ["account_id"])
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(512), nullable=False),
        sa.Column("account_id", sa.String(24), nullable=False),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("transports", sa.JSON(), nullable=False),
        sa.Column("label", sa.String(64), nullable=False),
        _stamp("created_at"), _stamp("last_used", nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_passkeys"),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_passkeys_account_id_accounts",
                                ondelete="CASCADE"),
    )
    op.create_index("ix_passkeys_account", "passkeys", ["account_id"])
    op.create_table(
        "webauthn_challenges",
        sa.Column("id", sa.String(24), nullable=False),
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("account_id", sa.String(24), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        _stamp("expires_at"),
        sa.PrimaryKeyConstraint("id", name="pk_webauthn_challenges"),
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(24), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        _stamp("updated_at"),
        sa.PrimaryKeyConstraint("account_id", "game", "players", name="pk_ratings"),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_ratings_account_id_accounts"),
    )
    op.create_index("ix_ratings_board", "ratings", ["game", "players"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("room_id", sa.String(24), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.String(24), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        _stamp("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_rating_changes"),
        sa.UniqueConstraint("room_id", "game_no", "account_id", name="uq_rating_changes_game_account"),
        sa.ForeignKeyConstraint(["room_id", "game_no"], ["games.room_id", "games.game_no"],
                                name="fk_rating_changes_game", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_rating_changes_account_id_accounts"),
    )
    op.create_index("ix_rating_changes_account", "rating_changes", ["account_id", "game", "players"])
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.String(24), nullable=True))
        batch.create_foreign_key("fk_seats_account_id_accounts", "accounts", ["account_id"], ["id"])
    with op.batch_alter_table("sittings") as batch:
        batch.add_column(sa.Column("account_id", sa.String(24), nullable=True))
        batch.create_foreign_key("fk_sittings_account_id_accounts", "accounts", ["account_id"], ["id"])
    op.create_index("ix_sittings_account", "sittings", ["account_id"])


def downgrade() -> None:
    """Drop what :func:`upgrade` added."""
    op.drop_index("ix_sittings_account", table_name="sittings")
    with op.batch_alter_table("sittings") as batch:
        batch.drop_constraint("fk_sittings_account_id_accounts", type_="foreignkey")
        batch.drop_column("account_id")
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("fk_seats_account_id_accounts", type_="foreignkey")
        batch.drop_column("account_id")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("rated")
    op.drop_index("ix_rating_changes_account", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
    op.drop_table("webauthn_challenges")
    op.drop_index("ix_passkeys_account", table_name="passkeys")
    op.drop_table("passkeys")
    op.drop_index("ix_sessions_account", table_name="sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
