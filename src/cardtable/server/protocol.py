"""Every message of the server's protocol as a pydantic model: HTTP bodies and websocket messages.

A client never receives anything that is not from a seat's view, its event log, its legal actions,
the seat labels, the outcome, or room metadata (game, rules, setup, seats, status). Tokens are
returned once, by ``join``; seeds and RNG states never leave the server.

>>> ClientMessage.validate_json('{"type": "action", "action": "pass", "version": 3}')
ActionMsg(type='action', action='pass', version=3, seat=None, ref=None)
>>> StateMsg.model_fields["legal"].description
"The seat's legal actions (empty unless it decides now and the game has started)."
"""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, TypeAdapter

from cardtable.store import LeavePolicy, SeatStatus
from cardtable.store.models import RoomStatus
from cardtable.store.social_models import CHAT_LIMIT, ClockKind
from cardtable.table import NAME_LIMIT

SPEC_MAX = 200
"""The longest agent spec a client may send."""
TOKEN_MAX = 128
"""The longest token or invite code a client may send (the server's own are 43 and 16 characters)."""
ACTION_MAX = 500
"""The longest action string a client may send."""
MAX_SEATS = 8
"""The most seats a room may have."""
NAME_INPUT_MAX = 1024
"""The longest name a join body may carry at all (a name longer than the table's limit is refused with bad_name)."""


class _Strict(BaseModel):
    """A message from a client: no unknown fields, and no coercion (``"0"``, ``true`` or ``1.0`` is not an integer)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class SeatKindIn(Enum):  # the two SeatStatus values a new seat may have
    """What a room's creator puts in a seat."""

    OPEN = "open"
    BOT = "bot"


# -- HTTP bodies -------------------------------------------------------------------------------------
class SeatIn(_Strict):
    """One seat of a new room: open for a person, or a bot with an agent spec (``normal``, ``ismcts:hard``)."""

    kind: Annotated[SeatKindIn, Strict(False)] = SeatKindIn.OPEN
    spec: str | None = Field(None, max_length=SPEC_MAX, description="The agent spec of a bot seat (default: normal).")


class ClockIn(_Strict):
    """A room's clock: real-time (``base_s`` per seat, plus ``increment_s`` after each of its moves) or turn-based
    (``move_s`` per move: hours or days)."""

    kind: Annotated[ClockKind, Strict(False)] = Field(description="realtime or turn (none: no clock).")
    base_s: int = Field(0, ge=0, le=36_000, description="Real-time: each seat's time at the start, in seconds.")
    increment_s: int = Field(0, ge=0, le=600, description="Real-time: seconds added after each of the seat's moves.")
    move_s: int = Field(0, ge=0, le=30 * 86_400, description="Turn-based: seconds per move (3600 = an hour).")


class ClockSettingsOut(BaseModel):
    """A room's clock settings."""

    kind: ClockKind
    base_s: int
    increment_s: int
    move_s: int


class CreateRoom(_Strict):
    """A new room: the game, its rule flags and setup, the seats, privacy and what a left seat becomes."""

    game: str = Field(max_length=32, description="A game name from GET /api/games.")
    rules: dict[str, bool | int | str] = Field(default_factory=dict, max_length=64,
                                               description="Rule flags that differ from the defaults.")
    setup: dict[str, Any] = Field(default_factory=dict, max_length=16,
                                  description="The game's setup options (Zeta: decks; Oscilloscope: players; "
                                              "Utahime: option sets).")
    seats: list[SeatIn] | None = Field(None, min_length=1, max_length=MAX_SEATS,
                                       description="One entry per seat (default: every seat open).")
    private: bool = Field(False, description="A private room is not listed and needs its invite code.")
    rated: bool = Field(False, description="Its games change the players' ratings: every seat is a person "
                                           "signed in to an account (a rated room has no bot seats).")
    on_leave: Annotated[LeavePolicy, Strict(False)] = Field(LeavePolicy.REOPEN, description="What a seat becomes when its person leaves.")
    leave_bot: str = Field("normal", max_length=SPEC_MAX, description="The agent that takes a left seat over.")
    title: str = Field("", max_length=NAME_INPUT_MAX,
                       description="At most 64 characters; no control characters (refused with bad_title).")
    clock: ClockIn | None = Field(None, description="A clock per seat or a deadline per move (null: none).")
    spectator_chat: bool = Field(True, description="Spectators may chat (the owner may switch it later).")


