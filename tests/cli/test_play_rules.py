"""The shipped rulebooks: every numbered rule is found by id, and ``cardtable rules`` prints them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import system_needs
from cardtable.cli.play_cmd import register
from cardtable.core import rulebook

SHARED = Path(__file__).resolve().parents[3] / "shared" / "rules"  # ../shared beside the checkout
GAMES = ("zeta", "oscilloscope", "utahime")
app = typer.Typer()
register(app)
runner = CliRunner()


@pytest.mark.parametrize("game", GAMES)
def test_every_heading_is_a_rule(game: str) -> None:
    text = rulebook.rulebook_text(game)
    prefix = rulebook.prefixes()[game]
    ids = re.findall(rf"^\s*(?:[*-]\s+)?\*\*({prefix}-[A-Z]+\d+[a-z]?)\b", text, flags=re.MULTILINE)
    rules = rulebook.rules_of(game)
    assert ids and set(ids) == set(rules)
    for rule_id, rule in rules.items():
        assert re.match(rf"^(?:[*-] )?\*\*{rule_id}\b", rule.text)
        assert rulebook.find_rule(game, rule_id) is rule
    assert any(r.startswith(f"{prefix}-R") for r in rules) and any(r.startswith(f"{prefix}-I") for r in rules)


@pytest.mark.parametrize("game", GAMES)
def test_shipped_rulebooks_are_the_shared_ones(game: str) -> None:
    system_needs.need(None if SHARED.exists() else "the designers' shared rulebooks are not beside this checkout (../shared/rules)")
    assert rulebook.rulebook_text(game) == (SHARED / f"{game}.md").read_text(encoding="utf-8")


def test_rule_text_runs_to_the_next_rule() -> None:
    r12 = rulebook.find_rule("zeta", "ZETA-R12")
    assert r12.title == "Sequence of a turn"
    assert "Deck-out check" in r12.text and "ZETA-R13" not in r12.text.splitlines()[0]
    assert "**ZETA-R13" not in r12.text
    osc = rulebook.find_rule("oscilloscope", "osc-r13")
    assert osc.id == "OSC-R13" and osc.title == "obligation" and "In step 5 placing is optional" in osc.text
    assert "OSC-R14" not in osc.text
    uta = rulebook.find_rule("utahime", "I4")
    assert uta.id == "UTA-I4" and uta.title.startswith("Option card budget")
    with pytest.raises(KeyError, match="did you mean"):
        rulebook.find_rule("zeta", "ZETA-R610")
    assert rulebook.game_of_rule("UTA-R7") == "utahime" and rulebook.game_of_rule("X-1") is None
    assert "Interpretation ledger" not in rulebook.rules_section("zeta")


def test_rules_command_prints_a_rule_and_the_rules() -> None:
    result = runner.invoke(app, ["rules", "zeta", "ZETA-R12"])
    assert result.exit_code == 0 and "Sequence of a turn" in result.output and "Deck-out check" in result.output
    result = runner.invoke(app, ["rules", "OSC-R3"])
    assert result.exit_code == 0 and "building trains" in result.output
    result = runner.invoke(app, ["rules", "utahime", "r7", "--raw"])
    assert result.exit_code == 0 and result.output.startswith("**UTA-R7 (Printed numbers).**")
    result = runner.invoke(app, ["rules", "oscilloscope"])
    assert result.exit_code == 0 and "How to play Oscilloscope" in result.output
    result = runner.invoke(app, ["rules", "oscilloscope", "--full"])
    assert result.exit_code == 0 and "OSC-R1" in result.output and "OSC-I1 " not in result.output
    result = runner.invoke(app, ["rules", "zeta", "--all"])
    assert result.exit_code == 0 and "ZETA-I59" in result.output


def test_rules_command_errors() -> None:
    result = runner.invoke(app, ["rules", "chess"])
    assert result.exit_code == 2 and "no rulebook for 'chess'" in result.output
    result = runner.invoke(app, ["rules", "zeta", "ZETA-R99"])
    assert result.exit_code == 2 and "has no rule" in result.output


def test_play_command_errors() -> None:
    for args, message in ((["play", "zeta", "--players", "3"], "played by 2 players"),
                          (["play", "oscilloscope", "--players", "9"], "1 to 4 players"),
                          (["play", "zeta", "--vs", "grandmaster"], "invalid agent spec"),
                          (["play", "zeta", "--vs", "random", "--vs", "random"], "only 1 other seat"),
                          (["play", "zeta", "--seat", "3", "--vs", "random"], "--seat must be 1 to 2"),
                          (["play", "utahime", "--deck", "classic"], "--deck: utahime has no deck files"),
                          (["play", "zeta", "--rules", "gravity=maybe"], "gravity"),
                          (["play", "nogame"], "unknown game")):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)
    register(app)  # a second registration adds nothing
    assert [c.name for c in app.registered_commands].count("play") == 1


def test_play_command_with_setup_options_and_quit() -> None:
    result = runner.invoke(app, ["play", "utahime", "--setup", "option_set=designer_example", "--vs", "random",
                                 "--seed", "1", "--no-pause"], input="quit\n\n")
    assert result.exit_code == 0, result.output
    assert "quick_study" in result.output and "Game left before the end." in result.output
    result = runner.invoke(app, ["play", "utahime", "--setup", "bogus"])
    assert result.exit_code == 2 and "key=value" in result.output
