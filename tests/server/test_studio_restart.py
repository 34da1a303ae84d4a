"""A study of every kind survives the death of its server: ``cardtable serve`` with two studio worker processes is
killed (SIGKILL, workers and all) in the middle of a study, started again over the same SQLite file, and the study
goes on from what the store holds to its report, every game stored once. A tune is killed twice: in its search
(it goes on with the trials it finished) and in its check on fresh seeds (it plays only the games missing)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardtable.store import Store

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="kills a process group")

WORKERS = 2
"""The studio's worker processes: the workers store their batches themselves."""


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """``cardtable serve`` in a process group of its own, until :meth:`kill` (SIGKILL to the whole group)."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(f".{self.port}.log")

    @property
    def url(self) -> str:
        """The server's base address."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Served:
        """Start the server and wait until it answers."""
        command = [sys.executable, "-c", "from cardtable.cli.main import app; app()", "serve",
                   "--db", f"sqlite:///{self.db}", "--port", str(self.port), "--studio-workers", str(WORKERS),
                   "--studio-limit", "4", "--bot-workers", "1", "--log-level", "warning"]
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text(errors='replace')[-3000:]}")
            try:
                if httpx.get(self.url + "/api/health", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """Kill the server and its workers at once, as a crash or a power cut would."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)
        self.proc = None

    def get(self, study_id: str) -> dict[str, Any]:
        """A study with its progress and report."""
        found: dict[str, Any] = httpx.get(f"{self.url}/api/studio/studies/{study_id}", timeout=30).json()
        return found


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Callable[[], Served]]:
    """Start servers over one SQLite file; every one still running is killed at the end."""
    started: list[Served] = []

    def new() -> Served:
        server = Served(tmp_path / "studio.db").start()
        started.append(server)
        return server

    yield new
    for server in started:
        server.kill()


def wait(server: Served, study_id: str, ready: Callable[[dict[str, Any]], bool], timeout: float = 240) -> dict[str, Any]:
    """Poll a study until ``ready`` says so (a failed study fails the test)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = server.get(study_id)
        assert found["study"]["status"] != "failed", found["study"]["error"]
        if ready(found):
            return found
        time.sleep(0.1)
    raise AssertionError(f"study {study_id}: not ready in {timeout} s: {found['progress']}")


def stored_games(db: Path, study_id: str) -> tuple[int, int]:
    """The study's stored games, and how many distinct (run, game) there are among them."""
    store = Store.open(f"sqlite:///{db}", migrate=False)
    try:
        with store.engine.connect() as conn:
            return tuple(conn.exec_driver_sql(
                "SELECT COUNT(*), COUNT(DISTINCT g.series_id || ':' || g.game_index) FROM lab_series_games g "
                "JOIN lab_series s ON s.id = g.series_id WHERE s.name LIKE ?", (f"studio-{study_id}-%",)).one())
    finally:
        store.close()


def status_in_store(db: Path, study_id: str) -> str:
    """The study's status as the store holds it."""
    store = Store.open(f"sqlite:///{db}", migrate=False)
    try:
        with store.engine.connect() as conn:
            return str(conn.exec_driver_sql("SELECT status FROM studio_studies WHERE id = ?", (study_id,)).scalar_one())
    finally:
        store.close()


BODIES: dict[str, dict[str, Any]] = {
    "single": {"kind": "single", "game": "zeta", "agents": ["random"], "games": 4_000, "seed": 11,
               "rules": {"cards": "ice_mage.cost=5"}, "label": "ice five"},
    "ab": {"kind": "ab", "game": "zeta", "agents": ["random"], "games": 2_000, "seed": 12,
           "a": {"label": "rulebook", "rules": {}}, "b": {"label": "slow ice", "rules": {"cards": "ice_mage.cost=6"}}},
    "sweep": {"kind": "sweep", "game": "zeta", "agents": ["random"], "games": 1_500, "seed": 13,
              "parameter": "hand.second", "values": [3, 4, 5], "setup_choice": "random"},
}


@pytest.mark.parametrize("kind", sorted(BODIES))
def test_a_study_resumes_after_its_server_is_killed(served: Callable[[], Served], tmp_path: Path, kind: str) -> None:
    first = served()
    made = httpx.post(f"{first.url}/api/studio/studies", json=BODIES[kind], timeout=60)
    assert made.status_code == 201, made.text
    study = made.json()
    before = wait(first, study["id"], lambda f: f["progress"]["done"] >= 100)["progress"]["done"]
    first.kill()
    assert status_in_store(tmp_path / "studio.db", study["id"]) == "running"
    assert stored_games(tmp_path / "studio.db", study["id"])[0] < study["planned"]
    second = served()
    found = wait(second, study["id"], lambda f: f["study"]["status"] == "done" and f["report"] is not None)
    assert found["study"]["done"] == study["planned"] and before < study["planned"]
    assert stored_games(tmp_path / "studio.db", study["id"]) == (study["planned"], study["planned"])
    assert found["report"]["answer"]


def test_a_tune_resumes_after_its_server_is_killed_in_its_search_and_in_its_check(
        served: Callable[[], Served], tmp_path: Path) -> None:
    body = {"kind": "tune", "game": "zeta", "agents": ["random"], "games": 1_500, "seed": 14, "name": "hot fire",
            "vary": [{"key": "fire_mage.cost", "low": 2, "high": 6}, {"key": "ice_mage.cost", "low": 2, "high": 6}],
            "trials": 14, "step_games": 150, "steps": 3}
    first = served()
    made = httpx.post(f"{first.url}/api/studio/studies", json=body, timeout=60)
    assert made.status_code == 201, made.text
    study = made.json()

    def trials(found: dict[str, Any]) -> int:
        return int((found["progress"].get("search") or {}).get("trials_done") or 0)

    wait(first, study["id"], lambda f: trials(f) >= 3)
    first.kill()  # in the search
    from cardtable.server.studio_tune import finished_trials, load_search

    store = Store.open(f"sqlite:///{tmp_path / 'studio.db'}", migrate=False)
    held = finished_trials(load_search(store, study["id"]))
    store.close()
    assert 3 <= held < 14  # the trials it finished are in the store
    second = served()
    on = wait(second, study["id"], lambda f: f["progress"].get("phase") == "play" and f["progress"]["done"] >= 100)
    assert trials(on) >= 14  # the search went on to its budget with the trials it had
    second.kill()  # in the check
    assert status_in_store(tmp_path / "studio.db", study["id"]) == "running"
    third = served()
    found = wait(third, study["id"], lambda f: f["study"]["status"] == "done" and f["report"] is not None)
    planned = found["study"]["planned"]
    assert found["study"]["done"] == planned and stored_games(tmp_path / "studio.db", study["id"]) == (planned, planned)
    assert found["report"]["search"]["trials"] >= 14 and found["report"]["sets"]
    assert "first player" in found["report"]["answer"]
