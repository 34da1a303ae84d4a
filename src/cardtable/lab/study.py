"""A lab run: many games of one game under fixed rules, on paired seeds, with the seats rotated.

A :class:`StudyConfig` names the game, its rule flags and setup, the agents and how many games.
The agents form a *lineup* repeated over the seats (``heuristic random`` in a four-player
Oscilloscope: heuristic, random, heuristic, random). Games come in groups on one seed; in game
``k`` of a group the lineup is shifted by ``k`` seats, once for each distinct shift, so every agent
plays every seat on the same deal (a lineup of one agent has one shift: a group is one game).
Game seeds and the agents' RNG (one per game, shared by its seats) derive from the run's ``seed`` alone, so two runs with the
same seed and lineup play the same deals: that is what makes variant comparisons paired.

Games are played in batches (one executor task each, so the per-task overhead stays small; the
executors are :mod:`cardtable.lab.pipeline`'s) and every game records its events, from which
:mod:`cardtable.lab.facts` reads what each seat drew, played and lost. The arena plays its games
with the same :func:`play_batch`, each seat drawing from its own RNG (:attr:`Randomness.PER_SEAT`).

>>> config = StudyConfig("zeta", ("heuristic", "random"), games=3, seed=1)
>>> [(t.index, t.group, t.rotation, t.specs) for t in plan(config)]
[(0, 0, 0, ('heuristic', 'random')), (1, 0, 1, ('random', 'heuristic')), (2, 1, 0, ('heuristic', 'random')), (3, 1, 1, ('random', 'heuristic'))]
>>> pair = play_batch(Batch(config, tuple(plan(config)[:2])))
>>> pair[0].seed == pair[1].seed and pair[0].specs == pair[1].specs[::-1]
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, NamedTuple

from cardtable.agents import Agent, decide, make_agent
from cardtable.agents.simple import RandomAgent
from cardtable.core import Game, State, load_game, record_of, registry
from cardtable.core.registry import game_class
from cardtable.core.rng import QuickRandom
from cardtable.core.rules import parse_assignments, parse_setup

from .facts import Fact, GameFacts, Verb, game_facts
from .playout import random_to_end


@dataclass(frozen=True)
class StudyConfig:
    """What a lab run plays: game, rule flags, setup, the agents' lineup, games, seed and action limit."""

    game: str
    agents: tuple[str, ...]
    games: int = 100
    """Games to play, rounded up to whole groups (one game per distinct seat rotation)."""
    seed: int = 0
    rules: Mapping[str, Any] = field(default_factory=dict)
    setup: Mapping[str, Any] = field(default_factory=dict)
    max_actions: int | None = None
    """Stop a game after this many actions, counted a draw (None: the game's termination bound)."""

    def to_json(self) -> dict[str, Any]:
        """The configuration as a JSON object (what the store keeps to resume a run)."""
        return {"game": self.game, "agents": list(self.agents), "games": self.games, "seed": self.seed,
                "rules": dict(self.rules), "setup": dict(self.setup), "max_actions": self.max_actions}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StudyConfig:
        """Read a configuration written by ``to_json``."""
        return cls(str(data["game"]), tuple(str(a) for a in data["agents"]), int(data["games"]), int(data["seed"]),
                   dict(data.get("rules") or {}), dict(data.get("setup") or {}), data.get("max_actions"))

    def load(self) -> Game[Any]:
        """The game under this run's rules."""
        return load_game(self.game, **dict(self.rules))

    def players(self) -> int:
        """Seats per game."""
        game = self.load()
        return game.num_players_for(game.normalize_setup(game_setup(self, game, 0)))


def game_setup(config: StudyConfig, game: Game[Any], seed: int) -> dict[str, Any]:
    """The setup of one game of a run: the run's, with what it leaves ``"random"`` drawn from the game's seed.

    The game's kit draws it (its ``random_setup`` facet: Utahime's random loadouts); a game without one
    gets the setup as it is.
    """
    sampler = registry.part(config.game, "random_setup", required=False)
    if sampler is None:
        return dict(config.setup)
    drawn: dict[str, Any] = sampler(config.setup, game.rules, seed)
    return drawn