class JoinIn(_Strict):
    """Take a seat: a name, which seat (default: the first open one), the invite code of a private room."""

    name: str = Field(max_length=NAME_INPUT_MAX,
                      description=f"1 to {NAME_LIMIT} characters once spaces are squeezed; no control characters "
                                  "(C0, DEL, C1, line and paragraph separators): refused with bad_name.")
    seat: int | None = Field(None, ge=0, lt=MAX_SEATS)
    invite: str | None = Field(None, max_length=TOKEN_MAX)


class SittingOut(BaseModel):
    """Somebody who sat in a seat in the current game: a person (spec human, their name) or a bot, from a version on."""

    name: str
    spec: str
    from_version: int = Field(description="The game's version when they sat down; they made the seat's moves "
                                          "from there until the next one sat down.")
    account: str | None = Field(None, description="The id of their account (its profile: GET /api/players/{id}); "
                                                  "null for a guest or a bot.")


class SeatOut(BaseModel):
    """One seat of a room as every client sees it (never its token)."""

    seat: int
    label: str = Field(description="What every screen calls the seat: P1 Alice, P2 (normal), ...")
    name: str
    status: SeatStatus
    spec: str = Field(description="human, or the agent spec of a bot seat.")
    account: str | None = Field(None, description="The account id of the person holding the seat (null: a guest, "
                                                  "a bot or nobody).")
    history: list[SittingOut] = Field(default_factory=list,
                                      description="Everybody who sat in this seat in the current game, in order.")


class RoomOut(BaseModel):
    """A room's metadata: its game, rules, setup, seats and where its current game stands."""

    id: str
    game: str
    title: str
    rules: dict[str, Any]
    setup: dict[str, Any]
    private: bool
    rated: bool = False
    on_leave: LeavePolicy
    leave_bot: str
    status: RoomStatus
    game_no: int = Field(description="The number of the room's current game (rematches count up).")
    version: int = Field(description="How many actions the current game has.")
    to_move: int | None = Field(description="The seat that decides next (null once over).")
    seats: list[SeatOut]
    created_at: datetime
    updated_at: datetime
    clock: ClockSettingsOut | None = Field(None, description="The room's clock (null: none).")
    spectator_chat: bool = Field(True, description="Whether spectators may chat.")
    owner: str | None = Field(None, description="The account that made the room (null: a guest did; then whoever "
                                                "holds the first seat is its owner).")


class RoomList(BaseModel):
    """Rooms, most recently active first."""

    rooms: list[RoomOut]


class Created(BaseModel):
    """A new room, and the invite code of a private one (returned only here, stored only as a hash)."""

    room: RoomOut
    invite: str | None


class Joined(BaseModel):
    """The seat token (returned only here, stored only as a hash: keep it to come back), the seat, the room."""

    token: str
    seat: int
    room: RoomOut


class Left(BaseModel):
    """The seat that was left (its token is revoked) and the room after it."""

    seat: int
    room: RoomOut


class Me(BaseModel):
    """The seat a token holds."""

    seat: int
    name: str
    room: RoomOut


class GameOut(BaseModel):
    """One game of a room's history."""

    game_no: int
    version: int
    status: RoomStatus
    finished_at: datetime | None
    outcome: dict[str, Any] | None
    record_url: str | None = Field(description="Where its record downloads (finished games only).")


class History(BaseModel):
    """Every game played in a room."""

    room: str
    games: list[GameOut]


