"""What a training run is: every setting that shapes its result, stored with the run and with its weights."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal

Expert = Literal["auto", "ismcts", "learned"]

DATA_VERSION = 1
"""The version of the self-play samples' layout (observation, legal indexes, visit targets, result)."""


@dataclass(frozen=True, kw_only=True)
class TrainConfig:
    """One training run's settings; the same settings and seed give the same network."""

    game: str
    rules: dict[str, Any] = field(default_factory=dict)
    """Rule flags as ``{flag: value}`` (the defaults if empty)."""
    seed: int = 0
    generations: int = 10
    games: int = 40
    """Self-play games per generation."""
    expert: Expert = "auto"
    """Who makes the policy targets: ``ismcts`` (the heuristic-guided ISMCTS, Expert Iteration's fixed
    expert), ``learned`` (the search guided by the network being trained, AlphaZero), or ``auto``
    (``ismcts`` for the first generation, when there is no network yet, ``learned`` after it)."""
    warmup_games: int = 0
    """Games the first generation adds in which the game's heuristic is the teacher (its choice the policy target,
    a random move one time in ten for variety): a cheap start that distils the heuristic before the search improves
    on it (0: none)."""
    expert_iterations: int = 200
    """ISMCTS iterations per decision when the expert is ``ismcts``."""
    expert_depth: int | None = None
    """Cut the expert's rollouts after this many actions and score them with the game's evaluator (None: play out)."""
    search_iterations: int = 100
    """Guided-search iterations (network calls) per decision when the expert is ``learned``."""
    c_puct: float = 1.5
    noise: float = 0.25
    """Dirichlet noise at the root of the guided search during self-play (AlphaZero's 0.25)."""
    sample_moves: int = 8
    """Each seat's first decisions are drawn in proportion to the visits (variety); later ones take the most visited."""
    hidden: tuple[int, ...] = (128, 128)
    """The trunk's layer widths."""
    epochs: int = 4
    batch_size: int = 128
    lr: float = 1e-3
    weight_decay: float = 1e-4
    window: int = 4
    """Generations of samples kept for training (the replay window)."""
    eval_games: int = 40
    """Games of ``learned`` against the heuristic after each generation (seats swapped; 0: none)."""
    jobs: int = 1
    """Worker processes for self-play and evaluation (they never change the result)."""
    threads: int = 1
    """PyTorch threads for training."""

    def __post_init__(self) -> None:
        checks = [(self.generations >= 1, "generations must be at least 1"), (self.games >= 1, "games must be at least 1"),
                  (self.expert in ("auto", "ismcts", "learned"), "expert must be auto, ismcts or learned"),
                  (self.expert_iterations >= 1 and self.search_iterations >= 1, "iterations must be at least 1"),
                  (self.warmup_games >= 0, "warm-up games must not be negative"),
                  (self.expert_depth is None or self.expert_depth >= 0, "the expert's depth must not be negative"),
                  (all(h >= 1 for h in self.hidden) and len(self.hidden) >= 1, "hidden layers need a width of 1 or more"),
                  (self.epochs >= 1 and self.batch_size >= 1, "epochs and batch size must be at least 1"),
                  (self.lr > 0 and self.weight_decay >= 0, "the learning rate must be positive"),
                  (self.window >= 1, "the window must be at least 1 generation"),
                  (self.eval_games >= 0 and self.jobs >= 1 and self.threads >= 1, "eval games, jobs and threads"),
                  (0.0 <= self.noise <= 1.0 and self.c_puct >= 0 and self.sample_moves >= 0, "search settings")]
        for ok, why in checks:
            if not ok:
                raise ValueError(f"invalid training configuration: {why}")

    def to_json(self) -> dict[str, Any]:
        """The settings as a JSON object (``hidden`` as a list)."""
        out = asdict(self)
        out["hidden"] = list(self.hidden)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TrainConfig:
        """Settings from :meth:`to_json` (unknown keys refused)."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown training settings: {', '.join(sorted(unknown))}")
        values = dict(data)
        if "hidden" in values:
            values["hidden"] = tuple(values["hidden"])
        return cls(**values)

    def result_key(self) -> dict[str, Any]:
        """The settings that shape the network (not the workers or the length of the run)."""
        out = self.to_json()
        for key in ("jobs", "generations"):
            out.pop(key)
        return out
