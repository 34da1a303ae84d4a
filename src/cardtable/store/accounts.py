"""Players' accounts in the store: accounts, sessions, passkeys, WebAuthn challenges, and claiming guest seats.

:class:`Accounts` reads and writes the account tables of a :class:`~cardtable.store.Store` (every write is
one :meth:`Store.transaction`). It never sees a password or a session's secret: the server hands it an
argon2id hash and the SHA-256 of the cookie's value.

>>> from datetime import timedelta
>>> from cardtable.store import Store
>>> accounts = Accounts(Store.open("sqlite://"))
>>> alice = accounts.create("Alice", "$argon2id$...")
>>> accounts.create(" ALICE ", None)
Traceback (most recent call last):
...
cardtable.store.accounts.NameTaken: the name ' ALICE ' is taken
>>> found, _hash = accounts.find("alice")
>>> found == alice, name_key("Ａｌｉｃｅ")
(True, 'alice')
>>> accounts.new_session(alice.id, "ab" * 32, "csrf-token", "", utcnow() + timedelta(days=30))
>>> accounts.session("ab" * 32).account.name
'Alice'
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from .models import (
    AccountRow,
    AccountStatus,
    ChallengeRow,
    GameRow,
    PasskeyRow,
    SeatRow,
    SessionRow,
    SittingRow,
    utcnow,
)
from .store import Store, StoreError

DELETED_NAME = "deleted player"
"""What a deleted account is called wherever its games are shown."""


class NameTaken(StoreError):
    """Another account has this name (compared after NFKC folding and casefolding)."""

    code = "name_taken"


class NoSuchAccount(StoreError):
    """No account has this name (or id)."""

    code = "no_such_player"


def name_key(name: str) -> str:
    """A name folded for comparison: NFKC, casefolded, NFKC again, runs of spaces squeezed (``Ａｌｉｃｅ`` is ``alice``)."""
    return " ".join(unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).split())


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Account:
    """A player's account as the server sees it: its id, display name, status and when it was made."""

    id: str
    name: str
    status: AccountStatus
    created_at: datetime

    @property
    def active(self) -> bool:
        """Whether it may sign in and play."""
        return self.status is AccountStatus.ACTIVE


@dataclass(frozen=True)
class SessionInfo:
    """A signed-in browser: the hash of its cookie's value, its account, its CSRF token and its times."""

    token_hash: str
    account: Account
    csrf: str
    last_seen: datetime
    expires_at: datetime


@dataclass(frozen=True)
class Passkey:
    """A passkey of an account: its credential id (base64url), public key, signature counter and label."""

    id: str
    account_id: str
    public_key: bytes
    sign_count: int
    label: str
    created_at: datetime
    last_used: datetime | None
    transports: tuple[str, ...] = ()


@dataclass(frozen=True)
class Challenge:
    """A WebAuthn challenge taken back (it is gone from the store once taken)."""

    id: str
    challenge: str
    purpose: str
    account_id: str | None
    name: str
    expires_at: datetime


@dataclass(frozen=True)
class AccountSummary:
    """One line of ``cardtable admin accounts list``."""

    account: Account
    has_password: bool
    passkeys: int
    sessions: int


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.status, _aware(row.created_at))


def _passkey(row: Any) -> Passkey:
    transports = tuple(str(t) for t in (row.transports or {}).get("transports", []))
    return Passkey(row.id, row.account_id, bytes(row.public_key), int(row.sign_count), row.label,
                   _aware(row.created_at), None if row.last_used is None else _aware(row.last_used), transports)


_ACCOUNT = select(AccountRow.id, AccountRow.name, AccountRow.status, AccountRow.created_at)


