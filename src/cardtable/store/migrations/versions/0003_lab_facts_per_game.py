"""The lab keeps each game's facts as one JSON text on the game's row (one row per game to store).

Revision ID: 0003_lab_facts_per_game
Revises: 0002_lab
Create Date: 2026-12-02
"""

from __future__ import annotations

import json
from collections import defaultdict

import sqlalchemy as sa
from alembic import op

revision = "0003_lab_facts_per_game"
down_revision = "0002_lab"
branch_labels = None
depends_on = None

_BIGID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Add ``lab_series_games.facts``, fill it from ``lab_series_facts``, and drop that table."""
    with op.batch_alter_table("lab_series_games") as batch:
        batch.add_column(sa.Column("facts", sa.Text(), nullable=False, server_default="[]"))
    conn = op.get_bind()
    facts = sa.table("lab_series_facts", sa.column("series_id"), sa.column("game_index"), sa.column("seat"),
                     sa.column("verb"), sa.column("item"), sa.column("turn"), sa.column("count"))
    games = sa.table("lab_series_games", sa.column("series_id"), sa.column("game_index"), sa.column("facts"))
    by_game: dict[tuple[int, int], list[list[object]]] = defaultdict(list)
    for row in conn.execute(sa.select(facts).order_by(facts.c.series_id, facts.c.game_index, facts.c.seat,
                                                        facts.c.verb, facts.c.item, facts.c.turn)):
        by_game[(row.series_id, row.game_index)].append([row.seat, row.verb, row.item, row.turn, row.count])
    for (series, index), rows in by_game.items():
        conn.execute(games.update().where(games.c.series_id == series, games.c.game_index == index)
                     .values(facts=json.dumps(rows, separators=(",", ":"), ensure_ascii=False)))
    op.drop_table("lab_series_facts")


def downgrade() -> None:
    """Bring back ``lab_series_facts`` (one row per fact) from the games' JSON, and drop the column."""
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
    conn = op.get_bind()
    games = sa.table("lab_series_games", sa.column("series_id"), sa.column("game_index"), sa.column("facts"))
    facts = sa.table("lab_series_facts", sa.column("series_id"), sa.column("game_index"), sa.column("seat"),
                     sa.column("verb"), sa.column("item"), sa.column("turn"), sa.column("count"))
    rows = [{"series_id": g.series_id, "game_index": g.game_index, "seat": s, "verb": v, "item": i[:64], "turn": t,
             "count": n}
            for g in conn.execute(sa.select(games)) for s, v, i, t, n in json.loads(g.facts or "[]")]
    if rows:
        conn.execute(facts.insert(), rows)
    with op.batch_alter_table("lab_series_games") as batch:
        batch.drop_column("facts")
