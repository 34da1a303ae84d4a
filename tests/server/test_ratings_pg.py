"""Ratings over PostgreSQL: two processes rating the same players' games at once apply each game exactly
once and lose no update (the rating rows are locked ``FOR UPDATE``); a rated game over the API is rated."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from ratings_support import finish, make_account, play_out, seated_room
from server_support import SeatPlayer, ServerProcess, new_app
from sqlalchemy import func, select

from cardtable.store import Store
from cardtable.store import ratings as r
from cardtable.store.models import RatingChangeRow, RatingRow

pytestmark = pytest.mark.postgres

WORKER = """
import json, random, sys, time
from cardtable.store import Store
from cardtable.store import ratings as r
url, games, start, seed = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
store = Store.open(url, migrate=False)
random.Random(seed).shuffle(games)
time.sleep(max(0.0, start - time.time()))
applied = []
for room_id, outcome in games:
    with store.transaction() as conn:
        if r.rate_game(conn, room_id, 1, outcome):
            applied.append(room_id)
store.close()
print(json.dumps(applied))
"""


def test_two_processes_rate_each_game_exactly_once_and_lose_no_update(pg_db: str) -> None:
    store = Store.open(pg_db, durable=False)
    try:
        alice, bob = make_account(store, "Alice"), make_account(store, "Bob")
        games = []
        for i in range(8):
            room, _ = seated_room(store, "zeta", [alice, bob], seed=i + 1)
            outcome = {"winners": [i % 3 % 2]}
            finish(store, room.id, outcome)
            games.append((room.id, outcome))
        start = time.time() + 3.0  # both processes start rating at once, each every game, in its own order
        procs = [subprocess.Popen([sys.executable, "-W", "ignore", "-c", WORKER, pg_db, json.dumps(games), str(start),
                                   str(seed)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for seed in (1, 2)]
        applied: list[str] = []
        for proc in procs:
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err
            applied.extend(json.loads(out.strip().splitlines()[-1]))
        assert sorted(applied) == sorted(room for room, _ in games)  # every game once, by one process or the other
        with store.engine.connect() as conn:
            per_game = dict(conn.execute(select(RatingChangeRow.room_id, func.count())
                                         .group_by(RatingChangeRow.room_id)).all())
            assert per_game == {room: 2 for room, _ in games}
            for account in (alice, bob):
                chain = conn.execute(select(RatingChangeRow.mu_before, RatingChangeRow.mu_after)
                                     .where(RatingChangeRow.account_id == account)
                                     .order_by(RatingChangeRow.id)).all()
                assert chain[0].mu_before == r.MU
                for earlier, later in zip(chain, chain[1:], strict=False):  # each game starts from the last one's result
                    assert later.mu_before == pytest.approx(earlier.mu_after)
                row = conn.execute(select(RatingRow.mu, RatingRow.games).where(RatingRow.account_id == account)).one()
                assert row.games == len(games) and row.mu == pytest.approx(chain[-1].mu_after)
    finally:
        store.close()


def test_a_rated_game_over_the_api_on_postgresql_is_rated(pg_db: str, tmp_path: Path) -> None:
    with TestClient(new_app(pg_db)) as client:
        store = client.app.state.services.store  # type: ignore[attr-defined]
        alice, bob = make_account(store, "Alice"), make_account(store, "Bob")
        room, tokens = seated_room(store, "zeta", [alice, bob], seed=3)
        play_out(client, room.id, dict(enumerate(tokens)))
        changes = client.get(f"/api/rooms/{room.id}/games/1/ratings").json()["changes"]
        assert sorted(c["delta"] > 0 for c in changes) == [False, True]


async def rated_games_on_two_servers(a: ServerProcess, b: ServerProcess, rooms: int) -> list[str]:
    """Alice signs up on A, Bob on B; they play ``rooms`` rated Zeta rooms at once, Alice's moves through A
    and Bob's through B; the rooms' ids."""
    async with httpx.AsyncClient(timeout=30) as client:
        people = {}
        for name, server in (("Alice", a), ("Bob", b)):
            made = await client.post(f"{server.url}/api/account/signup",
                                     json={"name": name, "password": "correct horse battery"})
            assert made.status_code == 201, made.text
            people[name] = (server, {"Cookie": f"cardtable_session={made.cookies['cardtable_session']}",
                                     "X-CSRF-Token": made.json()["csrf"]})
            client.cookies.clear()
        made_rooms, players = [], []
        for i in range(rooms):
            room = (await client.post(f"{a.url}/api/rooms", json={"game": "zeta", "rated": True})).json()["room"]["id"]
            made_rooms.append(room)
            for name, (server, headers) in people.items():
                joined = await client.post(f"{server.url}/api/rooms/{room}/join", json={"name": name}, headers=headers)
                assert joined.status_code == 200, joined.text
                players.append(SeatPlayer(server.ws_url, room, joined.json()["token"], f"{room}:{name}:{i}"))
        await asyncio.gather(*(p.play(timeout=60) for p in players))
        assert all(p.outcome is not None for p in players), players
        for room in made_rooms:  # both servers tell the same rating change, made once
            seen = [(await client.get(f"{s.url}/api/rooms/{room}/games/1/ratings")).json() for s in (a, b)]
            assert seen[0] == seen[1] and seen[0]["rated"] and len(seen[0]["changes"]) == 2
    return made_rooms


@pytest.mark.slow
def test_two_server_processes_rate_each_game_of_their_players_once(pg_db: str, tmp_path: Path) -> None:
    a = ServerProcess(pg_db, log=tmp_path / "a.log").start()
    b = ServerProcess(pg_db, log=tmp_path / "b.log").start()
    try:
        rooms = asyncio.run(rated_games_on_two_servers(a, b, 3))
    finally:
        a.stop()
        b.stop()
    store = Store.open(pg_db, migrate=False)
    try:
        with store.engine.connect() as conn:
            per_game = dict(conn.execute(select(RatingChangeRow.room_id, func.count())
                                         .group_by(RatingChangeRow.room_id)).all())
            assert per_game == {room: 2 for room in rooms}
            assert sorted(conn.execute(select(RatingRow.games)).scalars()) == [3, 3]
    finally:
        store.close()
