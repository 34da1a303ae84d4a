"""The registry of games: ``load_game(name, **rule_flags)``, ``game_names()`` and each game's parts.

A game registers one :class:`GameEntry`: where its ``Game`` class, rulebook, event describer,
heuristic and terminal screen live, as import paths, so nothing is imported until it is used and
this module never imports a game. The built-in games are found through the ``cardtable.games``
entry-point group (declared in ``pyproject.toml``); a plug-in package can add its own the same way,
or call :func:`register` at run time.

>>> entry("zeta").rule_prefix
'ZETA'
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from .game import Game

ENTRY_POINT_GROUP = "cardtable.games"
"""The entry-point group whose entries name :class:`GameEntry` objects."""


@dataclass(frozen=True)
class GameEntry:
    """Where a game's parts live (``"module:attribute"`` import paths; empty when the game has none)."""

    name: str
    game: str
    """The ``Game`` subclass."""
    rule_prefix: str = ""
    """The prefix of the rulebook's rule ids (``ZETA`` for ``ZETA-R12``)."""
    rulebook: str = ""
    """The package that holds ``rulebook.md``."""
    describe_event: str = ""
    """``describe_event(event, names) -> str``: one event of a seat's log in words."""
    heuristic: str = ""
    """``score_actions(view, actions) -> list[float]`` (its module may define ``evaluate`` too)."""
    renderer: str = ""
    """The terminal screen: ``render(view, context) -> rich renderable``."""
    describe_action: str = ""
    """The terminal's words for an action string: ``describe(action, actor, context) -> str``."""
    web_routes: str = ""
    """The browser client's part of the game: a ``cardtable.web.kit.GameWeb`` (its routes and card data)."""


_ENTRIES: dict[str, GameEntry] = {}
_BUILTIN_LOADED = False
_LOADING = threading.Lock()


def resolve(target: str) -> Any:
    """The object an import path ``"package.module:attribute"`` names (ImportError/AttributeError if none)."""
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def register(name_or_entry: str | GameEntry, target: str = "") -> None:
    """Register a game: a :class:`GameEntry`, or a name and the import path of its Game class."""
    _load_builtin()
    if isinstance(name_or_entry, GameEntry):
        _ENTRIES[name_or_entry.name] = name_or_entry
    else:
        _ENTRIES[name_or_entry] = GameEntry(name_or_entry, target)


def game_names() -> list[str]:
    """Names of every registered game, sorted."""
    _load_builtin()
    return sorted(_ENTRIES)


def entry(name: str) -> GameEntry:
    """The entry of the game ``name`` (ValueError naming the choices if unknown)."""
    _load_builtin()
    found = _ENTRIES.get(name)
    if found is None:
        raise ValueError(f"unknown game {name!r}; choose one of: {', '.join(sorted(_ENTRIES))}")
    return found


def entries() -> list[GameEntry]:
    """Every registered game's entry, by name."""
    _load_builtin()
    return [_ENTRIES[n] for n in sorted(_ENTRIES)]


def game_class(name: str) -> type[Game[Any]]:
    """The Game subclass registered under ``name`` (ValueError naming the choices if unknown)."""
    cls: type[Game[Any]] = resolve(entry(name).game)
    return cls


def load_game(name: str, **rule_flags: Any) -> Game[Any]:
    """A game with the given rule flags; unknown names, flags or values raise ValueError."""
    cls = game_class(name)
    return cls(cls.Rules.from_flags(**rule_flags))


EventDescriber = Callable[[Mapping[str, Any], Sequence[str]], str]


def plain_describe_event(event: Mapping[str, Any], names: Sequence[str]) -> str:
    """The words of an event for a game without a describer: its kind and fields."""
    fields = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("kind", "move"))
    return f"{event.get('kind', '?')}" + (f": {fields}" if fields else "")


def describer(name: str) -> EventDescriber:
    """The event describer of game ``name`` (a plain one if it has none)."""
    target = entry(name).describe_event
    if not target:
        return plain_describe_event
    fn: EventDescriber = resolve(target)
    return fn


def _load_builtin() -> None:
    """Read the entry points once (thread-safe: a second thread waits until every game is there)."""
    global _BUILTIN_LOADED
    if _BUILTIN_LOADED:
        return
    with _LOADING:
        if _BUILTIN_LOADED:
            return
        for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
            found = ep.load()
            for item in (found if isinstance(found, (list, tuple)) else [found]):
                if isinstance(item, GameEntry):
                    _ENTRIES.setdefault(item.name, item)
        _BUILTIN_LOADED = True
