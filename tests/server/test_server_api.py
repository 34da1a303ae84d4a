"""Every HTTP endpoint, and every bad input, through FastAPI's test client."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from ratings_support import play_out
from server_support import new_app

from cardtable.core import Record, replay

Client = TestClient


@pytest.fixture
def client(sqlite_db: str) -> Iterator[TestClient]:
    with TestClient(new_app(sqlite_db)) as c:
        yield c


def create(client: TestClient, game: str = "zeta", seats: list[dict[str, Any]] | None = None,
           **body: Any) -> dict[str, Any]:
    response = client.post("/api/rooms", json={"game": game, "seats": seats or [{"kind": "open"}, {"kind": "open"}],
                                               **body})
    assert response.status_code == 201, response.text
    out: dict[str, Any] = response.json()
    return out


def join(client: TestClient, room: str, name: str, seat: int | None = None, invite: str | None = None) -> dict[str, Any]:
    response = client.post(f"/api/rooms/{room}/join", json={"name": name, "seat": seat, "invite": invite})
    assert response.status_code == 200, response.text
    out: dict[str, Any] = response.json()
    return out


def error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()["error"]
    assert body["code"] == code, body
    return body


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}




# -- catalog -----------------------------------------------------------------------------------------
def test_health_names_the_database(client: TestClient) -> None:
    health = client.get("/api/health").json()
    assert health["status"] == "ok" and health["database"] == "sqlite"
    assert health["bots"] == {"queued": 0, "running": 0, "capacity": 2, "peak_queued": 0, "peak_running": 0,
                              "decisions": 0, "failures": 0}


def test_games_lists_every_game_with_flags_and_a_setup_that_works(client: TestClient) -> None:
    catalog = client.get("/api/games").json()
    names = [g["name"] for g in catalog["games"]]
    assert names == ["oscilloscope", "utahime", "zeta"]
    zeta = next(g for g in catalog["games"] if g["name"] == "zeta")
    assert any(f["name"] == "gravity" and f["default"] is False for f in zeta["flags"])
    assert "normal" in catalog["agents"]["difficulties"] and catalog["agents"]["iterations_cap"] == 200
    for game in catalog["games"]:
        response = client.post("/api/rooms", json={"game": game["name"], "setup": game["setup_example"]})
        assert response.status_code == 201, response.text
        assert len(response.json()["room"]["seats"]) == 2


def test_protocol_gives_the_json_schema_of_every_websocket_message(client: TestClient) -> None:
    schemas = client.get("/api/protocol").json()
    text = json.dumps(schemas)
    for kind in ("hello", "action", "sync", "ping", "welcome", "state", "accepted", "error", "room", "pong"):
        assert f'"{kind}"' in text, kind


def test_openapi_describes_every_endpoint(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert set(paths) >= {
        "/api/health", "/api/games", "/api/protocol", "/api/rooms", "/api/rooms/{room_id}",
        "/api/rooms/{room_id}/join", "/api/rooms/{room_id}/leave", "/api/rooms/{room_id}/me",
        "/api/rooms/{room_id}/rematch", "/api/rooms/{room_id}/history", "/api/rooms/{room_id}/records/{game_no}"}
    assert set(paths) >= {
        "/api/account/signup", "/api/account/signin", "/api/account/signout", "/api/account/me",
        "/api/account/password", "/api/account/delete", "/api/account/claim",
        "/api/account/passkeys/register/options", "/api/account/passkeys/register/verify",
        "/api/account/passkeys/signin/options", "/api/account/passkeys/signin/verify",
        "/api/account/passkeys/{passkey_id}"}
    assert client.get("/docs").status_code == 200


# -- the lobby page ------------------------------------------------------------------------------------
def test_the_server_alone_serves_the_api_and_no_pages(client: TestClient) -> None:
    """Pages are the browser client's (``cardtable.web`` builds on this app); the server serves none."""
    page = client.get("/")
    assert page.status_code == 404 and page.json()["error"]["code"] == "not_found"
    assert client.get("/static/lobby.js").status_code == 404
    health = client.get("/api/health")
    assert health.status_code == 200 and health.headers["x-content-type-options"] == "nosniff"


