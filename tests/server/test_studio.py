"""The studio's API: card sets checked with the command line's checks and saved; studies launched on the
studio's worker pool, watched over the socket, cancelled, resumed after a restart of the app over the same
SQLite file; a per-person limit; bad input refused with its code; a share link that only reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_support import sqlite_url
from studio_support import app_for, wait_status, watch

from cardtable.core import cardset
from cardtable.store import Store


def ab_body(games: int = 60, agents: tuple[str, ...] = ("random",), cost: int = 6) -> dict[str, Any]:
    """An A/B study: the rulebook against an Ice Mage costing ``cost`` (ZETA-R14)."""
    return {"kind": "ab", "game": "zeta", "agents": list(agents), "games": games, "seed": 7,
            "a": {"label": "rulebook", "rules": {}},
            "b": {"label": "slow ice", "rules": {"cards": f"ice_mage.cost={cost}"}}}


def cardset_hash(cards: str) -> str:
    """The hash of a Zeta card set given as its ``cards`` flag."""
    return cardset.set_from_flags("zeta", {"cards": cards}).hash






def test_a_card_set_is_checked_with_the_command_lines_checks_and_saved(tmp_path: Path) -> None:
    with TestClient(app_for(sqlite_url(tmp_path))) as client:
        bad = client.post("/api/studio/cardsets/check", json={"game": "zeta", "values": {"ice_mage.cost": -1,
                                                                                           "ice_mage.limit": 0}})
        expected = cardset.set_problems(cardset.CardSet("zeta", "x", {**cardset.default_set("zeta").values,
                                                                      "ice_mage.cost": -1}, {}))
        assert bad.json()["ok"] is False and expected[0] in bad.json()["problems"]  # ZETA-R14, word for word
        good = client.post("/api/studio/cardsets/check", json={"game": "zeta", "values": {"ice_mage.cost": 6}}).json()
        assert good["ok"] and good["changed"] == [{"key": "ice_mage.cost", "default": 3, "value": 6}]
        assert good["rules"] == {"cards": "ice_mage.cost=6"}
        refused = client.post("/api/studio/cardsets", json={"game": "zeta", "values": {"ice_mage.cost": -1}})
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_rules"
        saved = client.post("/api/studio/cardsets", json={"game": "zeta", "name": "slow ice",
                                                          "values": {"ice_mage.cost": 6}})
        assert saved.status_code == 201
        toml = client.get(saved.json()["toml"]).text
        assert cardset.from_toml(toml, "slow-ice.toml").hash == good["hash"]
        assert [s["name"] for s in client.get("/api/studio/cardsets").json()["cardsets"]] == ["slow ice"]
        pdf = client.get(saved.json()["pdf"])  # the print-and-play sheets of the changed card
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
        assert client.post("/api/studio/cardsets/check", json={"game": "chess"}).json()["error"]["code"] == "unknown_game"


def test_a_study_plays_reports_progress_and_is_shared_read_only(db_url: str) -> None:
    with TestClient(app_for(db_url)) as client:
        made = client.post("/api/studio/studies", json=ab_body())
        assert made.status_code == 201, made.text
        study = made.json()
        messages = watch(client, study["id"])
        progress = [m for m in messages if m["type"] == "progress"]
        dones = [m["done"] for m in progress]
        assert dones == sorted(dones) and dones[-1] == study["planned"] == 120
        assert progress[-1]["status"] == "done"
        widths = [v["high"] - v["low"] for m in progress for v in m["variants"][1:] if v["games"] >= 10]
        assert widths and widths[-1] < widths[0]  # the interval narrows as games come in
        found = client.get(f"/api/studio/studies/{study['id']}?lang=ja").json()
        answer = found["study"]["answer"]["en"]
        assert "の勝率は" in found["report"]["answer"] and answer.startswith("slow ice #") and " moves " in answer
        assert found["study"]["request"]["variants"][1]["label"] == f"slow ice #{cardset_hash('ice_mage.cost=6')}"
        share = study["share_id"]
        shared = client.get(f"/api/studio/shared/{share}?lang=en").json()
        assert shared["report"]["answer"] == found["study"]["answer"]["en"] and "id" not in shared["study"]
        # the share id reads, it does not act: it is no study id
        assert client.post(f"/api/studio/studies/{share}/cancel").json()["error"]["code"] == "no_such_study"
        assert client.get(f"/api/studio/studies/{share}").status_code == 404
        html = client.get(f"/api/studio/shared/{share}/report.html?lang=ja")
        assert html.status_code == 200 and "<svg" in html.text and 'lang="ja"' in html.text
        rows = client.get(f"/api/studio/shared/{share}/report.csv").text.splitlines()
        assert rows[0].startswith("variant,") and len(rows) == 121
        assert client.get("/api/studio/studies").json()["studies"][0]["status"] == "done"


def test_a_sweep_finds_the_value_closest_to_an_even_game(tmp_path: Path) -> None:
    with TestClient(app_for(sqlite_url(tmp_path))) as client:
        made = client.post("/api/studio/studies", json={"kind": "sweep", "game": "zeta", "agents": ["random"],
                                                        "games": 40, "parameter": "hand.second", "values": [3, 5]})
        assert made.status_code == 201, made.text
        watch(client, made.json()["id"])
        report = client.get(f"/api/studio/studies/{made.json()['id']}").json()["report"]
        assert report["answer"].startswith("Closest to an even game: hand.second=")
        assert len(report["summary"]) == 2 and report["charts"][0]["svg"].startswith("<svg")


def test_a_study_of_random_decks_measures_each_card(tmp_path: Path) -> None:
    with TestClient(app_for(sqlite_url(tmp_path))) as client:
        made = client.post("/api/studio/studies", json={"kind": "single", "game": "zeta", "agents": ["random"],
                                                        "games": 200, "setup_items": ["decks=random,random"]})
        assert made.status_code == 201, made.text
        watch(client, made.json()["id"])
        report = client.get(f"/api/studio/studies/{made.json()['id']}").json()["report"]
        cards = report["sections"][0]
        assert not cards["refused"] and len(cards["rows"]) > 10  # every card's strength, as decks varied


def test_the_form_offers_the_player_counts_and_a_three_player_study_shares_the_points_three_ways(
        tmp_path: Path) -> None:
    with TestClient(app_for(sqlite_url(tmp_path))) as client:
        games = {g["game"]: g for g in client.get("/api/studio/games").json()["games"]}
        assert games["zeta"]["players"] == [2] and {2, 3, 4} <= set(games["oscilloscope"]["players"])
        made = client.post("/api/studio/studies", json={"kind": "single", "game": "oscilloscope", "agents": ["random"],
                                                        "games": 30, "setup_items": ["players=3"]})
        assert made.status_code == 201, made.text
        watch(client, made.json()["id"])
        report = client.get(f"/api/studio/studies/{made.json()['id']}").json()["report"]
        assert "Third player:" in " ".join(map(str, report["summary"])), report["summary"]  # a third position


def test_a_study_is_cancelled_and_keeps_its_games(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    with TestClient(app_for(url)) as client:
        study = client.post("/api/studio/studies", json=ab_body(games=20_000)).json()
        with client.websocket_connect(f"/api/studio/studies/{study['id']}/ws") as ws:
            while ws.receive_json().get("done", 0) == 0:
                pass
        cancelled = client.post(f"/api/studio/studies/{study['id']}/cancel").json()
        assert cancelled["status"] == "cancelled" and 0 < cancelled["done"] < cancelled["planned"]
        # a cancelled study is no longer counted against the person's limit
        assert client.post("/api/studio/studies", json=ab_body(games=2)).status_code == 201


def test_a_study_resumes_after_a_restart_of_the_server(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    with TestClient(app_for(url)) as client:
        study = client.post("/api/studio/studies", json=ab_body(games=300)).json()
        with client.websocket_connect(f"/api/studio/studies/{study['id']}/ws") as ws:
            while ws.receive_json().get("done", 0) < 50:
                pass
    # the app stopped in the middle: the study is still "running" in the store, with the games it stored
    with Store.open(url, migrate=False).engine.connect() as conn:
        before = conn.exec_driver_sql("SELECT status, done FROM studio_studies").one()
    assert before[0] == "running" and before[1] < study["planned"]
    with TestClient(app_for(url)) as client:  # a new app over the same file resumes it
        found = wait_status(client, study["id"], {"done", "failed"}, timeout=240)
        assert found["study"]["status"] == "done", found["study"]["error"]
        assert found["study"]["done"] == study["planned"] == 600
        with Store.open(url, migrate=False).engine.connect() as conn:
            games = conn.exec_driver_sql("SELECT COUNT(*), COUNT(DISTINCT series_id || ':' || game_index) "
                                         "FROM lab_series_games").one()
        assert games == (600, 600)  # every game once: the resume played only the missing ones


def test_one_person_may_run_only_so_many_studies_at_once(tmp_path: Path) -> None:
    with TestClient(app_for(sqlite_url(tmp_path), studio_max_running=1)) as client:
        first = client.post("/api/studio/studies", json=ab_body(games=20_000))
        assert first.status_code == 201
        second = client.post("/api/studio/studies", json=ab_body(games=10))
        assert second.status_code == 429 and second.json()["error"]["code"] == "too_many_studies"
        client.post(f"/api/studio/studies/{first.json()['id']}/cancel")


@pytest.mark.parametrize(("body", "code"), [
    ({"kind": "tune", "game": "zeta"}, "bad_study"),
    ({"kind": "single", "game": "zeta", "games": 0}, "bad_study"),
    ({"kind": "single", "game": "zeta", "games": 10 ** 9}, "bad_study"),
    ({"kind": "single", "game": "zeta", "agents": ["grandmaster"]}, "bad_study"),
    ({"kind": "single", "game": "zeta", "rules": {"no_such_flag": 1}}, "bad_study"),
    ({"kind": "ab", "game": "zeta", "a": {"rules": {}}}, "bad_study"),
    ({"kind": "sweep", "game": "zeta", "parameter": "ice_mage.cost", "values": [3]}, "bad_study"),
    ({"kind": "sweep", "game": "zeta", "parameter": "ice_mage.nothing", "values": [1, 2]}, "bad_study"),
    ({"kind": "single", "game": "zeta", "setup_items": ["decks=@/etc/passwd"]}, "bad_study"),
    ({"kind": "single", "game": "zeta", "setup_items": ["decks"]}, "bad_study"),
    ({"kind": "single", "game": "chess"}, "unknown_game"),
])
def test_bad_input_is_refused_with_its_code(tmp_path: Path, body: dict[str, Any], code: str) -> None:
    with TestClient(app_for(sqlite_url(tmp_path))) as client:
        refused = client.post("/api/studio/studies", json=body)
        assert refused.status_code == 400 and refused.json()["error"]["code"] == code, refused.text
        assert client.get("/api/studio/studies/nothing-here").json()["error"]["code"] == "no_such_study"
        assert client.get("/api/studio/shared/nothing-here").status_code == 404
