"""``cardtable admin``: an operator's commands over the server's database (accounts: list, disable, enable, rename).

The database is found as ``cardtable serve`` finds it: ``--db``, ``--db-file``, ``CARDTABLE_DB_URL``,
``CARDTABLE_DB_URL_FILE``, else ``cardtable.db`` in the current folder. A bad name or database is a
one-line error and exit status 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardtable.cli.options import console, fail

if TYPE_CHECKING:
    from cardtable.store.accounts import Accounts

app = typer.Typer(help="Operate a server's database: its players' accounts.", no_args_is_help=True,
                  add_completion=False, rich_markup_mode=None)
accounts_app = typer.Typer(help="List, disable, enable and rename players' accounts.", no_args_is_help=True,
                           add_completion=False, rich_markup_mode=None)
app.add_typer(accounts_app, name="accounts")

DbOpt = Annotated[str | None, typer.Option("--db", help="The database URL (else as `cardtable serve` finds it).")]
DbFileOpt = Annotated[Path | None, typer.Option("--db-file", help="A file holding the database URL (its first line).")]


def open_accounts(db: str | None, db_file: Path | None) -> Accounts:
    """The account tables of the database (its migrations applied); a clear error and exit 2 if it cannot open."""
    from cardtable.server.services import SettingsError, database_url
    from cardtable.store import Store
    from cardtable.store.accounts import Accounts

    try:
        url = database_url(db, db_file)
    except SettingsError as exc:
        fail(str(exc))
    try:
        return Accounts(Store.open(url))
    except Exception as exc:  # noqa: BLE001 - a bad URL, an unreachable server, a file that is no database
        fail(f"cannot open the database: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")


def _new_name(name: str) -> str:
    """A display name checked as sign-up checks it (exit 2 if it is not one)."""
    from cardtable.server.api.accounts import check_account_name
    from cardtable.server.errors import Refusal

    try:
        return check_account_name(name)
    except Refusal as exc:
        fail(exc.message)


@accounts_app.command("list")
def list_accounts(db: DbOpt = None, db_file: DbFileOpt = None) -> None:
    """Every account, oldest first: id, name, status, how it signs in, live sessions, created."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    summaries = open_accounts(db, db_file).summaries()
    table = Table(title=f"{len(summaries)} accounts", box=box.SIMPLE_HEAD)
    for column in ("id", "name", "status", "signs in with", "sessions", "created (UTC)"):
        table.add_column(column, justify="right" if column == "sessions" else "left",
                         no_wrap=column in ("id", "name", "status"))
    for s in summaries:
        ways = (["password"] if s.has_password else []) + ([f"{s.passkeys} passkey(s)"] if s.passkeys else [])
        table.add_row(Text(s.account.id), Text(s.account.name), Text(s.account.status.value),
                      ", ".join(ways) or "-", str(s.sessions), s.account.created_at.strftime("%Y-%m-%d %H:%M"))
    console().print(table)


def _set_status(name: str, status_name: str, db: str | None, db_file: Path | None) -> None:
    from cardtable.store import StoreError
    from cardtable.store.models import AccountStatus

    accounts = open_accounts(db, db_file)
    try:
        account = accounts.set_status(name, AccountStatus(status_name))
    except StoreError as exc:
        fail(exc.message)
    console().print(f"{account.name} ({account.id}) is {account.status.value}")


@accounts_app.command("disable")
def disable(name: Annotated[str, typer.Argument(help="The account's name (case and width do not matter).")],
            db: DbOpt = None, db_file: DbFileOpt = None) -> None:
    """Stop an account signing in; its sessions end at once (its games and ratings stay)."""
    _set_status(name, "disabled", db, db_file)


@accounts_app.command("enable")
def enable(name: Annotated[str, typer.Argument(help="The account's name.")],
           db: DbOpt = None, db_file: DbFileOpt = None) -> None:
    """Let a disabled account sign in again."""
    _set_status(name, "active", db, db_file)


@accounts_app.command("rename")
def rename(name: Annotated[str, typer.Argument(help="The account's name now.")],
           new_name: Annotated[str, typer.Argument(help="Its new name (the sign-up rules: 1 to 32 characters, free).")],
           db: DbOpt = None, db_file: DbFileOpt = None) -> None:
    """Give an account another display name (its seats and games keep the name they were played under)."""
    from cardtable.store import StoreError

    checked = _new_name(new_name)
    accounts = open_accounts(db, db_file)
    try:
        account = accounts.rename(name, checked)
    except StoreError as exc:
        fail(exc.message)
    console().print(f"{name} is now {account.name} ({account.id})")


@app.command("reports")
def list_reports(db: DbOpt = None, db_file: DbFileOpt = None,
                 limit: Annotated[int, typer.Option(min=1, max=10_000, help="At most this many, newest first.")] = 200,
                 ) -> None:
    """Reported chat messages, newest first: when, who reported, why, the room, the sender and the text."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from cardtable.store import social

    found = social.reports(open_accounts(db, db_file).store, limit)
    table = Table(title=f"{len(found)} reports", box=box.SIMPLE_HEAD)
    for column in ("reported (UTC)", "by", "reason", "room", "sender", "account", "message"):
        table.add_column(column, overflow="fold")
    for r in found:
        table.add_row(r.created_at.strftime("%Y-%m-%d %H:%M"), Text(r.reporter), Text(r.reason), Text(r.room_id),
                      Text(r.label), Text(r.account_id or "-"), Text(r.text))
    console().print(table)


def register(main: typer.Typer) -> None:
    """Add the ``admin`` sub-app to the ``cardtable`` app."""
    main.add_typer(app, name="admin")
