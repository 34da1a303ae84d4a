"""Variant A/B tests: the same seeds, seats and agent RNGs under two rule sets (or setups), compared in pairs.

Game ``i`` of variant A and game ``i`` of variant B start from the same seed with the same agents in
the same seats, so their difference is the variant's. For each turn-order position the win rate in
A and in B is reported with its Wilson interval, the paired difference with a bootstrap interval
over the pairs, and McNemar's exact test on the discordant pairs (statsmodels); the mean length
with a paired bootstrap interval and the Wilcoxon signed-rank test (scipy); the draw rate as the
win rates. The verdict line says it in one sentence.

>>> split_variant("zeta", ["second_player_extra_card=true"])
({'second_player_extra_card': True}, {})
>>> split_variant("oscilloscope", ["players=3", "noise_penalty=two_per_noise"])
({'noise_penalty': 'two_per_noise'}, {'players': 3})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardtable.core.registry import game_class
from cardtable.core.rules import parse_assignments, parse_setup

from .analysis import POSITION_NAMES
from .designer import position_name
from .i18n import Lang, translator
from .setup_args import items_label
from .stats import game_bootstrap, percentile_interval, wilson
from .storage import LoadedRun
from .study import PlayedGame


def split_items(game: str, items: Sequence[str]) -> tuple[list[str], list[str]]:
    """``k=v`` strings of a variant as (rule flag strings, setup option strings): a rule flag's key makes a rule."""
    flags = {s.name for s in game_class(game).Rules.flag_specs()}
    rules = [i for i in items if i.partition("=")[0].strip().replace("-", "_") in flags]
    return rules, [i for i in items if i not in rules]


