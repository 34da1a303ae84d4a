"""The lobby's lists: "My games" tells two rooms of one game apart (when each began, when it last moved), and
"Being played" leaves out a room whose players went away (no move for a day)."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_my_games_are_dated_and_abandoned_rooms_are_not_listed_as_being_played(server: Any, pages: Any, api: Any) -> None:
    rooms = [api.room("zeta", [{"kind": "open"}, {"kind": "bot", "spec": "random"}]) for _ in range(2)]
    page = pages.new()
    page.goto(server.url + "/decks")
    seats = {room: {"token": token, "seat": seat, "name": "Aki", "game": "zeta", "title": "",
                    "joined": f"2026-01-0{k + 1}T10:00:00Z"} for k, (room, token, seat) in enumerate(rooms)}
    page.evaluate("e => localStorage.setItem('cardtable.seats', e)", json.dumps(seats))

    def age_one(route: Any) -> None:
        # the first playing room last moved long ago (its players went away); the others are as the server says
        body = route.fetch().json()
        for r in body["rooms"]:
            if r["id"] == rooms[0][0]:
                r["updated_at"] = "2020-01-01T00:00:00Z"
        route.fulfill(json=body)

    page.route("**/api/rooms?open=false*", age_one)
    page.goto(server.url + "/")
    page.wait_for_selector("#my-games .room-row[data-room] .room-dates")
    dates = page.eval_on_selector_all("#my-games .room-dates", "els => els.map(e => e.innerText)")
    assert len(dates) == 2 and len(set(dates)) == 2 and all("last move" in d for d in dates), dates
    page.wait_for_selector("#being-played")
    listed = page.eval_on_selector_all("#being-played .room-row", "els => els.map(e => e.dataset.room)")
    assert rooms[1][0] in listed and rooms[0][0] not in listed
