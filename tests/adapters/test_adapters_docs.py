"""The examples of docs/adapters.md run as written (doctests), with every framework installed."""

from __future__ import annotations

import doctest
import warnings
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "adapters.md"


def test_adapters_doc_examples_run() -> None:
    for module in ("pettingzoo", "gymnasium", "pyspiel"):
        pytest.importorskip(module, reason="the rl and bench extras are not installed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's and check_env's advice, shown in the doc's own tests
        result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 20 and result.failed == 0
