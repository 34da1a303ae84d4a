"""Sweeps: one number of a card set (or one rule flag) at several values, every value on the same paired seeds.

``cardtable lab sweep zeta ice_mage.cost=3,4,5,6`` plays the same games (seeds, seats, agent RNGs) under each
value, so the differences between values are the value's, and reports for each the first player's score
(wins plus half the draws) with its interval, the paired difference from the set's own value, the draw
rate, the game length and, for a card, how often it is played and how often its player wins; then the
value closest to the designer's target. A parameter is a card-set number ``item.field`` (see
``cardtable cards export GAME``) or a rule flag.

>>> parse_param("zeta", "ice_mage.cost=3,4..6")
('ice_mage.cost', [3, 4, 5, 6])
>>> parse_param("utahime", "starting_energy=0,1")
('starting_energy', [0, 1])
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardtable.core.cardset import CardSet, default_set, spec_of
from cardtable.core.registry import game_class
from cardtable.core.rules import parse_value

from .pipeline import iter_batches
from .stats import percentile_interval, wilson
from .study import PlayedGame, StudyConfig, batch_size, batches, plan

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def parse_param(game: str, text: str) -> tuple[str, list[Any]]:
    """``KEY=v1,v2,lo..hi`` as (key, values): a card-set number (ints) or a rule flag (its type); ValueError if bad."""
    key, eq, raw = text.partition("=")
    key = key.strip()
    if not eq or not raw.strip():
        raise ValueError(f"a sweep parameter is KEY=v1,v2,... (e.g. ice_mage.cost=3,4,5), not {text!r}")
    values: list[Any] = []
    if "." in key:
        spec = spec_of(game)
        number = spec.number(key)
        if number.fixed:
            raise ValueError(f"{spec.describe(key)} is fixed at {number.default} in this version")
        if number.flag:
            return parse_param(game, f"{number.flag}={raw}")
        for part in raw.split(","):
            part = part.strip()
            lo, dots, hi = part.partition("..")
            try:
                values += list(range(int(lo), int(hi) + 1)) if dots else [int(part)]
            except ValueError:
                raise ValueError(f"{spec.describe(key)}: {part!r} is not a whole number or a range lo..hi") from None
        for v in values:
            if not number.minimum <= v <= number.maximum:
                raise ValueError(f"{spec.describe(key)}: {v} is outside {number.minimum}-{number.maximum}")
        return key, values
    flags = {s.name: s for s in game_class(game).Rules.flag_specs()}
    flag_spec = flags.get(key.replace("-", "_"))
    if flag_spec is None:
        raise ValueError(f"{key!r} is neither a card-set number (item.field, see `cardtable cards export {game}`) "
                         f"nor a rule flag of {game}")
    for part in raw.split(","):
        part = part.strip()
        lo, dots, hi = part.partition("..")
        if dots and flag_spec.kind is int:
            values += list(range(int(lo), int(hi) + 1))
        else:
            values.append(parse_value(flag_spec, part))
    return flag_spec.name, values


def flags_for(base: CardSet, key: str, value: Any) -> dict[str, Any]:
    """The rule flags of ``base`` with ``key`` (a card-set number or a rule flag) set to ``value``."""
    number = _number_of_flag(base.game, key)
    if "." in key or number:
        return base.replace({number or key: int(value)}).rule_flags()
    return {**base.rule_flags(), key: value}


def _number_of_flag(game: str, key: str) -> str:
    """The card-set number a rule flag holds (``starting_energy`` -> ``energy.start``), else ""."""
    return next((n.key for n in spec_of(game).numbers if n.flag and n.flag == key), "")


def value_of(base: CardSet, key: str) -> Any:
    """The value ``base`` gives ``key`` (a number, or a rule flag: the set's, else the game's default)."""
    number = _number_of_flag(base.game, key)
    if "." in key or number:
        return base.values[number or key]
    if key in base.flags:
        return base.flags[key]
    return next(s.default for s in game_class(base.game).Rules.flag_specs() if s.name == key)


def play_games(game: str, flags: Mapping[str, Any], *, agents: Sequence[str], games: int, seed: int,
               setup: Mapping[str, Any] | None = None, max_actions: int | None = None,
               executor: Executor | None = None, workers: int = 1) -> list[PlayedGame]:
    """Play ``games`` lab games under ``flags`` on the seeds of ``seed`` (the same seeds for every flag set)."""
    config = StudyConfig(game, tuple(agents), games, seed, dict(flags), dict(setup or {}), max_actions)
    tasks = plan(config)
    work = batches(config, tasks, batch_size(len(tasks), max(1, workers)))
    out: list[PlayedGame] = []
    for played in iter_batches(work, executor):
        out.extend(played)
    out.sort(key=lambda g: g.index)
    return out


def first_scores(played: Sequence[PlayedGame]) -> np.ndarray:
    """Per game: the first player's score, 1 for a win, 0.5 for a draw, 0 for a loss."""
    out = np.empty(len(played))
    for i, g in enumerate(played):
        first = g.facts.first_player if g.facts.first_player is not None else 0
        out[i] = 0.5 if not g.winners else (1.0 if first in g.winners else 0.0)
    return out


