"""Rooms between the store and the table: checking a new room, the table of a stored room, room metadata.

A stored room is a game's rules, setup and seed plus its accepted actions; its table is rebuilt by
replaying them (``Table.resume``), so a server that restarts continues every game where the last
acknowledged action left it.

>>> from cardtable.server.protocol import CreateRoom, SeatIn, SeatKindIn
>>> plan = plan_room(CreateRoom(game="zeta", seats=[SeatIn(), SeatIn(kind=SeatKindIn.BOT, spec="random")]))
>>> [status.value for status, _ in plan.seats], plan.num_players
(['open', 'bot'], 2)
>>> plan_room(CreateRoom(game="chess"))
Traceback (most recent call last):
...
cardtable.server.errors.Refusal: unknown game 'chess'; choose one of: oscilloscope, utahime, zeta
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from cardtable.agents import AgentSpecError, make_agent, parse_spec
from cardtable.core import Record, game_class, game_names, load_game
from cardtable.core.errors import ErrorCode
from cardtable.core.rng import fresh_seed
from cardtable.store import GameSummary, LeavePolicy, RoomInfo, SeatStatus, StoredAction
from cardtable.store.models import RoomStatus
from cardtable.store.social_models import ClockKind, RoomSocial
from cardtable.table import HUMAN, Seat, Table, UndoPolicy, check_name

from .errors import Refusal
from .protocol import ClockSettingsOut, CreateRoom, GameOut, RoomOut, SeatKindIn, SeatOut, SittingOut

OPEN_NAME = "(open)"
"""The name an open seat goes by at the table (so its label reads ``P2 (open)``)."""

RECORD_TOOL = "cardtable serve"


@dataclass(frozen=True)
class RoomPlan:
    """A checked new room: rules, normalized setup, seats, the first game's seed and who moves first."""

    game: str
    title: str
    rules: dict[str, Any]
    rules_version: int
    setup: dict[str, Any]
    seats: list[tuple[SeatStatus, str]]
    seed: int
    to_move: int | None
    leave_bot: str
    social: RoomSocial = RoomSocial()
    """Its chat and clock settings (the owner is set where the creator is known)."""

    @property
    def num_players(self) -> int:
        """How many seats the room has."""
        return len(self.seats)


TITLE_LIMIT = 64
"""The longest room title."""


def control_characters(text: str) -> list[str]:
    r"""The control characters of ``text`` by code point: C0 (tab and newline too), DEL, C1, and the line and
    paragraph separators (U+2028, U+2029). A name or title holding any of them is refused, never cleaned.

    >>> control_characters("Ann\tB\u2028"), control_characters("Åsa 🙂")
    (['U+0009', 'U+2028'], [])
    """
    return [f"U+{ord(ch):04X}" for ch in text if unicodedata.category(ch) in ("Cc", "Zl", "Zp")]


def check_title(title: str) -> str:
    """A room title, stripped; Refusal if too long or holding control characters (it may be empty)."""
    bad = control_characters(title)
    if bad:
        raise Refusal(ErrorCode.BAD_TITLE, f"a title must not hold control characters ({', '.join(bad[:3])})")
    text = " ".join(title.split())
    if len(text) > TITLE_LIMIT:
        raise Refusal(ErrorCode.BAD_TITLE, f"a title has at most {TITLE_LIMIT} characters, got {len(text)}")
    return text


def check_person_name(name: str) -> str:
    """A person's seat name (``check_name``: 1 to 24 characters once spaces are squeezed), never the open-seat
    placeholder; Refusal ``bad_name`` if it is not, or if it holds a control character (:func:`control_characters`)."""
    bad = control_characters(name)
    if bad:
        raise Refusal(ErrorCode.BAD_NAME, f"a name must not hold control characters ({', '.join(bad[:3])})")
    try:
        text = check_name(name)
    except ValueError as exc:
        raise Refusal(ErrorCode.BAD_NAME, str(exc)) from None
    if text.casefold() == OPEN_NAME.casefold():
        raise Refusal(ErrorCode.BAD_NAME, f"{OPEN_NAME} is what an open seat is called; choose another name")
    return text


def check_bot(spec: str, game_name: str, rules: dict[str, Any]) -> str:
    """An agent spec that builds an agent for the game, stripped; Refusal naming the valid specs if not."""
    text = spec.strip()
    if not text or text == HUMAN:
        raise Refusal(ErrorCode.BAD_AGENT, "a bot seat needs an agent spec such as normal, hard or ismcts:iterations=500")
    if any(not ch.isprintable() for ch in text):
        raise Refusal(ErrorCode.BAD_AGENT, "an agent spec must not hold control characters")
    try:
        if "seconds" in parse_spec(text).options:
            raise Refusal(ErrorCode.BAD_AGENT, "a bot's budget on the server is search iterations "
                                               "(ismcts:iterations=N), never seconds")
        make_agent(text, load_game(game_name, **rules))
    except (AgentSpecError, ValueError) as exc:
        raise Refusal(ErrorCode.BAD_AGENT, str(exc)) from None
    return text


