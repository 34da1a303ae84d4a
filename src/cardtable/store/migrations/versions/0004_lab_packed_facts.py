"""The lab packs each game's facts as int64s named by its run's codebook.

Revision ID: 0004_lab_packed_facts
Revises: 0003_lab_facts_per_game
Create Date: 2026-12-03

Runs stored before keep their facts as JSON text in ``lab_series_games.facts``, which the lab still
reads; their new columns stay NULL.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_lab_packed_facts"
down_revision = "0003_lab_facts_per_game"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``lab_series.fact_codebook`` and ``lab_series_games.fact_codes``."""
    with op.batch_alter_table("lab_series") as batch:
        batch.add_column(sa.Column("fact_codebook", sa.JSON(), nullable=True))
    with op.batch_alter_table("lab_series_games") as batch:
        batch.add_column(sa.Column("fact_codes", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    """Unpack every game's packed facts into its JSON text, then drop the two columns."""
    from cardtable.lab.facts import Codebook, decode_facts, encode_facts, unpack_facts

    conn = op.get_bind()
    series = sa.table("lab_series", sa.column("id"), sa.column("fact_codebook", sa.JSON()))
    games = sa.table("lab_series_games", sa.column("series_id"), sa.column("game_index"), sa.column("facts"),
                     sa.column("fact_codes", sa.LargeBinary()))
    books = {row.id: Codebook.from_json(row.fact_codebook) for row in conn.execute(sa.select(series))
             if row.fact_codebook}
    for row in conn.execute(sa.select(games).where(games.c.fact_codes.is_not(None))).all():
        book = books.get(row.series_id)
        facts = (unpack_facts(row.fact_codes, book) if book is not None else ()) + decode_facts(row.facts or "[]")
        conn.execute(games.update().where(games.c.series_id == row.series_id, games.c.game_index == row.game_index)
                     .values(facts=encode_facts(facts)))
    with op.batch_alter_table("lab_series_games") as batch:
        batch.drop_column("fact_codes")
    with op.batch_alter_table("lab_series") as batch:
        batch.drop_column("fact_codebook")
