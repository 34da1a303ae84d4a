"""What a designer reads: strengths only where a run identifies them, sample sizes, draws and shared wins.

The three misleading reports of old, each as a run: a Utahime run with the example set's fixed
loadouts (its option cards went with the seat and the loadout), a Zeta run of fixed decks (classic
against classic), and four-player Oscilloscope (tied top scores share the win, OSC-I50). Each report
now refuses the claim it cannot make and states the right one.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable.games.utahime.loadouts import random_loadout, random_setup
from cardtable.games.utahime.options import option_set_from_text, shipped_set_text
from cardtable.lab.analysis import MIN_SEAT_GAMES, Refusal, analyse
from cardtable.lab.designer import Section, sections, terminal_lines
from cardtable.lab.execute import run_study
from cardtable.lab.report import build_report, html_page
from cardtable.lab.storage import LabStore, LoadedRun
from cardtable.lab.study import Batch, StudyConfig, plan, play_batch


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, LoadedRun]:
    """Small stored runs of random players: the confounded ones and the ones that identify strengths."""
    store = LabStore.open(f"sqlite:///{tmp_path_factory.mktemp('designer') / 'lab.db'}")
    configs = {
        "uta-fixed": StudyConfig("utahime", ("random",), games=40, seed=3, setup={"option_set": "designer_example"}),
        "uta-random": StudyConfig("utahime", ("random",), games=80, seed=3,
                                  setup={"option_set": "designer_example", "loadouts": "random"}),
        "zeta-fixed": StudyConfig("zeta", ("random",), games=40, seed=3, setup={"decks": ["classic", "classic"]}),
        "zeta-random": StudyConfig("zeta", ("random",), games=60, seed=3, setup={"decks": ["random", "random"]}),
        "osc-4p": StudyConfig("oscilloscope", ("random",), games=24, seed=3, setup={"players": 4}),
        "osc-solo": StudyConfig("oscilloscope", ("random",), games=30, seed=3, setup={"players": 1}),
    }
    out = {}
    for name, config in configs.items():
        run_study(store, name, config, batch=20)
        out[name] = store.load(name)
    store.close()
    return out


@pytest.fixture(scope="module")
def numbers(runs: dict[str, LoadedRun]) -> dict[str, dict[str, Any]]:
    """Each run's report numbers (analysed once)."""
    return {name: analyse(run) for name, run in runs.items()}


def _section(numbers: dict[str, Any], key: str, lang: str = "en") -> Section:
    return next(s for s in sections(numbers, lang) if s.key == key)


# -- UTA-R2: random loadouts -----------------------------------------------------------------------
def test_random_loadouts_are_legal_seeded_and_varied() -> None:
    """UTA-R2: within the budget, at most two copies of a name; the same seed draws the same loadout."""
    cards = option_set_from_text(shipped_set_text("designer_example"))
    drawn = [random_loadout(cards, random.Random(seed), budget=28, max_copies=2) for seed in range(200)]
    assert all(sum(cards.options[n].cost for n in d) <= 28 for d in drawn)
    assert all(d.count(n) <= 2 for d in drawn for n in d)
    assert drawn[5] == random_loadout(cards, random.Random(5), budget=28, max_copies=2)
    assert len({tuple(d) for d in drawn}) > 150, "loadouts vary"
    for name in cards.options:  # every card is held by some loadouts and not by others
        assert 20 < sum(name in d for d in drawn) < 180
    setup = random_setup({"option_set": "designer_example", "p2_options": "random"}, random.Random(1))
    assert "p1_options" not in setup and isinstance(setup["p2_options"], list)
    with pytest.raises(ValueError, match="need an option set"):
        random_setup({"loadouts": "random"}, random.Random(1))


def test_a_seat_swapped_pair_plays_the_same_random_loadouts() -> None:
    """The loadouts come from the game's seed: both games of a seat-swapped pair deal the same ones."""
    config = StudyConfig("utahime", ("heuristic", "random"), games=2, seed=9,
                         setup={"option_set": "designer_example", "loadouts": "random"})
    a, b = play_batch(Batch(config, tuple(plan(config))))
    assert a.facts.context == b.facts.context and a.facts.context[0]["options"]


# -- the confounded run the report refuses ---------------------------------------------------------
def test_fixed_option_loadouts_get_no_per_option_strength(runs: dict[str, LoadedRun],
                                                          numbers: dict[str, dict[str, Any]]) -> None:
    """The example set's loadouts go with the seats: no option card's strength is claimed, and the report says
    why and which run would tell (the old report drew one bar, "option bulwark -42 points")."""
    report = build_report(runs["uta-fixed"], numbers=numbers["uta-fixed"])
    loadout = next(s for s in report.sections if s.key == "loadout")
    assert loadout.refused.startswith("No per-item strength: the seats played only 2 different decks or loadouts")
    assert "loadouts=random" in loadout.refused
    assert all(r.value is None for r in loadout.rows) and "loadout" not in report.charts
    assert "strongest" not in report.answer and loadout.refused in report.answer
    rows = numbers["uta-fixed"]["strength"]["loadout"]["rows"]
    assert {r["refused"] for r in rows} <= {Refusal.FIXED_LOADOUTS, Refusal.NO_VARIATION}
    page = html_page(report)
    assert loadout.refused.replace("'", "&#39;") in page
    assert "option bulwark" not in page


