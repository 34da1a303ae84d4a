"""Play now over PostgreSQL: two processes pairing the same queue at once (rows taken with ``FOR UPDATE SKIP
LOCKED`` and claimed by a conditional update) never pair a player twice, and every pairing seats two
different accounts in one rated room."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import Counter

import pytest
from ratings_support import make_account
from sqlalchemy import select

from cardtable.store import Store, social
from cardtable.store.models import SeatRow
from cardtable.store.social_models import QueueRow

pytestmark = pytest.mark.postgres

WORKER = """
import json, random, sys, time
from cardtable.server.api.social import pair, _Retry
from cardtable.store import Store
url, accounts, start, seed = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
store = Store.open(url, migrate=False)
random.Random(seed).shuffle(accounts)
time.sleep(max(0.0, start - time.time()))
paired = 0
for account in accounts:
    for _ in range(5):
        try:
            paired += pair(store, account)
            break
        except _Retry:
            continue
store.close()
print(json.dumps(paired))
"""


def test_two_processes_never_pair_a_player_twice(pg_db: str) -> None:
    store = Store.open(pg_db, durable=False)
    try:
        accounts = [make_account(store, f"P{i}") for i in range(16)]
        for account in accounts:
            social.enqueue(store, account, "zeta", 2, "standard", 0.0, None)
        start = time.time() + 3.0  # both processes start at once, each trying every player in its own order
        procs = [subprocess.Popen([sys.executable, "-W", "ignore", "-c", WORKER, pg_db, json.dumps(accounts),
                                   str(start), str(seed)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for seed in (1, 2)]
        pairings = 0
        for proc in procs:
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err
            pairings += json.loads(out.strip().splitlines()[-1])
        assert pairings == 8
        with store.engine.connect() as conn:
            rows = conn.execute(select(QueueRow.account_id, QueueRow.room_id, QueueRow.seat)).all()
            seats = conn.execute(select(SeatRow.room_id, SeatRow.account_id)
                                 .where(SeatRow.account_id.is_not(None))).all()
        assert len(rows) == 16 and all(r.room_id and not r.room_id.startswith("~") for r in rows)
        assert Counter(account for _room, account in seats) == Counter(accounts)  # each seated exactly once
        rooms = Counter(room for room, _account in seats)
        assert len(rooms) == 8 and set(rooms.values()) == {2}
        assert {r.room_id for r in rows} == set(rooms)
    finally:
        store.close()
