"""Players' ratings: the openskill model, the hook that rates a finished game once, and the reads of
profiles, rating histories and leaderboards.

A rating belongs to one account, one game and one player count (an Oscilloscope game of 3 is rated
apart from one of 2). It is openskill's Plackett-Luce model: a skill estimate ``mu`` and its
uncertainty ``sigma``; what people see is the conservative :func:`displayed` number (docs/ratings.md).

>>> before = [fresh(), fresh()]
>>> after = rate(before, [1, 2])                     # seat 0 won a 2-player game
>>> [displayed(r) for r in before], [displayed(r) for r in after]
([1500, 1500], [1706, 1390])
>>> places({"winners": [1, 2], "scores": [3.0, 7.0, 7.0, 5.0]}, 4)   # two share first place
[4, 1, 1, 3]
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, func, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from .models import (
    AccountRow,
    AccountStatus,
    RatingChangeRow,
    RatingRow,
    RecordRow,
    RoomRow,
    SeatRow,
    SittingRow,
    utcnow,
)
from .store import NewAction

log = logging.getLogger(__name__)

MU = 25.0
"""A new player's skill estimate (openskill's default)."""
SIGMA = MU / 3
"""A new player's uncertainty (openskill's default: 25/3)."""
BETA = MU / 6
"""The spread of one game's performance around the skill (openskill's default: 25/6)."""
TAU = MU / 300
"""The uncertainty added before each game, so that a rating keeps moving (openskill's default: 25/300)."""
Z = 3.0
"""How many sigmas below mu the conservative rating sits (mu - 3 sigma: 99.7% sure the skill is higher)."""
BASE = 1500
"""The displayed rating of a new player (mu - 3 sigma = 0)."""
SCALE = 60
"""Displayed points per openskill point."""
PROVISIONAL_GAMES = 10
"""A rating is provisional (and off the leaderboards) until this many rated games."""
BOARD_DAYS = 90
"""A leaderboard lists players whose last rated game of it was at most this many days ago."""
DELETED_NAME = "deleted player"
"""How a deleted account is named everywhere."""

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)
"""The rating model: Plackett-Luce (any number of players, ties allowed), openskill's defaults."""


@dataclass(frozen=True)
class Skill:
    """An openskill rating: the skill estimate and its uncertainty."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3 sigma``."""
        return self.mu - Z * self.sigma


def fresh() -> Skill:
    """A new player's rating."""
    return Skill(MU, SIGMA)


def displayed(skill: Skill) -> int:
    """The number people see: ``round(1500 + 60 * (mu - 3 sigma))``."""
    return round(BASE + SCALE * skill.ordinal)


def is_provisional(games: int) -> bool:
    """True while a rating has fewer than :data:`PROVISIONAL_GAMES` rated games."""
    return games < PROVISIONAL_GAMES


