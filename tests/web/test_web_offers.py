"""Offers at the table in the browser, between two people (two browser contexts): a rematch offered, declined,
offered again and accepted (the finished game's result stays on both screens until the next game starts); a draw
offered and accepted; a takeback asked for and accepted; and the spectators counted on the room page (in both
languages)."""

from __future__ import annotations

from typing import Any

import pytest

from .play import both_sizes, hold_seat, legal, log_index, type_move

pytestmark = pytest.mark.browser


def two_people(server: Any, pages: Any, api: Any, game: str = "zeta", **room: Any) -> tuple[str, Any, Any]:
    """A room of two open seats: Aki holds the first in one browser, Bo the second in another."""
    room_id, aki_token, aki_seat = api.room(game, [{"kind": "open"}, {"kind": "open"}], join="Aki", **room)
    bo = api("POST", f"/api/rooms/{room_id}/join", {"name": "Bo"})
    aki_page, bo_page = pages.new(), pages.new()
    hold_seat(aki_page, server.url, room_id, aki_token, aki_seat, game)
    hold_seat(bo_page, server.url, room_id, bo["token"], bo["seat"], game)
    return room_id, aki_page, bo_page


def mover(*pages: Any) -> tuple[Any, Any]:
    """The page whose seat decides now, and the other one."""
    first, second = pages
    first.wait_for_selector(".banner")
    second.wait_for_selector(".banner")
    for _ in range(100):
        if first.query_selector(".banner.mine"):
            return first, second
        if second.query_selector(".banner.mine"):
            return second, first
        first.wait_for_timeout(100)
    raise AssertionError("nobody's turn")


def test_a_rematch_offer_is_declined_then_accepted_and_the_result_stays_until_the_next_game(
        server: Any, pages: Any, api: Any, shot: Any) -> None:
    room, aki, bo = two_people(server, pages, api, title="Offers")
    aki.click("[data-key=resign]")
    aki.click("[data-key=resign-yes]")
    for page in (aki, bo):
        page.wait_for_selector(".end-card")
    aki.click("[data-key=rematch]")
    bo.wait_for_selector("[data-key=offer-rematch]:has-text('P1 Aki offers a rematch.')")
    assert bo.query_selector("[data-key=accept-rematch]") and bo.query_selector("[data-key=decline-rematch]")
    aki.wait_for_selector("[data-key=offer-rematch]:has-text('You offered a rematch.')")
    assert "Waiting for P2 Bo." in aki.inner_text("[data-key=offer-rematch]")
    assert aki.query_selector("[data-key=rematch]") is None and aki.query_selector("[data-key=accept-rematch]") is None
    assert bo.query_selector(".end-card") and aki.query_selector(".end-card")  # the result stays on both screens
    both_sizes(bo, shot, "room-rematch-offer")
    bo.click("[data-key=decline-rematch]")
    for page in (aki, bo):
        page.wait_for_selector("[data-key=offer-note]:has-text('P2 Bo declined the rematch.')")
        assert page.query_selector(".end-card") and page.query_selector("[data-key=offer-rematch]") is None
    assert api("GET", f"/api/rooms/{room}")["game_no"] == 1
    aki.click("[data-key=rematch]")
    bo.click("[data-key=accept-rematch]")
    for page in (aki, bo):
        page.wait_for_selector("[data-key=last-game]")  # game 2: the last result moves to its card
        assert page.query_selector(".end-card") is None
        assert "Game 1: " in page.inner_text("[data-key=last-game]")
    assert api("GET", f"/api/rooms/{room}")["game_no"] == 2


def test_a_draw_offer_accepted_ends_the_game_drawn_on_both_screens(server: Any, pages: Any, api: Any) -> None:
    _room, aki, bo = two_people(server, pages, api)
    bo.click("[data-key=offer-draw]")
    aki.wait_for_selector("[data-key=offer-draw]:has-text('P2 Bo offers a draw.')")
    aki.click("[data-key=accept-draw]")
    for page in (aki, bo):
        page.wait_for_selector(".end-card h2:text-is('Draw')")
        assert "Drawn by agreement." in page.inner_text(".end-card .reason")
        assert page.query_selector("[data-key=offer-draw]") is None


def test_a_takeback_accepted_undoes_the_move_on_both_screens(server: Any, pages: Any, api: Any) -> None:
    _room, aki, bo = two_people(server, pages, api)
    first, other = mover(aki, bo)
    before = log_index(first)
    type_move(first, legal(first)[0])
    other.wait_for_function("i => Number(document.querySelector('#log li:last-child').dataset.index) > i", arg=before)
    first.wait_for_selector("[data-key=offer-takeback]")
    first.click("[data-key=offer-takeback]")
    other.wait_for_selector("[data-key=offer-takeback]:has-text('asks to take back their last move.')")
    other.click("[data-key=accept-takeback]")
    for page in (first, other):
        page.wait_for_selector("[data-key=offer-note]:has-text('The move was taken back.')")
        page.wait_for_function("i => { const l = document.querySelector('#log li:last-child'); "
                               "return !l || Number(l.dataset.index) <= i; }", arg=before)
    first.wait_for_selector(".banner.mine")  # the seat that took its move back decides again
    assert other.query_selector(".banner.mine") is None


def test_the_room_page_counts_its_spectators_in_both_languages(server: Any, pages: Any, api: Any) -> None:
    room, token, seat = api.room("zeta", [{"kind": "open"}, {"kind": "bot", "spec": "random"}], join="Aki")
    aki = pages.new()
    hold_seat(aki, server.url, room, token, seat, "zeta")
    assert aki.query_selector("[data-key=watchers]") is None  # nobody watches yet
    watcher = pages.new()
    watcher.goto(f"{server.url}/room/{room}")
    watcher.wait_for_selector("[data-key=watchers]:has-text('1 watching')")
    japanese = pages.new(locale="ja-JP")
    japanese.goto(f"{server.url}/room/{room}")
    japanese.wait_for_selector("[data-key=watchers]:has-text('2 人が観戦中')")
    aki.wait_for_selector(".banner.mine")
    type_move(aki, legal(aki)[0])  # the count comes with each state: the player's page has it after a move
    aki.wait_for_selector("[data-key=watchers]:has-text('2 watching')")
    assert "Aki" not in aki.inner_text("[data-key=watchers]")
