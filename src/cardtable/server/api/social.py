"""Social play over HTTP: a room's chat settings and reports, mutes and blocks, "my games", friends and
presence, notifications and invites, "play now" pairing, and the lobby (docs/server.md: Social play)."""

from __future__ import annotations

import asyncio
import secrets
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from cardtable.core.errors import ErrorCode
from cardtable.core.registry import game_class, game_names, load_game
from cardtable.store import SeatStatus, Store, social
from cardtable.store.accounts import name_key
from cardtable.store.models import AccountRow, AccountStatus, LeavePolicy, RoomRow, utcnow
from cardtable.store.ratings import aware
from cardtable.store.social_models import ClockKind, RoomSocial

from .. import access
from ..access import Bearer, Invite, RoomId
from ..auth import CurrentAccount, RequireAccount
from ..errors import Refusal, responses
from ..protocol import RoomOut
from ..rooms import check_bot, control_characters, room_out
from ..throttle import address_of
from .deps import ServicesDep

router = APIRouter(tags=["social"])

AccountId = Annotated[str, Path(max_length=24, description="An account id.")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# -- chat ------------------------------------------------------------------------------------------------
class ChatSettingsIn(_Strict):
    """Whether spectators may chat in the room."""

    spectators: bool


class ReportIn(_Strict):
    """Why a message is reported (optional, at most 500 characters)."""

    reason: str = Field("", max_length=500)


class ReportOut(BaseModel):
    """The report's id."""

    report: int


def _owner_check(store: Store, room_id: str, token: str | None, account_id: str | None) -> None:
    """Refusal ``not_owner`` unless the request comes from the room's owner: the account that made it, or (a
    guest made it) the person holding its first seat."""
    info = store.room(room_id)
    owner = info.social.owner_account
    if owner is not None:
        if account_id == owner:
            return
    elif token is not None and store.seat_of(room_id, access.digest(token)) == 0:
        return
    raise Refusal(ErrorCode.NOT_OWNER, "only the room's owner may change this (the account that made the room, "
                                       "or the person in its first seat)", status=403)


@router.post("/api/rooms/{room_id}/chat/settings", response_model=RoomOut, responses=responses(400, 403, 404))
async def chat_settings(room_id: RoomId, body: ChatSettingsIn, creds: Bearer, services: ServicesDep,
                        account: CurrentAccount) -> RoomOut:
    """Switch spectator chat on or off (the room's owner only: ``not_owner``)."""
    store, hub = services.parts()
    await asyncio.to_thread(_owner_check, store, room_id, access.bearer_token(creds),
                            account.id if account else None)
    await asyncio.to_thread(social.set_spectator_chat, store, room_id, body.spectators)
    after = await asyncio.to_thread(store.room, room_id)
    await hub.resettle(room_id, after)
    return room_out(after)


@router.post("/api/rooms/{room_id}/chat/{message_id}/report", response_model=ReportOut, status_code=201,
             responses=responses(400, 401, 403, 404, 429))
async def report_message(room_id: RoomId, message_id: Annotated[int, Path(ge=1)], body: ReportIn, creds: Bearer,
                         request: Request, services: ServicesDep, account: CurrentAccount,
                         invite: Invite = None) -> ReportOut:
    """Report a chat message of the room to the server's operators (``cardtable admin reports``)."""
    store, _ = services.parts()
    address = address_of(request.client)
    services.throttle.join(address)
    bad = control_characters(body.reason.replace("\n", " "))
    if bad:
        raise Refusal(ErrorCode.BAD_CHAT, "a reason must not hold control characters")
    with services.throttle.invite_attempt(address, invite):
        _info, seat = await asyncio.to_thread(access.room_access, store, room_id, access.bearer_token(creds), invite)
    line = await asyncio.to_thread(social.chat_line, store, message_id)
    if line is None or line.room_id != room_id:
        raise Refusal(ErrorCode.NO_SUCH_MESSAGE, "this room has no such message", status=404)
    reporter = (f"account:{account.id}" if account is not None else
                f"seat:{room_id}:{seat}" if seat is not None else f"address:{address}")
    return ReportOut(report=await asyncio.to_thread(social.report, store, message_id, reporter, body.reason))


# -- mutes and blocks ------------------------------------------------------------------------------------
class PersonOut(BaseModel):
    """An account and its display name."""

    account: str
    name: str


class PeopleOut(BaseModel):
    """Accounts."""

    accounts: list[PersonOut]


def _people(store: Store, ids: list[str]) -> PeopleOut:
    with store.engine.connect() as conn:
        names = social.names_of(conn, ids)
    return PeopleOut(accounts=[PersonOut(account=i, name=names.get(i, "deleted player")) for i in ids])


def _other(store: Store, me: str, other: str) -> str:
    """An active account other than ``me``; Refusal ``no_such_player`` if not."""
    if other == me or social.account_name(store, other) is None:
        raise Refusal(ErrorCode.NO_SUCH_PLAYER, "there is no such player", status=404)
    return other


async def _resilence(services: Any, store: Store, account_id: str) -> None:
    silenced = await asyncio.to_thread(social.silenced, store, account_id)
    _, hub = services.parts()
    hub.resilence(account_id, silenced)


@router.get("/api/account/mutes", response_model=PeopleOut, responses=responses(401))
async def list_mutes(services: ServicesDep, account: RequireAccount) -> PeopleOut:
    """The accounts whose chat you muted."""
    store, _ = services.parts()
    return await asyncio.to_thread(lambda: _people(store, social.mutes(store, account.id)))


@router.put("/api/account/mutes/{account_id}", status_code=204, response_class=Response, responses=responses(400, 401, 404))
async def add_mute(account_id: AccountId, services: ServicesDep, account: RequireAccount) -> Response:
    """Mute an account's chat (you no longer receive it, in every room)."""
    store, _ = services.parts()
    other = await asyncio.to_thread(_other, store, account.id, account_id)
    await asyncio.to_thread(social.mute, store, account.id, other, True)
    await _resilence(services, store, account.id)
    return Response(status_code=204)


@router.delete("/api/account/mutes/{account_id}", status_code=204, response_class=Response, responses=responses(401))
async def remove_mute(account_id: AccountId, services: ServicesDep, account: RequireAccount) -> Response:
    """Unmute an account."""
    store, _ = services.parts()
    await asyncio.to_thread(social.mute, store, account.id, account_id, False)
    await _resilence(services, store, account.id)
    return Response(status_code=204)


@router.get("/api/account/blocks", response_model=PeopleOut, responses=responses(401))
async def list_blocks(services: ServicesDep, account: RequireAccount) -> PeopleOut:
    """The accounts you blocked."""
    store, _ = services.parts()
    return await asyncio.to_thread(lambda: _people(store, social.blocks(store, account.id)))


@router.put("/api/account/blocks/{account_id}", status_code=204, response_class=Response,
            responses=responses(400, 401, 404))
async def add_block(account_id: AccountId, services: ServicesDep, account: RequireAccount) -> Response:
    """Block an account: no chat either way, no friend requests or invites, never paired (a friendship ends)."""
    store, _ = services.parts()
    other = await asyncio.to_thread(_other, store, account.id, account_id)
    await asyncio.to_thread(social.block, store, account.id, other, True)
    await _resilence(services, store, account.id)
    await _resilence(services, store, other)
    return Response(status_code=204)


@router.delete("/api/account/blocks/{account_id}", status_code=204, response_class=Response, responses=responses(401))
async def remove_block(account_id: AccountId, services: ServicesDep, account: RequireAccount) -> Response:
    """Unblock an account."""
    store, _ = services.parts()
    await asyncio.to_thread(social.block, store, account.id, account_id, False)
    await _resilence(services, store, account.id)
    await _resilence(services, store, account_id)
    return Response(status_code=204)


# -- my games --------------------------------------------------------------------------------------------
class OpponentOut(BaseModel):
    """Another seat of the game."""

    seat: int
    name: str
    account: str | None
    status: SeatStatus
    spec: str


class MyGameOut(BaseModel):
    """An unfinished game you are seated in."""

    room: str
    game: str
    title: str
    game_no: int
    seat: int
    version: int
    to_move: int | None
    started: bool
    my_turn: bool
    clock: ClockKind
    deadline_at: datetime | None = Field(description="When the seat to move runs out of time (UTC; null: no clock, "
                                                     "or nobody's time runs).")
    remaining_ms: list[int] = Field(description="Real-time: each seat's time left when the current turn began.")
    opponents: list[OpponentOut]
    url: str


class MyGamesOut(BaseModel):
    """Your unfinished games, those waiting for your move first (soonest deadline first)."""

    games: list[MyGameOut]
    my_turn: int
    now: datetime


class CountOut(BaseModel):
    """How many games wait for your move, and your unread notifications (cheap: poll it)."""

    my_turn: int
    notifications: int


def _my_games(store: Store, account_id: str) -> MyGamesOut:
    games = social.my_games(store, account_id)
    out = [MyGameOut(room=g.room_id, game=g.game, title=g.title, game_no=g.game_no, seat=g.seat, version=g.version,
                     to_move=g.to_move, started=g.started, my_turn=g.my_turn, clock=g.clock,
                     deadline_at=g.deadline_at, remaining_ms=list(g.remaining_ms),
                     opponents=[OpponentOut(**o) for o in g.opponents], url=f"/rooms/{g.room_id}")
           for g in games]
    return MyGamesOut(games=out, my_turn=sum(1 for g in games if g.my_turn), now=utcnow())


@router.get("/api/account/games", response_model=MyGamesOut, responses=responses(401))
async def my_games(services: ServicesDep, account: RequireAccount) -> MyGamesOut:
    """Every unfinished game you hold a seat in (your turn first)."""
    store, _ = services.parts()
    await asyncio.to_thread(social.touch, store, account.id, None, keep_room=True)
    return await asyncio.to_thread(_my_games, store, account.id)


@router.get("/api/account/games/count", response_model=CountOut, responses=responses(401))
async def my_games_count(services: ServicesDep, account: RequireAccount) -> CountOut:
    """How many of your games wait for your move, and unread notifications: for a badge and the tab's title."""
    store, _ = services.parts()
    await asyncio.to_thread(social.touch, store, account.id, None, keep_room=True)
    turn = await asyncio.to_thread(social.my_turn_count, store, account.id)
    return CountOut(my_turn=turn, notifications=await asyncio.to_thread(social.unread_count, store, account.id))


# -- friends and presence --------------------------------------------------------------------------------
class FriendIn(_Strict):
    """Whom to befriend: an account id or a name."""

    account: str | None = Field(None, max_length=24)
    name: str | None = Field(None, max_length=64)


class FriendOut(BaseModel):
    """A friend (or a request) and, for friends, where they are."""

    account: str
    name: str
    state: social.FriendState = Field(description="friends, sent (your request waits), received (theirs waits).")
    online: bool
    last_seen: datetime | None
    room: str | None = Field(description="The room they have open (null: none, or not online).")
    game: str | None


class FriendsOut(BaseModel):
    """Your friends and requests, online first."""

    friends: list[FriendOut]


class FriendStateOut(BaseModel):
    """Where you and the other account stand now."""

    state: social.FriendState


def _find(store: Store, body: FriendIn) -> str:
    with store.engine.connect() as conn:
        if body.account is not None:
            row = conn.execute(select(AccountRow.id).where(AccountRow.id == body.account,
                                                           AccountRow.status == AccountStatus.ACTIVE)).first()
        elif body.name is not None:
            row = conn.execute(select(AccountRow.id).where(AccountRow.name_key == name_key(body.name),
                                                           AccountRow.status == AccountStatus.ACTIVE)).first()
        else:
            raise Refusal(ErrorCode.BAD_REQUEST, "give an account id or a name")
    if row is None:
        raise Refusal(ErrorCode.NO_SUCH_PLAYER, "there is no such player", status=404)
    return str(row[0])


def _not_blocked(store: Store, me: str, other: str) -> None:
    if social.is_blocked(store, me, other):
        raise Refusal(ErrorCode.BLOCKED, "one of you has blocked the other", status=403)


@router.get("/api/account/friends", response_model=FriendsOut, responses=responses(401))
async def list_friends(services: ServicesDep, account: RequireAccount) -> FriendsOut:
    """Your friends (online or not, in which room and game) and friend requests."""
    store, _ = services.parts()
    await asyncio.to_thread(social.touch, store, account.id, None, keep_room=True)
    found = await asyncio.to_thread(social.friends, store, account.id)
    return FriendsOut(friends=[FriendOut(account=f.account_id, name=f.name, state=f.state, online=f.online,
                                         last_seen=f.last_seen, room=f.room_id, game=f.game) for f in found])


@router.post("/api/account/friends", response_model=FriendStateOut, responses=responses(400, 401, 403, 404))
async def request_friend(body: FriendIn, services: ServicesDep, account: RequireAccount) -> FriendStateOut:
    """Send a friend request (if they had sent you one, you are friends now); they get a notification."""
    store, _ = services.parts()
    other = await asyncio.to_thread(_find, store, body)
    await asyncio.to_thread(_other, store, account.id, other)
    await asyncio.to_thread(_not_blocked, store, account.id, other)
    return FriendStateOut(state=await asyncio.to_thread(social.request_friend, store, account.id, other))


@router.post("/api/account/friends/{account_id}/accept", response_model=FriendStateOut, responses=responses(400, 401, 404))
async def accept_friend(account_id: AccountId, services: ServicesDep, account: RequireAccount) -> FriendStateOut:
    """Accept a friend request (``no_such_player`` if there is none from that account)."""
    store, _ = services.parts()
    if not await asyncio.to_thread(social.answer_friend, store, account.id, account_id, True):
        raise Refusal(ErrorCode.NO_SUCH_PLAYER, "no friend request from this player", status=404)
    return FriendStateOut(state=social.FriendState.FRIENDS)


@router.post("/api/account/friends/{account_id}/refuse", status_code=204, response_class=Response,
             responses=responses(400, 401, 404))
async def refuse_friend(account_id: AccountId, services: ServicesDep, account: RequireAccount) -> Response:
    """Refuse a friend request."""
    store, _ = services.parts()
    if not await asyncio.to_thread(social.answer_friend, store, account.id, account_id, False):
        raise Refusal(ErrorCode.NO_SUCH_PLAYER, "no friend request from this player", status=404)
    return Response(status_code=204)


@router.delete("/api/account/friends/{account_id}", status_code=204, response_class=Response, responses=responses(401))
async def remove_friend(account_id: AccountId, services: ServicesDep, account: RequireAccount) -> Response:
    """End a friendship, or withdraw or drop a request."""
    store, _ = services.parts()
    await asyncio.to_thread(social.remove_friend, store, account.id, account_id)
    return Response(status_code=204)


class InviteIn(_Strict):
    """The room (and seat) to invite a friend to; a private room's invite code, passed on to them."""

    room: str = Field(max_length=24)
    seat: int | None = Field(None, ge=0, lt=8)
    invite: str | None = Field(None, max_length=128)


def _invite(store: Store, me: str, my_name: str, friend: str, body: InviteIn) -> None:
    with store.engine.connect() as conn:
        state = social.friend_state(conn, me, friend)
        blocked = social.blocked_between(conn, me, friend)
    if blocked:
        raise Refusal(ErrorCode.BLOCKED, "one of you has blocked the other", status=403)
    if state is not social.FriendState.FRIENDS:
        raise Refusal(ErrorCode.NO_SUCH_PLAYER, "you can invite only your friends", status=404)
    info = store.room(body.room)
    if info.private and not access.matches(info.invite_hash, body.invite):
        raise Refusal(ErrorCode.NO_ACCESS, "a private room: pass its invite code along", status=403)
    open_seats = info.open_seats if body.seat is None else [s for s in info.open_seats if s == body.seat]
    if info.finished or not open_seats:
        raise Refusal(ErrorCode.SEAT_TAKEN, "this room has no open seat to invite to", status=409)
    link = f"/rooms/{info.id}" + (f"?invite={body.invite}" if info.private and body.invite else "")
    social.add_notification(store, friend, "invite", {
        "from": me, "from_name": my_name, "room": info.id, "game": info.game, "title": info.title,
        "seat": open_seats[0], "invite": body.invite if info.private else None, "url": link})


@router.post("/api/account/friends/{account_id}/invite", status_code=204, response_class=Response,
             responses=responses(400, 401, 403, 404, 409))
async def invite_friend(account_id: AccountId, body: InviteIn, services: ServicesDep,
                        account: RequireAccount) -> Response:
    """Invite a friend into a room's open seat: they get an ``invite`` notification with the room's link."""
    store, _ = services.parts()
    await asyncio.to_thread(_invite, store, account.id, account.name, account_id, body)
    return Response(status_code=204)


class NotificationOut(BaseModel):
    """One notification: ``friend_request``, ``friend_accepted``, ``invite`` or ``paired``, with its data."""

    id: int
    kind: str
    data: dict[str, Any]
    created_at: datetime
    read: bool


class NotificationsOut(BaseModel):
    """Your notifications after ``since``, newest first, and how many are unread."""

    notifications: list[NotificationOut]
    unread: int


class ReadIn(_Strict):
    """Mark notifications up to this id read."""

    upto: int = Field(ge=0)


@router.get("/api/account/notifications", response_model=NotificationsOut, responses=responses(401))
async def notifications(services: ServicesDep, account: RequireAccount,
                        since: Annotated[int, Query(ge=0)] = 0) -> NotificationsOut:
    """Your notifications with an id above ``since`` (poll with the newest id you have)."""
    store, _ = services.parts()
    await asyncio.to_thread(social.touch, store, account.id, None, keep_room=True)
    found = await asyncio.to_thread(social.notifications, store, account.id, since)
    return NotificationsOut(notifications=[NotificationOut(id=n.id, kind=n.kind, data=n.data, created_at=n.created_at,
                                                           read=n.read) for n in found],
                            unread=await asyncio.to_thread(social.unread_count, store, account.id))


@router.post("/api/account/notifications/read", status_code=204, response_class=Response, responses=responses(400, 401))
async def read_notifications(body: ReadIn, services: ServicesDep, account: RequireAccount) -> Response:
    """Mark your notifications up to ``upto`` read."""
    store, _ = services.parts()
    await asyncio.to_thread(social.mark_read, store, account.id, body.upto)
    return Response(status_code=204)


# -- play now --------------------------------------------------------------------------------------------
PRESETS = ("standard",)
"""The rule presets of the queue: ``standard`` is the game's default rules and a setup for the player count."""
BASE_WINDOW = 3.0
"""The rating window at first (in skill units, mu - 3 sigma, either side)."""
WIDEN_PER_10S = 1.0
"""How much the window widens for every 10 seconds waited."""


class PlayNowIn(_Strict):
    """Join the queue of a game, player count and rule preset; ``bot_after_s``: offer a bot after that long."""

    game: str = Field(max_length=32)
    players: int = Field(2, ge=1, le=8)
    preset: Literal["standard"] = "standard"
    bot_after_s: int | None = Field(None, ge=5, le=3600)


class PlayNowOut(BaseModel):
    """Where you stand: ``waiting`` (with the window and whether a bot is offered) or ``paired`` (the room, your
    seat and its token: shown once, keep it), or ``none`` (not queued)."""

    status: Literal["waiting", "paired", "none"]
    game: str | None = None
    players: int | None = None
    preset: str | None = None
    waited_s: float = 0.0
    window: float = 0.0
    bot_offered: bool = False
    room: str | None = None
    seat: int | None = None
    token: str | None = None


def setup_for(game: str, players: int) -> dict[str, Any]:
    """A setup of ``game`` for ``players`` seats under default rules (Refusal ``bad_setup`` if it has none)."""
    cls = game_class(game)
    loaded = load_game(game)
    for flags, setup in cls.conformance_cases():
        if flags:
            continue
        try:
            if loaded.num_players_for(loaded.normalize_setup(dict(setup))) == players:
                return dict(setup)
        except ValueError:
            continue
    for setup in ({"players": players}, {}):
        try:
            if loaded.num_players_for(loaded.normalize_setup(dict(setup))) == players:
                return setup
        except (ValueError, TypeError):
            continue
    raise Refusal(ErrorCode.BAD_SETUP, f"{game} has no standard setup for {players} player(s)")


def _window(waited: float) -> float:
    return BASE_WINDOW + WIDEN_PER_10S * waited / 10.0


def _make_room(store: Store, game: str, players: int, *, rated: bool, bots: int = 0) -> Any:
    from ..protocol import CreateRoom
    from ..rooms import plan_room

    seats = [{"kind": "open"}] * (players - bots) + [{"kind": "bot", "spec": "normal"}] * bots
    plan = plan_room(CreateRoom.model_validate({
        "game": game, "setup": setup_for(game, players), "seats": seats, "rated": rated,
        "on_leave": (LeavePolicy.BOT if bots else LeavePolicy.REOPEN).value}))
    return store.create_room(game=plan.game, title="", rules=plan.rules, rules_version=plan.rules_version,
                             setup=plan.setup, private=True, invite_hash=None,
                             on_leave=LeavePolicy.BOT if bots else LeavePolicy.REOPEN, leave_bot=plan.leave_bot,
                             seats=plan.seats, seed=plan.seed, to_move=plan.to_move, rated=rated, social=RoomSocial())


def pair(store: Store, account_id: str, names: dict[str, str] | None = None) -> bool:
    """Try to pair a waiting account: take a full group within its window (rows locked, ``SKIP LOCKED`` on
    PostgreSQL, and claimed by a conditional update, so no account is ever paired twice), make a rated room,
    seat everybody (``Store.join`` with their accounts), publish the room and notify them. True if paired."""
    entry = social.queue_entry(store, account_id)
    if entry is None or entry.room_id is not None:
        return False
    waited = (utcnow() - entry.joined_at).total_seconds()
    claim = "~" + secrets.token_urlsafe(12)
    try:
        with store.transaction() as conn:
            group = social.take_group(conn, entry, _window(waited), locking=store.dialect == "postgresql")
            if not group:
                return False
            social.claim_group(conn, [w.account_id for w in group], claim)
    except social.ClaimLost:
        raise _Retry() from None
    try:
        info = _make_room(store, entry.game, entry.players, rated=True)
        seats: list[tuple[str, int, str]] = []
        for i, w in enumerate(sorted(group, key=lambda _w: secrets.randbits(16))):
            token = access.new_token()
            name = social.account_name(store, w.account_id) or "player"
            seat, info = store.join(info.id, i, name, access.digest(token), account_id=w.account_id)
            seats.append((w.account_id, seat, token))
    except Exception:
        social.release_claim(store, claim)
        raise
    social.finish_pairing(store, claim, info.id, seats, entry.game)
    return True


class _Retry(Exception):
    """Another process claimed one of the group first."""


@router.post("/api/play-now", response_model=PlayNowOut, responses=responses(400, 401))
async def play_now(body: PlayNowIn, services: ServicesDep, account: RequireAccount) -> PlayNowOut:
    """Join the "play now" queue (leaving any other queue) and try to pair at once."""
    store, hub = services.parts()
    if body.game not in game_names():
        raise Refusal(ErrorCode.UNKNOWN_GAME, f"unknown game {body.game!r}; choose one of: {', '.join(game_names())}")
    await asyncio.to_thread(setup_for, body.game, body.players)
    rating = await asyncio.to_thread(social.rating_of, store, account.id, body.game, body.players)
    await asyncio.to_thread(social.enqueue, store, account.id, body.game, body.players, body.preset, rating,
                            body.bot_after_s)
    return await _status(services, account.id)


async def _status(services: Any, account_id: str) -> PlayNowOut:
    store, hub = services.parts()
    await asyncio.to_thread(social.touch, store, account_id, None, keep_room=True)
    for _ in range(3):
        try:
            if await asyncio.to_thread(pair, store, account_id):
                break
        except _Retry:
            continue
        break
    entry = await asyncio.to_thread(social.queue_entry, store, account_id)
    if entry is None:
        return PlayNowOut(status="none")
    if entry.room_id is not None and not entry.room_id.startswith("~"):
        got = await asyncio.to_thread(social.collect, store, account_id)
        if got is not None and got.room_id is not None:
            await hub.refresh(got.room_id)
            return PlayNowOut(status="paired", game=got.game, players=got.players, preset=got.preset,
                              room=got.room_id, seat=got.seat, token=got.token)
    waited = (utcnow() - entry.joined_at).total_seconds()
    return PlayNowOut(status="waiting", game=entry.game, players=entry.players, preset=entry.preset,
                      waited_s=round(waited, 1), window=_window(waited),
                      bot_offered=entry.bot_after_s is not None and waited >= entry.bot_after_s)


@router.get("/api/play-now", response_model=PlayNowOut, responses=responses(401))
async def play_now_status(services: ServicesDep, account: RequireAccount) -> PlayNowOut:
    """Where you stand in the queue (poll it every few seconds: each poll tries to pair you, with a window that
    has widened meanwhile); once paired, the room, seat and token, once."""
    return await _status(services, account.id)


@router.delete("/api/play-now", status_code=204, response_class=Response, responses=responses(401))
async def leave_play_now(services: ServicesDep, account: RequireAccount) -> Response:
    """Leave the queue."""
    store, _ = services.parts()
    await asyncio.to_thread(social.leave_queue, store, account.id)
    return Response(status_code=204)


@router.post("/api/play-now/bot", response_model=PlayNowOut, responses=responses(400, 401, 409))
async def play_now_bot(services: ServicesDep, account: RequireAccount) -> PlayNowOut:
    """Take the bot offered after waiting (``not_queued`` before it is offered): an unrated room against bots,
    you seated; the room, seat and token."""
    store, hub = services.parts()
    entry = await asyncio.to_thread(social.queue_entry, store, account.id)
    waited = (utcnow() - entry.joined_at).total_seconds() if entry is not None else 0.0
    if entry is None or entry.room_id is not None or entry.bot_after_s is None or waited < entry.bot_after_s:
        raise Refusal(ErrorCode.NOT_QUEUED, "no bot is offered yet: join the queue with bot_after_s and wait",
                      status=409)
    if not await asyncio.to_thread(social.leave_queue, store, account.id):
        raise Refusal(ErrorCode.NOT_QUEUED, "you were paired or left the queue meanwhile", status=409)
    check_bot("normal", entry.game, {})
    info = await asyncio.to_thread(_make_room, store, entry.game, entry.players, rated=False,
                                   bots=entry.players - 1)
    token = access.new_token()
    seat, info = await asyncio.to_thread(store.join, info.id, 0, account.name, access.digest(token), account.id)
    await hub.refresh(info.id, info)
    return PlayNowOut(status="paired", game=entry.game, players=entry.players, preset=entry.preset, room=info.id,
                      seat=seat, token=token)


# -- the lobby -------------------------------------------------------------------------------------------
class LobbyGameOut(BaseModel):
    """A public game to watch, or one just finished (its replay)."""

    room: str
    game: str
    title: str
    game_no: int
    rated: bool
    players: list[OpponentOut]
    rating: float | None = Field(description="The mean conservative skill of its rated players (null: none).")
    version: int
    finished_at: datetime | None
    outcome: dict[str, Any] | None
    url: str
    updated_at: datetime | None = Field(None, description="When its room last moved (a game being played; "
                                                           "null: finished or unknown).")


class LobbyOut(BaseModel):
    """Games being played (highest rated first), recent finished games, players online."""

    playing: list[LobbyGameOut]
    finished: list[LobbyGameOut]
    online: int


def _moved(store: Store, room_ids: list[str]) -> dict[str, datetime]:
    """When each room last moved."""
    if not room_ids:
        return {}
    with store.engine.connect() as conn:
        rows = conn.execute(select(RoomRow.id, RoomRow.updated_at).where(RoomRow.id.in_(room_ids))).all()
    return {r.id: aware(r.updated_at) for r in rows if r.updated_at is not None}


def _lobby(store: Store) -> LobbyOut:
    playing, finished = social.lobby(store)
    moved = _moved(store, [g.room_id for g in playing])

    def out(g: social.LobbyGame) -> LobbyGameOut:
        url = (f"/rooms/{g.room_id}" if g.finished_at is None
               else f"/api/rooms/{g.room_id}/records/{g.game_no}")
        return LobbyGameOut(room=g.room_id, game=g.game, title=g.title, game_no=g.game_no, rated=g.rated,
                            players=[OpponentOut(**p) for p in g.players], rating=g.rating, version=g.version,
                            finished_at=g.finished_at, outcome=g.outcome, url=url,
                            updated_at=moved.get(g.room_id) if g.finished_at is None else None)

    return LobbyOut(playing=[out(g) for g in playing], finished=[out(g) for g in finished],
                    online=social.online_count(store))


@router.get("/api/lobby", response_model=LobbyOut)
async def lobby(services: ServicesDep, account: CurrentAccount) -> LobbyOut:
    """What is going on: public games being played, recent finished ones, how many players are online."""
    store, _ = services.parts()
    if account is not None:
        await asyncio.to_thread(social.touch, store, account.id, None, keep_room=True)
    return await asyncio.to_thread(_lobby, store)

