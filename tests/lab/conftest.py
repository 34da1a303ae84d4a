"""Shared fixtures of the lab tests: a fresh store per test, and tiny stored runs made once per session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cardtable.lab.execute import run_study
from cardtable.lab.storage import LabStore, LoadedRun
from cardtable.lab.study import StudyConfig


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[LabStore]:
    """An empty lab store in an SQLite file of its own."""
    store = LabStore.open(f"sqlite:///{tmp_path / 'lab.db'}")
    yield store
    store.close()


@pytest.fixture(scope="session")
def tiny_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, LoadedRun]:
    """One small stored run per game (random agents, fixed seeds), loaded back from the store."""
    path = tmp_path_factory.mktemp("lab") / "tiny.db"
    store = LabStore.open(f"sqlite:///{path}")
    configs = {
        "zeta": StudyConfig("zeta", ("random",), games=30, seed=11),
        "oscilloscope": StudyConfig("oscilloscope", ("random",), games=12, seed=12, setup={"players": 3}),
        "utahime": StudyConfig("utahime", ("random",), games=12, seed=13, setup={"option_set": "designer_example"}),
    }
    out = {}
    for name, config in configs.items():
        run_study(store, name, config, batch=5)
        out[name] = store.load(name)
    store.close()
    return out
