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

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import delete, event, func, insert, select, update
from sqlalchemy.engine import make_url

from cardtable.store import DEFAULT_URL, Store
from cardtable.store.lab_models import RUN_NAME_LENGTH, LabSeriesGameRow, LabSeriesRow
from cardtable.store.models import utcnow

from .facts import CODEBOOK, Codebook, GameFacts
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
    codebook: Codebook | None = None
    """What its games' packed facts name (None: a run stored before facts were packed)."""

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

    def __init__(self, store: Store, url: str | None = None) -> None:
        self.store = store
        self.url = url
        """The URL it was opened with (None when made from a ``Store``): workers open their own connection."""

    @classmethod
    def open(cls, url: str = DEFAULT_URL, *, migrate: bool = True) -> LabStore:
        """Open (and migrate, unless ``migrate`` is False) the store at ``url``.

        An SQLite file is written with ``synchronous=NORMAL``, SQLite's advice for its write-ahead
        log: a commit is not flushed to the disk at once, so a power cut can lose the last batches
        (never corrupt the file; a crash of the program loses nothing), and ``--resume`` plays them
        again. The rooms' store keeps flushing every commit.
        """
        store = Store.open(url, migrate=migrate)
        lab = cls(store, url)
        if store.dialect == "sqlite" and lab.shared_url is not None:  # a file (in memory: nothing to flush)
            event.listen(store.engine, "connect", _lab_synchronous)
            store.engine.dispose()  # the connection the migrations used flushes every commit
        return lab

    @property
    def shared_url(self) -> str | None:
        """The URL other processes of this machine can store into, or None (an in-memory SQLite database).

        An SQLite file's path is made absolute, as a worker may start in another directory.
        """
        if self.url is None:
            return None
        parsed = make_url(self.url)
        if parsed.get_backend_name() != "sqlite":
            return self.url
        database = parsed.database or ""
        if database in ("", ":memory:"):
            return None
        return parsed.set(database=str(Path(database).expanduser().resolve())).render_as_string(hide_password=False)

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
                                                     planned=planned, created_at=utcnow(), finished_at=None,
                                                     fact_codebook=CODEBOOK.to_json()))
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
        book = Codebook.from_json(row.fact_codebook) if row.fact_codebook else None
        return RunInfo(row.id, row.name, StudyConfig.from_json(row.config), row.planned, int(stored), row.created_at,
                       row.finished_at, book)

    def adopt_codebook(self, info: RunInfo) -> RunInfo:
        """Make this version's codebook the run's before more games are stored (resuming a run).

        A run's stored games keep reading right: this version's codebook must name every code of the
        run's the same way (it may name more). ValueError if it does not: such a run is finished by the
        version that started it. A run stored before facts were packed has none: its games keep their
        facts as JSON text, and the games stored now are packed.
        """
        if info.codebook == CODEBOOK:
            return info
        if info.codebook is not None and not CODEBOOK.extends(info.codebook):
            raise ValueError(f"the lab run {info.name!r} was started by a version of cardtable whose facts are "
                             f"named differently; finish it with that version, or start a new run")
        with self.store.engine.begin() as conn:
            conn.execute(update(LabSeriesRow).where(LabSeriesRow.id == info.id)
                         .values(fact_codebook=CODEBOOK.to_json()))
        return self.get(info.name)

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
            conn.execute(delete(LabSeriesGameRow).where(LabSeriesGameRow.series_id == info.id))
            conn.execute(delete(LabSeriesRow).where(LabSeriesRow.id == info.id))

    def stored_indexes(self, run_id: int) -> set[int]:
        """The indexes of the games of a run already stored."""
        with self.store.engine.connect() as conn:
            return {int(r[0]) for r in conn.execute(select(LabSeriesGameRow.game_index)
                                                    .where(LabSeriesGameRow.series_id == run_id))}

    # -- games --------------------------------------------------------------------------------------
    def save(self, run_id: int, games: Sequence[PlayedGame], *, finish: bool = True) -> None:
        """Store finished games with their facts, all in one transaction.

        A game is one row, its facts the packed ints (and JSON text) its worker made; the rows go to the database
        driver in one ``executemany`` (the process that stores is the one that every worker waits
        on, so its work per game is kept to building a tuple). With ``finish`` the same transaction
        marks the run finished once every planned game is stored; workers that store at once leave
        that to the study's process (``finish_if_complete``), so their transactions only insert.
        """
        if not games:
            return
        dumps = _compact_json
        texts = _JSON_OF_TUPLES  # a run repeats a few lineups and winner sets: each one's JSON is made once
        rows = [(run_id, g.index, g.group, g.rotation, g.seed, texts[g.specs], g.facts.first_player,
                 texts[g.winners], g.reason[:200], g.rule[:32],
                 dumps(list(g.scores)) if g.scores is not None else None, g.length, g.facts.turns, g.truncated,
                 g.seconds, g.facts.encoded_context(), g.facts.encoded(), g.facts.packed()) for g in games]
        # a write transaction from its start (SQLite: BEGIN IMMEDIATE), as workers may store at once
        with self.store.engine.execution_options(cardtable_write=True).begin() as conn:
            conn.exec_driver_sql(_insert_games_sql(conn.dialect.paramstyle), rows)
            if finish:
                _finish_if_complete(conn, run_id)

    def finish_if_complete(self, run_id: int) -> None:
        """Mark the run finished if every planned game is stored (after workers stored the batches)."""
        with self.store.engine.execution_options(cardtable_write=True).begin() as conn:
            _finish_if_complete(conn, run_id)

    def load(self, name: str) -> LoadedRun:
        """A run with all its stored games and facts (NoSuchRun if none)."""
        info = self.get(name)
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(LabSeriesGameRow).where(LabSeriesGameRow.series_id == info.id)
                                .order_by(LabSeriesGameRow.game_index)).all()
        games = tuple(_played(row, info.codebook) for row in rows)
        return LoadedRun(info, games)


