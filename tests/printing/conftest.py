"""Printing tests: the three games' print runs are made once per session and shared."""

from __future__ import annotations

import pytest

from cardtable.printing import PrintResult
from cardtable.printing.oscilloscope import print_oscilloscope
from cardtable.printing.utahime import load_option_set, print_utahime
from cardtable.printing.zeta import load_deck, print_zeta


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
