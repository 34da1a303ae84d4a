"""The same seeds give the same stored games on Ray as in one local process."""

from __future__ import annotations

import pytest

from cardtable.lab.execute import run_study
from cardtable.lab.pipeline import RayExecutor
from cardtable.lab.storage import LabStore
from cardtable.lab.study import StudyConfig


@pytest.mark.slow
def test_ray_equals_local(lab: LabStore) -> None:
    """Two Ray workers store exactly the games one local process stores."""
    config = StudyConfig("zeta", ("heuristic:epsilon=0.2", "random"), games=16, seed=21)
    run_study(lab, "local", config, batch=4)
    executor = RayExecutor(None, 2)
    try:
        run_study(lab, "ray", config, jobs=2, executor=executor, batch=3)
    finally:
        executor.shutdown()
    strip = [(g.index, g.seed, g.specs, g.winners, g.length, g.facts) for g in lab.load("local").games]
    assert strip == [(g.index, g.seed, g.specs, g.winners, g.length, g.facts) for g in lab.load("ray").games]