def plan_room(body: CreateRoom) -> RoomPlan:
    """Check a new room against the game (rules, setup, seats, agents); Refusal saying what is wrong."""
    if body.game not in game_names():
        raise Refusal(ErrorCode.UNKNOWN_GAME, f"unknown game {body.game!r}; choose one of: {', '.join(game_names())}")
    try:
        game = load_game(body.game, **body.rules)
    except (ValueError, TypeError) as exc:
        raise Refusal(ErrorCode.BAD_RULES, str(exc)) from None
    rules = game.rules.flags()
    try:
        setup = game.normalize_setup(dict(body.setup))
        players = game.num_players_for(setup)
    except Exception as exc:  # the setup is arbitrary client JSON; the engine says what is wrong with it
        raise Refusal(ErrorCode.BAD_SETUP, str(exc) or type(exc).__name__) from None
    specs = body.seats if body.seats is not None else []
    if body.seats is not None and len(specs) != players:
        raise Refusal(ErrorCode.BAD_SEATS, f"this setup of {body.game} has {players} seat(s), but {len(specs)} were given")
    seats: list[tuple[SeatStatus, str]] = []
    for i in range(players):
        seat = specs[i] if i < len(specs) else None
        if seat is None or seat.kind is SeatKindIn.OPEN:
            if seat is not None and seat.spec:
                raise Refusal(ErrorCode.BAD_SEATS, f"seat {i} is open: an open seat takes no agent spec")
            seats.append((SeatStatus.OPEN, HUMAN))
        else:
            seats.append((SeatStatus.BOT, check_bot(seat.spec or "normal", body.game, rules)))
    if body.rated and any(status is SeatStatus.BOT for status, _spec in seats):
        raise Refusal(ErrorCode.BAD_SEATS, "a rated room has no bot seats: every seat is a person signed in to an account")
    leave_bot = check_bot(body.leave_bot, body.game, rules) if body.on_leave is LeavePolicy.BOT else body.leave_bot.strip()
    if any(not ch.isprintable() for ch in leave_bot):
        raise Refusal(ErrorCode.BAD_AGENT, "an agent spec must not hold control characters")
    seed = fresh_seed()
    try:
        state = game.new_game(seed=seed, **setup)
    except Exception as exc:
        raise Refusal(ErrorCode.BAD_SETUP, str(exc) or type(exc).__name__) from None
    return RoomPlan(body.game, check_title(body.title), rules, game.rules.rules_version, state.setup, seats, seed,
                    state.current_player, leave_bot, plan_social(body))


def plan_social(body: CreateRoom, owner: str | None = None) -> RoomSocial:
    """A new room's chat and clock settings (Refusal ``bad_clock`` for a clock without time).

    >>> from cardtable.server.protocol import ClockIn
    >>> plan_social(CreateRoom(game="zeta", clock=ClockIn(kind=ClockKind.TURN, move_s=86400))).move_s
    86400
    """
    clock = body.clock
    if clock is None or clock.kind is ClockKind.NONE:
        return RoomSocial(owner, body.spectator_chat)
    if clock.kind is ClockKind.REALTIME and clock.base_s < 1:
        raise Refusal(ErrorCode.BAD_CLOCK, "a real-time clock needs a base time (base_s) of at least 1 second")
    if clock.kind is ClockKind.TURN and clock.move_s < 60:
        raise Refusal(ErrorCode.BAD_CLOCK, "a turn-based room needs at least 60 seconds per move (move_s)")
    realtime = clock.kind is ClockKind.REALTIME
    return RoomSocial(owner, body.spectator_chat, clock.kind, clock.base_s if realtime else 0,
                      clock.increment_s if realtime else 0, 0 if realtime else clock.move_s)


def first_player(info: RoomInfo, seed: int) -> int | None:
    """Who moves first in a new game of the room with ``seed`` (for a rematch)."""
    return load_game(info.game, **info.rules).new_game(seed=seed, **info.setup).current_player


def table_seats(info: RoomInfo) -> list[Seat]:
    """The table's seats of a stored room: people by name, bots by spec, open seats as ``(open)``."""
    return [Seat(s.seat, s.spec if s.status is SeatStatus.BOT else HUMAN,
                 OPEN_NAME if s.status is SeatStatus.OPEN else s.name) for s in info.seats]


