"""What a newcomer still tripped over: a card placed in the last column on a phone, a saved deck that is no
longer legal (ZETA-R6), the solo Oscilloscope end screen (its par, OSC-R59-R61), "My games" telling rooms
apart and rooms left idle, and the move box's placeholder in Japanese."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from .conftest import PHONE
from .play import hold_seat, log_index, type_move, wait_moved, wait_turn
from .test_web_japanese import critical_text, latin_words, where

pytestmark = pytest.mark.browser

INSIDE_BOARD = """sq => {
  // the square and its card drawn whole: inside the board, inside the page, nothing cut off at the right edge
  const b = sq.getBoundingClientRect();
  const board = document.querySelector('.zeta-board').getBoundingClientRect();
  const name = sq.querySelector('.sq-name');
  const cut = name ? name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1 : false;
  return { inBoard: b.left >= board.left - 0.5 && b.right <= board.right + 0.5,
           inPage: b.right <= document.documentElement.clientWidth + 0.5,
           wide: document.documentElement.scrollWidth <= document.documentElement.clientWidth + 0.5, cut };
}"""


def test_a_card_placed_in_column_f_on_a_phone_is_drawn_whole(server: Any, pages: Any, api: Any, shot: Any) -> None:
    # ZETA-R14: a cost-0 card may go on the empty board; f3 is the board's last column
    room, token, seat = api.room("zeta", [{"kind": "open"}, {"kind": "bot", "spec": "random"}],
                                 rules={"first_player": "p1"}, setup={"decks": ["classic", "classic"]}, title="Phone f")
    page = pages.new(viewport=PHONE)
    hold_seat(page, server.url, room, token, seat, "zeta")
    assert wait_turn(page) == "mine"
    card = page.query_selector(".hand.own .hand-card.placeable")
    assert card is not None
    card.click()
    page.wait_for_selector(".sq.lit[data-square=f3]")
    before = log_index(page)
    page.click(".sq.lit[data-square=f3]")
    wait_moved(page, before)
    page.wait_for_selector(".sq.occupied[data-square=f3]")
    page.wait_for_timeout(700)  # the placed card's pop has played
    sq = page.query_selector(".sq[data-square=f3]")
    sq.scroll_into_view_if_needed()
    fit = sq.evaluate(INSIDE_BOARD)
    assert fit == {"inBoard": True, "inPage": True, "wide": True, "cut": False}, fit
    # the bot's reply is the last-placed card: its ring lies outside the square, never across the card's name
    page.wait_for_selector(".sq.last", timeout=20_000)
    ring = page.eval_on_selector(".sq.last", """sq => { const cs = getComputedStyle(sq);
      return parseFloat(cs.outlineOffset) >= 0 && cs.outlineStyle !== 'none'; }""")
    assert ring, "the last-placed card's ring is drawn inside its square, over its name"
    assert page.eval_on_selector(".sq.last", INSIDE_BOARD)["cut"] is False
    shot(page, "room-zeta-column-f-phone", full=False)


def test_zeta_r6_the_lobby_checks_a_saved_deck_and_names_the_seat(server: Any, pages: Any, shot: Any) -> None:
    # a deck saved in this browser before the builder refused illegal decks: 26 cards, 3 Hexers
    bad = [{"name": "too big", "cards": {"chant_practice": 8, "do_over": 3, "blessing_mist": 2, "fire_mage": 10,
                                        "hexer": 3}, "names": {}}]
    page = pages.new()
    page.goto(server.url + "/decks")
    page.evaluate("d => localStorage.setItem('cardtable.decks.zeta', d)", json.dumps(bad))
    page.goto(server.url + "/")
    page.click("[data-key=game-zeta]")
    page.wait_for_selector("[data-key=deck-0]")
    page.select_option("[data-key=deck-0]", "saved:0")
    page.wait_for_selector("[data-key=deck-problems-0] li")
    listed = page.inner_text("[data-key=deck-problems-0]")
    assert "26 cards" in listed and "Hexer: 3 copies" in listed, listed
    page.fill("#your-name", "Aki")
    page.select_option("[data-key=deck-1]", "paste")
    page.click("[data-key=create]")
    page.wait_for_selector(".alert[data-code=bad_setup]")
    alert = page.inner_text(".alert")
    # every problem at once, each under its seat as players name them (P1, P2), and no room was made
    assert "Deck of P1: 26 cards" in alert and "Deck of P1: Hexer: 3 copies" in alert and "Deck of P2:" in alert, alert
    assert "seat 0" not in alert
    page.query_selector(".alert").scroll_into_view_if_needed()
    shot(page, "lobby-deck-check-desktop", full=False)
    # a setup the server still refuses names the seat as players do, P1, not as the engine counts (seat 0)
    page.route("**/api/rooms", lambda route: route.fulfill(status=400, json={"error": {
        "code": "bad_setup", "message": "seat 0: the deck could not be read", "rule": None}}))
    page.select_option("[data-key=deck-0]", "classic")
    page.select_option("[data-key=deck-1]", "classic")
    page.click("[data-key=create]")
    page.wait_for_selector(".alert:has-text('P1: the deck could not be read')")
    assert "seat 0" not in page.inner_text(".alert")
    assert page.url.rstrip("/") == server.url
    # the same in Japanese: the problems in Japanese, the cards by their Japanese names
    ja = pages.new(locale="ja-JP")
    ja.goto(server.url + "/decks")
    ja.evaluate("d => localStorage.setItem('cardtable.decks.zeta', d)", json.dumps(bad))
    ja.goto(server.url + "/")
    ja.click("[data-key=game-zeta]")
    ja.wait_for_selector("[data-key=deck-0]")
    ja.select_option("[data-key=deck-0]", "saved:0")
    ja.wait_for_selector("[data-key=deck-problems-0] li")
    ja.fill("#your-name", "アキ")
    ja.click("[data-key=create]")
    ja.wait_for_selector(".alert[data-code=bad_setup]")
    text = ja.inner_text(".alert") + "\n" + ja.inner_text("[data-key=deck-problems-0]")
    assert latin_words(text) == [], where(text, latin_words(text))


def test_osc_r61_the_solo_end_screen_shows_the_par_and_no_winner(server: Any, pages: Any, api: Any, shot: Any) -> None:
    par = api("POST", "/web/par/oscilloscope", {"rules": {}, "setup": {"players": 1}})
    assert par["games"] == 1000 and par["low"] < par["par"] < par["high"]
    assert api("POST", "/web/par/oscilloscope", {"rules": {}, "setup": {"players": 2}})["par"] is None
    room, token, seat = api.room("oscilloscope", [{"kind": "open"}], setup={"players": 1}, title="Solo", join="アキ")
    page = pages.new()
    hold_seat(page, server.url, room, token, seat, "oscilloscope")
    # play the solo game by its first legal move each time (the move box takes notation) until it ends
    for _ in range(600):
        if wait_turn(page) == "over":
            break
        moves = page.eval_on_selector_all("#legal-actions option", "els => els.map(e => e.value)")
        type_move(page, moves[0])
    page.wait_for_selector("#end #par")
    end = page.inner_text("#end")
    assert "Par " in end and re.search(r"(above|below|on) par", end), end
    assert "wins" not in end and "You win" not in end, end
    # OSC-R59/R60: the counted noise says how it is counted and where the game ends
    assert "NOISE cards minus its CLEAR cards" in page.inner_text("#end .end-detail")
    shot(page, "room-oscilloscope-solo-end-desktop")
    ja = pages.new(locale="ja-JP")
    hold_seat(ja, server.url, room, token, seat, "oscilloscope")
    ja.wait_for_selector("#end #par")
    assert "パー" in ja.inner_text("#end #par")
    text = critical_text(ja)
    assert latin_words(text) == [], where(text, latin_words(text))


def test_my_games_name_the_other_players_and_call_a_quiet_room_idle(server: Any, pages: Any, api: Any, shot: Any) -> None:
    a = api.room("zeta", [{"kind": "open"}, {"kind": "bot", "spec": "easy"}], join="アキ")
    b = api.room("zeta", [{"kind": "open"}, {"kind": "bot", "spec": "hard"}], join="アキ")
    page = pages.new(locale="ja-JP")
    page.goto(server.url + "/decks")
    seats = {room: {"token": token, "seat": seat, "name": "Aki", "game": "zeta", "title": "",
                    "joined": f"2026-01-01T1{k}:00:00Z"} for k, (room, token, seat) in enumerate([a, b])}
    page.evaluate("e => localStorage.setItem('cardtable.seats', e)", json.dumps(seats))

    def age_first(route: Any) -> None:
        # the first room last moved two days ago: its players went away, but the server still says "playing"
        body = route.fetch().json()
        if body.get("id") == a[0] or (body.get("room") or {}).get("id") == a[0]:
            (body.get("room") or body)["updated_at"] = "2020-01-01T00:00:00Z"
        route.fulfill(json=body)

    page.route(f"**/api/rooms/{a[0]}*", age_first)
    page.goto(server.url + "/")
    page.wait_for_selector(f"#my-games .room-row[data-room='{b[0]}'] .room-dates")
    titles = page.eval_on_selector_all("#my-games .room-title", "els => els.map(e => e.innerText)")
    assert len(set(titles)) == 2 and all("P2" in x for x in titles), titles
    assert not any(re.search(r"[A-Za-z]{3,}", x.replace("Zeta", "")) for x in titles), titles
    quiet = page.inner_text(f"#my-games .room-row[data-room='{a[0]}']")
    assert "止まって" in quiet or "放置" in quiet, quiet
    dates = page.eval_on_selector_all("#my-games .room-dates", "els => els.map(e => e.innerText)")
    assert len(set(dates)) == 2, dates
    text = page.inner_text("#my-games")
    assert latin_words(text) == [], where(text, latin_words(text))
    page.query_selector("#my-games").scroll_into_view_if_needed()
    shot(page, "lobby-my-games-ja-desktop", full=False)


def test_the_move_box_placeholder_has_no_notation_in_japanese(server: Any, pages: Any, api: Any) -> None:
    room, token, seat = api.room("zeta", [{"kind": "open"}, {"kind": "bot", "spec": "random"}],
                                 rules={"first_player": "p1"}, setup={"decks": ["classic", "classic"]})
    page = pages.new(locale="ja-JP")
    hold_seat(page, server.url, room, token, seat, "zeta")
    assert wait_turn(page) == "mine"
    placeholder = page.get_attribute("#command", "placeholder") or ""
    assert placeholder and not re.search(r"[A-Za-z_@]", placeholder), placeholder
    # the list under the box names each move in words as well as its notation
    label = page.eval_on_selector("#legal-actions option", "o => o.label")
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", label), label
