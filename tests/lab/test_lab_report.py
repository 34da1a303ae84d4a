"""Report numbers against hand counts on tiny runs; the HTML is self-contained; JSON and CSV are written."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from cardtable.lab.analysis import analyse
from cardtable.lab.report import build_report, html_page, write_csv, write_json
from cardtable.lab.stats import wilson
from cardtable.lab.storage import LoadedRun
from cardtable.lab.study import PlayedGame


def position_wins(games: tuple[PlayedGame, ...], position: int) -> int:
    """Games won by the seat at ``position`` in the turn order, counted by hand."""
    return sum(1 for g in games if (g.facts.first_player + position) % g.players in g.winners)  # type: ignore[operator]


def test_seat_advantage_is_the_hand_count(tiny_runs: dict[str, LoadedRun]) -> None:
    """Each turn-order position's win rate and Wilson interval come from the plain counts (ZETA-R8 first player)."""
    run = tiny_runs["zeta"]
    numbers = analyse(run)
    for row in numbers["seats"]["by_position"]:
        k = position_wins(run.games, row["position"])
        assert (row["wins"], row["games"]) == (k, len(run.games))
        ci = wilson(k, len(run.games))
        assert row["value"] == pytest.approx(ci.value) and row["low"] == pytest.approx(ci.low)
    seat0 = sum(1 for g in run.games if 0 in g.winners)
    assert numbers["seats"]["by_seat"][0]["wins"] == seat0
    draws = sum(1 for g in run.games if not g.winners)
    assert numbers["draws"]["draws"] == draws
    assert sum(e["games"] for e in numbers["endings"]) == len(run.games)
    assert numbers["lengths"]["actions"]["mean"] == pytest.approx(sum(g.length for g in run.games) / len(run.games))


def test_three_player_positions_are_counted_by_turn_order(tiny_runs: dict[str, LoadedRun]) -> None:
    """Oscilloscope at 3 players: position 0 is the start player (OSC-R4); shared wins count for each winner."""
    run = tiny_runs["oscilloscope"]
    numbers = analyse(run)
    assert [r["position"] for r in numbers["seats"]["by_position"]] == [0, 1, 2]
    for row in numbers["seats"]["by_position"]:
        assert row["wins"] == position_wins(run.games, row["position"])


def _hand_counts(run: LoadedRun, card: str) -> tuple[int, int, int, int, int, int]:
    """Seats with ``card`` in the deck, by hand: seen (opening or drawn), not seen, played, and the wins of each."""
    seen = not_seen = played = 0
    seen_wins = not_seen_wins = played_wins = 0
    for g in run.games:
        for seat in range(2):
            facts = [f for f in g.facts.facts if f.seat == seat and f.item == card]
            if not any(f.verb == "in_deck" for f in facts):
                continue
            won = seat in g.winners
            if any(f.verb in ("opening", "drawn") for f in facts):
                seen, seen_wins = seen + 1, seen_wins + won
            else:
                not_seen, not_seen_wins = not_seen + 1, not_seen_wins + won
            if any(f.verb == "played" for f in facts):
                played, played_wins = played + 1, played_wins + won
    return seen, seen_wins, not_seen, not_seen_wins, played, played_wins


def test_zeta_card_rates_are_the_hand_counts(tiny_runs: dict[str, LoadedRun]) -> None:
    """GIH WR, GNS WR, GP WR and IWD of one card from the stored facts, counted by hand."""
    run = tiny_runs["zeta"]
    rows = {r["card"]: r for r in analyse(run)["strength"]["cards"]["rows"]}
    # the first card (by id) that some seats saw, some did not, and some played: every rate is defined
    card, counts = next((c, n) for c in sorted(rows) if (n := _hand_counts(run, c))[0] and n[2] and n[4])
    seen, seen_wins, not_seen, not_seen_wins, played, played_wins = counts
    row = rows[card]
    assert row["gih_wr"]["n"] == seen and row["gih_wr"]["value"] == pytest.approx(seen_wins / seen)
    assert row["gns_wr"]["n"] == not_seen
    assert row["gp_wr"]["value"] == pytest.approx(played_wins / played)
    assert row["iwd"]["value"] == pytest.approx(seen_wins / seen - not_seen_wins / not_seen)
    low, high = row["gih_wr"]["low"], row["gih_wr"]["high"]
    assert low <= row["gih_wr"]["value"] <= high and high - low > 0
    assert rows["do_over"]["cost"] == 0 and rows["do_over"]["rule"] == "ZETA-R38"


def test_utahime_tables_cover_ranks_suits_plays_and_options(tiny_runs: dict[str, LoadedRun]) -> None:
    """Utahime's report: attacks by rank with success rates (UTA-R22), special plays, the option cards used."""
    run = tiny_runs["utahime"]
    strength = analyse(run)["strength"]
    ranks = {r["feature"]: r for r in strength["ranks"]["rows"]}
    total = sum(f.count for g in run.games for f in g.facts.facts if f.verb == "played" and f.item[1:] == "7")
    assert ranks["attack 7"]["attacks"] == total
    assert {r["feature"] for r in strength["suits"]["rows"]} <= {"attack hearts", "attack spades", "attack clubs",
                                                                  "attack diamonds"}
    assert strength["options"]["rows"], "the example option set's cards are used"
    assert any(r["feature"] == "pass" for r in strength["special"]["rows"])


def test_report_files_html_json_csv(tiny_runs: dict[str, LoadedRun], tmp_path: Path) -> None:
    """One self-contained HTML page (charts inline as SVG, no external URL), and the same numbers as JSON and CSV."""
    report = build_report(tiny_runs["zeta"])
    page = html_page(report)
    assert page.count("<svg") == len(report.charts) >= 2 and "gih_wr" not in page
    assert not re.search(r"(src|href)=\"(?!data:)", page)
    assert "http://" not in page and "https://" not in page
    data = json.loads(write_json(report, tmp_path / "r.json").read_text(encoding="utf-8"))
    assert data["seats"]["by_position"][0]["wins"] == report.numbers["seats"]["by_position"][0]["wins"]
    files = {p.name: p for p in write_csv(report, tmp_path / "csv")}
    assert {"seats_by_position.csv", "points_by_position.csv", "endings.csv", "strength_cards.csv", "games.csv"} \
        <= set(files)
    with files["games.csv"].open(encoding="utf-8") as handle:
        games = list(csv.DictReader(handle))
    assert len(games) == len(tiny_runs["zeta"].games)
    assert {"game", "seed", "first_player", "winners", "seat_0", "seat_1"} <= set(games[0])
    with files["strength_cards.csv"].open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 25 and {"gih_wr", "gih_wr_low", "gih_wr_high", "iwd"} <= set(rows[0])


def test_an_incomplete_run_says_so(tiny_runs: dict[str, LoadedRun]) -> None:
    """A report of a run with games missing tells how to finish it."""
    run = tiny_runs["utahime"]
    partial = LoadedRun(run.info, run.games[:5])
    assert any("--resume utahime" in line for line in build_report(partial).summary)
