"""The profile and the leaderboard after a few rated games (shot for docs/web.md), and every account page in
Japanese with no English left in it."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from .accounts import Person, rated_game, unique
from .play import both_sizes
from .test_web_japanese import latin_words, where

pytestmark = pytest.mark.browser

NAMES_OUT = "() => document.querySelectorAll('#decks, .player-link').forEach(e => e.remove())"
"""Players' and decks' names are names, whatever their letters (the lobby shows deck names as they are)."""


@pytest.mark.slow
def test_the_profile_and_the_leaderboard_after_a_round_of_rated_games(server: Any, pages: Any, shot: Any) -> None:
    people = [Person(server.url, unique(name)) for name in ("Aki", "Emi", "Sora")]
    for seed, (a, b) in enumerate(itertools.islice(itertools.cycle(itertools.combinations(people, 2)), 15)):
        rated_game(server.url, [a, b] if seed % 2 else [b, a], seed=seed)  # each plays 10, as P1 and as P2
    aki = people[0]
    page = pages.new()
    page.context.add_cookies([aki.cookie()])
    page.goto(f"{server.url}/leaderboards/zeta?players=2")
    page.wait_for_selector("#board")
    rows = page.eval_on_selector_all("#board tbody tr", "els => els.map(e => e.dataset.account)")
    assert sorted(rows) == sorted(p.id for p in people)  # ten rated games each: all three are listed
    assert page.get_attribute("#board tr.me", "data-account") == aki.id
    board = aki("GET", "/api/leaderboards/zeta?players=2")
    assert f"#{board['me']['rank']}" in page.inner_text("#my-rank")
    both_sizes(page, shot, "leaderboard")
    page.goto(f"{server.url}/players/{aki.id}")
    page.wait_for_selector(".rating-card svg.rating-chart")
    assert len(page.query_selector_all(".rating-card svg.rating-chart circle")) == 11  # before the first, and after each
    assert "provisional" not in page.inner_text(".rating-card")
    stats = page.inner_text("#stats")
    assert "10" in stats
    assert len(page.query_selector_all("#recent .recent-row")) >= 10
    assert page.query_selector("[data-key=records]") is not None
    with page.expect_download() as download:
        page.click("[data-key=records]")
    assert download.value.suggested_filename.endswith(".json")
    both_sizes(page, shot, "profile")
    for person in people:
        person.close()


def test_the_account_pages_in_japanese_have_no_english(server: Any, pages: Any, shot: Any) -> None:
    aki, emi = Person(server.url, unique("あき")), Person(server.url, unique("えみ"))
    room, _end = rated_game(server.url, [aki, emi], seed=4)
    guest = pages.new(locale="ja-JP")
    checked = []
    for path, ready in (("/signup", "#signup-form"), ("/signin", "#signin-form"), ("/leaderboards", "#my-rank")):
        guest.goto(server.url + path)
        guest.wait_for_selector(ready)
        guest.evaluate(NAMES_OUT)
        checked.append((path, guest.inner_text("#main")))
    page = pages.new(locale="ja-JP")
    page.context.add_cookies([aki.cookie()])
    for path, ready in ((f"/players/{aki.id}", ".rating-card svg"), ("/leaderboards/zeta", "#my-rank"),
                        ("/account", "#delete-account"), (f"/room/{room}", "#rating-changes .rating-change")):
        page.goto(server.url + path)
        page.wait_for_selector(ready)
        if path.startswith("/players/"):
            both_sizes(page, shot, "profile-ja")
        page.evaluate(NAMES_OUT)  # a room's game is test_web_japanese's
        checked.append((path, page.inner_text("#rating-changes" if path.startswith("/room/") else "#main")))
    for path, text in checked:
        found = latin_words(text)
        assert not found, f"{path}:\n{where(text, found)}"
    assert "暫定" in page.inner_text("#rating-changes")
    aki.close()
    emi.close()
