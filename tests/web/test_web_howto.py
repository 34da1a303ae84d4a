"""The how-to-play on the page is written for the page: no terminal prompt section, no terminal command
lines, a section on playing in the browser; and the Oscilloscope score rounds the penalty, as the engine
does (OSC-R48: 9 waveform cards and 3 noise score 9 - 5 = 4)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

BROWSER = {"en-US": "In the browser", "ja-JP": "ブラウザーで遊ぶ"}


@pytest.mark.parametrize("locale", sorted(BROWSER))
def test_the_how_to_play_speaks_of_the_page(server: Any, pages: Any, locale: str) -> None:
    page = pages.new(locale=locale)
    for game in ("zeta", "oscilloscope", "utahime"):
        page.goto(f"{server.url}/rules/{game}")
        page.wait_for_selector(".rules-page .md h2")
        headings = page.eval_on_selector_all(".rules-page .md h2, .rules-page .md h3", "hs => hs.map(h => h.innerText)")
        assert BROWSER[locale] in headings and "At the prompt" not in headings and "入力のしかた" not in headings
        text = page.inner_text(".rules-page .md")
        for terminal in ("cardtable play", "at the prompt", "terminal", "`hint`", "you type"):
            assert terminal not in text, (game, terminal)
    page.goto(f"{server.url}/rules/oscilloscope")
    page.wait_for_selector(".rules-page .md h2")
    assert "9 − 5 = 4" in page.inner_text(".rules-page .md")