class Accounts:
    """The account tables of one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- accounts -----------------------------------------------------------------------------------
    def _insert_account(self, conn: Connection, name: str, password_hash: str | None) -> Account:
        now = utcnow()
        account_id = secrets.token_urlsafe(9)
        try:
            with conn.begin_nested():
                conn.execute(insert(AccountRow).values(id=account_id, name=name, name_key=name_key(name),
                                                       password_hash=password_hash, status=AccountStatus.ACTIVE,
                                                       created_at=now, updated_at=now))
        except IntegrityError:
            raise NameTaken(f"the name {name!r} is taken") from None
        return Account(account_id, name, AccountStatus.ACTIVE, now)

    def create(self, name: str, password_hash: str | None) -> Account:
        """A new active account; NameTaken if the folded name is another account's."""
        with self.store.transaction() as conn:
            return self._insert_account(conn, name, password_hash)

    def find(self, name: str) -> tuple[Account, str | None] | None:
        """The account with this name (folded) and its password hash, whatever its status; None if none."""
        with self.store.engine.connect() as conn:
            row = conn.execute(select(AccountRow).where(AccountRow.name_key == name_key(name))).first()
        return None if row is None else (_account(row), row.password_hash)

    def get(self, account_id: str) -> Account | None:
        """The account with this id (None if none)."""
        with self.store.engine.connect() as conn:
            row = conn.execute(_ACCOUNT.where(AccountRow.id == account_id)).first()
        return None if row is None else _account(row)

    def password_hash(self, account_id: str) -> str | None:
        """The account's password hash (None: passkeys only)."""
        with self.store.engine.connect() as conn:
            found = conn.execute(select(AccountRow.password_hash).where(AccountRow.id == account_id)).scalar()
        return None if found is None else str(found)

    def set_password(self, account_id: str, password_hash: str, *, keep_session: str | None = None) -> None:
        """Store a new password hash; every session of the account but ``keep_session`` ends."""
        with self.store.transaction() as conn:
            conn.execute(update(AccountRow).where(AccountRow.id == account_id)
                         .values(password_hash=password_hash, updated_at=utcnow()))
            query = delete(SessionRow).where(SessionRow.account_id == account_id)
            if keep_session is not None:
                query = query.where(SessionRow.token_hash != keep_session)
            conn.execute(query)

    def rehash(self, account_id: str, old_hash: str, new_hash: str) -> None:
        """Replace a password hash made with older parameters (only if it is still ``old_hash``)."""
        with self.store.transaction() as conn:
            conn.execute(update(AccountRow).where(AccountRow.id == account_id, AccountRow.password_hash == old_hash)
                         .values(password_hash=new_hash))

    def delete(self, account_id: str) -> None:
        """Delete an account: status deleted, named "deleted player" (in its seats and sittings too), its name
        free again, its password, passkeys, sessions and challenges gone; its games and ratings stay."""
        now = utcnow()
        with self.store.transaction() as conn:
            conn.execute(update(AccountRow).where(AccountRow.id == account_id).values(
                name=DELETED_NAME, name_key=None, password_hash=None, status=AccountStatus.DELETED, updated_at=now))
            conn.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            conn.execute(delete(PasskeyRow).where(PasskeyRow.account_id == account_id))
            conn.execute(delete(ChallengeRow).where(ChallengeRow.account_id == account_id))
            conn.execute(update(SeatRow).where(SeatRow.account_id == account_id).values(name=DELETED_NAME))
            conn.execute(update(SittingRow).where(SittingRow.account_id == account_id).values(name=DELETED_NAME))

    # -- administration -----------------------------------------------------------------------------
    def _by_name(self, conn: Connection, name: str) -> Any:
        row = conn.execute(select(AccountRow).where(AccountRow.name_key == name_key(name))).first()
        if row is None:
            raise NoSuchAccount(f"there is no account named {name!r}")
        return row

    def set_status(self, name: str, status: AccountStatus) -> Account:
        """Disable or enable the account named ``name`` (disabling ends its sessions); NoSuchAccount."""
        if status is AccountStatus.DELETED:
            raise ValueError("delete an account with Accounts.delete")
        with self.store.transaction() as conn:
            row = self._by_name(conn, name)
            conn.execute(update(AccountRow).where(AccountRow.id == row.id).values(status=status, updated_at=utcnow()))
            if status is AccountStatus.DISABLED:
                conn.execute(delete(SessionRow).where(SessionRow.account_id == row.id))
            return Account(row.id, row.name, status, _aware(row.created_at))

    def rename(self, name: str, new_name: str) -> Account:
        """Give the account named ``name`` the display name ``new_name``; NoSuchAccount, NameTaken."""
        with self.store.transaction() as conn:
            row = self._by_name(conn, name)
            try:
                with conn.begin_nested():
                    conn.execute(update(AccountRow).where(AccountRow.id == row.id).values(
                        name=new_name, name_key=name_key(new_name), updated_at=utcnow()))
            except IntegrityError:
                raise NameTaken(f"the name {new_name!r} is taken") from None
            return Account(row.id, new_name, row.status, _aware(row.created_at))

    def summaries(self) -> list[AccountSummary]:
        """Every account, oldest first, with whether it has a password and how many passkeys and sessions."""
        with self.store.engine.connect() as conn:
            keys = dict(conn.execute(select(PasskeyRow.account_id, func.count()).group_by(PasskeyRow.account_id)).all())
            sessions = dict(conn.execute(select(SessionRow.account_id, func.count())
                                         .where(SessionRow.expires_at > utcnow()).group_by(SessionRow.account_id)).all())
            rows = conn.execute(select(AccountRow.id, AccountRow.name, AccountRow.status, AccountRow.created_at,
                                       AccountRow.password_hash.is_not(None).label("has_password"))
                                .order_by(AccountRow.created_at, AccountRow.id)).all()
        return [AccountSummary(_account(r), bool(r.has_password), int(keys.get(r.id, 0)), int(sessions.get(r.id, 0)))
                for r in rows]

    # -- sessions -----------------------------------------------------------------------------------
    def new_session(self, account_id: str, token_hash: str, csrf: str, user_agent: str, expires_at: datetime) -> None:
        """Store a session (the SHA-256 of its cookie's value) of an account; expired sessions are swept."""
        now = utcnow()
        with self.store.transaction() as conn:
            conn.execute(delete(SessionRow).where(SessionRow.expires_at < now))
            conn.execute(insert(SessionRow).values(token_hash=token_hash, account_id=account_id, csrf=csrf,
                                                   user_agent=user_agent[:200], created_at=now, last_seen=now,
                                                   expires_at=expires_at))

    def session(self, token_hash: str, now: datetime | None = None) -> SessionInfo | None:
        """The live session with this hash, of an active account (None if none, expired, or disabled)."""
        now = now or utcnow()
        query = (select(SessionRow.token_hash, SessionRow.csrf, SessionRow.last_seen, SessionRow.expires_at,
                        AccountRow.id, AccountRow.name, AccountRow.status, AccountRow.created_at)
                 .join(AccountRow, AccountRow.id == SessionRow.account_id)
                 .where(SessionRow.token_hash == token_hash))
        with self.store.engine.connect() as conn:
            row = conn.execute(query).first()
        if row is None or _aware(row.expires_at) <= now or row.status is not AccountStatus.ACTIVE:
            return None
        return SessionInfo(row.token_hash, _account(row), row.csrf, _aware(row.last_seen), _aware(row.expires_at))

    def touch_session(self, token_hash: str, now: datetime, expires_at: datetime) -> None:
        """Slide a session: seen ``now``, expiring at ``expires_at``."""
        with self.store.transaction() as conn:
            conn.execute(update(SessionRow).where(SessionRow.token_hash == token_hash)
                         .values(last_seen=now, expires_at=expires_at))

    def end_session(self, token_hash: str) -> None:
        """Remove one session (signing out)."""
        with self.store.transaction() as conn:
            conn.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash))

    # -- passkeys -----------------------------------------------------------------------------------
    def _insert_passkey(self, conn: Connection, account_id: str, credential_id: str, public_key: bytes,
                        sign_count: int, transports: Sequence[str], label: str) -> None:
        conn.execute(insert(PasskeyRow).values(id=credential_id, account_id=account_id, public_key=public_key,
                                               sign_count=sign_count, transports={"transports": list(transports)},
                                               label=label, created_at=utcnow(), last_used=None))

    def add_passkey(self, account_id: str, credential_id: str, public_key: bytes, sign_count: int,
                    transports: Sequence[str], label: str) -> None:
        """Store a new passkey of an account (IntegrityError if the credential is already registered)."""
        with self.store.transaction() as conn:
            self._insert_passkey(conn, account_id, credential_id, public_key, sign_count, transports, label)

    def create_with_passkey(self, name: str, credential_id: str, public_key: bytes, sign_count: int,
                            transports: Sequence[str], label: str) -> Account:
        """A new account with one passkey and no password, in one transaction; NameTaken."""
        with self.store.transaction() as conn:
            account = self._insert_account(conn, name, None)
            self._insert_passkey(conn, account.id, credential_id, public_key, sign_count, transports, label)
            return account

    def passkeys(self, account_id: str) -> list[Passkey]:
        """The passkeys of an account, oldest first."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(PasskeyRow).where(PasskeyRow.account_id == account_id)
                                .order_by(PasskeyRow.created_at, PasskeyRow.id)).all()
        return [_passkey(r) for r in rows]

    def passkey(self, credential_id: str) -> Passkey | None:
        """The passkey with this credential id (None if none)."""
        with self.store.engine.connect() as conn:
            row = conn.execute(select(PasskeyRow).where(PasskeyRow.id == credential_id)).first()
        return None if row is None else _passkey(row)

    def use_passkey(self, credential_id: str, sign_count: int) -> None:
        """Record a sign-in with a passkey: its new signature counter, and when."""
        with self.store.transaction() as conn:
            conn.execute(update(PasskeyRow).where(PasskeyRow.id == credential_id)
                         .values(sign_count=sign_count, last_used=utcnow()))

    def remove_passkey(self, account_id: str, credential_id: str) -> bool:
        """Remove a passkey of this account (False if the account has no such passkey)."""
        with self.store.transaction() as conn:
            done = conn.execute(delete(PasskeyRow).where(PasskeyRow.id == credential_id,
                                                         PasskeyRow.account_id == account_id)).rowcount
        return bool(done)

    # -- WebAuthn challenges ------------------------------------------------------------------------
    def new_challenge(self, challenge: str, purpose: str, account_id: str | None, name: str,
                      expires_at: datetime) -> str:
        """Store a challenge waiting for its answer; its id (expired challenges are swept)."""
        challenge_id = secrets.token_urlsafe(12)
        with self.store.transaction() as conn:
            conn.execute(delete(ChallengeRow).where(ChallengeRow.expires_at < utcnow()))
            conn.execute(insert(ChallengeRow).values(id=challenge_id, challenge=challenge, purpose=purpose,
                                                     account_id=account_id, name=name, expires_at=expires_at))
        return challenge_id

    def take_challenge(self, challenge_id: str, purpose: str) -> Challenge | None:
        """The challenge with this id and purpose, removed (used once); None if none or expired."""
        with self.store.transaction() as conn:
            row = conn.execute(select(ChallengeRow).where(ChallengeRow.id == challenge_id,
                                                          ChallengeRow.purpose == purpose)).first()
            if row is None:
                return None
            if conn.execute(delete(ChallengeRow).where(ChallengeRow.id == challenge_id)).rowcount != 1:
                return None  # pragma: no cover - another process took it first
            found = Challenge(row.id, row.challenge, row.purpose, row.account_id, row.name, _aware(row.expires_at))
        return found if found.expires_at > utcnow() else None

    # -- claiming a guest's seats ------------------------------------------------------------------
    def claim(self, account_id: str, token_hashes: Sequence[str]) -> list[str]:
        """Make the guest seats these seat-token hashes hold the account's, with their sittings made while the
        token held the seat (this game's, and earlier games' the token played through rematches); the room of
        each seat claimed."""
        claimed: list[str] = []
        with self.store.transaction() as conn:
            for token_hash in dict.fromkeys(token_hashes):
                seat = conn.execute(select(SeatRow.room_id, SeatRow.seat).where(
                    SeatRow.token_hash == token_hash, SeatRow.account_id.is_(None))).first()
                if seat is None:
                    continue
                conn.execute(update(SeatRow).where(SeatRow.room_id == seat.room_id, SeatRow.seat == seat.seat)
                             .values(account_id=account_id))
                for sitting_id in self._sittings_of_token(conn, seat.room_id, seat.seat):
                    conn.execute(update(SittingRow).where(SittingRow.id == sitting_id, SittingRow.account_id.is_(None))
                                 .values(account_id=account_id))
                claimed.append(str(seat.room_id))
        return claimed

    @staticmethod
    def _sittings_of_token(conn: Connection, room_id: str, seat: int) -> list[int]:
        """The sittings of the person who holds a seat now: the seat's last sitting in each game, walking back
        while that sitting was a rematch's copy (made with its game, at version 0), since a seat cannot change
        hands while its token holds it."""
        rows = conn.execute(select(SittingRow.id, SittingRow.game_no, SittingRow.from_version, SittingRow.spec,
                                   SittingRow.created_at).where(SittingRow.room_id == room_id, SittingRow.seat == seat)
                            .order_by(SittingRow.id.desc())).all()
        made = dict(conn.execute(select(GameRow.game_no, GameRow.created_at).where(GameRow.room_id == room_id)).all())
        last: dict[int, Any] = {}
        for row in rows:
            last.setdefault(row.game_no, row)
        found: list[int] = []
        game_no = max(last, default=0)
        while game_no in last:
            row = last[game_no]
            if row.spec != "human":
                break
            found.append(int(row.id))
            copied = (row.from_version == 0 and game_no > 1 and made.get(game_no) is not None
                      and _aware(row.created_at) == _aware(made[game_no]))
            if not copied:
                break
            game_no -= 1
        return found


__all__ = ["DELETED_NAME", "Account", "AccountSummary", "Accounts", "Challenge", "NameTaken", "NoSuchAccount",
           "Passkey", "SessionInfo", "name_key"]
