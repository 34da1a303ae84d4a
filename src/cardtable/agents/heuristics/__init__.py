"""Per-game heuristics: functions that score legal actions from a seat's view JSON alone.

A heuristic has the signature ``score(view, actions) -> list[float]``: ``view`` is the JSON object
``state.view(seat)`` returns and ``actions`` the canonical strings of the legal actions; higher is
better. Heuristics never see a state, a game object or any game internals, only those two inputs,
so they are exactly as informed as a person reading the same screen.

A game's heuristic, evaluator and calibrated search levels are facets of its kit
(:class:`cardtable.core.registry.GameKit`): registering the kit registers them, and this module
only looks them up by the game's name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardtable.core import registry

Heuristic = Callable[[Mapping[str, Any], Sequence[str]], list[float]]
"""Scores for each legal action string (higher is better), from the view alone."""

Evaluator = Callable[[Mapping[str, Any]], list[float]]
"""Each seat's prospects in [-1, 1] (like ``returns()``) from a view of an unfinished game.

A kit names one as its ``evaluator``; searches use it to score rollouts they cut short.
"""

LevelChanges = Mapping[str, Mapping[str, Any]]
"""A game's calibration of the difficulty levels: for each level, the search settings it changes."""


def has_heuristic(game: str) -> bool:
    """True if the kit of ``game`` names a heuristic that can be imported."""
    try:
        heuristic_for(game)
    except ValueError:
        return False
    return True


def heuristic_for(game: str) -> Heuristic:
    """The heuristic of ``game`` (ValueError naming the games that have one if there is none)."""
    try:
        fn: Heuristic = registry.part(game, "heuristic")
    except registry.MissingPart as exc:
        known = ", ".join(registry.games_with("heuristic"))
        why = f" ({exc.reason})" if exc.reason else ""
        raise ValueError(f"no heuristic for game {game!r}{why}; games with one: {known}") from None
    return fn


def evaluator_for(game: str) -> Evaluator | None:
    """The position evaluator of ``game``, or None if its kit names none (or the game is unknown)."""
    try:
        fn: Evaluator | None = registry.part(game, "evaluator", required=False)
    except (ValueError, registry.MissingPart):
        return None
    return fn


def level_changes(game: str) -> LevelChanges:
    """How ``game`` calibrates the difficulty levels (empty if its kit names no levels, or it is unknown)."""
    try:
        found: LevelChanges | None = registry.part(game, "levels", required=False)
    except (ValueError, registry.MissingPart):
        return {}
    return found or {}
