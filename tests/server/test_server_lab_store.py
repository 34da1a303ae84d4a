"""The lab's runs in the project's store on both databases: games and facts come back as they were played."""

from __future__ import annotations

from cardtable.lab.execute import run_study
from cardtable.lab.storage import LabStore
from cardtable.lab.study import Batch, StudyConfig, plan, play_batch


def test_a_lab_run_comes_back_whole_from_either_database(db_url: str) -> None:
    """Rows written through the driver (JSON columns as text) read back as the games that were played."""
    config = StudyConfig("utahime", ("random", "heuristic"), games=4, seed=21, setup={"option_set": "designer_example"})
    played = play_batch(Batch(config, tuple(plan(config))))
    lab = LabStore.open(db_url)
    try:
        run_study(lab, "both", config, batch=2)
        loaded = lab.load("both")
        assert loaded.complete
        assert [(g.index, g.seed, g.specs, g.winners, g.reason, g.scores, g.length, g.facts) for g in loaded.games] == \
            [(g.index, g.seed, g.specs, g.winners, g.reason, g.scores, g.length, g.facts) for g in played]
        assert loaded.games[0].facts.context[0]["option_set"] == "designer_example"
    finally:
        lab.close()
