"""``cardtable admin accounts list|disable|enable|rename``: an operator's commands over the server's database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from server_support import new_app
from test_accounts import CHEAP, error, signup
from typer.testing import CliRunner

from cardtable.cli.main import app


@pytest.fixture
def client(sqlite_db: str) -> Iterator[TestClient]:
    with TestClient(new_app(sqlite_db, **CHEAP)) as c:
        yield c


def admin(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["admin", "accounts", *args])
    return result.exit_code, result.output


def test_list_shows_every_account_without_secrets(client: TestClient, sqlite_db: str) -> None:
    alice = signup(client, "Alice")
    signup(TestClient(client.app), "<b>Bob</b>")
    code, out = admin("list", "--db", sqlite_db)
    assert code == 0, out
    assert "2 accounts" in out and "Alice" in out and "<b>Bob</b>" in out and alice["account"]["id"] in out
    assert "argon2" not in out and alice["csrf"] not in out


def test_disable_ends_sessions_and_enable_lets_the_account_back(client: TestClient, sqlite_db: str) -> None:
    signup(client, "Alice")
    code, out = admin("disable", "ALICE", "--db", sqlite_db)
    assert code == 0 and "disabled" in out
    error(client.get("/api/account/me"), 401, "not_signed_in")
    stranger = TestClient(client.app)
    error(stranger.post("/api/account/signin", json={"name": "Alice", "password": "correct horse"}), 401,
          "bad_credentials")
    assert admin("list", "--db", sqlite_db)[1].count("disabled") == 1
    code, out = admin("enable", "alice", "--db", sqlite_db)
    assert code == 0 and "active" in out
    assert stranger.post("/api/account/signin", json={"name": "Alice", "password": "correct horse"}).status_code == 200


def test_rename_keeps_the_account_and_checks_the_name(client: TestClient, sqlite_db: str) -> None:
    made = signup(client, "Alice")
    signup(TestClient(client.app), "Bob")
    assert admin("rename", "alice", "Alicia", "--db", sqlite_db)[0] == 0
    assert client.get("/api/account/me").json()["account"] == {**made["account"], "name": "Alicia"}
    code, out = admin("rename", "Alicia", "BOB", "--db", sqlite_db)
    assert code == 2 and "taken" in out and "Traceback" not in out
    code, out = admin("rename", "Alicia", "a\tb", "--db", sqlite_db)
    assert code == 2 and "control characters" in out


def test_unknown_names_and_databases_are_clear_errors(sqlite_db: str, tmp_path: object) -> None:
    code, out = admin("disable", "nobody", "--db", sqlite_db)
    assert code == 2 and "no account named 'nobody'" in out and "Traceback" not in out
    code, out = admin("list", "--db", "nosuchdriver://x")
    assert code == 2 and "cannot open the database" in out
    code, out = admin("list", "--db", sqlite_db, "--db-file", "x")
    assert code == 2 and "not both" in out
