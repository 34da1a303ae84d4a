"""The examples of docs/adapters.md run as written (doctests), with every framework installed."""

from __future__ import annotations

import doctest
import warnings
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "adapters.md"


def test_adapters_doc_examples_run() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's and check_env's advice, shown in the doc's own tests
        result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 20 and result.failed == 0
