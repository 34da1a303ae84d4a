"""``/api/players/...``, ``/api/leaderboards/...``, a game's rating changes and a player's own records.

Ratings, profiles and leaderboards read what :mod:`cardtable.store.ratings` stored; a finished game of a
rated room is rated by the store's finish hook (docs/ratings.md). Names are plain text in JSON (a client
shows them as text); a deleted account is named "deleted player".
"""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy import select

from cardtable.core.errors import ErrorCode
from cardtable.core.registry import game_names
from cardtable.store import ratings as r
from cardtable.store.models import AccountRow, AccountStatus, utcnow

from .. import access
from ..access import Bearer, Invite, RoomId
from ..auth import CurrentAccount, RequireAccount
from ..errors import Refusal, responses
from ..throttle import address_of
from .deps import ServicesDep

router = APIRouter(tags=["players"])

ACCOUNT_ID = r"^[A-Za-z0-9_-]{1,24}$"
"""What an account id looks like (anything else is no player)."""
RECENT = 20
"""How many recent games a profile lists."""
FAVOURITES = 5
"""How many favourite setups a profile lists."""

AccountId = Annotated[str, Path(pattern=ACCOUNT_ID, description="An account id (a seat's ``account``).")]
GameNo = Annotated[int, Path(ge=1, le=1_000_000)]
Players = Annotated[int, Query(ge=1, le=8, description="The player count (Oscilloscope is rated per count).")]


# -- answers -------------------------------------------------------------------------------------------
class RatingChangeOut(BaseModel):
    """What one rated game did to one seat's rating (displayed numbers, and openskill's own)."""

    seat: int
    account: str
    name: str
    before: int
    after: int
    delta: int
    provisional: bool = Field(description="Fewer than 10 rated games of this game and player count, this one included.")
    mu: float
    sigma: float
    deleted: bool = Field(False, description="The account was deleted (its name is \"deleted player\").")


class GameRatings(BaseModel):
    """The rating changes of one game of a room (the end screen)."""

    rated: bool = Field(description="True when the game changed ratings (a rated room, every seat one account).")
    room_rated: bool = Field(description="The room is rated (its games between signed-in people count).")
    changes: list[RatingChangeOut]


class RatingOut(BaseModel):
    """A player's rating of one game and player count."""

    game: str
    players: int
    rating: int = Field(description="round(1500 + 60 * (mu - 3 sigma)).")
    mu: float
    sigma: float
    games: int
    provisional: bool
    rank: int | None = Field(description="The place on the leaderboard (null: not on it).")


class SeatStat(BaseModel):
    """Games and wins from one seat (0 = first)."""

    seat: int
    games: int
    wins: int


class StatOut(BaseModel):
    """Games played of one game and player count, rated or not, with bots or not."""

    game: str
    players: int
    games: int
    wins: int
    draws: int
    losses: int
    by_seat: list[SeatStat]


class OpponentOut(BaseModel):
    """Who sat in another seat (at the game's end)."""

    seat: int
    account: str | None
    name: str
    bot: bool
    deleted: bool = Field(False, description="Their account was deleted (its name is \"deleted player\").")


class RecentOut(BaseModel):
    """A recent finished game of the player."""

    room: str
    game_no: int
    game: str
    players: int
    finished_at: datetime
    seat: int
    result: str = Field(description="win, draw or loss.")
    rated: bool
    opponents: list[OpponentOut]
    replay_url: str | None = Field(description="The replay page (public rooms: the finished game revealed or as "
                                               "a seat saw it; null for a private room).")
    record_url: str | None = Field(description="The record download: the room's (public rooms) or, for the "
                                               "player themselves, GET /api/account/records/{room}/{game_no}.")


class FavouriteOut(BaseModel):
    """A deck or an option set the player chose, and how often."""

    game: str
    name: str
    games: int


class Profile(BaseModel):
    """A player's profile: ratings, statistics, recent games, favourite setups."""

    id: str
    name: str
    deleted: bool
    created_at: datetime
    ratings: list[RatingOut]
    stats: list[StatOut]
    recent: list[RecentOut]
    decks: list[FavouriteOut]


class PointOut(BaseModel):
    """A rating after a rated game (the first point is the rating before the first game)."""

    at: datetime
    rating: int
    mu: float
    sigma: float


class RatingHistory(BaseModel):
    """A player's rating over time, for one game and player count (the chart)."""

    game: str
    players: int
    points: list[PointOut]


class BoardEntry(BaseModel):
    """One line of a leaderboard."""

    rank: int
    account: str
    name: str
    rating: int
    games: int


class MyStanding(BaseModel):
    """The asking player's own line (rank null while provisional or inactive)."""

    rank: int | None
    rating: int
    games: int
    provisional: bool


class Leaderboard(BaseModel):
    """A game's leaderboard at one player count."""

    game: str
    players: int
    min_games: int
    days: int
    entries: list[BoardEntry]
    me: MyStanding | None


def _check_game(game: str) -> None:
    if game not in game_names():
        raise Refusal(ErrorCode.UNKNOWN_GAME, f"unknown game {game!r}; choose one of: {', '.join(game_names())}",
                      status=404)


