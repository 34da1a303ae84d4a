"""The live rooms of one server process: their tables, their sockets, their bots.

A room is loaded (its table rebuilt from the store) while a socket watches it or a bot has to move,
and dropped when neither holds. Everything that reads or changes a room's table holds the room's
lock, so no socket ever sees an action before it is committed:

1. play it at the table, which checks it once (stale version, not your turn, illegal: refused, nothing
   changed);
2. store it (``Store.append_actions``: the actions of every room that arrive while a commit is
   under way go together in the next one, :mod:`cardtable.server.commits`); if another process
   stored an action at this version first (the unique constraint), reload the room from the store
   and refuse with ``stale_version``;
3. acknowledge it to its sender, then send every socket its own state (view, log, legal actions).

The seated persons of a room may offer each other a rematch, a draw or a takeback
(:mod:`cardtable.server.offers`): the offers live here, with the room; what an accepted one does is
stored like any change (the next game, a drawn end like a resignation, the game taken back).

Store calls and bot decisions run in worker threads and processes, never on the event loop. With
PostgreSQL, a committed change in another process arrives as a notification and the room catches up
from the store.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from cardtable.core import IllegalAction, InvalidAction
from cardtable.core.errors import ErrorCode
from cardtable.core.registry import plain_describe_event
from cardtable.core.rng import fresh_seed
from cardtable.store import (
    Change,
    Listener,
    NewAction,
    RoomInfo,
    SeatInfo,
    SeatStatus,
    Store,
    StoredAction,
    StoreError,
    VersionConflict,
    social,
)
from cardtable.store.models import utcnow
from cardtable.store.social import ChatLine, ClockState
from cardtable.store.social_models import ClockKind
from cardtable.table import EndKind, Hint, Table, TableError, UndoPolicy

from .bots import BotFailed, BotPhase, BotRunner, BotStatus
from .commits import Committer
from .errors import Refusal
from .offers import Offer, changed_person
from .protocol import (
    Accepted,
    BotMsg,
    ChatLineOut,
    ChatLogMsg,
    ChatMsg,
    ClockOut,
    CloseCode,
    ErrorMsg,
    OfferEnd,
    OfferKind,
    RoomMsg,
    StateMsg,
    Welcome,
)
from .rooms import build_table, control_characters, first_player, reseat, room_out

log = logging.getLogger(__name__)


class Connection:
    """One socket: its seat (None: a spectator), its token's hash, how much of the log it has, its outbox."""

    def __init__(self, seat: int | None, token_hash: str | None, *, queue_limit: int = 256,
                 account_id: str | None = None, name: str = "", address: str = "unknown") -> None:
        self.seat = seat
        self.token_hash = token_hash
        self.account_id = account_id
        """The signed-in account of the socket (None: a guest)."""
        self.name = name
        """The account's name (a spectator's chat label)."""
        self.address = address
        self.silenced: set[str] = set()
        """Accounts whose chat this socket is not sent (muted, blocked or blocking)."""
        self.seen_at = 0.0
        """When this socket last recorded its account's presence (loop time)."""
        self.cursor = 0
        """How many events of the seat's log this socket has been sent."""
        self.game_no = 0
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.queue_limit = queue_limit
        self.close_code: CloseCode | None = None

    def push(self, message: BaseModel | str) -> None:
        """Queue a message, or its JSON text (a client too slow to read its messages is disconnected)."""
        if self.close_code is not None:
            return
        if self.outbox.qsize() >= self.queue_limit:
            self.close(CloseCode.TOO_SLOW)
            return
        self.outbox.put_nowait(message if isinstance(message, str) else message.model_dump_json())

    def close(self, code: CloseCode) -> None:
        """Send what is queued, then close the socket with ``code``."""
        if self.close_code is None:
            self.close_code = code
            self.outbox.put_nowait(None)


class LiveRoom:
    """A loaded room: its stored metadata, its table, its sockets, its lock and its bot."""

    def __init__(self, info: RoomInfo, table: Table) -> None:
        self.id = info.id
        self.info = info
        self.table = table
        self.conns: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None
        self.evicted = False
        self.shown = table.version
        """The version of the last state this room's sockets were sent (each later version gets its own)."""
        self.bot_status: BotStatus | None = None
        """Where the bot's move stands while it waits or thinks (told to every socket, and to new ones)."""
        self.clock: ClockState | None = None
        """The game's clock as stored (None: the room has no clock)."""
        self.offers: dict[OfferKind, Offer] = {}
        """The pending offers, one of each kind at most (the room stays loaded while one is pending)."""
        self.moved_at = 0.0
        """When its sockets were last sent a new version (``time.monotonic``; bot-only rooms are paced from it)."""

    def tell_bot(self, status: BotStatus | None) -> None:
        """Tell every socket where the bot's move stands (only when that changed)."""
        if status == self.bot_status:
            return
        self.bot_status = status
        if status is not None:
            message = bot_message(status)
            for conn in list(self.conns):
                conn.push(message)

    @property
    def bot_due(self) -> bool:
        """True when the game is on and a bot decides next."""
        info, seat = self.info, self.table.current_seat
        return (info.started and not self.table.is_over and seat is not None
                and info.seats[seat].status is SeatStatus.BOT)


def refusal_of(exc: Exception) -> Refusal:
    """The refusal a client gets for an engine or table error (never the position summary)."""
    if isinstance(exc, Refusal):
        return exc
    if isinstance(exc, TableError):
        return Refusal(ErrorCode(exc.code), str(exc), status=409)
    if isinstance(exc, IllegalAction):
        return Refusal(ErrorCode.ILLEGAL_ACTION, f"illegal action {str(exc.action)!r}: {exc.reason}", rule=exc.rule)
    if isinstance(exc, InvalidAction):
        return Refusal(ErrorCode.INVALID_ACTION, f"not an action of this game: {exc.reason}")
    if isinstance(exc, StoreError):
        return Refusal(ErrorCode(exc.code), exc.message, status=409)
    return Refusal(ErrorCode.INVALID_ACTION, "this action could not be read")


