"""``cardtable bench server``: rooms played over loopback by websocket clients, and the latency of each action.

A real uvicorn server runs in a background thread on a free loopback port (:class:`LoopbackServer`);
every room has people's seats (one websocket client each, making random legal moves) and, in every
other room, a random bot. An action's latency is the time from sending it to its ``accepted``
message, which the server sends only once the action is committed. The load test runs the same
scenario to the end of every game and checks that every stored record replays to what the clients saw.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .app import create_app
from .services import ServerSettings

GAMES: tuple[tuple[str, dict[str, Any]], ...] = (("zeta", {}), ("oscilloscope", {"players": 2}), ("utahime", {}))
"""The games the benchmark's rooms cycle through."""

COMPRESSION: str | None = "deflate"
"""The websocket compression the clients offer (``deflate``, as browsers do; None for none)."""


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LoopbackServer:
    """A uvicorn server of :func:`create_app` in a background thread on ``127.0.0.1`` (a context manager)."""

    def __init__(self, settings: ServerSettings, port: int | None = None) -> None:
        import uvicorn

        self.port = port or free_port()
        self.settings = settings
        config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=self.port, log_level="warning",
                                ws_max_size=65_536, lifespan="on")
        self.server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self.server.run, name="cardtable-loopback", daemon=True)

    @property
    def url(self) -> str:
        """The server's HTTP address."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """The server's websocket address."""
        return f"ws://127.0.0.1:{self.port}"

    def __enter__(self) -> LoopbackServer:
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the loopback server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self._thread.join(30)


@dataclass
class SeatResult:
    """What one seat's client saw: the actions it had accepted, the last version and outcome it was sent."""

    seat: int
    accepted: list[tuple[int, str]] = field(default_factory=list)
    """(version after, action) of every action of its own that the server acknowledged."""
    version: int = 0
    outcome: dict[str, Any] | None = None
    errors: list[dict[str, Any]] = field(default_factory=list)


async def play_seat(ws_url: str, room_id: str, token: str, rng: random.Random, latencies: list[float], *,
                    deadline: float | None = None, timeout: float = 120.0) -> SeatResult:
    """Play one seat with random legal moves until its game ends (or ``deadline``, a ``time.monotonic()``)."""
    from websockets.asyncio.client import connect

    result: SeatResult | None = None
    pending: tuple[float, int] | None = None
    async with connect(f"{ws_url}/api/rooms/{room_id}/ws", max_size=2**24, open_timeout=30,
                       compression=COMPRESSION) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            wait = timeout if deadline is None else max(0.1, min(timeout, deadline - time.monotonic() + 1.0))
            try:
                raw = await asyncio.wait_for(ws.recv(), wait)
            except TimeoutError:
                if deadline is not None and time.monotonic() > deadline and result is not None:
                    return result  # the other seats stopped at the deadline
                raise
            message = json.loads(raw)
            kind = message["type"]
            if kind == "welcome":
                result = SeatResult(message["seat"])
            elif kind == "accepted":
                if pending is not None:
                    latencies.append(time.perf_counter() - pending[0])
                pending = None
                assert result is not None
                result.accepted.append((message["version"], message["action"]))
            elif kind == "error":
                assert result is not None
                result.errors.append(message)
                pending = None
            elif kind == "state":
                assert result is not None
                result.version = message["version"]
                if message["outcome"] is not None:
                    result.outcome = message["outcome"]
                    return result
                if deadline is not None and time.monotonic() > deadline:
                    return result
                if message["legal"] and pending is None:
                    action = message["legal"][rng.randrange(len(message["legal"]))]
                    pending = (time.perf_counter(), message["version"])
                    await ws.send(json.dumps({"type": "action", "action": action, "version": message["version"]}))


async def _open_room(client: Any, game: str, setup: dict[str, Any], bot: bool) -> tuple[str, list[str]]:
    seats = [{"kind": "open"}, {"kind": "bot", "spec": "random"} if bot else {"kind": "open"}]
    response = await client.post("/api/rooms", json={"game": game, "setup": setup, "seats": seats})
    response.raise_for_status()
    made = response.json()
    room_id = made["room"]["id"]
    tokens = []
    for i, seat in enumerate(seats):
        if seat["kind"] == "open":
            joined = (await client.post(f"/api/rooms/{room_id}/join", json={"name": f"bench{i}", "seat": i})).json()
            tokens.append(joined["token"])
    return room_id, tokens


async def _bench(base: str, ws_url: str, rooms: int, seconds: float, seed: int) -> dict[str, Any]:
    import httpx

    latencies: list[float] = []
    games = 0
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:

        async def room_loop(index: int) -> None:
            """Open rooms one after another and play them until the deadline."""
            nonlocal games
            game, setup = GAMES[index % len(GAMES)]
            rng = random.Random(f"{seed}:{index}")
            while time.monotonic() < deadline:
                room_id, tokens = await _open_room(client, game, setup, bot=index % 2 == 1)
                results = await asyncio.gather(*(play_seat(ws_url, room_id, t, rng, latencies, deadline=deadline)
                                                 for t in tokens))
                if any(r.outcome is not None for r in results):
                    games += 1

        start = time.perf_counter()
        await asyncio.gather(*(room_loop(i) for i in range(rooms)))
        wall = time.perf_counter() - start
    ms = sorted(x * 1000 for x in latencies)
    return {"rooms": rooms, "seconds": wall, "actions": len(ms), "games": games,
            "actions_per_s": len(ms) / wall if wall else 0.0,
            "p50_ms": _quantile(ms, 0.50), "p90_ms": _quantile(ms, 0.90), "p99_ms": _quantile(ms, 0.99),
            "max_ms": ms[-1] if ms else 0.0, "mean_ms": statistics.fmean(ms) if ms else 0.0}


def _quantile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


@contextmanager
def _database(db: str | None) -> Iterator[str]:
    if db is not None:
        yield db
        return
    with tempfile.TemporaryDirectory(prefix="cardtable-bench-") as folder:
        yield f"sqlite:///{Path(folder) / 'bench.db'}"


def bench_server(rooms: int = 20, seconds: float = 10.0, db: str | None = None, seed: int = 1) -> dict[str, Any]:
    """Play ``rooms`` rooms at once over loopback for ``seconds``; latency quantiles in ms and throughput."""
    with _database(db) as url:
        settings = ServerSettings(db=url, bot_executor="thread", bot_workers=2)
        with LoopbackServer(settings) as server:
            result = asyncio.run(_bench(server.url, server.ws_url, rooms, seconds, seed))
    result["database"] = "sqlite (temporary file, fsync on commit)" if db is None else db.split(":", 1)[0]
    return result


def format_result(result: dict[str, Any]) -> Any:
    """The benchmark's figures as a rich table."""
    from rich.table import Table as RichTable

    table = RichTable(title=f"server: {result['rooms']} rooms over loopback, {result['database']}",
                      title_justify="left")
    for column in ("actions", "games", "actions/s", "p50 ms", "p90 ms", "p99 ms", "max ms"):
        table.add_column(column, justify="right")
    table.add_row(str(result["actions"]), str(result["games"]), f"{result['actions_per_s']:,.0f}",
                  f"{result['p50_ms']:.1f}", f"{result['p90_ms']:.1f}", f"{result['p99_ms']:.1f}",
                  f"{result['max_ms']:.1f}")
    return table
