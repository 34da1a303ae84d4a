"""The examples in the package's docstrings run as written (every module's doctests).

Every module is imported, those over the optional frameworks too: the test extra installs them all
(``tests/system_needs.py`` states the rule).
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import cardtable

SKIP = ("cardtable.__main__", "cardtable.store.migrations.")
"""Modules that act when imported (the command itself, Alembic's migration scripts)."""

MODULES = sorted(m.name for m in pkgutil.walk_packages(cardtable.__path__, "cardtable.")
                 if not m.name.startswith(SKIP) and m.name != SKIP[0])


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctests of {name} failed"


def test_the_package_has_doctests() -> None:
    attempted = 0
    for name in ("cardtable.core.events", "cardtable.table.table", "cardtable.core.registry"):
        attempted += doctest.testmod(importlib.import_module(name)).attempted
    assert attempted >= 5
