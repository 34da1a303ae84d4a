"""Two people play a whole Zeta game in two browsers, a third watches; a reload keeps the seat; an
illegal click shows the server's reason and changes nothing."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from .play import both_sizes, click_zeta_move, log_index, wait_turn

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def whose_turn(players: list[Any], timeout: float = 40.0) -> Any:
    """The page whose seat decides now (None once the game is over)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for page in players:
            if page.query_selector(".end-card"):
                return None
            if page.query_selector(".banner.mine"):
                return page
        players[0].wait_for_timeout(50)
    raise AssertionError("nobody's turn came")


def board_text(page: Any) -> str:
    """What the board shows (to compare before and after a refused click)."""
    return str(page.inner_text(".zeta-board"))


def test_two_people_play_zeta_in_a_private_room_while_a_spectator_watches(server: Any, pages: Any, shot: Any) -> None:
    alice, bob, watcher = pages.new(), pages.new(), pages.new()
    alice.goto(server.url + "/")
    alice.fill("#your-name", "Alice")
    alice.select_option("[data-key=seat-1]", "open")
    alice.check("[data-key=private]")
    alice.click("[data-key=create]")
    alice.wait_for_url("**/room/*")
    alice.wait_for_selector(".banner.waiting")
    invite = alice.input_value("#invite-link")
    assert "?invite=" in invite
    # a private room is not listed, and without its invite code it cannot even be watched
    room = invite.split("/room/", 1)[1].split("?", 1)[0]
    stranger = pages.new()
    stranger.goto(f"{server.url}/room/{room}")
    stranger.wait_for_selector(".alert[data-code=no_access]")
    both_sizes(alice, shot, "room-waiting")
    # Bob follows the invite link and takes the open seat
    bob.goto(invite)
    bob.wait_for_selector("[data-key=join-1]")
    bob.fill("[data-key=join-name]", "Bob")
    bob.click("[data-key=join-1]")
    bob.wait_for_selector(".seat-row.you:has-text('P2 Bob')")
    watcher.goto(invite)
    watcher.wait_for_selector(".badge-watch")
    rng = random.Random(11)
    players = [alice, bob]
    moves = 0
    illegal_checked = reload_checked = False
    while not alice.query_selector(".end-card"):
        assert moves < 80, "the game did not end within the move budget"
        mover = whose_turn(players)
        if mover is None:
            continue
        occupied = mover.query_selector_all(".sq.occupied")
        placeable = mover.query_selector(".hand.own .hand-card.placeable")
        if not illegal_checked and occupied and placeable is not None and mover.query_selector(".zeta-board .sq.empty"):
            # ZETA-R15: a card goes on an empty square; the click is refused and nothing changes
            before, log = board_text(mover), log_index(mover)
            square = occupied[0].get_attribute("data-square")
            placeable.click()
            mover.click(f".sq[data-square='{square}']")
            mover.wait_for_selector(".alert")
            assert mover.query_selector(".alert .rule-link") is not None
            assert "not allowed" in mover.inner_text(".alert")
            assert board_text(mover) == before and log_index(mover) == log
            mover.click(".alert .rule-link")
            mover.wait_for_selector(".rules-dialog .rule-text")
            mover.keyboard.press("Escape")
            illegal_checked = True
            continue
        if not reload_checked and moves >= 4:
            mover.reload()
            wait_turn(mover)
            assert mover.query_selector(".banner.mine") is not None
            reload_checked = True
        click_zeta_move(mover, rng)
        moves += 1
        # the spectator sees the board and the log, never a card of a hand
        watcher.wait_for_function("n => document.querySelectorAll('#log li').length >= n",
                                  arg=min(5, moves))
        assert watcher.query_selector(".hand-card") is None
        assert watcher.query_selector(".hand") is None
    bob.wait_for_selector(".end-card")
    watcher.wait_for_selector(".end-card")
    assert illegal_checked and reload_checked
    both_sizes(watcher, shot, "room-zeta-spectator")
    texts = {alice.inner_text(".end-card h2"), bob.inner_text(".end-card h2")}
    assert texts in ({"You win!", "P1 Alice wins"}, {"You win!", "P2 Bob wins"}, {"Draw"})
