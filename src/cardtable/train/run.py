"""The training loop: self-play, train, checkpoint, evaluate, report; resumable generation by generation.

A run lives in one directory::

    config.json              the settings (a resumed run must ask for the same ones)
    samples/gen-0001.npz     each generation's self-play samples
    checkpoints/gen-0001.pt  the model, the optimiser and the history after each generation
    history.json             losses and strength per generation (the report's data)
    model.npz, model.json    the latest network, ready for ``learned:weights=DIR/model``
    report.md, report.png    the training report

Every random draw is fixed by the run's seed and the generation, so a run stopped after any
generation and resumed gives the same network as a run never stopped.
"""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from cardtable.agents import has_heuristic
from cardtable.agents.learned import WEIGHTS_DIR, Network, encoding_hash, save_network

from .config import DATA_VERSION, TrainConfig
from .model import PolicyValueNet, losses, to_network
from .report import write_report
from .selfplay import Samples, game_seed, load_config_game, run_parallel

Phase = Callable[[str, int, int, str], None]
"""A progress callback: (phase description, done, total, info)."""


class RunError(ValueError):
    """A run directory that cannot be started or resumed as asked."""


@dataclass(frozen=True)
class RunResult:
    """What a run left: its directory, the generations done and the latest network's files."""

    directory: Path
    generations: int
    weights: Path
    history: list[dict[str, Any]]


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval of a mean score ``score`` over ``n`` games (draws count a half)."""
    if n == 0:
        return 0.0, 1.0
    denom = 1 + z * z / n
    centre = (score + z * z / (2 * n)) / denom
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def samples_hash(directory: Path, generation: int) -> str:
    """The SHA-256 of every generation's samples up to ``generation``, in order: the data a network was trained on."""
    digest = hashlib.sha256()
    for g in range(1, generation + 1):
        digest.update((directory / "samples" / f"gen-{g:04d}.npz").read_bytes())
    return digest.hexdigest()


def _meta(cfg: TrainConfig, generation: int, history: list[dict[str, Any]], samples: int,
          data_hash: str) -> dict[str, Any]:
    game = load_config_game(cfg)
    return {"samples_sha256": data_hash, "game": cfg.game, "rules": cfg.rules, "encoding_hash": encoding_hash(game), "data_version": DATA_VERSION,
            "observation_size": game.observation_shape[0], "num_actions": game.num_distinct_actions,
            "generation": generation, "training": cfg.to_json(), "samples_seen": samples,
            "strength": history[-1].get("vs_heuristic") if history else None, "torch": torch.__version__}


def _load_window(directory: Path, generation: int, window: int, obs_size: int) -> Samples:
    parts = [Samples.load(directory / "samples" / f"gen-{g:04d}.npz")
             for g in range(max(1, generation - window + 1), generation + 1)]
    return Samples.join(parts, obs_size)


def _train_epochs(model: PolicyValueNet, opt: torch.optim.Optimizer, data: Samples, cfg: TrainConfig,
                  generation: int, tick: Phase) -> tuple[float, float]:
    """Train on ``data`` for the configured epochs; the last epoch's mean policy and value losses."""
    obs = torch.from_numpy(data.obs)
    legal = torch.from_numpy(data.legal.astype(np.int64))
    target = torch.from_numpy(data.target)
    value = torch.from_numpy(data.value)
    n = len(data)
    gen = torch.Generator().manual_seed(cfg.seed * 1009 + generation)
    model.train()
    p_mean = v_mean = 0.0
    for epoch in range(cfg.epochs):
        order = torch.randperm(n, generator=gen)
        p_sum = v_sum = 0.0
        batches = 0
        for start in range(0, n, cfg.batch_size):
            idx = order[start:start + cfg.batch_size]
            p_loss, v_loss = losses(model, obs[idx], legal[idx], target[idx], value[idx])
            opt.zero_grad()
            (p_loss + v_loss).backward()  # type: ignore[no-untyped-call]
            opt.step()
            p_sum += p_loss.item()
            v_sum += v_loss.item()
            batches += 1
        p_mean, v_mean = p_sum / max(1, batches), v_sum / max(1, batches)
        tick(f"generation {generation}: training", epoch + 1, cfg.epochs, f"policy {p_mean:.3f}  value {v_mean:.3f}")
    model.eval()
    return p_mean, v_mean


def _check_directory(directory: Path, cfg: TrainConfig, resume: bool) -> int:
    """The last finished generation in ``directory`` (0 for a new run); RunError if it cannot be used."""
    config_path = directory / "config.json"
    if not config_path.exists():
        if directory.exists() and any(directory.iterdir()):
            raise RunError(f"{directory} is not empty and holds no training run; choose another --out")
        return 0
    if not resume:
        raise RunError(f"{directory} already holds a training run: add --resume to continue it, or choose another --out")
    try:
        stored = TrainConfig.from_json(json.loads(config_path.read_text(encoding="utf-8")))
    except (ValueError, TypeError) as exc:
        raise RunError(f"{config_path} is not a training configuration: {exc}") from None
    if stored.result_key() != cfg.result_key():
        diff = sorted(k for k, v in cfg.result_key().items() if stored.result_key().get(k) != v)
        raise RunError(f"{directory} was started with other settings ({', '.join(diff)}); a resumed run must keep them")
    done = sorted(directory.glob("checkpoints/gen-*.pt"))
    return int(done[-1].stem.split("-")[1]) if done else 0


