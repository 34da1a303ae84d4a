"""The pages a newcomer meets, shot for docs/web.md: a Zeta game in progress with a card chosen, the
hint, the rules panel from a room, and the rules pages in both languages."""

from __future__ import annotations

import random
from typing import Any

import pytest

from .play import both_sizes, click_zeta_move, hold_seat, wait_turn

pytestmark = pytest.mark.browser


def test_a_zeta_game_in_progress_with_a_hint_and_the_rules_panel(server: Any, pages: Any, shot: Any, api: Any) -> None:
    page = pages.new()
    room, token, seat = api.room("zeta", [{"kind": "open"}, {"kind": "bot", "spec": "random"}],
                                 setup={"decks": ["arcana", "control"]}, title="Wizards' duel")
    hold_seat(page, server.url, room, token, seat, "zeta")
    rng = random.Random(2)
    for _ in range(7):
        if wait_turn(page) == "over":
            break
        click_zeta_move(page, rng)
    if wait_turn(page) == "mine" and page.query_selector(".hand.own .hand-card.placeable"):
        page.click("[data-key=hint]")
        page.wait_for_selector(".hint-line")
        assert page.query_selector(".hinted") is not None
        page.click(".hand.own .hand-card.placeable")
        page.wait_for_selector(".sq.lit")
    both_sizes(page, shot, "room-zeta")
    page.click("[data-key=rules]")
    page.wait_for_selector(".rules-dialog .md h2")
    assert "Four in a row" in page.inner_text(".rules-dialog")
    page.click(".rules-dialog [data-key=tab-rules]")
    page.fill(".rules-dialog [data-key=rule-filter]", "ZETA-R20")
    page.press(".rules-dialog [data-key=rule-filter]", "Enter")
    page.wait_for_selector(".rules-dialog .rule-text")
    assert "ZETA-R20" in page.inner_text(".rules-dialog .rule-text")
    shot(page, "room-rules-dialog-desktop")
    page.keyboard.press("Escape")


@pytest.mark.parametrize("locale, name", [("en-US", "rules"), ("ja-JP", "rules-ja")])
def test_the_rules_pages(server: Any, pages: Any, shot: Any, locale: str, name: str) -> None:
    page = pages.new(locale=locale)
    page.goto(server.url + "/rules/oscilloscope")
    page.wait_for_selector(".rules-page .md h2")
    heading = page.inner_text(".rules-page .md h2")
    assert heading == ("How to play Oscilloscope" if locale == "en-US" else "オシロスコープの遊び方")
    both_sizes(page, shot, name)
    page.goto(server.url + "/rules/utahime?rule=UTA-R18")
    page.wait_for_selector(".rule-text")
    assert "UTA-R18" in page.inner_text(".rule-text")
