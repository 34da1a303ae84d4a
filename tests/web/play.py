"""Playing through the pages as a person does: take a seat, wait for the turn, click or type a move."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from .conftest import DESKTOP, PHONE


def hold_seat(page: Any, base: str, room: str, token: str | None, seat: int | None, game: str) -> None:
    """Give the page's browser the seat token (as the lobby does after a join) and open the room."""
    page.goto(base + "/decks")
    if token is not None:
        entry = {room: {"token": token, "seat": seat, "name": "Aki", "game": game, "title": ""}}
        page.evaluate("e => localStorage.setItem('cardtable.seats', e)", json.dumps(entry))
    page.goto(f"{base}/room/{room}")
    page.wait_for_selector(".room-grid")


def log_index(page: Any) -> int:
    """The index of the newest line of the page's game log (-1 if empty)."""
    return int(page.evaluate("() => { const l = document.querySelector('#log li:last-child'); "
                             "return l ? Number(l.dataset.index) : -1; }"))


def wait_turn(page: Any, timeout: float = 40_000) -> str:
    """Wait until the seat decides or the game is over: ``mine`` or ``over``."""
    page.wait_for_selector(".banner.mine, .end-card", timeout=timeout)
    return "over" if page.query_selector(".end-card") else "mine"


def legal(page: Any) -> list[str]:
    """The legal moves the page offers (the choices panel)."""
    return [str(a) for a in page.eval_on_selector_all(".choices [data-action]", "els => els.map(e => e.dataset.action)")]


def wait_moved(page: Any, before: int) -> None:
    """Wait until the log has grown past ``before`` (the move was accepted) or the game is over."""
    page.wait_for_function(
        "i => { const l = document.querySelector('#log li:last-child'); "
        "return (l && Number(l.dataset.index) > i) || document.querySelector('.end-card') || document.querySelector('.alert'); }",
        arg=before)


def type_move(page: Any, action: str) -> None:
    """Play a move by typing it in the move box (Enter)."""
    before = log_index(page)
    page.fill("#command", action)
    page.press("#command", "Enter")
    wait_moved(page, before)


def click_zeta_move(page: Any, rng: random.Random) -> None:
    """One Zeta move by clicking: a placeable card then a lit square, a decision button, or pass."""
    before = log_index(page)
    cards = page.query_selector_all(".hand.own .hand-card.placeable")
    buttons = page.query_selector_all("#decision [data-action]")
    decision = [b for b in buttons if b.get_attribute("data-action") != "pass"]
    if decision:
        rng.choice(decision).click()
    elif cards and rng.random() < 0.9:
        rng.choice(cards).click()
        lit = page.query_selector_all(".sq.lit")
        assert lit, "a placeable card lights at least one square"
        rng.choice(lit).click()
    elif page.query_selector("#decision [data-action=pass]"):
        page.click("#decision [data-action=pass]")
    else:
        type_move(page, legal(page)[0])
        return
    wait_moved(page, before)


def play_to_end(page: Any, move: Callable[[Any], None], max_moves: int = 400,
                after: Callable[[int], None] | None = None) -> int:
    """Play the page's seat until the game is over; how many moves it made."""
    moves = 0
    while wait_turn(page) == "mine":
        assert moves < max_moves, "the game did not end within the move budget"
        move(page)
        moves += 1
        if after is not None:
            after(moves)
    return moves


def both_sizes(page: Any, shot: Callable[[Any, str], Any], name: str) -> None:
    """Screenshots of a page at desktop and at phone width."""
    shot(page, f"{name}-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    shot(page, f"{name}-phone")
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(100)
