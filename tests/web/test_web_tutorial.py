"""The first-game guides: each game's scripted turn, played through in the browser by clicking what the page
points at, in English and in Japanese; the guide's notes in Japanese are Japanese."""

from __future__ import annotations

from typing import Any

import pytest

from .play import both_sizes
from .test_web_japanese import latin_words

pytestmark = pytest.mark.browser

POINTED = ".tutorial-point"


def follow(page: Any, shot: Any = None, name: str = "") -> list[str]:
    """Click what the guide points at until it says well done; the notes it showed on the way."""
    notes: list[str] = []
    steps = 0
    while not page.query_selector("#guide.done"):
        page.wait_for_selector(f"#guide.done, {POINTED}")
        if page.query_selector("#guide.done"):
            break
        text = page.inner_text("#guide .guide-text")
        notes.append(text)
        if shot is not None and steps == 1:
            both_sizes(page, shot, name)
        before = page.inner_text("#guide")
        page.click(POINTED)
        if page.inner_text("#guide") == before:  # a card was chosen: now its lit target
            page.wait_for_selector(f".lit{POINTED}, #decision {POINTED}, .slot.lit")
            target = page.query_selector(f".lit{POINTED}") or page.query_selector(f"#decision {POINTED}")
            if target is None:
                page.dispatch_event(".slot.lit, .train-hit.lit", "click")
            else:
                target.click()
        page.wait_for_function("t => !document.querySelector('#guide .guide-text') || "
                               "document.querySelector('#guide .guide-text').innerText !== t", arg=text)
        steps += 1
        assert steps < 10
    return notes


@pytest.mark.parametrize("game", ["zeta", "oscilloscope", "utahime"])
def test_each_guide_is_played_through_in_english_and_japanese(server: Any, pages: Any, shot: Any, game: str) -> None:
    page = pages.new()
    page.goto(f"{server.url}/rules/{game}")
    page.click("[data-key=tutorial]")
    page.wait_for_selector("#guide")
    assert len(follow(page, shot if game == "zeta" else None, "rules-tutorial-zeta")) >= 2
    ja = pages.new(locale="ja-JP")
    ja.goto(f"{server.url}/tutorial/{game}")
    notes = follow(ja)
    assert len(notes) >= 2
    assert all(not latin_words(n) for n in notes), notes
    assert "ゲームを遊ぶ" in ja.inner_text("#guide.done") or "遊ぶ" in ja.inner_text("#guide.done")
