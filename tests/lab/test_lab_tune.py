"""``lab tune``: Optuna over card-set numbers on paired seeds, pruned by successive halving, resumable from
SQLite; the best sets checked on held-out seeds and written with a chart and reports in two languages."""

from __future__ import annotations

import json
from pathlib import Path

import optuna
import pytest
from typer.testing import CliRunner

from cardtable.cli.main import app
from cardtable.lab.tune import (
    Dimension,
    TuneSettings,
    best_sets,
    change_words,
    parse_target,
    parse_vary,
    run_search,
    verify,
    write_outputs,
)

runner = CliRunner()


def test_dimensions_and_targets_are_read_and_checked() -> None:
    assert parse_vary("zeta", "hand.second=3..5") == Dimension("hand.second", 3, 5)
    assert parse_vary("zeta", "ice_mage.cost=2,4") == Dimension("ice_mage.cost", choices=(2, 4))
    assert parse_vary("utahime", "energy.start=0..2") == Dimension("starting_energy", 0, 2)
    assert parse_vary("zeta", "second_player_extra_card=false,true").choices == (False, True)
    with pytest.raises(ValueError, match=r"attack\.low_gain \(Energy from attacks, UTA-R41\) is fixed"):
        parse_vary("utahime", "attack.low_gain=1..3")
    with pytest.raises(ValueError, match="ZETA-R14"):
        parse_vary("zeta", "ice_mage.cost=0..40")
    with pytest.raises(ValueError, match="seat=SHARE"):
        parse_target("balance=0.5")


def test_a_search_resumes_from_its_store_and_its_best_sets_are_checked_on_held_out_seeds(tmp_path: Path) -> None:
    settings = TuneSettings("zeta", (Dimension("hand.second", 3, 6),), step_games=8, steps=2, seed=1)
    store = f"sqlite:///{tmp_path / 'tune.db'}"
    study = run_search(settings, storage=store, name="t", trials=3)
    assert len(study.trials) == 3 and study.trials[0].params == {"hand.second": 3}  # the original first
    again = run_search(settings, storage=store, name="t", trials=5)
    assert len(again.trials) == 5 and again.trials[0].params == {"hand.second": 3}
    assert all(t.state in (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED) for t in again.trials)
    found = best_sets(settings, again, 2)
    assert found and len({cs.hash for cs, _ in found}) == len(found)
    sets = [cs for cs, _ in found]
    base, rows = verify(settings, sets, games=8)
    assert base["games"] == rows[0]["games"] == 8
    written = write_outputs(tmp_path / "out", settings, again, sets, base, rows, 1.0)
    names = {p.name for p in written}
    assert {"search.png", "report.en.md", "report.ja.md", "tune.json"} <= names
    assert f"{sets[0].name}.toml" in names
    assert "先手" in (tmp_path / "out" / "report.ja.md").read_text(encoding="utf-8")
    data = json.loads((tmp_path / "out" / "tune.json").read_text(encoding="utf-8"))
    assert data["search"]["trials"] == 5 and data["sets"][0]["hash"] == sets[0].hash


def test_numbers_that_are_rule_flags_are_searched_as_numbers_of_the_set() -> None:
    """UTA-R40: energy.second_player_bonus is the flag second_player_extra_energy; a trial sets the number."""
    from cardtable.core import cardset
    from cardtable.lab.tune import candidate

    settings = TuneSettings("utahime", (parse_vary("utahime", "energy.second_player_bonus=0..4"),),
                            base=cardset.default_set("utahime").replace({"energy.start": 1}))
    cs = candidate(settings, {"second_player_extra_energy": 3})
    assert cs.values["energy.second_player_bonus"] == 3 and cs.values["energy.start"] == 1 and cs.flags == {}
    assert cs.rule_flags() == {"starting_energy": 1, "second_player_extra_energy": 3}


def test_the_report_says_which_numbers_changed_in_both_languages() -> None:
    from cardtable.core import cardset

    base = cardset.default_set("zeta")
    moved = base.replace({"ice_mage.cost": 6, "fire_mage.cost": 5})
    assert change_words(base, moved, "en") == "cost of Fire Mage 3 -> 5 and cost of Ice Mage 3 -> 6"
    assert change_words(base, moved, "ja") == "炎術師のコスト 3 → 5、氷術師のコスト 3 → 6"


def test_the_command_writes_the_sets_and_refuses_bad_input(tmp_path: Path) -> None:
    done = runner.invoke(app, ["lab", "tune", "zeta", "--vary", "hand.second=3..5", "--trials", "2", "--step-games",
                               "6", "--steps", "1", "--verify-games", "6", "--best", "1", "--store",
                               str(tmp_path / "t.db"), "--out", str(tmp_path / "out")])
    assert done.exit_code == 0, done.output
    assert "first player" in done.output and (tmp_path / "out" / "report.ja.md").is_file()
    bad = runner.invoke(app, ["lab", "tune", "zeta", "--vary", "ice_mage.cost=9..99"])
    assert bad.exit_code == 2 and "ZETA-R14" in bad.output
