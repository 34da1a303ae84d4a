"""The skill ladder: agents of rising strength play each other, and their Elo ratings say how much skill
matters in a game (the tournament view of the TAG framework: a win-rate matrix and a ranking).

Every pair of rungs plays a seat-swapped run on the same seeds. Ratings come from a Bradley-Terry
model (a binomial GLM fitted by statsmodels on every game; a win is 1, a draw 1/2), with the first
rung fixed at 0 and Wald intervals, in Elo points (400 / ln 10 per logit); a prior of one drawn
game against the first rung keeps a rung that wins every game finite. A *skill step* is a rung
whose direct games against the rung below it give it a score interval above 50%; a game whose
ladder has many significant steps rewards skill over many levels.

>>> ladder_pairs(["random", "heuristic", "ismcts:easy"])
[(0, 1), (0, 2), (1, 2)]
>>> ladder_pairs(["random", "heuristic", "ismcts:easy"], adjacent=True)
[(0, 1), (1, 2)]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .stats import score_interval
from .storage import LoadedRun

DEFAULT_RUNGS = ("random", "heuristic", "ismcts:easy", "ismcts:normal", "ismcts:hard")
"""The ladder's rungs by default, weakest first."""

ELO_PER_LOGIT = 400.0 / math.log(10.0)

PRIOR_WEIGHT = 0.5
"""Weight of each of the two pseudo-rows per rung that make up one drawn game against the first rung."""


def ladder_pairs(rungs: Sequence[str], adjacent: bool = False) -> list[tuple[int, int]]:
    """The pairs of rungs that play: all of them (a round robin), or neighbours only."""
    if adjacent:
        return [(i, i + 1) for i in range(len(rungs) - 1)]
    return [(i, j) for i in range(len(rungs)) for j in range(i + 1, len(rungs))]


def _score(game: Any, spec: str) -> float:
    """The score of the seat(s) holding ``spec`` in a two-player game: 1 win, 1/2 draw, 0 loss."""
    if not game.winners:
        return 0.5
    return 1.0 if any(game.specs[w] == spec for w in game.winners) else 0.0


@dataclass(frozen=True)
class Ladder:
    """Ratings, pairwise scores and skill steps of a ladder."""

    game: str
    rungs: tuple[str, ...]
    ratings: tuple[dict[str, Any], ...]
    pairs: tuple[dict[str, Any], ...]
    steps: tuple[dict[str, Any], ...]

    @property
    def skill_depth(self) -> int:
        """Levels of skill the ladder tells apart: 1 + the number of significant steps."""
        return 1 + sum(1 for s in self.steps if s["significant"])

    def to_json(self) -> dict[str, Any]:
        """The ladder as JSON."""
        return {"game": self.game, "rungs": list(self.rungs), "ratings": list(self.ratings), "pairs": list(self.pairs),
                "steps": list(self.steps), "skill_depth": self.skill_depth,
                "spread": (self.ratings[-1]["elo"] - self.ratings[0]["elo"]) if self.ratings else None}


def fit_ladder(game: str, rungs: Sequence[str], runs: Mapping[tuple[int, int], LoadedRun]) -> Ladder:
    """Fit Elo ratings to the stored runs of each pair (``runs[(i, j)]``: rung i against rung j)."""
    from statsmodels.genmod.families import Binomial  # type: ignore[import-untyped]
    from statsmodels.genmod.generalized_linear_model import GLM  # type: ignore[import-untyped]

    rows: list[np.ndarray] = []
    ys: list[float] = []
    pairs: list[dict[str, Any]] = []
    for (i, j), run in sorted(runs.items()):
        if run.games and run.games[0].players != 2:
            raise ValueError("the ladder rates two-player games (set players=2)")
        scores = [_score(g, rungs[i]) for g in run.games]
        for s in scores:
            x = np.zeros(len(rungs))
            x[i], x[j] = 1.0, -1.0
            rows.append(x)
            ys.append(s)
        score = score_interval(scores, [g.index for g in run.games])
        pairs.append({"a": rungs[i], "b": rungs[j], "games": len(scores), "score_a": score.value,
                      "low": score.low, "high": score.high, "method": score.method})
    ratings: list[dict[str, Any]] = [{"agent": rungs[0], "elo": 0.0, "low": 0.0, "high": 0.0, "reference": True}]
    if rows:
        X = np.array(rows)[:, 1:]
        y = np.array(ys)
        # a rung that wins (or loses) every game has no finite rating: a prior of one drawn game against the
        # first rung (two half-weight rows) keeps every rating finite; it is negligible beside a real ladder's games
        X = np.vstack([X, np.eye(len(rungs) - 1), -np.eye(len(rungs) - 1)])
        y = np.concatenate([y, np.full(2 * (len(rungs) - 1), 0.5)])
        weights = np.concatenate([np.ones(len(rows)), np.full(2 * (len(rungs) - 1), PRIOR_WEIGHT)])
        res = GLM(y, X, family=Binomial(), var_weights=weights).fit()
        ci = np.asarray(res.conf_int())
        for k, spec in enumerate(rungs[1:]):
            ratings.append({"agent": spec, "elo": float(res.params[k]) * ELO_PER_LOGIT,
                            "low": float(ci[k, 0]) * ELO_PER_LOGIT, "high": float(ci[k, 1]) * ELO_PER_LOGIT,
                            "reference": False})
    steps = []
    for k in range(1, len(rungs)):
        direct = next((p for p in pairs if (p["a"], p["b"]) == (rungs[k - 1], rungs[k])), None)
        if direct is None:
            continue
        steps.append({"lower": rungs[k - 1], "upper": rungs[k], "games": direct["games"],
                      "score_upper": 1.0 - direct["score_a"], "low": 1.0 - direct["high"],
                      "high": 1.0 - direct["low"], "significant": 1.0 - direct["high"] > 0.5})
    return Ladder(game, tuple(rungs), tuple(ratings), tuple(pairs), tuple(steps))
