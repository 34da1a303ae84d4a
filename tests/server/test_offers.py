"""Offers between the people at a table, over the socket: a rematch starts only when every seated person accepted
(bots at once), a draw ends the game drawn for all (stored and rated like any finish), a takeback undoes the
offerer's last move (stored: a restart keeps it); a decline, a leave or a move ends an offer and everybody is told;
spectators cannot offer or answer, nobody can answer an offer that is not pending, and an offer carries only seats
and numbers (every state after a takeback is the seat's view of the reference game)."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from fastapi.testclient import TestClient
from ratings_support import make_account, seated_room
from server_support import new_app
from social_support import app_store, play_through, receive_until
from sqlalchemy import select

from cardtable.core import Record, load_game
from cardtable.server.protocol import OfferClosedMsg, OfferMsg
from cardtable.store.models import RatingChangeRow
from cardtable.table import Table

OFFER_KEYS = set(OfferMsg.model_fields)
CLOSED_KEYS = set(OfferClosedMsg.model_fields)
SECRET = re.compile(r'"(?:seed|rng|token|token_hash|invite|invite_hash|target|view|hand|legal)"\s*:')


def hello(client: TestClient, room: str, token: str | None) -> tuple[Any, dict[str, Any]]:
    """A socket that said hello (a seat token, or None to watch) and its first state."""
    ws = client.websocket_connect(f"/api/rooms/{room}/ws").__enter__()
    ws.send_json({"type": "hello", "token": token})
    assert ws.receive_json()["type"] == "welcome"
    return ws, receive_until(ws, "state")


def clean(message: dict[str, Any], keys: set[str]) -> dict[str, Any]:
    """An offer message holds exactly its keys and nothing secret."""
    assert set(message) == keys, set(message)
    assert SECRET.search(json.dumps(message)) is None, message
    return message


def close(*sockets: Any) -> None:
    for ws in sockets:
        ws.__exit__(None, None, None)


def test_a_rematch_waits_for_every_person_and_spectators_cannot_offer(sqlite_db: str) -> None:
    with TestClient(new_app(sqlite_db)) as client:
        store = app_store(client)
        info, tokens = seated_room(store, "zeta", [None, None], rated=False, names=["Aki", "Bo"])
        room = info.id
        watcher, _ = hello(client, room, None)
        watcher.send_json({"type": "offer", "kind": "rematch", "ref": "w"})
        refused = receive_until(watcher, "error")
        assert refused["code"] == "spectator" and refused["ref"] == "w"
        watcher.send_json({"type": "answer", "kind": "draw", "accept": True})
        assert receive_until(watcher, "error")["code"] == "spectator"
        aki, _ = hello(client, room, tokens[0])
        aki.send_json({"type": "offer", "kind": "rematch"})
        assert receive_until(aki, "error")["code"] == "not_finished"  # the game is on
        aki.send_json({"type": "answer", "kind": "draw", "accept": True})
        assert receive_until(aki, "error")["code"] == "no_offer"  # nothing pending to answer
        aki.send_json({"type": "offer", "kind": "shuffle"})
        assert receive_until(aki, "error")["code"] == "bad_message"
        close(aki)
        end = play_through(client, room, {0: tokens[0], 1: tokens[1]})
        assert end["outcome"] is not None
        aki, _ = hello(client, room, tokens[0])
        bo, _ = hello(client, room, tokens[1])
        aki.send_json({"type": "offer", "kind": "rematch", "game_no": 1})
        for ws in (aki, bo, watcher):
            offer = clean(receive_until(ws, "offer"), OFFER_KEYS)
            assert offer["kind"] == "rematch" and offer["by"] == 0 and offer["waiting"] == [1]
            assert offer["accepted"] == [0] and offer["game_no"] == 1
        aki.send_json({"type": "offer", "kind": "rematch"})
        assert receive_until(aki, "error")["code"] == "offer_pending"
        assert client.get(f"/api/rooms/{room}").json()["game_no"] == 1  # nothing starts before Bo agrees
        late, _ = hello(client, room, None)  # a socket that comes meanwhile is told of the pending offer
        assert receive_until(late, "offer")["by"] == 0
        bo.send_json({"type": "answer", "kind": "rematch", "accept": True})
        for ws in (aki, bo, watcher, late):
            closed = clean(receive_until(ws, "offer_closed"), CLOSED_KEYS)
            assert closed["end"] == "accepted" and closed["kind"] == "rematch"
            state = receive_until(ws, "state")
            while state["game_no"] != 2:
                state = receive_until(ws, "state")
            assert state["outcome"] is None and state["version"] == 0
        games = client.get(f"/api/rooms/{room}/history").json()["games"]
        assert [g["status"] for g in games] == ["finished", "playing"]
        close(aki, bo, watcher, late)


def test_a_decline_or_a_leave_ends_a_rematch_offer_and_everybody_is_told(sqlite_db: str) -> None:
    with TestClient(new_app(sqlite_db)) as client:
        store = app_store(client)
        info, tokens = seated_room(store, "zeta", [None, None], rated=False)
        room = info.id
        play_through(client, room, {0: tokens[0], 1: tokens[1]})
        aki, _ = hello(client, room, tokens[0])
        bo, _ = hello(client, room, tokens[1])
        watcher, _ = hello(client, room, None)
        bo.send_json({"type": "offer", "kind": "rematch"})
        receive_until(aki, "offer")
        aki.send_json({"type": "answer", "kind": "rematch", "accept": False})
        for ws in (aki, bo, watcher):
            closed = receive_until(ws, "offer_closed")
            assert closed["end"] == "declined" and closed["seat"] == 0 and closed["by"] == 1
        aki.send_json({"type": "answer", "kind": "rematch", "accept": True})
        assert receive_until(aki, "error")["code"] == "no_offer"
        bo.send_json({"type": "offer", "kind": "rematch"})  # again, and withdrawn
        receive_until(aki, "offer")
        bo.send_json({"type": "answer", "kind": "rematch", "accept": False})
        assert receive_until(aki, "offer_closed")["end"] == "withdrawn"
        aki.send_json({"type": "offer", "kind": "rematch"})  # again, and Bo leaves
        receive_until(watcher, "offer")
        left = client.post(f"/api/rooms/{room}/leave", headers={"Authorization": f"Bearer {tokens[1]}"})
        assert left.status_code == 200
        for ws in (aki, watcher):
            closed = receive_until(ws, "offer_closed")
            while closed["end"] != "left":  # the watcher was told of the withdrawn offer too
                closed = receive_until(ws, "offer_closed")
            assert closed["by"] == 0 and closed["seat"] == 1
        assert client.get(f"/api/rooms/{room}").json()["game_no"] == 1
        close(aki, bo, watcher)


def test_bots_accept_a_rematch_at_once_and_decline_draws_and_takebacks(sqlite_db: str) -> None:
    with TestClient(new_app(sqlite_db)) as client:
        store = app_store(client)
        info, tokens = seated_room(store, "zeta", [None, None], rated=False, bots=[1])
        room = info.id
        aki, state = hello(client, room, tokens[0])
        while state["to_move"] != 0:
            state = receive_until(aki, "state")
        aki.send_json({"type": "offer", "kind": "takeback"})
        assert receive_until(aki, "error")["code"] == "cannot_undo"  # no move of Aki's to take back yet
        aki.send_json({"type": "offer", "kind": "draw"})
        assert receive_until(aki, "offer")["waiting"] == []
        closed = receive_until(aki, "offer_closed")
        assert closed["end"] == "declined" and closed["seat"] == 1 and closed["kind"] == "draw"
        aki.send_json({"type": "action", "action": state["legal"][0], "version": state["version"]})
        receive_until(aki, "accepted")
        aki.send_json({"type": "offer", "kind": "takeback"})
        closed = receive_until(aki, "offer_closed")
        assert closed["end"] in ("declined", "lapsed") and closed["kind"] == "takeback"
        if closed["end"] == "declined":
            assert closed["seat"] == 1
        aki.send_json({"type": "resign"})
        receive_until(aki, "state")
        aki.send_json({"type": "offer", "kind": "rematch"})
        assert receive_until(aki, "offer_closed")["end"] == "accepted"
        state = receive_until(aki, "state")
        while state["game_no"] != 2:
            state = receive_until(aki, "state")
        close(aki)


def test_an_accepted_draw_ends_the_game_for_all_and_a_rated_room_rates_it_as_a_draw(sqlite_db: str) -> None:
    with TestClient(new_app(sqlite_db)) as client:
        store = app_store(client)
        ann, bob = make_account(store, "Ann"), make_account(store, "Bob")
        info, tokens = seated_room(store, "zeta", [ann, bob])
        room = info.id
        play_through(client, room, {0: tokens[0], 1: tokens[1]}, stop_before=4)
        one, _ = hello(client, room, tokens[0])
        two, _ = hello(client, room, tokens[1])
        watcher, _ = hello(client, room, None)
        one.send_json({"type": "offer", "kind": "draw"})
        assert receive_until(two, "offer")["kind"] == "draw"
        two.send_json({"type": "offer", "kind": "draw"})  # offering it back accepts it
        for ws in (one, two, watcher):
            over = receive_until(ws, "state")
            assert over["outcome"]["end"] == "draw" and over["outcome"]["winners"] == []
            assert over["legal"] == [] and over["to_move"] is None
            assert receive_until(ws, "offer_closed")["end"] == "accepted"
        record = Record.from_json(client.get(f"/api/rooms/{room}/records/1").json())
        assert Table.resume(record).outcome()["end"] == "draw"  # the record replays to the agreed draw
        with store.engine.connect() as conn:
            changes = list(conn.execute(select(RatingChangeRow).where(RatingChangeRow.room_id == room)))
        assert len(changes) == 2
        assert abs(changes[0].mu_after - changes[0].mu_before) < 1e-6  # equal players drawing keep their mu
        assert changes[0].sigma_after < changes[0].sigma_before
        close(one, two, watcher)
    with TestClient(new_app(sqlite_db)) as client:  # a restarted server shows the same end
        ws, state = hello(client, room, tokens[1])
        assert state["outcome"]["end"] == "draw"
        close(ws)


def test_a_move_lapses_a_draw_offer_and_only_one_offer_of_a_kind_is_pending(sqlite_db: str) -> None:
    with TestClient(new_app(sqlite_db)) as client:
        store = app_store(client)
        info, tokens = seated_room(store, "zeta", [None, None], rated=False)
        room = info.id
        sockets = {0: hello(client, room, tokens[0]), 1: hello(client, room, tokens[1])}
        mover = sockets[0][1]["to_move"]
        other = 1 - mover
        ws_mover, ws_other = sockets[mover][0], sockets[other][0]
        ws_other.send_json({"type": "offer", "kind": "draw"})
        receive_until(ws_mover, "offer")
        ws_other.send_json({"type": "offer", "kind": "draw"})
        assert receive_until(ws_other, "error")["code"] == "offer_pending"
        state = sockets[mover][1]
        ws_mover.send_json({"type": "action", "action": state["legal"][0], "version": state["version"]})
        closed = receive_until(ws_mover, "offer_closed")
        assert closed["end"] == "lapsed" and closed["seat"] is None
        ws_mover.send_json({"type": "answer", "kind": "draw", "accept": True})
        assert receive_until(ws_mover, "error")["code"] == "no_offer"
        close(ws_mover, ws_other)


def _reference_views(record: Record, version: int) -> dict[int | None, Any]:
    game = load_game(record.game, **record.rules)
    ref = game.new_game(seed=record.seed, record_events=True, **record.setup)
    for action in record.actions[:version]:
        ref.apply(action)
    return {seat: (json.loads(json.dumps(ref.view(seat))), json.loads(json.dumps(ref.events_for(seat, 0))))
            for seat in (0, 1, None)}


def test_an_accepted_takeback_undoes_the_last_move_for_every_socket_and_survives_a_restart(sqlite_db: str) -> None:
    with TestClient(new_app(sqlite_db)) as client:
        store = app_store(client)
        info, tokens = seated_room(store, "zeta", [None, None], rated=False)
        room = info.id
        last = play_through(client, room, {0: tokens[0], 1: tokens[1]}, stop_before=5)
        assert last["version"] == 5
        actions = store.actions(room, 1)
        asker = 1 - actions[-1].seat  # the seat that did not move last: its move and every one after it go
        if not any(a.seat == asker for a in actions):
            asker = 1 - asker
        target = max(a.version for a in actions if a.seat == asker)
        sockets = {seat: hello(client, room, tokens[seat])[0] for seat in (0, 1)}
        watcher, _ = hello(client, room, None)
        sockets[asker].send_json({"type": "offer", "kind": "takeback"})
        offer = clean(receive_until(watcher, "offer"), OFFER_KEYS)
        assert offer["by"] == asker and offer["version"] == 5 and offer["waiting"] == [1 - asker]
        for seat in (0, 1):  # one takeback is pending at a time
            sockets[seat].send_json({"type": "offer", "kind": "takeback"})
            assert receive_until(sockets[seat], "error")["code"] == "offer_pending"
        sockets[1 - asker].send_json({"type": "answer", "kind": "takeback", "accept": True})
        record_so_far = Record(game="zeta", rules_version=info.rules_version, rules=dict(info.rules), seed=info.seed,
                               setup=dict(info.setup), actions=[a.action for a in actions], players=["human", "human"])
        expected = _reference_views(record_so_far, target)
        for seat, ws in [*sockets.items(), (None, watcher)]:
            state = receive_until(ws, "state")
            assert state["version"] == target and state["to_move"] == asker
            assert state["events_from"] == 0  # the whole log again: it got shorter
            assert (state["view"], state["events"]) == expected[seat], f"the view of seat {seat} after the takeback"
            assert bool(state["legal"]) == (seat == asker)
            assert receive_until(ws, "offer_closed")["end"] == "accepted"
        assert [a.version for a in store.actions(room, 1)] == list(range(target))
        close(*sockets.values(), watcher)
    with TestClient(new_app(sqlite_db)) as client:  # a restarted server resumes the game taken back
        ws, state = hello(client, room, tokens[asker])
        assert state["version"] == target and state["to_move"] == asker
        choice = state["legal"][-1]
        ws.send_json({"type": "action", "action": choice, "version": target})
        assert receive_until(ws, "accepted")["version"] == target + 1
        assert app_store(client).actions(room, 1)[-1].action == choice
        close(ws)


def test_a_bot_only_room_plays_at_the_servers_pace_while_somebody_watches(sqlite_db: str) -> None:
    with TestClient(new_app(sqlite_db, bot_pace=0.4)) as client:
        store = app_store(client)
        info, _ = seated_room(store, "zeta", [None, None], rated=False, bots=[0, 1])
        hub = client.app.state.services.hub  # type: ignore[attr-defined]
        assert hub.bot_pace == 0.4
        ws, state = hello(client, info.id, None)
        assert state["watchers"] == 1  # the count of sockets without a seat, never who
        other, second = hello(client, info.id, None)
        assert second["watchers"] == 2
        close(other)
        times = []
        for _ in range(4):
            state = receive_until(ws, "state")
            times.append(time.monotonic())
        gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
        assert min(gaps) >= 0.3, gaps
        assert state["watchers"] == 1
        close(ws)