def test_the_server_never_imports_the_browser_client() -> None:
    """web depends on server, never the reverse."""
    import subprocess
    import sys

    code = ("import sys, cardtable.server, cardtable.server.app, cardtable.server.api, cardtable.server.bench; "
            "print(sorted(m for m in sys.modules if m.startswith('cardtable.web')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_name_with_markup_is_stored_and_sent_as_plain_json_text(client: TestClient) -> None:
    room = create(client)["room"]["id"]
    joined = join(client, room, "<b onclick=x()>A</b>")
    response = client.get(f"/api/rooms/{room}")
    assert response.headers["content-type"] == "application/json"
    assert response.json()["seats"][0]["name"] == "<b onclick=x()>A</b>"
    assert joined["room"]["seats"][0]["label"] == "P1 <b onclick=x()>A</b>"


# -- creating rooms ------------------------------------------------------------------------------------
def test_a_new_room_reports_its_seats_rules_and_setup_never_its_seed(client: TestClient) -> None:
    made = create(client, "zeta", [{"kind": "open"}, {"kind": "bot", "spec": "random"}], rules={"gravity": True},
                  title="  Friday   game ")
    room = made["room"]
    assert made["invite"] is None
    assert room["title"] == "Friday game" and room["rules"]["gravity"] is True and room["status"] == "waiting"
    assert [(s["status"], s["spec"], s["label"]) for s in room["seats"]] == [
        ("open", "human", "P1 (open)"), ("bot", "random", "P2 (random)")]
    assert "seed" not in json.dumps(made) and "invite_hash" not in json.dumps(made)


@pytest.mark.parametrize(("body", "code"), [
    ({"game": "chess"}, "unknown_game"),
    ({"game": "zeta", "rules": {"gravity": 3}}, "bad_rules"),
    ({"game": "zeta", "rules": {"no_such_flag": True}}, "bad_rules"),
    ({"game": "zeta", "setup": {"decks": ["nonsense", "classic"]}}, "bad_setup"),
    ({"game": "zeta", "setup": {"decks": [{"cards": {"x": "y"}}, 5]}}, "bad_setup"),
    ({"game": "oscilloscope", "setup": {"players": 9}}, "bad_setup"),
    ({"game": "utahime", "setup": {"option_set": "custom", "option_toml": "[[[["}}, "bad_setup"),
    ({"game": "zeta", "seats": [{"kind": "open"}]}, "bad_seats"),
    ({"game": "zeta", "seats": [{"kind": "open", "spec": "random"}, {"kind": "open"}]}, "bad_seats"),
    ({"game": "zeta", "seats": [{"kind": "open"}, {"kind": "bot", "spec": "grandmaster"}]}, "bad_agent"),
    ({"game": "zeta", "seats": [{"kind": "open"}, {"kind": "bot", "spec": "human"}]}, "bad_agent"),
    ({"game": "zeta", "seats": [{"kind": "open"}, {"kind": "bot", "spec": "ismcts:iterations=0"}]}, "bad_agent"),
    ({"game": "zeta", "on_leave": "bot", "leave_bot": "nobody"}, "bad_agent"),
    ({"game": "zeta", "title": "a\u0007b"}, "bad_title"),
    ({"game": "zeta", "title": "a\nb"}, "bad_title"),
    ({"game": "zeta", "title": "x" * 65}, "bad_title"),
])
def test_a_bad_room_is_refused_saying_why(client: TestClient, body: dict[str, Any], code: str) -> None:
    body_error = error(client.post("/api/rooms", json=body), 400, code)
    assert body_error["message"]


@pytest.mark.parametrize("body", [
    {}, {"game": 5}, {"game": "zeta", "seats": []}, {"game": "zeta", "seats": [{"kind": "open"}] * 9},
    {"game": "zeta", "private": "maybe"}, {"game": "zeta", "surprise": 1}, {"game": "zeta", "rules": {"x": 1.5}},
    {"game": "zeta", "on_leave": "vanish"},
    # strict: no coercion of what the schema says is a boolean or an integer
    {"game": "zeta", "private": "yes"}, {"game": "zeta", "private": 1}, {"game": "zeta", "title": 5},
    {"game": "zeta", "seats": [{"kind": "open"}, {"kind": "bot", "spec": 5}]},
])
def test_a_malformed_room_body_is_a_validation_error(client: TestClient, body: dict[str, Any]) -> None:
    before = client.get("/api/rooms", params={"open": False}).json()
    refused = error(client.post("/api/rooms", json=body), 422, "bad_request")  # the one refusal shape
    assert refused["message"].startswith("not a valid request")
    assert client.get("/api/rooms", params={"open": False}).json() == before  # no room was made


@pytest.mark.parametrize("body", [{"name": "Eve", "seat": "0"}, {"name": "Eve", "seat": True},
                                  {"name": "Eve", "seat": 0.0}, {"name": 5}, {"name": "Eve", "invite": 7},
                                  {"name": "Eve", "extra": 1}])
def test_a_join_body_is_validated_strictly(client: TestClient, body: dict[str, Any]) -> None:
    room = create(client)["room"]["id"]
    error(client.post(f"/api/rooms/{room}/join", json=body), 422, "bad_request")
    assert [s["status"] for s in client.get(f"/api/rooms/{room}").json()["seats"]] == ["open", "open"]


def test_bodies_are_size_limited_and_depth_limited(client: TestClient) -> None:
    big = {"game": "zeta", "setup": {"decks": ["x" * 300_000, "classic"]}}
    error(client.post("/api/rooms", json=big), 413, "too_large")
    deep = '{"game": "zeta", "setup": {"a": ' + "[" * 50_000 + "]" * 50_000 + "}}"
    response = client.post("/api/rooms", content=deep, headers={"Content-Type": "application/json"})
    assert response.status_code in (400, 422), response.text
    assert client.post("/api/rooms", content=b"not json", headers={"Content-Type": "application/json"}).status_code == 422


def test_every_game_can_have_rooms_of_its_sizes(client: TestClient) -> None:
    for players in (1, 3, 4):
        room = create(client, "oscilloscope", [{"kind": "open"}] * players, setup={"players": players})["room"]
        assert len(room["seats"]) == players
    assert len(create(client, "utahime")["room"]["seats"]) == 2


# -- listing and reading rooms ---------------------------------------------------------------------------
def test_listing_shows_open_public_rooms_only(client: TestClient) -> None:
    public = create(client)["room"]["id"]
    private = create(client, private=True)["room"]["id"]
    listed = [r["id"] for r in client.get("/api/rooms").json()["rooms"]]
    assert public in listed and private not in listed
    assert client.get("/api/rooms", params={"limit": 0}).status_code == 422
    assert client.get("/api/rooms", params={"limit": 101}).status_code == 422
    assert len(client.get("/api/rooms", params={"limit": 1}).json()["rooms"]) == 1


def test_a_room_is_read_by_id_and_a_missing_one_is_404(client: TestClient) -> None:
    room = create(client)["room"]["id"]
    assert client.get(f"/api/rooms/{room}").json()["id"] == room
    error(client.get("/api/rooms/doesnotexist"), 404, "no_such_room")
    assert client.get("/api/rooms/bad%20id!").status_code == 422
    assert client.get("/api/rooms/" + "a" * 25).status_code == 422


def test_a_private_room_needs_its_invite_code_or_a_seat_token(client: TestClient) -> None:
    made = create(client, private=True)
    room, invite = made["room"]["id"], made["invite"]
    assert isinstance(invite, str) and len(invite) >= 16
    error(client.get(f"/api/rooms/{room}"), 403, "no_access")
    error(client.get(f"/api/rooms/{room}", params={"invite": "wrong"}), 403, "no_access")
    assert client.get(f"/api/rooms/{room}", params={"invite": invite}).status_code == 200
    error(client.post(f"/api/rooms/{room}/join", json={"name": "Eve"}), 403, "no_access")
    error(client.post(f"/api/rooms/{room}/join", json={"name": "Eve", "invite": "guess"}), 403, "no_access")
    token = join(client, room, "Alice", invite=invite)["token"]
    assert client.get(f"/api/rooms/{room}", headers=auth(token)).status_code == 200
    error(client.get(f"/api/rooms/{room}/history"), 403, "no_access")
    assert client.get(f"/api/rooms/{room}/history", params={"invite": invite}).status_code == 200


# -- seats -------------------------------------------------------------------------------------------------
def test_joining_returns_a_token_once_and_fills_the_seat(client: TestClient) -> None:
    room = create(client)["room"]["id"]
    first = join(client, room, "  Alice  ")
    assert first["seat"] == 0 and len(first["token"]) >= 40
    assert first["room"]["seats"][0] == {"seat": 0, "label": "P1 Alice", "name": "Alice", "status": "taken",
                                         "spec": "human", "account": None,
                                         "history": [{"name": "Alice", "spec": "human", "from_version": 0,
                                                      "account": None}]}
    second = join(client, room, "Bob", seat=1)
    assert second["room"]["status"] == "playing" and second["token"] != first["token"]
    assert first["token"] not in client.get(f"/api/rooms/{room}").text


@pytest.mark.parametrize(("name", "code"), [
    ("", "bad_name"), ("   ", "bad_name"), ("x" * 25, "bad_name"), ("x" * 65, "bad_name"), ("(open)", "bad_name"),
    # one rule for control characters: any C0 (tab, newline too), DEL, C1 or line/paragraph separator is refused
    ("tab\there", "bad_name"), ("new\nline", "bad_name"), ("bell\u0007", "bad_name"), ("nul\x00", "bad_name"),
    ("esc\x1b[31m", "bad_name"), ("del\x7f", "bad_name"), ("c1\x85", "bad_name"), ("line\u2028sep", "bad_name"),
    ("para\u2029sep", "bad_name"),
    ("  Åsa   Berg 🙂 ", None)])
def test_names_are_checked(client: TestClient, name: str, code: str | None) -> None:
    room = create(client)["room"]["id"]
    response = client.post(f"/api/rooms/{room}/join", json={"name": name})
    if code is None:
        assert response.status_code == 200 and response.json()["room"]["seats"][0]["name"] == "Åsa Berg 🙂"
    else:
        error(response, 400, code)
        assert client.get(f"/api/rooms/{room}").json()["seats"][0]["status"] == "open"  # the room is unchanged


def test_a_taken_full_or_missing_seat_cannot_be_joined(client: TestClient) -> None:
    room = create(client)["room"]["id"]
    join(client, room, "Alice", seat=0)
    error(client.post(f"/api/rooms/{room}/join", json={"name": "Eve", "seat": 0}), 409, "seat_taken")
    error(client.post(f"/api/rooms/{room}/join", json={"name": "Eve", "seat": 7}), 409, "seat_taken")
    assert client.post(f"/api/rooms/{room}/join", json={"name": "Eve", "seat": -1}).status_code == 422
    join(client, room, "Bob")
    error(client.post(f"/api/rooms/{room}/join", json={"name": "Eve"}), 409, "seat_taken")
    error(client.post("/api/rooms/nosuchroom/join", json={"name": "Eve"}), 404, "no_such_room")


def test_leaving_revokes_the_token_for_good(client: TestClient) -> None:
    room = create(client)["room"]["id"]
    token = join(client, room, "Alice")["token"]
    assert client.get(f"/api/rooms/{room}/me", headers=auth(token)).json()["seat"] == 0
    left = client.post(f"/api/rooms/{room}/leave", headers=auth(token))
    assert left.status_code == 200 and left.json()["room"]["seats"][0]["status"] == "open"
    error(client.get(f"/api/rooms/{room}/me", headers=auth(token)), 401, "bad_token")
    error(client.post(f"/api/rooms/{room}/leave", headers=auth(token)), 401, "bad_token")
    again = join(client, room, "Carol", seat=0)
    assert again["token"] != token
    error(client.get(f"/api/rooms/{room}/me", headers=auth(token)), 401, "bad_token")


def test_a_left_seat_goes_to_the_rooms_bot_when_it_says_so(client: TestClient) -> None:
    room = create(client, on_leave="bot", leave_bot="random")["room"]["id"]
    token = join(client, room, "Alice")["token"]
    join(client, room, "Bob")
    seats = client.post(f"/api/rooms/{room}/leave", headers=auth(token)).json()["room"]["seats"]
    assert seats[0]["status"] == "bot" and seats[0]["spec"] == "random" and seats[0]["label"] == "P1 (random)"


def test_seat_endpoints_need_a_valid_bearer_token(client: TestClient) -> None:
    room = create(client)["room"]["id"]
    for method, path in (("post", "leave"), ("get", "me"), ("post", "rematch")):
        call = getattr(client, method)
        error(call(f"/api/rooms/{room}/{path}"), 401, "bad_token")
        error(call(f"/api/rooms/{room}/{path}", headers=auth("made-up")), 401, "bad_token")
        error(call(f"/api/rooms/{room}/{path}", headers=auth("x" * 500)), 401, "bad_token")
    other = create(client)["room"]["id"]
    token = join(client, other, "Alice")["token"]
    error(client.get(f"/api/rooms/{room}/me", headers=auth(token)), 401, "bad_token")  # another room's token
    error(client.get(f"/api/rooms/{room}", headers=auth("made-up")), 401, "bad_token")


# -- records, history, rematch -------------------------------------------------------------------------------
def test_a_finished_game_is_a_record_that_replays_to_its_outcome(client: TestClient) -> None:
    room = create(client)["room"]["id"]
    tokens = {0: join(client, room, "Alice")["token"], 1: join(client, room, "Bob")["token"]}
    error(client.get(f"/api/rooms/{room}/records/1"), 409, "not_finished")
    last = play_out(client, room, tokens)
    response = client.get(f"/api/rooms/{room}/records/1")
    assert response.status_code == 200
    assert re.match(r'attachment; filename="cardtable-zeta-[\w-]+-1\.json"', response.headers["content-disposition"])
    record = Record.from_json(response.json())
    assert record.meta["names"] == ["Alice", "Bob"] and record.players == ["human", "human"]
    state = replay(record)
    assert len(state.history) == last["version"]
    outcome = state.outcome()
    assert outcome is not None and last["outcome"]["winners"] == list(outcome.winners)
    history = client.get(f"/api/rooms/{room}/history").json()
    assert history["games"][0]["status"] == "finished"
    assert history["games"][0]["record_url"] == f"/api/rooms/{room}/records/1"
    assert history["games"][0]["outcome"]["winners"] == last["outcome"]["winners"]
    assert record.meta["seat_history"] == [[{"name": "Alice", "spec": "human", "from_version": 0}],
                                           [{"name": "Bob", "spec": "human", "from_version": 0}]]
    error(client.get(f"/api/rooms/{room}/records/2"), 404, "no_such_game")  # the room never had a game 2
    error(client.get(f"/api/rooms/{room}/records/999"), 404, "no_such_game")
    error(client.get(f"/api/rooms/{room}/records/0"), 422, "bad_request")
    error(client.post(f"/api/rooms/{room}/join", json={"name": "Late"}), 409, "game_over")


def test_a_rematch_needs_a_finished_game_and_a_seat(client: TestClient) -> None:
    room = create(client)["room"]["id"]
    tokens = {0: join(client, room, "Alice")["token"], 1: join(client, room, "Bob")["token"]}
    error(client.post(f"/api/rooms/{room}/rematch", headers=auth(tokens[0])), 409, "not_finished")
    play_out(client, room, tokens)
    offered = client.post(f"/api/rooms/{room}/rematch", headers=auth(tokens[1]))  # an offer: Alice must agree
    assert offered.status_code == 200 and offered.json()["game_no"] == 1 and offered.json()["status"] == "finished"
    error(client.post(f"/api/rooms/{room}/rematch", headers=auth(tokens[1])), 409, "offer_pending")
    after = client.post(f"/api/rooms/{room}/rematch", headers=auth(tokens[0]))  # Alice's rematch accepts Bob's
    assert after.status_code == 200 and after.json()["game_no"] == 2 and after.json()["status"] == "playing"
    error(client.post(f"/api/rooms/{room}/rematch", headers=auth(tokens[0])), 409, "not_finished")
    play_out(client, room, tokens)  # the same tokens play game 2
    games = client.get(f"/api/rooms/{room}/history").json()["games"]
    assert [g["status"] for g in games] == ["finished", "finished"]
    first = Record.from_json(client.get(f"/api/rooms/{room}/records/1").json())
    second = Record.from_json(client.get(f"/api/rooms/{room}/records/2").json())
    assert first.seed != second.seed and second.meta["game_no"] == 2
