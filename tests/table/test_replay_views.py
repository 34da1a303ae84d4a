"""A replay shows what a seat saw: its view and its event log; ``--reveal`` shows everything."""

from __future__ import annotations

import io
import re
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from cardtable.cli.main import app
from cardtable.cli.play.loop import REVEAL, step_through
from cardtable.cli.play.terminal import ScriptedReader
from cardtable.table import HUMAN, Table


def _utahime_after_wishes(seed: int = 5) -> Table:
    """A Utahime table after both wishes (UTA-R4: each player wishes one card of their own deck, face down)."""
    table = Table.create("utahime", [HUMAN, HUMAN], seed=seed)
    for _ in range(2):
        seat = table.current_seat
        assert seat is not None
        table.play(seat, table.legal(seat)[0])
    assert [a.split()[0] for a in table.state.history] == ["wish", "wish"]
    return table


def _steps(table: Table, viewer: int | str | None, moves: int = 2) -> str:
    console = Console(width=140, record=True, color_system=None, file=io.StringIO())
    step_through(table.record(), console, ScriptedReader([""] * moves + ["q"]), viewer=viewer)
    return console.export_text()


def _wished(table: Table, seat: int) -> str:
    """The wished card of ``seat``, as the log shows it to that seat."""
    line = next(x for x in table.log_lines(seat) if x.startswith(f"P{seat + 1} wishes for "))
    return line.removeprefix(f"P{seat + 1} wishes for ")


def test_a_replay_as_p2_shows_no_p1_wish() -> None:
    """UTA-R4: P1's wish is secret to P1; stepping through the record as P2 never names it."""
    table = _utahime_after_wishes()
    wish = _wished(table, 0)
    text = _steps(table, viewer=1)
    assert "· as P2" in text
    assert "P1 chooses a wished card" in text
    assert f"P1 wishes for {wish}" not in text
    assert table.state.history[0].split()[1] not in re.findall(r"wish \S+", text)  # no raw action string either


def test_a_spectators_replay_names_no_wish() -> None:
    table = _utahime_after_wishes()
    text = _steps(table, viewer=None)
    assert "as a spectator" in text
    assert "wishes for" not in text and "P1 chooses a wished card" in text and "P2 chooses a wished card" in text


def test_a_revealed_replay_shows_both_wishes() -> None:
    table = _utahime_after_wishes()
    text = _steps(table, viewer=REVEAL)
    assert "everything revealed" in text
    assert f"P1 wishes for {_wished(table, 0)}" in text and f"P2 wishes for {_wished(table, 1)}" in text


def test_replay_command_checks_the_seat(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    _utahime_after_wishes().save(path)
    runner = CliRunner()
    bad = runner.invoke(app, ["replay", str(path), "--as", "P3"])
    assert bad.exit_code == 2 and "P1 to P2" in bad.output
    both = runner.invoke(app, ["replay", str(path), "--as", "P1", "--reveal"])
    assert both.exit_code == 2
    ok = runner.invoke(app, ["replay", str(path), "--as", "p2"], input="q\n")
    assert ok.exit_code == 0 and "as P2" in ok.output
    end = runner.invoke(app, ["replay", str(path), "--to-end"])
    assert end.exit_code == 0 and "not finished" in end.output and "to decide" in end.output
