"""Group commits: the accepted actions of every room of a server process, stored a batch at a time.

Each action waits for the commit that holds it (it is acknowledged only once committed), but the
actions that arrive while one commit is under way are stored together in the next one, with one
fsync (SQLite) or one round of WAL flushing (PostgreSQL) for all of them. With nothing else pending
an action is committed at once, alone, so a quiet server adds no latency. Each action is stored or
refused on its own (:meth:`cardtable.store.Store.append_actions`).
"""

from __future__ import annotations

import asyncio
import logging

from cardtable.store import NewAction, Store

log = logging.getLogger(__name__)

MAX_BATCH = 512
"""The most actions one commit stores."""


class Committer:
    """One writer of actions per process: :meth:`append` waits until its action is committed."""

    def __init__(self, store: Store, *, max_batch: int = MAX_BATCH) -> None:
        self.store = store
        self.max_batch = max_batch
        self._pending: list[tuple[NewAction, asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None
        self.commits = 0
        """Commits made."""
        self.stored = 0
        """Actions stored (over ``commits`` commits)."""

    async def append(self, item: NewAction) -> None:
        """Store ``item`` in the next commit; VersionConflict if it lost its version, the store's error if the
        commit failed (then nothing of its batch is stored)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((item, future))
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._run())
        await future

    async def _run(self) -> None:
        while self._pending:
            batch, self._pending = self._pending[:self.max_batch], self._pending[self.max_batch:]
            try:
                results = await asyncio.to_thread(self.store.append_actions, [item for item, _ in batch])
            except Exception as exc:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                continue
            self.commits += 1
            for (_, future), refused in zip(batch, results, strict=True):
                if future.done():
                    continue
                if refused is None:
                    self.stored += 1
                    future.set_result(None)
                else:
                    future.set_exception(refused)
