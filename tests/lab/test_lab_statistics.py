"""The lab's statistics: statsmodels' regressions recover planted effects; the paired tests are statsmodels' and scipy's."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cardtable.lab.analysis import fit_effects
from cardtable.lab.compare import paired_mean, paired_rate
from cardtable.lab.stats import game_bootstrap, percentile_interval


def synthetic(n: int = 4000, seed: int = 1) -> pd.DataFrame:
    """Seat-games with a planted card effect (+1.0 logit), a seat effect (+0.5) and an irrelevant card."""
    rng = np.random.default_rng(seed)
    card = rng.integers(0, 2, n)
    noise = rng.integers(0, 2, n)
    first = rng.integers(0, 2, n)
    deck = rng.choice(["a", "b"], n)
    logit = -0.5 + 1.0 * card + 0.5 * first + 0.3 * (deck == "b")
    won = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    return pd.DataFrame({"game": np.arange(n) // 2, "card": card, "noise": noise, "first": first, "deck": deck,
                         "won": won})


def test_logit_recovers_a_planted_effect() -> None:
    """The controlled estimate finds the planted +1.0 logit, and nothing for the irrelevant card."""
    fit = fit_effects(synthetic(), "won", ["card", "noise"], ["first"], ["deck"], groups="game")
    card, noise = fit.effects["card"], fit.effects["noise"]
    assert 0.85 < card["coef"] < 1.15 and card["p"] < 1e-6
    assert card["ame_low"] < card["ame"] < card["ame_high"] and card["ame_low"] > 0.15
    assert noise["ame_low"] < 0 < noise["ame_high"]
    assert fit.controls == ("first", "deck") and fit.observations == 4000


def test_the_regression_is_statsmodels() -> None:
    """The coefficients are statsmodels' Logit's on the same design (not a hand-written fit)."""
    import statsmodels.api as sm

    data = synthetic(1000, seed=2)
    fit = fit_effects(data, "won", ["card"], ["first"])
    direct = sm.Logit(data["won"].astype(float), sm.add_constant(data[["card", "first"]].astype(float))).fit(disp=0)
    assert fit.effects["card"]["coef"] == pytest.approx(direct.params["card"])
    assert fit.effects["card"]["ame"] == pytest.approx(direct.get_margeff().margeff[0])


def test_ols_for_scores_and_dropping_constant_features() -> None:
    """A solo score regresses by OLS; a feature without variance is dropped and named."""
    rng = np.random.default_rng(3)
    data = pd.DataFrame({"x": rng.integers(0, 3, 500), "const": np.ones(500), "game": np.arange(500)})
    data["score"] = 2.0 * data["x"] + rng.normal(0, 1, 500)
    fit = fit_effects(data, "score", ["x", "const"], groups="game", model="ols")
    assert fit.effects["x"]["coef"] == pytest.approx(2.0, abs=0.2) and fit.dropped == ("const",)


def test_mcnemar_paired_rate() -> None:
    """Paired 0/1 outcomes: McNemar's exact test on the discordant pairs, as statsmodels computes it."""
    from statsmodels.stats.contingency_tables import mcnemar

    a = np.array([1] * 30 + [0] * 50 + [1] * 5 + [0] * 15)
    b = np.array([1] * 30 + [0] * 50 + [0] * 5 + [1] * 15)
    out = paired_rate(a, b)
    assert out["discordant"] == [5, 15]
    assert out["p"] == pytest.approx(mcnemar([[30, 5], [15, 50]], exact=True).pvalue)
    assert out["difference"]["value"] == pytest.approx(0.10)
    assert out["difference"]["low"] < 0.10 < out["difference"]["high"]
    same = paired_rate(a, a)
    assert same["p"] == 1.0 and same["difference"]["value"] == 0


def test_paired_mean_uses_wilcoxon() -> None:
    """Paired lengths: the mean difference with a pair bootstrap, and scipy's signed-rank test."""
    from scipy import stats

    rng = np.random.default_rng(4)
    a = rng.integers(10, 20, 200)
    b = a + rng.integers(0, 3, 200)
    out = paired_mean(a, b)
    assert out["difference"]["value"] == pytest.approx(float((b - a).mean()))
    assert out["p"] == pytest.approx(stats.wilcoxon(b - a).pvalue) and out["p"] < 1e-6


def test_game_bootstrap_keeps_games_together() -> None:
    """Rows of one game are resampled together: two seats that always split a win give a rate of exactly 1/2."""
    groups = np.repeat(np.arange(50), 2)
    won = np.tile([1.0, 0.0], 50)
    samples = game_bootstrap(groups, won.reshape(-1, 1), np.ones((100, 1)), resamples=500)
    assert np.allclose(samples, 0.5)
    low, high = percentile_interval(game_bootstrap(np.arange(100), won.reshape(-1, 1), np.ones((100, 1))))
    assert low < 0.5 < high
