"""``cardtable bench server``: rooms played over loopback by websocket clients, and the latency of each action.

The server runs as one or more ``cardtable serve`` processes on free loopback ports
(:class:`ServeProcess`), the clients in this process (or, for tests, a uvicorn in a background
thread, :class:`LoopbackServer`); every room has people's seats (one websocket client each, making
random legal moves) and, in the rooms chosen, a bot. An action's latency is the time from sending it
to its ``accepted`` message, which the server sends only once the action is committed; in a room
with a bot, a person's wait is the time from their accepted action to their next turn. The load test runs the same
scenario to the end of every game and checks that every stored record replays to what the clients saw.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from .app import create_app
from .services import ServerSettings

GAMES: tuple[tuple[str, dict[str, Any]], ...] = (("zeta", {}), ("oscilloscope", {"players": 2}), ("utahime", {}))
"""The games the benchmark's rooms cycle through."""

COMPRESSION: str | None = "deflate"
"""The websocket compression the clients offer (``deflate``, as browsers do; None for none)."""


WS_MAX_BYTES = 2 * 1024 * 1024
"""The largest websocket frame uvicorn reads (the server answers a message over its own limit, 16 KiB, with
``too_large``; a frame over this is closed with 1009 before the server sees it)."""


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LoopbackServer:
    """A uvicorn server of :func:`create_app` in a background thread on ``127.0.0.1`` (a context manager)."""

    def __init__(self, settings: ServerSettings, port: int | None = None, *, compression: bool = False) -> None:
        import uvicorn

        self.port = port or free_port()
        self.settings = settings
        config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=self.port, log_level="warning",
                                ws_max_size=WS_MAX_BYTES, ws_per_message_deflate=compression, lifespan="on")
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
    most_ahead: int = 0
    """The most bot moves the room was told were queued ahead of its bot's."""


@dataclass
class Measures:
    """What the clients of a benchmark measured: action latencies, and how long people waited for bots."""

    latencies: list[float] = field(default_factory=list)
    """Seconds from sending an action to its ``accepted``."""
    waits: list[float] = field(default_factory=list)
    """Seconds from a person's accepted action to their next turn, in rooms with a bot (the bot's reply)."""
    most_ahead: int = 0


async def play_seat(ws_url: str, room_id: str, token: str, rng: random.Random, latencies: list[float] | Measures, *,
                    deadline: float | None = None, timeout: float = 120.0, bot_room: bool = False) -> SeatResult:
    """Play one seat with random legal moves until its game ends (or ``deadline``, a ``time.monotonic()``);
    in a ``bot_room``, also measure how long each of this person's turns took to come back."""
    from websockets.asyncio.client import connect

    measures = latencies if isinstance(latencies, Measures) else Measures(latencies=latencies)
    result: SeatResult | None = None
    pending: tuple[float, int] | None = None
    waiting_since: float | None = None
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
                now = time.perf_counter()
                if pending is not None:
                    measures.latencies.append(now - pending[0])
                pending = None
                waiting_since = now
                assert result is not None
                result.accepted.append((message["version"], message["action"]))
            elif kind == "bot":
                assert result is not None
                result.most_ahead = max(result.most_ahead, message["ahead"])
                measures.most_ahead = max(measures.most_ahead, message["ahead"])
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
                    if bot_room and waiting_since is not None and message["to_move"] == result.seat:
                        measures.waits.append(time.perf_counter() - waiting_since)
                        waiting_since = None
                    action = message["legal"][rng.randrange(len(message["legal"]))]
                    pending = (time.perf_counter(), message["version"])
                    await ws.send(json.dumps({"type": "action", "action": action, "version": message["version"]}))


class BotRooms(Enum):
    """Which of a benchmark's rooms have a bot in their second seat."""

    NONE = "none"
    HALF = "half"
    ALL = "all"

    def has_bot(self, index: int) -> bool:
        """Whether room ``index`` has a bot."""
        return self is BotRooms.ALL or (self is BotRooms.HALF and index % 2 == 1)


async def _open_room(client: Any, game: str, setup: dict[str, Any], bot: str | None) -> tuple[str, list[str]]:
    seats = [{"kind": "open"}, {"kind": "bot", "spec": bot} if bot else {"kind": "open"}]
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


