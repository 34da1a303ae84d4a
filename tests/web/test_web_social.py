"""Social play in the browser: two signed-in players chat in a Zeta room while a spectator's chat is off (the
owner switches it on), a message that looks like markup shown as text, a flood refused in words, the seats'
clocks counting down from the server's times, and a resign that ends the game on both screens."""

from __future__ import annotations

from typing import Any

import pytest

from .accounts import Person, unique
from .play import both_sizes
from .test_web_accounts import signed_in_page

pytestmark = pytest.mark.browser

MARKUP = '<img src=x onerror="window.hacked=1"><b>bold</b>'


def chat(page: Any, text: str) -> None:
    """Type a message in the room's chat and send it."""
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def test_two_players_chat_while_spectator_chat_is_off_then_one_resigns(server: Any, pages: Any, shot: Any) -> None:
    ann, bob = Person(server.url, unique("Ann")), Person(server.url, unique("Bob"))
    try:
        made = ann("POST", "/api/rooms", {"game": "zeta", "title": "Chat table", "spectator_chat": False,
                                          "clock": {"kind": "realtime", "base_s": 600, "increment_s": 5},
                                          "seats": [{"kind": "open"}, {"kind": "open"}]})
        room = made["room"]["id"]
        a, b = signed_in_page(pages, ann), signed_in_page(pages, bob)
        watcher = pages.new()
        for page, seat in ((a, 0), (b, 1)):
            page.goto(f"{server.url}/room/{room}")
            page.click(f"[data-key=join-{seat}]")
            page.wait_for_selector("#chat-input")
        watcher.goto(f"{server.url}/room/{room}")
        # the spectator sees the chat but cannot write: the owner switched spectator chat off
        watcher.wait_for_selector("#chat-off")
        assert watcher.is_disabled("#chat-input")
        # the seated players talk; each line reaches the other and the spectator
        chat(a, "good luck!")
        b.wait_for_selector(".chat-msg .chat-text:text-is('good luck!')")
        watcher.wait_for_selector(".chat-msg .chat-text:text-is('good luck!')")
        chat(b, MARKUP)
        a.wait_for_selector(".chat-msg:nth-child(2) .chat-text")
        assert a.inner_text(".chat-msg:nth-child(2) .chat-text") == MARKUP  # shown as text, never as markup
        assert a.query_selector("#chat-log img, #chat-log b") is None
        assert a.evaluate("window.hacked") is None
        # the owner switches spectator chat on: the spectator can write now
        a.check("#spectator-chat")
        watcher.wait_for_selector("#chat-input:not([disabled])")
        chat(watcher, "hello from the stands")
        a.wait_for_selector(".chat-msg.from-spectator .chat-text:text-is('hello from the stands')")
        # the clocks count down from the server's times: the first seat's time runs
        # the clocks count down from the server's times: only the seat to move has its time running
        a.wait_for_selector("#clocks .clock.running")
        running = int(a.get_attribute("#clocks .clock.running", "data-seat"))
        ticking = f"#clocks .clock[data-seat='{running}'] .clock-time"
        first = a.inner_text(ticking)
        a.wait_for_function("([sel, t]) => document.querySelector(sel).textContent !== t", arg=[ticking, first], timeout=5000)
        b.wait_for_selector(f"#clocks .clock.running[data-seat='{running}']")
        assert b.inner_text(f"#clocks .clock[data-seat='{1 - running}'] .clock-time") == "10:00"
        both_sizes(a, shot, "room-chat-clocks")
        # Ann mutes Bob: his lines leave her chat, and his next one reaches the spectator only
        a.click(".chat-msg:nth-child(2) [data-key^=mute-]")
        a.wait_for_selector(f".chat-msg .chat-who:text-is('P2 {bob.name}')", state="detached")
        chat(b, "after the mute")
        watcher.wait_for_selector(".chat-msg .chat-text:text-is('after the mute')")
        chat(watcher, "still here")
        a.wait_for_selector(".chat-msg .chat-text:text-is('still here')")
        assert "after the mute" not in a.inner_text("#chat")
        # a flood is refused, in words
        for k in range(12):
            chat(b, f"spam {k}")
        b.wait_for_selector("#chat-error[data-code=rate_limited]")
        assert "Too many messages" in b.inner_text("#chat-error")
        # Bob resigns (with a confirm step): the game ends on both screens, saying who resigned
        b.click("[data-key=resign]")
        b.wait_for_selector("#resign-confirm")
        b.click("[data-key=resign-yes]")
        b.wait_for_selector("#end-how[data-end=resign]")
        assert b.inner_text("#end-how") == "You resigned."
        a.wait_for_selector("#end-how[data-end=resign]")
        assert a.inner_text("#end-how").endswith(f"{bob.name} resigned.")
        assert "You win" in a.inner_text("#end h2")
        # the replay keeps the game's chat (as text) and says how it ended
        watcher.goto(f"{server.url}/replay/{room}/1")
        watcher.wait_for_selector("#chat-log")
        texts = watcher.eval_on_selector_all("#chat-log .chat-text", "nodes => nodes.map((n) => n.textContent)")
        assert texts[:3] == ["good luck!", MARKUP, "hello from the stands"]
        assert watcher.query_selector("#chat-log img") is None
        # Ann's replay leaves out the lines of Bob, whom she muted
        a.goto(f"{server.url}/replay/{room}/1")
        a.wait_for_selector("#chat-hidden")
        texts = a.eval_on_selector_all("#chat-log .chat-text", "nodes => nodes.map((n) => n.textContent)")
        assert texts[:2] == ["good luck!", "hello from the stands"] and MARKUP not in texts
        assert a.inner_text("#end-how").endswith(f"{bob.name} resigned.")
    finally:
        ann.close()
        bob.close()


