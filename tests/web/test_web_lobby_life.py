"""The main lobby shows the lobby's life (as "play now" does, with the same card): the players online, the
best games being played to watch and the latest finished ones to replay, in English and Japanese, on a
desktop and a phone. A guest's chat mutes stay in the browser across reloads, and the game's replay leaves
out the lines of the players the viewer muted."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from .accounts import Person, unique
from .conftest import PHONE
from .test_web_accounts import signed_in_page
from .test_web_japanese import latin_words, where

pytestmark = pytest.mark.browser


def finished(api: Any, rooms: list[str], timeout: float = 60) -> dict[str, Any]:
    """The lobby's life once every room of ``rooms`` has a finished game in it."""
    deadline = time.monotonic() + timeout
    while True:
        life = api("GET", "/api/lobby")
        if set(rooms) <= {g["room"] for g in life["finished"]}:
            return dict(life)
        assert time.monotonic() < deadline, "the bots' games did not finish"
        time.sleep(0.5)


def only(page: Any, rooms: set[str]) -> None:
    """Show the page only these rooms of the server's real lobby life (other tests' rooms share the server)."""

    def keep(route: Any) -> None:
        body = route.fetch().json()
        body["playing"] = [g for g in body["playing"] if g["room"] in rooms]
        body["finished"] = [g for g in body["finished"] if g["room"] in rooms]
        route.fulfill(json=body)

    page.route("**/api/lobby", keep)


def test_the_main_lobby_shows_who_is_online_what_is_played_and_what_just_finished(
        server: Any, pages: Any, api: Any, shot: Any) -> None:
    # two games under way (a person's move pending against a bot) and two played out by bots
    playing = [api.room("zeta", [{"kind": "open"}, {"kind": "bot", "spec": "normal"}], rules={"first_player": "p1"},
                        join=name)[0] for name in ("亜紀", "Ben")]
    playing.append(api.room("utahime", [{"kind": "open"}, {"kind": "bot", "spec": "easy"}], rules={"first_player": "p1"},
                            join="美緒")[0])
    done = [api.room(game, [{"kind": "bot", "spec": "random"}] * 2, rules=rules, join=None)[0]
            for game, rules in (("zeta", {}), ("utahime", {"max_turns": 6}))]
    mio = Person(server.url, unique("Mio"))
    try:
        mio("GET", "/api/lobby")  # a signed-in player asking is online
        life = finished(api, done)
        assert set(playing) <= {g["room"] for g in life["playing"]} and life["online"] >= 1
        assert all(g["updated_at"] for g in life["playing"])  # when each last moved (a quiet game is left out)
        page = pages.new()
        only(page, set(playing) | set(done))
        page.goto(server.url + "/")
        page.wait_for_selector("#lobby-life #finished .life-row")
        # the compact card: the players online, at most three of each, a watch link and a replay link per row
        assert "online" in page.inner_text("#online-count")
        rows = page.eval_on_selector_all("#lobby-life #playing .life-row", "els => els.map(e => e.dataset.room)")
        assert sorted(rows) == sorted(playing)
        for room in playing:
            assert page.get_attribute(f"#playing .life-row[data-room='{room}'] a.btn", "href") == f"/room/{room}?watch=1"
        for room in done:
            assert page.get_attribute(f"#finished .life-row[data-room='{room}'] a.btn", "href") == f"/replay/{room}/1"
        assert "★" in page.inner_text("#finished")  # the winners are marked
        assert "P2 (" in page.inner_text("#playing")  # a bot's seat is named as the rooms name it, never "open"
        shot(page, "lobby-life-desktop")
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(200)
        shot(page, "lobby-life-phone")
        # a replay link opens the finished game's replay; a watch link opens the room as a spectator
        page.click(f"#finished .life-row[data-room='{done[0]}'] a.btn")
        page.wait_for_selector("#replay-step")
        page.goto(server.url + "/")
        page.click(f"#playing .life-row[data-room='{playing[0]}'] a.btn")
        page.wait_for_selector(".room-grid")
        assert f"/room/{playing[0]}" in page.url
        # "play now" shows the same card, in full
        page.goto(server.url + "/play")
        page.wait_for_selector(f"#lobby-life #finished .life-row[data-room='{done[1]}'] a[href='/replay/{done[1]}/1']")
        # in Japanese: the card speaks Japanese (the names are the players' own)
        ja = pages.new(locale="ja-JP")
        only(ja, {playing[0], playing[2], *done})
        ja.goto(server.url + "/")
        ja.wait_for_selector("#lobby-life #finished .life-row")
        text = ja.inner_text("#lobby-life")
        found = latin_words(text)
        assert found == [], where(text, found)
        assert "オンライン" in text
        shot(ja, "lobby-life-ja")
    finally:
        mio.close()


