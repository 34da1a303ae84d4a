"""A rematch keeps the last game's result on screen (until dismissed) and a running score across the room's
games, for every seat: the end screen no longer vanishes when somebody starts game 2."""

from __future__ import annotations

from typing import Any

import pytest

from .play import both_sizes, hold_seat, legal, play_to_end, type_move

pytestmark = pytest.mark.browser


def test_the_last_result_and_the_running_score_stay_after_a_rematch(server: Any, pages: Any, shot: Any, api: Any) -> None:
    # UTA-R57: the turn limit (a rule flag) makes the game short
    room, token, seat = api.room("utahime", [{"kind": "open"}, {"kind": "bot", "spec": "random"}],
                                 rules={"max_turns": 2, "first_player": "p1"}, title="Best of three")
    page = pages.new()
    hold_seat(page, server.url, room, token, seat, "utahime")
    play_to_end(page, lambda p: type_move(p, legal(p)[0]), max_moves=80)
    page.wait_for_selector(".end-card [data-key=running-score]:has-text('After 1 game')")
    result = page.inner_text(".end-card h2")
    page.click("[data-key=rematch]")
    page.wait_for_selector("[data-key=last-game]")
    last = page.inner_text("[data-key=last-game]")
    assert last.startswith("Game 1: ")
    assert ("You won" in last) == (result == "You win!")
    assert "After 1 game:" in last
    both_sizes(page, shot, "room-rematch")
    page.click("[data-key=last-game] .icon-btn")
    assert page.query_selector("[data-key=last-game]") is None
