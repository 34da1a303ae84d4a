"""The ``learned`` agent: one network call a move, the legal action with the highest logit."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from cardtable.core import Action, Game

from ..base import Agent, Candidate, View
from .net import Network


def legal_priors(logits: Any, indices: Sequence[int]) -> Any:
    """The softmax of ``logits`` over the action indexes ``indices`` (the legal actions), in their order."""
    picked = np.asarray(logits, dtype=np.float64)[list(indices)]
    picked = np.exp(picked - picked.max())
    return picked / picked.sum()


class LearnedAgent(Agent):
    """Plays the legal action the network's policy head likes best (ties broken with the RNG).

    With ``temperature`` > 0 it samples from the policy sharpened or flattened by it instead.
    """

    def __init__(self, game: Game[Any], net: Network, *, temperature: float = 0.0, spec: str = "learned") -> None:
        if temperature < 0:
            raise ValueError(f"the temperature must not be negative, got {temperature}")
        net.check_game(game)
        self.game = game
        self.net = net
        self.temperature = temperature
        self.spec = spec
        self._last: list[Candidate] = []

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The legal action with the highest prior (sampled at the temperature, if any)."""
        logits, value = self.net.forward(self.game.encode_view(view))
        index = self.game.action_index
        priors = legal_priors(logits[0], [index(a) for a in legal])
        rate = (float(value[0]) + 1.0) / 2.0
        order = sorted(range(len(legal)), key=lambda i: -priors[i])
        self._last = [Candidate(str(legal[i]), 0, rate, float(priors[i])) for i in order]
        if self.temperature > 0 and len(legal) > 1:
            weights = priors ** (1.0 / self.temperature)
            return legal[rng.choices(range(len(legal)), weights=list(weights / weights.sum()))[0]]
        best = float(priors.max())
        tied = [i for i in range(len(legal)) if priors[i] == best]
        return legal[tied[0] if len(tied) == 1 else tied[rng.randrange(len(tied))]]

    def explain(self, top: int = 5) -> list[Candidate]:
        """The actions of the last decision by prior, best first; ``win_rate`` is the value head's estimate."""
        return self._last[:top]
