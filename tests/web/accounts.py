"""Signed-in people for the browser tests: an account made through the API (a cookie jar and its CSRF token),
the browser pages' sign-up, and games played quickly over the rooms' websockets with the seats' tokens."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

PASSWORD = "correct horse battery"
"""Every test account's password."""

_names = itertools.count(1)


def unique(name: str) -> str:
    """A display name nobody on the session's server has taken yet (names are unique)."""
    return f"{name}{next(_names)}"


class Person:
    """An account on the test server, signed in through the API: its cookie and CSRF token go with every call."""

    def __init__(self, base: str, name: str) -> None:
        self.base = base
        self.client = httpx.Client(base_url=base, timeout=30)
        made = self.client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert made.status_code == 201, made.text
        self.id: str = made.json()["account"]["id"]
        self.name: str = made.json()["account"]["name"]
        self.csrf: str = made.json()["csrf"]

    def __call__(self, method: str, path: str, body: Any = None) -> Any:
        """A call as this person; a refusal fails the test."""
        response = self.client.request(method, path, json=body, headers={"X-CSRF-Token": self.csrf})
        assert response.status_code < 400, response.text
        return response.json() if response.content else None

    def cookie(self) -> dict[str, Any]:
        """The session cookie, as playwright's ``context.add_cookies`` takes it (the browser is then signed in)."""
        value = self.client.cookies.get("cardtable_session")
        assert value
        return {"name": "cardtable_session", "value": value, "url": self.base, "httpOnly": True, "sameSite": "Lax"}

    def close(self) -> None:
        """Close the connection pool."""
        self.client.close()


def sign_up_in_page(page: Any, base: str, name: str) -> None:
    """Sign up with a password on the sign-up page, as a person does; the page lands on the new profile."""
    page.goto(base + "/signup")
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.fill("#account-password-again", PASSWORD)
    page.click("[data-key=signup]")
    page.wait_for_selector("#player-name")


def play_out(base: str, room: str, tokens: list[str], seed: int = 1, timeout: float = 30) -> dict[str, Any]:
    """Play a room's current game to its end over the websocket, each seat with its token, choosing a random
    legal move (a placement rather than a pass where there is one); bot seats move by themselves; the last state."""
    rng = random.Random(seed)
    url = base.replace("http", "ws", 1) + f"/api/rooms/{room}/ws"
    sockets: list[ClientConnection] = [connect(url, open_timeout=timeout) for _ in tokens]
    try:
        states: list[dict[str, Any]] = []
        for ws, token in zip(sockets, tokens, strict=True):
            ws.send(json.dumps({"type": "hello", "token": token}))
            states.append(_next_state(ws, -1, timeout))
        while True:
            version = max(s["version"] for s in states)
            states = [s if s["version"] == version else _next_state(ws, s["version"], timeout)
                      for ws, s in zip(sockets, states, strict=True)]
            if states[0]["outcome"]:
                return states[0]
            movers = [k for k, s in enumerate(states) if s["legal"] and not s["outcome"]]
            if not movers:  # a bot's turn: it moves by itself
                states = [_next_state(ws, s["version"], timeout) for ws, s in zip(sockets, states, strict=True)]
                continue
            k = movers[0]
            legal = states[k]["legal"]
            places = [a for a in legal if a != "pass"]
            action = rng.choice(places) if places and rng.random() < 0.9 else legal[0]
            sockets[k].send(json.dumps({"type": "action", "action": action, "version": states[k]["version"]}))
            states = [_next_state(ws, s["version"], timeout) for ws, s in zip(sockets, states, strict=True)]
    finally:
        for ws in sockets:
            ws.close()


def _next_state(ws: ClientConnection, after: int, timeout: float) -> dict[str, Any]:
    """The next state message newer than version ``after`` (a refusal fails the test)."""
    while True:
        message = json.loads(ws.recv(timeout=timeout))
        assert message["type"] != "error", message
        if message["type"] == "state" and message["version"] > after:
            return dict(message)


def rated_game(base: str, people: list[Person], game: str = "zeta", seed: int = 1) -> tuple[str, dict[str, Any]]:
    """A rated room made by the first person, every person seated in turn, its game played to the end: (room, end)."""
    made = people[0]("POST", "/api/rooms", {"game": game, "rated": True, "seats": [{"kind": "open"} for _ in people]})
    room = made["room"]["id"]
    tokens = [p("POST", f"/api/rooms/{room}/join", {"name": p.name, "seat": k})["token"] for k, p in enumerate(people)]
    return room, play_out(base, room, tokens, seed)
