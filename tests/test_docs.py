"""The examples in the documentation run as written (doctests)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
DOCTESTED = ["table.md", "games/zeta.md", "games/oscilloscope.md", "games/utahime.md"]


@pytest.mark.parametrize("name", DOCTESTED)
def test_doc_examples_run(name: str) -> None:
    result = doctest.testfile(str(DOCS / name), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
