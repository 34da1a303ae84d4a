"""The balance lab's tables: named runs, their games, and each game's facts read from its event log.

A run (``lab_series``) keeps the configuration it was started with, so an interrupted run resumes
with the same games; each finished game (``lab_series_games``) is written with its facts in the
transaction of its batch. A game's facts are packed ints on its row (one int64 a fact, named by
the run's codebook, made once by the worker that played it), so storing a game costs one row
however long it was. The tables are on the store's ``Base`` and are created by the migrations
``0002_lab``, ``0003_lab_facts_per_game`` and ``0004_lab_packed_facts``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, utcnow

RUN_NAME_LENGTH = 128
"""The longest run name."""


class LabSeriesRow(Base):
    """A named lab run: its game, its configuration (``StudyConfig.to_json``) and how many games it plans."""

    __tablename__ = "lab_series"

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                                    autoincrement=True)
    name: Mapped[str] = mapped_column(String(RUN_NAME_LENGTH), unique=True)
    game: Mapped[str] = mapped_column(String(32))
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    planned: Mapped[int] = mapped_column(Integer)
    """Games the run plays in all (whole seat-rotated groups)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the last planned game was stored (NULL while games are missing)."""
    fact_codebook: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """What its games' packed facts name (``Codebook.to_json``: the layout, verbs and items by index)."""


class LabSeriesGameRow(Base):
    """One finished game of a run: seed, seats, outcome and length."""

    __tablename__ = "lab_series_games"

    series_id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"),
                                           ForeignKey("lab_series.id", ondelete="CASCADE"), primary_key=True)
    game_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    group_no: Mapped[int] = mapped_column(Integer)
    rotation: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    specs: Mapped[list[str]] = mapped_column(JSON)
    """The agent spec in each seat."""
    first_player: Mapped[int | None] = mapped_column(Integer, nullable=True)
    winners: Mapped[list[int]] = mapped_column(JSON)
    reason: Mapped[str] = mapped_column(String(200))
    rule: Mapped[str] = mapped_column(String(32))
    scores: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    length: Mapped[int] = mapped_column(Integer)
    """Actions applied."""
    turns: Mapped[int] = mapped_column(Integer)
    truncated: Mapped[bool] = mapped_column(Boolean)
    seconds: Mapped[float] = mapped_column(Float)
    context: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """Per seat: its deck, option cards, score parts (``GameFacts.context``)."""
    facts: Mapped[str] = mapped_column(Text, server_default="[]")
    """The game's facts that are not packed, as one JSON array of ``[seat, verb, item, turn, count]``
    (``encode_facts``; ``[]`` for most games, every fact for a run stored before packed facts)."""
    fact_codes: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    """The game's packed facts: little-endian int64s in the run's ``fact_codebook`` (``pack_facts``)."""
