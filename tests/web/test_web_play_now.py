"""Play now in the browser: two signed-in players queue for the same game and player count, are paired into a
rated room, and each page lands in its own seat; the lobby's life lists the game being played."""

from __future__ import annotations

from typing import Any

import pytest

from .accounts import Person, unique
from .test_web_accounts import signed_in_page

pytestmark = pytest.mark.browser


def test_two_players_in_the_play_now_queue_are_paired_into_their_seats(server: Any, pages: Any) -> None:
    ann, bob = Person(server.url, unique("Ann")), Person(server.url, unique("Bob"))
    try:
        a, b = signed_in_page(pages, ann), signed_in_page(pages, bob)
        a.goto(f"{server.url}/play")
        a.select_option("#queue-game", "zeta")
        a.click("[data-key=join-queue]")
        a.wait_for_selector("[data-key=leave-queue]")  # waiting, with the way out
        b.goto(f"{server.url}/play")
        b.select_option("#queue-game", "zeta")
        b.click("[data-key=join-queue]")
        # Bob is paired at once, Ann at her next poll: both land in the same room, each in a seat
        b.wait_for_selector(".seat-row.you")
        a.wait_for_selector(".seat-row.you")
        assert a.url.split("/room/")[1] == b.url.split("/room/")[1]
        assert a.query_selector(".badge-rated") is not None
        # the lobby's life shows the game being played, to watch
        watcher = pages.new()
        watcher.goto(f"{server.url}/play")
        watcher.wait_for_selector("#lobby-life #playing .life-row")
        assert "online" in watcher.inner_text("#online-count")
    finally:
        ann.close()
        bob.close()


@pytest.mark.slow
def test_a_lone_player_is_offered_bots_after_the_time_chosen(server: Any, pages: Any) -> None:
    cho = Person(server.url, unique("Cho"))
    try:
        page = signed_in_page(pages, cho)
        page.goto(f"{server.url}/play")
        page.select_option("#queue-game", "zeta")
        page.select_option("#queue-bot", "10")
        page.click("[data-key=join-queue]")
        page.wait_for_selector("[data-key=leave-queue]")
        assert page.query_selector("#bot-offer") is None  # not before the time chosen
        page.wait_for_selector("[data-key=take-bot]", timeout=20_000)
        page.click("[data-key=take-bot]")
        page.wait_for_selector(".seat-row.you")
        assert page.query_selector(".badge-rated") is None  # a game against bots is not rated
    finally:
        cho.close()