def test_random_loadouts_give_each_option_its_strength_and_sample_size(numbers: dict[str, dict[str, Any]]) -> None:
    """With random loadouts every option card gets a controlled effect, the seat-games with and without it, and
    a grey mark where they are too few."""
    loadout = _section(numbers["uta-random"], "loadout")
    assert not loadout.refused
    rows = loadout.rows
    assert len(rows) == 10 and all(r.value is not None for r in rows)
    assert all(r.with_games + r.without_games == 160 for r in rows)
    assert all(bool(r.greyed) == (min(r.with_games, r.without_games) < MIN_SEAT_GAMES) for r in rows)
    assert any(r.name == "Strip (8)" for r in rows), "the name and the cost come from the option set"


def test_fixed_zeta_decks_get_no_card_strength(runs: dict[str, LoadedRun], numbers: dict[str, dict[str, Any]]) -> None:
    """Classic against classic: no card's strength (the old chart made Chant Practice the worst card from
    seat-games in which it was never drawn); random decks give every card its row with its sample size."""
    report = build_report(runs["zeta-fixed"], numbers=numbers["zeta-fixed"])
    cards = next(s for s in report.sections if s.key == "cards")
    assert cards.refused and "--deck random" in cards.refused and "cards" not in report.charts
    assert all(r.value is None for r in cards.rows)
    lines = terminal_lines(report.numbers)
    assert any(line.startswith("Cards: No per-item strength") for line in lines)
    random_cards = _section(numbers["zeta-random"], "cards")
    assert not random_cards.refused
    shown = random_cards.rows
    assert shown and all(r.with_games + r.without_games > 0 for r in shown)
    assert any(r.greyed.startswith("too few games") for r in shown), "60 games are too few for some cards"


# -- draws, shared wins, more than two players -------------------------------------------------------
def test_four_player_shared_wins_split_the_point(runs: dict[str, LoadedRun], numbers: dict[str, dict[str, Any]]) -> None:
    """OSC-I50: tied top scores share the win. The positions' shares of the points add up to 100% (the old seat
    rates added up to more), the answer names the position farthest from 25%, and says how often wins are shared."""
    run = runs["osc-4p"]
    pts = numbers["osc-4p"]["points"]
    assert pts["fair"] == 0.25 and sum(r["value"] for r in pts["by_position"]) == pytest.approx(1.0)
    shared = sum(1 for g in run.games if len(g.winners) > 1)
    assert shared and pts["shared_wins"] == shared
    assert sum(r["value"] for r in numbers["osc-4p"]["seats"]["by_position"]) > 1.0, "raw rates count shared wins twice"
    edge = max(pts["by_position"], key=lambda r: abs(r["value"] - 0.25))
    report = build_report(run, numbers=numbers["osc-4p"])
    assert f"the {edge['label']} player" in report.answer.lower()
    assert "end in a shared win (each winner takes an equal part of the point)" in report.answer
    first = pts["by_position"][0]
    assert first["sole_win"] + first["shared_win"] + first["draw"] + first["loss"] == pytest.approx(1.0)


def test_draws_count_half_and_the_verdict_names_the_seat_with_the_edge(runs: dict[str, LoadedRun],
                                                                      numbers: dict[str, dict[str, Any]]) -> None:
    """A two-player draw (UTA-R58) gives each player half the point, so the shares are fair against 50%
    whatever the draw rate; the verdict names whichever position is farther from it."""
    for name in ("uta-fixed", "zeta-random"):
        pts = numbers[name]["points"]
        games = runs[name].games
        expected = sum((1.0 if g.facts.first_player in g.winners else 0.0) if g.winners else 0.5 for g in games)
        assert pts["by_position"][0]["value"] == pytest.approx(expected / len(games))
        edge = max(pts["by_position"], key=lambda r: abs(r["value"] - 0.5))
        assert pts["edge_position"] == edge["position"]


def test_the_report_speaks_japanese(runs: dict[str, LoadedRun], numbers: dict[str, dict[str, Any]]) -> None:
    """--lang ja: the answer, the headings, the refusal, the chart labels and the card names in Japanese."""
    report = build_report(runs["zeta-random"], "ja", numbers["zeta-random"])
    assert report.answer.startswith(("先手", "後手", "はっきり有利な席はありません"))
    page = html_page(report)
    assert "用語集" in page and "得点の取り分" in page and '<html lang="ja">' in page
    assert "詠唱練習" in page, "Zeta's card names as its card data gives them"
    fixed = build_report(runs["uta-fixed"], "ja", numbers["uta-fixed"])
    assert "項目ごとの強さは出せません" in fixed.answer


def test_a_solo_run_answers_with_its_score(runs: dict[str, LoadedRun], numbers: dict[str, dict[str, Any]]) -> None:
    """OSC-R60 solo: the answer is the mean score; per-use effects are on the score, not on a chance to win."""
    report = build_report(runs["osc-solo"], numbers=numbers["osc-solo"])
    mean = numbers["osc-solo"]["scores"][0]["mean"]
    assert report.answer.startswith(f"The mean score is {mean:.1f} [")
    kept = next(s for s in report.sections if s.key == "kept")
    assert not kept.percent and "score" in kept.measure
    row = next(r for r in kept.rows if r.value is not None)
    assert kept.effect(row).startswith(f"{row.value:+.2f}")
    assert all(r.with_games > 0 for s in report.sections for r in s.rows), "what never happened is not listed"