class FlagOut(BaseModel):
    """One rule flag of a game."""

    name: str
    kind: str
    default: bool | int | str
    choices: list[bool | int | str] | None
    ledger: str
    doc: str


class GameInfo(BaseModel):
    """A game a room can be made for."""

    name: str
    title: str
    min_players: int
    max_players: int
    flags: list[FlagOut]
    setup_example: dict[str, Any] = Field(description="A setup that works, to start from.")


class AgentsOut(BaseModel):
    """The agent specs a bot seat may take, and the most search iterations the server gives a bot's move."""

    specs: dict[str, str]
    difficulties: dict[str, str]
    iterations_cap: int = Field(description="A bot's budget is search iterations (its spec's, at most this), "
                                            "never wall-clock time.")


class Catalog(BaseModel):
    """The games and agents of this server."""

    games: list[GameInfo]
    agents: AgentsOut


class BotQueueOut(BaseModel):
    """This process's bot queue: moves waiting and being thought, its capacity, and what it has done."""

    queued: int
    running: int
    capacity: int = Field(description="Moves thought at once (local workers, or the Ray cluster's CPUs).")
    peak_queued: int
    peak_running: int
    decisions: int
    failures: int = Field(description="Agent failures (each tried again; never replaced by a random move).")


class Health(BaseModel):
    """The server is up and its database answers; its bot queue."""

    status: Literal["ok"]
    database: str
    bots: BotQueueOut | None = None


class ErrorDetail(BaseModel):
    """What was refused and why: ``code`` is stable, ``message`` is for people, ``rule`` a rulebook id."""

    code: str
    message: str
    rule: str | None = None


class ErrorBody(BaseModel):
    """The body of every refusal."""

    error: ErrorDetail


# -- websocket: client to server ---------------------------------------------------------------------
class Hello(_Strict):
    """The first message on a socket: a seat token (to play), or none (to spectate); a private room's
    invite code when spectating; the number of log events the client already has."""

    type: Literal["hello"]
    token: str | None = Field(None, max_length=TOKEN_MAX)
    invite: str | None = Field(None, max_length=TOKEN_MAX)
    since: int = Field(0, ge=0)


class ActionMsg(_Strict):
    """Play an action (its canonical string) chosen at ``version``; ``ref`` comes back in the answer."""

    type: Literal["action"]
    action: str = Field(max_length=ACTION_MAX)
    version: int = Field(ge=0)
    seat: int | None = Field(None, description="If given, must be the connection's own seat.")
    ref: str | int | None = Field(None, description="Any short value, echoed in accepted/error.")


class SyncMsg(_Strict):
    """Send the state again, with the log from event ``since``."""

    type: Literal["sync"]
    since: int = Field(0, ge=0)


class PingMsg(_Strict):
    """Keep the socket alive; the server answers pong."""

    type: Literal["ping"]


class ChatIn(_Strict):
    """Say something at the table: plain text, 1 to 500 characters, no control characters (``bad_chat``)."""

    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=CHAT_LIMIT)
    ref: str | int | None = Field(None, description="Any short value, echoed in an error.")


class ResignMsg(_Strict):
    """Resign the game from this socket's seat: every other seat wins at once (a rated game rates it so)."""

    type: Literal["resign"]
    game_no: int | None = Field(None, ge=1, description="The game resigned (refused stale_version if the room has "
                                                        "moved on to another); default: the current one.")
    ref: str | int | None = Field(None, description="Any short value, echoed in an error.")


class OfferKind(Enum):
    """What a seated person may offer the others at the table."""

    REMATCH = "rematch"
    """The next game, same seats (once the game is over)."""
    DRAW = "draw"
    """End the game now as a draw (while it is on)."""
    TAKEBACK = "takeback"
    """Undo the offerer's last move and every move after it (while the game is on)."""


class OfferEnd(Enum):
    """How an offer ended."""

    ACCEPTED = "accepted"
    """Every seated person accepted (bots accept a rematch at once)."""
    DECLINED = "declined"
    """A seated person (or a bot: bots decline draws and takebacks) said no."""
    WITHDRAWN = "withdrawn"
    """The offerer took it back."""
    LAPSED = "lapsed"
    """The game moved on first: a move was made, the game ended, or another game began."""
    LEFT = "left"
    """A seat changed hands (its person left)."""


