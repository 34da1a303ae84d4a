"""Front ends never name a game: they ask a game's kit. Only a game's own modules (its package and its
facet modules, named after it) test for its name; bench case lists and Zeta's deck commands are the
exceptions, listed here with their reason."""

from __future__ import annotations

import re
from pathlib import Path

import cardtable

PACKAGE = Path(cardtable.__file__).parent
GAMES = ("zeta", "oscilloscope", "utahime")
CHOICE = "|".join(GAMES)
NAME = rf"""["']({CHOICE})["']"""
NAMED = re.compile(rf"[=!]==? *{NAME}|{NAME} *[=!]==?|(^|[{{,]) *{NAME} *:|{NAME} *, *{NAME}")
"""A comparison with a game's name, a table keyed by one, or a list of them."""
JS_KEY = re.compile(rf"(^|[{{,]) *({CHOICE}) *:")
"""A script's table keyed by a game's name."""

ALLOWED = {
    "lab/agent_bench.py": "the games and setups `bench agents` measures",
    "lab/lab_bench.py": "the games `bench lab` measures",
}


def _own_module(relative: str) -> bool:
    """A game's own module: inside its package, or a facet module named after it."""
    parts = Path(relative).parts
    return (parts[0] == "games" and len(parts) > 1 and parts[1] in GAMES) or Path(relative).stem in GAMES


def test_no_front_end_tests_for_a_games_name() -> None:
    found = []
    for path in sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.js")]):
        relative = path.relative_to(PACKAGE).as_posix()
        if _own_module(relative) or relative in ALLOWED:
            continue
        in_docstring = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.strip()
            quotes = code.count('"""') if path.suffix == ".py" else 0
            if in_docstring or quotes:
                in_docstring = in_docstring != (quotes % 2 == 1)
                continue  # docstrings and their examples may name games
            if code.startswith(("#", "//")):
                continue
            if NAMED.search(code) or (path.suffix == ".js" and JS_KEY.search(code)):
                found.append(f"{relative}:{number}: {code}")
    assert found == [], "\n".join(found)


def test_every_allowance_is_still_needed() -> None:
    for relative in ALLOWED:
        path = PACKAGE / relative
        text = path.read_text(encoding="utf-8")
        assert NAMED.search(text) or (path.suffix == ".js" and JS_KEY.search(text)), f"{relative} names no game now"
