"""The agent protocol: choose an action from the seat's view, the legal actions and a given RNG.

An agent never receives the true state. Whatever plays a game (the arena, the CLI, the server)
calls :func:`decide`, which hands the agent ``state.view(seat)`` and ``state.legal_actions()``
only, so an agent cannot see what its seat may not know.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.core import Action, State

View = Mapping[str, Any]
"""What one seat may know: the JSON object ``state.view(seat)`` returns."""


@dataclass(frozen=True)
class Candidate:
    """One candidate action after a decision: how much it was searched and how good it looked."""

    action: str
    visits: int
    """How many search iterations went through this action (0 for agents that do not search)."""
    win_rate: float | None
    """Estimated probability that the deciding seat wins after this action (None if unknown)."""
    score: float
    """The agent's own ranking value (mean reward in [0, 1] for searches, heuristic score otherwise)."""

    def to_json(self) -> dict[str, Any]:
        """The candidate as a JSON object (for hints and the web page)."""
        return {"action": self.action, "visits": self.visits, "win_rate": self.win_rate, "score": self.score}


class Agent(ABC):
    """A player: picks one of ``legal`` from ``view`` alone, deterministically given ``rng``."""

    spec: str = ""
    """The spec string that builds this agent (see :func:`cardtable.agents.make_agent`)."""

    @abstractmethod
    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """One action of ``legal`` for the seat whose ``view`` this is; all randomness from ``rng``."""

    def explain(self, top: int = 5) -> list[Candidate]:
        """The best candidates of the last decision, best first (empty if the agent keeps none)."""
        return []

    def __repr__(self) -> str:
        return f"make_agent({self.spec!r})" if self.spec else f"<{type(self).__name__}>"


def decide(agent: Agent, state: State, rng: random.Random) -> Action:
    """Ask ``agent`` for the move of the seat to play in ``state``, showing it only that seat's view."""
    seat = state.current_player
    if seat is None:
        raise ValueError(f"the game is over; nobody decides (position: {state.summary()})")
    legal = state.legal_actions()
    if not legal:
        raise ValueError(f"seat {seat} has no legal action (position: {state.summary()})")
    action = agent.choose(state.view(seat), legal, rng)
    if action not in legal:
        raise ValueError(f"{agent!r} chose {str(action)!r}, which is not one of the legal actions")
    return action


def hints(agent: Agent, state: State, rng: random.Random, top: int = 3) -> list[Candidate]:
    """The agent's best candidates for the seat to move (it decides from that seat's view), best first."""
    action = decide(agent, state, rng)
    found = agent.explain(top)
    return found or [Candidate(str(action), 0, None, 0.0)]
