"""The lobby and a whole game against a bot, as a newcomer plays it: make a room with rule variants,
play Zeta by clicking cards and squares to the end, download the record, watch the replay, rematch."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from .play import both_sizes, click_zeta_move, play_to_end, wait_turn

pytestmark = pytest.mark.browser


def test_lobby_room_with_variants_played_to_the_end_against_a_bot(server: Any, pages: Any, shot: Any, api: Any) -> None:
    page = pages.new()
    page.goto(server.url + "/")
    page.wait_for_selector(".game-tile[data-game=zeta].active")
    assert page.inner_text("#lobby-title") == "Card games at one table"
    both_sizes(page, shot, "lobby")
    page.fill("#your-name", "Aki")
    page.fill("#room-title", "Lobby test")
    page.select_option("[data-key=seat-1]", "bot:random")
    page.click(".flags summary")
    page.select_option("[data-key=flag-board_width]", "4")
    page.select_option("[data-key=flag-board_height]", "4")
    page.wait_for_selector(".flags summary .badge:has-text('2 changed')")
    page.click("[data-key=create]")
    page.wait_for_url("**/room/*")
    page.wait_for_selector(".zeta-board")
    room = page.url.rsplit("/", 1)[1].split("?")[0]
    assert page.inner_text(".seat-rows .seat-row.you").startswith("P1 Aki")
    assert len(page.query_selector_all(".zeta-board .sq")) == 16
    rng = random.Random(7)
    moves = {"n": 0}

    def move(p: Any) -> None:
        click_zeta_move(p, rng)
        moves["n"] += 1

    if wait_turn(page) == "mine":
        play_to_end(page, move, max_moves=60)
    page.wait_for_selector(".end-card")
    end = page.inner_text(".end-card h2")
    assert end in ("You win!", "P2 (random moves) wins", "Draw")  # the bot named as the lobby names it
    both_sizes(page, shot, "room-zeta-end")
    # the record downloads, and is what `cardtable replay` reads
    with page.expect_download() as info:
        page.click("[data-key=download]")
    record = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert record["game"] == "zeta" and record["rules"]["board_width"] == 4 and record["outcome"] is not None
    # the replay viewer steps through it, revealed (both hands) or as a seat (one hand)
    page.click("a:has-text('Watch the replay')")
    page.wait_for_selector(".replay .zeta-board")
    steps = len(record["actions"])
    assert page.inner_text("#replay-step") == f"0 / {steps}"
    assert len(page.query_selector_all(".hand.revealed")) == 2
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"#replay-step:has-text('1 / {steps}')")
    page.click("[data-key=last]")
    page.wait_for_selector(f"#replay-step:has-text('{steps} / {steps}')")
    page.wait_for_selector(".replay .end-card")
    both_sizes(page, shot, "replay")
    page.select_option("[data-key=mode]", "1")
    page.wait_for_selector(".hand.own[data-seat='1']")
    assert page.query_selector(".hand[data-seat='0']") is None
    # back in the room, a rematch starts the next game with the same seats
    page.goto(f"{server.url}/room/{room}")
    page.wait_for_selector(".end-card")
    page.click("[data-key=rematch]")
    page.wait_for_selector(".end-card", state="detached")
    page.wait_for_selector(".banner")
    assert api("GET", f"/api/rooms/{room}")["game_no"] == 2
    # my games lists the room in the lobby
    page.goto(server.url + "/")
    page.wait_for_selector(f"#my-games [data-room='{room}']")


def test_japanese_pages_show_japanese_words_and_card_names(server: Any, pages: Any, shot: Any, api: Any) -> None:
    from .play import hold_seat

    page = pages.new(locale="ja-JP")
    page.goto(server.url + "/")
    page.wait_for_selector("#lobby-title")
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.inner_text("#lobby-title") == "みんなのカードゲーム卓"
    assert page.inner_text("[data-key=create]") == "ルームを作る"
    both_sizes(page, shot, "lobby-ja")
    room, token, seat = api.room("zeta", [{"kind": "open"}, {"kind": "bot", "spec": "random"}],
                                 setup={"decks": ["plain", "plain"]}, rules={"construction_limits": False},
                                 title="日本語の卓")
    hold_seat(page, server.url, room, token, seat, "zeta")
    wait_turn(page)
    page.wait_for_selector(".hand-card")
    assert "詠唱練習" in page.inner_text(".hand")
    assert "あなたの手札" in page.inner_text(".hand")
    both_sizes(page, shot, "room-zeta-ja")
    # the switch changes the language at once, and the choice is kept
    page.click("button.lang[lang=en]")
    page.wait_for_selector(".hand h3:has-text('Your hand')")
    assert "Chant Practice" in page.inner_text(".hand")
    page.reload()
    page.wait_for_selector(".hand h3:has-text('Your hand')")


def test_names_and_titles_are_shown_as_text_and_a_seat_can_be_left(server: Any, pages: Any, api: Any) -> None:
    from .play import hold_seat

    room, token, seat = api.room("zeta", [{"kind": "open"}, {"kind": "open"}], title="<b>bold</b> & <i>x</i>",
                                 join="<img src=x onerror=1>")
    page = pages.new()
    hold_seat(page, server.url, room, token, seat, "zeta")
    assert page.inner_text(".room-titles h1") == "<b>bold</b> & <i>x</i>"
    assert "P1 <img src=x onerror=1>" in page.inner_text(".seat-rows")
    assert page.query_selector("img") is None and page.query_selector(".room-titles b") is None
    # leaving gives the seat up: the page goes on as a spectator with the seat open again
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("[data-key=leave]")
    page.wait_for_selector(".badge-watch")
    page.wait_for_selector("[data-key=join-0]")
    page.goto(server.url + "/")
    page.wait_for_selector(f"#open-rooms [data-room='{room}']")
    assert page.query_selector("#open-rooms img, #open-rooms b") is None
    assert page.query_selector(f"#my-games [data-room='{room}']") is None


def test_each_games_lobby_part_sets_up_its_room(server: Any, pages: Any, api: Any) -> None:
    """The games' page modules bring their lobby parts: Utahime's option cards, Oscilloscope's players."""
    page = pages.new()
    page.goto(server.url + "/")
    page.wait_for_selector(".game-tile[data-game=zeta].active")
    assert page.query_selector("[data-key=deck-0]") is not None and page.query_selector("[data-key=options]") is None
    page.click(".game-tile[data-game=oscilloscope]")
    page.wait_for_selector("[data-key=players]")
    assert page.eval_on_selector("[data-key=players]", "s => s.value") == "1"
    assert page.query_selector("[data-key=deck-0]") is None and len(page.query_selector_all(".seat-row")) == 1
    page.select_option("[data-key=players]", "3")
    page.wait_for_selector(".seat-row >> nth=2")
    page.click(".game-tile[data-game=utahime]")
    page.wait_for_selector("[data-key=options]")
    assert page.inner_text(".game-tile[data-game=utahime] .tile-art") == "♥"
    page.select_option("[data-key=options]", "designer_example")
    page.fill("#your-name", "Aki")
    page.select_option("[data-key=seat-1]", "bot:random")
    page.click("[data-key=create]")
    page.wait_for_url("**/room/*")
    room = page.url.rsplit("/", 1)[1].split("?")[0]
    assert api("GET", f"/api/rooms/{room}")["setup"]["option_set"] == "designer_example"