async def _bench(bases: list[tuple[str, str]], rooms: int, seconds: float, seed: int, bot: str,
                 bot_rooms: BotRooms, games: tuple[tuple[str, dict[str, Any]], ...]) -> dict[str, Any]:
    import httpx

    measures = Measures()
    played = 0
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient(timeout=60) as client:

        async def room_loop(index: int) -> None:
            """Open rooms one after another on one server process and play them until the deadline."""
            nonlocal played
            base, ws_url = bases[index % len(bases)]
            game, setup = games[index % len(games)]
            rng = random.Random(f"{seed}:{index}")
            while time.monotonic() < deadline:
                has_bot = bot_rooms.has_bot(index)
                room_id, tokens = await _open_room_at(client, base, game, setup, bot if has_bot else None)
                results = await asyncio.gather(*(play_seat(ws_url, room_id, t, rng, measures, deadline=deadline,
                                                           bot_room=has_bot) for t in tokens))
                if any(r.outcome is not None for r in results):
                    played += 1

        start = time.perf_counter()
        await asyncio.gather(*(room_loop(i) for i in range(rooms)))
        wall = time.perf_counter() - start
        health = [(await client.get(f"{base}/api/health")).json() for base, _ in bases]
    ms = sorted(x * 1000 for x in measures.latencies)
    waits = sorted(x * 1000 for x in measures.waits)
    queues = [h.get("bots") or {} for h in health]
    return {"rooms": rooms, "seconds": wall, "actions": len(ms), "games": played,
            "actions_per_s": len(ms) / wall if wall else 0.0,
            "p50_ms": _quantile(ms, 0.50), "p90_ms": _quantile(ms, 0.90), "p99_ms": _quantile(ms, 0.99),
            "max_ms": ms[-1] if ms else 0.0, "mean_ms": statistics.fmean(ms) if ms else 0.0,
            "bot_replies": len(waits), "bot_wait_p50_ms": _quantile(waits, 0.50),
            "bot_wait_p95_ms": _quantile(waits, 0.95), "bot_wait_max_ms": waits[-1] if waits else 0.0,
            "bot_most_ahead": measures.most_ahead,
            "bot_peak_queued": max((q.get("peak_queued", 0) for q in queues), default=0),
            "bot_decisions": sum(q.get("decisions", 0) for q in queues),
            "bot_failures": sum(q.get("failures", 0) for q in queues),
            "random_fallbacks": 0}


async def _open_room_at(client: Any, base: str, game: str, setup: dict[str, Any], bot: str | None) -> tuple[str, list[str]]:
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=60) as scoped:
        return await _open_room(scoped, game, setup, bot)


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


class ServeProcess:
    """``cardtable serve`` in a process of its own on a free loopback port (the benchmark's clients stay in
    this one); the database URL goes in its environment, never on its command line."""

    def __init__(self, db: str, *, bot_workers: int = 2, bot_executor: str = "process", group_commits: bool = True,
                 compression: bool = False) -> None:
        self.db = db
        self.port = free_port()
        self.bot_workers = bot_workers
        self.bot_executor = bot_executor
        self.flags = ["--group-commits" if group_commits else "--no-group-commits",
                      "--ws-compression" if compression else "--no-ws-compression"]
        self.proc: subprocess.Popen[bytes] | None = None

    def cpu_seconds(self) -> float:
        """The CPU time the server process has used (its own threads, not its bot workers)."""
        assert self.proc is not None
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    @property
    def url(self) -> str:
        """The server's HTTP address."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """The server's websocket address."""
        return f"ws://127.0.0.1:{self.port}"

    def __enter__(self) -> ServeProcess:
        import httpx

        wrap = os.environ.get("CARDTABLE_BENCH_WRAP", "").split()  # a profiler's command line, e.g. py-spy record ... --
        self.proc = subprocess.Popen(
            [*wrap, sys.executable, "-m", "cardtable.cli.serve_cmd", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--bot-workers", str(self.bot_workers), "--bot-executor", self.bot_executor,
             "--join-limit", "1000000/minute", "--log-level", "warning", *self.flags],
            env={**os.environ, "CARDTABLE_DB_URL": self.db}, stdout=subprocess.DEVNULL, stderr=None)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"cardtable serve exited with {self.proc.returncode}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.__exit__()
        raise RuntimeError("cardtable serve did not answer in time")

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def bench_server(rooms: int = 20, seconds: float = 10.0, db: str | None = None, seed: int = 1, *,
                 bot: str = "random", bot_rooms: BotRooms | str = BotRooms.HALF, processes: int = 1,
                 in_process: bool = False, bot_workers: int = 2, game: str | None = None, group_commits: bool = True,
                 compression: bool = False, study_games: int = 0) -> dict[str, Any]:
    """Play ``rooms`` rooms at once over loopback for ``seconds``; latency quantiles in ms and throughput.

    The server runs as ``processes`` ``cardtable serve`` processes (several need a PostgreSQL ``db``), the
    clients in this one; ``in_process`` runs one server in a thread of this process instead (quicker to
    start, for tests). ``bot`` is the spec of the bots of ``bot_rooms``; ``game`` plays one game only;
    ``group_commits`` and ``compression`` set the server's (to measure each choice)."""
    chosen = BotRooms(bot_rooms)
    games = GAMES if game is None else tuple(g for g in GAMES if g[0] == game)
    if processes > 1 and (db is None or db.startswith("sqlite")):
        raise ValueError("several server processes need a PostgreSQL database (db=postgresql+psycopg://...)")
    with _database(db) as url, ExitStack() as stack:
        if in_process:
            settings = ServerSettings(db=url, bot_executor="thread", bot_workers=bot_workers,
                                      join_rate="1000000/minute", group_commits=group_commits)
            servers: list[Any] = [stack.enter_context(LoopbackServer(settings, compression=compression))]
        else:
            servers = [stack.enter_context(ServeProcess(url, bot_workers=bot_workers, group_commits=group_commits,
                                                        compression=compression)) for _ in range(processes)]
        bases = [(s.url, s.ws_url) for s in servers]
        if study_games:  # a studio study of that many heuristic Zeta games plays on the server meanwhile
            _start_study(bases[0][0], study_games)
        cpu = [s.cpu_seconds() for s in servers if isinstance(s, ServeProcess)]
        result = asyncio.run(_bench(bases, rooms, seconds, seed, bot, chosen, games))
        if study_games:
            result["study"] = _stop_study(bases[0][0])
        if cpu:
            used = sum(s.cpu_seconds() for s in servers if isinstance(s, ServeProcess)) - sum(cpu)
            result["server_cpu_ms_per_action"] = 1000 * used / max(1, result["actions"])
    result["group_commits"], result["compression"] = group_commits, compression
    result["database"] = "sqlite (temporary file, fsync on commit)" if db is None else db.split(":", 1)[0]
    result["processes"] = 1 if in_process else processes
    result["bots"] = f"{bot} in {chosen.value} of the rooms"
    return result


