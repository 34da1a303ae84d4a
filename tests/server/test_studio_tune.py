"""The studio's search (``tune``), its study form's rule flags and random decks, and names for people.

A tune study runs the lab's Optuna search over the numbers a designer ticked, with the trials' progress on the
socket, checks the best sets on fresh seeds against the original, and reports the answer first in English and
Japanese with the sets to load; a search cut short by a stop of the app goes on with the trials it finished.
The study form takes the game's rule flags as the command line's ``--rules flag=value`` and random decks or
loadouts; every changed variant is named by its name and its hash."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_support import sqlite_url
from studio_support import app_for, wait_status
from studio_support import watch as messages_of

from cardtable.core import cardset
from cardtable.store import Store


def tune_body(trials: int = 5, step_games: int = 20, steps: int = 2, games: int = 60, **more: Any) -> dict[str, Any]:
    """A small search of the Fire Mage's cost (ZETA-R14) with random players."""
    return {"kind": "tune", "game": "zeta", "agents": ["random"], "games": games, "seed": 5, "name": "hot fire",
            "vary": [{"key": "fire_mage.cost", "low": 2, "high": 6}], "trials": trials, "step_games": step_games,
            "steps": steps, **more}






def test_a_tune_searches_checks_on_fresh_seeds_and_answers_first(tmp_path: Path) -> None:
    with TestClient(app_for(sqlite_url(tmp_path))) as client:
        body = tune_body(trials=6, setup_choice="random")
        guess = client.post("/api/studio/estimate", json=body).json()
        assert guess["trials"] == 6 and guess["search_games"] == 6 * 2 * 20 and guess["seconds"] >= 0
        made = client.post("/api/studio/studies", json=body)
        assert made.status_code == 201, made.text
        study = made.json()
        assert study["kind"] == "tune" and study["request"]["setup"] == {"decks": ["random", "random"]}
        messages = [m for m in messages_of(client, study["id"]) if m["type"] == "progress"]
        searching = [m["search"] for m in messages if m.get("phase") == "search" and m.get("search")]
        trials = [s["trials_done"] for s in searching]
        assert trials == sorted(trials) and trials[-1] >= 5 and searching[-1]["trials"] == 6
        assert any(s["best"] for s in searching)  # the best set so far, in words, while it searches
        assert all(set(s["best"]["changes"]) == {"en", "ja"} for s in searching if s["best"])
        checking = [m for m in messages if m.get("phase") == "play" and m["variants"]]
        assert checking and checking[-1]["status"] == "done"
        assert checking[-1]["variants"][0]["label"] == f"hot fire #{cardset.default_set('zeta').hash}"
        found = client.get(f"/api/studio/studies/{study['id']}?lang=en").json()
        report = found["report"]
        # the answer first: what to change and where it brings the first player, with its interval
        assert re.search(r"(brings the first player from \d+% to \d+% \[\d+, \d+\]|beats the original)",
                         report["answer"]), report["answer"]
        assert report["sets"] and all(re.fullmatch(r"hot fire-tuned-\d #[0-9a-f]{10}", s["label"])
                                      for s in report["sets"])
        best = report["sets"][0]
        assert set(best["values"]) <= {"fire_mage.cost"} and 2 <= best["values"].get("fire_mage.cost", 3) <= 6
        assert best["games"] == 60 and best["first"]["low"] <= best["first"]["value"] <= best["first"]["high"]
        assert report["search"]["trials"] >= 6 and report["charts"][0]["svg"].startswith("<svg")
        assert report["table"] and report["sections"]  # the cards' strength of the best set's games
        ja = client.get(f"/api/studio/studies/{study['id']}?lang=ja").json()["report"]["answer"]
        assert "先手" in ja and ("になります" in ja or "近づきませんでした" in ja), ja
        share = found["study"]["share_id"]
        rows = client.get(f"/api/studio/shared/{share}/report.csv").text.splitlines()
        assert rows[0].startswith("variant,") and rows[1].startswith("hot fire #")
        html = client.get(f"/api/studio/shared/{share}/report.html?lang=ja")
        assert html.status_code == 200 and ja in html.text and 'lang="ja"' in html.text
        # a finished study's progress keeps the search's numbers
        progress = client.get(f"/api/studio/studies/{study['id']}").json()["progress"]
        assert progress["search"]["trials_done"] >= 6


