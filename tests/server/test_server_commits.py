"""Group commits: actions of several rooms stored in one commit, each stored or refused on its own, and
each acknowledged only once its commit is done."""

from __future__ import annotations

import asyncio

import pytest

from cardtable.server.commits import Committer
from cardtable.store import LeavePolicy, NewAction, SeatStatus, Store, StoreError, VersionConflict


def rooms(store: Store, n: int) -> list[str]:
    return [store.create_room(game="zeta", title="", rules={}, rules_version=1, setup={}, private=False,
                              invite_hash=None, on_leave=LeavePolicy.REOPEN, leave_bot="",
                              seats=[(SeatStatus.BOT, "random"), (SeatStatus.BOT, "random")], seed=i,
                              to_move=0).id for i in range(n)]


def test_one_commit_stores_several_rooms_actions_and_refuses_a_lost_version_alone(db_url: str) -> None:
    store = Store.open(db_url, durable=False)
    a, b, c = rooms(store, 3)
    store.append_action(b, 1, 0, 0, "pass", to_move=1)  # b's version 0 is taken already
    results = store.append_actions([NewAction(a, 1, 0, 0, "pass", 1), NewAction(b, 1, 0, 0, "other", 1),
                                    NewAction(c, 1, 0, 0, "pass", 1), NewAction(c, 1, 1, 1, "pass", 0)])
    assert results[0] is None and isinstance(results[1], VersionConflict) and results[2] is None and results[3] is None
    assert [x.action for x in store.actions(a, 1)] == ["pass"]
    assert [x.action for x in store.actions(b, 1)] == ["pass"]  # the first one stays; the loser left nothing
    assert [x.version for x in store.actions(c, 1)] == [0, 1]
    assert store.room(c).version == 2 and store.room(b).version == 1
    store.close()


def test_a_batch_of_one_action_per_room_refuses_a_lost_version_alone(db_url: str) -> None:
    """The usual batch (distinct rooms, no game ending) is stored with one statement of each kind; when one of
    its actions lost its version, the whole batch is stored again one savepoint each and only that one is
    refused."""
    store = Store.open(db_url, durable=False)
    a, b, c, d = rooms(store, 4)
    store.append_action(b, 1, 0, 0, "pass", to_move=1)
    assert store.append_actions([NewAction(a, 1, 0, 0, "pass", 1), NewAction(d, 1, 0, 0, "pass", 1)]) == [None, None]
    results = store.append_actions([NewAction(a, 1, 1, 1, "pass", 0), NewAction(b, 1, 0, 0, "other", 1),
                                    NewAction(c, 1, 0, 0, "pass", 1), NewAction(d, 1, 5, 1, "pass", 0)])
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], VersionConflict) and isinstance(results[3], VersionConflict)
    assert [x.version for x in store.actions(a, 1)] == [0, 1] and [x.action for x in store.actions(b, 1)] == ["pass"]
    assert [store.room(r).version for r in (a, b, c, d)] == [2, 1, 1, 1]
    lone = store.append_actions([NewAction(c, 1, 0, 1, "again", 0)])
    assert isinstance(lone[0], VersionConflict) and store.room(c).version == 1
    store.close()


def test_actions_arriving_during_a_commit_share_the_next_one(sqlite_db: str) -> None:
    store = Store.open(sqlite_db, durable=False)
    ids = rooms(store, 20)

    async def main() -> Committer:
        committer = Committer(store)
        await asyncio.gather(*(committer.append(NewAction(r, 1, 0, 0, "pass", 1)) for r in ids))
        with pytest.raises(VersionConflict):
            await committer.append(NewAction(ids[0], 1, 0, 0, "again", 1))
        return committer

    committer = asyncio.run(main())
    assert committer.stored == 20 and committer.commits < 20  # grouped: fewer commits than actions
    assert all(store.room(r).version == 1 for r in ids)
    store.close()


def test_a_failed_commit_fails_every_action_of_its_batch(sqlite_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store.open(sqlite_db, durable=False)
    ids = rooms(store, 2)

    def broken(items: object) -> object:
        raise StoreError("disk full")

    monkeypatch.setattr(store, "append_actions", broken)

    async def main() -> list[object]:
        committer = Committer(store)
        return list(await asyncio.gather(*(committer.append(NewAction(r, 1, 0, 0, "pass", 1)) for r in ids),
                                         return_exceptions=True))

    assert all(isinstance(r, StoreError) for r in asyncio.run(main()))
    monkeypatch.undo()
    assert all(store.room(r).version == 0 for r in ids)
    store.close()
