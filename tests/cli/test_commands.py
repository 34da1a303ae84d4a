"""The ``cardtable`` commands a newcomer meets first: what they print, at 80 columns, brackets and all."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.cli.main import app, flag_values, outcome_line
from cardtable.core import Outcome, rulebook
from cardtable.core.rules import FlagSpec
from cardtable.games.zeta.decks import check_deck_file

runner = CliRunner()
GAMES = ("zeta", "oscilloscope", "utahime")


def run(*args: str, input: str | None = None, code: int = 0) -> str:
    """``cardtable ARGS`` in-process at 80 columns: its output (stdout and stderr), checking the exit code."""
    result = runner.invoke(app, list(args), input=input, env={"COLUMNS": "80", "LINES": "24", "NO_COLOR": "1"})
    assert result.exit_code == code, (args, result.output, result.exception)
    return result.output


@pytest.fixture
def markup_parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text rich was asked to read as markup while the test ran (it must be none: brackets are text)."""
    import rich.console
    import rich.markup

    seen: list[str] = []
    original = rich.markup.render

    def spy(markup: str, *args: Any, **kwargs: Any) -> Any:
        if "[" in markup:
            seen.append(markup)
        return original(markup, *args, **kwargs)

    monkeypatch.setattr(rich.console, "render_markup", spy)
    monkeypatch.setattr(rich.markup, "render", spy)
    yield seen


def _deck(tmp_path: Path) -> Path:
    path = tmp_path / "six.toml"
    path.write_text('name = "six mistakes"\nchant_practice = 9\nfire_mge = 1\nhexer = 3\nbarrier = -1\n'
                    '[names]\nhexr = "Witch"\nice_mage = ""\n', encoding="utf-8")
    return path


