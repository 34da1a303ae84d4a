"""The deck builder: a Zeta deck of 25 within the copy limits with live validation (ZETA-R6), skins,
deck files, and the deck in a room; Utahime option cards within the budget of 28 (UTA-R2)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from .play import both_sizes

pytestmark = pytest.mark.browser


def test_zeta_r6_the_builder_rejects_a_26_card_deck_with_the_reason(server: Any, pages: Any, shot: Any) -> None:
    page = pages.new()
    page.goto(server.url + "/decks")
    page.wait_for_selector(".deck-table tbody tr")
    page.select_option("[data-key=preset]", "classic")
    page.wait_for_selector("#deck-total:has-text('25 / 25')")
    page.wait_for_selector("#deck-problems.ok")
    page.click("[data-key=plus-hexer]")
    page.wait_for_selector("#deck-total:has-text('26 / 25')")
    page.wait_for_selector("#deck-problems li[data-code=size]")
    assert page.inner_text("#deck-problems") == "26 cards, but a deck holds exactly 25: remove 1."
    assert page.is_disabled("[data-key=use]")
    # an illegal deck is not saved (it would replace a legal one of its name, and the lobby offers saved decks)
    assert page.is_disabled("[data-key=save]")
    # over a copy limit as well: every problem is listed
    page.click("[data-key=plus-hexer]")
    page.wait_for_selector("#deck-problems li[data-code=limit]")
    assert "Hexer: 3 copies, the limit is 2: remove 1." in page.inner_text("#deck-problems")
    page.click("[data-key=minus-hexer]")
    page.click("[data-key=minus-hexer]")
    page.click("[data-key=minus-chant_practice]")
    page.click("[data-key=plus-fire_mage]")
    page.wait_for_selector("#deck-problems.ok")
    # a skin: the name changes, the cost and effect stay (ZETA-I58)
    page.fill("[data-key=skin-hexer]", 'Curse "Weaver"')
    page.fill("#deck-name", "wizards")
    page.wait_for_timeout(500)
    with page.expect_download() as info:
        page.click("[data-key=download]")
    deck = tomllib.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert deck["name"] == "wizards" and deck["names"] == {"hexer": 'Curse "Weaver"'}
    assert sum(v for k, v in deck.items() if isinstance(v, int)) == 25
    both_sizes(page, shot, "decks-zeta")
    page.click("[data-key=use]")
    page.wait_for_url(server.url + "/")
    page.wait_for_selector("[data-key=deck-0]")
    assert page.eval_on_selector("[data-key=deck-0]", "s => s.options[s.selectedIndex].text") == "wizards"
    page.fill("#your-name", "Aki")
    page.select_option("[data-key=seat-1]", "bot:random")
    page.click("[data-key=create]")
    page.wait_for_selector(".zeta-board")
    page.click(".decklists summary")
    assert "Curse \"Weaver\"" in page.inner_text(".decklists")


def test_zeta_deck_files_with_errors_show_every_message(server: Any, pages: Any) -> None:
    page = pages.new()
    page.goto(server.url + "/decks")
    page.wait_for_selector(".deck-table tbody tr")
    page.fill("[data-key=import]", 'name = "bad"\nblesing_mist = 2\nchant_practice = 9\n')
    page.click("[data-key=load-import]")
    page.wait_for_selector("#import-problems li[data-code=unknown_card]")
    text = page.inner_text("#import-problems")
    assert "did you mean 'blessing_mist'" in text
    assert "Chant Practice: 9 copies, the limit is 8: remove 1." in text
    assert "9 cards, but a deck holds exactly 25: add 16." in text


def test_uta_r2_option_cards_within_the_budget_of_28(server: Any, pages: Any, shot: Any) -> None:
    page = pages.new()
    page.goto(server.url + "/decks?tab=utahime")
    page.wait_for_selector("[data-key=set]")
    page.wait_for_selector("#options-problems.ok")
    assert page.inner_text("#cost-0") == "cost 23 / 28"
    for _ in range(2):
        page.click("[data-key='add-0-strip']")
    page.wait_for_selector("#options-problems.bad")
    assert "the budget is 28" in page.inner_text("#options-problems")
    # every problem at once, cards named by their titles: a third Strip is over the copy limit too (UTA-R2)
    page.click("[data-key='add-0-strip']")
    page.wait_for_selector("#options-problems li[data-code=too_many_copies]")
    problems = page.inner_text("#options-problems")
    assert "the budget is 28" in problems and "3 copies of Strip" in problems, problems
    assert page.is_disabled("[data-key=save-options]")
    for _ in range(3):
        page.click("[data-key='rm-0-strip']")
    page.wait_for_selector("#options-problems.ok")
    both_sizes(page, shot, "decks-utahime")
