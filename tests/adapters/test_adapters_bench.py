"""``cardtable bench adapters``: environment steps per second next to the engine's actions per second."""

from __future__ import annotations

from cardtable.adapters.bench import MEASURES, bench_adapters, format_rows


def test_bench_adapters_measures_every_installed_framework_against_the_engine() -> None:
    rows = bench_adapters(games=["zeta"], seconds=0.4, rounds=1)
    assert {(r["case"], r["measure"]) for r in rows} == {(case, m) for case in ("default", "plain") for m in MEASURES}
    for r in rows:
        assert r["games"] >= 1 and r["steps_per_s"] > 0 and r["actions_per_s"] >= r["steps_per_s"]
        if r["measure"] == "engine":
            assert r["vs_engine"] == 1.0
        else:  # an adapter adds observations and masks to every step: it cannot beat the raw engine
            assert 0 < r["vs_engine"] < 1.0
    text = format_rows(rows)
    assert "pettingzoo" in text and "vs engine" in text.splitlines()[0]