def mean_interval(x: np.ndarray) -> dict[str, float]:
    """A mean with its normal 95% interval."""
    n = len(x)
    m = float(x.mean()) if n else math.nan
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    return {"value": m, "low": m - half, "high": m + half}


def item_strength(played: Sequence[PlayedGame], item: str) -> dict[str, Any]:
    """How often a card is played (share of seat-games) and the win rate of the seats that played it."""
    seat_games = wins = 0
    for g in played:
        seats = {f.seat for f in g.facts.facts if f.item == item and f.verb == "played"}
        seat_games += len(seats)
        wins += sum(1 for s in seats if s in g.winners)
    total = sum(g.players for g in played)
    rate = wilson(wins, seat_games)
    return {"played": seat_games / total if total else math.nan,
            "win": {"value": rate.value, "low": rate.low, "high": rate.high}}


def measure(played: Sequence[PlayedGame], item: str | None = None) -> dict[str, Any]:
    """The numbers of a sweep point: first player's score, draws, length, and the item's strength."""
    scores = first_scores(played)
    draws = wilson(sum(1 for g in played if not g.winners), len(played))
    out: dict[str, Any] = {
        "games": len(played),
        "first": mean_interval(scores),
        "draws": {"value": draws.value, "low": draws.low, "high": draws.high},
        "length": mean_interval(np.array([g.length for g in played], dtype=float)),
    }
    if item is not None:
        out["item"] = item_strength(played, item)
    return out


def paired_first(a: Sequence[PlayedGame], b: Sequence[PlayedGame]) -> dict[str, float]:
    """The first player's score in ``b`` minus in ``a``, game by game (paired bootstrap 95% interval)."""
    x, y = first_scores(a), first_scores(b)
    n = min(len(x), len(y))
    diff = y[:n] - x[:n]
    rng = np.random.default_rng(0)
    samples = diff[rng.integers(0, n, size=(2000, n))].mean(axis=1)
    low, high = percentile_interval(samples)
    return {"value": float(diff.mean()), "low": low, "high": high}


@dataclass(frozen=True)
class Sweep:
    """A sweep's points, in the order of the values, and the value nearest the target."""

    game: str
    key: str
    base: CardSet
    agents: tuple[str, ...]
    games: int
    seed: int
    target: float
    points: tuple[dict[str, Any], ...] = field(default_factory=tuple)

    def best(self) -> dict[str, Any]:
        """The point whose first-player score is closest to the target."""
        return min(self.points, key=lambda p: abs(p["first"]["value"] - self.target))

    def to_json(self) -> dict[str, Any]:
        """The sweep as JSON."""
        return {"game": self.game, "parameter": self.key, "set": self.base.name, "set_hash": self.base.hash,
                "agents": list(self.agents), "games": self.games, "seed": self.seed, "target": self.target,
                "points": list(self.points), "best": self.best()["value"]}

    def lines(self) -> list[str]:
        """The sweep in words: a line per value, then the closest value."""
        out = []
        for p in self.points:
            f, d = p["first"], p["difference"]
            line = (f"{self.key}={p['value']}: first player {100 * f['value']:.1f}% [{100 * f['low']:.1f}, "
                    f"{100 * f['high']:.1f}] ({100 * d['value']:+.1f} points [{100 * d['low']:+.1f}, "
                    f"{100 * d['high']:+.1f}] against {p['baseline']}), draws {100 * p['draws']['value']:.1f}%, "
                    f"length {p['length']['value']:.1f}")
            if "item" in p:
                it = p["item"]
                line += (f", played in {100 * it['played']:.0f}% of seat-games, its player wins "
                         f"{100 * it['win']['value']:.0f}%")
            out.append(line + (" (the set's value)" if p.get("is_base") else ""))
        b = self.best()
        out.append(f"closest to {100 * self.target:.0f}%: {self.key}={b['value']} "
                   f"({100 * b['first']['value']:.1f}% [{100 * b['first']['low']:.1f}, {100 * b['first']['high']:.1f}])")
        return out


