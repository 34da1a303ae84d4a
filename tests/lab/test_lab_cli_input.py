"""``cardtable lab`` says what docs/lab.md teaches: lists and files in --setup and --a/--b, short labels,
unique deck names, "did you mean", complete --help, Japanese, and no traceback for any bad input."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from cardtable.cli import lab_cmd
from cardtable.games.utahime.options import shipped_set_text
from cardtable.games.zeta.decks import random_deck
from cardtable.lab.i18n import Lang, missing, source_messages


def cli() -> typer.Typer:
    """A ``cardtable`` app with only the lab registered."""
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """The test app."""

    lab_cmd.register(app)
    return app


def invoke(*args: str) -> str:
    """Run ``cardtable lab ARGS`` and return its output (failing on a non-zero exit)."""
    result = CliRunner().invoke(cli(), ["lab", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def refused(*args: str) -> str:
    """Run ``cardtable lab ARGS``, which must fail with a message and exit 2 (no traceback)."""
    result = CliRunner().invoke(cli(), ["lab", *args])
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output
    return result.output


def test_setup_lists_and_option_files(tmp_path: Path) -> None:
    """UTA-R2 loadouts as lists (`p1_options=quick_study,scout`) and a whole option set as a file
    (`options=@my_set.toml`); the run's label names the file, not its contents."""
    db = f"sqlite:///{tmp_path / 'c.db'}"
    invoke("run", "utahime", "-a", "random", "-n", "2", "--name", "lists", "--db", db, "--no-progress",
           "--setup", "option_set=designer_example", "--setup", "p1_options=quick_study,scout",
           "--setup", "p2_options=dig,")
    listed = invoke("list", "--db", db)
    assert '"p1_options": ["quick_study", "scout"]' in listed and '"p2_options": ["dig"]' in listed
    my_set = tmp_path / "my_set.toml"
    my_set.write_text(shipped_set_text("designer_example").replace('name = "designer_example"', 'name = "mine"'),
                      encoding="utf-8")
    invoke("run", "utahime", "-a", "random", "-n", "2", "--name", "file", "--db", db, "--no-progress",
           "--setup", f"options=@{my_set}", "--setup", "p1_options=scout")
    out = invoke("report", "file", "--db", db)
    assert "option_set=custom" in out and "[[option]]" not in out and "p1_options=scout" in out
    out = invoke("compare", "utahime", "-n", "2", "--agents", "random", "--name", "cmp", "--db", db, "--no-progress",
                 "--a", f"options=@{my_set}", "--b", f"options=@{my_set}", "p1_options=quick_study,scout")
    assert out.startswith("options=my_set.toml p1_options=quick_study,scout moves the") and "[[option]]" not in out


def test_random_loadouts_from_the_command_line(tmp_path: Path) -> None:
    """`--setup loadouts=random`: every game deals random legal loadouts, and the report measures each option."""
    db = f"sqlite:///{tmp_path / 'c.db'}"
    invoke("run", "utahime", "-a", "random", "-n", "16", "--name", "rl", "--db", db, "--no-progress",
           "--setup", "option_set=designer_example", "--setup", "loadouts=random")
    out = invoke("report", "rl", "--db", db, "--lang", "ja")
    assert "言歌姫" in out and "オプションカード" in out
    option_line = next(line for line in out.splitlines() if line.startswith("オプションカード"))
    assert "項目ごとの強さは出せません" not in option_line, "random loadouts identify each option card"


def test_deck_files_of_one_name_are_told_apart(tmp_path: Path) -> None:
    """Two `deck random` files are both named "random": the matrix names them random and random-2, and the
    same command run again finishes (resumes) the same runs."""
    db = f"sqlite:///{tmp_path / 'c.db'}"
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text(random_deck(random.Random(1)).to_toml(), encoding="utf-8")
    b.write_text(random_deck(random.Random(2)).to_toml(), encoding="utf-8")
    args = ("decks", "zeta", str(a), str(b), "-n", "2", "--agents", "random", "--name", "d", "--db", db,
            "--no-progress")
    result = CliRunner().invoke(cli(), ["lab", *args])
    assert result.exit_code == 0, result.output
    assert "random-2" in result.output
    assert "random-2" in invoke(*args)