class OfferIn(_Strict):
    """Offer the other seated persons a rematch (once the game is over), a draw, or a takeback of this seat's last
    move (while the game is on). Offering what another seat offered already accepts it."""

    type: Literal["offer"]
    kind: Annotated[OfferKind, Strict(False)]
    game_no: int | None = Field(None, ge=1, description="The game the offer is about (refused stale_version if the "
                                                        "room has moved on to another); default: the current one.")
    ref: str | int | None = Field(None, description="Any short value, echoed in an error.")


class AnswerIn(_Strict):
    """Accept or decline the pending offer of ``kind``; the offerer declining withdraws it."""

    type: Literal["answer"]
    kind: Annotated[OfferKind, Strict(False)]
    accept: bool
    game_no: int | None = Field(None, ge=1, description="The game the offer is about; default: the current one.")
    ref: str | int | None = Field(None, description="Any short value, echoed in an error.")


ClientMessage: TypeAdapter[Hello | ActionMsg | SyncMsg | PingMsg | ChatIn | ResignMsg | OfferIn | AnswerIn] = TypeAdapter(
    Annotated[Hello | ActionMsg | SyncMsg | PingMsg | ChatIn | ResignMsg | OfferIn | AnswerIn, Field(discriminator="type")])
"""Any message a client sends."""


# -- websocket: server to client ---------------------------------------------------------------------
class Welcome(BaseModel):
    """The answer to hello: the seat this socket plays (null: a spectator) and the room."""

    type: Literal["welcome"] = "welcome"
    seat: int | None
    room: RoomOut


class ClockOut(BaseModel):
    """Where the game's clock stands, in the server's time: count down from these, not from the client's clock."""

    kind: ClockKind
    seat: int | None = Field(description="The seat whose time runs now (null: nobody's: a bot's or an open "
                                         "seat's turn, or the game is over).")
    remaining_ms: list[int] = Field(description="Real-time: each seat's time left at ``now`` (empty: turn-based).")
    deadline_at: datetime | None = Field(description="When the running seat's time runs out (UTC).")
    now: datetime = Field(description="The server's time when this was sent (UTC).")
    increment_s: int
    move_s: int


class StateMsg(BaseModel):
    """What this socket's seat may know now: its view, its log since the last state, its legal actions."""

    type: Literal["state"] = "state"
    game_no: int
    version: int = Field(description="Send it with the next action.")
    seat: int | None
    started: bool
    to_move: int | None
    view: dict[str, Any] = Field(description="table.view(seat): the game's view for this seat (null seat: spectators).")
    events_from: int = Field(description="The index of the first event below in the seat's log.")
    events: list[dict[str, Any]] = Field(description="The seat's log events from events_from on.")
    log: list[str] = Field(description="The same events in words.")
    legal: list[str] = Field(description="The seat's legal actions (empty unless it decides now and the game has started).")
    names: list[str]
    outcome: dict[str, Any] | None
    clock: ClockOut | None = Field(None, description="The clock in the server's time (null: the room has none).")
    watchers: int = Field(0, description="How many sockets watch the room without a seat (on this server process): "
                                         "only the count, never who.")


class Accepted(BaseModel):
    """This socket's action is stored (committed): the version after it."""

    type: Literal["accepted"] = "accepted"
    version: int
    action: str
    ref: str | int | None = None


class ErrorMsg(BaseModel):
    """A refusal, to the socket that caused it only; the room is unchanged."""

    type: Literal["error"] = "error"
    code: str
    message: str
    rule: str | None = None
    ref: str | int | None = None