_GAME_COLUMNS = ("series_id", "game_index", "group_no", "rotation", "seed", "specs", "first_player", "winners",
                 "reason", "rule", "scores", "length", "turns", "truncated", "seconds", "context", "facts",
                 "fact_codes")
"""The columns of ``lab_series_games`` in the order ``LabStore.save`` fills them."""


def _finish_if_complete(conn: Any, run_id: int) -> None:
    """In ``conn``'s transaction: set the run's ``finished_at`` once its stored games reach the planned number."""
    planned = conn.execute(select(LabSeriesRow.planned).where(LabSeriesRow.id == run_id)).scalar_one()
    stored = conn.execute(select(func.count()).select_from(LabSeriesGameRow)
                          .where(LabSeriesGameRow.series_id == run_id)).scalar_one()
    if stored >= planned:
        conn.execute(update(LabSeriesRow).where(LabSeriesRow.id == run_id).values(finished_at=utcnow()))


def _lab_synchronous(dbapi_conn: Any, _record: Any) -> None:
    """Each new SQLite connection of a lab store: commits without a flush (write-ahead log, ``NORMAL``)."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


def _compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class _TupleJson(dict[tuple[Any, ...], str]):
    """The JSON array text of each tuple, made once."""

    def __missing__(self, value: tuple[Any, ...]) -> str:
        if len(self) > 10_000:
            self.clear()
        out = self[value] = _compact_json(list(value))
        return out


_JSON_OF_TUPLES = _TupleJson()


def _insert_games_sql(paramstyle: str) -> str:
    """The driver-level INSERT of one game row in the driver's parameter style."""
    if paramstyle == "qmark":
        marks = ["?"] * len(_GAME_COLUMNS)
    elif paramstyle in ("format", "pyformat"):
        marks = ["%s"] * len(_GAME_COLUMNS)
    elif paramstyle == "numeric":
        marks = [f":{i + 1}" for i in range(len(_GAME_COLUMNS))]
    else:  # named
        marks = [f":{c}" for c in _GAME_COLUMNS]
    table = LabSeriesGameRow.__tablename__
    return f"INSERT INTO {table} ({', '.join(_GAME_COLUMNS)}) VALUES ({', '.join(marks)})"


def _played(row: Any, codebook: Codebook | None) -> PlayedGame:
    gf = GameFacts(row.first_player, row.turns, None, tuple(dict(c) for c in row.context), encoded=row.facts,
                   codes=bytes(row.fact_codes or b""), codebook=codebook)
    return PlayedGame(row.game_index, row.group_no, row.rotation, int(row.seed), tuple(row.specs),
                      tuple(int(w) for w in row.winners), row.reason, row.rule,
                      tuple(float(s) for s in row.scores) if row.scores is not None else None, row.length,
                      bool(row.truncated), float(row.seconds), gf)


FACT_CSV_COLUMNS: tuple[str, ...] = ("game", "group", "rotation", "seed", "seat", "agent", "first_player", "position",
                                     "won", "winners", "verb", "item", "turn", "count")
"""The columns of ``lab facts --csv``: the game's id and seeds, the seat, who moved first, the seat's turn
position, whether the seat won (1 or 0; a shared win is a win) and every winner (seats joined by ``;``),
then the fact."""
"""The columns ``write_facts_csv`` writes."""


def write_facts_csv(run: LoadedRun, path: Path) -> int:
    """Write every fact of a run's games as CSV rows (``FACT_CSV_COLUMNS``); returns the number of facts.

    >>> import tempfile
    >>> from cardtable.lab.study import StudyConfig, plan, play_batch, Batch
    >>> lab = LabStore.open("sqlite://")
    >>> config = StudyConfig("zeta", ("random",), games=1, seed=5)
    >>> lab.save(lab.create("one", config).id, play_batch(Batch(config, tuple(plan(config)))))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     n = write_facts_csv(lab.load("one"), Path(tmp) / "facts.csv")
    ...     head = (Path(tmp) / "facts.csv").read_text().splitlines()[:2]
    >>> n > 50, head[0]
    (True, 'game,group,rotation,seed,seat,agent,first_player,position,won,winners,verb,item,turn,count')
    >>> head[1].split(",")[10:]
    ['in_deck', 'apprentice_hexer', '0', '1']
    """
    n = 0
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(FACT_CSV_COLUMNS)
        for g in run.games:
            first = g.facts.first_player
            winners = ";".join(map(str, g.winners))
            for fact in g.facts.facts:
                agent = g.specs[fact.seat] if 0 <= fact.seat < len(g.specs) else ""
                position = "" if first is None else (fact.seat - first) % g.players
                out.writerow((g.index, g.group, g.rotation, g.seed, fact.seat, agent, "" if first is None else first,
                              position, int(fact.seat in g.winners), winners, str(fact.verb), fact.item, fact.turn,
                              fact.count))
                n += 1
    return n
