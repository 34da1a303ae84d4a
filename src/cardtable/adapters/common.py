"""What every adapter shares: a game from a name or a Game, its options split into rule flags and setup, rendering.

>>> game, setup = game_and_setup("oscilloscope", {"players": 3, "tiebreak": "fewer_net_noise"})
>>> game.rules.tiebreak, setup
('fewer_net_noise', {'players': 3})
>>> agent_names(3)
['player_0', 'player_1', 'player_2']
"""

from __future__ import annotations

import numbers
import random
from collections.abc import Mapping
from typing import Any

from cardtable.core import Game, State, load_game

SEED_BITS = 63
"""Game seeds drawn by an environment are integers below 2**63."""


def game_and_setup(game: str | Game[Any], options: Mapping[str, Any]) -> tuple[Game[Any], dict[str, Any]]:
    """The game (rule flags from ``options`` if ``game`` is a name) and its normalized setup (the other options).

    An option named like one of the game's rule flags is a flag; any other is a setup option
    (``players`` for Oscilloscope, ``decks`` for Zeta). A Game comes with its rules fixed, so then every
    option is a setup option. ValueError names what is wrong.
    """
    if isinstance(game, Game):
        loaded, setup = game, dict(options)
    elif isinstance(game, str):
        from cardtable.core import game_class

        flag_names = {spec.name for spec in game_class(game).Rules.flag_specs()}
        flags = {k: v for k, v in options.items() if k in flag_names}
        setup = {k: v for k, v in options.items() if k not in flag_names}
        loaded = load_game(game, **flags)
    else:
        raise TypeError(f"expected a game name or a Game, got {game!r}")
    if not loaded.has_encoding:
        raise ValueError(f"{loaded.name} has no action index and observation encoding yet")
    normal = loaded.normalize_setup(setup)
    problem = loaded.encoding_problem(normal)
    if problem is not None:
        raise ValueError(f"{loaded.name}: {problem}")
    return loaded, normal


def agent_names(players: int) -> list[str]:
    """The environments' names of the seats: ``player_0`` is seat 0."""
    return [f"player_{seat}" for seat in range(players)]


class SeedStream:
    """The seeds of successive games: ``reset(seed=s)`` plays game ``s`` and restarts the stream from ``s``."""

    def __init__(self) -> None:
        self._rng = random.Random()

    def next(self, seed: int | None) -> int:
        """The game seed for a reset with ``seed`` (None: the next one of the stream)."""
        if seed is not None:
            if not isinstance(seed, numbers.Integral) or isinstance(seed, bool):
                raise ValueError(f"seed must be an integer, got {seed!r}")
            self._rng = random.Random(seed)
            return int(seed)
        return self._rng.getrandbits(SEED_BITS)


def render_state(state: State, render_mode: str | None) -> str | None:
    """An environment's ``render()``: the position in one line, returned in ``ansi`` mode, printed in ``human`` mode."""
    if render_mode is None:
        return None
    text = state.summary()
    if render_mode == "human":
        print(text)
        return None
    return text