def _start_study(base: str, games: int) -> None:
    """Launch a studio study on the server and wait until its first games are stored (its workers are busy)."""
    import time

    import httpx

    body = {"kind": "single", "game": "zeta", "agents": ["heuristic"], "games": games, "seed": 1}
    made = httpx.post(f"{base}/api/studio/studies", json=body, timeout=60).json()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if httpx.get(f"{base}/api/studio/studies/{made['id']}", timeout=30).json()["progress"]["done"] > 0:
            return
        time.sleep(0.5)


def _stop_study(base: str) -> str:
    """Cancel the server's studies; how far they got, as ``done/planned``."""
    import httpx

    out = []
    for study in httpx.get(f"{base}/api/studio/studies", timeout=30).json()["studies"]:
        httpx.post(f"{base}/api/studio/studies/{study['id']}/cancel", timeout=60)
        found = httpx.get(f"{base}/api/studio/studies/{study['id']}", timeout=30).json()["study"]
        out.append(f"{found['done']}/{found['planned']}")
    return ", ".join(out)


def format_result(result: dict[str, Any]) -> Any:
    """The benchmark's figures as a rich table."""
    from rich.table import Table as RichTable

    table = RichTable(title=f"server: {result['rooms']} rooms over loopback, {result.get('processes', 1)} process(es), "
                            f"{result['database']}, bots: {result.get('bots', '')}"
                            + (f", a studio study meanwhile (games done: {result['study']})" if result.get("study") else ""),
                      title_justify="left")
    columns = ["actions", "games", "actions/s", "p50 ms", "p90 ms", "p99 ms", "max ms"]
    row = [str(result["actions"]), str(result["games"]), f"{result['actions_per_s']:,.0f}", f"{result['p50_ms']:.1f}",
           f"{result['p90_ms']:.1f}", f"{result['p99_ms']:.1f}", f"{result['max_ms']:.1f}"]
    if "server_cpu_ms_per_action" in result:
        columns.append("server CPU ms/action")
        row.append(f"{result['server_cpu_ms_per_action']:.2f}")
    for column in columns:
        table.add_column(column, justify="right")
    table.add_row(*row)
    if result.get("bot_replies"):
        table.caption = (f"bot replies: {result['bot_replies']}, a person waited p50 {result['bot_wait_p50_ms']:.0f} ms, "
                         f"p95 {result['bot_wait_p95_ms']:.0f} ms, max {result['bot_wait_max_ms']:.0f} ms; "
                         f"bot queue: at most {result['bot_peak_queued']} moves waiting (a room saw up to "
                         f"{result['bot_most_ahead']} ahead of its own); {result['bot_decisions']} decisions, "
                         f"{result['bot_failures']} agent failures, {result['random_fallbacks']} random moves")
    return table
