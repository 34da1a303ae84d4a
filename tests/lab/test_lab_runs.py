"""Lab runs: paired seeds with rotated seats, batches, an interrupted run that resumes to the same games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardtable.lab.execute import ensure_run, run_study
from cardtable.lab.pipeline import Progress, process_pool
from cardtable.lab.storage import LabStore, RunExists
from cardtable.lab.study import StudyConfig, lineup, plan


def strip(games: object) -> list[tuple[object, ...]]:
    """What must be identical between two plays of a run."""
    return [(g.index, g.group, g.rotation, g.seed, g.specs, g.winners, g.reason, g.length, g.facts)  # type: ignore[attr-defined]
            for g in games]  # type: ignore[attr-defined]


def test_groups_share_a_seed_and_rotate_the_lineup() -> None:
    """Every game of a group starts from one seed; each distinct shift of the lineup plays it once."""
    tasks = plan(StudyConfig("oscilloscope", ("heuristic", "random"), games=8, seed=2, setup={"players": 4}))
    assert len(tasks) == 8
    for group in range(4):
        mine = [t for t in tasks if t.group == group]
        assert len({t.seed for t in mine}) == 1
        assert [t.specs for t in mine] == [("heuristic", "random", "heuristic", "random"),
                                           ("random", "heuristic", "random", "heuristic")]
    assert len({t.seed for t in tasks}) == 4
    assert lineup(["a", "b", "c"], 3) == [("a", "b", "c"), ("c", "a", "b"), ("b", "c", "a")]


def test_same_seed_same_deals_whatever_the_rules() -> None:
    """Two runs with one seed play the same seeds in the same seats: the pairing of variant comparisons."""
    a = plan(StudyConfig("zeta", ("heuristic",), games=5, seed=9))
    b = plan(StudyConfig("zeta", ("heuristic",), games=5, seed=9, rules={"second_player_extra_card": True}))
    assert [(t.seed, t.specs) for t in a] == [(t.seed, t.specs) for t in b]
    assert [t.seed for t in plan(StudyConfig("zeta", ("heuristic",), games=5, seed=10))] != [t.seed for t in a]


def test_an_interrupted_run_resumes_to_the_uninterrupted_games(lab: LabStore) -> None:
    """Ctrl-C after two batches keeps them; `--resume` plays the rest; the games equal an unbroken run's."""
    config = StudyConfig("zeta", ("heuristic:epsilon=0.3", "random"), games=24, seed=5)
    run_study(lab, "whole", config, batch=4)

    def stop(progress: Progress) -> None:
        """Interrupt the run after its second batch is stored."""
        if progress.stored >= 8:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_study(lab, "broken", config, batch=4, on_progress=stop)
    partial = lab.get("broken")
    assert partial.stored == 8 and not partial.complete and partial.finished_at is None
    resumed = run_study(lab, "broken", None, batch=5)
    assert resumed.complete and resumed.finished_at is not None
    assert strip(lab.load("broken").games) == strip(lab.load("whole").games)


def test_parallel_workers_store_the_games_one_process_plays(lab: LabStore) -> None:
    """Two local worker processes give exactly the games of one process (each game's agents have their seeded RNG)."""
    config = StudyConfig("utahime", ("heuristic", "random"), games=6, seed=8)
    run_study(lab, "one", config, batch=2)
    run_study(lab, "two", config, jobs=2, batch=1)
    assert strip(lab.load("one").games) == strip(lab.load("two").games)


