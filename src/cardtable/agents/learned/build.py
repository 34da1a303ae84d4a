"""Build ``learned`` and ``ismcts:learned`` agents from a parsed spec's options (``agents.specs`` calls this)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardtable.core import Game

from ..base import Agent
from ..heuristics import evaluator_for, has_heuristic, heuristic_for
from .net import load_network
from .policy import LearnedAgent
from .search import GuidedConfig, GuidedSearchAgent

POLICY_OPTIONS = frozenset({"weights", "temperature"})
"""What ``learned`` takes: ``weights=PATH`` (another network than the shipped one), ``temperature=T``."""
SEARCH_OPTIONS = frozenset({"weights", "iterations", "iters", "seconds", "c", "mix"})
"""What ``ismcts:learned`` takes: the network, the budget and the PUCT constant."""


def _number(options: Mapping[str, str], key: str, kind: type[int] | type[float]) -> Any:
    try:
        return kind(options[key])
    except ValueError:
        raise ValueError(f"option {key} must be a{'n integer' if kind is int else ' number'}, "
                         f"got {options[key]!r}") from None


def make_learned(game: Game[Any], search: bool, options: Mapping[str, str], spec: str) -> Agent:
    """The ``learned`` agent (``search`` False) or ``ismcts:learned`` (True); ValueError for bad options or weights."""
    allowed = SEARCH_OPTIONS if search else POLICY_OPTIONS
    for key in options:
        if key not in allowed:
            raise ValueError(f"{'ismcts:learned' if search else 'learned'} takes no option {key!r} "
                             f"(its options: {', '.join(sorted(allowed))})")
    if not game.has_encoding:
        raise ValueError(f"{game.name} has no observation encoding, so no network can play it")
    net = load_network(game, options.get("weights") or None)
    if not search:
        temperature = _number(options, "temperature", float) if "temperature" in options else 0.0
        return LearnedAgent(game, net, temperature=temperature, spec=spec)
    changes: dict[str, Any] = {}
    if "iterations" in options or "iters" in options:
        changes["iterations"] = _number(options, "iterations" if "iterations" in options else "iters", int)
    if "seconds" in options:
        changes["seconds"] = _number(options, "seconds", float)
        changes.setdefault("iterations", None)
    if "c" in options:
        changes["c_puct"] = _number(options, "c", float)
    if "mix" in options:
        changes["mix"] = _number(options, "mix", float)
    heuristic = heuristic_for(game.name) if has_heuristic(game.name) else None
    return GuidedSearchAgent(game, net, GuidedConfig(**changes), evaluator=evaluator_for(game.name),
                             heuristic=heuristic, spec=spec)
