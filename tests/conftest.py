"""Suite-wide: which build runs (compiled or pure Python), and the tests that only the pure build can run."""

from __future__ import annotations

import pytest

import cardtable
from system_needs import need

BUILD = cardtable.build_info()


def pytest_report_header(config: pytest.Config) -> str:
    """Say which build the suite tests."""
    return f"cardtable build: {BUILD}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On the compiled build, skip the tests marked ``pure_python`` (the ``CARDTABLE_PURE=1`` run covers them)."""
    if not BUILD.compiled:
        return
    skip = pytest.mark.skip(reason="patches engine objects in ways compiled classes refuse; "
                                   "the pure-Python run (CARDTABLE_PURE=1 pytest) covers it")
    for item in items:
        if "pure_python" in item.keywords:
            item.add_marker(skip)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Apply the outside-need rule (``system_needs.need``) to tests marked ``outside_need``, before their fixtures."""
    marker = item.get_closest_marker("outside_need")
    if marker is not None:
        need(marker.args[0])
