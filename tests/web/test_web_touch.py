"""Utahime on a phone's touch screen: an option or hero card's effect opens on a tap (a tooltip cannot be
read without a mouse), the page says "tap" rather than "click", energy is one number, and the wished card
is shown only while it is still in its owner's hand (UTA-R3)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import PHONE
from .play import hold_seat, type_move, wait_turn

pytestmark = pytest.mark.browser


def test_option_effects_open_on_a_tap_and_the_page_says_tap(server: Any, pages: Any, api: Any) -> None:
    room, token, seat = api.room("utahime", [{"kind": "open"}, {"kind": "bot", "spec": "random"}],
                                 setup={"option_set": "designer_example"}, rules={"first_player": "p1"})
    page = pages.new(viewport=PHONE, touch=True)
    hold_seat(page, server.url, room, token, seat, "utahime")
    assert wait_turn(page) == "mine"
    if page.query_selector("[data-action^='wish ']"):  # UTA-R3: the wished card first
        type_move(page, "wish HA")
        assert wait_turn(page) == "mine"
    chip = page.query_selector(".uta-player.seat-0 details.option-chip")
    assert chip is not None
    assert not page.is_visible(".uta-player.seat-0 details.option-chip .option-text")
    chip.query_selector("summary").tap()
    text = page.inner_text(".uta-player.seat-0 details.option-chip[open] .option-text")
    assert "cost" in text and len(text) > 12, "the tapped option shows its cost and its effect"
    hero = page.query_selector(".uta-player.seat-0 details.hero-chip")
    if hero is not None:
        hero.query_selector("summary").tap()
        assert page.is_visible(".uta-player.seat-0 details.hero-chip[open] .option-text")
    # UTA-R10: the main phase lights the cards that can be played; on a touch screen the page says "tap"
    if page.query_selector(".decision"):
        decision = page.inner_text(".decision")
        assert "Click" not in decision
    # energy is one mark and one number
    assert all(len(e.query_selector_all("i")) == 1 for e in page.query_selector_all(".energy"))
    # the wished card is shown while it is in the hand (the seat sees its own hand)
    wished = page.eval_on_selector_all(".uta-player.seat-0 .uta-zone", "zs => zs.map(z => z.innerText)")
    hand_tokens = page.eval_on_selector_all(".uta-player.seat-0 [data-zone=hand]", "els => els.map(e => e.dataset.card)")
    if any(z.startswith("Wished card") for z in wished):
        assert hand_tokens, "a wished card is shown only while it is in the hand"