def _no_player(account_id: str) -> Refusal:
    return Refusal(ErrorCode.NO_SUCH_PLAYER, f"there is no player {account_id!r}", status=404)


def _rating(s: r.Standing) -> RatingOut:
    return RatingOut(game=s.game, players=s.players, rating=r.displayed(s.skill), mu=s.skill.mu, sigma=s.skill.sigma,
                     games=s.games, provisional=r.is_provisional(s.games), rank=s.rank)


# -- a game's ratings ----------------------------------------------------------------------------------
@router.get("/api/rooms/{room_id}/games/{game_no}/ratings", response_model=GameRatings,
            responses=responses(401, 403, 404, 429))
async def game_ratings(room_id: RoomId, game_no: GameNo, creds: Bearer, request: Request, services: ServicesDep,
                       invite: Invite = None) -> GameRatings:
    """What a game did to its players' ratings (empty while it goes on, or when it was not rated)."""
    store, _ = services.parts()
    with services.throttle.invite_attempt(address_of(request.client), invite):
        info, _seat = await asyncio.to_thread(access.room_access, store, room_id, access.bearer_token(creds), invite)

    def read() -> list[r.Change]:
        with store.engine.connect() as conn:
            return r.game_changes(conn, room_id, game_no)

    changes = await asyncio.to_thread(read)
    return GameRatings(rated=bool(changes), room_rated=info.rated, changes=[
        RatingChangeOut(seat=c.seat, account=c.account_id, name=c.name, before=r.displayed(c.before),
                        after=r.displayed(c.after), delta=r.displayed(c.after) - r.displayed(c.before),
                        provisional=r.is_provisional(c.games), mu=c.after.mu, sigma=c.after.sigma, deleted=c.deleted)
        for c in changes])


# -- profiles ------------------------------------------------------------------------------------------
def _stats(games: list[r.PlayedGame]) -> list[StatOut]:
    keyed: dict[tuple[str, int], list[r.PlayedGame]] = {}
    for g in games:
        keyed.setdefault((g.game, g.players), []).append(g)
    out: list[StatOut] = []
    for (game, players), played in sorted(keyed.items()):
        by_seat = [SeatStat(seat=seat, games=sum(1 for g in played if g.seat == seat),
                            wins=sum(1 for g in played if g.seat == seat and g.result == "win"))
                   for seat in range(players)]
        out.append(StatOut(game=game, players=players, games=len(played),
                           wins=sum(1 for g in played if g.result == "win"),
                           draws=sum(1 for g in played if g.result == "draw"),
                           losses=sum(1 for g in played if g.result == "loss"), by_seat=by_seat))
    return out


def setup_choices(setup: dict[str, Any], seat: int) -> list[str]:
    """The named decks and option sets a seat played with, read from a room's setup: a per-seat list of
    named entries (``decks: [{name, ...}, ...]``), a seat's own named choice (``p1_...`` for seat 0), or a
    named set every seat shares (``option_set``).

    >>> setup_choices({"decks": [{"name": "classic"}, {"name": "storm"}]}, 1)
    ['storm']
    >>> setup_choices({"option_set": "starter", "p1_hero": "tsubaki", "p2_hero": None}, 0)
    ['starter', 'tsubaki']
    """
    names: list[str] = []
    own = f"p{seat + 1}_"
    for key, value in setup.items():
        if isinstance(value, list) and seat < len(value) and isinstance(value[seat], dict):
            name = value[seat].get("name")
            if isinstance(name, str) and name:
                names.append(name)
        elif isinstance(value, str) and value and value != "none" and (key.startswith(own) or key.endswith("_set")):
            names.append(value)
    return names


def _favourites(games: list[r.PlayedGame]) -> list[FavouriteOut]:
    counts: Counter[tuple[str, str]] = Counter()
    for g in games:
        for name in set(setup_choices(g.setup, g.seat)):
            counts[(g.game, name)] += 1
    return [FavouriteOut(game=game, name=name, games=n)
            for (game, name), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:FAVOURITES]]


def _recent(g: r.PlayedGame, own: bool) -> RecentOut:
    public = not g.private
    record_url = (f"/api/rooms/{g.room_id}/records/{g.game_no}" if public
                  else f"/api/account/records/{g.room_id}/{g.game_no}" if own else None)
    return RecentOut(room=g.room_id, game_no=g.game_no, game=g.game, players=g.players, finished_at=g.finished_at,
                     seat=g.seat, result=g.result, rated=g.rated,
                     opponents=[OpponentOut(seat=o.seat, account=o.account_id, name=o.name, bot=o.bot, deleted=o.deleted)
                                for o in g.opponents],
                     replay_url=f"/replay/{g.room_id}/{g.game_no}" if public else None, record_url=record_url)