def test_a_turn_based_room_made_in_the_lobby_shows_the_move_deadline(server: Any, pages: Any, api: Any) -> None:
    page = pages.new(locale="ja-JP")
    page.goto(server.url + "/")
    page.wait_for_selector(".game-tile[data-game=zeta].active")
    page.fill("#your-name", "Aki")
    page.select_option("[data-key=seat-1]", "bot:random")
    page.select_option("#clock-kind", "turn")
    page.select_option("#clock-move", "86400")
    assert page.inner_text("#clock-move option:checked") == "1 手 1 日"
    page.click("[data-key=create]")
    page.wait_for_url("**/room/*")
    room = page.url.rsplit("/", 1)[1].split("?")[0]
    assert api("GET", f"/api/rooms/{room}")["clock"]["kind"] == "turn"
    # once the person is to move (the bot may move first), the deadline of the move counts down: a day less a moment
    page.wait_for_selector("#clocks.clock-turn .clock.mine.running")
    assert page.inner_text("#clocks .clock.mine .clock-time") in {"23 時間 59 分", "1 日 0 時間"}
    assert page.inner_text("#clocks .clocks-label") == "この手の持ち時間"


def test_a_rated_real_time_game_ends_when_a_clock_runs_out_on_both_screens(server: Any, pages: Any) -> None:
    ann, bob = Person(server.url, unique("Ann")), Person(server.url, unique("Bob"))
    try:
        room = ann("POST", "/api/rooms", {"game": "zeta", "rated": True, "clock": {"kind": "realtime", "base_s": 2, "increment_s": 0},
                                          "seats": [{"kind": "open"}, {"kind": "open"}]})["room"]["id"]
        a, b = signed_in_page(pages, ann), signed_in_page(pages, bob)
        for page, seat in ((a, 0), (b, 1)):
            page.goto(f"{server.url}/room/{room}")
            page.click(f"[data-key=join-{seat}]")
            page.wait_for_selector(".seat-row.you")
        # nobody moves: the seat to move runs out of time after two seconds and loses (a rated room)
        a.wait_for_selector("#end-how[data-end=timeout]", timeout=15_000)
        b.wait_for_selector("#end-how[data-end=timeout]", timeout=15_000)
        texts = {a.inner_text("#end-how"), b.inner_text("#end-how")}
        assert "You ran out of time." in texts
        assert any(text.endswith("ran out of time.") and not text.startswith("You") for text in texts)
        assert "0:00" in a.eval_on_selector_all("#clocks .clock-time", "nodes => nodes.map((n) => n.textContent)")
    finally:
        ann.close()
        bob.close()
