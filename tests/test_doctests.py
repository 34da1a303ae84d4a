"""The examples in the package's docstrings run as written (every module's doctests).

Modules that need an optional framework (the ``rl``, ``bench`` and ``ray`` extras) are skipped, with the
framework named, when it is not installed.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import cardtable

OPTIONAL = {"pettingzoo", "gymnasium", "pyspiel", "ray", "playwright", "psycopg"}
"""Frameworks of the optional extras."""

SKIP = ("cardtable.__main__", "cardtable.store.migrations.")
"""Modules that act when imported (the command itself, Alembic's migration scripts)."""

MODULES = sorted(m.name for m in pkgutil.walk_packages(cardtable.__path__, "cardtable.")
                 if not m.name.startswith(SKIP) and m.name != SKIP[0])


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] in OPTIONAL:
            pytest.skip(f"{name} needs {exc.name}, an optional extra")
        raise
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctests of {name} failed"


def test_the_package_has_doctests() -> None:
    attempted = 0
    for name in ("cardtable.core.events", "cardtable.table.table", "cardtable.core.registry"):
        attempted += doctest.testmod(importlib.import_module(name)).attempted
    assert attempted >= 5
