"""Schemathesis against /openapi.json, in process through the ASGI app: no request makes a server error,
and every response matches the documented schema, status codes and headers.

One check is left out: ``positive_data_acceptance`` expects every schema-valid request to succeed, but
the engines check rules, setups, seats and agent specs beyond what a JSON Schema can say (a Zeta deck
must be legal, a setup's player count must match its seats); those refusals are documented 400s with
a code and a message, and tests/server/test_server_api.py covers them one by one.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from server_support import new_app, sqlite_url

_FOLDER = Path(tempfile.mkdtemp(prefix="cardtable-schemathesis-"))
atexit.register(shutil.rmtree, _FOLDER, True)
APP = new_app(sqlite_url(_FOLDER))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_no_request_makes_a_server_error(case: schemathesis.Case) -> None:  # type: ignore[type-arg]
    case.call_and_validate(excluded_checks=[schemathesis.checks.positive_data_acceptance])
