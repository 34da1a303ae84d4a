"""Variant comparisons on paired runs, the Zeta deck matrix, and the skill ladder on tiny runs."""

from __future__ import annotations

import pytest

from cardtable.lab.compare import compare_runs, split_variant
from cardtable.lab.decks import deck_matrix, deck_pairs
from cardtable.lab.execute import run_study
from cardtable.lab.ladder import fit_ladder, ladder_pairs
from cardtable.lab.storage import LabStore
from cardtable.lab.study import StudyConfig


def test_compare_pairs_games_and_reads_in_one_line(lab: LabStore) -> None:
    """ZETA-I6: the extra card against the default, game i against game i; identical variants differ by nothing."""
    base = StudyConfig("zeta", ("heuristic",), games=30, seed=4)
    extra = StudyConfig("zeta", ("heuristic",), games=30, seed=4, rules={"second_player_extra_card": True})
    for name, config in (("a", base), ("b", extra), ("a2", base)):
        run_study(lab, name, config)
    result = compare_runs(lab.load("a"), lab.load("b"), ("the default", "second_player_extra_card=true"))
    assert result.pairs == 30 and [p["label"] for p in result.positions] == ["first", "second"]
    second = result.positions[1]
    wins_b = sum(1 for g in lab.load("b").games if (g.facts.first_player + 1) % 2 in g.winners)  # type: ignore[operator]
    assert second["b"]["value"] == pytest.approx(wins_b / 30)
    verdict = result.verdict()
    favoured = max(result.positions, key=lambda p: p["a"]["value"])["label"]  # the seat with the edge, either one
    assert verdict.startswith(f"second_player_extra_card=true moves the {favoured} player from ")
    assert "McNemar p = " in verdict and "[30 paired games]" in verdict
    same = compare_runs(lab.load("a"), lab.load("a2"))
    assert all(p["difference"]["value"] == 0 and p["p"] == 1.0 for p in same.positions)
    assert "no clear change" in same.verdict()


def test_unpaired_runs_are_refused(lab: LabStore) -> None:
    """Runs on other seeds are not paired: comparing them is an error."""
    run_study(lab, "s1", StudyConfig("zeta", ("random",), games=4, seed=1))
    run_study(lab, "s2", StudyConfig("zeta", ("random",), games=4, seed=2))
    with pytest.raises(ValueError, match="not paired"):
        compare_runs(lab.load("s1"), lab.load("s2"))


def test_variant_items_split_into_rules_and_setup() -> None:
    """A key that is a rule flag is a rule (OSC-I46 noise_penalty); anything else is a setup option."""
    assert split_variant("oscilloscope", ["noise_penalty=two_per_noise", "players=4"]) == (
        {"noise_penalty": "two_per_noise"}, {"players": 4})


def test_deck_matrix_shape_and_symmetry(lab: LabStore) -> None:
    """Three decks: a 3x3 matrix, no diagonal, and i's score against j plus j's against i is 1 (same games)."""
    labels = ["classic", "control", "arcana"]
    runs = {}
    for i, j in deck_pairs(labels):
        name = f"{labels[i]}-{labels[j]}"
        run_study(lab, name, StudyConfig("zeta", ("heuristic",), games=6, seed=3,
                                         setup={"decks": [labels[i], labels[j]]}))
        runs[(i, j)] = lab.load(name)
    matrix = deck_matrix(labels, runs).to_json()
    cells = matrix["matrix"]
    assert len(cells) == 3 and all(len(r) == 3 for r in cells)
    assert all(cells[i][i] is None for i in range(3))
    for i, j in deck_pairs(labels):
        assert cells[i][j]["games"] == 12
        assert cells[i][j]["value"] + cells[j][i]["value"] == pytest.approx(1.0)
        assert cells[i][j]["low"] <= cells[i][j]["value"] <= cells[i][j]["high"]
    assert [o["deck"] for o in matrix["overall"]] == labels


def test_ladder_orders_random_below_heuristic(lab: LabStore) -> None:
    """A tiny Zeta ladder: the heuristic rates above random, and the step is significant."""
    rungs = ["random", "heuristic"]
    runs = {}
    for i, j in ladder_pairs(rungs):
        run_study(lab, f"{i}-{j}", StudyConfig("zeta", (rungs[i], rungs[j]), games=20, seed=6))
        runs[(i, j)] = lab.load(f"{i}-{j}")
    ladder = fit_ladder("zeta", rungs, runs).to_json()
    ratings = {r["agent"]: r for r in ladder["ratings"]}
    assert ratings["random"]["elo"] == 0 and ratings["heuristic"]["elo"] > 200
    assert ratings["heuristic"]["low"] > 0
    assert ladder["steps"][0]["significant"] and ladder["skill_depth"] == 2
    assert ladder["pairs"][0]["games"] == 20


def test_the_ladder_is_for_two_players(lab: LabStore) -> None:
    """Elo compares two players: a three-player ladder is refused."""
    run_study(lab, "osc", StudyConfig("oscilloscope", ("random", "heuristic"), games=3, seed=1,
                                      setup={"players": 3}))
    with pytest.raises(ValueError, match="two-player"):
        fit_ladder("oscilloscope", ["random", "heuristic"], {(0, 1): lab.load("osc")})