def build_table(info: RoomInfo, actions: list[StoredAction], end: dict[str, Any] | None = None) -> Table:
    """The table of a stored room's current game, its actions replayed (Refusal ``cannot_resume`` if they do not);
    ``end``: the game's recorded end that is no action (a timeout), applied when it is at the last version."""
    if [a.version for a in actions] != list(range(len(actions))):
        raise Refusal(ErrorCode.CANNOT_RESUME, "the stored actions of this room are not contiguous", status=409)
    record = Record(game=info.game, rules_version=info.rules_version, rules=dict(info.rules), seed=info.seed,
                    setup=dict(info.setup), actions=[a.action for a in actions],
                    players=[s.spec if s.status is SeatStatus.BOT else HUMAN for s in info.seats],
                    meta={**record_meta(info), **({"end": end} if end is not None else {})})
    try:
        return Table.resume(record, table_seats(info), undo=UndoPolicy.NEVER)
    except ValueError as exc:
        raise Refusal(ErrorCode.CANNOT_RESUME, f"this room's game cannot be resumed: {exc}", status=409) from None


def seat_history(info: RoomInfo) -> list[list[dict[str, Any]]]:
    """Per seat, everybody who sat in it during the current game (``name``, ``spec``, ``from_version``)."""
    history: list[list[dict[str, Any]]] = [[] for _ in info.seats]
    for s in info.sittings:
        if 0 <= s.seat < len(history):
            entry: dict[str, Any] = {"name": s.name, "spec": s.spec, "from_version": s.from_version}
            if s.account_id is not None:
                entry["account"] = s.account_id
            history[s.seat].append(entry)
    return history


def record_meta(info: RoomInfo) -> dict[str, Any]:
    """The ``meta`` of a room's record: where it was played, and each seat's history (a person who left
    to a bot stays credited with the moves made before)."""
    return {"tool": RECORD_TOOL, "room": info.id, "game_no": info.game_no, "title": info.title,
            "seat_history": seat_history(info)}


def reseat(table: Table, info: RoomInfo) -> Table:
    """The same game at a table with the room's current seats (after a join or a leave)."""
    return Table(table.state, table_seats(info), undo=UndoPolicy.NEVER, meta=record_meta(info))


def status_of(info: RoomInfo) -> RoomStatus:
    """Waiting, playing or finished."""
    return RoomStatus.of(started=info.started, finished=info.finished)


def room_out(info: RoomInfo) -> RoomOut:
    """The metadata every client may see (never the seed, the invite hash or a token hash)."""
    seats = table_seats(info)
    humans = sum(1 for s in seats if s.is_human)
    history = seat_history(info)
    return RoomOut(
        id=info.id, game=info.game, title=info.title, rules=info.rules, setup=info.setup, private=info.private,
        rated=info.rated,
        on_leave=info.on_leave, leave_bot=info.leave_bot, status=status_of(info), game_no=info.game_no,
        version=info.version, to_move=info.to_move,
        seats=[SeatOut(seat=s.seat, label=seats[s.seat].label(humans), name=s.name, status=s.status, spec=s.spec,
                       account=s.account_id,
                       history=[SittingOut(**h) for h in history[s.seat]])
               for s in info.seats],
        created_at=info.created_at, updated_at=info.updated_at, clock=clock_settings(info.social),
        spectator_chat=info.social.spectator_chat, owner=info.social.owner_account)


def clock_settings(social: RoomSocial) -> ClockSettingsOut | None:
    """A room's clock settings as clients see them (None: no clock)."""
    if social.clock is ClockKind.NONE:
        return None
    return ClockSettingsOut(kind=social.clock, base_s=social.base_s, increment_s=social.increment_s,
                            move_s=social.move_s)


def game_out(room_id: str, game: GameSummary) -> GameOut:
    """One game of a room's history, with the address of its record once finished."""
    status = RoomStatus.of(started=game.started, finished=game.finished_at is not None)
    return GameOut(game_no=game.game_no, version=game.version, status=status, finished_at=game.finished_at,
                   outcome=game.outcome,
                   record_url=f"/api/rooms/{room_id}/records/{game.game_no}" if game.finished_at is not None else None)


def setup_example(name: str) -> dict[str, Any]:
    """A setup of game ``name`` that works, for the lobby to start from: the first of the game's
    conformance cases under default rules, a two-player one if there is one."""
    cls = game_class(name)
    cases = [dict(setup) for flags, setup in cls.conformance_cases() if not flags] or [{}]
    game = load_game(name)
    for setup in cases:
        try:
            if game.num_players_for(game.normalize_setup(setup)) == 2:
                return setup
        except ValueError:
            continue
    return cases[0]