def lineup(agents: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The distinct seat assignments of a group: the agents repeated over the seats, then shifted.

    >>> lineup(["a", "b"], 2)
    [('a', 'b'), ('b', 'a')]
    >>> lineup(["a"], 3)
    [('a', 'a', 'a')]
    >>> lineup(["a", "b"], 4)
    [('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a')]
    """
    if not agents:
        raise ValueError("a lab run needs at least one agent")
    base = [agents[s % len(agents)] for s in range(players)]
    out: list[tuple[str, ...]] = []
    for k in range(players):
        shifted = tuple(base[(s - k) % players] for s in range(players))
        if shifted not in out:
            out.append(shifted)
    return out


@dataclass(frozen=True)
class GameTask:
    """One game of a run: its index, group, rotation, seed and the agent spec in each seat."""

    index: int
    group: int
    rotation: int
    seed: int
    specs: tuple[str, ...]


class Randomness(Enum):
    """How the agents of a game draw their random numbers."""

    PER_GAME = "per game"
    """A lab run's: one RNG per game, shared by its seats (:func:`agent_rng`); a uniformly random seat
    draws from it without a view, and a game of nothing but such seats from a ``QuickRandom``."""
    PER_SEAT = "per seat"
    """The arena's: each seat its own RNG (:func:`seat_rngs`), and every seat decides from its view."""


@dataclass(frozen=True)
class Batch:
    """Games of one run played by one executor task, how their agents draw, and whether to keep their records."""

    config: StudyConfig
    tasks: tuple[GameTask, ...]
    randomness: Randomness = Randomness.PER_GAME
    records: bool = False
    """Return each game's record (``Record.to_json()``) with it."""


class PlayedGame(NamedTuple):
    """One finished game of a lab run: who sat where, how it ended, and its facts.

    A named tuple, not a frozen dataclass: a worker makes one per game, and a frozen dataclass's
    ``__init__`` (one ``object.__setattr__`` a field) cost a fortieth of a compiled Zeta game.
    """

    index: int  # type: ignore[assignment]  # a field, shadowing tuple.index
    group: int
    rotation: int
    seed: int
    specs: tuple[str, ...]
    winners: tuple[int, ...]
    reason: str
    rule: str
    scores: tuple[float, ...] | None
    length: int
    """Actions applied."""
    truncated: bool
    """Stopped at the action limit (counted a draw)."""
    seconds: float
    facts: GameFacts
    record: dict[str, Any] | None = None
    """The game's record as JSON, when its batch asked for records."""

    @property
    def players(self) -> int:
        """Seats of the game."""
        return len(self.specs)


def plan(config: StudyConfig) -> list[GameTask]:
    """Every game of a run, in index order: whole groups on seeds drawn from ``config.seed``."""
    if config.games < 1:
        raise ValueError(f"a lab run needs at least one game, got {config.games}")
    game = config.load()
    for spec in set(config.agents):
        make_agent(spec, game)  # fail here, listing the valid specs, rather than in a worker
    players = game.num_players_for(game.normalize_setup(game_setup(config, game, 0)))
    rotations = lineup(config.agents, players)
    groups = -(-config.games // len(rotations))
    seeds = random.Random(f"lab:{config.seed}")
    tasks: list[GameTask] = []
    for g in range(groups):
        seed = seeds.getrandbits(48)
        for k, specs in enumerate(rotations):
            tasks.append(GameTask(len(tasks), g, k, seed, specs))
    return tasks


def batch_size(games: int, workers: int, largest: int = 100) -> int:
    """Games per executor task: about eight tasks per worker (load balance, progress), at most ``largest``.

    >>> batch_size(10_000, 2), batch_size(40, 2), batch_size(3, 4)
    (100, 3, 1)
    """
    return max(1, min(largest, math.ceil(games / (max(1, workers) * 8))))


def batches(config: StudyConfig, tasks: Sequence[GameTask], size: int) -> list[Batch]:
    """``tasks`` cut into batches of ``size`` games."""
    return [Batch(config, tuple(tasks[i:i + size])) for i in range(0, len(tasks), size)]


_AGENTS: dict[tuple[str, str, tuple[tuple[str, Any], ...]], tuple[Game[Any], Agent]] = {}


def _game_and_agent(config: StudyConfig, spec: str) -> tuple[Game[Any], Agent]:
    key = (config.game, spec, tuple(sorted((k, repr(v)) for k, v in config.rules.items())))
    found = _AGENTS.get(key)
    if found is None:
        game = config.load()
        found = _AGENTS[key] = (game, make_agent(spec, game))
    return found


def agent_seed(seed: int, group: int, rotation: int) -> int:
    """The seed of the RNG the agents of one game of a run share: the three numbers packed without overlap."""
    return ((seed % _SEED_SPACE) << 40 | group) << 8 | rotation


def agent_rng(seed: int, group: int, rotation: int) -> random.Random:
    """The RNG the agents of one game of a run share (fixed by the run's seed, so runs are paired).

    Seeded by one integer (seeding by a string hashes it first), and one per game, not one per
    seat: seeding a Mersenne Twister costs as much as a twentieth of a compiled Zeta game. A game
    whose seats are all uniformly random agents draws from a ``QuickRandom`` on the same seed instead.

    >>> agent_rng(7, 3, 1).random() == agent_rng(7, 3, 1).random() != agent_rng(7, 3, 2).random()
    True
    """
    return random.Random(agent_seed(seed, group, rotation))


def seat_rngs(seed: int, group: int, rotation: int, players: int) -> list[random.Random]:
    """The arena's RNGs of one game, one per seat, fixed by the run's seed, the group, the rotation and the seat.

    >>> [r.random() for r in seat_rngs(7, 3, 1, 2)] == [r.random() for r in seat_rngs(7, 3, 1, 2)]
    True
    """
    return [random.Random(f"arena:{seed}:{group}:{rotation}:{seat}") for seat in range(players)]


_SEED_SPACE = 1 << 64
"""Run seeds are taken modulo this (``random.Random`` seeds from an integer's absolute value)."""


def play_one(config: StudyConfig, task: GameTask) -> PlayedGame:
    """Play one game of a run to the end (or the action limit), recording its events, and read its facts.

    Each agent decides from its seat's view (``decide``); a uniformly random agent, which looks at
    nothing but the number of legal actions, is asked the same question without building a view.
    """
    return play_batch(Batch(config, (task,)))[0]


class _Seats(dict[tuple[str, ...], tuple[list[Agent], list[bool], bool]]):
    """Per lineup of a run: the agent in each seat, which seats are uniformly random, and whether all are."""

    def __init__(self, agents_by_spec: Mapping[str, Agent]) -> None:
        super().__init__()
        self.agents_by_spec = agents_by_spec

    def __missing__(self, specs: tuple[str, ...]) -> tuple[list[Agent], list[bool], bool]:
        agents = [self.agents_by_spec[spec] for spec in specs]
        fast = [type(a) is RandomAgent for a in agents]
        out = self[specs] = (agents, fast, all(fast))
        return out


def _play(batch: Batch, game: Game[Any], seats: _Seats, task: GameTask) -> PlayedGame:
    config = batch.config
    start = time.perf_counter()
    state = game.new_game(seed=task.seed, record_events=True, **game_setup(config, game, task.seed))
    agents, fast, all_fast = seats[task.specs]
    limit = config.max_actions if config.max_actions is not None else game.termination_bound
    if batch.randomness is Randomness.PER_SEAT:
        _play_seats(state, agents, [False] * len(agents),
                    seat_rngs(config.seed, task.group, task.rotation, len(agents)), limit)
    elif all_fast:  # nothing but random() is asked: the cheap generator, and the compiled loop
        random_to_end(state, QuickRandom(agent_seed(config.seed, task.group, task.rotation)), limit)
    else:
        _play_seats(state, agents, fast, [agent_rng(config.seed, task.group, task.rotation)] * len(agents), limit)
    outcome = state.outcome()
    facts = game_facts(state)
    record = None
    if batch.records:
        meta = {"seed": config.seed, "group": task.group, "rotation": task.rotation}
        record = record_of(state, players=list(task.specs), meta=meta).to_json()
    if outcome is None:
        return PlayedGame(task.index, task.group, task.rotation, task.seed, task.specs, (), "action limit",
                          "", None, len(state.history), True, time.perf_counter() - start, facts, record)
    return PlayedGame(task.index, task.group, task.rotation, task.seed, task.specs, tuple(outcome.winners),
                      outcome.reason, outcome.rule, outcome.scores, len(state.history), False,
                      time.perf_counter() - start, facts, record)


def _play_seats(state: State, agents: Sequence[Agent], fast: Sequence[bool], rngs: Sequence[random.Random],
                limit: int) -> None:
    """Play to the end or ``limit`` actions: each seat's agent decides with its seat's RNG, a random one without a view."""
    actions = 0
    while actions < limit:
        seat = state.current_player
        if seat is None:
            break
        if fast[seat]:
            legal = state.legal_actions()
            state.apply(legal[int(rngs[seat].random() * len(legal))])
        else:
            state.apply(decide(agents[seat], state, rngs[seat]), player=seat)
        actions += 1


def play_batch(batch: Batch) -> list[PlayedGame]:
    """Play every game of a batch (the unit of work an executor runs)."""
    config = batch.config
    game = _game_and_agent(config, config.agents[0])[0]
    seats = _Seats({spec: _game_and_agent(config, spec)[1] for spec in set(config.agents)})
    return [_play(batch, game, seats, task) for task in batch.tasks]


def config_from_strings(game: str, agents: Sequence[str], *, games: int = 100, seed: int = 0,
                        rules: Sequence[str] = (), setup: Sequence[str] = (),
                        extra_setup: Mapping[str, Any] | None = None,
                        max_actions: int | None = None) -> StudyConfig:
    """A run's configuration from command-line strings (ValueError saying what is wrong)."""
    cls = game_class(game)
    flags = parse_assignments(cls.Rules, rules)
    normal = load_game(game, **flags).rules.changed_flags()
    config = StudyConfig(game, tuple(agents), games, seed, dict(normal), {**parse_setup(setup), **(extra_setup or {})},
                         max_actions)
    plan(config)  # validates agents, setup and the number of games
    return config


__all__ = ["Batch", "Fact", "GameFacts", "GameTask", "PlayedGame", "Randomness", "StudyConfig", "Verb", "agent_rng",
           "agent_seed", "batch_size", "batches", "config_from_strings", "game_setup", "lineup", "plan", "play_batch", "play_one",
           "seat_rngs"]
