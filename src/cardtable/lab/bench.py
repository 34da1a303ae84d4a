"""Speed benchmarks through the public API: random playouts and actions per second, per game.

Two measures per case: *playouts* start each game with ``new_game(seed=...)``; *rollouts* clone a
fixed start position and play it out, which is what a tree search does and what OpenSpiel's
``RandomRolloutEvaluator`` measures. With the ``bench`` extra, OpenSpiel's C++ rollouts of
``mnk(m=6,n=6,k=4)`` run in the same process, interleaved, for a ratio. Times are the process's
CPU time, so a busy machine slows both sides alike instead of skewing the ratio.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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
