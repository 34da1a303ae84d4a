"""The studio's tables: the studies people launch from the browser, and the card sets they save.

A study (``studio_studies``) keeps what it plays (its kind and its variants, each a set of rule
flags) and the names of the lab runs that hold its games (``lab_series``), so a study interrupted
by a restart resumes from its stored games. Its ``share_id`` is a random id that shows its report
to anyone who has it. A card set (``studio_card_sets``) is a game's changed numbers under a name.
A tune study's search (``studio_tune_log``) is Optuna's journal, one entry a row, so a search cut
short by a restart goes on with the trials it finished. Created by the migrations ``0007_studio``
and ``0009_studio_tune``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, utcnow


class StudioStudyRow(Base):
    """A study: its owner, kind, game, request, state, lab runs and (once finished) its report numbers."""

    __tablename__ = "studio_studies"
    __table_args__ = (Index("ix_studio_studies_owner", "owner"),)

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    share_id: Mapped[str] = mapped_column(String(32), unique=True)
    owner: Mapped[str] = mapped_column(String(96))
    """``account:ID`` for a signed-in person, ``address:ADDR`` for a guest."""
    kind: Mapped[str] = mapped_column(String(16))
    game: Mapped[str] = mapped_column(String(32))
    request: Mapped[dict[str, Any]] = mapped_column(JSON)
    """What was asked (``StudyRequest.to_json``): agents, games, seed, setup, the variants' flags."""
    runs: Mapped[list[str]] = mapped_column(JSON)
    """The lab runs holding its games, one per variant."""
    status: Mapped[str] = mapped_column(String(16))
    planned: Mapped[int] = mapped_column(Integer)
    done: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The report in each language, made once when the study finished."""
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class StudioCardSetRow(Base):
    """A saved card set: its owner, game, name and the numbers and flags that differ from the rulebook."""

    __tablename__ = "studio_card_sets"
    __table_args__ = (Index("ix_studio_card_sets_owner", "owner"),)

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    owner: Mapped[str] = mapped_column(String(96))
    game: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(64))
    values: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The numbers that differ from the rulebook's, by key (``item.field``)."""
    flags: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class StudioTuneLogRow(Base):
    """One entry of a tune study's search journal (Optuna's journal storage, kept in the server's store)."""

    __tablename__ = "studio_tune_log"

    study: Mapped[str] = mapped_column(String(24), primary_key=True)
    """The study (``studio_studies.id``) whose search wrote it."""
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    """Its place in the journal, from 0 (Optuna's log number)."""
    entry: Mapped[str] = mapped_column(Text)
    """The entry as JSON text (Optuna's journal operation)."""
