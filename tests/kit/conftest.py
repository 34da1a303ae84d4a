"""The kit tests add Tally, the agents' toy game (``tests/agents/toy_game.py``), as a fourth game through its kit alone.

Registration happens in a fixture (at run time, not collection time), so the shared conformance
suite, which lists games while collecting, does not pick the toy up; it is taken out again after.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "agents"))  # toy_game, the engine of Tally

from tally_kit import KIT  # noqa: E402

from cardtable.core import registry  # noqa: E402


@pytest.fixture(autouse=True, scope="module")
def tally_kit() -> Iterator[registry.GameKit]:
    """Tally, registered with its kit for the tests of one module, and only for them."""
    registry.register(KIT)
    yield KIT
    registry.unregister(KIT.name)
