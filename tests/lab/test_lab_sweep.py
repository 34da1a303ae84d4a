"""``lab sweep``: one number at several values on the same paired seeds, with intervals and the closest value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.cli.main import app
from cardtable.core import cardset
from cardtable.lab.sweep import flags_for, parse_param, run_sweep, sweep_plot

runner = CliRunner()


@pytest.mark.parametrize(("text", "key", "values"), [
    ("ice_mage.cost=3,5..7", "ice_mage.cost", [3, 5, 6, 7]),
    ("hand.second=3,4", "hand.second", [3, 4]),
    ("deck.size=24,25", "deck_size", [24, 25]),  # a number that is a rule flag sweeps the flag
    ("second_player_extra_card=false,true", "second_player_extra_card", [False, True]),
])
def test_parameters_are_set_numbers_or_rule_flags(text: str, key: str, values: list[object]) -> None:
    assert parse_param("zeta", text) == (key, values)


@pytest.mark.parametrize(("text", "message"), [
    ("ice_mage.cost", "KEY=v1,v2"),
    ("ice_mage.cost=40", r"ice_mage\.cost \(Ice Mage, ZETA-R14\): 40 is outside 0-36"),
    ("fortune_telling.draw=1,2", r"fortune_telling\.draw \(Fortune-Telling, ZETA-R39\): 1 is outside 2-10"),
    ("ice_mage.power=1", "no number 'ice_mage.power'"),
    ("nonsense=1", "neither a card-set number"),
])
def test_bad_parameters_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_param("zeta", text)


def test_every_value_plays_the_same_seeds_and_the_closest_is_named() -> None:
    """ZETA-R9: the second player's starting hand; the set's own value is the paired baseline (difference 0)."""
    sweep = run_sweep("zeta", "hand.second", [3, 6], games=24, seed=5)
    own, more = sweep.points
    assert own["is_base"] and own["difference"] == {"value": 0.0, "low": 0.0, "high": 0.0}
    assert own["games"] == more["games"] == 24
    assert sweep.best() in sweep.points
    lines = sweep.lines()
    assert lines[-1].startswith("closest to 50%: hand.second=")
    assert sweep_plot(sweep)[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_card_sweep_reports_the_cards_strength() -> None:
    base = cardset.default_set("zeta").replace({"hand.second": 4})
    assert flags_for(base, "ice_mage.cost", 5) == {"cards": "hand.second=4;ice_mage.cost=5"}
    sweep = run_sweep("zeta", "ice_mage.cost", [0, 17], base=base, games=12, seed=2)
    assert [p["value"] for p in sweep.points] == [0, 17]  # the set's value (3) is played as the baseline only
    assert sweep.points[0]["baseline"] == 3
    assert sweep.points[0]["item"]["played"] > sweep.points[1]["item"]["played"]


def test_a_flag_that_is_a_number_starts_from_the_sets_value() -> None:
    from cardtable.lab.sweep import value_of

    base = cardset.default_set("utahime").replace({"energy.second_player_bonus": 2})
    assert value_of(base, "second_player_extra_energy") == 2
    assert flags_for(base, "second_player_extra_energy", 3) == {"second_player_extra_energy": 3}


def test_the_command_prints_a_line_per_value_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "sweep.json"
    done = runner.invoke(app, ["lab", "sweep", "utahime", "energy.second_player_bonus=0,2", "-n", "8", "--json",
                               str(out)])
    assert done.exit_code == 0, done.output
    assert "second_player_extra_energy=2: first player" in done.output
    assert json.loads(out.read_text())["parameter"] == "second_player_extra_energy"
    bad = runner.invoke(app, ["lab", "sweep", "zeta", "ice_mage.cost=-1"])
    assert bad.exit_code == 2 and "ZETA-R14" in bad.output
