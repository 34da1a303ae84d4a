"""Pass and play on one device: "Another player on this device" for the second seat makes both seats this
browser's; after each move the page hides every hand behind "Hand the device to P2" until that player is
ready, then shows their seat (and only their hand and their log)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .play import wait_turn


def play(page: Any, action: str) -> None:
    """Type a move; the page then hides the table behind the hand-over screen."""
    page.fill("#command", action)
    page.press("#command", "Enter")

pytestmark = pytest.mark.browser


def test_two_players_pass_one_device(server: Any, pages: Any) -> None:
    page = pages.new()
    page.goto(server.url + "/")
    page.wait_for_selector(".game-tile[data-game=zeta].active")
    page.fill("#your-name", "Aki")
    page.select_option("[data-key=seat-1]", "here")
    page.click(".flags summary")
    page.select_option("[data-key=flag-first_player]", "p1")
    page.click("[data-key=create]")
    page.wait_for_url("**/room/*")
    assert wait_turn(page) == "mine"
    assert page.inner_text(".seat-rows").count("you") == 1
    assert re.search(r"P1 Aki is dealt [A-Z]", page.inner_text("#log")), "P1 sees their own cards named"
    play(page, "pass")  # ZETA-R12: passing is a move
    page.wait_for_selector("#handover")
    assert "Hand the device to P2 Player 2" in page.inner_text("#handover")
    assert page.query_selector(".hand.own") is None and page.query_selector("#log") is None
    page.click("[data-key=handover]")
    assert wait_turn(page) == "mine"
    assert page.inner_text(".seat-row.you").startswith("P2 Player 2")
    assert "P1 Aki passes." in page.inner_text("#log")
    # P2's log is P2's: P1's cards are not named in it
    assert re.search(r"P1 Aki is dealt \d+ cards", page.inner_text("#log"))
    play(page, "pass")
    page.wait_for_selector("#handover:has-text('Hand the device to P1 Aki')")
    page.reload()
    page.wait_for_selector("#handover")  # a reload keeps both seats and the screen between them
