"""Packed facts: one int64 a fact, named by the run's codebook; stores written before them still read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa

from cardtable.lab.execute import run_study
from cardtable.lab.facts import CODEBOOK, Codebook, Fact, GameFacts, Verb, pack_facts, unpack_facts
from cardtable.lab.storage import LabStore
from cardtable.lab.study import Batch, StudyConfig, plan, play_batch


def _migrated(url: str, revision: str) -> sa.Engine:
    """An engine on a store migrated to ``revision`` only."""
    from alembic import command
    from alembic.config import Config

    engine = sa.create_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", "cardtable.store:migrations")
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
    return engine


def test_a_game_is_stored_as_packed_ints_and_reads_back_the_same_facts(lab: LabStore) -> None:
    """Every fact of a played game is packed (no JSON left), eight bytes each, and reads back equal."""
    config = StudyConfig("utahime", ("random",), games=3, seed=2, setup={"option_set": "designer_example"})
    run_study(lab, "u", config)
    played = play_batch(Batch(config, tuple(plan(config))))
    loaded = lab.load("u")
    assert loaded.info.codebook == CODEBOOK
    for stored, fresh in zip(loaded.games, played, strict=True):
        assert stored.facts == fresh.facts and stored.facts.facts
        assert len(fresh.facts.packed()) % 8 == 0 and fresh.facts.packed()
        # the codes hold one int per occurrence: as many ints as the facts' counts add up to, or fewer
        assert len(fresh.facts.packed()) // 8 <= sum(f.count for f in fresh.facts.facts)


def test_a_fact_the_codebook_does_not_name_is_kept_as_json() -> None:
    """An item met at run time (a players' own option card) is not in the codebook: it stays JSON, and is kept."""
    facts = GameFacts(0, 3, None, (), encoded='[[1,"option","a card of my own",2,1]]',
                      codes=pack_facts([Fact(0, Verb.DRAWN, "fire_mage", 1, 2)])[0])
    assert facts.facts == (Fact(0, Verb.DRAWN, "fire_mage", 1, 2), Fact(1, Verb.OPTION, "a card of my own", 2, 1))
    assert pack_facts([Fact(0, Verb.OPTION, "a card of my own", 2)]) == (b"", (Fact(0, Verb.OPTION, "a card of my own", 2),))


def test_packed_facts_read_with_the_codebook_they_were_packed_with() -> None:
    """A reader names an int by the run's codebook, not by the version reading it."""
    book = Codebook(CODEBOOK.verbs, ("zeroth", "first"))
    codes, rest = pack_facts([Fact(1, Verb.PLAYED, "first", 7, 3)], book)
    assert rest == () and unpack_facts(codes, book) == (Fact(1, Verb.PLAYED, "first", 7, 3),)
    assert Codebook.from_json(json.loads(json.dumps(book.to_json()))) == book
    with pytest.raises(ValueError, match="layout"):
        Codebook.from_json({**book.to_json(), "layout": "something else"})


def test_resuming_a_run_whose_codebook_names_codes_differently_is_refused(lab: LabStore) -> None:
    """Games stored under one codebook must not be mixed with games packed under another that disagrees."""
    from cardtable.store.lab_models import LabSeriesRow

    config = StudyConfig("zeta", ("random",), games=4, seed=1)
    info = lab.create("r", config)
    lab.save(info.id, play_batch(Batch(config, tuple(plan(config)[:2]))), finish=False)
    other = Codebook(CODEBOOK.verbs, ("not", "the", "same", *CODEBOOK.items))
    with lab.store.engine.begin() as conn:
        conn.execute(sa.update(LabSeriesRow).where(LabSeriesRow.id == info.id).values(fact_codebook=other.to_json()))
    with pytest.raises(ValueError, match="named differently"):
        run_study(lab, "r")
    longer = Codebook(CODEBOOK.verbs, CODEBOOK.items[:10])  # this version extends it: fine, and adopted
    with lab.store.engine.begin() as conn:
        conn.execute(sa.update(LabSeriesRow).where(LabSeriesRow.id == info.id).values(fact_codebook=longer.to_json()))
    assert run_study(lab, "r").stored == 4
    assert lab.get("r").codebook == CODEBOOK


def test_a_store_with_json_facts_upgrades_and_resumes_its_run_packed(tmp_path: Path) -> None:
    """A run stored as JSON facts (0003) still reads after the upgrade; resumed, its new games are packed."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = _migrated(url, "0003_lab_facts_per_game")
    config = StudyConfig("oscilloscope", ("random",), games=4, seed=3, setup={"players": 3})
    played = play_batch(Batch(config, tuple(plan(config))))
    with engine.begin() as conn:  # what the lab wrote then: facts as JSON text on the game's row
        conn.execute(sa.text("INSERT INTO lab_series (id, name, game, config, planned, created_at) "
                             "VALUES (1, 'old', 'oscilloscope', :c, 4, '2026-12-02 00:00:00')"),
                     {"c": json.dumps(config.to_json())})
        for g in played[:2]:
            conn.execute(sa.text("INSERT INTO lab_series_games (series_id, game_index, group_no, rotation, seed, specs,"
                                 " first_player, winners, reason, rule, scores, length, turns, truncated, seconds,"
                                 " context, facts) VALUES (1, :i, :g, :r, :s, :sp, :f, :w, :re, :ru, NULL, :l, :t, 0,"
                                 " 0.1, :c, :facts)"),
                         {"i": g.index, "g": g.group, "r": g.rotation, "s": g.seed, "sp": json.dumps(list(g.specs)),
                          "f": g.facts.first_player, "w": json.dumps(list(g.winners)), "re": g.reason, "ru": g.rule,
                          "l": g.length, "t": g.facts.turns, "c": g.facts.encoded_context(),
                          "facts": json.dumps([f.to_json() for f in g.facts.facts])})
    engine.dispose()
    lab = LabStore.open(url)  # opening migrates to the newest revision
    try:
        assert lab.get("old").codebook is None
        assert [g.facts for g in lab.load("old").games] == [g.facts for g in played[:2]]
        run_study(lab, "old")
        loaded = lab.load("old")
        assert loaded.info.codebook == CODEBOOK and loaded.complete
        assert [g.facts for g in loaded.games] == [g.facts for g in played]
        with lab.store.engine.connect() as conn:
            codes = [r[0] for r in conn.execute(sa.text("SELECT fact_codes FROM lab_series_games ORDER BY game_index"))]
        assert codes[:2] == [None, None] and all(codes[2:])
    finally:
        lab.close()


def test_the_downgrade_unpacks_every_fact_into_json(tmp_path: Path) -> None:
    """Going back to 0003 writes the packed facts out as the JSON text that version reads."""
    from alembic import command
    from alembic.config import Config

    url = f"sqlite:///{tmp_path / 'down.db'}"
    lab = LabStore.open(url)
    config = StudyConfig("zeta", ("random",), games=2, seed=8)
    run_study(lab, "z", config)
    want = [sorted(g.facts.facts) for g in lab.load("z").games]
    lab.close()
    engine = sa.create_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", "cardtable.store:migrations")
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0003_lab_facts_per_game")
    from cardtable.lab.facts import decode_facts

    with engine.connect() as conn:
        texts = [r[0] for r in conn.execute(sa.text("SELECT facts FROM lab_series_games ORDER BY game_index"))]
        columns = {c["name"] for c in sa.inspect(conn).get_columns("lab_series_games")}
    engine.dispose()
    assert "fact_codes" not in columns
    assert [sorted(decode_facts(t)) for t in texts] == want


def test_the_built_in_fact_readers_name_only_codebook_items() -> None:
    """Every item a built-in game's fact reader names from its engine's codes (cards, special plays) is
    in this version's codebook, so those facts pack (a players' own option card is the only JSON one)."""
    from cardtable.lab import facts
    from cardtable.lab.gamefacts import oscilloscope, utahime, zeta

    tables = [zeta._CARD_ITEMS, oscilloscope._OSC_ITEMS, utahime._UTA_ITEMS]
    assert all(0 <= i < len(CODEBOOK.items) for table in tables for i in table)
    assert {str(p) for p in utahime.UtahimePlay} <= set(CODEBOOK.items)
    assert facts.CODEBOOK.items == facts.CODEBOOK_ITEMS