@router.get("/api/players/{account_id}", response_model=Profile, responses=responses(404))
async def profile(account_id: AccountId, services: ServicesDep, me: CurrentAccount) -> Profile:
    """A player's profile: ratings per game with their rank, statistics, recent games, favourite setups."""
    store, _ = services.parts()
    viewer = None if me is None else me.id

    def read() -> tuple[Any, list[r.Standing], list[r.PlayedGame]]:
        with store.engine.connect() as conn:
            account = conn.execute(select(AccountRow.id, AccountRow.name, AccountRow.status, AccountRow.created_at)
                                   .where(AccountRow.id == account_id)).first()
            if account is None:
                return None, [], []
            return account, r.standings(conn, account_id), r.played_games(conn, account_id)

    account, standings, games = await asyncio.to_thread(read)
    if account is None:
        raise _no_player(account_id)
    deleted = account.status is AccountStatus.DELETED
    own = viewer == account_id
    shown = games if own else [g for g in games if not g.private]  # a private room's games: its players only
    return Profile(id=account.id, name=r.name_of(account.name, account.status), deleted=deleted,
                   created_at=r.aware(account.created_at), ratings=[_rating(s) for s in standings], stats=_stats(games),
                   recent=[_recent(g, own) for g in shown[:RECENT]], decks=_favourites(games))


@router.get("/api/players/{account_id}/ratings/{game}", response_model=RatingHistory, responses=responses(404))
async def rating_history(account_id: AccountId, game: str, services: ServicesDep, players: Players = 2) -> RatingHistory:
    """A player's rating after each rated game of a game and player count (the chart's points)."""
    store, _ = services.parts()
    _check_game(game)

    def read() -> list[r.Point] | None:
        with store.engine.connect() as conn:
            if conn.execute(select(AccountRow.id).where(AccountRow.id == account_id)).first() is None:
                return None
            return r.history(conn, account_id, game, players)

    points = await asyncio.to_thread(read)
    if points is None:
        raise _no_player(account_id)
    return RatingHistory(game=game, players=players, points=[
        PointOut(at=p.at, rating=r.displayed(p.skill), mu=p.skill.mu, sigma=p.skill.sigma) for p in points])


# -- leaderboards --------------------------------------------------------------------------------------
@router.get("/api/leaderboards/{game}", response_model=Leaderboard, responses=responses(404))
async def leaderboard(game: str, services: ServicesDep, me: CurrentAccount, players: Players = 2,
                      limit: Annotated[int, Query(ge=1, le=100)] = 100) -> Leaderboard:
    """The best players of a game at one player count (at least 10 rated games, the last within 90 days),
    and the asking player's own place."""
    store, _ = services.parts()
    _check_game(game)
    viewer = None if me is None else me.id

    def read() -> tuple[list[r.Standing], r.Standing | None]:
        with store.engine.connect() as conn:
            board = r.leaderboard(conn, game, players, limit=limit)
            mine = r.standing(conn, viewer, game, players) if viewer is not None else None
            return board, mine

    board, mine = await asyncio.to_thread(read)
    own = None if mine is None else MyStanding(rank=mine.rank, rating=r.displayed(mine.skill), games=mine.games,
                                              provisional=r.is_provisional(mine.games))
    return Leaderboard(game=game, players=players, min_games=r.PROVISIONAL_GAMES, days=r.BOARD_DAYS, me=own,
                       entries=[BoardEntry(rank=s.rank or 0, account=s.account_id, name=s.name,
                                           rating=r.displayed(s.skill), games=s.games) for s in board])


# -- own records ---------------------------------------------------------------------------------------
@router.get("/api/account/records",
            responses={200: {"description": "Every finished record of the player, as one JSON list "
                                            "(what `cardtable replay FILE` reads).",
                             "content": {"application/json": {"schema": {"type": "array",
                                                                         "items": {"type": "object"}}}}},
                       **responses(401)})
async def own_records(services: ServicesDep, me: RequireAccount) -> JSONResponse:
    """All the signed-in player's finished records, oldest first, as a download."""
    store, _ = services.parts()
    account = me.id

    def read() -> list[dict[str, Any]]:
        with store.engine.connect() as conn:
            return r.own_records(conn, account)

    records = await asyncio.to_thread(read)
    stamp = utcnow().strftime("%Y%m%d")
    return JSONResponse(records, headers={"Content-Disposition":
                                          f'attachment; filename="cardtable-records-{stamp}.json"'})


@router.get("/api/account/records/{room_id}/{game_no}",
            responses={200: {"description": "The record (what `cardtable replay FILE` reads).",
                             "content": {"application/json": {"schema": {"type": "object"}}}},
                       **responses(401, 404)})
async def own_record(room_id: RoomId, game_no: GameNo, services: ServicesDep, me: RequireAccount) -> JSONResponse:
    """One finished record of a game the signed-in player sat in (private rooms included)."""
    store, _ = services.parts()
    account = me.id

    def read() -> dict[str, Any] | None:
        with store.engine.connect() as conn:
            return r.own_record(conn, account, room_id, game_no)

    record = await asyncio.to_thread(read)
    if record is None:
        raise Refusal(ErrorCode.NO_SUCH_GAME, "you played no finished game of that number in this room", status=404)
    return JSONResponse(record, headers={"Content-Disposition":
                                         f'attachment; filename="cardtable-{room_id}-{game_no}.json"'})


__all__ = ["router", "setup_choices"]