def train(cfg: TrainConfig, directory: Path, *, resume: bool = False, ship: bool = False,
          tick: Phase | None = None) -> RunResult:
    """Run (or resume) the training ``cfg`` describes in ``directory``; ``ship`` copies the final weights into the
    package (``cardtable.agents.learned``'s ``weights/``)."""
    report_tick: Phase = tick or (lambda *_: None)
    game = load_config_game(cfg)
    if not game.has_encoding:
        raise RunError(f"{cfg.game} has no observation encoding to train on")
    if cfg.warmup_games and not has_heuristic(cfg.game):
        raise RunError(f"{cfg.game} has no heuristic to teach the warm-up games; use --warmup 0")
    problem = game.encoding_problem({})
    if problem:
        raise RunError(f"{cfg.game}'s encoding cannot serve these rules: {problem}")
    directory = Path(directory)
    done = _check_directory(directory, cfg, resume)
    (directory / "samples").mkdir(parents=True, exist_ok=True)
    (directory / "checkpoints").mkdir(exist_ok=True)
    (directory / "config.json").write_text(json.dumps(cfg.to_json(), indent=2, sort_keys=True) + "\n", encoding="utf-8")
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    obs_size, actions = game.observation_shape[0], game.num_distinct_actions
    model = PolicyValueNet(obs_size, actions, cfg.hidden)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    history: list[dict[str, Any]] = []
    if done:
        state = torch.load(directory / "checkpoints" / f"gen-{done:04d}.pt", weights_only=False)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        history = state["history"]
    samples_seen = sum(int(h["samples"]) for h in history)
    for generation in range(done + 1, cfg.generations + 1):
        started = time.perf_counter()
        net: Network | None = to_network(model, {"game": cfg.game, "encoding_hash": encoding_hash(game)})
        if cfg.expert == "ismcts" or (cfg.expert == "auto" and generation == 1):
            net = None
        seeds = [game_seed(cfg, generation, i) for i in range(cfg.games)]
        results = []
        if generation == 1 and cfg.warmup_games:
            warm = [game_seed(cfg, 0, i) for i in range(cfg.warmup_games)]
            report_tick("warm-up: the heuristic teaches", 0, len(warm), "")
            for i, result in enumerate(run_parallel("warmup", cfg, None, warm)):
                results.append(result)
                report_tick("warm-up: the heuristic teaches", i + 1, len(warm), f"{sum(len(r.samples) for r in results)} positions")
        report_tick(f"generation {generation}: self-play", 0, cfg.games, "")
        for i, result in enumerate(run_parallel("selfplay", cfg, net, seeds)):
            results.append(result)
            report_tick(f"generation {generation}: self-play", i + 1, cfg.games, f"{sum(len(r.samples) for r in results)} positions")
        fresh = Samples.join([r.samples for r in results], obs_size)
        fresh.save(directory / "samples" / f"gen-{generation:04d}.npz")
        selfplay_s = time.perf_counter() - started
        data = _load_window(directory, generation, cfg.window, obs_size)
        p_loss, v_loss = _train_epochs(model, opt, data, cfg, generation, report_tick)
        samples_seen += len(fresh)
        entry: dict[str, Any] = {"generation": generation, "samples": len(fresh), "window": len(data),
                                 "policy_loss": p_loss, "value_loss": v_loss, "selfplay_seconds": selfplay_s,
                                 "mean_length": float(np.mean([r.actions for r in results]))}
        if cfg.eval_games:
            playing = to_network(model, {"game": cfg.game, "encoding_hash": encoding_hash(game)})
            scores: list[float] = []
            report_tick(f"generation {generation}: against the heuristic", 0, cfg.eval_games, "")
            for i, score in enumerate(run_parallel("eval", cfg, playing, range(cfg.eval_games))):
                scores.append(score)
                report_tick(f"generation {generation}: against the heuristic", i + 1, cfg.eval_games,
                            f"{100 * sum(scores) / len(scores):.0f}%")
            mean = sum(scores) / len(scores)
            low, high = wilson(mean, len(scores))
            entry["vs_heuristic"] = {"score": mean, "low": low, "high": high, "games": len(scores)}
        entry["seconds"] = time.perf_counter() - started
        history.append(entry)
        torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "history": history,
                    "generation": generation}, directory / "checkpoints" / f"gen-{generation:04d}.pt")
        (directory / "history.json").write_text(json.dumps(history, indent=2) + "\n", encoding="utf-8")
        final = to_network(model, _meta(cfg, generation, history, samples_seen, samples_hash(directory, generation)))
        save_network(final, directory / "model")
        write_report(directory, cfg, history)
    weights = directory / "model.npz"
    if ship:
        WEIGHTS_DIR.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(weights, WEIGHTS_DIR / f"{cfg.game}.npz")
        shutil.copyfile(directory / "model.json", WEIGHTS_DIR / f"{cfg.game}.json")
    return RunResult(directory, len(history), weights, history)
