"""Self-play: games whose every decision is searched, recorded as training samples (no PyTorch here).

Each decision with more than one legal action is searched by the expert from the mover's view
alone (the heuristic-guided ISMCTS, or the search guided by the current network); the sample is the
observation of that view, the legal actions' indexes, the share of the search's visits each got
(the policy target) and, once the game is over, the mover's return (the value target). Every game's
randomness comes from its own seed, so a generation's samples are the same whatever the number of
worker processes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

import cardtable
from cardtable.agents import HeuristicAgent, ISMCTSAgent, decide, heuristic_for, make_agent
from cardtable.agents.base import Agent
from cardtable.agents.learned import GuidedConfig, GuidedSearchAgent, LearnedAgent, Network
from cardtable.core import Action, Game

from .config import TrainConfig


@dataclass
class Samples:
    """Training samples: observations, padded legal indexes (-1 pads), their targets, and the results."""

    obs: npt.NDArray[np.float32]
    legal: npt.NDArray[np.int32]
    target: npt.NDArray[np.float32]
    value: npt.NDArray[np.float32]

    def __len__(self) -> int:
        return int(self.obs.shape[0])

    @classmethod
    def join(cls, parts: Sequence[Samples], obs_size: int) -> Samples:
        """The samples of ``parts`` one after another (legal indexes padded to the widest)."""
        parts = [p for p in parts if len(p)]
        if not parts:
            return cls(np.zeros((0, obs_size), np.float32), np.zeros((0, 1), np.int32), np.zeros((0, 1), np.float32),
                       np.zeros(0, np.float32))
        width = max(p.legal.shape[1] for p in parts)

        def pad(a: Any, fill: float) -> Any:
            return np.pad(a, ((0, 0), (0, width - a.shape[1])), constant_values=fill)

        return cls(np.concatenate([p.obs for p in parts]), np.concatenate([pad(p.legal, -1) for p in parts]),
                   np.concatenate([pad(p.target, 0.0) for p in parts]), np.concatenate([p.value for p in parts]))

    def save(self, path: Any) -> None:
        """Write the samples as a compressed ``.npz``."""
        np.savez_compressed(path, obs=self.obs, legal=self.legal, target=self.target, value=self.value)

    @classmethod
    def load(cls, path: Any) -> Samples:
        """Read samples written by :meth:`save`."""
        with np.load(path) as data:
            return cls(data["obs"], data["legal"], data["target"], data["value"])


@dataclass(frozen=True)
class GameResult:
    """One self-play game: its samples, its length in actions and the seats' returns."""

    samples: Samples
    actions: int
    returns: tuple[float, ...]


def load_config_game(cfg: TrainConfig) -> Game[Any]:
    """The game a configuration trains, under its rules."""
    return cardtable.load_game(cfg.game, **cfg.rules)


WARMUP_EPSILON = 0.1
"""In a warm-up game, the share of moves played at random instead of the heuristic's choice."""


