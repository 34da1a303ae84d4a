"""The table every front end sits at: turn flow, versions, agents, undo, names, save/resume, per-seat logs."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import cardtable
from cardtable.core import IllegalAction, InvalidAction, Record
from cardtable.table import HUMAN, Seat, Table, TableError, UndoPolicy, check_name, seat_name

GAMES = [("zeta", {}), ("oscilloscope", {"players": 1}), ("oscilloscope", {"players": 3}), ("utahime", {})]


def _random_to(table: Table, rng: random.Random, moves: int) -> None:
    """Play random legal moves for whoever decides (people included) for ``moves`` actions or to the end."""
    for _ in range(moves):
        seat = table.current_seat
        if seat is None:
            return
        if table.seats[seat].is_human:
            legal = table.legal(seat)
            table.play(seat, legal[rng.randrange(len(legal))], table.version)
        else:
            table.step_agent()


def test_seat_names_come_from_one_place() -> None:
    assert [seat_name(i) for i in range(4)] == ["P1", "P2", "P3", "P4"]
    table = Table.create("oscilloscope", [HUMAN, "random", Seat(2, HUMAN, "Aiko")], setup={"players": 3}, seed=1)
    assert table.names == ("P1", "P2 (random)", "P3 Aiko")
    solo = Table.create("zeta", [HUMAN, "heuristic"], seed=1)
    assert solo.names == ("P1 (you)", "P2 (heuristic)")


def test_names_are_checked() -> None:
    assert check_name("  Aiko   Tan ") == "Aiko Tan"
    for bad in ("", "   ", "x" * 25, "a\x07b"):
        with pytest.raises(ValueError):
            check_name(bad)


@pytest.mark.parametrize(("game", "setup"), GAMES)
def test_refused_requests_leave_the_table_unchanged(game: str, setup: dict[str, object]) -> None:
    table = Table.create(game, ["random"] * cardtable.load_game(game).num_players_for(
        cardtable.load_game(game).normalize_setup(setup)), setup=setup, seed=4)
    seat = table.current_seat
    assert seat is not None
    before = json.dumps(table.state.to_json(), sort_keys=True)
    events = table.event_count
    other = (seat + 1) % len(table.seats)
    legal = table.legal(seat)
    with pytest.raises(TableError) as stale:
        table.play(seat, legal[0], version=table.version + 1)
    assert stale.value.code == "stale_version"
    if other != seat:
        with pytest.raises(TableError) as turn:
            table.play(other, legal[0], version=table.version)
        assert turn.value.code == "not_your_turn"
        assert table.legal(other) == []
    with pytest.raises(TableError) as nosuch:
        table.play(9, legal[0])
    assert nosuch.value.code == "no_such_seat"
    with pytest.raises(InvalidAction):
        table.play(seat, "frobnicate the moon", version=table.version)
    assert json.dumps(table.state.to_json(), sort_keys=True) == before and table.event_count == events


def test_an_illegal_action_names_its_rule() -> None:
    table = Table.create("zeta", [HUMAN, HUMAN], seed=2, rules={"first_player": "p1"})
    table.play(0, table.legal(0)[0])
    with pytest.raises(IllegalAction) as exc:
        table.play(1, "chant_practice@" + table.state.history[0].split("@")[1])  # an occupied square
    assert exc.value.rule.startswith("ZETA-")


def test_a_decision_made_on_a_snapshot_is_refused_once_the_table_moved_on() -> None:
    table = Table.create("zeta", ["random", "random"], seed=5)
    snapshot = table.state.clone()
    decision = table.think(snapshot)
    assert decision.version == table.version == 0
    table.step_agent()  # the table moves on meanwhile
    with pytest.raises(TableError) as exc:
        table.play(decision.seat, decision.action, decision.version)
    assert exc.value.code == "stale_version"


@pytest.mark.parametrize(("game", "setup"), GAMES)
def test_a_saved_unfinished_game_resumes_and_ends_as_if_never_stopped(game: str, setup: dict[str, object],
                                                                      tmp_path: Path) -> None:
    g = cardtable.load_game(game)
    n = g.num_players_for(g.normalize_setup(setup))
    through = Table.create(game, ["random"] * n, setup=setup, seed=11)
    through.run_agents()
    stopped = Table.create(game, ["random"] * n, setup=setup, seed=11)
    stopped.run_agents(limit=7)
    path = tmp_path / "mid.json"
    stopped.save(path)
    resumed = Table.load(path)
    assert resumed.version == 7 and resumed.actors == stopped.actors
    assert resumed.event_count == stopped.event_count
    resumed.run_agents()
    assert resumed.state.history == through.state.history
    assert resumed.outcome() == through.outcome()
    assert [e.to_json() for e in resumed.state.events] == [e.to_json() for e in through.state.events]


def test_resume_keeps_people_and_their_names() -> None:
    table = Table.create("zeta", [Seat(0, HUMAN, "Aiko"), "heuristic"], seed=3)
    _random_to(table, random.Random(1), 5)
    again = Table.resume(table.record())
    assert again.names == table.names == ("P1 Aiko", "P2 (heuristic)")
    assert again.seats[1].spec == "heuristic"


def test_undo_policies() -> None:
    table = Table.create("zeta", [HUMAN, "random"], seed=6, rules={"first_player": "p1"})
    assert table.undo_target(0) == (None, "you have made no decision yet")
    table.play(0, table.legal(0)[0])
    table.run_agents()
    assert table.undo(0) == 2 and table.version == 0 and table.actors == []
    people = Table.create("zeta", [HUMAN, HUMAN], seed=6, rules={"first_player": "p1"})
    _random_to(people, random.Random(2), 2)
    target, why = people.undo_target(0)
    assert target is None and "P2's moves" in why
    anyway = Table.create("zeta", [HUMAN, HUMAN], seed=6, rules={"first_player": "p1"}, undo=UndoPolicy.ALWAYS)
    _random_to(anyway, random.Random(2), 2)
    assert anyway.undo(0) == 2
    never = Table.create("zeta", [HUMAN, "random"], seed=6, undo=UndoPolicy.NEVER)
    with pytest.raises(TableError) as exc:
        never.undo(0)
    assert exc.value.code == "cannot_undo"


@pytest.mark.parametrize(("game", "setup"), GAMES)
def test_every_seat_log_has_the_same_length_and_reads_in_words(game: str, setup: dict[str, object]) -> None:
    g = cardtable.load_game(game)
    n = g.num_players_for(g.normalize_setup(setup))
    table = Table.create(game, ["random"] * n, setup=setup, seed=8)
    table.run_agents()
    count = table.event_count
    assert count > len(table.state.history) / 2
    for seat in [*range(n), None]:
        log = table.events(seat)
        assert len(log) == count
        assert [e["move"] for e in log] == sorted(e["move"] for e in log)
        lines = table.log_lines(seat)
        assert len(lines) == count and all(isinstance(x, str) and x for x in lines)
        assert table.log_lines(seat, count - 3) == lines[-3:]
        json.dumps(log)  # JSON-safe


@pytest.mark.parametrize("winner", [0, 1])
def test_the_outcome_names_the_winner_as_the_screens_do_when_seat_2_moves_first(winner: int) -> None:
    """ZETA-I8: the coin toss gives seat 1 the first move; the engine's text still calls seat 0 P1, as screens do."""
    for seed in range(1, 80):
        table = Table.create("zeta", ["heuristic", "random"] if winner == 0 else ["random", "heuristic"], seed=seed)
        table.run_agents()
        out = table.outcome()
        assert out is not None
        if table.actors[0] == 1 and out["winners"] == [winner] and "four in a row" in out["reason"] + out["detail"]:
            break
    else:
        pytest.fail("no game found where the wanted seat won with four in a row")
    assert out["winner_names"] == [table.names[winner]]
    text = out["reason"] + " " + out["detail"]
    assert seat_name(winner) in text and seat_name(1 - winner) not in text


def test_a_table_needs_a_recording_state_and_matching_seats() -> None:
    g = cardtable.load_game("zeta")
    with pytest.raises(ValueError, match="record its events"):
        Table(g.new_game(seed=1), [Seat(0), Seat(1)])
    with pytest.raises(ValueError, match="1 seats given"):
        Table.create("zeta", [HUMAN])
    with pytest.raises(ValueError):
        Table.create("zeta", [HUMAN, "no-such-agent"])


def test_resuming_a_bad_record_says_why() -> None:
    record = Table.create("zeta", ["random", "random"], seed=1).record()
    record.actions = ["pass", "frobnicate"]
    with pytest.raises(cardtable.RecordError):
        Table.resume(record)
    assert Record.from_json(Table.create("zeta", ["random", "random"], seed=1).record().to_json()).players == [
        "random", "random"]
