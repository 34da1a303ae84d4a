"""``cardtable serve`` and the server benchmark behind ``cardtable bench server``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cardtable.cli import serve_cmd
from cardtable.server.bench import bench_server, format_result


def test_serve_is_a_command_with_the_documented_options() -> None:
    app = typer.Typer()
    serve_cmd.register(app)

    @app.command()
    def other() -> None:  # a second command, so typer keeps the command name
        """Nothing."""

    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--db", "--db-file", "--bot-iterations", "--bot-workers", "--bot-executor",
                   "--ray-address", "--workers", "--join-limit", "--invite-limit"):
        assert option in result.output


@pytest.mark.parametrize("args", [["--workers", "2"], ["--bot-iterations", "0"], ["--bot-workers", "0"],
                                  ["--bot-executor", "cloud"]])
def test_serve_refuses_settings_it_cannot_run(args: list[str], tmp_path: Path) -> None:
    app = typer.Typer()
    serve_cmd.register(app)

    @app.command()
    def other() -> None:
        """Nothing."""

    result = CliRunner().invoke(app, ["serve", "--db", f"sqlite:///{tmp_path / 'x.db'}", *args])
    assert result.exit_code != 0


def test_the_module_runs_as_a_command() -> None:
    done = subprocess.run([sys.executable, "-m", "cardtable.cli.serve_cmd", "--help"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and "serve" in done.stdout


def test_the_benchmark_measures_action_latency(tmp_path: Path) -> None:
    result = bench_server(rooms=3, seconds=3.0, db=f"sqlite:///{tmp_path / 'bench.db'}", in_process=True)
    assert result["actions"] > 10
    assert 0 < result["p50_ms"] <= result["p90_ms"] <= result["p99_ms"] <= result["max_ms"]
    assert format_result(result).row_count == 1
