"""Leak: random games played through websockets, every seat a client plus a spectator. Every message to
every socket is checked against a reference replay: a state holds exactly that seat's view, its log
events (contiguous, from where it was) and its legal actions, and nothing else; no message anywhere
holds a seat token, the game's seed or an RNG state.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import multiprocessing
import random
import re
from pathlib import Path
from typing import Any

import pytest
from server_support import AsgiSocket, join, make_room, new_app, open_socket, running, sqlite_url

from cardtable.core import Record, load_game
from cardtable.core.registry import describer, plain_describe_event
from cardtable.server.protocol import (
    Accepted,
    ChatLogMsg,
    ChatMsg,
    ClockOut,
    ErrorMsg,
    RoomMsg,
    RoomOut,
    SeatOut,
    StateMsg,
    Welcome,
)

FORBIDDEN_KEYS = {"seed", "rng", "token", "token_hash", "invite", "invite_hash"}
"""Keys no message may hold at any depth."""
MESSAGE_KEYS = {"welcome": set(Welcome.model_fields), "state": set(StateMsg.model_fields),
                "accepted": set(Accepted.model_fields), "error": set(ErrorMsg.model_fields),
                "room": set(RoomMsg.model_fields), "chat": set(ChatMsg.model_fields),
                "chat_log": set(ChatLogMsg.model_fields)}
CHAT_TEXT = re.compile(r"^said \d+ <b>by</b> (?:P\d|Spectator)$")
"""What the players of a social game type: a chat message holds that, and nothing else."""
ROOM_KEYS = set(RoomOut.model_fields)
SEAT_KEYS = set(SeatOut.model_fields)


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


FORBIDDEN = re.compile(r'"(?:' + "|".join(sorted(FORBIDDEN_KEYS)) + r')"\s*:')
RNG_LIKE = re.compile(r"\[\s*(?:\d+\s*,\s*){600}")
"""A JSON key that names a secret, and a run of 600 integers (a Mersenne Twister state has 625)."""


def _scan(text: str) -> None:
    """No forbidden key and nothing shaped like an RNG state anywhere in a message."""
    found = FORBIDDEN.search(text)
    assert found is None, f"a forbidden key: {found.group(0) if found else ''}"
    assert RNG_LIKE.search(text) is None, "an RNG-like list of integers"


def _words(game: str) -> Any:
    try:
        return describer(game)
    except Exception:  # the server falls back to plain words too
        return plain_describe_event


def check_room(room: dict[str, Any]) -> None:
    assert set(room) == ROOM_KEYS
    for seat in room["seats"]:
        assert set(seat) == SEAT_KEYS


def verify(record: Record, sockets: list[tuple[int | None, AsgiSocket]], secrets: list[str]) -> int:
    """Check every message of every socket against a replay of ``record``; the number of state messages."""
    describe = _words(record.game)
    names: list[str] = []
    states: dict[int, list[tuple[int | None, dict[str, Any]]]] = {}
    sent: dict[int, list[str]] = {}
    for index, (seat, ws) in enumerate(sockets):
        cursor = 0
        sent[index] = []
        assert len(ws.texts) == len(ws.received)
        for text, message in zip(ws.texts, ws.received, strict=True):
            for secret in secrets:
                assert secret not in text, "a secret left the server"
            _scan(text)
            kind = message["type"]
            assert kind in MESSAGE_KEYS, kind
            assert set(message) == MESSAGE_KEYS[kind], (kind, set(message))
            if kind in ("welcome", "room"):
                check_room(message["room"])
                if kind == "welcome":
                    assert message["seat"] == seat
            elif kind == "error":
                assert "position:" not in message["message"]
            elif kind == "accepted":
                sent[index].append(message["action"])
            elif kind in ("chat", "chat_log"):
                for line in message["messages"] if kind == "chat_log" else [message]:
                    assert set(line) == set(ChatMsg.model_fields) - ({"type"} if kind == "chat_log" else set())
                    assert CHAT_TEXT.match(line["text"]), line["text"]
                    assert line["text"].endswith("Spectator" if line["seat"] is None else f"P{line['seat'] + 1}")
            else:
                assert message["seat"] == seat
                assert message["events_from"] == cursor, "the log must continue where it left off"
                if message["clock"] is not None:
                    assert set(message["clock"]) == set(ClockOut.model_fields)
                cursor += len(message["events"])
                states.setdefault(message["version"], []).append((seat, message))
                names = message["names"]
    game = load_game(record.game, **record.rules)
    ref = game.new_game(seed=record.seed, record_events=True, **record.setup)
    checked = 0
    for version in sorted(states):
        while len(ref.history) < version:
            ref.apply(record.actions[len(ref.history)])
        views = {seat: _json(ref.view(seat)) for seat in {s for s, _ in states[version]}}
        legal = [str(a) for a in ref.legal_actions()]
        outcome = ref.outcome()
        for seat, message in states[version]:
            assert message["view"] == views[seat], f"view of seat {seat} at version {version}"
            events = _json(ref.events_for(seat, message["events_from"]))
            assert message["events"] == events, f"events of seat {seat} at version {version}"
            assert message["log"] == [describe(e, message["names"]) for e in message["events"]]
            assert message["to_move"] == ref.current_player
            assert message["legal"] == (legal if seat is not None and seat == ref.current_player else [])
            if outcome is None:
                assert message["outcome"] is None
            else:
                expected = outcome.to_json()
                expected["winner_names"] = [message["names"][w] for w in outcome.winners]
                assert message["outcome"] == _json(expected)
            checked += 1
    assert len(ref.history) == len(record.actions) and ref.is_over
    assert names and record.outcome is not None
    by_seat: dict[int, list[str]] = {}
    for index, (seat, _) in enumerate(sockets):
        if seat is not None:
            by_seat[seat] = sent[index]
    replayed = game.new_game(seed=record.seed, **record.setup)
    for action in record.actions:  # every stored action was acknowledged to the seat that played it, in order
        seat = replayed.current_player
        assert seat is not None
        assert by_seat[seat].pop(0) == action
        replayed.apply(action)
    assert all(not rest for rest in by_seat.values())
    return checked


def players_for(game: str, rng: random.Random) -> tuple[int, dict[str, Any]]:
    if game == "oscilloscope":
        n = rng.choice([1, 2, 2, 3, 4])
        return n, {"players": n}
    return 2, {}


Played = tuple[Record, list[tuple[int | None, AsgiSocket]], list[str]]


async def play_game(app: Any, client: Any, game: str, rng: random.Random) -> int:
    """Play one random game with every seat a socket plus a spectator; the number of states checked."""
    return verify(*await play_to_end(app, client, game, rng))


async def play_to_end(app: Any, client: Any, game: str, rng: random.Random, social: bool = False) -> Played:
    """One random game; ``social``: with a real-time clock and players and a spectator chatting."""
    n, setup = players_for(game, rng)
    extra: dict[str, Any] = {"clock": {"kind": "realtime", "base_s": 36_000, "increment_s": 5}} if social else {}
    room = (await make_room(client, game, [{"kind": "open"}] * n, setup, **extra))["room"]["id"]
    tokens = [(await join(client, room, f"Seat{i}", seat=i))["token"] for i in range(n)]
    sockets: list[tuple[int | None, AsgiSocket]] = []
    last: dict[int | None, dict[str, Any]] = {}
    for seat in [*range(n), None]:
        ws, _, state = await open_socket(app, room, tokens[seat] if seat is not None else None)
        sockets.append((seat, ws))
        last[seat] = state
    by_seat = dict(sockets)
    state = last[None]
    pages: list[str] = []
    while state["outcome"] is None:
        if state["version"] == 5:
            for path in (f"/api/rooms/{room}", f"/api/rooms/{room}/history", "/api/rooms?open=false"):
                pages.append((await client.get(path)).text)
        mover = state["to_move"]
        version = state["version"]
        legal = last[mover]["legal"]
        assert legal, "the seat to move has legal actions"
        roll = rng.random()
        if roll < 0.03 and n > 1:  # another seat tries to move: refused, to it alone
            other = rng.choice([s for s in range(n) if s != mover])
            await by_seat[other].send_json({"type": "action", "action": legal[0], "version": version})
            assert (await by_seat[other].receive())["code"] == "not_your_turn"
        elif roll < 0.06:  # a stale version: refused
            await by_seat[mover].send_json({"type": "action", "action": legal[0], "version": version + 1})
            assert (await by_seat[mover].receive())["code"] == "stale_version"
        elif roll < 0.08:
            await by_seat[None].send_json({"type": "action", "action": legal[0], "version": version})
            assert (await by_seat[None].receive())["code"] == "spectator"
        elif social and roll < 0.2:  # somebody says something: every socket is sent it, and only that
            speaker = rng.choice([*range(n), None])
            who = "Spectator" if speaker is None else f"P{speaker + 1}"
            await by_seat[speaker].send_json({"type": "chat", "text": f"said {version} <b>by</b> {who}"})
            for _seat, ws in sockets:
                assert (await ws.receive())["type"] == "chat"
        action = legal[rng.randrange(len(legal))]
        await by_seat[mover].send_json({"type": "action", "action": action, "version": version})
        assert (await by_seat[mover].receive())["type"] == "accepted"
        for seat, ws in sockets:
            last[seat] = await ws.receive()
            assert last[seat]["type"] == "state" and last[seat]["version"] == version + 1
        state = last[None]
    record = Record.from_json((await client.get(f"/api/rooms/{room}/records/1")).json())
    secrets = [*tokens, str(record.seed)]
    for text in pages:  # the HTTP answers during the game hold no secret either
        for secret in secrets:
            assert secret not in text, "a secret left the server over HTTP"
        _scan(text)
    for _, ws in sockets:
        await ws.close()
    return record, sockets, secrets


GAMES = ("zeta", "oscilloscope", "utahime")


def run_games(url: str, jobs: list[tuple[str, str]], at_once: int = 4, social: bool = False) -> dict[str, int]:
    """Play and check the games ``jobs`` names (game, RNG seed), ``at_once`` at a time; states checked per game."""

    async def main() -> dict[str, int]:
        app = new_app(url, chat_rate="100000 per 10 seconds") if social else new_app(url)
        counts = dict.fromkeys(GAMES, 0)
        async with running(app) as client:
            queue = iter(jobs)

            async def worker() -> None:
                for game, seed in queue:
                    checked = verify(*await play_to_end(app, client, game, random.Random(seed), social))
                    counts[game] += checked

            await asyncio.gather(*(worker() for _ in range(at_once)))
        return counts

    return asyncio.run(main())


def run_many(folder: Path, per_game: int, seed: int, processes: int = 1) -> dict[str, int]:
    """``per_game`` games of each game, split over ``processes`` processes (one SQLite file each)."""
    jobs = [(game, f"{seed}:{game}:{i}") for i in range(per_game) for game in GAMES]
    if processes == 1:
        return run_games(sqlite_url(folder), jobs)
    chunks = [jobs[k::processes] for k in range(processes)]
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(processes, mp_context=context) as pool:
        parts = list(pool.map(run_games, [sqlite_url(folder, f"leak{k}.db") for k in range(processes)], chunks))
    return {game: sum(p[game] for p in parts) for game in GAMES}


def test_no_message_leaks_in_a_few_games_of_each_game(tmp_path: Path) -> None:
    counts = run_many(tmp_path, 3, seed=11)
    assert all(n > 0 for n in counts.values()), counts


def test_no_message_leaks_with_chat_and_clocks_on(tmp_path: Path) -> None:
    """Every seat and a spectator chat during real-time games: chat carries only what was typed, and the
    clock only the server's times."""
    jobs = [(game, f"social:{game}:{i}") for i in range(2) for game in GAMES]
    counts = run_games(sqlite_url(tmp_path), jobs, social=True)
    assert all(n > 0 for n in counts.values()), counts


