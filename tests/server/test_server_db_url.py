"""The database URL comes from --db, a file (--db-file, CARDTABLE_DB_URL_FILE) or CARDTABLE_DB_URL, so that a
password never has to be on a command line, where ``ps`` shows it to every user of the machine."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import httpx
import pytest
import typer
from server_support import serve_command
from typer.testing import CliRunner

from cardtable.cli import serve_cmd
from cardtable.server.bench import free_port
from cardtable.server.services import SettingsError, database_url


def test_the_url_comes_from_the_option_the_file_the_variable_or_the_default(tmp_path: Path) -> None:
    secret = tmp_path / "db-url"
    secret.write_text("\n  postgresql+psycopg://u:from-file@db/rooms  \nignored\n", encoding="utf-8")
    env = {"CARDTABLE_DB_URL": "postgresql+psycopg://u:from-env@db/rooms", "CARDTABLE_DB_URL_FILE": str(secret)}
    assert database_url("sqlite:///given.db", None, env) == "sqlite:///given.db"
    assert database_url(None, secret, {}) == "postgresql+psycopg://u:from-file@db/rooms"
    assert database_url(None, None, env) == "postgresql+psycopg://u:from-env@db/rooms"
    assert database_url(None, None, {"CARDTABLE_DB_URL_FILE": str(secret)}) == "postgresql+psycopg://u:from-file@db/rooms"
    assert database_url(None, None, {}) == "sqlite:///cardtable.db"


def test_a_missing_or_empty_file_or_two_sources_are_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.write_text("\n \n", encoding="utf-8")
    with pytest.raises(SettingsError, match="no database URL"):
        database_url(None, empty, {})
    with pytest.raises(SettingsError, match="cannot read"):
        database_url(None, tmp_path / "missing", {})
    with pytest.raises(SettingsError, match="not both"):
        database_url("sqlite://", empty, {})


@pytest.mark.parametrize("args", [["--db-file", "/nonexistent/db-url"], ["--db", "sqlite://", "--db-file", "x"],
                                  ["--join-limit", "lots"]])
def test_serve_says_what_is_wrong_and_exits_2(args: list[str]) -> None:
    app = typer.Typer()
    serve_cmd.register(app)

    @app.command()
    def other() -> None:  # a second command, so typer keeps the command name
        """Nothing."""

    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_a_server_takes_its_url_from_a_file_and_no_secret_is_on_its_command_line(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    secret = tmp_path / "db-url"
    secret.write_text(f"sqlite:///{db}\n", encoding="utf-8")
    port = free_port()
    proc = subprocess.Popen([*serve_command(), "--host", "127.0.0.1", "--port", str(port), "--bot-workers", "1",
                             "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                            env={**os.environ, "CARDTABLE_DB_URL_FILE": str(secret)}, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, "cardtable serve exited"
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2)
                if health.status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "cardtable serve did not answer"
            time.sleep(0.1)
        made = httpx.post(f"http://127.0.0.1:{port}/api/rooms", json={"game": "zeta"}, timeout=10)
        assert made.status_code == 201
        assert db.exists() and not (tmp_path / "cardtable.db").exists()  # the file's URL, not the default
        cmdline = Path(f"/proc/{proc.pid}/cmdline").read_bytes().decode()
        assert str(db) not in cmdline and "sqlite" not in cmdline
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
