"""The registry of games: ``load_game(name, **rule_flags)``, ``game_names()`` and each game's kit.

A game registers one :class:`GameKit`: its parts (facets) as import paths, so nothing is imported
until it is used and this module never imports a game. Every front end (terminal, server, web,
lab, printing, adapters, agents) finds a game's parts here by the game's name, and none names a
game. The built-in games are found through the ``cardtable.games`` entry-point group (declared in
``pyproject.toml``); a plug-in package can add its own the same way, or call :func:`register` at
run time.

>>> entry("zeta").rule_prefix
'ZETA'
>>> part("zeta", "heuristic").__name__
'score_actions'
>>> entry("zeta").client_module
'js/games/zeta.js'
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from importlib import metadata
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game

ENTRY_POINT_GROUP = "cardtable.games"
"""The entry-point group whose entries name :class:`GameKit` objects (one, or a list of them)."""


@dataclass(frozen=True)
class GameKit:
    """One game's parts: each facet an import path (``"module:attribute"``, or a module), empty when the game has none.

    A front end asks :func:`part` for a facet by name; a facet a game leaves empty gets the front
    end's generic fallback where one makes sense (plain words, a plain screen, no per-item facts),
    else a :class:`MissingPart` error naming the game and the facet.
    """

    name: str
    game: str
    """The engine: the ``Game`` subclass."""
    rule_prefix: str = ""
    """The prefix of the rulebook's rule ids (``ZETA`` for ``ZETA-R12``)."""
    rulebook: str = ""
    """The package that holds ``rulebook.md`` (and ``howto.<lang>.md``)."""
    codec: str = ""
    """The codec of the engine's compact event codes: their layouts, encode and decode."""
    facts: str = ""
    """The lab's fact reader: ``facts(state) -> GameFacts`` of a finished game that recorded its events."""
    describe_event: str = ""
    """``describe_event(event, names) -> str``: one event of a seat's log in words."""
    heuristic: str = ""
    """``score_actions(view, actions) -> list[float]``: the casual player's scores of the legal actions."""
    evaluator: str = ""
    """``evaluate(view) -> list[float]``: each seat's prospects in [-1, 1], for searches that cut rollouts short."""
    levels: str = ""
    """How the game calibrates the difficulty levels: ``{level: {search setting: value}}`` (changes to the defaults)."""
    renderer: str = ""
    """The terminal screen: ``render(view, context) -> rich renderable``."""
    describe_action: str = ""
    """The terminal's words for an action string: ``describe(action, actor, context) -> str``."""
    printer: str = ""
    """The print-and-play sheets of the game's cards (see :mod:`cardtable.printing`)."""
    report_tables: str = ""
    """The game's own tables of a lab report: ``tables(frames) -> dict``."""
    random_setup: str = ""
    """The lab's random setups: ``random_setup(setup, rules, seed) -> setup`` draws what a setup leaves ``"random"``."""
    encoding: str = ""
    """The action index and observation tensor for learning tools: a module (``index_actions``, ``encode_view``...)."""
    web_routes: str = ""
    """The browser client's part of the game on the server: a ``cardtable.web.kit.GameWeb`` (routes, card data)."""
    client_module: str = ""
    """The browser's ES module of the game page, as a path under the client's files (``js/games/zeta.js``)."""
    cardset: str = ""
    """The game's numbers as a card set: a ``cardtable.core.cardset.CardSetSpec`` (``cardtable cards``)."""
    decks: str = ""
    """The game's deck files for the front ends (``--deck``, ``cardtable deck``): presets, checks, random decks."""


FACETS: tuple[str, ...] = tuple(f.name for f in fields(GameKit) if f.name not in ("name", "rule_prefix", "client_module"))
"""The facets that are import paths (what :func:`part` resolves), in declaration order."""


class MissingPart(LookupError):
    """A game has no such part (its kit leaves the facet empty, or the import path names nothing)."""

    def __init__(self, game: str, facet: str, reason: str = "") -> None:
        self.game = game
        self.facet = facet
        self.reason = reason
        detail = f": {reason}" if reason else ""
        super().__init__(f"the game {game!r} has no {facet.replace('_', ' ')} (GameKit.{facet}){detail}")


