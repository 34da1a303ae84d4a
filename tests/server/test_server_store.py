"""The store: migrations, rooms, seats and tokens, append-only actions, records; SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from cardtable.store import (
    BadToken,
    GameFinished,
    GameNotFinished,
    LeavePolicy,
    NoSuchRoom,
    SeatStatus,
    SeatUnavailable,
    Store,
    VersionConflict,
)
from cardtable.store.models import Base

H1, H2, H3 = "1" * 64, "2" * 64, "3" * 64


def new_room(store: Store, *, seats: list[tuple[SeatStatus, str]] | None = None,
             on_leave: LeavePolicy = LeavePolicy.REOPEN, private: bool = False, **extra: Any) -> str:
    room = store.create_room(game="zeta", title="t", rules={}, rules_version=1, setup={}, private=private,
                             invite_hash="9" * 64 if private else None, on_leave=on_leave, leave_bot="random",
                             seats=seats or [(SeatStatus.OPEN, "human"), (SeatStatus.OPEN, "human")],
                             seed=123456789012, to_move=0, **extra)
    return room.id


def test_migrations_create_exactly_the_models_schema(db_url: str) -> None:
    store = Store.open(db_url)
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        tables = set(sa.inspect(conn).get_table_names())
    assert diff == []
    assert {"rooms", "seats", "games", "actions", "records", "lab_runs", "lab_games", "alembic_version"} <= tables
    Store.open(db_url).close()  # opening again (migrations already applied) is harmless
    store.close()


def test_actions_are_unique_per_room_game_and_version(db_url: str) -> None:
    store = Store.open(db_url)
    unique = [set(u["column_names"]) for u in sa.inspect(store.engine).get_unique_constraints("actions")]
    assert {"room_id", "game_no", "version"} in unique
    store.close()


def test_a_room_starts_when_every_seat_is_filled(db_url: str) -> None:
    store = Store.open(db_url)
    room = new_room(store)
    info = store.room(room)
    assert not info.started and info.open_seats == [0, 1] and info.version == 0 and info.seed == 123456789012
    seat, after = store.join(room, None, "Alice", H1)
    assert seat == 0
    assert [s.status for s in after.seats] == [SeatStatus.TAKEN, SeatStatus.OPEN] and not after.started
    assert after.seats[0].name == "Alice" and store.seat_of(room, H1) == 0
    seat, after = store.join(room, 1, "Bob", H2)
    assert seat == 1
    assert after.started and after.open_seats == []
    assert store.token_hashes(room) == {0: H1, 1: H2}
    store.close()


def test_a_taken_seat_cannot_be_joined_and_a_missing_seat_is_named(db_url: str) -> None:
    store = Store.open(db_url)
    room = new_room(store)
    store.join(room, 0, "Alice", H1)
    with pytest.raises(SeatUnavailable, match="already taken"):
        store.join(room, 0, "Eve", H2)
    with pytest.raises(SeatUnavailable, match="no seat 5"):
        store.join(room, 5, "Eve", H2)
    store.join(room, None, "Bob", H2)
    with pytest.raises(SeatUnavailable, match="no seat of this room is open"):
        store.join(room, None, "Eve", H3)
    with pytest.raises(NoSuchRoom):
        store.join("nope", None, "Eve", H3)
    store.close()


def test_leaving_revokes_the_token_and_reopens_or_hands_the_seat_to_the_bot(db_url: str) -> None:
    store = Store.open(db_url)
    reopen = new_room(store)
    store.join(reopen, 0, "Alice", H1)
    seat, after = store.leave(reopen, H1)
    assert seat == 0 and after.seats[0].status is SeatStatus.OPEN and after.seats[0].name == ""
    assert store.seat_of(reopen, H1) is None
    with pytest.raises(BadToken):
        store.leave(reopen, H1)  # a revoked token is gone for good
    bot = new_room(store, on_leave=LeavePolicy.BOT)
    store.join(bot, 0, "Alice", H2)
    _, after = store.leave(bot, H2)
    assert after.seats[0].status is SeatStatus.BOT and after.seats[0].spec == "random"
    store.close()


def test_two_joins_of_one_seat_at_once_give_it_to_one_person(db_url: str) -> None:
    store = Store.open(db_url)
    for _ in range(5):
        room = new_room(store)
        results: list[str] = []
        barrier = threading.Barrier(4)

        def take(i: int, room: str = room, barrier: threading.Barrier = barrier, results: list[str] = results) -> None:
            barrier.wait()
            try:
                store.join(room, 0, f"p{i}", f"{i}{room}".ljust(64, "x")[:64])
                results.append("ok")
            except SeatUnavailable:
                results.append("taken")

        threads = [threading.Thread(target=take, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == ["ok", "taken", "taken", "taken"]
    store.close()


def test_an_action_is_stored_once_per_version(db_url: str) -> None:
    store = Store.open(db_url)
    room = new_room(store)
    store.append_action(room, 1, 0, 0, "chant_practice@a1", to_move=1)
    with pytest.raises(VersionConflict):
        store.append_action(room, 1, 0, 1, "chant_practice@b1", to_move=0)
    with pytest.raises(VersionConflict):
        store.append_action(room, 1, 5, 1, "chant_practice@b1", to_move=0)  # a version the game is not at
    store.append_action(room, 1, 1, 1, "chant_practice@b1", to_move=0)
    assert [(a.version, a.seat, a.action) for a in store.actions(room, 1)] == [
        (0, 0, "chant_practice@a1"), (1, 1, "chant_practice@b1")]
    assert [a.version for a in store.actions(room, 1, start=1)] == [1]
    info = store.room(room)
    assert info.version == 2 and info.to_move == 0
    store.close()


def test_two_writers_of_one_version_at_once_one_wins(db_url: str) -> None:
    """Two stores (as two server processes) over one database: exactly one action per version."""
    first, second = Store.open(db_url), Store.open(db_url)
    for _ in range(5):
        room = new_room(first)
        outcome: list[str] = []
        barrier = threading.Barrier(2)

        def write(store: Store, action: str, room: str = room, barrier: threading.Barrier = barrier,
                  outcome: list[str] = outcome) -> None:
            barrier.wait()
            try:
                store.append_action(room, 1, 0, 0, action, to_move=1)
                outcome.append(action)
            except VersionConflict:
                outcome.append("conflict")

        threads = [threading.Thread(target=write, args=(s, a)) for s, a in ((first, "a"), (second, "b"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcome) in (["a", "conflict"], ["b", "conflict"])
        assert len(first.actions(room, 1)) == 1
    first.close()
    second.close()


def test_the_last_action_and_the_record_commit_together(db_url: str) -> None:
    store = Store.open(db_url)
    room = new_room(store)
    with pytest.raises(GameNotFinished):
        store.record(room, 1)
    record = {"format": 1, "game": "zeta", "actions": ["pass"]}
    store.append_action(room, 1, 0, 0, "pass", to_move=None, record=record, outcome={"winners": [0]})
    assert store.record(room, 1) == record
    info = store.room(room)
    assert info.finished and info.to_move is None
    with pytest.raises(VersionConflict):
        store.append_action(room, 1, 1, 1, "pass", to_move=None)  # nothing after the end
    with pytest.raises(GameFinished):
        store.join(room, 0, "Late", H1)
    [game] = store.history(room)
    assert game.game_no == 1 and game.finished_at is not None and game.outcome == {"winners": [0]}
    store.close()


def test_a_rematch_starts_the_next_game_with_the_same_seats(db_url: str) -> None:
    store = Store.open(db_url)
    room = new_room(store)
    store.join(room, 0, "Alice", H1)
    store.join(room, 1, "Bob", H2)
    with pytest.raises(GameNotFinished):
        store.rematch(room, 1, 99, 1)
    store.append_action(room, 1, 0, 0, "pass", to_move=None, record={"x": 1}, outcome={})
    after = store.rematch(room, 1, 99, 1)
    assert after.game_no == 2 and after.seed == 99 and after.version == 0 and after.started and not after.finished
    assert store.seat_of(room, H1) == 0
    with pytest.raises(VersionConflict):
        store.rematch(room, 1, 100, 0)  # a second rematch of game 1
    assert [g.game_no for g in store.history(room)] == [1, 2]
    store.append_action(room, 2, 0, 1, "pass", to_move=0)
    assert [a.action for a in store.actions(room, 2)] == ["pass"] and len(store.actions(room, 1)) == 1
    store.close()


def test_listing_shows_public_rooms_with_an_open_seat(db_url: str) -> None:
    store = Store.open(db_url)
    public = new_room(store)
    hidden = new_room(store, private=True)
    full = new_room(store)
    store.join(full, 0, "A", H1)
    store.join(full, 1, "B", H2)
    listed = [r.id for r in store.list_rooms()]
    assert public in listed and hidden not in listed and full not in listed
    everything = [r.id for r in store.list_rooms(open_only=False)]
    assert public in everything and full in everything and hidden not in everything
    assert len(store.list_rooms(open_only=False, limit=1)) == 1
    assert store.list_rooms(open_only=False, offset=100) == []
    store.close()


def test_rooms_to_resume_are_started_games_with_a_bot_to_move(db_url: str) -> None:
    store = Store.open(db_url)
    bot_first = new_room(store, seats=[(SeatStatus.BOT, "random"), (SeatStatus.BOT, "random")])
    waiting = new_room(store, seats=[(SeatStatus.BOT, "random"), (SeatStatus.OPEN, "human")])
    person_first = new_room(store, seats=[(SeatStatus.OPEN, "human"), (SeatStatus.BOT, "random")])
    store.join(person_first, 0, "A", H1)
    due = store.rooms_to_resume()
    assert bot_first in due and waiting not in due and person_first not in due
    store.append_action(person_first, 1, 0, 0, "x", to_move=1)
    assert person_first in store.rooms_to_resume()
    store.close()


def test_stored_text_is_limited(db_url: str) -> None:
    store = Store.open(db_url)
    room = new_room(store)
    with pytest.raises(ValueError, match="at most 64"):
        store.join(room, 0, "x" * 65, H1)
    store.close()


@pytest.mark.postgres
def test_postgres_notifies_other_processes_of_each_commit(pg_db: str) -> None:
    """PG-only: an action committed by one store reaches another store's listener."""
    writer, reader = Store.open(pg_db), Store.open(pg_db)
    got: list[Any] = []
    seen = threading.Event()

    def on_change(change: Any) -> None:
        got.append(change)
        if change.kind == "action":
            seen.set()

    listener = reader.listen(on_change, lambda: None)
    assert listener is not None and listener.ready.wait(10)
    room = new_room(writer)
    writer.append_action(room, 1, 0, 0, "pass", to_move=1)
    assert seen.wait(10)
    action = [c for c in got if c.kind == "action"][0]
    assert (action.room_id, action.game_no, action.version, action.origin) == (room, 1, 1, writer.origin)
    listener.stop()
    writer.close()
    reader.close()


def test_sqlite_sends_no_notifications(sqlite_db: str) -> None:
    store = Store.open(sqlite_db)
    assert store.listen(lambda c: None, lambda: None) is None
    store.close()