def split_variant(game: str, items: Sequence[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``k=v`` strings of a variant as (rule flags, setup options), parsed."""
    rules, setup = split_items(game, items)
    return parse_assignments(game_class(game).Rules, rules), parse_setup(setup)


def _position_won(game: PlayedGame, position: int) -> int:
    first = game.facts.first_player if game.facts.first_player is not None else 0
    seat = (first + position) % game.players
    return int(seat in game.winners)


def paired_rate(a: np.ndarray, b: np.ndarray) -> dict[str, Any]:
    """Two paired 0/1 samples: each rate (Wilson), the difference B - A (pair bootstrap), McNemar's exact p."""
    from statsmodels.stats.contingency_tables import mcnemar  # type: ignore[import-untyped]

    n = len(a)
    ra, rb = wilson(int(a.sum()), n), wilson(int(b.sum()), n)
    both = np.column_stack([a, b]).astype(float)
    samples = game_bootstrap(np.arange(n), both, np.ones_like(both))
    low, high = percentile_interval(samples[:, 1] - samples[:, 0])
    table = [[int(((a == 1) & (b == 1)).sum()), int(((a == 1) & (b == 0)).sum())],
             [int(((a == 0) & (b == 1)).sum()), int(((a == 0) & (b == 0)).sum())]]
    p = float(mcnemar(table, exact=True).pvalue) if table[0][1] + table[1][0] else 1.0
    return {"a": {"value": ra.value, "low": ra.low, "high": ra.high},
            "b": {"value": rb.value, "low": rb.low, "high": rb.high},
            "difference": {"value": rb.value - ra.value, "low": low, "high": high},
            "discordant": [table[0][1], table[1][0]], "p": p, "test": "McNemar exact"}


def paired_mean(a: np.ndarray, b: np.ndarray) -> dict[str, Any]:
    """Two paired samples of a quantity: each mean, the mean difference B - A (pair bootstrap), Wilcoxon's p."""
    from scipy import stats  # type: ignore[import-untyped]

    n = len(a)
    both = np.column_stack([a, b]).astype(float)
    samples = game_bootstrap(np.arange(n), both, np.ones_like(both))
    low, high = percentile_interval(samples[:, 1] - samples[:, 0])
    diff = b.astype(float) - a.astype(float)
    p = float(stats.wilcoxon(diff).pvalue) if np.any(diff != 0) else 1.0
    return {"a": float(a.mean()), "b": float(b.mean()), "difference": {"value": float(diff.mean()), "low": low,
                                                                       "high": high},
            "p": p, "test": "Wilcoxon signed-rank"}


@dataclass(frozen=True)
class Comparison:
    """Variant A against variant B on paired games."""

    game: str
    names: tuple[str, str]
    """How the report names A and B (their ``k=v`` lists)."""
    pairs: int
    positions: tuple[dict[str, Any], ...]
    length: dict[str, Any]
    draws: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """The comparison as JSON."""
        return {"game": self.game, "a": self.names[0], "b": self.names[1], "pairs": self.pairs,
                "positions": list(self.positions), "length": self.length, "draws": self.draws,
                "verdict": self.verdict()}

    def focus(self) -> dict[str, Any]:
        """The position the verdict speaks of: the one whose rate in A is farthest from the positions' mean
        (the mean, not 1/n, is the fair line when games are drawn or wins shared), whichever it is; of two as
        far, the favoured one."""
        mean = sum(p["a"]["value"] for p in self.positions) / len(self.positions)
        return max(self.positions, key=lambda p: (round(abs(p["a"]["value"] - mean), 12), p["a"]["value"]))

    def verdict(self, lang: Lang | str = Lang.EN) -> str:
        """One line a designer can read, in ``lang``."""
        t = translator(lang)
        if not self.positions:
            return t("{b} against {a}: {pairs} paired games (one seat: no seat advantage)", b=self.names[1],
                     a=self.names[0], pairs=self.pairs)
        f = self.focus()
        d = f["difference"]
        sig = t("a clear change") if f["p"] < 0.05 else t("no clear change")
        length = self.length
        return t("{b} moves the {who} player from {ra} to {rb} (difference {diff} points, McNemar {p}: {sig}); "
                 "length {la:.1f} -> {lb:.1f} actions ({ld}, {lp}); draws {da} -> {db} [{pairs} paired games].",
                 b=self.names[1], who=position_name(t, int(f["position"])), ra=_pc(f["a"]), rb=_pc(f["b"]),
                 diff=_num({k: 100 * v for k, v in d.items()}), p=_p(f["p"]), sig=sig, la=length["a"],
                 lb=length["b"], ld=_num(length["difference"]), lp=_p(length["p"]), da=_pc(self.draws["a"]),
                 db=_pc(self.draws["b"]), pairs=self.pairs)


def _pc(r: Mapping[str, Any]) -> str:
    return f"{100 * r['value']:.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"


def _pts(d: Mapping[str, Any]) -> str:
    return f"{100 * d['value']:+.1f} points [{100 * d['low']:+.1f}, {100 * d['high']:+.1f}]"


def _num(d: Mapping[str, Any]) -> str:
    return f"{d['value']:+.1f} [{d['low']:+.1f}, {d['high']:+.1f}]"


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def compare_runs(a: LoadedRun, b: LoadedRun, names: tuple[str, str] | None = None) -> Comparison:
    """Compare two stored runs game by game (they must share seeds, seats and agents: same seed and lineup)."""
    by_index = {g.index: g for g in b.games}
    pairs = [(g, by_index[g.index]) for g in a.games if g.index in by_index]
    for ga, gb in pairs:
        if (ga.seed, ga.specs) != (gb.seed, gb.specs):
            raise ValueError(f"game {ga.index} of the two runs differs in seed or seats: the runs are not paired "
                             f"(use the same --seed and --agents)")
    if not pairs:
        raise ValueError("the two runs have no game in common")
    players = pairs[0][0].players
    positions = []
    if players > 1:
        for p in range(players):
            wa = np.array([_position_won(ga, p) for ga, _ in pairs])
            wb = np.array([_position_won(gb, p) for _, gb in pairs])
            positions.append({"position": p, "label": POSITION_NAMES[p], **paired_rate(wa, wb)})
    la = np.array([ga.length for ga, _ in pairs])
    lb = np.array([gb.length for _, gb in pairs])
    da = np.array([int(not ga.winners) for ga, _ in pairs])
    db = np.array([int(not gb.winners) for _, gb in pairs])
    labels = names or (a.info.name, b.info.name)
    return Comparison(a.info.config.game, labels, len(pairs), tuple(positions), paired_mean(la, lb),
                      paired_rate(da, db))


def variant_label(items: Sequence[str]) -> str:
    """A variant's name in a verdict: its ``k=v`` items' short labels (a file by its name), or ``the default``."""
    return items_label(items)

