"""The designer's studio in the browser: a designer edits a Zeta card's cost (ZETA-R14), sees the check and the
change against the rulebook, saves the set, launches an A/B study against the rulebook, watches it play, reads
the answer first, shares the link with a second person who sees the same report, and opens a room that plays
the set; the same in Japanese. Screenshots of each studio page, desktop and phone."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import PHONE
from .live import LiveServer

pytestmark = pytest.mark.browser

GAMES = int(os.environ.get("CARDTABLE_STUDIO_GAMES", "100"))
"""Games per variant of the browser study (the slow test plays 2,000)."""


def edit_ice_mage(page: Any, cost: str) -> None:
    """Type a new cost for the Ice Mage (ZETA-R14) and wait for the server's check of the set."""
    page.select_option("select[data-key=game]", "zeta")
    box = page.locator('input[data-number="ice_mage.cost"]')
    box.fill(cost)
    page.wait_for_selector(f'.studio-diff ins:text-is("{cost}")')


def launch_and_read(page: Any, games: int, shot: Any, names: tuple[str, str], timeout: float) -> str:
    """Launch the A/B study, watch the progress, and return the answer's first line once the report is in."""
    page.fill("input[data-key=games]", str(games))
    page.click("button[data-key=estimate]")
    page.wait_for_selector(".studio-estimate")
    shot(page, names[0])
    page.click("button[data-key=launch]")
    page.wait_for_url("**/studio/studies/*")
    page.wait_for_selector(".studio-progress progress")
    words = page.inner_text(".studio-progress-words")
    assert "games" in words or "ゲーム" in words, words
    page.wait_for_selector(".studio-answer", timeout=timeout)
    answer = page.inner_text(".studio-answer").splitlines()[0]
    # the answer is the first thing on the page, above the evidence and the progress
    top = page.eval_on_selector(".studio-answer", "e => e.getBoundingClientRect().top")
    progress = page.eval_on_selector(".studio-progress", "e => e.getBoundingClientRect().top")
    assert top < progress
    shot(page, names[1])
    return answer


def share_and_room(page: Any, pages: Any, server: Any, shot: Any, answer: str, locale: str, cost: str,
                   name: str) -> None:
    """A second person opens the share link and sees the same answer, read-only; then a room plays the set."""
    link = page.input_value("input[data-key=share-link]")
    other = pages.new(locale=locale)
    other.goto(link)
    other.wait_for_selector(".studio-answer")
    assert other.inner_text(".studio-answer").splitlines()[0] == answer
    assert other.locator("button[data-key=cancel]").count() == 0
    shot(other, name)
    page.goto(server.url + "/studio?game=zeta")
    edit_ice_mage(page, cost)
    page.click("button[data-key=open-room]")
    page.wait_for_url("**/room/*")
    room = page.url.rsplit("/", 1)[1]
    rules = httpx.get(f"{server.url}/api/rooms/{room}", timeout=30).json()["rules"]
    assert f"ice_mage.cost={cost}" in rules["cards"]


def test_a_designer_studies_a_cheaper_ice_mage_and_shares_the_answer(server: Any, pages: Any, shot: Any) -> None:
    page = pages.new()
    page.goto(server.url + "/studio?game=zeta")
    page.wait_for_selector('input[data-number="ice_mage.cost"]')
    page.locator('input[data-number="ice_mage.cost"]').fill("-1")
    page.wait_for_selector(".studio-problems")
    assert "ZETA-R14" in page.inner_text(".studio-problems")  # the command line's message, word for word
    assert page.locator("button[data-key=launch]").is_disabled()
    edit_ice_mage(page, "6")
    page.fill("input[data-key=set-name]", "slow ice")
    page.click("button[data-key=save-set]")
    with page.expect_download() as download:
        page.click("a:text('Download TOML')")
    toml = Path(download.value.path()).read_text(encoding="utf-8")
    assert 'name = "slow ice"' in toml and "cost = 6" in toml
    answer = launch_and_read(page, GAMES, shot, ("studio-editor", "studio-report"), timeout=120_000)
    # the answer names the seat whose share moved most: which one depends on the paired seeds' results
    assert re.search(r"moves the (first|second) player from", answer), answer
    share_and_room(page, pages, server, shot, answer, "en-US", "6", "studio-shared-en")
    phone = pages.new(viewport=PHONE, touch=True)
    phone.goto(server.url + "/studio?game=zeta")
    phone.wait_for_selector('input[data-number="ice_mage.cost"]')
    shot(phone, "studio-editor-phone")
    phone.goto(server.url + "/studio")
    phone.wait_for_selector(".studio-list-answer")
    phone.goto(server.url + phone.locator(".studio-list-item a").first.get_attribute("href"))
    phone.wait_for_selector(".studio-answer")
    shot(phone, "studio-report-phone")


def test_the_studio_in_japanese(server: Any, pages: Any, shot: Any) -> None:
    page = pages.new(locale="ja-JP")
    page.goto(server.url + "/studio?game=zeta")
    page.wait_for_selector('input[data-number="ice_mage.cost"]')
    assert "カードセット" in page.inner_text("#set-title")
    edit_ice_mage(page, "2")
    answer = launch_and_read(page, GAMES, shot, ("studio-ja-editor", "studio-ja-report"), timeout=120_000)
    assert re.search(r"[先後]手の", answer), answer  # the seat whose score moves most, in Japanese
    share_and_room(page, pages, server, shot, answer, "ja-JP", "2", "studio-shared-ja")
    page.goto(server.url + "/studio")
    page.wait_for_selector(".studio-list-item")
    boxes = page.locator(".studio-list-item input[type=checkbox]")
    if boxes.count() >= 2:  # two studies side by side
        boxes.nth(0).check()
        boxes.nth(1).check()
        page.click(".studio-panel a.btn[href^='/studio/compare']")
        page.wait_for_selector(".studio-pair .studio-answer")
        assert page.locator(".studio-pair .studio-answer").count() == 2
        shot(page, "studio-compare-ja")


@pytest.mark.slow
def test_a_two_thousand_game_study_in_the_browser(server: Any, pages: Any, shot: Any) -> None:
    page = pages.new()
    page.goto(server.url + "/studio?game=zeta")
    page.wait_for_selector('input[data-number="ice_mage.cost"]')
    edit_ice_mage(page, "5")
    answer = launch_and_read(page, 2000, lambda *_: None, ("", ""), timeout=600_000)
    assert answer.endswith("[2000 paired games]."), answer


def test_a_study_cut_by_a_server_restart_resumes_and_finishes_in_the_page(tmp_path: Path, pages: Any) -> None:
    db = tmp_path / "studio.db"
    first = LiveServer(db).start()
    body = {"kind": "single", "game": "zeta", "agents": ["random"], "games": 3_000, "seed": 3}
    made = httpx.post(f"{first.url}/api/studio/studies", json=body, timeout=30).json()
    page = pages.new()
    page.goto(f"{first.url}/studio/studies/{made['id']}")
    page.wait_for_function("() => /^[1-9][0-9,]* of /.test(document.querySelector('.studio-progress-words')"
                           "?.innerText || '')")
    first.stop()  # the server goes away in the middle of the study
    second = LiveServer(db).start()  # and comes back over the same file
    try:
        page.goto(f"{second.url}/studio/studies/{made['id']}")
        page.wait_for_selector(".studio-answer", timeout=120_000)
        assert "3,000 of 3,000 games" in page.inner_text(".studio-progress-words")
        assert "player" in page.inner_text(".studio-answer")
    finally:
        second.stop()
