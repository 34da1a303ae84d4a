"""The page reconnects by itself after a server restart, and a move made while the server was down is
played once it is back: nothing is lost."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Api
from .live import LiveServer
from .play import both_sizes, hold_seat, log_index, wait_moved, wait_turn

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_server_restart_is_survived_and_a_move_made_meanwhile_is_played(tmp_path: Any, pages: Any, shot: Any) -> None:
    db = tmp_path / "restart.db"
    first = LiveServer(db).start()
    api = Api(first.url)
    room, token, seat = api.room("zeta", [{"kind": "open"}, {"kind": "bot", "spec": "random"}],
                                 rules={"first_player": "p1"}, title="Restart")
    page = pages.new()
    try:
        hold_seat(page, first.url, room, token, seat, "zeta")
        assert wait_turn(page) == "mine"
        page.wait_for_selector("#conn.conn-open")
        before = log_index(page)
        first.stop()
        page.wait_for_selector("#conn.conn-reconnecting")
        # a move while the server is down waits, then goes out once the room is back at the same version
        page.fill("#command", "pass")
        page.press("#command", "Enter")
        # the banner says the move waits instead of still saying "Your turn"
        page.wait_for_selector(".banner.queued:has-text('Move queued, waiting for the server')")
        assert page.query_selector(".banner.mine") is None
        both_sizes(page, shot, "room-queued")
        second = LiveServer(db, port=first.port).start()
        try:
            page.wait_for_selector("#conn.conn-open", timeout=20_000)
            wait_moved(page, before)
            page.wait_for_selector(".log-line:has-text('P1 Aki passes.')")
            assert Api(second.url)("GET", f"/api/rooms/{room}")["version"] >= 1
            assert page.query_selector(".alert") is None
        finally:
            second.stop()
    finally:
        first.stop()
