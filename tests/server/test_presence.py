"""Presence: the sockets of one account, opened at once on any server process, all record it."""

from __future__ import annotations

import threading

from ratings_support import make_account
from sqlalchemy import func, select

from cardtable.store import Store, social
from cardtable.store.social_models import PresenceRow


def test_one_account_seen_by_many_sockets_at_once_is_one_presence_row(db_url: str) -> None:
    store = Store.open(db_url, durable=False)
    try:
        accounts = [make_account(store, f"Player {i}") for i in range(20)]
        start = threading.Barrier(6)
        failures: list[BaseException] = []

        def arrive(room: int) -> None:
            for account in accounts:  # every socket's first sight of each account comes at the same moment
                start.wait()
                try:
                    social.touch(store, account, f"room{room}")
                except BaseException as exc:  # noqa: BLE001 - the test reports any failure below
                    failures.append(exc)

        threads = [threading.Thread(target=arrive, args=(i,)) for i in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert failures == []
        with store.transaction() as conn:
            assert conn.execute(select(func.count()).select_from(PresenceRow)).scalar_one() == len(accounts)
        assert social.online_count(store) == len(accounts)
    finally:
        store.close()
