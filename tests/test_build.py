"""The compiled build and the pure one: which runs, why, and that a stale compiled module never runs."""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable import _build
from cardtable._build import PURE_VARIABLE, decide, missing_extensions, stale_sources

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def _package(tmp_path: Path, compiled: bool = True) -> tuple[Path, dict[str, Any]]:
    """A package folder with one compiled module (an empty stand-in extension file) and its manifest."""
    source = tmp_path / "core" / "game.py"
    source.parent.mkdir()
    source.write_text("X = 1\n", encoding="utf-8")
    if compiled:
        (tmp_path / "core" / f"game{SUFFIX}").write_bytes(b"")
    st = source.stat()
    manifest = {"build": "compiled", "reason": "compiled with mypyc", "modules": {
        "cardtable.core.game": {"source": "core/game.py", "size": st.st_size, "mtime_ns": st.st_mtime_ns,
                                "sha256": hashlib.sha256(source.read_bytes()).hexdigest()}}}
    return source, manifest


def _run(code: str, **env: str) -> str:
    """Run Python code in a fresh interpreter with extra environment variables; its stdout."""
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=120, check=True)
    return done.stdout


def test_the_build_is_the_one_expected() -> None:
    """CI says which build each run tests (CARDTABLE_EXPECT_BUILD=compiled or pure); a silent fallback fails."""
    expected = os.environ.get("CARDTABLE_EXPECT_BUILD")
    info = cardtable.build_info()
    if expected is None:
        pytest.skip(f"CARDTABLE_EXPECT_BUILD is not set ({info})")
    assert ("compiled" if info.compiled else "pure") == expected, str(info)
    if info.compiled:
        import cardtable.games.zeta.state as zeta_state

        assert zeta_state.__file__ is not None and zeta_state.__file__.endswith(SUFFIX)


def test_build_info_says_which_build_and_why() -> None:
    info = cardtable.build_info()
    assert info.label in ("compiled (mypyc)", "pure Python")
    assert info.reason and str(info).startswith(info.label)
    assert json.loads(json.dumps(info.to_json()))["build"] == ("compiled" if info.compiled else "pure")
    assert bool(info.modules) == info.compiled


def test_cardtable_pure_at_run_time_loads_every_source() -> None:
    out = json.loads(_run(
        "import json, cardtable, cardtable.games.zeta.state as z, cardtable.core.game as g;"
        "print(json.dumps([cardtable.build_info().to_json(), z.__file__, g.__file__]))", **{PURE_VARIABLE: "1"}))
    info, *files = out
    assert info["build"] == "pure"
    assert all(f.endswith(".py") for f in files), files


def test_an_untouched_source_is_not_stale(tmp_path: Path) -> None:
    _, manifest = _package(tmp_path)
    assert stale_sources(manifest, tmp_path) == []
    assert decide(manifest, {}, tmp_path) == ("", (), "")


def test_a_touched_but_unchanged_source_is_not_stale(tmp_path: Path) -> None:
    source, manifest = _package(tmp_path)
    os.utime(source, ns=(source.stat().st_atime_ns, source.stat().st_mtime_ns + 10**9))
    assert stale_sources(manifest, tmp_path) == []


def test_an_edited_source_is_stale_and_the_sources_run(tmp_path: Path) -> None:
    source, manifest = _package(tmp_path)
    source.write_text("X = 2\n", encoding="utf-8")  # same size, new content
    why, stale, warning = decide(manifest, {}, tmp_path)
    assert stale == ("core/game.py",)
    assert "stale" in why
    assert "src/cardtable/core/game.py changed" in warning and "pip install -e ." in warning


def test_a_missing_compiled_module_runs_the_sources(tmp_path: Path) -> None:
    _, manifest = _package(tmp_path, compiled=False)
    assert missing_extensions(manifest, tmp_path) == ["core/game.py"]
    why, _, warning = decide(manifest, {}, tmp_path)
    assert "missing" in why and "pip install -e ." in warning


def test_the_environment_and_the_manifest_choose_pure(tmp_path: Path) -> None:
    _, manifest = _package(tmp_path)
    assert decide(manifest, {PURE_VARIABLE: "1"}, tmp_path)[0] == f"{PURE_VARIABLE}=1 at run time"
    assert decide(manifest, {PURE_VARIABLE: "0"}, tmp_path)[0] == ""
    assert decide(None, {}, tmp_path)[0].startswith("no build manifest")
    pure = {"build": "pure", "reason": "no working C compiler (CompileError: gcc failed)", "modules": {}}
    assert decide(pure, {}, tmp_path)[0] == "built pure at install: no working C compiler (CompileError: gcc failed)"


def test_the_source_finder_prefers_the_source_to_a_compiled_module(tmp_path: Path) -> None:
    _package(tmp_path)
    finder = _build._SourceFinder()
    spec = finder.find_spec("cardtable.core.game", [str(tmp_path / "core")])
    assert spec is not None and spec.origin == str(tmp_path / "core" / "game.py")
    assert isinstance(spec.loader, importlib.machinery.SourceFileLoader)
    assert finder.find_spec("cardtable.core.nothing", [str(tmp_path / "core")]) is None
    assert finder.find_spec("json", None) is None


def test_bench_names_the_build_and_compares_both_builds() -> None:
    from typer.testing import CliRunner

    from cardtable.cli.main import app

    env = {"COLUMNS": "80", "LINES": "24", "NO_COLOR": "1"}
    result = CliRunner().invoke(app, ["bench", "zeta", "--seconds", "0.3", "--no-openspiel"], env=env)
    assert result.exit_code == 0, result.output
    assert f"build: {cardtable.build_info().label}" in result.output
    result = CliRunner().invoke(app, ["bench", "zeta", "--seconds", "0.3", "--builds"], env=env)
    if cardtable.build_info().compiled:
        assert result.exit_code == 0, result.output
        assert "ratio" in result.output
        assert len(re.findall(r"\d+\.\d\dx", result.output)) == 4  # 2 cases x (playouts, rollouts)
    else:
        assert result.exit_code == 2 and "nothing to compare" in " ".join(result.output.split())


def test_compare_builds_measures_the_pure_side_in_a_pure_process() -> None:
    from cardtable.lab.bench import PureWorker

    if not cardtable.build_info().compiled:
        pytest.skip("only the compiled build compares itself with the pure one")
    with PureWorker() as pure:
        rate = pure.measure("rollouts", "zeta", {}, {}, 0.1, 1)
    assert rate.games > 0 and rate.actions > rate.games