def test_a_tune_goes_on_with_its_trials_after_a_restart(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    with TestClient(app_for(url)) as client:
        study = client.post("/api/studio/studies", json=tune_body(trials=10, step_games=60, steps=3)).json()
        with client.websocket_connect(f"/api/studio/studies/{study['id']}/ws") as ws:
            while ((ws.receive_json().get("search") or {}).get("trials_done") or 0) < 2:
                pass
    # the app stopped in the middle of the search: its finished trials are in the store's journal
    store = Store.open(url, migrate=False)
    with store.engine.connect() as conn:
        status = conn.exec_driver_sql("SELECT status FROM studio_studies").scalar_one()
        entries = conn.exec_driver_sql("SELECT COUNT(*) FROM studio_tune_log").scalar_one()
    from cardtable.server.studio_tune import finished_trials, load_search

    held = finished_trials(load_search(store, study["id"]))
    store.close()
    assert status == "running" and entries > 0 and 2 <= held < 10
    with TestClient(app_for(url)) as client:
        found = wait_status(client, study["id"], {"done", "failed"})
        assert found["study"]["status"] == "done", found["study"]["error"]
        assert found["report"]["search"]["trials"] >= 10 and found["report"]["sets"]


def test_a_tune_is_cancelled_during_its_search(tmp_path: Path) -> None:
    with TestClient(app_for(sqlite_url(tmp_path))) as client:
        study = client.post("/api/studio/studies", json=tune_body(trials=200, step_games=400, steps=8)).json()
        with client.websocket_connect(f"/api/studio/studies/{study['id']}/ws") as ws:
            while not (ws.receive_json().get("search") or {}).get("games"):
                pass
        cancelled = client.post(f"/api/studio/studies/{study['id']}/cancel").json()
        assert cancelled["status"] == "cancelled"
        assert client.post("/api/studio/studies", json=tune_body(trials=1)).status_code == 201


@pytest.mark.parametrize(("change", "words"), [
    ({"vary": []}, "vary"),
    ({"vary": [{"key": "fire_mage.cost", "low": 2, "high": 99}]}, "fire_mage.cost"),
    ({"vary": [{"key": "fire_mage.nothing", "low": 1, "high": 3}]}, "no number"),
    ({"vary": [{"key": "fire_mage.cost", "low": 3, "high": 3}]}, "range"),
    ({"vary": [{"key": "first_player", "low": 0, "high": 1}]}, "item.field"),
    ({"trials": 0}, "trials"),
    ({"target": 2}, "seat"),
    ({"rule_items": ["no_such_flag=1"]}, "unknown rule flag"),
    ({"rule_items": ["gravity=maybe"]}, "gravity"),
    ({"rule_items": ["cards=ice_mage.cost=6"]}, "card set"),
    ({"setup_choice": "shuffled"}, "setup_choice"),
])
def test_a_bad_tune_or_form_is_refused_saying_why(tmp_path: Path, change: dict[str, Any], words: str) -> None:
    with TestClient(app_for(sqlite_url(tmp_path))) as client:
        refused = client.post("/api/studio/studies", json={**tune_body(), **change})
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_study", refused.text
        assert words in refused.json()["error"]["message"], refused.json()["error"]["message"]


def test_the_form_offers_each_games_rule_flags_and_random_decks_or_loadouts(tmp_path: Path) -> None:
    with TestClient(app_for(sqlite_url(tmp_path))) as client:
        catalog = client.get("/api/studio/games").json()
        assert catalog["tune"] is True
        games = {g["game"]: g for g in catalog["games"]}
        flags = {f["name"]: f for f in games["zeta"]["flags"]}
        assert flags["gravity"]["kind"] == "bool" and flags["gravity"]["default"] is False
        assert flags["board_width"]["choices"] == [4, 6] and flags["first_player"]["ledger"] == "ZETA-I8"
        assert "cards" not in flags  # the card set's own flag is the card set's
        assert games["zeta"]["random_setup"] == {"decks": ["random", "random"]}
        assert games["utahime"]["random_setup"]["loadouts"] == "random"
        assert games["oscilloscope"]["random_setup"] is None
        made = client.post("/api/studio/studies", json={
            "kind": "ab", "game": "zeta", "agents": ["random"], "games": 20, "seed": 1, "setup_choice": "random",
            "rule_items": ["first_player=p1", "gravity=true"],
            "a": {"label": "rulebook", "rules": {}}, "b": {"label": "slow ice", "rules": {"cards": "ice_mage.cost=6"}}})
        assert made.status_code == 201, made.text
        variants = made.json()["request"]["variants"]
        # the flags play in every variant, typed as the command line types them
        assert all(v["rules"]["first_player"] == "p1" and v["rules"]["gravity"] is True for v in variants)
        assert made.json()["request"]["setup"] == {"decks": ["random", "random"]}
        uta = client.post("/api/studio/studies", json={"kind": "single", "game": "utahime", "agents": ["random"],
                                                       "games": 4, "setup_choice": "random"})
        assert uta.status_code == 201, uta.text
        osc = client.post("/api/studio/studies", json={"kind": "single", "game": "oscilloscope", "games": 4,
                                                       "setup_choice": "random"})
        assert osc.status_code == 400 and "no random decks or loadouts" in osc.json()["error"]["message"]


def test_variants_and_card_sets_are_named_with_their_hash(tmp_path: Path) -> None:
    with TestClient(app_for(sqlite_url(tmp_path), studio_max_running=8)) as client:
        slow = cardset.set_from_flags("zeta", {"cards": "ice_mage.cost=6"}).hash

        def label(body: dict[str, Any]) -> str:
            made = client.post("/api/studio/studies", json={"kind": "single", "game": "zeta", "agents": ["random"],
                                                            "games": 2, **body})
            assert made.status_code == 201, made.text
            return str(made.json()["request"]["variants"][0]["label"])

        assert label({"label": "slow ice", "rules": {"cards": "ice_mage.cost=6"}}) == f"slow ice #{slow}"
        assert label({"label": f"#{slow}", "rules": {"cards": "ice_mage.cost=6"}}) == f"custom #{slow}"
        assert label({"rules": {"cards": "ice_mage.cost=6"}}) == f"custom #{slow}"
        assert label({"label": f"slow ice #{slow}", "rules": {"cards": "ice_mage.cost=6"}}) == f"slow ice #{slow}"
        assert label({"label": "rulebook"}) == "rulebook"
        saved = client.post("/api/studio/cardsets", json={"game": "zeta", "name": "slow ice",
                                                          "values": {"ice_mage.cost": 6}}).json()
        assert saved["label"] == f"slow ice #{slow}"
        assert client.get("/api/studio/cardsets").json()["cardsets"][0]["label"] == f"slow ice #{slow}"
        check = client.post("/api/studio/cardsets/check", json={"game": "zeta", "values": {"ice_mage.cost": 6}})
        assert check.json()["label"] == f"custom #{slow}"
        for st in client.get("/api/studio/studies").json()["studies"]:
            client.post(f"/api/studio/studies/{st['id']}/cancel")
