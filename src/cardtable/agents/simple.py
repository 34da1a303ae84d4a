"""Agents that do not search: uniformly random, and the per-game heuristic."""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.core import Action

from .base import Agent, Candidate, View
from .heuristics import Heuristic


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    def __init__(self, spec: str = "random") -> None:
        self.spec = spec

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """A legal action drawn uniformly with ``rng``."""
        return legal[rng.randrange(len(legal))]


class HeuristicAgent(Agent):
    """Plays the action the game's heuristic scores highest (ties broken with the RNG).

    With ``epsilon`` > 0 it plays a random legal action with that probability instead,
    which makes an easier opponent and a more varied rollout policy.
    """

    def __init__(self, heuristic: Heuristic, epsilon: float = 0.0, spec: str = "heuristic") -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be between 0 and 1, got {epsilon}")
        self.heuristic = heuristic
        self.epsilon = epsilon
        self.spec = spec
        self._last: list[Candidate] = []

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The best-scoring legal action by the heuristic (a random one with probability epsilon)."""
        names = [str(a) for a in legal]
        scores = self.heuristic(view, names)
        if len(scores) != len(legal):
            raise ValueError(f"heuristic returned {len(scores)} scores for {len(legal)} actions")
        self._last = sorted((Candidate(n, 0, None, float(s)) for n, s in zip(names, scores, strict=True)),
                            key=lambda c: -c.score)
        if self.epsilon and rng.random() < self.epsilon:
            return legal[rng.randrange(len(legal))]
        return legal[pick_best(scores, rng)]

    def explain(self, top: int = 5) -> list[Candidate]:
        """The highest-scoring actions of the last decision, with their heuristic scores."""
        return self._last[:top]


def pick_best(scores: Sequence[float], rng: random.Random) -> int:
    """The index of the highest score; ties broken uniformly with ``rng``."""
    best = max(scores)
    tied = [i for i, s in enumerate(scores) if s == best]
    return tied[0] if len(tied) == 1 else tied[rng.randrange(len(tied))]
