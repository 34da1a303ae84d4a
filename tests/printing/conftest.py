"""Printing tests: the three games' print runs are made once per session and shared."""

from __future__ import annotations

from pathlib import Path

import pytest

import system_needs
from cardtable.printing import PrintError, PrintResult
from cardtable.printing.fonts import DEBIAN_PACKAGE, find_font
from cardtable.printing.oscilloscope import print_oscilloscope
from cardtable.printing.utahime import load_option_set, print_utahime
from cardtable.printing.zeta import load_deck, print_zeta


def _font_missing() -> str | None:
    try:
        find_font()
    except PrintError:
        return f"the Japanese font is not installed (apt-get install -y {DEBIAN_PACKAGE})"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the printing tests with the outside need where the Japanese font is missing (``system_needs``)."""
    missing = _font_missing()
    if missing is None:
        return
    here = str(Path(__file__).parent)
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(system_needs.mark(missing))


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``slow`` marker (tests over about five seconds)."""
    config.addinivalue_line("markers", "slow: a test that takes more than about five seconds")


@pytest.fixture(scope="session")
def zeta_result() -> PrintResult:
    """Zeta: the classic deck for player 1, control for player 2, on A4."""
    return print_zeta([load_deck("classic"), load_deck("control")])


@pytest.fixture(scope="session")
def oscilloscope_result() -> PrintResult:
    """Oscilloscope: all 110 cards on A4."""
    return print_oscilloscope()


@pytest.fixture(scope="session")
def utahime_result() -> PrintResult:
    """Utahime with the shipped designer example option set, on A4."""
    return print_utahime(load_option_set("designer_example"))
