"""Where lab runs live: the project's store (any SQLAlchemy URL; an SQLite file by default).

A run is created once with its configuration; its games are written a batch at a time, each batch
in one transaction with its facts, so an interrupted run keeps every batch it finished and
``resume`` plays only the games still missing.

>>> from cardtable.lab.study import StudyConfig, plan, play_batch, Batch
>>> lab = LabStore.open("sqlite://")
>>> config = StudyConfig("zeta", ("random",), games=2, seed=5)
>>> run = lab.create("demo", config)
>>> lab.save(run.id, play_batch(Batch(config, tuple(plan(config)))))
>>> loaded = lab.load("demo")
>>> len(loaded.games), loaded.complete, loaded.games[0].facts.first_player in (0, 1)
(2, True, True)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update

from cardtable.store import DEFAULT_URL, Store
from cardtable.store.lab_models import RUN_NAME_LENGTH, LabSeriesFactRow, LabSeriesGameRow, LabSeriesRow
from cardtable.store.models import utcnow

from .facts import Fact, GameFacts, Verb
from .study import PlayedGame, StudyConfig, plan


class RunExists(ValueError):
    """A run of this name is already stored."""


class NoSuchRun(ValueError):
    """No run of this name is stored."""


@dataclass(frozen=True)
class RunInfo:
    """A stored run: its id, name, configuration, planned and stored games."""

    id: int
    name: str
    config: StudyConfig
    planned: int
    stored: int
    created_at: datetime
    finished_at: datetime | None

    @property
    def complete(self) -> bool:
        """True once every planned game is stored."""
        return self.stored >= self.planned


@dataclass(frozen=True)
class LoadedRun:
    """A run with every stored game (facts included), in game-index order."""

    info: RunInfo
    games: tuple[PlayedGame, ...]

    @property
    def complete(self) -> bool:
        """True once every planned game is stored."""
        return len(self.games) >= self.info.planned


class LabStore:
    """The lab's runs in a :class:`cardtable.store.Store` (the migrations create the lab's tables)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @classmethod
    def open(cls, url: str = DEFAULT_URL) -> LabStore:
        """Open (and migrate) the store at ``url``."""
        return cls(Store.open(url))

    def close(self) -> None:
        """Close the store's connections."""
        self.store.close()

    # -- runs ---------------------------------------------------------------------------------------
    def create(self, name: str, config: StudyConfig) -> RunInfo:
        """Store a new run (RunExists if the name is taken)."""
        if not name or len(name) > RUN_NAME_LENGTH:
            raise ValueError(f"a run name has 1 to {RUN_NAME_LENGTH} characters, got {name!r}")
        if self.find(name) is not None:
            raise RunExists(f"a run named {name!r} exists already; `cardtable lab run --resume {name}` finishes it, "
                            f"or choose another --name")
        planned = len(plan(config))
        with self.store.engine.begin() as conn:
            conn.execute(insert(LabSeriesRow).values(name=name, game=config.game, config=config.to_json(),
                                                     planned=planned, created_at=utcnow(), finished_at=None))
        found = self.find(name)
        assert found is not None
        return found

    def find(self, name: str) -> RunInfo | None:
        """The run of this name, or None."""
        with self.store.engine.connect() as conn:
            row = conn.execute(select(LabSeriesRow).where(LabSeriesRow.name == name)).first()
            if row is None:
                return None
            stored = conn.execute(select(func.count()).select_from(LabSeriesGameRow)
                                  .where(LabSeriesGameRow.series_id == row.id)).scalar_one()
        return RunInfo(row.id, row.name, StudyConfig.from_json(row.config), row.planned, int(stored), row.created_at,
                       row.finished_at)

    def get(self, name: str) -> RunInfo:
        """The run of this name (NoSuchRun listing the stored runs if none)."""
        found = self.find(name)
        if found is None:
            names = ", ".join(r.name for r in self.runs()) or "none"
            raise NoSuchRun(f"no lab run named {name!r} in this store (stored runs: {names})")
        return found

    def runs(self) -> list[RunInfo]:
        """Every stored run, oldest first."""
        with self.store.engine.connect() as conn:
            names = [r[0] for r in conn.execute(select(LabSeriesRow.name).order_by(LabSeriesRow.id))]
        return [info for info in (self.find(n) for n in names) if info is not None]

    def delete(self, name: str) -> None:
        """Forget a run and its games (NoSuchRun if none)."""
        info = self.get(name)
        with self.store.engine.begin() as conn:
            conn.execute(delete(LabSeriesFactRow).where(LabSeriesFactRow.series_id == info.id))
            conn.execute(delete(LabSeriesGameRow).where(LabSeriesGameRow.series_id == info.id))
            conn.execute(delete(LabSeriesRow).where(LabSeriesRow.id == info.id))

    def stored_indexes(self, run_id: int) -> set[int]:
        """The indexes of the games of a run already stored."""
        with self.store.engine.connect() as conn:
            return {int(r[0]) for r in conn.execute(select(LabSeriesGameRow.game_index)
                                                    .where(LabSeriesGameRow.series_id == run_id))}

    # -- games --------------------------------------------------------------------------------------
    def save(self, run_id: int, games: Sequence[PlayedGame]) -> None:
        """Store finished games with their facts, all in one transaction."""
        if not games:
            return
        rows = [{"series_id": run_id, "game_index": g.index, "group_no": g.group, "rotation": g.rotation,
                 "seed": g.seed, "specs": list(g.specs), "first_player": g.facts.first_player,
                 "winners": list(g.winners), "reason": g.reason[:200], "rule": g.rule[:32],
                 "scores": list(g.scores) if g.scores is not None else None, "length": g.length,
                 "turns": g.facts.turns, "truncated": g.truncated, "seconds": g.seconds,
                 "context": [dict(c) for c in g.facts.context]} for g in games]
        facts = [{"series_id": run_id, "game_index": g.index, "seat": f.seat, "verb": str(f.verb),
                  "item": f.item[:64], "turn": f.turn, "count": f.count} for g in games for f in g.facts.facts]
        with self.store.engine.begin() as conn:
            conn.execute(insert(LabSeriesGameRow), rows)
            if facts:
                conn.execute(insert(LabSeriesFactRow), facts)
            planned = conn.execute(select(LabSeriesRow.planned).where(LabSeriesRow.id == run_id)).scalar_one()
            stored = conn.execute(select(func.count()).select_from(LabSeriesGameRow)
                                  .where(LabSeriesGameRow.series_id == run_id)).scalar_one()
            if stored >= planned:
                conn.execute(update(LabSeriesRow).where(LabSeriesRow.id == run_id).values(finished_at=utcnow()))

    def load(self, name: str) -> LoadedRun:
        """A run with all its stored games and facts (NoSuchRun if none)."""
        info = self.get(name)
        by_game: dict[int, list[Fact]] = defaultdict(list)
        with self.store.engine.connect() as conn:
            for f in conn.execute(select(LabSeriesFactRow.game_index, LabSeriesFactRow.seat, LabSeriesFactRow.verb,
                                         LabSeriesFactRow.item, LabSeriesFactRow.turn, LabSeriesFactRow.count)
                                  .where(LabSeriesFactRow.series_id == info.id)):
                by_game[int(f[0])].append(Fact(int(f[1]), Verb(f[2]), str(f[3]), int(f[4]), int(f[5])))
            rows = conn.execute(select(LabSeriesGameRow).where(LabSeriesGameRow.series_id == info.id)
                                .order_by(LabSeriesGameRow.game_index)).all()
        games = tuple(_played(row, by_game.get(row.game_index, [])) for row in rows)
        return LoadedRun(info, games)


def _played(row: Any, facts: list[Fact]) -> PlayedGame:
    facts.sort(key=lambda f: (f.seat, str(f.verb), f.item, f.turn))
    gf = GameFacts(row.first_player, row.turns, tuple(facts), tuple(dict(c) for c in row.context))
    return PlayedGame(row.game_index, row.group_no, row.rotation, int(row.seed), tuple(row.specs),
                      tuple(int(w) for w in row.winners), row.reason, row.rule,
                      tuple(float(s) for s in row.scores) if row.scores is not None else None, row.length,
                      bool(row.truncated), float(row.seconds), gf)
