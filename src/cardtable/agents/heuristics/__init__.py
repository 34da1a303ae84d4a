"""Per-game heuristics: functions that score legal actions from a seat's view JSON alone.

A heuristic has the signature ``score(view, actions) -> list[float]``: ``view`` is the JSON object
``state.view(seat)`` returns and ``actions`` the canonical strings of the legal actions; higher is
better. Heuristics never see a state, a game object or any game internals, only those two inputs,
so they are exactly as informed as a person reading the same screen.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

Heuristic = Callable[[Mapping[str, Any], Sequence[str]], list[float]]
"""Scores for each legal action string (higher is better), from the view alone."""

Evaluator = Callable[[Mapping[str, Any]], list[float]]
"""Each seat's prospects in [-1, 1] (like ``returns()``) from a view of an unfinished game.

A heuristic module may define one as ``evaluate``; searches use it to score rollouts they cut short.
"""

_EVALUATORS: dict[str, Evaluator | None] = {}

_HEURISTICS: dict[str, str | Heuristic] = {}
"""Heuristics registered at run time; a game's own comes from its registry entry."""


def _target(game: str) -> str | Heuristic | None:
    """The registered heuristic of ``game``, else the one its game entry names, else None."""
    found = _HEURISTICS.get(game)
    if found is not None:
        return found
    from cardtable.core import registry

    try:
        return registry.entry(game).heuristic or None
    except ValueError:
        return None


def register_heuristic(game: str, heuristic: str | Heuristic, evaluate: Evaluator | None = None) -> None:
    """Register the heuristic of ``game`` (a function or ``"module:function"``) and optionally its evaluator."""
    _HEURISTICS[game] = heuristic
    _EVALUATORS.pop(game, None)
    if evaluate is not None:
        _EVALUATORS[game] = evaluate


def has_heuristic(game: str) -> bool:
    """True if a heuristic is registered for ``game`` and can be imported."""
    try:
        heuristic_for(game)
    except ValueError:
        return False
    return True


def heuristic_for(game: str) -> Heuristic:
    """The heuristic of ``game`` (ValueError naming the games that have one if there is none)."""
    target = _target(game)
    if target is None:
        from cardtable.core import registry

        known = sorted({*_HEURISTICS, *(e.name for e in registry.entries() if e.heuristic)})
        raise ValueError(f"no heuristic for game {game!r}; games with one: {', '.join(known)}")
    if not isinstance(target, str):
        return target
    module, _, name = target.partition(":")
    try:
        fn: Heuristic = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"the heuristic of {game!r} ({target}) is not available: {exc}") from None
    _HEURISTICS[game] = fn
    _EVALUATORS.setdefault(game, getattr(importlib.import_module(module), "evaluate", None))
    return fn


def evaluator_for(game: str) -> Evaluator | None:
    """The position evaluator of ``game``'s heuristic module, or None if it has none."""
    if game not in _EVALUATORS:
        try:
            heuristic_for(game)
        except ValueError:
            return None
    return _EVALUATORS.get(game)