def _expert(game: Game[Any], cfg: TrainConfig, net: Network | None, warmup: bool) -> Callable[..., list[int]]:
    """The visit counts of the expert's search for (view, legal, rng); in a warm-up game, 1 for the heuristic's choice."""
    if warmup:
        heuristic = heuristic_for(game.name)

        def chosen(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> list[int]:
            scores = heuristic(view, [str(a) for a in legal])
            best = max(scores)
            return [1 if s == best else 0 for s in scores]

        return chosen
    if net is not None and cfg.expert != "ismcts":
        guided = GuidedSearchAgent(game, net, GuidedConfig(iterations=cfg.search_iterations, c_puct=cfg.c_puct,
                                                           noise=cfg.noise))
        return guided.visit_counts
    depth = f",depth={cfg.expert_depth}" if cfg.expert_depth is not None else ""
    agent = make_agent(f"ismcts:iterations={cfg.expert_iterations}{depth}", game)
    assert isinstance(agent, ISMCTSAgent)

    def counts(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> list[int]:
        root = agent.search(view, legal, rng)
        return [root.children[a].visits if a in root.children else 0 for a in legal]

    return counts


def play_game(cfg: TrainConfig, seed: int, net: Network | None, warmup: bool = False) -> GameResult:
    """One self-play game from ``seed``: every multi-choice decision searched and recorded (``warmup``: the heuristic
    teaches instead of the search)."""
    game = load_config_game(cfg)
    expert = _expert(game, cfg, net, warmup)
    rng = random.Random(seed)
    state = game.new_game(seed=seed)
    obs: list[Any] = []
    legal_rows: list[list[int]] = []
    targets: list[list[float]] = []
    movers: list[int] = []
    decisions: dict[int, int] = {}
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_legal(legal[0])
            continue
        view = state.view(seat)
        counts = expert(view, legal, rng)
        total = sum(counts)
        probs = [c / total for c in counts] if total else [1.0 / len(legal)] * len(legal)
        obs.append(game.encode_view(view))
        legal_rows.append([game.action_index(a) for a in legal])
        targets.append(probs)
        movers.append(seat)
        made = decisions.get(seat, 0)
        decisions[seat] = made + 1
        if warmup and rng.random() < WARMUP_EPSILON:
            pick = rng.randrange(len(legal))
        elif made < cfg.sample_moves:
            pick = rng.choices(range(len(legal)), weights=probs)[0]
        else:
            best = max(counts)
            tied = [i for i, c in enumerate(counts) if c == best]
            pick = tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]
        state.apply_legal(legal[pick])
    returns = tuple(state.returns())
    width = max((len(r) for r in legal_rows), default=1)
    n = len(obs)
    legal_arr = np.full((n, width), -1, np.int32)
    target_arr = np.zeros((n, width), np.float32)
    for i, (row, probs) in enumerate(zip(legal_rows, targets, strict=True)):
        legal_arr[i, :len(row)] = row
        target_arr[i, :len(row)] = probs
    obs_arr = np.stack(obs).astype(np.float32) if obs else np.zeros((0, game.observation_shape[0]), np.float32)
    value = np.array([returns[m] for m in movers], np.float32)
    return GameResult(Samples(obs_arr, legal_arr, target_arr, value), len(state.history), returns)


def game_seed(cfg: TrainConfig, generation: int, index: int) -> int:
    """The seed of self-play game ``index`` of ``generation`` (fixed by the run's seed)."""
    return (cfg.seed * 1_000_003 + generation * 10_007 + index) % (2**31)


def eval_seed(cfg: TrainConfig, index: int) -> int:
    """The seed of evaluation game pair ``index`` (the same for every generation, so checkpoints meet the same games)."""
    return (cfg.seed * 7_919 + 500_000 + index) % (2**31)


def play_eval_game(cfg: TrainConfig, index: int, net: Network) -> float:
    """Game ``index`` of ``learned`` against the heuristic: its seed from ``index // seats``, ``learned`` in seat
    ``index % seats``; returns ``learned``'s score (1 a win, shared among winners; 0 a loss)."""
    game = load_config_game(cfg)
    probe = game.new_game(seed=eval_seed(cfg, 0))
    seats = probe.num_players
    seat = index % seats
    state = game.new_game(seed=eval_seed(cfg, index // seats))
    mine: Agent = LearnedAgent(game, net)
    try:
        theirs: Agent = HeuristicAgent(heuristic_for(game.name))
    except ValueError:
        theirs = make_agent("random", game)
    rng = random.Random(eval_seed(cfg, index) ^ 0x5EED)
    while not state.is_over:
        assert state.current_player is not None
        state.apply_legal(decide(mine if state.current_player == seat else theirs, state, rng))
    out = state.outcome()
    winners = out.winners if out is not None else ()
    return 1.0 / len(winners) if seat in winners else (0.5 if not winners and seats == 2 else 0.0)


_NET: Network | None = None
_CFG: TrainConfig | None = None


def _init_worker(cfg: TrainConfig, net: Network | None) -> None:
    global _NET, _CFG
    _NET, _CFG = net, cfg


def _selfplay_task(seed: int) -> GameResult:
    assert _CFG is not None
    return play_game(_CFG, seed, _NET)


def _warmup_task(seed: int) -> GameResult:
    assert _CFG is not None
    return play_game(_CFG, seed, None, warmup=True)


def _eval_task(index: int) -> float:
    assert _CFG is not None and _NET is not None
    return play_eval_game(_CFG, index, _NET)


def run_parallel(kind: str, cfg: TrainConfig, net: Network | None, items: Sequence[int]) -> Iterator[Any]:
    """Self-play games (``kind`` ``selfplay`` or ``warmup``: seeds) or evaluation games (``eval``: indexes), in order."""
    task: Callable[[int], Any] = {"selfplay": _selfplay_task, "warmup": _warmup_task, "eval": _eval_task}[kind]
    if cfg.jobs <= 1 or len(items) <= 1:
        _init_worker(cfg, net)
        for item in items:
            yield task(item)
        return
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(cfg.jobs, initializer=_init_worker, initargs=(cfg, net)) as pool:
        yield from pool.imap(task, items)
