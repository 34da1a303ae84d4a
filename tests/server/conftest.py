"""Fixtures of the server tests: an SQLite file per test, and PostgreSQL where ``CARDTABLE_TEST_PG_URL`` is set."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_support import PG_ENV, pg_database, sqlite_url

import system_needs


def pytest_configure(config: pytest.Config) -> None:
    """Register the markers these tests use (pyproject registers them too)."""
    config.addinivalue_line("markers", "slow: a long test (deselect with -m 'not slow')")
    config.addinivalue_line("markers", "postgres: needs a PostgreSQL server (CARDTABLE_TEST_PG_URL)")


def _need_pg() -> None:
    system_needs.need(None if os.environ.get(PG_ENV) else
                      f"no PostgreSQL server: {PG_ENV} is not set (bash .ci/postgres.sh starts one and prints it)")


@pytest.fixture
def sqlite_db(tmp_path: Path) -> str:
    """An SQLite file database URL of its own."""
    return sqlite_url(tmp_path)


@pytest.fixture
def pg_db() -> Iterator[str]:
    """A scratch PostgreSQL database (skipped without CARDTABLE_TEST_PG_URL)."""
    _need_pg()
    with pg_database() as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL: an SQLite file, then (where configured) a scratch PostgreSQL database."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path)
        return
    _need_pg()
    with pg_database() as url:
        yield url