class BotMsg(BaseModel):
    """Where the bot's move stands: waiting in the server's queue behind ``ahead`` moves of other rooms, or
    being thought (the room is told instead of the bot playing worse when the server is busy)."""

    type: Literal["bot"] = "bot"
    seat: int = Field(description="The bot's seat.")
    phase: Literal["queued", "thinking", "retrying"] = Field(
        description="queued: waiting for a worker; thinking: searching; retrying: the agent failed, it tries again.")
    ahead: int = Field(description="Bot moves (of other rooms) queued before this one.")
    queued: int = Field(description="Bot moves queued on this server process in all.")


class RoomMsg(BaseModel):
    """The room's metadata changed (a seat was joined or left, a rematch began)."""

    type: Literal["room"] = "room"
    room: RoomOut


class Pong(BaseModel):
    """The answer to ping."""

    type: Literal["pong"] = "pong"


class ChatLineOut(BaseModel):
    """One chat message: what a person typed (show it as text, never HTML) and who: seat label, name, account."""

    id: int = Field(description="Report it with POST /api/rooms/{room_id}/chat/{id}/report.")
    seat: int | None = Field(description="The sender's seat (null: a spectator).")
    label: str = Field(description="The sender's seat label (P1 Alice), or Spectator Bob.")
    name: str
    account: str | None
    text: str
    at: datetime


class ChatMsg(ChatLineOut):
    """Somebody said something in the room (muted and blocked senders are not sent)."""

    type: Literal["chat"] = "chat"


class ChatLogMsg(BaseModel):
    """The room's recent chat (up to 50 messages, oldest first), sent after the first state of a socket."""

    type: Literal["chat_log"] = "chat_log"
    messages: list[ChatLineOut]


class OfferMsg(BaseModel):
    """A pending offer, to every socket of the room (and to a socket that connects meanwhile): sent when it is made
    and after each acceptance. Only seats and numbers: an offer carries nothing of any seat's hand."""

    type: Literal["offer"] = "offer"
    kind: OfferKind
    by: int = Field(description="The seat that offered it.")
    game_no: int
    version: int = Field(description="The game's version when it was made (a move makes a draw or takeback lapse).")
    accepted: list[int] = Field(description="The seats that agreed (the offerer first).")
    waiting: list[int] = Field(description="The seated persons whose answer it waits for.")


class OfferClosedMsg(BaseModel):
    """An offer ended, to every socket of the room: accepted (what it offered follows), declined, withdrawn,
    lapsed, or a seat changed hands."""

    type: Literal["offer_closed"] = "offer_closed"
    kind: OfferKind
    by: int = Field(description="The seat that offered it.")
    game_no: int
    end: OfferEnd
    seat: int | None = Field(None, description="Who declined, withdrew or left (null: accepted or lapsed).")


ServerMessage: TypeAdapter[Welcome | StateMsg | Accepted | ErrorMsg | RoomMsg | BotMsg | Pong | ChatMsg
                           | ChatLogMsg | OfferMsg | OfferClosedMsg] = TypeAdapter(
    Annotated[Welcome | StateMsg | Accepted | ErrorMsg | RoomMsg | BotMsg | Pong | ChatMsg | ChatLogMsg | OfferMsg
              | OfferClosedMsg, Field(discriminator="type")])
"""Any message the server sends."""


class CloseCode(Enum):
    """The close codes the server ends a socket with."""

    BAD_HELLO = 4400
    """The first message was not a valid hello."""
    BAD_TOKEN = 4401
    """The token holds no seat of this room."""
    NO_ACCESS = 4403
    """A private room, without its invite code."""
    NO_SUCH_ROOM = 4404
    """There is no such room."""
    HELLO_TIMEOUT = 4408
    """No hello in time."""
    REVOKED = 4409
    """The seat was left (the token is revoked)."""
    TOO_SLOW = 4429
    """The client did not read its messages fast enough."""
    RATE_LIMITED = 4430
    """Too many wrong invite codes from this address lately."""
    FULL = 4503
    """The room has too many connections, or the server is stopping."""
    INTERNAL = 1011
    """The server failed (a bug: reconnect)."""