class Hub:
    """Every live room of this process."""

    def __init__(self, store: Store, bots: BotRunner, *, queue_limit: int = 256, max_connections: int = 64,
                 group_commits: bool = True, bot_pace: float = 0.0) -> None:
        self.store = store
        self.committer = Committer(store) if group_commits else None
        """Stores the actions of every room a batch at a time (None: one commit per action)."""
        self.bots = bots
        self.queue_limit = queue_limit
        self.max_connections = max_connections
        self.rooms: dict[str, LiveRoom] = {}
        self._loading: dict[str, asyncio.Future[LiveRoom]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._listener: Listener | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.stopping = False
        self.now: Callable[[], datetime] = utcnow
        """The clock the rooms' clocks read (tests put a fake one here)."""
        self.clock_interval = 1.0
        """How often (seconds) this process looks for deadlines that have passed (0: never by itself)."""
        self.chat_limit: Callable[[str], bool] = lambda _who: True
        """Counts a chat message of a sender (an account, seat or address); False past the rate limit."""
        self.bot_pace = bot_pace
        """The least seconds between two moves of a room where no person is seated (0: as fast as bots decide)."""

    # -- life ---------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Listen for other processes' changes, and set the bots of unfinished games moving."""
        self._loop = asyncio.get_running_loop()
        self._listener = self.store.listen(self._on_change_threadsafe, self._on_reconnect_threadsafe)
        if self._listener is not None:
            await asyncio.to_thread(self._listener.ready.wait, 10.0)
        for room_id in await asyncio.to_thread(self.store.rooms_to_resume):
            self._spawn(self.wake(room_id))
        if self.clock_interval > 0:
            self._spawn(self._clock_loop())

    async def stop(self) -> None:
        """Stop the bots and the listener, and close every socket."""
        self.stopping = True
        if self._listener is not None:
            await asyncio.to_thread(self._listener.stop)
        for task in list(self._tasks):
            task.cancel()
        for live in list(self.rooms.values()):
            if live.bot_task is not None:
                live.bot_task.cancel()
            for conn in live.conns:
                conn.close(CloseCode.FULL)
        await asyncio.gather(*self._tasks, *(r.bot_task for r in self.rooms.values() if r.bot_task),
                             return_exceptions=True)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("room task failed", exc_info=task.exception())

    # -- loading ------------------------------------------------------------------------------------
    async def live(self, room_id: str) -> LiveRoom:
        """The loaded room (loading it from the store if needed); Refusal/StoreError if it cannot be."""
        found = self.rooms.get(room_id)
        if found is not None:
            return found
        pending = self._loading.get(room_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[LiveRoom] = asyncio.get_running_loop().create_future()
        self._loading[room_id] = future
        try:
            live = await self._load(room_id)
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError):
                future.cancel()
            else:
                future.set_exception(exc)
                future.exception()  # retrieved: only waiters care
            raise
        finally:
            self._loading.pop(room_id, None)
        self.rooms[room_id] = live
        future.set_result(live)
        return live

    async def _load(self, room_id: str) -> LiveRoom:
        info, table = await asyncio.to_thread(self._read, room_id)
        live = LiveRoom(info, table)
        await self._sync_clock(live)
        return live

    def _end_of(self, info: RoomInfo) -> dict[str, Any] | None:
        """The recorded end (no action) of a finished game, if it ended so."""
        return social.game_end(self.store, info.id, info.game_no) if info.finished else None

    def _read(self, room_id: str) -> tuple[RoomInfo, Table]:
        info = self.store.room(room_id)
        return info, build_table(info, self.store.actions(room_id, info.game_no), self._end_of(info))

    def _read_from(self, room_id: str, game_no: int, shown: int) -> tuple[RoomInfo, Table, list[StoredAction]]:
        """The room, its table at version ``shown`` (when it is the same game and the store has that many
        actions; else at its newest) and the stored actions after the table's version, in order."""
        info = self.store.room(room_id)
        actions = self.store.actions(room_id, info.game_no)
        end = self._end_of(info)
        if info.game_no == game_no and len(actions) >= shown and (end is None or len(actions) == shown):
            return info, build_table(info, actions[:shown], end), actions[shown:]
        return info, build_table(info, actions, end), []

    def _maybe_evict(self, live: LiveRoom) -> None:
        if (not live.conns and not (live.bot_task is not None and not live.bot_task.done()) and not live.lock.locked()
                and not live.offers):
            live.evicted = True
            if self.rooms.get(live.id) is live:
                del self.rooms[live.id]

    async def wake(self, room_id: str, info: RoomInfo | None = None) -> None:
        """Load a room if a bot of it has to move, and set it moving (after a join, a rematch, a restart)."""
        live = self.rooms.get(room_id)
        if live is None:
            if info is None:
                info = await asyncio.to_thread(self.store.room, room_id)
            seat = info.to_move
            if info.social.clock is not ClockKind.NONE and info.started and not info.finished:
                live = await self.live(room_id)  # loading it starts (and stores) the clock of the seat to move
                async with live.lock:
                    if not live.evicted:
                        await self._sync_clock(live)
            elif not (info.started and not info.finished and seat is not None
                      and info.seats[seat].status is SeatStatus.BOT):
                return
            else:
                live = await self.live(room_id)
        self._kick(live)
        self._maybe_evict(live)

    # -- sockets ------------------------------------------------------------------------------------
    async def attach(self, room_id: str, conn: Connection, since: int) -> LiveRoom:
        """Add a socket to its room and send it the welcome, its state (log from event ``since``) and the
        room's recent chat (if it has any)."""
        if conn.account_id is not None:
            conn.silenced = await asyncio.to_thread(social.silenced, self.store, conn.account_id)
            await asyncio.to_thread(social.touch, self.store, conn.account_id, room_id)
        chat = await asyncio.to_thread(social.recent_chat, self.store, room_id)
        while True:
            live = await self.live(room_id)
            async with live.lock:
                if live.evicted:
                    continue
                if len(live.conns) >= self.max_connections:
                    raise Refusal(ErrorCode.ROOM_FULL, "this room has too many connections", status=409)
                live.conns.add(conn)
                conn.game_no = live.info.game_no
                conn.cursor = since if 0 <= since <= live.table.event_count else 0
                conn.push(Welcome(seat=conn.seat, room=room_out(live.info)))
                conn.push(self._state(live, conn))
                lines = [chat_out(line) for line in chat
                         if line.account_id is None or line.account_id not in conn.silenced]
                if lines:
                    conn.push(ChatLogMsg(messages=lines))
                if live.bot_status is not None:
                    conn.push(bot_message(live.bot_status))
                for offer in live.offers.values():
                    conn.push(offer.message())
            self._kick(live)
            return live

    async def detach(self, live: LiveRoom, conn: Connection) -> None:
        """Remove a socket from its room (the room is dropped when nothing needs it)."""
        live.conns.discard(conn)
        self._maybe_evict(live)
        if conn.account_id is not None:
            try:
                await asyncio.to_thread(social.touch, self.store, conn.account_id, None)
            except Exception:
                log.warning("recording presence failed", exc_info=True)

    async def seen(self, conn: Connection) -> None:
        """Record a socket's account as present (at most every 30 seconds: on its pings)."""
        loop = asyncio.get_running_loop()
        if conn.account_id is None or loop.time() - conn.seen_at < 30:
            return
        conn.seen_at = loop.time()
        await asyncio.to_thread(social.touch, self.store, conn.account_id, None, keep_room=True)

    def _tell(self, live: LiveRoom, message: BaseModel) -> None:
        """Send one message to every socket of the room (serialised once)."""
        text = message.model_dump_json()
        for conn in list(live.conns):
            conn.push(text)

    def resilence(self, account_id: str, silenced: set[str]) -> None:
        """An account's mutes or blocks changed: its sockets in this process stop (or start) receiving chat."""
        for live in list(self.rooms.values()):
            for conn in live.conns:
                if conn.account_id == account_id:
                    conn.silenced = set(silenced)

    async def resync(self, live: LiveRoom, conn: Connection, since: int) -> None:
        """Send a socket its state again, with its log from event ``since``."""
        async with live.lock:
            conn.cursor = since if 0 <= since <= live.table.event_count else 0
            conn.push(self._state(live, conn))

    def _state(self, live: LiveRoom, conn: Connection, shared: dict[Any, Any] | None = None) -> StateMsg:
        """The socket's state message; advances its log cursor. Call with the room's lock held.

        ``shared`` caches what sockets of one broadcast have in common (a seat's view, its log from an
        index, the labels, the outcome)."""
        table, seat = live.table, conn.seat
        cache: dict[Any, Any] = {} if shared is None else shared
        if conn.game_no != live.info.game_no:
            conn.game_no, conn.cursor = live.info.game_no, 0
        if conn.cursor > table.event_count:  # the log got shorter (a takeback): the socket gets it whole again
            conn.cursor = 0
        start = conn.cursor
        key = ("log", seat, start)
        if key not in cache:
            events = table.events(seat, start)
            cache[key] = (events, _log_lines(table, seat, start, events))
        events, words = cache[key]
        conn.cursor = start + len(events)
        if ("view", seat) not in cache:
            cache["view", seat] = table.view(seat)
        if "names" not in cache:
            cache["names"] = list(table.names)
            cache["outcome"] = table.outcome()
            cache["to_move"] = table.current_seat
            cache["watchers"] = sum(1 for c in live.conns if c.seat is None)
        return StateMsg.model_construct(
            type="state", game_no=live.info.game_no, version=table.version, seat=seat, started=live.info.started,
            to_move=cache["to_move"], view=cache["view", seat], events_from=start, events=events, log=words,
            legal=table.legal(seat) if live.info.started and seat == cache["to_move"] else [],
            names=cache["names"], outcome=cache["outcome"], clock=self._clock_out(live, cache),
            watchers=cache["watchers"])

    def _clock_out(self, live: LiveRoom, cache: dict[Any, Any]) -> ClockOut | None:
        """The clock in the server's time (built once per broadcast)."""
        if "clock" in cache:
            return cache["clock"]  # type: ignore[no-any-return]
        cfg, clock = live.info.social, live.clock
        out = None
        if cfg.clock is not ClockKind.NONE:
            now = self.now()
            running = clock is not None and clock.version == live.table.version and not live.table.is_over
            seat = clock.seat if running and clock is not None else None
            remaining = list(clock.remaining_ms) if clock is not None else []
            if cfg.clock is ClockKind.REALTIME and len(remaining) != len(live.info.seats):
                remaining = [cfg.base_s * 1000] * len(live.info.seats)
            deadline = clock.deadline_at if seat is not None and clock is not None else None
            if cfg.clock is ClockKind.REALTIME and seat is not None and deadline is not None:
                remaining[seat] = max(0, int((deadline - now).total_seconds() * 1000))
            out = ClockOut(kind=cfg.clock, seat=seat, remaining_ms=remaining, deadline_at=deadline, now=now,
                           increment_s=cfg.increment_s, move_s=cfg.move_s)
        cache["clock"] = out
        return out

    def _broadcast(self, live: LiveRoom, room_changed: bool = False) -> None:
        """Send every socket its state (and the room, if it changed). Each distinct message is built and
        serialised once: sockets of one seat at the same point of the log (spectators, a person's
        tabs) share its text. Offers the game has left behind lapse first."""
        self._lapse_offers(live)
        if live.shown != live.table.version:
            live.moved_at = time.monotonic()
        live.shown = live.table.version
        shared: dict[Any, Any] = {}
        room = RoomMsg(room=room_out(live.info)).model_dump_json() if room_changed else None
        texts: dict[tuple[int | None, int, int], str] = {}
        for conn in list(live.conns):
            if room is not None:
                conn.push(room)
            key = (conn.seat, conn.cursor if conn.game_no == live.info.game_no else 0, live.info.game_no)
            text = texts.get(key)
            if text is None:
                text = texts[key] = self._state(live, conn, shared).model_dump_json()
            else:
                self._advance(live, conn)
            conn.push(text)

    def _advance(self, live: LiveRoom, conn: Connection) -> None:
        """Move a socket's log cursor to the end, as sending it the state would (its text was shared)."""
        conn.game_no, conn.cursor = live.info.game_no, live.table.event_count

    # -- playing ------------------------------------------------------------------------------------
    async def play(self, live: LiveRoom, seat: int, action: str, version: int, *,
                   conn: Connection | None = None, ref: str | int | None = None) -> None:
        """Play ``seat``'s action chosen at ``version``; acknowledged once committed. Refusal if refused."""
        await asyncio.shield(self._play(live, seat, action, version, conn, ref))
        self._kick(live)
        self._maybe_evict(live)

    async def _play(self, live: LiveRoom, seat: int, action: str, version: int, conn: Connection | None,
                    ref: str | int | None, game_no: int | None = None) -> None:
        async with live.lock:
            if live.evicted or (game_no is not None and game_no != live.info.game_no):
                raise Refusal(ErrorCode.STALE_VERSION, "the room has moved on; send the action again", status=409)
            info, table = live.info, live.table
            if not info.started and not table.is_over:
                raise Refusal(ErrorCode.NOT_STARTED, "the game starts when every seat is filled", status=409)
            try:
                act = table.play(seat, action, version)
            except (TableError, IllegalAction, InvalidAction) as exc:
                raise refusal_of(exc) from None
            except Exception:  # an engine bug on odd input must not take the room down
                log.exception("playing %r in room %s failed", action, live.id)
                await self._reload(live)
                raise Refusal(ErrorCode.INVALID_ACTION, "this action could not be read") from None
            record = outcome = None
            if table.is_over:
                record, outcome = await self._final_record(live)
            try:
                item = NewAction(live.id, info.game_no, version, seat, str(act), table.current_seat, record, outcome)
                if self.committer is not None:
                    await self.committer.append(item)
                else:
                    await asyncio.to_thread(self.store.append_action, live.id, info.game_no, version, seat, str(act),
                                            to_move=table.current_seat, record=record, outcome=outcome)
            except VersionConflict:
                await self._reload(live)
                raise Refusal(ErrorCode.STALE_VERSION, "another action was accepted at this version first", status=409) from None
            except Exception:
                log.exception("storing an action of room %s failed", live.id)
                await self._reload(live)
                raise Refusal(ErrorCode.STORAGE_ERROR, "the action could not be stored; try again", status=503) from None
            live.info = _moved(info, table)
            if conn is not None:
                conn.push(Accepted(version=table.version, action=str(act), ref=ref))
            await self._sync_clock(live, mover=seat)
            self._broadcast(live)

    async def _final_record(self, live: LiveRoom) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The finished game's record (its chat in ``meta.chat``) and outcome; the lock is held."""
        table = live.table
        record = table.record().to_json()
        try:
            lines = await asyncio.to_thread(social.game_chat, self.store, live.id, live.info.game_no)
        except Exception:
            log.warning("reading the chat of room %s failed; the record goes without it", live.id, exc_info=True)
            lines = []
        if lines:
            record["meta"]["chat"] = [chat_out(line).model_dump(mode="json") for line in lines]
        return record, table.outcome()

    # -- clocks -------------------------------------------------------------------------------------
    def _runner(self, live: LiveRoom) -> int | None:
        """The person seat whose time runs now (None: a bot's or an open seat's turn, not started, or over)."""
        info, table = live.info, live.table
        seat = table.current_seat
        if not info.started or table.is_over or seat is None or info.seats[seat].status is not SeatStatus.TAKEN:
            return None
        return seat

    async def _sync_clock(self, live: LiveRoom, mover: int | None = None) -> None:
        """Bring the room's clock to its table (the lock is held, or the room is loading): after ``mover``'s
        action the time it used is taken and its increment added; after a seat change or a game start the
        person to move gets their time; the new deadline is stored for every process to enforce."""
        cfg = live.info.social
        if cfg.clock is ClockKind.NONE:
            return
        table = live.table
        try:
            stored = await asyncio.to_thread(social.clock_state, self.store, live.id, live.info.game_no)
            runs = self._runner(live)
            if mover is None and stored is not None and stored.version == table.version and stored.seat == runs:
                live.clock = stored
                return
            if mover is None and stored is not None and stored.version > table.version:
                live.clock = stored  # another process is ahead; its state arrives as a notification
                return
            clock = social.next_clock(cfg, stored, game_no=live.info.game_no, version=table.version,
                                      players=len(live.info.seats), mover=mover, runs=runs, now=self.now())
            await asyncio.to_thread(social.save_clock, self.store, live.id, clock)
            live.clock = clock
        except Exception:
            log.exception("the clock of room %s could not be stored", live.id)

    async def _clock_loop(self) -> None:
        """Enforce passed deadlines every ``clock_interval`` seconds."""
        while not self.stopping:
            await asyncio.sleep(self.clock_interval)
            try:
                await self.enforce_clocks()
            except Exception:
                log.exception("enforcing clocks failed")

    async def enforce_clocks(self) -> int:
        """Apply every passed deadline (of any process's rooms: the deadlines are in the store): in a rated room
        the seat loses (a recorded ``timeout`` end); elsewhere the room's leave policy applies (a bot takes
        the seat, or it reopens). How many were applied here."""
        done = 0
        for item in await asyncio.to_thread(social.due, self.store, self.now()):
            try:
                if await self._time_out(item):
                    done += 1
            except Exception:
                log.exception("timing out seat %s of room %s failed", item.seat, item.room_id)
        return done

    async def _time_out(self, due: social.Due) -> bool:
        info = await asyncio.to_thread(self.store.room, due.room_id)
        if (info.game_no != due.game_no or info.version != due.version or info.finished
                or info.seats[due.seat].status is not SeatStatus.TAKEN):
            return False
        if not info.rated:
            holder = (await asyncio.to_thread(self.store.token_hashes, due.room_id)).get(due.seat)
            if holder is None:
                return False
            try:
                _seat, after = await asyncio.to_thread(self.store.leave, due.room_id, holder)
            except StoreError:
                return False  # the person left, or another process timed them out, first
            await self.refresh(due.room_id, after)
            return True
        while True:
            live = await self.live(due.room_id)
            async with live.lock:
                if live.evicted:
                    continue
                table = live.table
                if (live.info.game_no != due.game_no or table.version != due.version or table.is_over
                        or table.current_seat != due.seat):
                    return False
                outcome = table.end(EndKind.TIMEOUT, due.seat)
                end = table.ended
                assert end is not None
                record, _ = await self._final_record(live)
                item = NewAction(live.id, due.game_no, due.version, due.seat, "", None, record, outcome)
                try:
                    await asyncio.to_thread(self.store.end_game, item,
                                            functools.partial(_keep_end, room_id=live.id, game_no=due.game_no, end=end))
                except Exception as exc:
                    if not isinstance(exc, VersionConflict):
                        log.exception("storing the timeout of room %s failed", live.id)
                    await self._reload(live)
                    return False
                live.info = _moved(live.info, table)
                live.clock = None
                self._broadcast(live)
            self._maybe_evict(live)
            return True

    async def resign(self, live: LiveRoom, conn: Connection, game_no: int | None = None) -> None:
        """End the game because this socket's seat resigns: every other seat wins, stored like any finish (a
        rated game is rated). Refusal ``spectator``, ``game_over``, ``not_started`` or ``stale_version``."""
        seat = conn.seat
        if seat is None:
            raise Refusal(ErrorCode.SPECTATOR, "spectators cannot resign", status=403)
        while True:
            async with live.lock:
                if live.evicted:
                    live = await self.live(live.id)
                    continue
                if game_no is not None and game_no != live.info.game_no:
                    raise Refusal(ErrorCode.STALE_VERSION, "the room has moved on to another game", status=409)
                await self._finish(live, EndKind.RESIGN, seat, "resignation")
            self._maybe_evict(live)
            return

    async def _finish(self, live: LiveRoom, kind: EndKind, seat: int, what: str) -> None:
        """End the game now without an action (a resignation, an agreed draw), stored like any finish: the record,
        the outcome, the finish hooks (ratings); then every socket gets its state. The lock is held. Refusal
        ``game_over``, ``not_started``, ``stale_version`` or ``storage_error``."""
        table, info = live.table, live.info
        if table.is_over:
            raise Refusal(ErrorCode.GAME_OVER, "the game is over", status=409)
        if not info.started:
            raise Refusal(ErrorCode.NOT_STARTED, "the game starts when every seat is filled", status=409)
        version = table.version
        outcome = table.end(kind, seat)
        end = table.ended
        assert end is not None
        record, _ = await self._final_record(live)
        item = NewAction(live.id, info.game_no, version, seat, "", None, record, outcome)
        try:
            await asyncio.to_thread(self.store.end_game, item,
                                    functools.partial(_keep_end, room_id=live.id, game_no=info.game_no, end=end))
        except VersionConflict:
            await self._reload(live)
            raise Refusal(ErrorCode.STALE_VERSION, "another action was accepted first; look again",
                          status=409) from None
        except Exception:
            log.exception("storing the %s in room %s failed", what, live.id)
            await self._reload(live)
            raise Refusal(ErrorCode.STORAGE_ERROR, f"the {what} could not be stored; try again",
                          status=503) from None
        live.info = _moved(live.info, table)
        live.clock = None
        self._broadcast(live)

    # -- offers -------------------------------------------------------------------------------------
    async def offer(self, live: LiveRoom, seat: int | None, kind: OfferKind, game_no: int | None = None) -> None:
        """Seat ``seat`` offers the others a rematch (the game is over), a draw or a takeback of its last move (the
        game is on); every socket is told. Offering what another seat offered already accepts it. Refusal ``spectator``, ``offer_pending``, ``not_finished``,
        ``game_over``, ``not_started``, ``cannot_undo``, ``stale_version``."""
        if seat is None:
            raise Refusal(ErrorCode.SPECTATOR, "spectators cannot make offers; take a seat first", status=403)

        async def step(live: LiveRoom) -> int | None:
            info, table = live.info, live.table
            if game_no is not None and game_no != info.game_no:
                raise Refusal(ErrorCode.STALE_VERSION, "the room has moved on to another game", status=409)
            pending = live.offers.get(kind)
            if pending is not None:
                if seat in pending.accepted:
                    raise Refusal(ErrorCode.OFFER_PENDING, "you agreed to this offer already; wait for the others",
                                  status=409)
                if kind is OfferKind.TAKEBACK:
                    raise Refusal(ErrorCode.OFFER_PENDING, "another takeback is pending; answer it first", status=409)
                return await self._agree(live, pending, seat)
            target = self._check_offer(live, kind, seat)
            made = Offer.make(kind, seat, info.game_no, table.version, info.seats, target)
            live.offers[kind] = made
            self._tell(live, made.message())
            bot = made.bots_decline(info.seats)
            if bot is not None:
                del live.offers[kind]
                self._tell(live, made.closed(OfferEnd.DECLINED, bot))
                return None
            return await self._complete(live, made) if made.done else None

        await self._offer_step(live, step)

    async def answer(self, live: LiveRoom, seat: int | None, kind: OfferKind, accept: bool,
                     game_no: int | None = None) -> None:
        """Seat ``seat`` accepts or declines the pending offer of ``kind`` (its offerer declining withdraws it);
        every socket is told, and once every seated person accepted it happens. Refusal ``spectator``,
        ``no_offer`` (none pending, another game's, or not waiting for this seat), ``offer_pending`` (agreed
        already)."""
        if seat is None:
            raise Refusal(ErrorCode.SPECTATOR, "spectators cannot answer offers", status=403)

        async def step(live: LiveRoom) -> int | None:
            offer = live.offers.get(kind)
            if offer is None or (game_no is not None and game_no != offer.game_no):
                raise Refusal(ErrorCode.NO_OFFER, f"no {kind.value} offer is pending", status=409)
            if not accept:
                if seat != offer.by and seat not in offer.waiting and seat not in offer.accepted:
                    raise Refusal(ErrorCode.NO_OFFER, "this offer does not wait for your answer", status=409)
                del live.offers[kind]
                self._tell(live, offer.closed(OfferEnd.WITHDRAWN if seat == offer.by else OfferEnd.DECLINED, seat))
                return None
            if seat in offer.accepted:
                raise Refusal(ErrorCode.OFFER_PENDING, "you agreed to this offer already; wait for the others",
                              status=409)
            return await self._agree(live, offer, seat)

        await self._offer_step(live, step)

    async def _offer_step(self, live: LiveRoom, step: Callable[[LiveRoom], Awaitable[int | None]]) -> None:
        """Run ``step`` on the live room under its lock (on the reloaded room if it was dropped meanwhile); a game
        number it returns is a rematch everyone agreed to, started once the lock is free."""
        while True:
            async with live.lock:
                if live.evicted:
                    live = await self.live(live.id)
                    continue
                rematch = await step(live)
            break
        if rematch is not None:
            await self._start_rematch(live.id, rematch)
        self._maybe_evict(live)

    def _check_offer(self, live: LiveRoom, kind: OfferKind, seat: int) -> int | None:
        """Refusal if seat ``seat`` may not make a new offer of ``kind`` now; a takeback's version to go back to."""
        info, table = live.info, live.table
        if kind is OfferKind.REMATCH:
            if not table.is_over:
                raise Refusal(ErrorCode.NOT_FINISHED, "a rematch can be offered once the game is over", status=409)
            return None
        if table.is_over:
            raise Refusal(ErrorCode.GAME_OVER, "the game is over", status=409)
        if not info.started:
            raise Refusal(ErrorCode.NOT_STARTED, "the game starts when every seat is filled", status=409)
        if kind is OfferKind.DRAW:
            return None
        mine = [i for i, actor in enumerate(table.actors) if actor == seat]
        if not mine:
            raise Refusal(ErrorCode.CANNOT_UNDO, "you have made no move in this game yet", status=409)
        target = mine[-1]
        if any(s.from_version > target for s in info.sittings):
            raise Refusal(ErrorCode.CANNOT_UNDO, "a seat changed hands since your last move; it cannot be taken back",
                          status=409)
        return target

    async def _agree(self, live: LiveRoom, offer: Offer, seat: int) -> int | None:
        """Seat ``seat`` accepts ``offer`` (the lock is held); the game number a rematch must follow once all did."""
        if not offer.accept(seat):
            raise Refusal(ErrorCode.NO_OFFER, "this offer does not wait for your answer", status=409)
        if not offer.done:
            self._tell(live, offer.message())
            return None
        return await self._complete(live, offer)

    async def _complete(self, live: LiveRoom, offer: Offer) -> int | None:
        """Everybody agreed (the lock is held): end the game drawn, or take it back, and tell every socket; for a
        rematch, the game number the next game follows (it starts once the lock is let go)."""
        del live.offers[offer.kind]
        if offer.kind is OfferKind.REMATCH:
            self._tell(live, offer.closed(OfferEnd.ACCEPTED))
            return offer.game_no
        try:
            if offer.kind is OfferKind.DRAW:
                await self._finish(live, EndKind.DRAW, offer.by, "draw")
            else:
                await self._take_back(live, offer)
        except Refusal:
            self._tell(live, offer.closed(OfferEnd.LAPSED))
            raise
        self._tell(live, offer.closed(OfferEnd.ACCEPTED))
        return None

    def _lapse_offers(self, live: LiveRoom) -> None:
        """Drop the offers the game has left behind (a move, its end, another game), telling every socket."""
        info, table = live.info, live.table
        for kind, offer in list(live.offers.items()):
            if offer.game_no != info.game_no or (kind is not OfferKind.REMATCH and (
                    table.version != offer.version or table.is_over)):
                del live.offers[kind]
                self._tell(live, offer.closed(OfferEnd.LAPSED))

    def _seats_moved(self, live: LiveRoom, before: tuple[SeatInfo, ...]) -> None:
        """The room's seats changed: every pending offer ends (it waited for the people who sat there)."""
        if not live.offers:
            return
        seat = changed_person(before, live.info.seats)
        for kind, offer in list(live.offers.items()):
            del live.offers[kind]
            self._tell(live, offer.closed(OfferEnd.LEFT, seat))

    async def _start_rematch(self, room_id: str, game_no: int) -> None:
        """Start the game after ``game_no`` in the room (every seated person agreed): same seats, a new deal."""
        try:
            info = await asyncio.to_thread(self.store.room, room_id)
            if info.game_no != game_no or not info.finished:
                return
            seed = fresh_seed()
            to_move = await asyncio.to_thread(first_player, info, seed)
            after = await asyncio.to_thread(self.store.rematch, room_id, game_no, seed, to_move)
        except (VersionConflict, StoreError):
            log.info("the rematch of game %s of room %s had started already", game_no, room_id)
            return
        await self.refresh(room_id, after)

    async def _take_back(self, live: LiveRoom, offer: Offer) -> None:
        """Take the game back to before the offerer's last move (the lock is held): stored first (the actions
        from there on are removed), then the table is rebuilt from the store and every socket gets its view
        and whole log again. Refusal ``stale_version`` or ``storage_error``."""
        info, table = live.info, live.table
        target = offer.target
        if target is None or table.version != offer.version or table.is_over:
            raise Refusal(ErrorCode.STALE_VERSION, "the game has moved on", status=409)
        try:
            await asyncio.to_thread(self.store.take_back, live.id, info.game_no, table.version, target, offer.by)
        except VersionConflict:
            await self._reload(live)
            raise Refusal(ErrorCode.STALE_VERSION, "another action was accepted first; look again",
                          status=409) from None
        except Exception:
            log.exception("storing the takeback in room %s failed", live.id)
            await self._reload(live)
            raise Refusal(ErrorCode.STORAGE_ERROR, "the takeback could not be stored; try again", status=503) from None
        await self._rebuild(live, restart_clock=True)

    async def _rebuild(self, live: LiveRoom, *, restart_clock: bool) -> None:
        """Read the room's table again from the store after a takeback (the lock is held) and send every socket its
        state (its whole log, which got shorter); ``restart_clock``: this process took it back, so the clock
        of the seat to move starts again here."""
        try:
            live.info, live.table = await asyncio.to_thread(self._read, live.id)
        except Exception:
            log.exception("rebuilding room %s after a takeback failed", live.id)
            await self._reload(live)
            return
        if restart_clock and live.info.social.clock is not ClockKind.NONE:
            try:
                stored = await asyncio.to_thread(social.clock_state, self.store, live.id, live.info.game_no)
                live.clock = social.next_clock(live.info.social, stored, game_no=live.info.game_no,
                                               version=live.table.version, players=len(live.info.seats), mover=None,
                                               runs=self._runner(live), now=self.now())
                await asyncio.to_thread(social.save_clock, self.store, live.id, live.clock)
            except Exception:
                log.exception("the clock of room %s could not be stored", live.id)
        else:
            await self._sync_clock(live)
        self._broadcast(live)

    async def _taken_back(self, room_id: str) -> None:
        """Another process took a loaded room's game back: rebuild it here."""
        live = self.rooms.get(room_id)
        if live is None:
            return
        async with live.lock:
            if not live.evicted:
                await self._rebuild(live, restart_clock=False)

    # -- chat ---------------------------------------------------------------------------------------
    async def chat(self, live: LiveRoom, conn: Connection, text: str) -> None:
        """Say ``text`` in the room from this socket: stored, then sent to every socket that has not silenced the
        sender. Refusal ``bad_chat`` (control characters, only spaces), ``chat_off`` (a spectator while the
        owner switched spectator chat off), ``rate_limited``."""
        bad = control_characters(text)
        if bad:
            raise Refusal(ErrorCode.BAD_CHAT, f"a chat message must not hold control characters ({', '.join(bad[:3])})")
        if not text.strip():
            raise Refusal(ErrorCode.BAD_CHAT, "a chat message needs some text")
        if conn.seat is None and not live.info.social.spectator_chat:
            raise Refusal(ErrorCode.CHAT_OFF, "the room's owner has switched spectator chat off", status=403)
        who = (f"account:{conn.account_id}" if conn.account_id else
               f"seat:{conn.token_hash}" if conn.token_hash else f"address:{conn.address}")
        if not self.chat_limit(who):
            raise Refusal(ErrorCode.RATE_LIMITED, "too many chat messages; wait a few seconds", status=429)
        if conn.seat is not None:
            label, name = live.table.names[conn.seat], live.info.seats[conn.seat].name
        else:
            name = conn.name or "spectator"
            label = f"Spectator {conn.name}" if conn.name else "Spectator"
        line = await asyncio.to_thread(social.add_chat, self.store, live.id, live.info.game_no, conn.seat, label, name,
                                       conn.account_id, text)
        message = ChatMsg(**chat_out(line).model_dump()).model_dump_json()
        for other in list(live.conns):
            if line.account_id is None or line.account_id not in other.silenced:
                other.push(message)

    async def _reload(self, live: LiveRoom) -> None:
        """Rebuild a room's table from the store (the lock is held); drop the room if even that fails.

        When the game is the same, the table is rebuilt at the version its sockets were last shown and
        every stored action after it is played and broadcast in turn, so each socket gets a state for
        every version (also those another process accepted)."""
        try:
            info, table, later = await asyncio.to_thread(self._read_from, live.id, live.info.game_no, live.shown)
        except Exception:
            log.exception("reloading room %s failed; dropping it", live.id)
            live.evicted = True
            self.rooms.pop(live.id, None)
            for conn in live.conns:
                conn.push(ErrorMsg(code=ErrorCode.STORAGE_ERROR, message="the room could not be reloaded; reconnect"))
                conn.close(CloseCode.FULL)
            return
        changed = info.seats != live.info.seats or info.game_no != live.info.game_no
        before = live.info.seats
        live.info, live.table = info, table
        await self._sync_clock(live)
        if changed:
            if info.game_no == live.info.game_no:
                self._seats_moved(live, before)
            await self._revoke(live)
        if changed or not later:
            self._broadcast(live, room_changed=changed)
        if later:
            try:
                self._play_stored(live, later)
            except Exception:
                log.warning("room %s did not replay action by action; reloading it whole", live.id, exc_info=True)
                live.info, live.table = await asyncio.to_thread(self._read, live.id)
                self._broadcast(live)

    def _play_stored(self, live: LiveRoom, actions: list[StoredAction]) -> None:
        """Play stored actions (another process's) at the table, sending every socket a state after each."""
        table = live.table
        for a in actions:
            table.play(a.seat, a.action, a.version)
            self._broadcast(live)

    async def refresh(self, room_id: str, info: RoomInfo | None = None) -> None:
        """Catch a loaded room up with the store (after a join or leave here, or another process's change);
        ``info``: the room as this process just stored it (else it is read)."""
        live = self.rooms.get(room_id)
        if live is None:
            await self.wake(room_id, info)
            return
        async with live.lock:
            if live.evicted:
                return
            try:
                if info is None or info.game_no != live.info.game_no or info.version != live.table.version:
                    info = await asyncio.to_thread(self.store.room, room_id)
            except Exception:
                log.exception("refreshing room %s failed", room_id)
                return
            table = live.table
            if info.game_no != live.info.game_no or (info.finished and not table.is_over
                                                     and info.version == table.version):
                await self._reload(live)
            elif info.version < table.version:
                pass  # a read older than an action this process has committed since (versions only grow in a game)
            else:
                seats_changed = info.seats != live.info.seats
                seats_before = live.info.seats
                if seats_changed:  # the seats (and their labels) of the actions to come
                    live.table = table = reseat(table, info)
                live.info = replace(info, version=table.version, to_move=table.current_seat,
                                    finished=table.is_over)
                if seats_changed:
                    self._seats_moved(live, seats_before)
                    await self._revoke(live)
                    self._broadcast(live, room_changed=True)
                try:
                    if info.version > table.version:
                        later = await asyncio.to_thread(self.store.actions, room_id, info.game_no, table.version)
                        self._play_stored(live, later)
                except Exception:
                    log.warning("room %s did not catch up action by action; reloading", room_id, exc_info=True)
                    await self._reload(live)
                    return
                live.info = info
                before = live.clock
                await self._sync_clock(live)
                if (not seats_changed and live.shown != table.version) or live.clock != before:
                    self._broadcast(live)
        self._kick(live)
        self._maybe_evict(live)

    async def resettle(self, room_id: str, info: RoomInfo) -> None:
        """The room's settings changed here (spectator chat): its sockets get the room again."""
        live = self.rooms.get(room_id)
        if live is None:
            return
        async with live.lock:
            if not live.evicted:
                live.info = replace(info, version=live.table.version, to_move=live.table.current_seat,
                                    finished=live.table.is_over)
                message = RoomMsg(room=room_out(live.info)).model_dump_json()
                for conn in list(live.conns):
                    conn.push(message)

    async def _revoke(self, live: LiveRoom) -> None:
        """Close the sockets whose seat token was revoked (their person left, here or elsewhere)."""
        holders = await asyncio.to_thread(self.store.token_hashes, live.id)
        for conn in list(live.conns):
            if conn.seat is not None and holders.get(conn.seat) != conn.token_hash:
                conn.push(ErrorMsg(code=ErrorCode.REVOKED, message="this seat was left; its token is no longer valid"))
                conn.close(CloseCode.REVOKED)
                live.conns.discard(conn)

    # -- hints --------------------------------------------------------------------------------------
    async def hint(self, room_id: str, seat: int, spec: str, top: int) -> tuple[int, Hint]:
        """The ``spec`` agent's advice for ``seat`` in the live room, and the version it is for; Refusal if the
        seat does not decide now. The agent thinks in a worker thread on a snapshot, so play goes on."""
        while True:
            live = await self.live(room_id)
            try:
                async with live.lock:
                    if live.evicted:
                        continue
                    table = live.table
                    if table.is_over:
                        raise Refusal(ErrorCode.GAME_OVER, "the game is over", status=409)
                    if not live.info.started:
                        raise Refusal(ErrorCode.NOT_STARTED, "the game starts when every seat is filled", status=409)
                    if table.current_seat != seat:
                        raise Refusal(ErrorCode.NOT_YOUR_TURN, f"it is {table.name(table.current_seat)}'s decision",
                                      status=409)
                    snapshot = Table(table.state.clone(), table.seats, undo=UndoPolicy.NEVER, meta=table.meta)
            finally:
                self._maybe_evict(live)  # a room loaded only for this hint is dropped again
            break
        try:
            advice = await asyncio.to_thread(snapshot.hint, seat, spec, top)
        except TableError as exc:
            raise refusal_of(exc) from None
        return snapshot.version, advice

    # -- bots ---------------------------------------------------------------------------------------
    def _kick(self, live: LiveRoom) -> None:
        if self.stopping or live.evicted or not live.bot_due:
            return
        if live.bot_task is None or live.bot_task.done():
            live.bot_task = asyncio.ensure_future(self._bot_loop(live))

    async def _bot_loop(self, live: LiveRoom) -> None:
        failures = 0
        while not self.stopping and not live.evicted:
            async with live.lock:
                if not live.bot_due:
                    break
                table = live.table
                seat = table.current_seat
                assert seat is not None
                spec = live.info.seats[seat].spec
                snapshot = table.state.clone()
                game_no = live.info.game_no
            try:
                decision = await self.bots.decide(live.id, live.info.game, live.info.rules, spec, snapshot,
                                                  live.tell_bot)
            except BotFailed:
                failures += 1
                live.tell_bot(BotStatus(seat, BotPhase.RETRYING, 0, self.bots.queued))
                await asyncio.sleep(min(30.0, 0.5 * 2 ** failures))
                continue
            finally:
                if live.bot_status is not None and live.bot_status.phase is not BotPhase.RETRYING:
                    live.bot_status = None
            wait = self._pace_wait(live)
            if wait > 0:  # only bots at the table: a pace a spectator can follow
                await asyncio.sleep(wait)
            try:
                await asyncio.shield(self._play(live, decision.seat, decision.action, decision.version, None, None,
                                                game_no))
                failures = 0
            except Refusal as refused:
                if refused.code in (ErrorCode.STALE_VERSION, ErrorCode.NOT_YOUR_TURN, ErrorCode.GAME_OVER,
                                    ErrorCode.NOT_STARTED):
                    continue
                failures += 1
                log.warning("the bot of room %s was refused (%s: %s)", live.id, refused.code, refused.message)
                await asyncio.sleep(min(30.0, 0.5 * 2 ** failures))
        live.bot_task = None
        self._maybe_evict(live)

    def _pace_wait(self, live: LiveRoom) -> float:
        """How long a bot's move waits before it is played: in a room where no person is seated and somebody
        watches, until ``bot_pace`` seconds have passed since the last move was shown; else 0 (nobody to follow it)."""
        if (self.bot_pace <= 0 or any(s.status is SeatStatus.TAKEN for s in live.info.seats)
                or not any(c.seat is None for c in live.conns)):
            return 0.0
        return live.moved_at + self.bot_pace - time.monotonic()

    # -- other processes ----------------------------------------------------------------------------
    def _on_change_threadsafe(self, change: Change) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._on_change, change)

    def _on_change(self, change: Change) -> None:
        if change.kind == "takeback" and change.room_id in self.rooms:
            self._spawn(self._taken_back(change.room_id))
        elif change.room_id in self.rooms:
            self._spawn(self.refresh(change.room_id))
        elif change.room_id in self._loading:  # the load may have read the store before this change
            self._spawn(self._refresh_after_load(change.room_id))
        elif change.kind in ("seats", "game", "room"):
            self._spawn(self.wake(change.room_id))

    async def _refresh_after_load(self, room_id: str) -> None:
        """Catch a room up with the store once the load under way ends (a change came during it)."""
        pending = self._loading.get(room_id)
        if pending is not None:
            try:
                await asyncio.shield(pending)
            except Exception:
                return  # the load failed: the next one reads the store afresh
        if room_id in self.rooms:
            await self.refresh(room_id)

    def _on_reconnect_threadsafe(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._refresh_all)

    def _refresh_all(self) -> None:
        for room_id in list(self.rooms):
            self._spawn(self.refresh(room_id))


