"""The Japanese pages speak Japanese where a game is decided: the banner, the seats, the board, the log,
the end screen (its reason and detail line), a refused move's reason and the rule variants are checked
for leftover English by finding Latin words in them.

A Latin word is two or more Latin letters in a row. The allow-list below is short and each entry says why
it is Japanese too: the designers' own Japanese rule pages write these words in Latin letters.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .play import both_sizes, hold_seat, wait_turn

pytestmark = [pytest.mark.browser]

ALLOWED = {
    # Oscilloscope: the designers' Japanese rules name the levels and the kinds of card in Latin letters
    # ("Low", "Hi", "trigger", "noise", "clear", "Low or Hi", "both"), and the cards print their wave
    # shapes as HL, LH, LOH and NOISE.
    "low", "hi", "or", "trigger", "noise", "clear", "both", "hl", "lh", "loh", "oh",
    # Utahime: the designers' Japanese rules call the follow-up effect NEXT (♠NEXT, ♣NEXT).
    "next",
    # Utahime's cards are playing cards: the joker is printed JOKER.
    "joker",
}
"""Latin words the Japanese pages may show, each because the Japanese rulebook itself writes it so."""

NOTATION = re.compile(r"\b(?:P[1-4]|[A-Z]{2,6}-[A-Z-]*\d+|[a-f][1-6]|T_[A-Z]+)\b")
"""Seat names (P1 to P4), rule ids (ZETA-R12, UTA-I16, ZETA-I-CT7), board squares (c3) and Oscilloscope's
trigger cards as the move box takes them (T_HL): ids, not words."""

LATIN = re.compile(r"[A-Za-z_]*[A-Za-z]{2,}[A-Za-z_]*")

CRITICAL = "#turn, .end-card, .seat-rows, .board-area, #log, .alert"
"""The game-critical places of a room page."""


def latin_words(text: str) -> list[str]:
    """The Latin words of ``text`` that are not notation and not on the allow-list."""
    return sorted({w for w in LATIN.findall(NOTATION.sub(" ", text)) if w.lower() not in ALLOWED})


def where(text: str, words: list[str]) -> str:
    """Each word with the line it was found in (the failure message)."""
    lines = text.splitlines()
    return "\n".join(f"{w}: {next((ln for ln in lines if w in ln), '')}" for w in words)


VISIBLE_TEXT = """els => els.map(e => {
  const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT), out = [];
  while (walk.nextNode()) {
    const node = walk.currentNode, text = node.textContent.trim();
    if (text && node.parentElement && node.parentElement.checkVisibility()) out.push(text);
  }
  return out.join(" ");
})"""
"""Each element's visible text, a space between text nodes: innerText runs adjacent inline elements together
("A" and "P1" of a train's label read "AP1"), and which elements meet that way depends on the game dealt."""


def critical_text(page: Any) -> str:
    """The text of the room page's game-critical places, one line per place."""
    return "\n".join(page.eval_on_selector_all(CRITICAL, VISIBLE_TEXT))


def test_the_allow_list_finds_what_it_should() -> None:
    assert latin_words("P2 が 4 つ並べました (chant_practice@f6)") == ["chant_practice"]
    assert latin_words("ZETA-R23 · c3 に置く · P1 (normal)") == ["normal"]
    assert latin_words("♠NEXT の Low or Hi") == []


SETUPS = {
    "zeta": ([{"kind": "bot", "spec": "random"}] * 2, {}, {}),
    "oscilloscope": ([{"kind": "bot", "spec": "random"}] * 3, {"players": 3}, {"mp_noise_limit": 2}),
    "utahime": ([{"kind": "bot", "spec": "random"}] * 2, {"option_set": "designer_example"}, {"max_turns": 8}),
}


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_a_finished_game_watched_in_japanese_has_no_english(server: Any, pages: Any, api: Any, shot: Any, game: str) -> None:
    seats, setup, rules = SETUPS[game]
    room, _, _ = api.room(game, seats, setup=setup, rules=rules, title="", join=None)  # watched: nobody joins
    page = pages.new(locale="ja-JP")
    page.goto(f"{server.url}/room/{room}")
    page.wait_for_selector(".end-card", timeout=60_000)
    page.wait_for_selector("#log li")
    text = critical_text(page)
    found = latin_words(text)
    assert found == [], where(text, found)
    assert page.query_selector(".end-card .end-detail") is not None or game == "oscilloscope"
    if game == "utahime":
        both_sizes(page, shot, "room-end-ja")


def test_a_refused_move_and_the_banner_in_japanese(server: Any, pages: Any, api: Any) -> None:
    room, token, seat = api.room("zeta", [{"kind": "open"}, {"kind": "bot", "spec": "normal"}],
                                 rules={"first_player": "p1"}, join="亜紀")
    page = pages.new(locale="ja-JP")
    hold_seat(page, server.url, room, token, seat, "zeta")
    assert wait_turn(page) == "mine"
    # ZETA-R20: a card's cost must be at most the cards on the board; the board is empty, so a card
    # costing more than 0 is refused with its reason
    page.fill("#command", "hexer@a1")
    page.press("#command", "Enter")
    page.wait_for_selector(".alert")
    text = critical_text(page)
    found = latin_words(text)
    assert found == [], where(text, found)
    alert = page.inner_text(".alert")
    assert "受け付けられませんでした" in alert and ("手札にありません" in alert or "コスト" in alert), alert


def test_the_rule_variants_in_japanese_are_named_in_words(server: Any, pages: Any) -> None:
    page = pages.new(locale="ja-JP")
    page.goto(server.url + "/")
    for game in ("zeta", "oscilloscope", "utahime"):
        page.click(f"[data-game={game}]")
        page.wait_for_selector(f"[data-game={game}][aria-checked=true]")
        page.wait_for_selector("details.flags", state="attached")
        page.eval_on_selector("details.flags", "d => { d.open = true; }")
        page.wait_for_selector(".flag-list .flag")
        text = page.inner_text(".flag-list")
        found = latin_words(text)
        assert found == [], game + ": " + where(text, found)