def test_misspelt_options_get_a_suggestion(tmp_path: Path) -> None:
    """A misspelt flag names the closest one."""
    out = refused("run", "zeta", "--gamez", "3", "--db", f"sqlite:///{tmp_path / 'c.db'}")
    assert "--games" in out and "did you mean" in out.lower()
    out = refused("report", "x", "--htm", "x.html")
    assert "--html" in out


@pytest.mark.parametrize("args", [
    ("run", "nosuchgame", "-n", "2"),
    ("run", "zeta", "-a", "nosuchagent", "-n", "2"),
    ("run", "zeta", "--rules", "nosuchflag=1", "-n", "2"),
    ("run", "zeta", "--rules", "second_player_extra_card=maybe", "-n", "2"),
    ("run", "zeta", "-n", "0"),
    ("run", "zeta", "-n", "x"),
    ("run", "utahime", "--setup", "nosuchkey=1", "-n", "2"),
    ("run", "utahime", "--setup", "p1_options=nosuchcard", "-n", "2"),
    ("run", "utahime", "--setup", "options=@/no/such/file.toml", "-n", "2"),
    ("run", "utahime", "--setup", "loadouts=random", "-n", "2"),
    ("run", "utahime", "--setup", "novalue", "-n", "2"),
    ("run", "zeta", "--deck", "/no/such/deck.toml", "-n", "2"),
    ("report", "nosuchrun"),
    ("report", "nosuchrun", "--lang", "fr"),
    ("compare", "zeta", "-n", "2", "--a", "nosuchflag=1"),
    ("decks", "utahime"),
    ("decks", "zeta", "nosuchpreset"),
    ("ladder", "zeta", "random", "nosuchagent", "-n", "2"),
    ("facts", "nosuchrun", "--csv", "x.csv"),
])
def test_bad_input_is_a_message_and_exit_2(tmp_path: Path, args: tuple[str, ...]) -> None:
    """No traceback for any bad input: a clear message and exit 2."""
    out = refused(*args, "--db", f"sqlite:///{tmp_path / 'c.db'}")
    assert out.strip()


def test_every_command_lists_all_its_options_in_help() -> None:
    """Every lab command's --help names every option it takes (and the words it reads after them)."""
    group: Any = typer.main.get_command(cli())
    lab = group.commands["lab"]
    for name, command in lab.commands.items():
        out = invoke(name, "--help")
        for param in command.params:
            for opt in param.opts:
                if opt.startswith("--"):
                    assert opt in out, (name, opt)
    assert "--a K=V" in invoke("compare", "--help") and "--b K=V" in invoke("compare", "--help")


def test_every_lab_message_has_its_japanese() -> None:
    """Every text the lab writes with t("...") has a Japanese entry in the lab catalog."""
    root = Path(lab_cmd.__file__).parents[1]
    files = [*sorted((root / "lab").rglob("*.py")), root / "cli" / "lab_cmd.py"]
    ids = list(source_messages(files))
    assert len(ids) > 50 and missing(Lang.JA, ids) == []


def test_every_ending_has_its_japanese() -> None:
    """The words for how games end (by rule id) are translated too."""
    from cardtable.lab.report import ENDINGS

    assert missing(Lang.JA, list(ENDINGS.values())) == []


def test_a_japanese_verdict_and_page(tmp_path: Path) -> None:
    """`lab compare --lang ja`: the verdict and its page in Japanese."""
    db = f"sqlite:///{tmp_path / 'c.db'}"
    out = invoke("compare", "zeta", "-n", "4", "--agents", "random", "--name", "ja", "--db", db, "--no-progress",
                 "--lang", "ja", "--a", "--b", "second_player_extra_card=true", "--html", str(tmp_path / "c.html"))
    assert "second_player_extra_card=true で" in out and "の勝率は" in out
    page = (tmp_path / "c.html").read_text(encoding="utf-8")
    assert '<html lang="ja">' in page and "AとBをゲームごとに比較" in page and "引き分け" in page
