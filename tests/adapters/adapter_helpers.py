"""What the adapter tests share: the games and setups they run, and positions from seeded random games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable.core import Game, State, game_class, game_names, load_game

GAMES = ("zeta", "oscilloscope", "utahime")
"""Every built-in game has an action index and an observation encoding."""

ENV_CASES: list[tuple[str, dict[str, Any]]] = [
    ("zeta", {}),
    ("zeta", {"construction_limits": False, "decks": ["plain", "plain"]}),
    ("oscilloscope", {"players": 1}),
    ("oscilloscope", {"players": 2}),
    ("oscilloscope", {"players": 3}),
    ("oscilloscope", {"players": 4}),
    ("utahime", {}),
    ("utahime", {"option_set": "designer_example"}),
]
"""(game, options) pairs every environment is built for: options are rule flags or setup options."""


def case_id(case: tuple[str, dict[str, Any]]) -> str:
    """A readable test id for an ENV_CASES entry."""
    name, options = case
    return name + "".join(f"-{k}={v}" for k, v in options.items() if k != "decks")


def conformance_cases() -> list[Any]:
    """Every (game, flags, setup) of the games' conformance cases, as pytest params."""
    out = []
    for name in game_names():
        for i, (flags, setup) in enumerate(game_class(name).conformance_cases()):
            out.append(pytest.param(name, flags, setup, id=f"{name}-{i}"))
    return out


def random_states(game: Game[Any], setup: dict[str, Any], seeds: range, max_actions: int | None = None,
                  ) -> Iterator[State]:
    """Every position of seeded random games (each yielded before its action; the end position too)."""
    for seed in seeds:
        state = game.new_game(seed=seed, **setup)
        rng = random.Random(seed * 31 + 7)
        n = 0
        while not state.is_over and (max_actions is None or n < max_actions):
            yield state
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            n += 1
        yield state


def load(name: str, flags: dict[str, Any]) -> Game[Any]:
    """The game under these flags."""
    return load_game(name, **flags)
