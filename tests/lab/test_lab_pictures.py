"""The pictures of docs/lab.md: each game's report page in English and Japanese, as Debian's chromium shows it.

Each page answers its game's designer question in its first line: Zeta's seat advantage and card
strength (random decks), Utahime's seat advantage and option-card strength (random loadouts),
Oscilloscope's seat advantage at two, three and four players (shared wins) and its solo score. With
``CARDTABLE_LAB_PICTURES=docs`` the screenshots are written to docs/images/lab (and
``CARDTABLE_LAB_PICTURE_GAMES`` sets the games of each run); otherwise to a temporary folder.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import system_needs
from cardtable.lab.execute import run_study
from cardtable.lab.report import build_report, html_page
from cardtable.lab.storage import LabStore
from cardtable.lab.study import StudyConfig

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--headless"]
DOCS_IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images" / "lab"
GAMES = int(os.environ.get("CARDTABLE_LAB_PICTURE_GAMES", "24"))

STUDIES: dict[str, tuple[StudyConfig, tuple[str, ...], tuple[str, ...]]] = {
    # name: (run, how the English answer starts, how the Japanese one starts)
    "zeta": (StudyConfig("zeta", ("heuristic",), games=GAMES, seed=2026, setup={"decks": ["random", "random"]}),
             ("The first player", "The second player", "No seat"), ("先手", "後手", "はっきり")),
    "utahime": (StudyConfig("utahime", ("heuristic",), games=GAMES, seed=2026,
                            setup={"option_set": "designer_example", "loadouts": "random"}),
                ("The first player", "The second player", "No seat"), ("先手", "後手", "はっきり")),
    "oscilloscope-2p": (StudyConfig("oscilloscope", ("heuristic",), games=max(4, GAMES // 3), seed=2026,
                                    setup={"players": 2}),
                        ("The first", "The second", "No seat"), ("先手", "後手", "はっきり")),
    "oscilloscope-3p": (StudyConfig("oscilloscope", ("heuristic",), games=max(4, GAMES // 3), seed=2026,
                                    setup={"players": 3}),
                        ("The first", "The second", "The third", "No seat"), ("先手", "後手", "3番手", "はっきり")),
    "oscilloscope-4p": (StudyConfig("oscilloscope", ("heuristic",), games=max(4, GAMES // 3), seed=2026,
                                    setup={"players": 4}),
                        ("The first", "The second", "The third", "The fourth", "No seat"),
                        ("先手", "後手", "3番手", "4番手", "はっきり")),
    "oscilloscope-solo": (StudyConfig("oscilloscope", ("heuristic",), games=max(4, GAMES // 2), seed=2026,
                                      setup={"players": 1}), ("The mean score is",), ("平均得点は",)),
}


@pytest.fixture(scope="module")
def browser() -> Any:
    """Debian's chromium, headless."""
    system_needs.need(None if CHROMIUM.exists() else f"Debian's chromium is not installed ({CHROMIUM}; apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.mark.parametrize("study", list(STUDIES))
def test_each_game_report_answers_its_question_first(study: str, browser: Any, tmp_path: Path) -> None:
    """The page's first line is the answer; the screenshots of both languages are the docs' pictures."""
    config, english, japanese = STUDIES[study]
    store = LabStore.open(f"sqlite:///{tmp_path / 'lab.db'}")
    try:
        run_study(store, study, config, batch=10)
        run = store.load(study)
    finally:
        store.close()
    out = DOCS_IMAGES if os.environ.get("CARDTABLE_LAB_PICTURES") == "docs" else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    numbers = None
    for lang, starts in (("en", english), ("ja", japanese)):
        report = build_report(run, lang, numbers)
        numbers = report.numbers
        page = browser.new_page(viewport={"width": 900, "height": 1300}, device_scale_factor=1)
        try:
            page.set_content(html_page(report))
            first = page.locator("p.answer").inner_text()
            assert first.startswith(starts), first
            assert page.locator("svg").count() >= 1
            page.screenshot(path=str(out / f"report-{study}-{lang}.png"))
        finally:
            page.close()
        assert (out / f"report-{study}-{lang}.png").stat().st_size > 10_000
