"""Speed benchmarks through the public API: random playouts and actions per second, per game.

Two measures per case: *playouts* start each game with ``new_game(seed=...)``; *rollouts* clone a
fixed start position and play it out, which is what a tree search does and what OpenSpiel's
``RandomRolloutEvaluator`` measures. With the ``bench`` extra, OpenSpiel's C++ rollouts of
``mnk(m=6,n=6,k=4)`` run in the same process, interleaved, for a ratio. Times are the process's
CPU time, so a busy machine slows both sides alike instead of skewing the ratio.

:func:`compare_builds` measures the compiled build against the pure-Python one in one run: the
pure side plays in a child process started with ``CARDTABLE_PURE=1``, the two take turns round
by round, and each case gets the ratio of their rates.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import IO, Any

from cardtable import build_info
from cardtable.core import State, game_class, load_game


@dataclass
class Rate:
    """One measured rate: what, how many games and actions in how many seconds."""

    label: str
    games: int
    actions: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        """Games (playouts or rollouts) per second."""
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        """Actions applied per second."""
        return self.actions / self.seconds if self.seconds else 0.0


def random_playout(state: State, rng: random.Random) -> int:
    """Play random legal actions to the end through the public API; returns the number applied."""
    n = 0
    rand = rng.random
    while not state.is_over:
        actions = state.legal_actions()
        state.apply(actions[int(rand() * len(actions))])
        n += 1
    return n


def _measure(label: str, make: Callable[[int], State], seconds: float, seed: int) -> Rate:
    """Play games made by ``make(game_index)`` for about ``seconds`` of CPU time."""
    rng = random.Random(seed)
    games = actions = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        for _ in range(20):
            actions += random_playout(make(games), rng)
            games += 1
    return Rate(label, games, actions, time.process_time() - start)


def playouts(game_name: str, flags: dict[str, Any], setup: dict[str, Any], seconds: float, seed: int = 1) -> Rate:
    """Random games from ``new_game`` for about ``seconds``."""
    game = load_game(game_name, **flags)
    return _measure("playouts", lambda k: game.new_game(seed=seed + k, **setup), seconds, seed)


def rollouts(game_name: str, flags: dict[str, Any], setup: dict[str, Any], seconds: float, seed: int = 1) -> Rate:
    """Random games from clones of one start position for about ``seconds``."""
    root = load_game(game_name, **flags).new_game(seed=seed, **setup)
    return _measure("rollouts", lambda k: root.clone(), seconds, seed)


def openspiel_rollouts(seconds: float, seed: int = 1) -> Rate | None:
    """OpenSpiel's C++ random rollouts of mnk(6,6,4) via MCTSBot's evaluator (None without open_spiel)."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("mnk(m=6,n=6,k=4)")
    state = game.new_initial_state()
    per_call = 500
    games = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(per_call, seed + games), 2.0, 1, 10**9, False,
                              seed + games, False)
        bot.mcts_search(state)  # one simulation: per_call random games played in C++
        games += per_call
    return Rate("openspiel mnk(6,6,4) rollouts", games, 0, time.process_time() - start)


def bench_game(game_name: str, seconds: float = 2.0, rounds: int = 3, with_openspiel: bool = True,
               ) -> list[dict[str, Any]]:
    """Measure every bench case of a game, interleaved with OpenSpiel rounds; returns result rows."""
    cls = game_class(game_name)
    rows: dict[tuple[str, str], Rate] = {}
    spiel: Rate | None = None
    for _ in range(rounds):
        for label, flags, setup in cls.bench_cases():
            for fn in (playouts, rollouts):
                r = fn(game_name, flags, setup, seconds / rounds)
                key = (label, r.label)
                prev = rows.get(key)
                rows[key] = r if prev is None else Rate(r.label, prev.games + r.games, prev.actions + r.actions,
                                                         prev.seconds + r.seconds)
        if with_openspiel:
            s = openspiel_rollouts(seconds / rounds)
            if s is not None:
                spiel = s if spiel is None else Rate(s.label, spiel.games + s.games, 0, spiel.seconds + s.seconds)
    out = []
    for (label, kind), r in rows.items():
        row: dict[str, Any] = {"case": label, "measure": kind, "games": r.games, "games_per_s": r.games_per_second,
                               "actions_per_s": r.actions_per_second, "mean_length": r.actions / max(r.games, 1)}
        if spiel is not None:
            row["vs_openspiel"] = r.games_per_second / spiel.games_per_second
        out.append(row)
    if spiel is not None:
        out.append({"case": "openspiel mnk(6,6,4)", "measure": "C++ rollouts", "games": spiel.games,
                    "games_per_s": spiel.games_per_second, "actions_per_s": None, "mean_length": None,
                    "vs_openspiel": 1.0})
    return out


