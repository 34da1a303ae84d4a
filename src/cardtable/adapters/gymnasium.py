"""Gymnasium: one seat of a game as a single-agent environment, the other seats played by built-in agents.

``env(game, seat=0, opponent="random", **options)`` builds it: ``game`` is a name (options named like a
rule flag are flags, the others setup options) or a :class:`~cardtable.core.Game`; ``opponent`` is
an agent spec (``random``, ``heuristic``, ``ismcts:easy``, ..., see ``cardtable arena --help``) for
every other seat, or one spec per other seat in seat order. The opponents decide from their own
seats' views, as everywhere in cardtable; Oscilloscope's solo game has none.

The observation is a dict: ``observation``, the game's tensor of the learner's view
(``game.encode_view``), and ``action_mask``, 1 for each legal index of the game's action index (also
in ``info["action_mask"]`` and from ``action_masks()``, the form maskable learners ask for). Actions
are ``Discrete(game.num_distinct_actions)``. The reward is ``state.returns()[seat]`` when the game ends,
0 before. An action the mask forbids ends the episode at once with ``illegal_reward`` (default -1, a
loss) and ``info["illegal"]`` naming the rule, so unmasked exploration is safe.

``reset(seed=s)`` plays the game ``new_game(seed=s)`` (so an episode is reproducible as a cardtable
record); the opponents' choices and later seeds come from the environment's ``np_random``. Importing
the module registers ``cardtable/<game>-v0`` with Gymnasium (``env_id``), so ``gymnasium.make`` works
too, with the same keywords.

>>> from cardtable.adapters.gymnasium import env
>>> e = env("zeta", opponent="heuristic")
>>> obs, info = e.reset(seed=3)
>>> obs["observation"].shape, e.action_space
((2602,), Discrete(977))
>>> obs, reward, terminated, truncated, info = e.step(int(obs["action_mask"].argmax()))
>>> terminated, reward
(False, 0.0)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from cardtable.agents import Agent, decide, make_agent
from cardtable.core import Game, IllegalAction, State, game_class, game_names

from .common import SEED_BITS, game_and_setup, render_state

__all__ = ["CardtableEnv", "env", "env_id"]


class CardtableEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a cardtable game against built-in agents (see the module's docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(self, game: Game[Any], setup: dict[str, Any], *, seat: int = 0,
                 opponent: str | Sequence[str] = "random", illegal_reward: float = -1.0,
                 max_steps: int | None = None, render_mode: str | None = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        players = game.num_players_for(setup)
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1} in this {game.name} game, got {seat!r}")
        others = [p for p in range(players) if p != seat]
        specs = [opponent] * len(others) if isinstance(opponent, str) else list(opponent)
        if len(specs) != len(others):
            raise ValueError(f"expected one opponent spec or {len(others)} (one per other seat), got {len(specs)}")
        self.game = game
        self.setup = setup
        self.seat = seat
        self.opponents: dict[int, Agent] = {p: make_agent(spec, game) for p, spec in zip(others, specs, strict=True)}
        self.illegal_reward = float(illegal_reward)
        self.max_steps = max_steps
        self.render_mode = render_mode
        n = game.num_distinct_actions
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, shape=game.observation_shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(n)
        self.state: State = game.new_game(seed=0, **setup)
        """The game being played (the true state: for analysis, never for the agent)."""
        self.seed_used = 0
        """The seed of the game being played."""
        self.steps = 0
        self._rng = random.Random(0)
        self._done = True

    def _mask(self) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
        if self.state.current_player == self.seat:
            mask[self.state.legal_action_indices()] = 1
        return mask

    def _observe(self) -> tuple[dict[str, Any], dict[str, Any]]:
        mask = self._mask()
        obs = {"observation": self.game.encode_view(self.state.view(self.seat)), "action_mask": mask}
        return obs, {"action_mask": mask.copy()}  # never the seed: it would tell the hidden cards

    def _play_opponents(self) -> None:
        while not self.state.is_over and self.state.current_player != self.seat:
            seat = self.state.current_player
            assert seat is not None
            self.state.apply(decide(self.opponents[seat], self.state, self._rng), player=seat)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action mask as booleans (what maskable learners call)."""
        return self._mask().astype(bool)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a game (``new_game(seed=seed)``, or a seed from ``np_random``) and play up to the learner's turn."""
        super().reset(seed=seed)
        self.seed_used = int(seed) if seed is not None else int(self.np_random.integers(2 ** SEED_BITS))
        self._rng = random.Random(int(self.np_random.integers(2 ** SEED_BITS)))
        self.state = self.game.new_game(seed=self.seed_used, **self.setup)
        self.steps = 0
        self._play_opponents()
        self._done = self.state.is_over
        return self._observe()

    def step(self, action: int | np.integer[Any]) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, let the opponents play, and report the learner's reward."""
        if self._done:
            raise ValueError("the episode has ended: call reset()")
        problem: str | None = None
        try:
            act = self.game.action_from_index(int(action))
        except ValueError as exc:
            problem = str(exc)
        else:
            try:
                self.state.apply(act, player=self.seat)
            except IllegalAction as exc:
                problem = f"{exc.rule}: {exc.reason}"
        if problem is not None:
            self._done = True
            obs, info = self._observe()
            info["illegal"] = problem
            return obs, self.illegal_reward, True, False, info
        self.steps += 1
        self._play_opponents()
        over = self.state.is_over
        reward = float(self.state.returns()[self.seat]) if over else 0.0
        truncated = not over and self.max_steps is not None and self.steps >= self.max_steps
        self._done = over or truncated
        obs, info = self._observe()
        if self.render_mode == "human":
            self.render()
        return obs, reward, over, truncated, info

    def render(self) -> str | None:
        """The position in one line: returned in ``ansi`` mode, printed in ``human`` mode."""
        return render_state(self.state, self.render_mode)


def env(game: str | Game[Any], *, seat: int = 0, opponent: str | Sequence[str] = "random",
        illegal_reward: float = -1.0, max_steps: int | None = None, render_mode: str | None = None,
        **options: Any) -> CardtableEnv:
    """The single-agent environment of ``game`` for ``seat`` against ``opponent`` agents."""
    loaded, setup = game_and_setup(game, options)
    return CardtableEnv(loaded, setup, seat=seat, opponent=opponent, illegal_reward=illegal_reward,
                        max_steps=max_steps, render_mode=render_mode)


def env_id(name: str) -> str:
    """Gymnasium's id of a game's environment: ``gymnasium.make("cardtable/zeta-v0", opponent=...)``."""
    return f"cardtable/{name}-v0"


def _register_envs() -> None:
    for name in game_names():
        cls = game_class(name)
        if env_id(name) not in gymnasium.registry and cls(cls.Rules()).has_encoding:
            gymnasium.register(id=env_id(name), entry_point="cardtable.adapters.gymnasium:env", kwargs={"game": name})


_register_envs()