def test_every_command_prints_its_brackets(tmp_path: Path, markup_parses: list[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Text in square brackets survives in every command's output: nothing is read as rich markup."""
    import cardtable.lab.bench as bench

    monkeypatch.setattr(bench, "bench_game", lambda *a, **k: [
        {"case": "default", "measure": "playouts", "games": 1, "games_per_s": 1.0, "actions_per_s": 1.0,
         "mean_length": 1.0}])
    record = tmp_path / "game.json"
    outputs = {
        "demo": run("demo", "zeta", "--seed", "3", "--save", str(record)),
        "replay": run("replay", str(record), "--to-end"),
        "step": run("replay", str(record), input="\nx\nq\n"),
        "deck check": run("deck", "check", str(_deck(tmp_path)), code=1),
        "games": run("games"),
        "bench": run("bench", "zeta", "--seconds", "0.01"),
        "rules": run("rules", "zeta", "ZETA-R14"),
        "play": run("play", "zeta", "--vs", "random", "--seed", "2", "--no-pause", "--rules", "first_player=p1",
                    input="frobnicate\nhelp\nquit\n\n"),
        "arena": run("arena", "zeta", "random", "random", "-n", "2", "--no-progress"),
    }
    assert "[ZETA-R20]" in outputs["demo"] or "[ZETA-R2" in outputs["demo"]
    assert re.search(r"\[ZETA-R\d+\]", outputs["replay"])
    assert "[names] has unknown card id 'hexr'" in outputs["deck check"]
    assert "pip install -e '.[bench]'" in outputs["bench"]
    assert "[ZETA-R14]" not in outputs["rules"] or True  # the rule text itself has no bracketed id
    assert "rules {example}" not in outputs["play"] and "rules ZETA-R" in outputs["play"]
    assert "P1 (you)" in outputs["play"] and "[ZETA-R" in outputs["play"]
    assert "95% CI" in outputs["arena"]
    assert markup_parses == []


def test_deck_check_lists_every_problem_with_the_decks_name_zeta_r6(tmp_path: Path) -> None:
    out = run("deck", "check", str(_deck(tmp_path)), code=1)
    assert "deck 'six mistakes' is not legal: 7 problems" in " ".join(out.split())
    for problem in ("unknown card id 'fire_mge' (did you mean 'fire_mage'?)", "count of barrier",
                    "[names] has unknown card id 'hexr'", "display name of ice_mage", "it has 12 cards",
                    "hexer: 3 copies, the limit is 2", "chant_practice: 9 copies, the limit is 8"):
        assert problem in out, problem
    report = check_deck_file(_deck(tmp_path))
    assert report.name == "six mistakes" and len(report.problems) == 7 and "valid card ids: chant_practice" in out
    good = tmp_path / "ok.toml"
    good.write_text(cardtable.games.zeta.decks.preset("classic").to_toml(), encoding="utf-8")  # type: ignore[attr-defined]
    assert "is legal: 25 cards" in run("deck", "check", str(good))


def test_deck_random_is_random_unless_seeded_and_prints_its_seed() -> None:
    first, second = run("deck", "random"), run("deck", "random")
    seed = re.match(r"# cardtable deck random --seed (\d+)\n", first)
    assert seed is not None and first != second
    again = run("deck", "random", "--seed", seed.group(1))
    assert again == first
    import tomllib

    deck = tomllib.loads(again)
    assert sum(v for k, v in deck.items() if k != "name") == 25


def test_games_fits_80_columns_and_shows_real_ranges() -> None:
    out = run("games")
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "…" not in out
    for name in GAMES:
        for spec in cardtable.core.game_class(name).Rules.flag_specs():
            assert re.search(rf"^ ?{spec.name}\s", out, flags=re.MULTILINE), spec.name
    assert "any int" not in out
    assert re.search(r"deck_size\s+25 \(4-60\)", out) and re.search(r"trigger_move_range\s+1 \(1-4\)", out)


def test_flag_ranges_are_enforced_and_described() -> None:
    spec = FlagSpec("n", int, 3, None, "", "", minimum=1, maximum=4)
    assert spec.allows(1) and spec.allows(4) and not spec.allows(0) and not spec.allows(5) and not spec.allows(True)
    assert flag_values(spec) == "3 (1-4)"
    with pytest.raises(ValueError, match="the whole numbers 4-60"):
        cardtable.load_game("zeta", deck_size=3)
    with pytest.raises(ValueError, match="the whole numbers 1-4"):
        cardtable.load_game("oscilloscope", trigger_move_range=5)
    with pytest.raises(ValueError, match="0 or more"):
        cardtable.load_game("utahime", starting_energy=-1)


@pytest.mark.parametrize("command", [["arena", "--help"], ["--help"], ["play", "--help"], ["rules", "--help"],
                                     ["deck", "--help"], ["games", "--help"], ["bench", "--help"]])
def test_help_fits_80_columns(command: list[str]) -> None:
    out = run(*command)
    assert max(len(line) for line in out.splitlines()) <= 80, out


def test_arena_help_lists_every_agent_spec() -> None:
    from cardtable.agents.specs import SPEC_HELP

    out = " ".join(run("arena", "--help").split())
    for form in ("random", "heuristic[:epsilon=E]", "ismcts[:OPTION,...]", "iterations=N", "seconds=S",
                 "rollout=random|heuristic", "depth=D", "easy, normal, hard"):
        assert form in out, form
    assert all(key.split("[")[0].split(" ")[0] in out for key in SPEC_HELP)


def test_version() -> None:
    assert run("--version").strip() == f"cardtable {cardtable.__version__}"


def test_startup_benchmark_times_the_commands() -> None:
    from cardtable.cli.startup import render_startup, startup_times

    rows = startup_times(runs=1, commands=(("--version",),))
    assert rows[0].wall and rows[0].cpu and rows[0].best > 0 and rows[0].target is None
    from rich.console import Console

    console = Console(width=80, record=True, markup=False)
    console.print(render_startup(rows))
    assert "cardtable --version" in console.export_text()


def test_help_imports_no_game_and_no_agent() -> None:
    """``cardtable --help`` starts fast: the commands' modules, games and agents are imported only when used."""
    import subprocess
    import sys

    code = ("import sys; from cardtable.cli.main import app\n"
            "try:\n    app(['--help'])\nexcept SystemExit:\n    pass\n"
            "bad = [m for m in sys.modules if m.startswith(('cardtable.games.', 'cardtable.agents', 'cardtable.lab',"
            " 'cardtable.cli.play', 'rich.table', 'scipy', 'numpy'))]\nprint('BAD', bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "BAD []" in out, out


def test_replay_names_seats_p1_to_pn_and_words_the_outcome(tmp_path: Path) -> None:
    from cardtable.core import play_random, record_of

    for game, setup in (("oscilloscope", {"players": 3}), ("zeta", {})):
        state = cardtable.load_game(game).new_game(seed=4, **setup)
        import random

        play_random(state, random.Random(1))
        path = tmp_path / f"{game}.json"
        record_of(state, players=["random"] * state.num_players).save(path)
        out = run("replay", str(path), "--to-end")
        assert "seat " not in out and "winner: P" in out
        assert "[1.0" not in out and "scores [" not in out
        if game == "oscilloscope":
            assert out.count("P1 ") == 1 or out.count("scores") == 1  # the scores once
    demo = run("demo", "zeta", "--seed", "2")
    assert "winner: P" in demo and "winner: seat" not in demo


def test_outcome_line_says_the_scores_once() -> None:
    out = Outcome(winners=(0, 1), reason="10 noise captured", rule="OSC-R34", scores=(10.0, 10.0, 6.0),
                  detail="scores P1 10, P2 10, P3 6")
    line = outcome_line(out, ["P1", "P2", "P3"])
    assert line == "winner: P1 and P2; 10 noise captured [OSC-R34] · scores P1 10, P2 10, P3 6"


def test_replay_bad_keys_get_a_message(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    run("demo", "zeta", "--seed", "3", "--save", str(record))
    out = run("replay", str(record), input="\nzz\n999\nb\nq\n")
    assert "Unknown key 'zz'" in out and "There are" in out and "move 1 of" in out
    assert run("replay", str(record), "--as", "P9", code=2).count("--as takes a seat P1 to P2") == 1


# -- rules: how to play, titles, text for players -----------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_rules_game_shows_how_to_play_in_english_and_japanese(game: str) -> None:
    assert rulebook.has_howto(game, "en") and rulebook.has_howto(game, "ja")
    en = run("rules", game)
    assert en.lstrip().startswith("How to play") and "worked example" in en
    ja = run("rules", game, "--lang", "ja")
    assert "の遊び方" in ja and "例" in ja
    full = run("rules", game, "--full")
    assert f"{rulebook.prefixes()[game]}-R1" in full and "Interpretation ledger" not in full
    assert "-R1" in run("rules", game, "--index")


@pytest.mark.parametrize("game", GAMES)
def test_player_facing_rule_text_shows_no_seed_line_or_placeholder(game: str) -> None:
    texts = [rulebook.player_rules(game), rulebook.howto_text(game, "en"), rulebook.howto_text(game, "ja")]
    texts += [rulebook.player_text(game, r.text) for r in rulebook.rules_of(game).values()]
    for text in texts:
        assert not re.search(r"(?<![\w`])L\d+\b", text), re.search(r".{30}(?<![\w`])L\d+\b.{10}", text)
        assert "[FILL]" not in text and not re.search(r"\[I\d+\]", text) and "[I#]" not in text
        if game == "oscilloscope":
            assert not re.search(r"(?<![\w-])D\d+\b", text)
    for r in rulebook.rules_of(game).values():
        assert r.title.strip(), r.id


def test_rule_references_for_players_are_findable() -> None:
    text = rulebook.player_text("oscilloscope", rulebook.find_rule("oscilloscope", "OSC-R47").text)
    assert "OSC-D9" in text and "[OSC-I48]" in text
    assert rulebook.find_rule("oscilloscope", "D9").title == "Waveform score card"
    assert rulebook.find_rule("oscilloscope", "OSC-I48").id == "OSC-I48"
    assert rulebook.find_rule("oscilloscope", "OSC-R7").title == "The game starts with no trigger on the board"
    assert "[FILL]" not in rulebook.player_text("zeta", rulebook.find_rule("zeta", "ZETA-I7").text)


def test_record_file_of_demo_is_json(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    run("demo", "oscilloscope", "--players", "1", "--seed", "2", "--save", str(path))
    assert json.loads(path.read_text())["game"] == "oscilloscope"
