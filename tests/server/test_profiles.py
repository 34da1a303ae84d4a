"""Profiles, rating histories, leaderboards and a player's own records (the ``cardtable replay`` round trip)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from ratings_support import finish, make_account, play_out, seated_room, sign_in
from server_support import new_app
from sqlalchemy import insert, update
from typer.testing import CliRunner

from cardtable.cli.main import app as cli
from cardtable.core import Record, replay
from cardtable.store import Store
from cardtable.store import ratings as r
from cardtable.store.models import AccountRow, AccountStatus, RatingRow, utcnow


@pytest.fixture
def client(sqlite_db: str) -> Iterator[TestClient]:
    with TestClient(new_app(sqlite_db)) as c:
        yield c


def app_store(client: TestClient) -> Store:
    store = client.app.state.services.store  # type: ignore[attr-defined]
    assert isinstance(store, Store)
    return store


def rated(store: Store, account: str, mu: float, sigma: float, games: int, *, days_ago: int = 1,
          game: str = "zeta", players: int = 2) -> None:
    with store.transaction() as conn:
        conn.execute(insert(RatingRow).values(account_id=account, game=game, players=players, mu=mu, sigma=sigma,
                                              games=games, updated_at=utcnow() - timedelta(days=days_ago)))


# -- profiles ------------------------------------------------------------------------------------------
def test_the_profile_lists_the_game_with_its_opponent_result_and_replay(client: TestClient) -> None:
    store = app_store(client)
    alice, bob = make_account(store, "Alice"), make_account(store, "<b>Bob</b>")
    room, _ = seated_room(store, "zeta", [alice, bob], names=["Alice", "<b>Bob</b>"])
    finish(store, room.id, {"winners": [0]})
    profile = client.get(f"/api/players/{alice}").json()
    assert profile["id"] == alice and profile["name"] == "Alice" and profile["deleted"] is False
    [game] = profile["recent"]
    assert (game["room"], game["game_no"], game["game"], game["seat"], game["result"]) == (room.id, 1, "zeta", 0, "win")
    assert game["opponents"] == [{"seat": 1, "account": bob, "name": "<b>Bob</b>", "bot": False,  # text, as typed
                                  "deleted": False}]
    assert game["replay_url"] == f"/replay/{room.id}/1" and game["record_url"] == f"/api/rooms/{room.id}/records/1"
    assert profile["stats"] == [{"game": "zeta", "players": 2, "games": 1, "wins": 1, "draws": 0, "losses": 0,
                                 "by_seat": [{"seat": 0, "games": 1, "wins": 1}, {"seat": 1, "games": 0, "wins": 0}]}]
    assert profile["decks"] == [{"game": "zeta", "name": "classic", "games": 1}]
    bobs = client.get(f"/api/players/{bob}").json()
    assert bobs["stats"][0]["losses"] == 1 and bobs["stats"][0]["by_seat"][1] == {"seat": 1, "games": 1, "wins": 0}


def test_a_private_game_is_listed_and_linked_only_for_its_own_player(client: TestClient) -> None:
    store = app_store(client)
    alice, bob = make_account(store, "Alice"), make_account(store, "Bob")
    room, _ = seated_room(store, "zeta", [alice, bob], private=True)
    finish(store, room.id, {"winners": [1]})
    seen = client.get(f"/api/players/{alice}").json()
    assert seen["recent"] == [] and seen["stats"][0]["games"] == 1  # a stranger sees the count, not the room
    sign_in(store, client, alice)
    [own] = client.get(f"/api/players/{alice}").json()["recent"]
    assert own["record_url"] == f"/api/account/records/{room.id}/1" and own["replay_url"] is None
    assert client.get(own["record_url"]).status_code == 200
    sign_in(store, client, bob)  # Bob sat in it too; a third account did not
    assert client.get(own["record_url"]).status_code == 200
    sign_in(store, client, make_account(store, "Carol"))
    assert client.get(own["record_url"]).json()["error"]["code"] == "no_such_game"


def test_a_deleted_account_is_a_deleted_player_everywhere(client: TestClient) -> None:
    store = app_store(client)
    alice, bob = make_account(store, "Alice"), make_account(store, "Bob")
    room, _ = seated_room(store, "zeta", [alice, bob])
    finish(store, room.id, {"winners": [1]})
    with store.transaction() as conn:
        conn.execute(update(AccountRow).where(AccountRow.id == bob).values(status=AccountStatus.DELETED, name_key=None))
    assert client.get(f"/api/players/{bob}").json()["name"] == "deleted player"
    assert client.get(f"/api/players/{bob}").json()["deleted"] is True
    [game] = client.get(f"/api/players/{alice}").json()["recent"]
    assert game["opponents"][0]["name"] == "deleted player" and game["opponents"][0]["deleted"] is True


def test_unknown_players_and_games_are_refused(client: TestClient) -> None:
    assert client.get("/api/players/nobody").json()["error"]["code"] == "no_such_player"
    assert client.get("/api/players/nobody/ratings/zeta").json()["error"]["code"] == "no_such_player"
    assert client.get("/api/leaderboards/chess").json()["error"]["code"] == "unknown_game"
    assert client.get("/api/players/bad$id").status_code in (404, 422)


def test_the_rating_history_is_the_charts_points(client: TestClient) -> None:
    store = app_store(client)
    alice, bob = make_account(store, "Alice"), make_account(store, "Bob")
    for winner in (0, 0, 1):
        room, _ = seated_room(store, "zeta", [alice, bob])
        finish(store, room.id, {"winners": [winner]})
        with store.transaction() as conn:
            assert r.rate_game(conn, room.id, 1, {"winners": [winner]})
    points = client.get(f"/api/players/{alice}/ratings/zeta?players=2").json()["points"]
    assert [p["rating"] for p in points[:2]] == [1500, 1706] and len(points) == 4
    assert points[3]["rating"] < points[2]["rating"]
    assert client.get(f"/api/players/{alice}/ratings/oscilloscope?players=3").json()["points"] == []
    profile = client.get(f"/api/players/{alice}").json()
    [rating] = profile["ratings"]
    assert (rating["game"], rating["players"], rating["games"], rating["provisional"], rating["rank"]) == (
        "zeta", 2, 3, True, None)
    assert rating["rating"] == points[-1]["rating"]
    assert [g["rated"] for g in profile["recent"]] == [True, True, True]


# -- leaderboards ----------------------------------------------------------------------------------------
def test_the_leaderboard_ranks_by_the_conservative_rating_with_the_minimum_games_rule(client: TestClient) -> None:
    store = app_store(client)
    steady, lucky, new, gone, me = (make_account(store, n) for n in ("Steady", "Lucky", "New", "Gone", "Me"))
    rated(store, steady, 30.0, 1.0, 40)   # 30 - 3 = 27
    rated(store, lucky, 35.0, 4.0, 12)    # 35 - 12 = 23: a higher mu, less sure
    rated(store, new, 40.0, 2.0, 9)       # provisional: off the board
    rated(store, gone, 45.0, 1.0, 50, days_ago=120)  # no rated game for 90 days
    rated(store, me, 28.0, 1.0, 10)       # 25
    rated(store, steady, 20.0, 2.0, 15, game="oscilloscope", players=3)
    board = client.get("/api/leaderboards/zeta?players=2").json()
    assert [(e["rank"], e["name"]) for e in board["entries"]] == [(1, "Steady"), (2, "Me"), (3, "Lucky")]
    assert board["entries"][0]["rating"] == r.displayed(r.Skill(30.0, 1.0)) and board["me"] is None
    assert (board["min_games"], board["days"]) == (10, 90)
    sign_in(store, client, me)
    assert client.get("/api/leaderboards/zeta").json()["me"] == {"rank": 2, "rating": r.displayed(r.Skill(28.0, 1.0)),
                                                                 "games": 10, "provisional": False}
    assert [e["name"] for e in client.get("/api/leaderboards/oscilloscope?players=3").json()["entries"]] == ["Steady"]
    sign_in(store, client, new)
    mine = client.get("/api/leaderboards/zeta").json()["me"]
    assert mine["rank"] is None and mine["provisional"] is True and mine["games"] == 9
    profile = client.get(f"/api/players/{me}").json()
    assert profile["ratings"][0]["rank"] == 2


# -- own records -----------------------------------------------------------------------------------------
def test_my_records_download_round_trips_through_cardtable_replay(client: TestClient, tmp_path: Path) -> None:
    store = app_store(client)
    alice, bob = make_account(store, "Alice"), make_account(store, "Bob")
    assert client.get("/api/account/records").json()["error"]["code"] == "not_signed_in"
    outcomes = []
    for seed in (3, 4):
        room, tokens = seated_room(store, "zeta", [alice, bob], rated=False, seed=seed)
        outcomes.append(play_out(client, room.id, dict(enumerate(tokens)))["outcome"])
    sign_in(store, client, alice)
    response = client.get("/api/account/records")
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    records = response.json()
    assert len(records) == 2
    for data, outcome in zip(records, outcomes, strict=True):
        played = replay(Record.from_json(data)).outcome()
        assert played is not None and list(played.winners) == outcome["winners"]
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    runner = CliRunner()
    every = runner.invoke(cli, ["replay", str(path), "--to-end"])
    assert every.exit_code == 0, every.output
    assert every.output.count("zeta:") == 2 and every.output.startswith("1. zeta:")
    second = runner.invoke(cli, ["replay", str(path), "--to-end", "--game", "2"])
    assert second.exit_code == 0 and "actions replayed" in second.output and "2." not in second.output
    lines = tmp_path / "mine.jsonl"
    lines.write_text("".join(json.dumps(d) + "\n" for d in records), encoding="utf-8")
    assert runner.invoke(cli, ["replay", str(lines), "--to-end"]).output.count("zeta:") == 2
    unchosen = runner.invoke(cli, ["replay", str(path)])
    assert unchosen.exit_code == 2 and "--game N" in unchosen.output
    assert runner.invoke(cli, ["replay", str(path), "--game", "3"]).exit_code == 2
