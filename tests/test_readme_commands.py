"""The README's two commands are what CI runs, and the test extra installs everything the suite uses.

CI (``.ci/run``) reads the commands out of the README with ``.ci/readme_commands.py``; these tests keep
that reader, the README and the package's extras in step.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
CI_RUN = ROOT / ".ci" / "run"
TESTS = ROOT / "tests"


def _readme_commands() -> object:
    spec = importlib.util.spec_from_file_location("readme_commands", ROOT / ".ci" / "readme_commands.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_gives_two_commands_and_a_restart() -> None:
    commands = _readme_commands().commands(README.read_text(encoding="utf-8"))  # type: ignore[attr-defined]
    assert commands["serve"] == "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/cardtable serve"
    assert commands["test"] == "python3 -m venv .venv && .venv/bin/pip install -e '.[dev]' && .venv/bin/pytest"
    assert commands["restart"] == ".venv/bin/cardtable serve"
    assert README.read_text(encoding="utf-8").index("## Two commands") < 1000, "the README starts with them"


@pytest.mark.parametrize("broken", ["no section", "one block", "no restart"])
def test_a_readme_without_its_commands_is_refused(broken: str) -> None:
    text = README.read_text(encoding="utf-8")
    if broken == "no section":
        text = text.replace("## Two commands", "## Commands")
    elif broken == "one block":
        text = text.replace("```sh\npython3 -m venv .venv && .venv/bin/pip install -e '.[dev]'", "```\n", 1)
    else:
        text = text.replace("without reinstalling", "")
    with pytest.raises(ValueError):
        _readme_commands().commands(text)  # type: ignore[attr-defined]


def test_the_command_line_prints_each_command_and_refuses_others() -> None:
    script = str(ROOT / ".ci" / "readme_commands.py")
    done = subprocess.run([sys.executable, script, "test"], capture_output=True, text=True, check=True)
    assert done.stdout.strip().endswith(".venv/bin/pytest")
    wrong = subprocess.run([sys.executable, script, "lint"], capture_output=True, text=True)
    assert wrong.returncode == 2 and "usage" in wrong.stderr


def test_ci_runs_the_readme_commands_and_installs_nothing_of_its_own() -> None:
    run = CI_RUN.read_text(encoding="utf-8")
    for name in ("serve", "test", "restart"):
        assert f"readme_commands.py {name}" in run
    assert "pip install" not in run, "CI installs Python packages only through the README's commands"


def test_the_test_extra_pulls_every_other_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    pulled = [req for req in extras["dev"] if req.startswith(f"{project['name']}[")]
    assert len(pulled) == 1
    named = set(re.search(r"\[(.*)\]", pulled[0]).group(1).split(","))  # type: ignore[union-attr]
    assert named == set(extras) - {"dev"}


def test_no_test_skips_for_a_missing_python_package() -> None:
    offenders = [f"{path.relative_to(ROOT)}:{n}" for path in sorted(TESTS.rglob("*.py")) if path != Path(__file__)
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if "importorskip" in line or "find_spec(\"" in line and "skip" in line]
    assert offenders == [], "the test extra installs every package; see tests/system_needs.py"
