"""Agent specs: the one place where strings like ``ismcts:hard`` become agents.

Grammar: ``NAME[:OPTION[,OPTION...]]`` where an option is a level (``easy``, ``normal``, ``hard``)
or ``key=value``. The bare levels ``easy``, ``normal`` and ``hard`` are agents too, for people
choosing an opponent.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from cardtable.core import Game

from .base import Agent
from .heuristics import evaluator_for, has_heuristic, heuristic_for, level_changes
from .ismcts import ISMCTSAgent, SearchConfig
from .simple import HeuristicAgent, RandomAgent

_GUIDED = SearchConfig(iterations=300, rollout="heuristic", expansion="heuristic", bias=2.0)

LEVELS: dict[str, SearchConfig] = {
    "easy": replace(_GUIDED, iterations=100),
    "normal": replace(_GUIDED, iterations=300),
    "hard": replace(_GUIDED, iterations=1000),
}
"""ISMCTS budgets by difficulty level (per decision), guided by the game's heuristic.

For a game without a heuristic the levels fall back to random expansion and rollouts.
"""


def game_levels(game: str | None) -> dict[str, SearchConfig]:
    """Every difficulty level's ISMCTS configuration for ``game``: the defaults, changed as its kit's ``levels`` say."""
    changes = level_changes(game) if game else {}
    return {level: replace(cfg, **changes.get(level, {})) for level, cfg in LEVELS.items()}


def level_config(level: str, game: str | None = None) -> SearchConfig:
    """The ISMCTS configuration of a difficulty level for ``game`` (its kit's calibration, else the defaults)."""
    return game_levels(game)[level]


DIFFICULTIES: dict[str, str] = {
    "easy": "heuristic:epsilon=0.3",
    "normal": "ismcts:normal",
    "hard": "ismcts:hard",
}
"""What a person gets when they pick a difficulty by name."""

SPEC_HELP: dict[str, str] = {
    "random": "uniformly random legal actions",
    "heuristic[:epsilon=E]": "the game's casual-player strategy (random action with probability E)",
    "ismcts[:LEVEL|iterations=N|seconds=S|c=C|rollout=random|heuristic|expand=random|heuristic|widen=W|bias=B|epsilon=E|depth=D, ...]":
        "information-set MCTS; LEVEL is easy, normal (default) or hard",
    "learned[:weights=PATH|temperature=T]": "the network learned by self-play: one call a move (docs/learned.md)",
    "ismcts:learned[,iterations=N|seconds=S|c=C|mix=M|weights=PATH]": "ISMCTS guided by that network (PUCT priors, value at the leaves)",
    "easy / normal / hard": "difficulty levels: " + ", ".join(f"{k} = {v}" for k, v in DIFFICULTIES.items()),
}
"""The valid specs, for help texts and error messages."""


class AgentSpecError(ValueError):
    """A spec string that names no agent, or an option an agent does not take."""

    def __init__(self, spec: str, reason: str) -> None:
        self.spec = spec
        self.reason = reason
        valid = "; ".join(f"{k} ({v})" for k, v in SPEC_HELP.items())
        super().__init__(f"invalid agent spec {spec!r}: {reason}. Valid specs: {valid}")


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: the agent kind and its options, as written."""

    kind: str
    level: str | None
    options: dict[str, str]
    text: str


def parse_spec(text: str) -> AgentSpec:
    """Parse ``NAME[:OPTION,...]`` (AgentSpecError listing the valid specs if malformed)."""
    raw = text.strip()
    name, _, rest = raw.partition(":")
    name = name.strip().lower()
    if name in DIFFICULTIES:
        if rest:
            raise AgentSpecError(text, f"the difficulty {name!r} takes no options")
        return parse_spec(DIFFICULTIES[name])
    if name not in ("random", "heuristic", "ismcts", "learned"):
        raise AgentSpecError(text, f"unknown agent {name!r}")
    level: str | None = None
    options: dict[str, str] = {}
    for part in (p.strip() for p in rest.split(",")) if rest else ():
        if not part:
            raise AgentSpecError(text, "empty option")
        key, sep, value = part.partition("=")
        key = key.strip().lower()
        if not sep:
            if key == "learned" and name == "ismcts" and "learned" not in options:
                options["learned"] = ""  # the network guides the search (cardtable.agents.learned)
                continue
            if key not in LEVELS:
                raise AgentSpecError(text, f"unknown level or option {part!r} (levels: {', '.join(LEVELS)})")
            if name != "ismcts":
                raise AgentSpecError(text, f"{name} has no levels")
            if level is not None:
                raise AgentSpecError(text, "more than one level")
            level = key
            continue
        if key in options:
            raise AgentSpecError(text, f"option {key!r} given twice")
        options[key] = value.strip()
    if "learned" in options or name == "learned":
        if level is not None:
            raise AgentSpecError(text, "a learned agent has no levels")
        return AgentSpec(name, None, options, raw)  # cardtable.agents.learned checks its options
    allowed = {"random": set(), "heuristic": {"epsilon"},
               "ismcts": {"iterations", "iters", "seconds", "c", "rollout", "expand", "widen", "bias", "epsilon", "depth"}}[name]
    for key in options:
        if key not in allowed:
            valid = ", ".join(sorted(allowed)) or "none"
            raise AgentSpecError(text, f"{name} takes no option {key!r} (its options: {valid})")
    return AgentSpec(name, level, options, raw)


def _number(spec: AgentSpec, key: str, kind: type[int] | type[float]) -> Any:
    try:
        return kind(spec.options[key])
    except ValueError:
        raise AgentSpecError(spec.text, f"option {key} must be a{'n integer' if kind is int else ' number'}, "
                                        f"got {spec.options[key]!r}") from None


def search_config(spec: AgentSpec, game: Game[Any] | None = None) -> SearchConfig:
    """The ISMCTS configuration an ``ismcts`` spec describes (its level, then its options) for ``game``."""
    cfg = level_config(spec.level or "normal", game.name if game is not None else None)
    changes: dict[str, Any] = {}
    opts = spec.options
    if game is not None and not has_heuristic(game.name):
        changes.update(rollout="random", expansion="random")
    if "iterations" in opts or "iters" in opts:
        key = "iterations" if "iterations" in opts else "iters"
        changes["iterations"] = _number(spec, key, int)
    if "seconds" in opts:
        changes["seconds"] = _number(spec, "seconds", float)
        if "iterations" not in changes:
            changes["iterations"] = None
    if "c" in opts:
        changes["exploration"] = _number(spec, "c", float)
    if "rollout" in opts:
        changes["rollout"] = opts["rollout"].lower()
    if "expand" in opts:
        changes["expansion"] = opts["expand"].lower()
    if "bias" in opts:
        changes["bias"] = _number(spec, "bias", float)
    if "widen" in opts:
        changes["widening"] = _number(spec, "widen", float)
    if "epsilon" in opts:
        changes["rollout_epsilon"] = _number(spec, "epsilon", float)
    if "depth" in opts:
        changes["max_rollout_actions"] = _number(spec, "depth", int)
    try:
        return replace(cfg, **changes)
    except ValueError as exc:
        raise AgentSpecError(spec.text, str(exc)) from None


def make_agent(spec: str, game: Game[Any]) -> Agent:
    """Build the agent ``spec`` names for ``game`` (AgentSpecError listing the valid specs if wrong)."""
    parsed = parse_spec(spec)
    if parsed.kind == "random":
        return RandomAgent(spec=parsed.text)
    if parsed.kind == "heuristic":
        epsilon = _number(parsed, "epsilon", float) if "epsilon" in parsed.options else 0.0
        try:
            return HeuristicAgent(heuristic_for(game.name), epsilon, spec=parsed.text)
        except ValueError as exc:
            raise AgentSpecError(spec, str(exc)) from None
    if parsed.kind == "learned" or "learned" in parsed.options:
        from .learned.build import make_learned

        options = {k: v for k, v in parsed.options.items() if k != "learned"}
        try:
            return make_learned(game, parsed.kind == "ismcts", options, parsed.text)
        except ValueError as exc:
            raise AgentSpecError(spec, str(exc)) from None
    cfg = search_config(parsed, game)
    heuristic = None
    if "heuristic" in (cfg.rollout, cfg.expansion):
        try:
            heuristic = heuristic_for(game.name)
        except ValueError as exc:
            raise AgentSpecError(spec, str(exc)) from None
    return ISMCTSAgent(game, cfg, heuristic=heuristic, evaluator=evaluator_for(game.name), spec=parsed.text)
