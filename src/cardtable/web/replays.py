"""``/web/rooms/{room_id}/replay/{game_no}[/{step}]``: step through a finished game as a seat saw it, or revealed.

Who may download a game's record may replay it (the server's access check); a few recently replayed
records are kept in memory.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, Field

from cardtable.core import Record, RecordError, replay
from cardtable.core.errors import ErrorCode
from cardtable.core.registry import describer
from cardtable.server import access
from cardtable.server.access import Bearer, Invite, RoomId
from cardtable.server.errors import Refusal
from cardtable.server.services import services_of
from cardtable.store import Store

MAX_STEPS = 100_000
"""The most actions a replayed game may have."""

GameNo = Annotated[int, Path(ge=1, le=1_000_000)]


class ReplayInfo(BaseModel):
    """A finished game to step through."""

    room: str
    game_no: int
    game: str
    rules: dict[str, Any]
    setup: dict[str, Any]
    steps: int = Field(description="How many actions the game has (steps 0 to steps).")
    names: list[str]
    players: list[str]
    actions: list[str]
    outcome: dict[str, Any] | None
    chat: list[dict[str, Any]] = Field(default_factory=list,
                                       description="The chat of the game, as it was sent (the record's meta.chat).")
    end: dict[str, Any] | None = Field(None, description="A resign or timeout that ended the game: {kind, seat} "
                                                         "(the record's meta.end); null: played out.")


class ReplayStep(BaseModel):
    """The game after ``step`` actions, as ``seat`` saw it (null: a spectator) or revealed."""

    step: int
    seat: int | None
    revealed: bool
    view: dict[str, Any]
    to_move: int | None
    events_from: int
    events: list[dict[str, Any]]
    log: list[str]
    outcome: dict[str, Any] | None


def merge_views(base: Any, others: Sequence[Any]) -> Any:
    """What all seats know together: ``base`` (the spectators' view) with every hidden (null) value that some
    seat's view knows filled in, recursively (the revealed view of a finished game).

    >>> merge_views({"hands": [None, None], "turn": 3}, [{"hands": [["a"], None]}, {"hands": [None, ["b"]]}])
    {'hands': [['a'], ['b']], 'turn': 3}
    """
    if base is None:
        for other in others:
            if other is not None:
                return merge_views(other, [o for o in others if o is not other])
        return None
    if isinstance(base, dict):
        return {k: merge_views(v, [o.get(k) for o in others if isinstance(o, dict)]) for k, v in base.items()}
    if isinstance(base, list):
        return [merge_views(v, [o[i] for o in others if isinstance(o, list) and i < len(o)])
                for i, v in enumerate(base)]
    return base


class _Book:
    """A finished game's record, replayed on demand (states are cheap to rebuild from the record)."""

    def __init__(self, record: Record) -> None:
        from cardtable.table import Table

        self.record = record
        table = Table.resume(record)
        self.names = list(table.names)
        self.players = len(table.seats)
        self.lock = threading.Lock()

    def step(self, step: int, seat: int | None, revealed: bool, since: int) -> ReplayStep:
        """The view, the log from ``since`` and the outcome after ``step`` actions."""
        state = replay(self.record, upto=step, events=True)
        if revealed:
            view = merge_views(state.view(None), [state.view(p) for p in range(self.players)])
            view["viewer"] = None
            count = len(state.events_for(None, 0))
            start = since if 0 <= since <= count else 0
            seen = [state.events_for(p, start) for p in range(self.players)]
            events = []
            for parts in zip(*seen, strict=True):
                merged: dict[str, Any] = {}
                for part in parts:
                    merged.update(part)
                events.append(merged)
        else:
            view = state.view(seat)
            count = len(state.events_for(seat, 0))
            start = since if 0 <= since <= count else 0
            events = state.events_for(seat, start)
        describe = describer(self.record.game)
        log = []
        for e in events:
            try:
                log.append(describe(e, self.names))
            except Exception:  # a describer bug must not hide the replay
                log.append(str(e.get("kind", "?")))
        out = state.outcome()
        outcome = out.to_json() if out is not None else None
        if outcome is not None:
            outcome["winner_names"] = [self.names[w] for w in out.winners] if out is not None else []
        return ReplayStep(step=step, seat=None if revealed else seat, revealed=revealed, view=view,
                          to_move=state.current_player, events_from=start, events=events, log=log, outcome=outcome)


class _Books:
    """A few recently replayed records, by room and game number."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self.items: OrderedDict[tuple[str, int], _Book] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[str, int], load: Any) -> _Book:
        """The book of ``key``, reading it with ``load()`` if it is not kept."""
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
                return found
        book = _Book(load())
        with self.lock:
            self.items[key] = book
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return book


def _load_record(store: Store, room_id: str, game_no: int) -> Record:
    """The record of a finished game of a room (a store error if there is none); Refusal if it does not read."""
    data = store.record(room_id, game_no)
    try:
        return Record.from_json(data)
    except RecordError as exc:
        raise Refusal(ErrorCode.CANNOT_RESUME, str(exc), status=409) from None


def routes() -> APIRouter:
    """The replay routes of one app (with their own cache of records)."""
    router = APIRouter(tags=["web"])
    books = _Books()

    @router.get("/web/rooms/{room_id}/replay/{game_no}", response_model=ReplayInfo)
    async def replay_info(request: Request, room_id: RoomId, game_no: GameNo, creds: Bearer,
                          invite: Invite = None) -> ReplayInfo:
        """A finished game of a room, to step through (who may download its record may replay it)."""
        store, _hub = services_of(request).parts()
        await asyncio.to_thread(access.room_access, store, room_id, access.token_of(creds, required=False), invite)
        book = await asyncio.to_thread(books.get, (room_id, game_no), lambda: _load_record(store, room_id, game_no))
        rec = book.record
        return ReplayInfo(room=room_id, game_no=game_no, game=rec.game, rules=rec.rules, setup=rec.setup,
                          steps=len(rec.actions), names=book.names, players=rec.players, actions=rec.actions,
                          outcome=rec.outcome, chat=list(rec.meta.get("chat") or []),
                          end=rec.meta.get("end"))

    @router.get("/web/rooms/{room_id}/replay/{game_no}/{step}", response_model=ReplayStep)
    async def replay_step(request: Request, room_id: RoomId, game_no: GameNo,
                          step: Annotated[int, Path(ge=0, le=MAX_STEPS)], creds: Bearer, invite: Invite = None,
                          seat: Annotated[int | None, Query(ge=0, lt=8)] = None, reveal: bool = False,
                          since: Annotated[int, Query(ge=0, le=10_000_000)] = 0) -> ReplayStep:
        """The game after ``step`` actions as ``seat`` saw it (none: a spectator), or revealed (every seat's
        knowledge together; finished games only), with the log from event ``since``."""
        store, _hub = services_of(request).parts()
        await asyncio.to_thread(access.room_access, store, room_id, access.token_of(creds, required=False), invite)
        book = await asyncio.to_thread(books.get, (room_id, game_no), lambda: _load_record(store, room_id, game_no))
        if step > len(book.record.actions):
            raise Refusal(ErrorCode.NO_SUCH_STEP, f"this game has {len(book.record.actions)} actions", status=404)
        if seat is not None and seat >= book.players:
            raise Refusal(ErrorCode.NO_SUCH_SEAT, f"this game has {book.players} seats", status=404)
        return await asyncio.to_thread(book.step, step, seat, reveal, since)

    return router
