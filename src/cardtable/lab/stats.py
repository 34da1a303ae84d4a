"""Statistics of game results: scores with confidence intervals (Wilson, grouped BCa bootstrap) and Elo.

>>> round(elo_difference(0.75))
191
>>> score_interval([1.0, 0.0, 1.0, 1.0]).method
'wilson'
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

CONFIDENCE = 0.95
"""The confidence level of every interval the lab reports."""


def _scipy_stats() -> Any:
    """``scipy.stats``, imported on first use (it costs most of a command's start-up)."""
    from scipy import stats  # type: ignore[import-untyped]

    return stats


@dataclass(frozen=True)
class Interval:
    """A point estimate with its confidence interval."""

    value: float
    low: float
    high: float
    method: str

    def flipped(self) -> Interval:
        """The interval of ``1 - value``."""
        return Interval(1.0 - self.value, 1.0 - self.high, 1.0 - self.low, self.method)


def score_interval(scores: Sequence[float], groups: Sequence[int] | None = None,
                   confidence: float = CONFIDENCE) -> Interval:
    """Mean score with a confidence interval: Wilson if all scores are 0/1, else a grouped BCa bootstrap."""
    if not scores:
        return Interval(math.nan, 0.0, 1.0, "none")
    mean = float(np.mean(scores))
    if all(s in (0.0, 1.0) for s in scores):
        k = int(round(sum(scores)))
        ci = _scipy_stats().binomtest(k, len(scores)).proportion_ci(confidence_level=confidence, method="wilson")
        return Interval(mean, float(ci.low), float(ci.high), "wilson")
    by_group: dict[int, list[float]] = {}
    for i, s in enumerate(scores):
        by_group.setdefault(groups[i] if groups is not None else i, []).append(s)
    sample = np.array([np.mean(v) for v in by_group.values()])
    if len(sample) < 2 or np.all(sample == sample[0]):
        return Interval(mean, float(sample.min()), float(sample.max()), "bootstrap")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = _scipy_stats().bootstrap((sample,), np.mean, confidence_level=confidence, n_resamples=9999,
                              method="BCa", random_state=np.random.default_rng(12345))
        low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
        if not (math.isfinite(low) and math.isfinite(high)):
            res = _scipy_stats().bootstrap((sample,), np.mean, confidence_level=confidence, n_resamples=9999,
                                  method="percentile", random_state=np.random.default_rng(12345))
            low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    return Interval(mean, max(0.0, low), min(1.0, high), "bootstrap")


def elo_difference(score: float) -> float:
    """The Elo difference that predicts this expected score (infinite at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def wilson(successes: int, trials: int, confidence: float = CONFIDENCE) -> Interval:
    """A proportion with its Wilson interval (``scipy.stats.binomtest``); NaN with [0, 1] for no trials.

    >>> round(wilson(7, 10).low, 3), round(wilson(7, 10).high, 3)
    (0.397, 0.892)
    """
    if trials <= 0:
        return Interval(math.nan, 0.0, 1.0, "none")
    ci = _scipy_stats().binomtest(int(successes), int(trials)).proportion_ci(confidence_level=confidence, method="wilson")
    return Interval(successes / trials, float(ci.low), float(ci.high), "wilson")


def game_bootstrap(groups: Sequence[int] | np.ndarray, numerators: np.ndarray, denominators: np.ndarray,
                   resamples: int = 2000, seed: int = 12345) -> np.ndarray:
    """Resampled ratios ``sum(numerator) / sum(denominator)`` of several metrics at once, resampling whole games.

    Row ``i`` of ``numerators`` and ``denominators`` (one column per metric) belongs to game ``groups[i]``;
    each resample draws the games with replacement (multinomial weights), so rows of one game (its seats)
    stay together. Returns a ``resamples x metrics`` array (NaN where a resample has no denominator).
    """
    codes, inverse = np.unique(np.asarray(groups), return_inverse=True)
    num = np.zeros((len(codes), numerators.shape[1]))
    den = np.zeros((len(codes), denominators.shape[1]))
    np.add.at(num, inverse, numerators)
    np.add.at(den, inverse, denominators)
    rng = np.random.default_rng(seed)
    out = np.empty((resamples, numerators.shape[1]))
    chunk = max(1, min(resamples, 2_000_000 // max(1, len(codes))))
    for start in range(0, resamples, chunk):
        size = min(chunk, resamples - start)
        weights = rng.multinomial(len(codes), np.full(len(codes), 1.0 / len(codes)), size=size).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start:start + size] = (weights @ num) / (weights @ den)
    return out


def percentile_interval(samples: np.ndarray, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The central ``confidence`` interval of bootstrap samples (NaN-safe)."""
    finite = samples[np.isfinite(samples)]
    if not len(finite):
        return (math.nan, math.nan)
    tail = (1.0 - confidence) / 2 * 100
    low, high = np.percentile(finite, [tail, 100 - tail])
    return (float(low), float(high))