MEASURES: dict[str, Callable[[str, dict[str, Any], dict[str, Any], float, int], Rate]] = {
    "playouts": playouts, "rollouts": rollouts}


class PureWorker:
    """A child process on the pure-Python build that measures what it is asked to, one request at a time."""

    def __init__(self) -> None:
        env = {**os.environ, "CARDTABLE_PURE": "1"}
        self._proc = subprocess.Popen([sys.executable, "-m", "cardtable.lab.bench", "--worker"], env=env,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        hello = self._read()
        if hello.get("build") != "pure":
            self.close()
            raise RuntimeError(f"the pure-Python side runs the {hello.get('label')} build: {hello.get('reason')}")

    def _read(self) -> dict[str, Any]:
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the pure-Python benchmark process ended (exit status {self._proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def measure(self, measure: str, game_name: str, flags: dict[str, Any], setup: dict[str, Any], seconds: float,
                seed: int) -> Rate:
        """One measurement on the pure build (``playouts`` or ``rollouts``)."""
        assert self._proc.stdin is not None
        self._proc.stdin.write(json.dumps({"measure": measure, "game": game_name, "flags": flags, "setup": setup,
                                           "seconds": seconds, "seed": seed}) + "\n")
        self._proc.stdin.flush()
        return Rate(**self._read())

    def close(self) -> None:
        """End the child process."""
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait(timeout=30)

    def __enter__(self) -> PureWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def serve_measurements(requests: IO[str], answers: IO[str]) -> None:
    """The worker's loop: say which build runs, then answer each request line with one measured rate."""
    answers.write(json.dumps(build_info().to_json()) + "\n")
    answers.flush()
    for line in requests:
        req = json.loads(line)
        rate = MEASURES[req["measure"]](req["game"], req["flags"], req["setup"], req["seconds"], req["seed"])
        answers.write(json.dumps(asdict(rate)) + "\n")
        answers.flush()


def compare_builds(game_name: str, seconds: float = 2.0, rounds: int = 3, seed: int = 1) -> list[dict[str, Any]]:
    """Each bench case on the compiled build here and the pure build in a child, interleaved; rows with the ratio.

    Raises RuntimeError when this process does not run the compiled build (nothing to compare).
    """
    here = build_info()
    if not here.compiled:
        raise RuntimeError(f"the compiled build is not in use ({here.reason}); nothing to compare")
    cls = game_class(game_name)
    totals: dict[tuple[str, str], list[Rate]] = {}
    with PureWorker() as pure:
        for _ in range(rounds):
            for label, flags, setup in cls.bench_cases():
                for measure, fn in MEASURES.items():
                    fast = fn(game_name, flags, setup, seconds / rounds, seed)
                    slow = pure.measure(measure, game_name, flags, setup, seconds / rounds, seed)
                    pair = totals.setdefault((label, measure), [Rate(measure, 0, 0, 0.0), Rate(measure, 0, 0, 0.0)])
                    for i, r in enumerate((fast, slow)):
                        pair[i] = Rate(measure, pair[i].games + r.games, pair[i].actions + r.actions,
                                       pair[i].seconds + r.seconds)
    out = []
    for (label, measure), (fast, slow) in totals.items():
        out.append({"case": label, "measure": measure,
                    "compiled_games_per_s": fast.games_per_second, "pure_games_per_s": slow.games_per_second,
                    "compiled_actions_per_s": fast.actions_per_second, "pure_actions_per_s": slow.actions_per_second,
                    "ratio": fast.actions_per_second / slow.actions_per_second if slow.actions_per_second else 0.0})
    return out


if __name__ == "__main__":  # the pure-Python side of compare_builds
    if sys.argv[1:] != ["--worker"]:
        sys.exit("usage: python -m cardtable.lab.bench --worker  (started by compare_builds)")
    serve_measurements(sys.stdin, sys.stdout)
