"""PettingZoo: every game as an AEC environment, one agent per seat.

``env(game, **options)`` builds it: ``game`` is a name (options named like a rule flag are flags, the
others setup options such as ``players`` or ``decks``) or a :class:`~cardtable.core.Game`. Agents are
``player_0`` ... (seat 0 ...); ``agent_selection`` is always the seat that decides next, pending
decisions inside an effect included. An agent's observation is a dict: ``observation``, the
game's tensor of its seat's view (``game.encode_view``), and ``action_mask``, 1 for each legal
index of the game's action index when that agent is to move (all zeros otherwise). Actions are
``Discrete(game.num_distinct_actions)``; an action the mask forbids raises ``IllegalAction`` (a
``ValueError``) naming the rule. Rewards are ``state.returns()`` when the game ends (0 before);
with ``max_steps`` every agent is truncated after that many actions.

``reset(seed=s)`` starts the game ``new_game(seed=s)``, so an episode is reproducible as a
cardtable record; ``reset()`` draws the next seed from a stream restarted by the last seed given.

>>> from cardtable.adapters.pettingzoo import env
>>> e = env("oscilloscope", players=3)
>>> e.reset(seed=7)
>>> e.agents, e.agent_selection
(['player_0', 'player_1', 'player_2'], 'player_2')
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum())
((723,), 3)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from cardtable.core import Game, State

from .common import SeedStream, agent_names, game_and_setup, render_state

__all__ = ["CardtableAECEnv", "env"]


class CardtableAECEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """A cardtable game as a PettingZoo AEC environment (see the module's docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "cardtable_v0",
                                "is_parallelizable": False, "render_fps": 4}

    def __init__(self, game: Game[Any], setup: dict[str, Any], *, render_mode: str | None = None,
                 max_steps: int | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, got {max_steps!r}")
        self.game = game
        self.setup = setup
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.metadata = {**self.metadata, "name": f"cardtable_{game.name}_v0"}
        players = game.num_players_for(setup)
        self.possible_agents = agent_names(players)
        self._seat = {name: seat for seat, name in enumerate(self.possible_agents)}
        n = game.num_distinct_actions
        obs = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, shape=game.observation_shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._seeds = SeedStream()
        self.state: State = game.new_game(seed=0, **setup)
        """The game being played (the true state: for analysis, never for an agent)."""
        self.seed_used = 0
        """The seed of the game being played (``new_game(seed=...)`` replays it)."""
        self.agents: list[str] = []
        self.steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s observations (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s actions: the game's action index (the same object every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game: ``new_game(seed=seed)``, or the stream's next seed when ``seed`` is None."""
        self.seed_used = self._seeds.next(seed)
        self.state = self.game.new_game(seed=self.seed_used, **self.setup)
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.state.current_player
        self.agent_selection = self.possible_agents[seat if seat is not None else 0]

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation: its seat's view as the game's tensor, and its legal-action mask."""
        seat = self._seat[agent]
        mask = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
        if seat == self.state.current_player and not self.terminations.get(agent, True) \
                and not self.truncations.get(agent, True):
            mask[self.state.legal_action_indices()] = 1
        return {"observation": self.game.encode_view(self.state.view(seat)), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (an index), or retire it once it is terminated or truncated."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move and must choose an action index, not None")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(self.game.action_from_index(int(action)), player=self._seat[agent])
        self.steps += 1
        self._clear_rewards()
        if self.state.is_over:
            for name, value in zip(self.agents, self.state.returns(), strict=True):
                self.rewards[name] = float(value)
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The position in one line: returned in ``ansi`` mode, printed in ``human`` mode."""
        return render_state(self.state, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


def env(game: str | Game[Any], *, render_mode: str | None = None, max_steps: int | None = None,
        **options: Any) -> CardtableAECEnv:
    """The AEC environment of ``game``: options named like a rule flag are flags, the others setup options."""
    loaded, setup = game_and_setup(game, options)
    return CardtableAECEnv(loaded, setup, render_mode=render_mode, max_steps=max_steps)
