"""The examples in the documentation run as written.

Every code example of the README and of ``docs/`` is tested: Python sessions (``>>>``) are doctests,
other Python blocks run as scripts in a scratch directory, and every ``cardtable ...`` command line
of a shell or plain block is parsed by the real command line (its command, options and values must
exist; nothing is run). Synopsis lines (``cardtable arena GAME AGENT_A [-n GAMES]``) are not examples.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
DOCTESTED = ["../README.md", "table.md", "cards.md", "games/zeta.md", "games/oscilloscope.md", "games/utahime.md", "agents.md", "print.md",
             "play.md", "lab.md", "server.md", "web.md", "contract.md", "adapters.md", "ratings.md"]
"""The doc files with doctests (paths under docs/)."""

DOCTESTED_ELSEWHERE = {"adapters.md": "tests/adapters/test_adapters_docs.py (it needs the optional frameworks)"}
"""Doc files whose doctests another test runs, and which."""

NOT_YET_RUNNABLE: dict[tuple[str, int], str] = {}
"""Python blocks known not to run as written, with why (strict xfail: fixing one makes its test fail until removed)."""

FENCE = re.compile(r"^```(?P<lang>[\w-]*)\s*$")


def doc_files() -> list[Path]:
    """The README and every Markdown file under docs/."""
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def code_blocks(path: Path) -> list[tuple[str, str, int]]:
    """Every fenced block of a Markdown file: (language, text, 1-based number among the file's blocks)."""
    blocks: list[tuple[str, str, int]] = []
    lang: str | None = None
    lines: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = FENCE.match(line)
        if m and lang is None:
            lang, lines = m.group("lang"), []
        elif line.startswith("```") and lang is not None:
            blocks.append((lang, "\n".join(lines), len(blocks) + 1))
            lang = None
        elif lang is not None:
            lines.append(line)
    return blocks


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


SCRIPTS = [(_name(p), n, text) for p in doc_files() for lang, text, n in code_blocks(p)
           if lang == "python" and ">>>" not in text]
SESSIONS = [_name(p) for p in doc_files() if any(lang == "python" and ">>>" in text for lang, text, _ in code_blocks(p))]


def command_lines() -> list[tuple[str, str]]:
    """Every ``cardtable ...`` example in shell and plain blocks: (file, command line)."""
    out: list[tuple[str, str]] = []
    for path in doc_files():
        for lang, text, _ in code_blocks(path):
            if lang not in ("", "sh", "bash", "console", "shell"):
                continue
            for line in text.splitlines():
                for part in line.split("&&"):
                    words = part.split("#", 1)[0].strip()
                    while re.match(r"[A-Z_][A-Z0-9_]*=\S* ", words):  # an environment variable before the command
                        words = words.split(" ", 1)[1].lstrip()
                    head, _, rest = words.partition(" ")
                    if not (head == "cardtable" or head.endswith("/cardtable")):
                        continue
                    if "[" in rest or re.search(r"(?<![\w-])[A-Z][A-Z_]{1,}(?![\w-])", rest):
                        continue  # a synopsis, not an example
                    out.append((_name(path), f"cardtable {rest}".strip()))
    return out


def test_doctested_files_exist_and_every_session_is_doctested() -> None:
    assert all((DOCS / name).exists() for name in DOCTESTED)
    assert all((ROOT / where.split(" ")[0]).exists() for where in DOCTESTED_ELSEWHERE.values())
    covered = {(DOCS / name).resolve().relative_to(ROOT).as_posix() for name in [*DOCTESTED, *DOCTESTED_ELSEWHERE]}
    assert covered >= set(SESSIONS)


@pytest.mark.parametrize("name", DOCTESTED)
def test_doc_examples_run(name: str, tmp_path: Path) -> None:
    """A file's ``>>>`` examples as doctests; a code fence ends an example's expected output, as a blank line does."""
    path = DOCS / name
    text = "\n".join("" if line.startswith("```") else line for line in path.read_text(encoding="utf-8").splitlines())
    test = doctest.DocTestParser().get_doctest(text, {"__name__": "__doc_example__"}, name, str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        result = runner.run(test)
    finally:
        os.chdir(cwd)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(("name", "number", "code"), SCRIPTS, ids=[f"{n}#{k}" for n, k, _ in SCRIPTS])
def test_python_blocks_run(name: str, number: int, code: str, tmp_path: Path, request: Any) -> None:
    why = NOT_YET_RUNNABLE.get((name, number))
    if why is not None:
        request.applymarker(pytest.mark.xfail(reason=why, strict=True))
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        exec(compile(code, f"{name} block {number}", "exec"), {"__name__": "__doc_example__"})
    finally:
        os.chdir(cwd)


COMMANDS = command_lines()


@pytest.mark.parametrize(("name", "line"), COMMANDS, ids=[f"{n}: {line}" for n, line in COMMANDS])
def test_command_examples_parse(name: str, line: str) -> None:
    import typer

    from cardtable.cli.main import app

    args = shlex.split(line)[1:]
    command: Any = typer.main.get_command(app)
    ctx = command.make_context("cardtable", list(args), resilient_parsing=False)
    while hasattr(command, "commands") and ctx._protected_args + ctx.args:
        rest = [*ctx._protected_args, *ctx.args]
        sub_name, sub, remaining = command.resolve_command(ctx, rest)
        assert sub is not None, f"{name}: no command {rest[0]!r} in {line!r}"
        command = sub
        ctx = command.make_context(sub_name, list(remaining), parent=ctx, resilient_parsing=False)


def test_command_examples_are_found() -> None:
    files = {name for name, _ in COMMANDS}
    assert {"README.md", "docs/play.md", "docs/games/zeta.md"} <= files
    assert ("docs/play.md", "cardtable play zeta --vs hard --seat 2") in COMMANDS