def chat(page: Any, text: str) -> None:
    """Type a message in the room's chat and send it."""
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def test_a_guest_s_mutes_last_across_reloads_and_leave_the_replay_too(server: Any, pages: Any) -> None:
    ann = Person(server.url, unique("Ann"))
    try:
        made = ann("POST", "/api/rooms", {"game": "zeta", "title": "Mute table",
                                          "seats": [{"kind": "open"}, {"kind": "bot", "spec": "normal"}]})
        room = made["room"]["id"]
        a = signed_in_page(pages, ann)
        a.goto(f"{server.url}/room/{room}")
        a.click("[data-key=join-0]")
        a.wait_for_selector("#chat-input")
        guest = pages.new()
        guest.goto(f"{server.url}/room/{room}")
        chat(guest, "hello from the stands")
        chat(a, "first line from Ann")
        guest.wait_for_selector(".chat-msg .chat-text:text-is('first line from Ann')")
        # the guest mutes Ann: her lines go, and stay gone after a reload (this browser keeps the mute)
        guest.click(".chat-msg:has-text('first line from Ann') [data-key^=mute-]")
        guest.wait_for_selector(".chat-msg .chat-text:text-is('first line from Ann')", state="detached")
        kept = json.loads(guest.evaluate("localStorage.getItem('cardtable.mutes')"))
        assert list(kept) == [ann.id]
        guest.reload()
        guest.wait_for_selector(".chat-msg .chat-text:text-is('hello from the stands')")
        assert "first line from Ann" not in guest.inner_text("#chat")
        assert guest.query_selector("#chat-muted") is not None
        chat(a, "second line from Ann")
        a.wait_for_selector(".chat-msg .chat-text:text-is('second line from Ann')")
        chat(guest, "still watching")
        guest.wait_for_selector(".chat-msg .chat-text:text-is('still watching')")
        assert "second line from Ann" not in guest.inner_text("#chat")
        # Ann resigns; the guest's replay of the game leaves her lines out too, and says so
        a.click("[data-key=resign]")
        a.click("[data-key=resign-yes]")
        a.wait_for_selector("#end-how[data-end=resign]")
        guest.goto(f"{server.url}/replay/{room}/1")
        guest.wait_for_selector("#chat-hidden")
        texts = guest.eval_on_selector_all("#chat-log .chat-text", "nodes => nodes.map((n) => n.textContent)")
        assert texts == ["hello from the stands", "still watching"]
        # Ann's own replay keeps every line; the guest can show the muted player's lines again
        a.goto(f"{server.url}/replay/{room}/1")
        a.wait_for_selector("#chat-log")
        assert "first line from Ann" in a.inner_text("#chat-log") and a.query_selector("#chat-hidden") is None
        other = ann("POST", "/api/rooms", {"game": "zeta", "seats": [{"kind": "open"}, {"kind": "open"}]})["room"]["id"]
        guest.goto(f"{server.url}/room/{other}")
        guest.wait_for_selector("#chat-muted")
        guest.click("[data-key=unmute-here]")
        guest.wait_for_selector("#chat-muted", state="detached")
        assert guest.evaluate("localStorage.getItem('cardtable.mutes')") == "{}"
    finally:
        ann.close()
