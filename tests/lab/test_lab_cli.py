"""``cardtable lab``: run, resume, report, compare, decks and ladder through the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import typer
from typer.testing import CliRunner

from cardtable.cli import lab_cmd


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


def test_run_list_report(tmp_path: Path) -> None:
    """`lab run --agents A B` stores the games; `lab report` answers first and writes what it is asked for."""
    db = f"sqlite:///{tmp_path / 'c.db'}"
    out = invoke("run", "zeta", "--agents", "heuristic", "random", "-n", "6", "--name", "z", "--db", db,
                 "--no-progress")
    assert "z: 6 of 6 games stored" in out
    assert "z  zeta  heuristic random  6/6" in invoke("list", "--db", db)
    out = invoke("report", "z", "--db", db, "--html", str(tmp_path / "z.html"))
    assert out.splitlines()[1].startswith(("The first player", "The second player", "No seat"))
    assert "Agent heuristic wins" in out
    assert (tmp_path / "z.html").exists() and sorted(p.name for p in tmp_path.iterdir()) == ["c.db", "z.html"]
    invoke("report", "z", "--db", db, "--json", str(tmp_path / "z.json"), "--csv", str(tmp_path / "csv"))
    assert (tmp_path / "csv" / "strength_cards.csv").exists()
    assert json.loads((tmp_path / "z.json").read_text())["run"]["stored"] == 6


def test_resume_and_errors(tmp_path: Path) -> None:
    """A stored name is not reused; `--resume` of a complete run stores nothing new; unknown names fail."""
    db = f"sqlite:///{tmp_path / 'c.db'}"
    invoke("run", "zeta", "-a", "random", "-n", "4", "--name", "r", "--db", db, "--no-progress")
    again = CliRunner().invoke(cli(), ["lab", "run", "zeta", "-a", "random", "--name", "r", "--db", db])
    assert again.exit_code == 2 and "--resume r" in again.output
    assert "r: 4 of 4 games stored" in invoke("run", "--resume", "r", "--db", db, "--no-progress")
    missing = CliRunner().invoke(cli(), ["lab", "report", "nope", "--db", db])
    assert missing.exit_code == 2 and "no lab run named 'nope'" in missing.output


def test_compare_decks_ladder(tmp_path: Path) -> None:
    """The three studies end to end on tiny sizes, each with its verdict or table and an HTML page."""
    db = f"sqlite:///{tmp_path / 'c.db'}"
    out = invoke("compare", "zeta", "--agents", "heuristic", "-n", "8", "--a", "--b", "second_player_extra_card=true",
                 "--name", "c", "--db", db, "--no-progress", "--html", str(tmp_path / "c.html"))
    assert re.search(r"second_player_extra_card=true moves the (first|second) player from", out)
    out = invoke("decks", "zeta", "classic", "control", "-n", "4", "--name", "d", "--db", db, "--no-progress",
                 "--html", str(tmp_path / "d.html"))
    assert "classic" in out and (tmp_path / "d.html").exists()
    out = invoke("ladder", "zeta", "random", "heuristic", "-n", "6", "--name", "l", "--db", db, "--no-progress",
                 "--json", str(tmp_path / "l.json"))
    assert "skill depth" in out and json.loads((tmp_path / "l.json").read_text())["ratings"][0]["agent"] == "random"


def test_facts_export_as_csv(tmp_path: Path) -> None:
    """`lab facts NAME --csv FILE` writes one row per stored fact, with the seat's agent."""
    import csv

    db = f"sqlite:///{tmp_path / 'c.db'}"
    invoke("run", "utahime", "-a", "heuristic", "random", "-n", "2", "--name", "u", "--db", db, "--no-progress")
    out = invoke("facts", "u", "--csv", str(tmp_path / "facts.csv"), "--db", db)
    rows = list(csv.DictReader((tmp_path / "facts.csv").open(encoding="utf-8")))
    assert f"wrote {len(rows):,} facts" in out and len(rows) > 20
    assert {r["game"] for r in rows} == {"0", "1"} and {r["agent"] for r in rows} == {"heuristic", "random"}
    assert {r["verb"] for r in rows} >= {"played", "drawn", "opening"}
    for r in rows:  # a spreadsheet joins on the game id; each row says who moved first and whether its seat won
        assert r["first_player"] in ("0", "1") and r["position"] == str((int(r["seat"]) - int(r["first_player"])) % 2)
        assert r["won"] == str(int(r["seat"] in r["winners"].split(";")))
    bad = CliRunner().invoke(cli(), ["lab", "facts", "u", "--csv", str(tmp_path / "no" / "such" / "dir.csv"),
                                     "--db", db])
    assert bad.exit_code == 2 and "cannot write" in bad.output
