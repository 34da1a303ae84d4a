"""What the suite needs from outside PyPI, and the one rule for it.

Python packages are never skipped for: ``pip install -e '.[dev]'`` installs every one the suite uses,
the optional extras included, so a missing one is an install error. What pip cannot install (Debian's
chromium, poppler-utils and fonts-ipaexfont-gothic, a PostgreSQL server) is named in the README; a
test that needs one calls :func:`need`, which skips with a reason naming the package and how to get
it, except under CI (``CI`` set), where ``.ci/run`` installs them all and a missing one fails the test.
"""

from __future__ import annotations

import os

import pytest

DEBIAN = "apt-get install -y"
"""How the README's outside needs are installed on Debian."""


def required() -> bool:
    """True under CI, where every outside need must be present."""
    return bool(os.environ.get("CI"))


def need(missing: str | None) -> None:
    """Skip the calling test (fail it under CI) when ``missing`` names an absent outside need."""
    if missing is None:
        return
    if required():
        pytest.fail(f"{missing}: CI must provide it (.ci/run installs every outside need)")
    pytest.skip(missing)


def mark(missing: str) -> pytest.MarkDecorator:
    """A marker for a collected test that needs ``missing``: the suite's conftest applies :func:`need` to it."""
    return pytest.mark.outside_need(missing)
