"""The studio's search in the browser: a designer ticks one Zeta number (the second player's starting hand), gives
it a range, runs a short search toward an even game, watches the trials, reads the answer in the page's first
line, and loads the best set the search found into the editor; the same page in Japanese, where the cards'
check messages are Japanese too. Screenshots of the search's form and report, desktop and phone."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from .conftest import PHONE

pytestmark = pytest.mark.browser

NUMBER = "hand.second"
"""The number the designer ticks: the cards the second player starts with (Zeta's starting hands)."""


def tune_in_the_page(page: Any, server: Any, shot: Any, names: tuple[str, str], set_name: str) -> str:
    """Tick the number, set a small search, launch it, watch it and return the answer's first line."""
    page.goto(server.url + "/studio?game=zeta")
    page.wait_for_selector(f'input[data-number="{NUMBER}"]')
    page.select_option("select[data-key=kind]", "tune")
    page.check(f'input[data-key="tune-{NUMBER}"]')
    page.fill(f'input[data-key="tune-low-{NUMBER}"]', "3")
    page.fill(f'input[data-key="tune-high-{NUMBER}"]', "9")
    page.fill("input[data-key=set-name]", set_name)
    page.fill("input[data-key=trials]", "5")
    page.fill("input[data-key=step-games]", "40")
    page.fill("input[data-key=steps]", "2")
    page.fill("input[data-key=games]", "200")
    page.click("button[data-key=estimate]")
    page.wait_for_selector(".studio-estimate")
    shot(page, names[0])
    page.click("button[data-key=launch]")
    page.wait_for_url("**/studio/studies/*")
    page.wait_for_selector(".studio-progress progress")
    words = page.inner_text(".studio-progress-words")
    assert re.search(r"(trial|試行|games|ゲーム)", words), words
    page.wait_for_selector(".studio-answer", timeout=240_000)
    answer = page.inner_text(".studio-answer").splitlines()[0]
    # the answer is the first thing on the page: above the sets found, the evidence and the progress
    top = page.eval_on_selector(".studio-answer", "e => e.getBoundingClientRect().top")
    found = page.eval_on_selector(".studio-found", "e => e.getBoundingClientRect().top")
    progress = page.eval_on_selector(".studio-progress", "e => e.getBoundingClientRect().top")
    assert top < found < progress
    shot(page, names[1])
    return answer


def load_the_best_set(page: Any, server: Any) -> None:
    """The first set the search found goes into the editor: its number, under its name."""
    study = page.url.rsplit("/", 1)[1]
    report = httpx.get(f"{server.url}/api/studio/studies/{study}", timeout=30).json()["report"]
    best = report["sets"][0]
    page.click("button[data-key=load-set-0]")
    page.wait_for_url("**/studio?game=zeta")
    page.wait_for_selector(f'input[data-number="{NUMBER}"]')
    value = best["values"].get(NUMBER, 3)
    assert page.input_value(f'input[data-number="{NUMBER}"]') == str(value)
    assert page.input_value("input[data-key=set-name]") == best["name"]
    if best["values"]:  # a changed set is named by its name and its hash, never by a hash alone
        page.wait_for_selector("[data-key=set-label]")
        assert page.inner_text("[data-key=set-label]") == f"{best['name']} #{best['hash']}"


def test_a_designer_tunes_one_number_and_loads_the_best_set(server: Any, pages: Any, shot: Any) -> None:
    page = pages.new()
    answer = tune_in_the_page(page, server, shot, ("studio-tune-editor", "studio-tune-report"), "late second")
    assert re.search(r"brings the first player from \d+% to \d+% \[\d+, \d+\]|beats the original", answer), answer
    study_url = page.url
    phone = pages.new(viewport=PHONE, touch=True)
    phone.goto(study_url)
    phone.wait_for_selector(".studio-answer")
    bottom = phone.eval_on_selector(".studio-answer", "e => e.getBoundingClientRect().bottom")
    assert bottom < PHONE["height"]  # on a phone too, the answer is on the first screen
    shot(phone, "studio-tune-report-phone")
    load_the_best_set(page, server)


def test_the_search_and_the_cards_checks_in_japanese(server: Any, pages: Any, shot: Any) -> None:
    page = pages.new(locale="ja-JP")
    page.goto(server.url + "/studio?game=zeta")
    page.wait_for_selector('input[data-number="ice_mage.cost"]')
    page.locator('input[data-number="ice_mage.cost"]').fill("-1")
    page.wait_for_selector(".studio-problems li")
    problem = page.inner_text(".studio-problems li")
    assert "氷術師" in problem and "最小値" in problem and "ZETA-R14" in problem, problem
    page.locator('input[data-number="ice_mage.cost"]').fill("3")
    page.wait_for_selector(".studio-diff")
    answer = tune_in_the_page(page, server, shot, ("studio-tune-ja-editor", "studio-tune-ja-report"), "後手の手札")
    assert "先手" in answer and ("になります" in answer or "近づきませんでした" in answer), answer
    assert "探索で見つかったセット" in page.inner_text(".studio-found")
    load_the_best_set(page, server)
