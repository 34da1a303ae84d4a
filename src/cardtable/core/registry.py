"""The registry of games: ``load_game(name, **rule_flags)`` and ``game_names()``."""

from __future__ import annotations

import importlib
from typing import Any

from .game import Game

_GAMES: dict[str, str] = {}
_BUILTIN_LOADED = False


def register(name: str, target: str) -> None:
    """Register a game class by import path ``"package.module:ClassName"``."""
    _load_builtin()
    _GAMES[name] = target


def game_names() -> list[str]:
    """Names of every registered game, sorted."""
    _load_builtin()
    return sorted(_GAMES)


def game_class(name: str) -> type[Game[Any]]:
    """The Game subclass registered under ``name`` (ValueError naming the choices if unknown)."""
    _load_builtin()
    target = _GAMES.get(name)
    if target is None:
        raise ValueError(f"unknown game {name!r}; choose one of: {', '.join(sorted(_GAMES))}")
    module, _, cls_name = target.partition(":")
    cls: type[Game[Any]] = getattr(importlib.import_module(module), cls_name)
    return cls


def load_game(name: str, **rule_flags: Any) -> Game[Any]:
    """A game with the given rule flags; unknown names, flags or values raise ValueError."""
    cls = game_class(name)
    return cls(cls.Rules.from_flags(**rule_flags))


def _load_builtin() -> None:
    global _BUILTIN_LOADED
    if not _BUILTIN_LOADED:
        from cardtable.games import BUILTIN_GAMES

        _BUILTIN_LOADED = True
        for name, target in BUILTIN_GAMES.items():
            _GAMES.setdefault(name, target)