def run_sweep(game: str, key: str, values: Sequence[Any], *, base: CardSet | None = None,
              agents: Sequence[str] = ("heuristic",), games: int = 200, seed: int = 0, target: float = 0.5,
              setup: Mapping[str, Any] | None = None, max_actions: int | None = None,
              executor: Executor | None = None, workers: int = 1,
              progress: Callable[[int, int], None] | None = None) -> Sweep:
    """Play every value of ``key`` on the same seeds and measure it against the set's own value."""
    cs = base or default_set(game)
    own = value_of(cs, key)
    order = list(values) if own in values else [own, *values]
    item = key.partition(".")[0] if "." in key else None
    if item is not None and not any(i.id == item and i.kind == "card" for i in spec_of(game).items):
        item = None
    played: dict[Any, list[PlayedGame]] = {}
    for i, v in enumerate(order):
        played[v] = play_games(game, flags_for(cs, key, v), agents=agents, games=games, seed=seed, setup=setup,
                               max_actions=max_actions, executor=executor, workers=workers)
        if progress is not None:
            progress(i + 1, len(order))
    points = []
    for v in values:
        point = {"value": v, **measure(played[v], item), "baseline": own,
                 "difference": paired_first(played[own], played[v]), "is_base": v == own}
        points.append(point)
    return Sweep(game, key, cs, tuple(agents), games, seed, target, tuple(points))


def sweep_plot(sweep: Sweep) -> bytes:
    """One chart: the first player's score by value with intervals, the target line, the length on a second axis."""
    import matplotlib

    matplotlib.use("Agg")
    import io

    import matplotlib.pyplot as plt

    xs = [str(p["value"]) for p in sweep.points]
    fig, ax = plt.subplots(figsize=(6, 3.4))
    vals = [100 * p["first"]["value"] for p in sweep.points]
    err = [[100 * (p["first"]["value"] - p["first"]["low"]) for p in sweep.points],
           [100 * (p["first"]["high"] - p["first"]["value"]) for p in sweep.points]]
    ax.errorbar(xs, vals, yerr=err, fmt="o-", color="#3b6ea8", capsize=4, label="first player's score (95%)")
    ax.axhline(100 * sweep.target, color="#888888", linestyle="--", linewidth=1, label=f"target {100 * sweep.target:.0f}%")
    ax.set_xlabel(sweep.key)
    ax.set_ylabel("first player's score (%)")
    twin = ax.twinx()
    twin.plot(xs, [p["length"]["value"] for p in sweep.points], "s:", color="#d9822b", label="game length")
    twin.set_ylabel("actions per game", color="#d9822b")
    best = sweep.best()
    ax.annotate("closest", (str(best["value"]), 100 * best["first"]["value"]), textcoords="offset points",
                xytext=(0, 10), ha="center", fontsize=8)
    ax.set_title(f"{sweep.game}: {sweep.key} ({sweep.games} paired games per value, {', '.join(sweep.agents)})",
                 fontsize=9)
    handles = ax.get_legend_handles_labels()
    more = twin.get_legend_handles_labels()
    ax.legend(handles[0] + more[0], handles[1] + more[1], fontsize=7, loc="best")
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    return buffer.getvalue()