def rate(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """The ratings after one game of these players (one per seat) finishing in these places (1 = first;
    equal places are ties)."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(float(t[0].mu), float(t[0].sigma)) for t in after]


def places(outcome: Mapping[str, Any], players: int) -> list[int]:
    """Each seat's place in a finished game (1 = first; shared places are ties): the winners share first
    place, the others follow by score (higher first) when the outcome has scores, else share the next
    place; a draw (no winners) is a tie of everybody."""
    winners = {int(w) for w in outcome.get("winners") or () if 0 <= int(w) < players}
    if not winners or len(winners) == players:
        return [1] * players
    raw = outcome.get("scores")
    scores = [float(s) for s in raw] if isinstance(raw, list) and len(raw) == players else [0.0] * players
    out: list[int] = []
    for p in range(players):
        if p in winners:
            out.append(1)
        else:  # competition ranking: after the winners, behind everybody who scored more
            out.append(1 + len(winners) + sum(1 for q in range(players) if q not in winners and scores[q] > scores[p]))
    return out


def result_of(outcome: Mapping[str, Any], seat: int, players: int) -> str:
    """``win``, ``draw`` or ``loss`` for a seat (everybody winning, or nobody, is a draw)."""
    winners = {int(w) for w in outcome.get("winners") or ()}
    if not winners or len(winners) >= players:
        return "draw"
    return "win" if seat in winners else "loss"


def aware(value: datetime) -> datetime:
    """A stored time with its time zone (SQLite gives them back naive, in UTC)."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


# -- the hook ------------------------------------------------------------------------------------------
def rated_seats(conn: Connection, room_id: str, game_no: int, players: int) -> list[str] | None:
    """The account of each seat if the game counts for ratings, else None: every seat held from version 0
    to the end by one account (one sitting each, a person, an account, still in the seat), all different."""
    sittings = conn.execute(select(SittingRow.seat, SittingRow.from_version, SittingRow.spec, SittingRow.account_id)
                            .where(SittingRow.room_id == room_id, SittingRow.game_no == game_no)).all()
    seats = {int(s.seat): str(s.account_id) for s in conn.execute(
        select(SeatRow.seat, SeatRow.account_id).where(SeatRow.room_id == room_id, SeatRow.account_id.is_not(None)))}
    by_seat: dict[int, list[Any]] = {}
    for s in sittings:
        by_seat.setdefault(int(s.seat), []).append(s)
    accounts: list[str] = []
    for seat in range(players):
        held = by_seat.get(seat, [])
        if len(held) != 1:
            return None
        only = held[0]
        if only.from_version != 0 or only.spec != "human" or only.account_id is None:
            return None
        if seats.get(seat) != only.account_id:
            return None
        accounts.append(str(only.account_id))
    if len(set(accounts)) != len(accounts):
        return None
    return accounts


def _ensure_rows(conn: Connection, accounts: Sequence[str], game: str, players: int) -> None:
    rows = [{"account_id": a, "game": game, "players": players, "mu": MU, "sigma": SIGMA, "games": 0,
             "updated_at": utcnow()} for a in sorted(set(accounts))]
    if conn.dialect.name == "postgresql":
        conn.execute(pg_insert(RatingRow).values(rows).on_conflict_do_nothing())
    elif conn.dialect.name == "sqlite":
        conn.execute(sqlite_insert(RatingRow).values(rows).on_conflict_do_nothing())
    else:  # pragma: no cover - the store runs on SQLite or PostgreSQL
        have = set(conn.execute(select(RatingRow.account_id).where(
            RatingRow.account_id.in_(accounts), RatingRow.game == game, RatingRow.players == players)).scalars())
        missing = [r for r in rows if r["account_id"] not in have]
        if missing:
            conn.execute(insert(RatingRow), missing)


def rate_game(conn: Connection, room_id: str, game_no: int, outcome: Mapping[str, Any]) -> bool:
    """Rate a finished game of a rated room (inside the caller's transaction), at most once; True if this
    call changed the ratings.

    The rating rows are created if missing and locked (``SELECT ... FOR UPDATE`` on PostgreSQL, in account
    order) before they are read, so two processes rating games of the same players one after the other
    never lose an update; the game's ``rating_changes`` rows are looked for after the lock, so a game
    rated by another transaction meanwhile is not rated again (and their unique key stops it anyway).
    """
    room = conn.execute(select(RoomRow.game, RoomRow.rated).where(RoomRow.id == room_id)).first()
    if room is None or not room.rated:
        return False
    players = int(conn.execute(select(func.count()).select_from(SeatRow).where(SeatRow.room_id == room_id)).scalar_one())
    accounts = rated_seats(conn, room_id, game_no, players)
    if accounts is None or players < 2:
        return False
    game = str(room.game)
    _ensure_rows(conn, accounts, game, players)
    locked = conn.execute(select(RatingRow.account_id, RatingRow.mu, RatingRow.sigma, RatingRow.games)
                          .where(RatingRow.account_id.in_(accounts), RatingRow.game == game,
                                 RatingRow.players == players)
                          .order_by(RatingRow.account_id).with_for_update()).all()
    current = {str(r.account_id): r for r in locked}
    done = conn.execute(select(func.count()).select_from(RatingChangeRow).where(
        RatingChangeRow.room_id == room_id, RatingChangeRow.game_no == game_no)).scalar_one()
    if done:
        return False
    before = [Skill(float(current[a].mu), float(current[a].sigma)) for a in accounts]
    after = rate(before, places(outcome, players))
    now = utcnow()
    conn.execute(insert(RatingChangeRow), [
        {"room_id": room_id, "game_no": game_no, "account_id": a, "game": game, "players": players, "seat": seat,
         "mu_before": b.mu, "sigma_before": b.sigma, "mu_after": n.mu, "sigma_after": n.sigma, "created_at": now}
        for seat, (a, b, n) in enumerate(zip(accounts, before, after, strict=True))])
    for a, n in zip(accounts, after, strict=True):
        conn.execute(update(RatingRow).where(RatingRow.account_id == a, RatingRow.game == game,
                                             RatingRow.players == players)
                     .values(mu=n.mu, sigma=n.sigma, games=int(current[a].games) + 1, updated_at=now))
    return True


def on_finish(conn: Connection, item: NewAction) -> None:
    """The store's finish hook: rate the game that ``item`` ended (if its room is rated and it counts)."""
    if item.outcome is not None:
        rate_game(conn, item.room_id, item.game_no, item.outcome)


# -- reads ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Change:
    """What a rated game did to one seat's rating."""

    seat: int
    account_id: str
    name: str
    before: Skill
    after: Skill
    games: int
    """Rated games of the player in this game and player count, this one included."""
    deleted: bool = False
    """The account was deleted (its name is "deleted player")."""


def name_of(name: str, status: AccountStatus) -> str:
    """An account's display name (a deleted one is "deleted player")."""
    return DELETED_NAME if status is AccountStatus.DELETED else name


def game_changes(conn: Connection, room_id: str, game_no: int) -> list[Change]:
    """The rating changes of a game, by seat (empty: the game was not rated)."""
    rows = Session(bind=conn).execute(select(RatingChangeRow, AccountRow.name, AccountRow.status)
                        .join(AccountRow, AccountRow.id == RatingChangeRow.account_id)
                        .where(RatingChangeRow.room_id == room_id, RatingChangeRow.game_no == game_no)
                        .order_by(RatingChangeRow.seat)).all()
    out: list[Change] = []
    for row, name, status in rows:
        nth = conn.execute(select(func.count()).select_from(RatingChangeRow).where(
            RatingChangeRow.account_id == row.account_id, RatingChangeRow.game == row.game,
            RatingChangeRow.players == row.players, RatingChangeRow.id <= row.id)).scalar_one()
        out.append(Change(int(row.seat), str(row.account_id), name_of(name, status),
                          Skill(row.mu_before, row.sigma_before), Skill(row.mu_after, row.sigma_after), int(nth),
                          status is AccountStatus.DELETED))
    return out


@dataclass(frozen=True)
class Standing:
    """A player's rating of one game and player count, and their place on its leaderboard (None: not on it)."""

    account_id: str
    name: str
    game: str
    players: int
    skill: Skill
    games: int
    updated_at: datetime
    rank: int | None = None


def _board_query(game: str, players: int, now: datetime) -> Any:
    return (select(RatingRow.account_id, AccountRow.name, AccountRow.status, RatingRow.mu, RatingRow.sigma,
                   RatingRow.games, RatingRow.updated_at)
            .join(AccountRow, AccountRow.id == RatingRow.account_id)
            .where(RatingRow.game == game, RatingRow.players == players, RatingRow.games >= PROVISIONAL_GAMES,
                   RatingRow.updated_at >= now - timedelta(days=BOARD_DAYS),
                   AccountRow.status == AccountStatus.ACTIVE))


def _eligible(games: int, updated_at: datetime, status: AccountStatus, now: datetime) -> bool:
    return (games >= PROVISIONAL_GAMES and aware(updated_at) >= now - timedelta(days=BOARD_DAYS)
            and status is AccountStatus.ACTIVE)


def leaderboard(conn: Connection, game: str, players: int, *, limit: int = 100,
                now: datetime | None = None) -> list[Standing]:
    """The leaderboard of a game and player count, best first: active players with at least
    :data:`PROVISIONAL_GAMES` rated games, the last within :data:`BOARD_DAYS` days, ranked by the
    conservative rating (equal displayed ratings share a rank)."""
    now = now or utcnow()
    ordinal = RatingRow.mu - Z * RatingRow.sigma
    rows = conn.execute(_board_query(game, players, now)
                        .order_by(ordinal.desc(), RatingRow.games.desc(), RatingRow.account_id).limit(limit)).all()
    out: list[Standing] = []
    rank = 0
    last: int | None = None
    for i, r in enumerate(rows):
        skill = Skill(r.mu, r.sigma)
        shown = displayed(skill)
        if shown != last:
            rank, last = i + 1, shown
        out.append(Standing(str(r.account_id), name_of(r.name, r.status), game, players, skill, int(r.games),
                            aware(r.updated_at), rank))
    return out


def rank_on_board(conn: Connection, game: str, players: int, skill: Skill, *, now: datetime | None = None) -> int:
    """The rank a rating has on a leaderboard: one more than the players shown above it."""
    now = now or utcnow()
    rows = conn.execute(_board_query(game, players, now).where(RatingRow.mu - Z * RatingRow.sigma > skill.ordinal)).all()
    # equal displayed ratings share a rank: count only those whose displayed number is higher
    return 1 + sum(1 for r in rows if displayed(Skill(r.mu, r.sigma)) > displayed(skill))


def standings(conn: Connection, account_id: str, *, now: datetime | None = None) -> list[Standing]:
    """Every rating of an account (game, then player count), with its leaderboard rank where it has one."""
    now = now or utcnow()
    rows = Session(bind=conn).execute(select(RatingRow, AccountRow.name, AccountRow.status)
                        .join(AccountRow, AccountRow.id == RatingRow.account_id)
                        .where(RatingRow.account_id == account_id)
                        .order_by(RatingRow.game, RatingRow.players)).all()
    out: list[Standing] = []
    for row, name, status in rows:
        skill = Skill(row.mu, row.sigma)
        rank = (rank_on_board(conn, row.game, row.players, skill, now=now)
                if _eligible(int(row.games), row.updated_at, status, now) else None)
        out.append(Standing(account_id, name_of(name, status), row.game, int(row.players), skill, int(row.games),
                            aware(row.updated_at), rank))
    return out


def standing(conn: Connection, account_id: str, game: str, players: int, *,
             now: datetime | None = None) -> Standing | None:
    """One rating of an account with its rank (None if it has never played that game rated)."""
    for s in standings(conn, account_id, now=now):
        if s.game == game and s.players == players:
            return s
    return None


@dataclass(frozen=True)
class Point:
    """A rating after one rated game: when, and mu and sigma."""

    at: datetime
    skill: Skill


def history(conn: Connection, account_id: str, game: str, players: int) -> list[Point]:
    """An account's rating after each rated game of a game and player count, oldest first, starting with
    the rating before the first one."""
    rows = Session(bind=conn).execute(select(RatingChangeRow).where(
        RatingChangeRow.account_id == account_id, RatingChangeRow.game == game, RatingChangeRow.players == players)
        .order_by(RatingChangeRow.id)).scalars().all()
    if not rows:
        return []
    first = rows[0]
    out = [Point(aware(first.created_at), Skill(first.mu_before, first.sigma_before))]
    out.extend(Point(aware(r.created_at), Skill(r.mu_after, r.sigma_after)) for r in rows)
    return out


# -- a player's games ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Opponent:
    """Who sat in another seat of a game (at its end): their account (None: a guest or a bot) and name."""

    seat: int
    account_id: str | None
    name: str
    bot: bool
    deleted: bool = False
    """Their account was deleted (its name is "deleted player")."""


@dataclass(frozen=True)
class PlayedGame:
    """A finished game an account sat in: where, which seat, how it ended for them, and who else played."""

    room_id: str
    game_no: int
    game: str
    players: int
    private: bool
    rated: bool
    finished_at: datetime
    seat: int
    result: str
    outcome: dict[str, Any]
    setup: dict[str, Any]
    opponents: tuple[Opponent, ...]


def played_games(conn: Connection, account_id: str, *, limit: int | None = None) -> list[PlayedGame]:
    """The finished games an account sat in (a seat's sitting, for any part of the game), newest first.

    A game counts wherever the account sat, rated or not, with bots or guests."""
    mine = (select(SittingRow.room_id, SittingRow.game_no, func.min(SittingRow.seat).label("seat"))
            .where(SittingRow.account_id == account_id)
            .group_by(SittingRow.room_id, SittingRow.game_no).subquery())
    query = (select(mine.c.room_id, mine.c.game_no, mine.c.seat, RoomRow.game, RoomRow.private, RoomRow.setup,
                    RecordRow.outcome, RecordRow.finished_at)
             .join(RecordRow, (RecordRow.room_id == mine.c.room_id) & (RecordRow.game_no == mine.c.game_no))
             .join(RoomRow, RoomRow.id == mine.c.room_id)
             .order_by(RecordRow.finished_at.desc(), mine.c.room_id, mine.c.game_no.desc()))
    if limit is not None:
        query = query.limit(limit)
    rows = conn.execute(query).all()
    if not rows:
        return []
    rooms = {str(r.room_id) for r in rows}
    sittings: dict[tuple[str, int], dict[int, Any]] = {}
    for s in conn.execute(select(SittingRow.room_id, SittingRow.game_no, SittingRow.seat, SittingRow.spec,
                                 SittingRow.name, SittingRow.account_id, AccountRow.name.label("account_name"),
                                 AccountRow.status)
                          .outerjoin(AccountRow, AccountRow.id == SittingRow.account_id)
                          .where(SittingRow.room_id.in_(rooms)).order_by(SittingRow.id)):
        sittings.setdefault((str(s.room_id), int(s.game_no)), {})[int(s.seat)] = s  # the last sitter of each seat
    seat_counts = {str(room): int(n) for room, n in conn.execute(
        select(SeatRow.room_id, func.count()).where(SeatRow.room_id.in_(rooms)).group_by(SeatRow.room_id))}
    rated = {(str(r.room_id), int(r.game_no)) for r in conn.execute(
        select(RatingChangeRow.room_id, RatingChangeRow.game_no).where(
            RatingChangeRow.account_id == account_id, RatingChangeRow.room_id.in_(rooms)))}
    out: list[PlayedGame] = []
    for r in rows:
        players = seat_counts.get(str(r.room_id), 0)
        seat = int(r.seat)
        opponents: list[Opponent] = []
        for other, s in sorted(sittings.get((str(r.room_id), int(r.game_no)), {}).items()):
            if other == seat:
                continue
            bot = s.spec != "human"
            deleted = s.account_id is not None and s.status is AccountStatus.DELETED
            if s.account_id is not None:
                name = name_of(s.account_name or "", s.status or AccountStatus.ACTIVE)
            else:
                name = s.name or s.spec
            opponents.append(Opponent(other, None if s.account_id is None else str(s.account_id), name, bot, deleted))
        outcome = dict(r.outcome or {})
        out.append(PlayedGame(str(r.room_id), int(r.game_no), str(r.game), players, bool(r.private),
                              (str(r.room_id), int(r.game_no)) in rated, aware(r.finished_at), seat,
                              result_of(outcome, seat, players), outcome, dict(r.setup or {}), tuple(opponents)))
    return out


def own_records(conn: Connection, account_id: str) -> list[dict[str, Any]]:
    """The records of every finished game an account sat in, oldest first."""
    mine = (select(SittingRow.room_id, SittingRow.game_no).where(SittingRow.account_id == account_id)
            .distinct().subquery())
    rows = conn.execute(select(RecordRow.record)
                        .join(mine, (RecordRow.room_id == mine.c.room_id) & (RecordRow.game_no == mine.c.game_no))
                        .order_by(RecordRow.finished_at, RecordRow.room_id, RecordRow.game_no)).scalars().all()
    return [dict(r) for r in rows]


def own_record(conn: Connection, account_id: str, room_id: str, game_no: int) -> dict[str, Any] | None:
    """The record of one finished game the account sat in (None if it did not, or the game is not over)."""
    sat = conn.execute(select(SittingRow.id).where(SittingRow.account_id == account_id, SittingRow.room_id == room_id,
                                                   SittingRow.game_no == game_no).limit(1)).first()
    if sat is None:
        return None
    found = conn.execute(select(RecordRow.record).where(RecordRow.room_id == room_id,
                                                        RecordRow.game_no == game_no)).scalar()
    return None if found is None else dict(found)
