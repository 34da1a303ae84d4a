"""A server that plays a designer's card set: ``cardtable serve --cards SET.toml`` (ZETA-I-CT7)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from fastapi.testclient import TestClient
from server_support import new_app

from cardtable.core import Record, cardset, replay
from cardtable.server import ServerSettings


def ice_mage_at_six() -> cardset.CardSet:
    """The rulebook's Zeta set with the Ice Mage's cost raised from 3 to 6 (ZETA-R14)."""
    return cardset.default_set("zeta").replace({"ice_mage.cost": 6}, name="pricier ice")


def test_new_rooms_of_the_game_play_the_servers_card_set_and_their_records_keep_it(sqlite_db: str) -> None:
    card_set = ice_mage_at_six()
    with TestClient(new_app(sqlite_db, card_sets={"zeta": card_set.rule_flags()})) as client:
        made = client.post("/api/rooms", json={"game": "zeta", "seats": [{"kind": "bot", "spec": "random"}] * 2})
        assert made.status_code == 201, made.text
        room = made.json()["room"]
        assert cardset.set_hash("zeta", room["rules"]) == card_set.hash
        assert card_set.hash != cardset.default_set("zeta").hash
        other = client.post("/api/rooms", json={"game": "utahime", "seats": [{"kind": "bot", "spec": "random"}] * 2})
        assert cardset.set_hash("utahime", other.json()["room"]["rules"]) == cardset.default_set("utahime").hash
        deadline = time.monotonic() + 60
        while (record := client.get(f"/api/rooms/{room['id']}/records/1")).status_code != 200:
            assert time.monotonic() < deadline, record.text  # two random bots finish a game in well under a minute
            time.sleep(0.2)
        data = Record.from_json(record.json())
        assert cardset.set_hash("zeta", data.rules) == card_set.hash
        replay(data)


def test_a_rooms_own_flags_win_over_the_servers_card_set(sqlite_db: str) -> None:
    card_set = ice_mage_at_six()
    with TestClient(new_app(sqlite_db, card_sets={"zeta": card_set.rule_flags()})) as client:
        flag = cardset.spec_of("zeta").cards_flag
        made = client.post("/api/rooms", json={"game": "zeta", "rules": {flag: ""},
                                               "seats": [{"kind": "open"}, {"kind": "open"}]})
        assert made.status_code == 201, made.text
        assert cardset.set_hash("zeta", made.json()["room"]["rules"]) == cardset.default_set("zeta").hash


def test_server_processes_read_the_card_sets_from_their_environment(monkeypatch: object) -> None:
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    flags = ice_mage_at_six().rule_flags()
    monkeypatch.setenv("CARDTABLE_CARD_SETS", json.dumps({"zeta": flags}))
    assert dict(ServerSettings.from_env().card_sets["zeta"]) == flags


def test_serve_refuses_a_card_set_that_breaks_a_rule_naming_the_card(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    text = cardset.default_set("zeta").to_toml()
    bad.write_text(text.replace("cost = 3  # ZETA-R14", "cost = -1  # ZETA-R14", 1), encoding="utf-8")
    assert "cost = -1" in bad.read_text(encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "serve", "--cards", str(bad), "--port", "1"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "ZETA-R14" in done.stderr and "-1" in done.stderr
