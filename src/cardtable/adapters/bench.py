"""``cardtable bench adapters``: environment steps per second next to the raw engine's actions per second.

For each game's bench cases, random legal play four ways, each for about ``seconds`` of process CPU
time (interleaved in rounds, so a busy machine slows all alike):

- ``engine``: ``legal_actions()`` then ``apply()`` through the public API (``cardtable bench GAME``'s
  playouts);
- ``pettingzoo``: ``env.last()`` (the mover's observation tensor and mask) then ``env.step(index)``;
- ``gymnasium``: ``env.step(index)`` for seat 0 (observation and mask included) against random
  opponents, whose actions count as actions, not steps;
- ``openspiel``: ``legal_actions()``, the mover's ``observation_tensor()`` and ``apply_action()``.

A framework that is not installed is left out. Each row has ``steps_per_s`` (decisions an agent
made through the adapter) and ``actions_per_s`` (game actions, opponents' included), and
``vs_engine``, the adapter's actions per second over the engine's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from cardtable.core import game_class, game_names, load_game


class Measure(StrEnum):
    """How the random games are played: the engine itself, or through one adapter."""

    ENGINE = "engine"
    PETTINGZOO = "pettingzoo"
    GYMNASIUM = "gymnasium"
    OPENSPIEL = "openspiel"


MEASURES = tuple(Measure)
FRAMEWORK = {Measure.ENGINE: None, Measure.PETTINGZOO: "pettingzoo", Measure.GYMNASIUM: "gymnasium",
             Measure.OPENSPIEL: "pyspiel"}
"""The module each measure needs."""


def _engine(name: str, flags: dict[str, Any], setup: dict[str, Any], seed: int) -> Callable[[], tuple[int, int]]:
    game = load_game(name, **flags)
    rng = random.Random(seed)
    count = [0]

    def one() -> tuple[int, int]:
        state = game.new_game(seed=seed + count[0], **setup)
        count[0] += 1
        n = 0
        while not state.is_over:
            actions = state.legal_actions()
            state.apply(actions[int(rng.random() * len(actions))])
            n += 1
        return n, n

    return one


def _pettingzoo(name: str, flags: dict[str, Any], setup: dict[str, Any], seed: int) -> Callable[[], tuple[int, int]]:
    import numpy as np

    from .pettingzoo import env

    e = env(name, **flags, **setup)
    rng = random.Random(seed)
    count = [0]

    def one() -> tuple[int, int]:
        e.reset(seed=seed + count[0])
        count[0] += 1
        n = 0
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[int(rng.random() * len(legal))]))
            n += 1
        return n, n

    return one


def _gymnasium(name: str, flags: dict[str, Any], setup: dict[str, Any], seed: int) -> Callable[[], tuple[int, int]]:
    import numpy as np

    from .gymnasium import env

    e = env(name, opponent="random", **flags, **setup)
    rng = random.Random(seed)
    count = [0]

    def one() -> tuple[int, int]:
        obs, _ = e.reset(seed=seed + count[0])
        count[0] += 1
        steps = 0
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, terminated, truncated, _ = e.step(int(legal[int(rng.random() * len(legal))]))
            done = terminated or truncated
            steps += 1
        return steps, len(e.state.history)

    return one


def _openspiel(name: str, flags: dict[str, Any], setup: dict[str, Any], seed: int) -> Callable[[], tuple[int, int]]:
    import json

    from .openspiel import load

    params: dict[str, Any] = {**flags, "rng_seed": seed}
    scalar = {k: v for k, v in setup.items() if isinstance(v, (bool, int, float, str))}
    params.update(scalar)
    rest = {k: v for k, v in setup.items() if k not in scalar}
    if rest:
        params["setup"] = json.dumps(rest)
    game = load(name, **params)
    rng = random.Random(seed)

    def one() -> tuple[int, int]:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.observation_tensor(state.current_player())
            state.apply_action(legal[int(rng.random() * len(legal))])
            n += 1
        return n, n

    return one


_MAKERS = {Measure.ENGINE: _engine, Measure.PETTINGZOO: _pettingzoo, Measure.GYMNASIUM: _gymnasium,
           Measure.OPENSPIEL: _openspiel}


def _available(measure: Measure) -> bool:
    module = FRAMEWORK[measure]
    if module is None:
        return True
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def bench_adapters(games: list[str] | None = None, seconds: float = 2.0, rounds: int = 2, seed: int = 1,
                   ) -> list[dict[str, Any]]:
    """Measure every bench case of ``games`` (default: every game with an encoding); returns result rows."""
    names = games if games is not None else [
        n for n in game_names() if game_class(n)(game_class(n).Rules()).has_encoding]
    measures = [m for m in MEASURES if _available(m)]
    rows: list[dict[str, Any]] = []
    for name in names:
        for label, flags, setup in game_class(name).bench_cases():
            players = {m: _MAKERS[m](name, flags, setup, seed) for m in measures}
            totals: dict[Measure, list[float]] = {m: [0, 0, 0, 0.0] for m in measures}  # games, steps, actions, seconds
            for _ in range(rounds):
                for m in measures:
                    play, tally = players[m], totals[m]
                    start = time.process_time()
                    deadline = start + seconds / rounds
                    while time.process_time() < deadline:
                        steps, actions = play()
                        tally[0] += 1
                        tally[1] += steps
                        tally[2] += actions
                    tally[3] += time.process_time() - start
            engine_rate = totals[Measure.ENGINE][2] / totals[Measure.ENGINE][3]
            for m in measures:
                games_n, steps_n, actions_n, spent = totals[m]
                rows.append({"game": name, "case": label, "measure": str(m), "games": int(games_n),
                             "steps_per_s": steps_n / spent, "actions_per_s": actions_n / spent,
                             "vs_engine": (actions_n / spent) / engine_rate})
    return rows


def format_rows(rows: list[dict[str, Any]]) -> str:
    """The rows as a plain-text table."""
    head = f"{'game':<13} {'case':<17} {'measure':<11} {'games':>6} {'steps/s':>9} {'actions/s':>10} {'vs engine':>9}"
    lines = [head]
    for r in rows:
        lines.append(f"{r['game']:<13} {r['case']:<17} {r['measure']:<11} {r['games']:>6} {r['steps_per_s']:>9,.0f} "
                     f"{r['actions_per_s']:>10,.0f} {r['vs_engine']:>8.2f}x")
    return "\n".join(lines)
