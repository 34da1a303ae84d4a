"""A person leaves a room whose left seats go to a bot: the log says so ("P2 Emi left; a bot plays on"),
and the lines from before keep who made them (Emi's moves stay Emi's; the bot's are the bot's). On the way,
what changed since the last message is drawn moving: the card just placed pops onto its square, once."""

from __future__ import annotations

from typing import Any

import pytest

from .play import both_sizes, hold_seat, log_index, type_move, wait_moved, wait_turn

pytestmark = pytest.mark.browser


def test_a_person_who_leaves_is_named_in_the_log_and_keeps_their_moves(server: Any, pages: Any, shot: Any,
                                                                      api: Any) -> None:
    made = api("POST", "/api/rooms", {"game": "zeta", "seats": [{"kind": "open"}, {"kind": "open"}],
                                      "rules": {"first_player": "p1"}, "title": "Takeover", "on_leave": "bot",
                                      "leave_bot": "random", "setup": {}})
    room = made["room"]["id"]
    aki = api("POST", f"/api/rooms/{room}/join", {"name": "Aki"})
    emi = api("POST", f"/api/rooms/{room}/join", {"name": "Emi"})
    page = pages.new()
    hold_seat(page, server.url, room, aki["token"], aki["seat"], "zeta")
    other = pages.new()
    hold_seat(other, server.url, room, emi["token"], emi["seat"], "zeta")
    assert wait_turn(page) == "mine"
    # what changed since the last message is drawn moving: Emi sees the card Aki just placed pop in (ZETA-R13)
    before = log_index(page)
    page.click(".hand.own .hand-card.placeable")
    square = page.get_attribute(".sq.lit", "data-square")
    page.click(f".sq[data-square='{square}']")
    wait_moved(page, before)
    other.wait_for_selector(f".sq.changed[data-square='{square}']")
    assert len(other.query_selector_all(".sq.changed")) == 1
    assert wait_turn(other) == "mine"
    type_move(other, "pass")
    page.wait_for_selector(".log-line:has-text('P2 Emi passes.')")
    assert page.query_selector(".sq.changed") is None, "a pass changes nothing on the board"
    api("POST", f"/api/rooms/{room}/leave", {}, token=emi["token"])
    page.wait_for_selector(".log-line.kind-seat:has-text('P2 Emi left; a bot plays on.')")
    assert wait_turn(page) == "mine"
    type_move(page, "pass")
    # the bot moves next: its lines name the bot, Emi's earlier line still names Emi
    page.wait_for_selector(".log-line:has-text('P2 (random moves)')")
    log = page.inner_text("#log")
    assert "P2 Emi passes." in log
    assert log.index("P2 Emi passes.") < log.index("P2 Emi left; a bot plays on.") < log.index("P2 (random moves)")
    both_sizes(page, shot, "room-takeover")


def test_the_takeover_line_in_japanese(server: Any, pages: Any, api: Any) -> None:
    made = api("POST", "/api/rooms", {"game": "zeta", "seats": [{"kind": "open"}, {"kind": "open"}],
                                      "rules": {"first_player": "p1"}, "title": "", "on_leave": "bot",
                                      "leave_bot": "random", "setup": {}})
    room = made["room"]["id"]
    aki = api("POST", f"/api/rooms/{room}/join", {"name": "亜紀"})
    emi = api("POST", f"/api/rooms/{room}/join", {"name": "恵美"})
    page = pages.new(locale="ja-JP")
    hold_seat(page, server.url, room, aki["token"], aki["seat"], "zeta")
    assert wait_turn(page) == "mine"
    api("POST", f"/api/rooms/{room}/leave", {}, token=emi["token"])
    page.wait_for_selector(".log-line.kind-seat:has-text('P2 恵美')")
    assert "ボット" in page.inner_text(".log-line.kind-seat")
