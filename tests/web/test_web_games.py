"""A person plays each game to the end against bots: Oscilloscope solo and with 3 players, Utahime
(short games through rule flags: the noise limit and the turn guard are flags of the rulebooks)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from .play import both_sizes, hold_seat, legal, log_index, play_to_end, type_move, wait_moved

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def click_osc_move(page: Any, rng: random.Random) -> None:
    """One Oscilloscope move by clicking: a hand card and a lit slot or train, or a decision button."""
    before = log_index(page)
    buttons = page.query_selector_all("#decision [data-action]")
    cards = page.query_selector_all(".hand .pulse-card.usable")
    if cards and (not buttons or rng.random() < 0.5):
        rng.choice(cards).click()
        targets = page.query_selector_all(".scope .slot.lit, .scope .train-hit.lit")
        if targets:
            rng.choice(targets).dispatch_event("click")
            page.wait_for_timeout(50)
            options = page.query_selector_all("#decision [data-action^=refill]")
            if options and log_index(page) == before:
                rng.choice(options).click()
            wait_moved(page, before)
            return
        buttons = page.query_selector_all("#decision [data-action]")
    if buttons:
        rng.choice(buttons).click()
        wait_moved(page, before)
        return
    type_move(page, rng.choice(legal(page)))


def test_oscilloscope_solo_to_the_end(server: Any, pages: Any, shot: Any, api: Any) -> None:
    page = pages.new()
    room, token, seat = api.room("oscilloscope", [{"kind": "open"}], setup={"players": 1}, title="Solo scope")
    hold_seat(page, server.url, room, token, seat, "oscilloscope")
    page.wait_for_selector(".scope")
    assert page.query_selector(".scope .filter-box") is not None
    rng = random.Random(5)
    seen = {"n": 0}

    def move(p: Any) -> None:
        click_osc_move(p, rng)
        seen["n"] += 1
        if seen["n"] == 4 and p.query_selector(".banner.mine"):
            both_sizes(p, shot, "room-oscilloscope-solo")

    play_to_end(page, move, max_moves=150)
    assert page.inner_text(".end-card h2").startswith("Solo game over: score")
    # OSC-R60: a score attack has no winner; the detail line counts the noise in words
    page.wait_for_selector(".log-line:has-text('Game over: the solo score is')")
    assert "wins" not in page.inner_text("#log li:last-child")
    assert page.inner_text(".end-card .end-detail").startswith("Counted noise: ")


def test_oscilloscope_three_players_against_two_bots(server: Any, pages: Any, shot: Any, api: Any) -> None:
    page = pages.new()
    room, token, seat = api.room("oscilloscope", [{"kind": "open"}, {"kind": "bot", "spec": "random"},
                                                  {"kind": "bot", "spec": "random"}],
                                 setup={"players": 3}, rules={"mp_noise_limit": 2}, title="Three channels")
    hold_seat(page, server.url, room, token, seat, "oscilloscope")
    page.wait_for_selector(".scope")
    assert len(page.query_selector_all(".players-table tbody tr")) == 3
    rng = random.Random(9)
    seen = {"n": 0}

    def move(p: Any) -> None:
        # the seat that decides now wears "to play", even inside another player's set (a refill)
        rows = p.eval_on_selector_all(".players-table tbody tr", "rows => rows.map(r => [r.className, "
                                      "!!r.querySelector('.tag-turn'), r.querySelectorAll('.tag').length])")
        deciding = [cls.split() for cls, turn, _ in rows if turn]
        assert len(deciding) == 1 and f"seat-{seat}" in deciding[0], rows
        assert sum(tags for _, _, tags in rows) <= 2, rows  # "to play", and the set's owner when it is another seat
        click_osc_move(p, rng)
        seen["n"] += 1
        if seen["n"] == 5 and p.query_selector(".banner.mine"):
            card = p.query_selector(".hand .pulse-card.usable")
            if card is not None:
                card.click()
            both_sizes(p, shot, "room-oscilloscope")

    play_to_end(page, move, max_moves=200)
    page.wait_for_selector(".end-card")
    assert page.query_selector(".end-card .scores") is not None


def click_utahime_move(page: Any, rng: random.Random) -> None:
    """One Utahime move by clicking a lit card (and one of its choices) or a button."""
    before = log_index(page)
    cards = page.query_selector_all("button.pcard.usable")
    buttons = page.query_selector_all("#decision .decision-buttons [data-action]")
    if cards and (not buttons or rng.random() < 0.7):
        rng.choice(cards).click()
        if log_index(page) == before:
            choices = page.query_selector_all("#decision .card-actions [data-action]")
            if choices:
                rng.choice(choices).click()
        wait_moved(page, before)
        return
    if buttons:
        rng.choice(buttons).click()
        wait_moved(page, before)
        return
    type_move(page, rng.choice(legal(page)))


def test_utahime_against_a_bot_with_the_designer_options(server: Any, pages: Any, shot: Any, api: Any) -> None:
    page = pages.new()
    room, token, seat = api.room("utahime", [{"kind": "open"}, {"kind": "bot", "spec": "random"}],
                                 setup={"option_set": "designer_example"}, rules={"max_turns": 6}, title="Utahime duel")
    hold_seat(page, server.url, room, token, seat, "utahime")
    page.wait_for_selector(".uta")
    rng = random.Random(3)
    seen = {"n": 0}

    def move(p: Any) -> None:
        if seen["n"] == 0:
            both_sizes(p, shot, "room-utahime-wish")
        click_utahime_move(p, rng)
        seen["n"] += 1
        if seen["n"] == 6 and p.query_selector(".banner.mine"):
            both_sizes(p, shot, "room-utahime")

    play_to_end(page, move, max_moves=200)
    page.wait_for_selector(".end-card")
    assert "Quick Study" in page.inner_text(".uta") or "Quick Study" in page.inner_text("body")