def _keep_end(conn: Any, *, room_id: str, game_no: int, end: dict[str, Any]) -> None:
    social.record_end(conn, room_id, game_no, end)


def chat_out(line: ChatLine) -> ChatLineOut:
    """A stored chat message as clients see it (only what its sender typed, and who they are)."""
    return ChatLineOut(id=line.id, seat=line.seat, label=line.label, name=line.name, account=line.account_id,
                       text=line.text, at=line.created_at)


def bot_message(status: BotStatus) -> BotMsg:
    """The ``bot`` message of a bot's status."""
    return BotMsg(seat=status.seat, phase=status.phase.value, ahead=status.ahead, queued=status.queued)


def _log_lines(table: Table, seat: int | None, start: int, events: list[dict[str, Any]]) -> list[str]:
    """The events in words (``Table.log_lines``); plain words if the game's describer fails."""
    game = table.game.name
    if game not in _PLAIN_WORDS:
        try:
            return table.log_lines(seat, start)
        except Exception:
            log.warning("the %s event describer failed; using plain words", game, exc_info=True)
            _PLAIN_WORDS.add(game)
    names = table.names
    return [plain_describe_event(e, names) for e in events]


_PLAIN_WORDS: set[str] = set()
"""Games whose describer failed once (they get plain words until the server restarts)."""


def _moved(info: RoomInfo, table: Table) -> RoomInfo:
    return replace(info, version=table.version, to_move=table.current_seat, finished=table.is_over)

