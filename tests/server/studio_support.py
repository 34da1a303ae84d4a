"""Helpers of the studio's tests: an app with test settings, a study's progress socket, a wait for its end."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from server_support import settings_for

from cardtable.server import create_app


def app_for(url: str, **changes: Any) -> Any:
    """The server's app over ``url`` with the studio's test settings."""
    return create_app(settings_for(url, **changes))


def watch(client: TestClient, study_id: str) -> list[dict[str, Any]]:
    """Every message of a study's progress socket, to its end."""
    out = []
    with client.websocket_connect(f"/api/studio/studies/{study_id}/ws") as ws:
        while True:
            message = ws.receive_json()
            out.append(message)
            if message["type"] == "end":
                return out


def wait_status(client: TestClient, study_id: str, done: set[str], timeout: float = 180) -> dict[str, Any]:
    """Poll a study until its status is in ``done``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = client.get(f"/api/studio/studies/{study_id}").json()
        if found["study"]["status"] in done:
            return found
        time.sleep(0.2)
    raise AssertionError(f"study {study_id} did not reach {done}")
