"""Friends in the browser: a friend request by name, its acceptance, a one-click invite into a room's open seat
that the friend follows from the in-app notification into the seat; then the your-turn badge (the header's
count and the tab title) and "My games", its player's games first."""

from __future__ import annotations

from typing import Any

import pytest

from .accounts import Person, unique
from .play import both_sizes
from .test_web_accounts import signed_in_page

pytestmark = pytest.mark.browser


def test_friend_request_acceptance_and_an_invite_followed_into_the_seat_then_the_turn_badge(server: Any, pages: Any, shot: Any) -> None:
    ann, bob = Person(server.url, unique("Ann")), Person(server.url, unique("Bob"))
    try:
        a, b = signed_in_page(pages, ann), signed_in_page(pages, bob)
        # Ann asks Bob by name
        a.goto(f"{server.url}/friends")
        a.fill("#friend-name", bob.name)
        a.click("[data-key=friend-add]")
        a.wait_for_selector(f".friend-row[data-account='{bob.id}'][data-state=sent]")
        # Bob sees the request (in the header's count and on his friends page) and accepts it
        b.goto(f"{server.url}/")
        b.wait_for_selector("#unread-count:not([hidden])")
        b.click("a.nav-link[href='/friends']")
        b.wait_for_selector("#notifications")
        assert f"{ann.name} asks to be your friend" in b.inner_text("#notifications")
        b.wait_for_selector("#unread-count", state="hidden")  # seen: read
        b.click(f"[data-key='accept-{ann.id}']")
        b.wait_for_selector(f".friend-row[data-account='{ann.id}'][data-state=friends]")
        # Ann sits in a new room with an open seat, then invites Bob with one click
        room = ann("POST", "/api/rooms", {"game": "zeta", "title": "Friends table",
                                          "seats": [{"kind": "open"}, {"kind": "open"}]})["room"]["id"]
        a.goto(f"{server.url}/room/{room}")
        a.click("[data-key=join-0]")
        a.wait_for_selector(".seat-row.you")
        a.goto(f"{server.url}/friends")
        a.wait_for_selector(f".friend-row[data-account='{bob.id}'][data-state=friends] .presence.online")
        a.click(f"[data-key='invite-{bob.id}']")
        a.wait_for_selector("#people-notice")
        # Bob follows the invite from his notifications into the open seat
        b.goto(f"{server.url}/friends")
        b.wait_for_selector(".notice-row[data-kind=invite] a")
        assert f"{ann.name} invites you" in b.inner_text(".notice-row[data-kind=invite]")
        b.click(".notice-row[data-kind=invite] a")
        b.wait_for_url(f"**/room*/{room}")
        b.click("[data-key=join-1]")
        b.wait_for_selector(".seat-row.you")
        # the game has begun: whoever is to move has one game waiting, in the badge, the title and "My games"
        mover, page = (ann, a) if ann("GET", "/api/account/games/count")["my_turn"] == 1 else (bob, b)
        assert mover("GET", "/api/account/games/count")["my_turn"] == 1
        page.goto(f"{server.url}/games")
        page.wait_for_selector("#my-turn-count:not([hidden])")
        assert page.inner_text("#my-turn-count") == "1"
        page.wait_for_function("document.title.startsWith('(1) ')")
        assert page.get_attribute("#my-games .game-row:first-child", "data-room") == room
        assert "my-turn" in (page.get_attribute("#my-games .game-row:first-child", "class") or "")
        both_sizes(page, shot, "account-my-games")
        a.goto(f"{server.url}/friends")
        a.wait_for_selector(f".friend-row[data-account='{bob.id}']")
        both_sizes(a, shot, "account-friends")
    finally:
        ann.close()
        bob.close()
