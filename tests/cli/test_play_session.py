"""The table in-process: seats, commands, bad input, undo, save, quit, hot-seat, and stepping through a record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from play_helpers import position, quiet_console

import cardtable
from cardtable.cli.play.loop import PlayOptions, TableDriver, step_through
from cardtable.cli.play.terminal import PlainReader, ScriptedReader
from cardtable.core import Record, record_of, replay
from cardtable.table import HUMAN, Table, seat_specs


def test_seat_specs_fill_the_other_seats_in_order() -> None:
    assert seat_specs(2, [], None) == [HUMAN, HUMAN]
    assert seat_specs(2, ["random"], None) == [HUMAN, "random"]
    assert seat_specs(2, ["random"], 1) == ["random", HUMAN]
    assert seat_specs(4, ["random", "heuristic"], 2) == ["random", "heuristic", HUMAN, HUMAN]
    with pytest.raises(ValueError, match="only 1 other seat"):
        seat_specs(2, ["random", "random"], None)
    with pytest.raises(ValueError, match="--seat must be 1 to 2"):
        seat_specs(2, ["random"], 2)


def _table(game: str, lines: list[str], specs: list[str], seed: int = 5, flags: dict[str, object] | None = None,
           auto_forced: bool = True, layout: str = "full", **setup: object) -> tuple[TableDriver, ScriptedReader]:
    g = cardtable.load_game(game, **(flags or {}))
    table = Table.create(g, specs, seed=seed, setup=setup, meta={"tool": "cardtable play"})
    reader = ScriptedReader(lines)
    console = quiet_console(120)
    options = PlayOptions(delay=0, hint_spec="ismcts:iterations=20", auto_forced=auto_forced, layout=layout)
    return TableDriver(table, console, reader, options), reader


def _text(table: TableDriver) -> str:
    return table.console.export_text()


def test_bad_input_then_a_move_nothing_lost(tmp_path: Path) -> None:
    table, _ = _table("zeta", ["", "frobnicate", "0", "9999", "chant_practice@z9", "target:a1", "PASS", "quit", ""],
                      [HUMAN, "random"], flags={"first_player": "p1"})
    table.run()
    text = _text(table)
    assert "Type a number or an action" in text
    assert "Not understood" in text and "'frobnicate'" in text
    assert "There is no action 0" in text and "There is no action 9999" in text
    assert "no square 'z9'" in text
    assert "Not allowed now" in text and "(rules " in text
    assert "P1 (you) passes" in text  # upper case still names the action
    assert table.state.history[0] == "pass"


def test_commands_help_rules_hint_list_board() -> None:
    table, _ = _table("zeta", ["help", "rules", "rules ja", "rules index", "rules r14", "rules ZETA-R999", "hint",
                               "list", "board", "quit", ""],
                      [HUMAN, "random"], flags={"first_player": "p1"}, auto_forced=False)
    table.run()
    text = _text(table)
    assert "At your prompt" in text and "threes" in text  # Zeta's own command is listed too
    assert "How to play Zeta" in text and "ゼータの遊び方" in text  # rules, rules ja
    assert "ZETA-R12" in text and "Sequence of a turn" in text  # rules index
    assert "Cost limit" in text  # rules r14
    assert "has no rule 'ZETA-R999'" in text
    assert "Hint:" in text and "win rate" in text
    assert "Game left before the end." in text
    assert table.state.history == []


def test_undo_takes_back_your_move_and_the_replies(tmp_path: Path) -> None:
    table, _ = _table("zeta", ["undo", "1", "1", "undo", "quit", ""], [HUMAN, "random"], flags={"first_player": "p1"},
                      auto_forced=False)
    table.run()
    text = _text(table)
    assert "Cannot undo: you have made no decision yet" in text
    assert "Undone:" in text
    # after the undo the game is back at P1's second decision: one P1 action, then P2's replies
    actors = table.table.actors
    assert actors and actors[-1] != 0 and actors.count(0) == 1
    assert table.state.history == replay(table.table.record(), upto=len(actors)).history


def test_save_and_quit_offer_and_replay(tmp_path: Path) -> None:
    mid = tmp_path / "mid.json"
    end = tmp_path / "end.json"
    table, _ = _table("oscilloscope", ["1", "1", f"save {mid}", "save", "quit", str(tmp_path / "no" / "x.json"),
                                       str(end)], [HUMAN, "random"], players=2)
    table.run()
    text = _text(table)
    assert f"Record saved to {mid}" in text and "save needs a file name" in text
    assert "Cannot save to" in text and f"Record saved to {end}" in text
    rec = Record.load(end)
    assert rec.players == [HUMAN, "random"] and rec.meta["tool"] == "cardtable play"
    assert replay(rec).history == rec.actions


def test_whole_game_to_the_end_and_save(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    table, _ = _table("utahime", ["1"] * 400, [HUMAN, "random"])
    table.options.save = out
    record = table.run()
    text = _text(table)
    assert table.state.is_over and "Game over" in text and "reason:" in text
    assert json.loads(out.read_text())["outcome"] == record.outcome
    assert replay(Record.load(out)).outcome() == table.state.outcome()


def test_hot_seat_hides_hands_between_people() -> None:
    table, reader = _table("zeta", ["", "1", "", "1", "", "undo", "quit", ""], [HUMAN, HUMAN],
                           flags={"first_player": "p1"})
    table.run()
    text = _text(table)
    assert text.count("Pass the terminal to P1") == 2 and text.count("Pass the terminal to P2") == 1
    assert "Since your last turn:" in text
    assert "undo would also take back P2's moves" in text
    assert reader.prompts[0].startswith("P1, press Enter")


def test_agent_moves_are_shown_and_secret_choices_hidden() -> None:
    table, _ = _table("utahime", ["quit", ""], ["random", HUMAN], seed=2)
    table.run()
    text = _text(table)
    first = table.state.history[0]
    assert first.startswith("wish ")
    assert "P1 (random) chooses a wished card" in text
    assert first.split()[1] not in text.split("P1 (random) chooses a wished card")[1].split("P2 (you)")[0]


def test_step_through_record_moves_back_and_forth() -> None:
    state = position("zeta", 4, steps=500)
    record = record_of(state, players=["random", "random"])
    console = quiet_console(120)
    step_through(record, console, ScriptedReader(["", "", "b", "5", "x", "999", "q"]))
    text = console.export_text()
    for k in (0, 1, 2, 5):
        assert f"move {k} of {len(record.actions)}" in text
    assert "Unknown key 'x'" in text and "b or p: back" in text  # the unknown command 'x'
    assert "Game over" in text  # 999 jumps to the end
    assert "last move: P1 (random) " in text or "last move: P2 (random) " in text


def test_step_through_ends_at_the_last_move() -> None:
    state = position("oscilloscope", 2, steps=5000, players=1)
    record = record_of(state)
    console = quiet_console(100)
    reader = ScriptedReader([str(len(record.actions)), ""])
    step_through(record, console, reader)
    assert len(reader.prompts) == 2 and "Game over" in console.export_text()


def test_plain_reader_uses_the_given_function() -> None:
    seen: list[str] = []

    def fake_input(message: str) -> str:
        seen.append(message)
        return "ok"

    reader = PlainReader(fake_input)
    assert reader.read("P1> ", ["pass"]) == "ok" and seen == ["P1> "]
