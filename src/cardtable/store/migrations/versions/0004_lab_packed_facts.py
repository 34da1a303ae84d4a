"""The lab packs each game's facts as int64s named by its run's codebook.

Revision ID: 0004_lab_packed_facts
Revises: 0003_lab_facts_per_game
Create Date: 2026-12-03

Runs stored before keep their facts as JSON text in ``lab_series_games.facts``, which the lab still
reads; their new columns stay NULL.

A migration is frozen in time: the downgrade reads the packed facts with its own copy of the
layout of this revision (below), not with the lab's code, which may change after it.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Mapping
from typing import Any

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


PACKED_LAYOUT = "seat:0-2 verb:3-7 item:8-23 turn:24-39 count:40-62"
"""The bit fields of a packed fact at this revision, lowest bit first; a fact is one little-endian int64."""

Codebook = tuple[tuple[str, ...], tuple[str, ...]]
"""The verbs and the items a run's packed facts name by index."""


def read_codebook(data: Mapping[str, Any]) -> Codebook:
    """A run's codebook as stored at this revision: its verbs and items (ValueError for another layout)."""
    if data.get("layout") != PACKED_LAYOUT:
        raise ValueError(f"packed facts in layout {data.get('layout')!r}; this revision reads {PACKED_LAYOUT!r}")
    return tuple(str(v) for v in data["verbs"]), tuple(str(i) for i in data["items"])


def unpack_facts(codes: bytes, codebook: Codebook) -> list[list[Any]]:
    """Packed facts as ``[seat, verb, item, turn, count]`` lists; repeats of a fact add up in the place of its first.

    >>> unpack_facts(struct.pack("<2q", 1 | 1 << 3 | 2 << 24 | 3 << 40, 1 | 1 << 3 | 2 << 24 | 1 << 40),
    ...              (("drawn", "played"), ("fire_mage",)))
    [[1, 'played', 'fire_mage', 2, 4]]
    """
    verbs, items = codebook
    counts: dict[int, int] = {}
    for (code,) in struct.iter_unpack("<q", codes):
        key = code & (1 << 40) - 1
        counts[key] = counts.get(key, 0) + (code >> 40)
    return [[k & 7, verbs[k >> 3 & 31], items[k >> 8 & 0xFFFF], k >> 24, n] for k, n in counts.items()]


def encode_facts(facts: list[list[Any]]) -> str:
    """Facts as the JSON text of ``lab_series_games.facts``: one compact array of ``[seat, verb, item, turn, count]``."""
    return json.dumps(facts, separators=(",", ":"), ensure_ascii=False)


def downgrade() -> None:
    """Unpack every game's packed facts into its JSON text, then drop the two columns."""
    conn = op.get_bind()
    series = sa.table("lab_series", sa.column("id"), sa.column("fact_codebook", sa.JSON()))
    games = sa.table("lab_series_games", sa.column("series_id"), sa.column("game_index"), sa.column("facts"),
                     sa.column("fact_codes", sa.LargeBinary()))
    books = {row.id: read_codebook(row.fact_codebook) for row in conn.execute(sa.select(series))
             if row.fact_codebook}
    for row in conn.execute(sa.select(games).where(games.c.fact_codes.is_not(None))).all():
        book = books.get(row.series_id)
        facts = (unpack_facts(row.fact_codes, book) if book is not None else []) + json.loads(row.facts or "[]")
        conn.execute(games.update().where(games.c.series_id == row.series_id, games.c.game_index == row.game_index)
                     .values(facts=encode_facts(facts)))
    with op.batch_alter_table("lab_series_games") as batch:
        batch.drop_column("fact_codes")
    with op.batch_alter_table("lab_series") as batch:
        batch.drop_column("fact_codebook")