@pytest.mark.slow
def test_no_message_leaks_in_200_random_games_of_each_game(tmp_path: Path) -> None:
    """200 games of each game over two processes (the machine's two cores)."""
    counts = run_many(tmp_path, 200, seed=2026, processes=2)
    assert all(n > 200 * 20 for n in counts.values()), counts


def test_the_checker_catches_a_leak(sqlite_db: str) -> None:
    """A test that cannot fail is not a test: each kind of leak planted in a real game's messages is caught."""

    async def main() -> None:
        app = new_app(sqlite_db)
        async with running(app) as client:
            record, sockets, secrets = await play_to_end(app, client, "utahime", random.Random(5))
        assert verify(record, sockets, secrets) > 0
        (seat0, ws0), (seat1, ws1) = sockets[0], sockets[1]
        state_at = next(i for i, t in enumerate(ws0.texts) if json.loads(t)["type"] == "state")
        original = ws0.texts[state_at]
        mine, theirs = json.loads(original), json.loads(ws1.texts[state_at])
        plants = [
            dict(mine, view=theirs["view"]),                                     # another seat's view
            dict(mine, events=[*mine["events"], {"kind": "x", "move": 0}]),      # an event it never had
            dict(mine, legal=["pass"]) if not mine["legal"] else dict(mine, legal=[]),
            dict(mine, extra=1),                                                 # a field outside the protocol
            dict(mine, view=dict(mine["view"], seed=record.seed)),               # the seed, under a key
        ]
        for planted in plants:
            ws0.texts[state_at], ws0.received[state_at] = json.dumps(planted), planted
            with pytest.raises(AssertionError):
                verify(record, sockets, secrets)
        ws0.texts[state_at], ws0.received[state_at] = original, json.loads(original)
        assert verify(record, sockets, secrets) > 0
        error = {"type": "error", "code": "x", "message": secrets[1], "rule": None, "ref": None}
        ws0.texts.append(json.dumps(error))
        ws0.received.append(error)
        with pytest.raises(AssertionError, match="secret"):
            verify(record, sockets, secrets)
        assert seat0 == 0 and seat1 == 1

    asyncio.run(main())


def test_the_checker_catches_a_leak_through_chat(sqlite_db: str) -> None:
    """A chat message carrying anything but what was typed (a view, an altered text) is caught."""

    async def main() -> None:
        app = new_app(sqlite_db, chat_rate="100000 per 10 seconds")
        async with running(app) as client:
            record, sockets, secrets = await play_to_end(app, client, "zeta", random.Random(3), social=True)
        assert verify(record, sockets, secrets) > 0
        ws0 = sockets[0][1]
        at = next(i for i, t in enumerate(ws0.texts) if json.loads(t)["type"] == "chat")
        original = ws0.texts[at]
        said = json.loads(original)
        state = next(json.loads(t) for t in ws0.texts if json.loads(t)["type"] == "state")
        for planted in (dict(said, view=state["view"]), dict(said, text=said["text"] + " " + str(state["legal"]))):
            ws0.texts[at], ws0.received[at] = json.dumps(planted), planted
            with pytest.raises(AssertionError):
                verify(record, sockets, secrets)
        ws0.texts[at], ws0.received[at] = original, json.loads(original)

    asyncio.run(main())
