"""The arena: seat rotation on shared seeds, statistics, records that replay, parallel = serial."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from scipy import stats

import cardtable
from cardtable.cli.arena_cmd import arena_main
from cardtable.lab.arena import (
    ArenaConfig,
    config_from_strings,
    elo_difference,
    parse_setup,
    plan,
    run_arena,
    score_interval,
    seats,
    share_of_a,
)


def test_two_player_run_statistics_and_records(tmp_path: Path) -> None:
    """A tiny run: pairs share seeds with seats swapped, counts add up, records replay to their outcomes."""
    config = ArenaConfig("tally", "heuristic", "random", games=9, seed=4, records=tmp_path / "rec")
    result = run_arena(config)
    assert result.games == 10 and result.players == 2  # rounded up to whole seat-swapped pairs
    assert result.wins_a + result.wins_b + result.draws == result.games
    for group in range(5):
        pair = [r for r in result.results if r.group == group]
        assert [seats(r) for r in pair] == [("A", "B"), ("B", "A")]
        assert pair[0].seed == pair[1].seed
    a, b = result.score_a(), result.score_b()
    assert a.low <= a.value <= a.high and math.isclose(a.value + b.value, 1.0)
    assert a.value == pytest.approx(sum(share_of_a(r) for r in result.results) / 10)
    elo = result.elo()
    assert elo is not None and elo.low <= elo.value <= elo.high
    assert result.mean_length() > 0 and result.games_per_second() > 0
    files = sorted((tmp_path / "rec").glob("*.json"))
    assert len(files) == 10
    for path in files:
        record = cardtable.Record.load(path)
        state = cardtable.replay(record)  # checks the recorded outcome too
        assert state.is_over and record.players in (["heuristic", "random"], ["random", "heuristic"])
        assert record.meta["seats"] in (["A", "B"], ["B", "A"])


def test_parallel_run_equals_serial_run() -> None:
    """Two worker processes give exactly the games one process gives (every seat has its own seeded RNG)."""
    serial = run_arena(ArenaConfig("tally", "ismcts:iterations=20", "heuristic:epsilon=0.3", games=8, seed=7))
    parallel = run_arena(ArenaConfig("tally", "ismcts:iterations=20", "heuristic:epsilon=0.3", games=8, seed=7,
                                     jobs=2))
    strip = [(r.group, r.rotation, r.seed, r.winners, r.length) for r in serial.results]
    assert strip == [(r.group, r.rotation, r.seed, r.winners, r.length) for r in parallel.results]


def test_multiplayer_seats_rotate() -> None:
    """With four players, each group plays four games on one seed with A in seat 0, 1, 2, 3."""
    tasks = plan(ArenaConfig("tally", "random", "heuristic", games=8, seed=3, setup={"players": 4}))
    assert len(tasks) == 8
    for group in (0, 1):
        mine = [t for t in tasks if t.group == group]
        assert len({t.seed for t in mine}) == 1
        assert [seats(t).index("A") for t in mine] == [0, 1, 2, 3]
        assert all(seats(t).count("A") == 1 and len(seats(t)) == 4 for t in mine)
        assert mine[1].specs == ("heuristic", "random", "heuristic", "heuristic")
    assert tasks[0].seed != tasks[4].seed
    result = run_arena(ArenaConfig("tally", "random", "random", games=12, seed=3, setup={"players": 3}))
    assert result.players == 3 and result.elo() is None and result.fair_share == pytest.approx(1 / 3)
    assert len(result.score_by_seat()) == 3
    a = result.score_a()
    assert a.method == "bootstrap" and a.low <= a.value <= a.high  # shared wins give fractional scores


def test_score_interval_uses_maintained_code() -> None:
    """Wilson intervals come from scipy's binomtest; fractional scores use a bootstrap over groups."""
    wilson = score_interval([1.0] * 7 + [0.0] * 3)
    ci = stats.binomtest(7, 10).proportion_ci(method="wilson")
    assert (wilson.method, wilson.low, wilson.high) == ("wilson", ci.low, ci.high)
    boot = score_interval([1.0, 0.5, 0.0, 1.0, 0.5, 1.0], groups=[0, 0, 1, 1, 2, 2])
    assert boot.method == "bootstrap" and 0.0 <= boot.low <= boot.value <= boot.high <= 1.0
    assert elo_difference(0.5) == 0.0 and elo_difference(1.0) == math.inf
    assert elo_difference(0.75) == pytest.approx(190.85, abs=0.01)


def test_command_strings_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rule flags and setup parse from flag=value strings; mistakes are ValueErrors that say why."""
    config = config_from_strings("tally", "random", "heuristic", games=4, rules=["target=12"], setup=["players=3"])
    assert dict(config.rules) == {"target": 12} and dict(config.setup) == {"players": 3}
    assert parse_setup(["a=1", "b=true", "c=x"]) == {"a": 1, "b": True, "c": "x"}
    with pytest.raises(ValueError, match="unknown rule flag 'colour'"):
        config_from_strings("tally", "random", "random", rules=["colour=red"])
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        config_from_strings("chess", "random", "random")
    with pytest.raises(ValueError, match="Valid specs"):
        plan(config_from_strings("tally", "random", "minimax"))
    with pytest.raises(ValueError, match="players must be 2, 3 or 4"):
        plan(config_from_strings("tally", "random", "random", setup=["players=9"]))
    result = arena_main("tally", "heuristic", "random", games=6, seed=1, rules=["target=12"],
                        records=str(tmp_path), progress=False)
    out = capsys.readouterr().out
    assert "Elo difference (A - B)" in out and "mean game length" in out and "heuristic" in out
    assert result.games == 6 and len(list(tmp_path.glob("*.json"))) == 6
    assert cardtable.replay(cardtable.Record.load(next(tmp_path.glob("*.json")))).game.rules.target == 12  # type: ignore[attr-defined]
