"""Ratings: the openskill model's numbers, which finished games are rated (once), rated rooms over the API."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from ratings_support import finish, make_account, play_out, seated_room
from server_support import new_app
from sqlalchemy import func, insert, select

from cardtable.store import Store
from cardtable.store import ratings as r
from cardtable.store.models import RatingChangeRow, RatingRow, SittingRow, utcnow


@pytest.fixture
def store(sqlite_db: str) -> Iterator[Store]:
    opened = Store.open(sqlite_db, durable=False)
    yield opened
    opened.close()


@pytest.fixture
def client(sqlite_db: str) -> Iterator[TestClient]:
    with TestClient(new_app(sqlite_db)) as c:
        yield c


def app_store(client: TestClient) -> Store:
    store = client.app.state.services.store  # type: ignore[attr-defined]
    assert isinstance(store, Store)
    return store


def rating_of(store: Store, account: str, game: str, players: int) -> tuple[float, float, int] | None:
    with store.engine.connect() as conn:
        row = conn.execute(select(RatingRow.mu, RatingRow.sigma, RatingRow.games).where(
            RatingRow.account_id == account, RatingRow.game == game, RatingRow.players == players)).first()
    return None if row is None else (row.mu, row.sigma, row.games)


def changes_of(store: Store, room_id: str) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(RatingChangeRow)
                                .where(RatingChangeRow.room_id == room_id)).scalar_one())


# -- the model -----------------------------------------------------------------------------------------
def test_a_two_player_game_moves_the_winner_up_and_the_loser_down_by_the_same_mu() -> None:
    winner, loser = r.rate([r.fresh(), r.fresh()], [1, 2])
    assert winner.mu == pytest.approx(27.6354, abs=1e-4) and loser.mu == pytest.approx(22.3646, abs=1e-4)
    assert winner.sigma == loser.sigma == pytest.approx(8.0659, abs=1e-4)
    assert (r.displayed(winner), r.displayed(loser)) == (1706, 1390)
    assert r.displayed(r.fresh()) == 1500


def test_a_four_player_oscilloscope_game_ranks_by_score_and_ties_share_a_place() -> None:
    # OSC-R51: the highest score wins; seats 1 and 2 score the same and share second place
    outcome = {"winners": [0], "scores": [9.0, 5.0, 5.0, 2.0]}
    assert r.places(outcome, 4) == [1, 2, 2, 4]
    after = r.rate([r.fresh()] * 4, r.places(outcome, 4))
    assert [round(s.mu, 3) for s in after] == [27.795, 24.689, 24.689, 22.826]
    assert after[1] == after[2]
    assert [r.displayed(s) for s in after] == sorted((r.displayed(s) for s in after), reverse=True)


def test_places_of_shared_wins_draws_and_results() -> None:
    assert r.places({"winners": [0, 2], "scores": [7.0, 3.0, 7.0]}, 3) == [1, 3, 1]  # OSC-I50: a shared win
    assert r.places({"winners": [], "scores": None}, 2) == [1, 1]  # a draw
    assert r.places({"winners": [1]}, 2) == [2, 1]
    assert r.result_of({"winners": [1]}, 0, 2) == "loss" and r.result_of({"winners": [1]}, 1, 2) == "win"
    assert r.result_of({"winners": []}, 0, 2) == "draw"
    a, b = r.rate([r.fresh(), r.fresh()], [1, 1])
    assert a == b and a.mu == pytest.approx(25.0) and a.sigma < r.SIGMA


def test_a_rating_is_provisional_until_ten_games() -> None:
    assert r.is_provisional(9) and not r.is_provisional(10)


# -- which games are rated -------------------------------------------------------------------------------
def test_a_rated_game_between_two_accounts_is_rated_once(store: Store) -> None:
    alice, bob = make_account(store, "Alice"), make_account(store, "Bob")
    room, _ = seated_room(store, "zeta", [alice, bob])
    finish(store, room.id, {"winners": [1]})
    with store.transaction() as conn:
        assert r.rate_game(conn, room.id, 1, {"winners": [1]}) is True
    with store.transaction() as conn:  # the hook run again (a second process, a retried commit)
        assert r.rate_game(conn, room.id, 1, {"winners": [1]}) is False
    assert rating_of(store, bob, "zeta", 2) == (pytest.approx(27.6354, abs=1e-4), pytest.approx(8.0659, abs=1e-4), 1)
    assert rating_of(store, alice, "zeta", 2) == (pytest.approx(22.3646, abs=1e-4), pytest.approx(8.0659, abs=1e-4), 1)
    assert changes_of(store, room.id) == 2


@pytest.mark.parametrize("case", ["unrated room", "guest", "bot", "same account twice"])
def test_games_without_one_account_per_seat_leave_ratings_alone_but_count(store: Store, case: str) -> None:
    alice, bob = make_account(store, "Alice"), make_account(store, "Bob")
    sitters: list[str | None] = {"guest": [alice, None], "same account twice": [alice, alice]}.get(case, [alice, bob])
    room, _ = seated_room(store, "zeta", sitters, rated=case != "unrated room", bots=(1,) if case == "bot" else ())
    finish(store, room.id, {"winners": [0]})
    with store.transaction() as conn:
        assert r.rate_game(conn, room.id, 1, {"winners": [0]}) is False
    assert rating_of(store, alice, "zeta", 2) is None and changes_of(store, room.id) == 0
    with store.engine.connect() as conn:
        played = r.played_games(conn, alice)
    assert [(g.room_id, g.result, g.rated) for g in played] == [(room.id, "win", False)]


def test_a_change_of_sitter_makes_the_game_unrated(store: Store) -> None:
    alice, bob, carol = (make_account(store, n) for n in ("Alice", "Bob", "Carol"))
    room, _ = seated_room(store, "zeta", [alice, bob])
    with store.transaction() as conn:  # Bob left at version 4 and Carol took his seat over
        conn.execute(insert(SittingRow).values(room_id=room.id, game_no=1, seat=1, from_version=4, spec="human",
                                               name="Carol", account_id=carol, created_at=utcnow()))
    finish(store, room.id, {"winners": [1]})
    with store.transaction() as conn:
        assert r.rate_game(conn, room.id, 1, {"winners": [1]}) is False
    with store.engine.connect() as conn:
        assert [g.result for g in r.played_games(conn, carol)] == ["win"]
        assert [g.result for g in r.played_games(conn, bob)] == ["win"]


def test_a_second_game_of_the_same_players_starts_from_the_first_ones_ratings(store: Store) -> None:
    alice, bob = make_account(store, "Alice"), make_account(store, "Bob")
    for _ in range(2):
        room, _ = seated_room(store, "zeta", [alice, bob])
        finish(store, room.id, {"winners": [0]})
        with store.transaction() as conn:
            assert r.rate_game(conn, room.id, 1, {"winners": [0]})
    expected = r.rate(r.rate([r.fresh(), r.fresh()], [1, 2]), [1, 2])
    got = rating_of(store, alice, "zeta", 2)
    assert got is not None and got[0] == pytest.approx(expected[0].mu) and got[2] == 2
    with store.engine.connect() as conn:
        points = r.history(conn, alice, "zeta", 2)
    assert [p.skill.mu for p in points] == pytest.approx([r.MU, 27.6354, expected[0].mu], abs=1e-4)


def test_oscilloscope_is_rated_per_player_count(store: Store) -> None:
    people = [make_account(store, f"P{i}") for i in range(3)]
    room, _ = seated_room(store, "oscilloscope", people, setup={"players": 3})
    outcome = {"winners": [2], "scores": [4.0, 4.0, 9.0]}
    finish(store, room.id, outcome)
    with store.transaction() as conn:
        assert r.rate_game(conn, room.id, 1, outcome)
    assert rating_of(store, people[0], "oscilloscope", 3) is not None
    assert rating_of(store, people[0], "oscilloscope", 2) is None
    first, second, third = (rating_of(store, p, "oscilloscope", 3) for p in people)
    assert first is not None and second is not None and third is not None
    assert third[0] > first[0] == pytest.approx(second[0])


# -- over the API ----------------------------------------------------------------------------------------
def test_a_rated_zeta_game_played_to_the_end_over_the_api_changes_both_ratings(client: TestClient) -> None:
    store = app_store(client)
    alice, bob = make_account(store, "Alice"), make_account(store, "Bob")
    room, tokens = seated_room(store, "zeta", [alice, bob], seed=3)
    assert client.get(f"/api/rooms/{room.id}/games/1/ratings").json() == {"rated": False, "room_rated": True,
                                                                           "changes": []}
    last = play_out(client, room.id, dict(enumerate(tokens)))
    winners = last["outcome"]["winners"]
    assert len(winners) == 1, "this seed ends with a winner"
    answer = client.get(f"/api/rooms/{room.id}/games/1/ratings").json()
    assert answer["rated"] is True
    by_seat = {c["seat"]: c for c in answer["changes"]}
    won, lost = by_seat[winners[0]], by_seat[1 - winners[0]]
    assert won["delta"] > 0 > lost["delta"] and won["before"] == lost["before"] == 1500
    assert (won["after"], lost["after"]) == (1706, 1390)
    assert {won["account"], lost["account"]} == {alice, bob} and won["provisional"] and lost["provisional"]
    assert {c["name"] for c in answer["changes"]} == {"Alice", "Bob"}
    loser = lost["account"]
    got = rating_of(store, loser, "zeta", 2)
    assert got is not None and got[0] < r.MU and got[2] == 1


def test_an_unrated_room_over_the_api_leaves_ratings_alone(client: TestClient) -> None:
    store = app_store(client)
    alice, bob = make_account(store, "Alice"), make_account(store, "Bob")
    room, tokens = seated_room(store, "zeta", [alice, bob], rated=False, seed=3)
    play_out(client, room.id, dict(enumerate(tokens)))
    assert client.get(f"/api/rooms/{room.id}/games/1/ratings").json() == {"rated": False, "room_rated": False,
                                                                           "changes": []}
    assert rating_of(store, alice, "zeta", 2) is None
    stats = client.get(f"/api/players/{alice}").json()["stats"]
    assert [(s["game"], s["players"], s["games"]) for s in stats] == [("zeta", 2, 1)]


def test_a_rated_room_refuses_bot_seats(client: TestClient) -> None:
    response = client.post("/api/rooms", json={"game": "zeta", "rated": True,
                                               "seats": [{"kind": "open"}, {"kind": "bot", "spec": "random"}]})
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_seats"
    made = client.post("/api/rooms", json={"game": "zeta", "rated": True})
    assert made.status_code == 201 and made.json()["room"]["rated"] is True


def test_a_game_ratings_answer_follows_the_rooms_access(client: TestClient) -> None:
    store = app_store(client)
    room, _ = seated_room(store, "zeta", [make_account(store, "A"), make_account(store, "B")], private=True)
    assert client.get(f"/api/rooms/{room.id}/games/1/ratings").json()["error"]["code"] == "no_access"
    assert client.get("/api/rooms/nosuchroom/games/1/ratings").status_code == 404


def test_two_signed_up_players_play_a_rated_room_made_over_the_api(client: TestClient) -> None:
    people = {}
    for name in ("Alice", "Bob"):
        made = client.post("/api/account/signup", json={"name": name, "password": "correct horse battery"})
        assert made.status_code == 201, made.text
        people[name] = {"cookie": made.cookies["cardtable_session"], "csrf": made.json()["csrf"],
                        "id": made.json()["account"]["id"]}
        client.cookies.clear()
    room = client.post("/api/rooms", json={"game": "zeta", "rated": True}).json()["room"]["id"]
    tokens = {}
    for who in people.values():
        joined = client.post(f"/api/rooms/{room}/join", json={"name": "ignored"},
                             headers={"Cookie": f"cardtable_session={who['cookie']}", "X-CSRF-Token": who["csrf"]})
        assert joined.status_code == 200, joined.text
        tokens[joined.json()["seat"]] = joined.json()["token"]
    last = play_out(client, room, tokens)
    answer = client.get(f"/api/rooms/{room}/games/1/ratings").json()
    assert answer["rated"] is True and {c["name"] for c in answer["changes"]} == {"Alice", "Bob"}
    if last["outcome"]["winners"]:
        [loser] = [c for c in answer["changes"] if c["seat"] not in last["outcome"]["winners"]]
        assert loser["delta"] < 0
    profile = client.get(f"/api/players/{people['Alice']['id']}").json()
    assert profile["ratings"][0]["games"] == 1 and profile["recent"][0]["opponents"][0]["name"] == "Bob"
    board = client.get("/api/leaderboards/zeta", headers={"Cookie": f"cardtable_session={people['Bob']['cookie']}"})
    assert board.json()["me"]["games"] == 1 and board.json()["me"]["rank"] is None  # provisional


def test_a_rematch_of_a_rated_room_is_rated_too(store: Store) -> None:
    alice, bob = make_account(store, "Alice"), make_account(store, "Bob")
    room, _ = seated_room(store, "zeta", [alice, bob])
    finish(store, room.id, {"winners": [0]})
    store.rematch(room.id, 1, seed=5, to_move=0)
    finish(store, room.id, {"winners": [0]}, game_no=2)
    with store.transaction() as conn:
        assert r.rate_game(conn, room.id, 1, {"winners": [0]}) and r.rate_game(conn, room.id, 2, {"winners": [0]})
    twice = r.rate(r.rate([r.fresh()] * 2, [1, 2]), [1, 2])[0]
    got = rating_of(store, alice, "zeta", 2)
    assert got is not None and got[0] == pytest.approx(twice.mu) and got[1] == pytest.approx(twice.sigma) and got[2] == 2