_ENTRIES: dict[str, GameKit] = {}
_PARTS: dict[tuple[str, str], Any] = {}
_BUILTIN_LOADED = False
_LOADING = threading.Lock()


def resolve(target: str) -> Any:
    """The object an import path ``"package.module:attribute"`` names (a module if it has no attribute)."""
    module, _, attr = target.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attr) if attr else found


def register(name_or_kit: str | GameKit, target: str = "") -> None:
    """Register a game: its :class:`GameKit`, or a name and the import path of its Game class."""
    _load_builtin()
    kit = name_or_kit if isinstance(name_or_kit, GameKit) else GameKit(name_or_kit, target)
    _ENTRIES[kit.name] = kit
    _forget(kit.name)


def unregister(name: str) -> None:
    """Take the game ``name`` out of the registry (nothing happens if it is not there)."""
    _load_builtin()
    _ENTRIES.pop(name, None)
    _forget(name)


def _forget(name: str) -> None:
    """Drop the parts of ``name`` resolved so far."""
    for key in [k for k in _PARTS if k[0] == name]:
        del _PARTS[key]


def game_names() -> list[str]:
    """Names of every registered game, sorted."""
    _load_builtin()
    return sorted(_ENTRIES)


def registered() -> list[str]:
    """Names of every registered game in the order they were registered (the built-in games first)."""
    _load_builtin()
    return list(_ENTRIES)


def entry(name: str) -> GameKit:
    """The kit of the game ``name`` (ValueError naming the choices if unknown)."""
    _load_builtin()
    found = _ENTRIES.get(name)
    if found is None:
        raise ValueError(f"unknown game {name!r}; choose one of: {', '.join(sorted(_ENTRIES))}")
    return found


def game_of_module(module: str) -> str | None:
    """The game whose package holds ``module`` (by its engine's import path), or None.

    >>> game_of_module("cardtable.games.zeta.actions"), game_of_module("cardtable.core.actions")
    ('zeta', None)
    """
    _load_builtin()
    for name, kit in _ENTRIES.items():
        package = kit.game.split(":", 1)[0].rpartition(".")[0]
        if package and (module == package or module.startswith(package + ".")):
            return name
    return None


def entries() -> list[GameKit]:
    """Every registered game's kit, by name."""
    _load_builtin()
    return [_ENTRIES[n] for n in sorted(_ENTRIES)]


def part(name: str, facet: str, *, required: bool = True) -> Any:
    """The object facet ``facet`` of game ``name``'s kit names, imported once.

    An empty facet gives None when ``required`` is False, else :class:`MissingPart`, as does an
    import path that names nothing; an unknown game raises ValueError naming the choices.
    """
    key = (name, facet)
    if key in _PARTS:
        return _PARTS[key]
    if facet not in FACETS:
        raise ValueError(f"no facet {facet!r}; a game kit has: {', '.join(FACETS)}")
    target: str = getattr(entry(name), facet)
    if not target:
        if required:
            raise MissingPart(name, facet)
        return None
    try:
        found = resolve(target)
    except (ImportError, AttributeError) as exc:
        raise MissingPart(name, facet, f"{target} is not available ({exc})") from None
    _PARTS[key] = found
    return found


def games_with(facet: str) -> list[str]:
    """Names of the registered games whose kit fills ``facet``, sorted."""
    return [k.name for k in entries() if getattr(k, facet)]


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
    fields_ = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("kind", "move"))
    return f"{event.get('kind', '?')}" + (f": {fields_}" if fields_ else "")


def describer(name: str) -> EventDescriber:
    """The event describer of game ``name`` (a plain one if it has none)."""
    fn: EventDescriber | None = part(name, "describe_event", required=False)
    return plain_describe_event if fn is None else fn


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
                if isinstance(item, GameKit):
                    _ENTRIES.setdefault(item.name, item)
        _BUILTIN_LOADED = True