def test_local_workers_store_their_own_batches(lab: LabStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a store file, local workers write their batches: the study's process only counts summaries."""
    import cardtable.lab.execute as execute

    def refuse(*_: object) -> None:
        raise AssertionError("the study's process received games to store")

    config = StudyConfig("zeta", ("heuristic", "random"), games=8, seed=4)
    run_study(lab, "here", config, batch=3)
    seen: list[Progress] = []
    monkeypatch.setattr(execute, "iter_batches", refuse)  # the path on which this process stores
    with process_pool(2) as pool:
        info = run_study(lab, "workers", config, executor=pool, batch=3, on_progress=seen.append)
    assert info.complete and info.finished_at is not None and [p.stored for p in seen][-1] == 8
    assert sorted(g.index for p in seen for g in p.batch) == list(range(8))
    assert strip(lab.load("workers").games) == strip(lab.load("here").games)


def test_an_in_memory_store_is_written_by_the_study_process() -> None:
    """An in-memory SQLite store cannot be opened by another process, so the workers send their games back."""
    memory = LabStore.open("sqlite://")
    assert memory.shared_url is None
    config = StudyConfig("zeta", ("random",), games=4, seed=3)
    info = run_study(memory, "memory", config, jobs=2, batch=1)
    assert info.complete and len(memory.load("memory").games) == 4
    memory.close()


def test_workers_get_an_absolute_path_to_a_store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A relative SQLite path reaches the workers as an absolute one (a worker may start elsewhere)."""
    monkeypatch.chdir(tmp_path)
    lab = LabStore.open("sqlite:///runs/lab.db")
    assert lab.shared_url == f"sqlite:///{tmp_path.resolve() / 'runs' / 'lab.db'}"
    lab.close()


def test_a_name_is_used_once_and_resuming_checks_the_configuration(lab: LabStore) -> None:
    """A run name holds one configuration: creating it again fails; `ensure_run` resumes only the same one."""
    config = StudyConfig("zeta", ("random",), games=3, seed=1)
    run_study(lab, "r", config)
    with pytest.raises(RunExists):
        run_study(lab, "r", config)
    assert ensure_run(lab, "r", config).stored == 3
    with pytest.raises(ValueError, match="another configuration"):
        ensure_run(lab, "r", StudyConfig("zeta", ("random",), games=3, seed=2))


def test_the_migration_creates_exactly_the_lab_models(lab: LabStore) -> None:
    """The lab's tables (migrations 0002_lab, 0003_lab_facts_per_game) match their models on the store's Base."""
    import sqlalchemy as sa
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from cardtable.store.models import Base

    with lab.store.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
        tables = set(sa.inspect(conn).get_table_names())
    assert {"lab_series", "lab_series_games"} <= tables
    assert "lab_series_facts" not in tables  # the facts are one JSON text on each game's row


def test_a_store_of_one_row_per_fact_keeps_its_facts_after_the_upgrade(tmp_path: Path) -> None:
    """A store written before facts moved onto the games' rows (0002_lab) upgrades with every fact kept."""
    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    from cardtable.lab.study import Batch, plan, play_batch

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = sa.create_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", "cardtable.store:migrations")
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002_lab")
    config = StudyConfig("zeta", ("random",), games=2, seed=4)
    played = play_batch(Batch(config, tuple(plan(config))))
    with engine.begin() as conn:  # what the lab wrote then: a run, its games, one row per fact
        conn.execute(sa.text("INSERT INTO lab_series (id, name, game, config, planned, created_at) "
                             "VALUES (1, 'old', 'zeta', :c, 2, '2026-12-01 00:00:00')"),
                     {"c": json.dumps(config.to_json())})
        for g in played:
            conn.execute(sa.text("INSERT INTO lab_series_games (series_id, game_index, group_no, rotation, seed, specs,"
                                 " first_player, winners, reason, rule, scores, length, turns, truncated, seconds,"
                                 " context) VALUES (1, :i, :g, :r, :s, :sp, :f, :w, :re, :ru, NULL, :l, :t, 0, 0.1,"
                                 " :c)"),
                         {"i": g.index, "g": g.group, "r": g.rotation, "s": g.seed, "sp": json.dumps(list(g.specs)),
                          "f": g.facts.first_player, "w": json.dumps(list(g.winners)), "re": g.reason, "ru": g.rule,
                          "l": g.length, "t": g.facts.turns, "c": json.dumps(list(g.facts.context))})
            conn.execute(sa.text("INSERT INTO lab_series_facts VALUES (1, :i, :s, :v, :it, :t, :n)"),
                         [{"i": g.index, "s": f.seat, "v": str(f.verb), "it": f.item, "t": f.turn, "n": f.count}
                          for f in g.facts.facts])
    engine.dispose()
    lab = LabStore.open(url)  # opening migrates to the newest revision
    try:
        loaded = lab.load("old")
        assert [sorted(g.facts.facts) for g in loaded.games] == [sorted(g.facts.facts) for g in played]
        assert [g.facts for g in loaded.games] == [g.facts for g in played]
    finally:
        lab.close()


def test_deleting_a_run_removes_its_games(lab: LabStore) -> None:
    """A deleted run leaves nothing behind."""
    run_study(lab, "gone", StudyConfig("zeta", ("random",), games=2, seed=1))
    lab.delete("gone")
    assert lab.find("gone") is None and lab.runs() == []
