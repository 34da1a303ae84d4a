"""Agent tests run on Tally, a tiny hidden-information toy game registered here.

Registration happens in a fixture (at run time, not collection time), so the shared conformance
suite, which lists games while collecting, does not pick the toy up.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from toy_game import register_tally, unregister_tally


@pytest.fixture(autouse=True, scope="module")
def tally_registered() -> Iterator[None]:
    """Make ``load_game("tally")`` and its heuristic available to every agent test, and only to them."""
    register_tally()
    yield
    unregister_tally()
