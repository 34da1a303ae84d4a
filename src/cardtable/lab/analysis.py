"""The numbers of a lab report: seat advantage, game length, how games end, and per-card strength.

Every rate comes with a 95% interval: Wilson intervals for plain proportions, and a bootstrap that
resamples whole games (both seats of a game stay together) for the per-card and per-play rates.
The estimates that control for seat, deck or option set and for the other cards are logistic
regressions fitted by statsmodels, with standard errors clustered by game, reported as average
marginal effects (percentage points of win probability).

A *win* is a seat among the winners (a shared win counts for each winner); a draw is a game with
no winner; a game stopped at the action limit is a draw. The *points* (:func:`points`) are the
convention a verdict uses: a game is one point, split among its winners, or among all its players
when nobody wins, so the positions' shares add up to 100%. Seats are also read by *position* in the
turn order: position 0 moved first (Zeta's coin toss ZETA-R8, Oscilloscope's start player OSC-R4,
Utahime's first player UTA-R6).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd  # type: ignore[import-untyped]

from cardtable.core import registry

from .facts import Verb
from .stats import Interval, game_bootstrap, percentile_interval, wilson
from .storage import LoadedRun
from .study import PlayedGame

POSITION_NAMES = ("first", "second", "third", "fourth", "fifth", "sixth")
"""How the report names turn-order positions."""


# -- frames --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Frames:
    """A run as tables: one row per game, one per seat of a game, and one per stored fact."""

    games: pd.DataFrame
    seats: pd.DataFrame
    facts: pd.DataFrame
    players: int


def frames(games: Sequence[PlayedGame]) -> Frames:
    """The tables of a run's games (``LoadedRun.games``)."""
    game_rows = []
    seat_rows = []
    fact_rows = []
    players = max((g.players for g in games), default=0)
    for g in games:
        first = g.facts.first_player
        game_rows.append({"game": g.index, "group": g.group, "rotation": g.rotation, "seed": g.seed,
                          "players": g.players, "first": -1 if first is None else first,
                          "winners": len(g.winners), "draw": not g.winners, "length": g.length,
                          "turns": g.facts.turns, "reason": g.reason, "rule": g.rule, "truncated": g.truncated,
                          "seconds": g.seconds})
        for seat in range(g.players):
            ctx = g.facts.context[seat] if seat < len(g.facts.context) else {}
            row: dict[str, Any] = {"game": g.index, "seat": seat, "spec": g.specs[seat],
                                   "position": (seat - first) % g.players if first is not None else seat,
                                   "won": int(seat in g.winners),
                                   "score": g.scores[seat] if g.scores is not None and seat < len(g.scores) else math.nan,
                                   "turns": g.facts.turns, "length": g.length}
            for key, value in ctx.items():
                if isinstance(value, (int, float, str)) or value is None:
                    row[f"ctx_{key}"] = value
                elif isinstance(value, list):
                    row[f"ctx_{key}"] = ",".join(map(str, value))
            if g.players == 2 and 1 - seat < len(g.facts.context):
                deck = g.facts.context[1 - seat].get("deck")
                if deck is not None:
                    row["ctx_opponent_deck"] = deck
            seat_rows.append(row)
        for f in g.facts.facts:
            fact_rows.append((g.index, f.seat, str(f.verb), f.item, f.turn, f.count))
    facts = pd.DataFrame(fact_rows, columns=["game", "seat", "verb", "item", "turn", "count"])
    return Frames(pd.DataFrame(game_rows), pd.DataFrame(seat_rows), facts, players)


def counts(fr: Frames, verb: Verb | str, items: Sequence[str] | None = None,
           item_of: Callable[[str], str] | None = None) -> pd.DataFrame:
    """Per seat-game (rows aligned with ``fr.seats``): how often ``verb`` happened to each item.

    ``item_of`` maps stored items to the reported ones (a Utahime card to its rank, say).
    """
    f = fr.facts[fr.facts["verb"] == str(verb)]
    if item_of is not None and len(f):
        f = f.assign(item=f["item"].map(item_of))
    table = f.pivot_table(index=["game", "seat"], columns="item", values="count", aggfunc="sum", fill_value=0) \
        if len(f) else pd.DataFrame()
    index = pd.MultiIndex.from_frame(fr.seats[["game", "seat"]])
    table = table.reindex(index, fill_value=0)
    if items is not None:
        table = table.reindex(columns=list(items), fill_value=0)
    return table.reset_index(drop=True).astype(float)


# -- the general numbers -------------------------------------------------------------------------
def interval_json(x: Interval) -> dict[str, float]:
    """An interval as the report's JSON: value, low, high."""
    return {"value": x.value, "low": x.low, "high": x.high}


def seat_advantage(fr: Frames) -> dict[str, list[dict[str, Any]]]:
    """Each turn-order position's and each seat's win rate with its Wilson interval; each agent's too."""
    out: dict[str, list[dict[str, Any]]] = {"by_position": [], "by_seat": [], "by_agent": []}
    s = fr.seats
    for key, column in (("by_position", "position"), ("by_seat", "seat")):
        for value in sorted(s[column].unique()):
            rows = s[s[column] == value]
            wins, n = int(rows["won"].sum()), len(rows)
            label = POSITION_NAMES[int(value)] if key == "by_position" else f"seat {int(value)}"
            out[key].append({column: int(value), "label": label, "games": n, "wins": wins,
                             **interval_json(wilson(wins, n))})
    if s["spec"].nunique() > 1:
        for spec in sorted(s["spec"].unique()):
            rows = s[s["spec"] == spec]
            wins, n = int(rows["won"].sum()), len(rows)
            out["by_agent"].append({"agent": spec, "games": n, "wins": wins, **interval_json(wilson(wins, n))})
    return out


def draws(fr: Frames) -> dict[str, Any]:
    """How many games nobody won (and how many of those stopped at the action limit), with an interval."""
    g = fr.games
    n, k = len(g), int(g["draw"].sum())
    return {"games": n, "draws": k, "truncated": int(g["truncated"].sum()), **interval_json(wilson(k, n))}


def points(fr: Frames) -> dict[str, Any]:
    """Each position's share of the games' points, the lab's convention for draws and shared wins.

    A game is worth one point: a sole winner takes it, ``k`` tied winners take ``1/k`` each, and a
    game nobody wins gives ``1/n`` to each of its ``n`` players. The positions' shares add up to
    100% and a fair game gives each ``1/n``. Each share has a 95% normal interval over games (a
    position is one seat of each game). Beside it: how often the position wins alone, shares a win,
    draws and loses.
    """
    s = fr.seats.merge(fr.games[["game", "winners", "players"]], on="game")
    k = s["winners"].to_numpy(dtype=float)
    n_players = s["players"].to_numpy(dtype=float)
    won = s["won"].to_numpy(dtype=float)
    share = np.where(k > 0, won / np.maximum(k, 1), 1.0 / n_players)
    s = s.assign(share=share, sole=(won > 0) & (k == 1), shared=(won > 0) & (k > 1), drawn=k == 0,
                 lost=(won == 0) & (k > 0))
    rows: list[dict[str, Any]] = []
    for position in sorted(s["position"].unique()):
        part = s[s["position"] == position]
        values = part["share"].to_numpy(dtype=float)
        n = len(values)
        mean = float(values.mean()) if n else math.nan
        half = 1.959964 * float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
        rows.append({"position": int(position), "label": POSITION_NAMES[int(position)], "games": n,
                     "value": mean, "low": max(0.0, mean - half), "high": min(1.0, mean + half),
                     "sole_win": float(part["sole"].mean()), "shared_win": float(part["shared"].mean()),
                     "draw": float(part["drawn"].mean()), "loss": float(part["lost"].mean())})
    players = fr.players or 1
    fair = 1.0 / players
    edge = max(rows, key=lambda r: abs(float(r["value"]) - fair)) if rows else None
    g = fr.games
    return {"fair": fair, "by_position": rows, "edge_position": None if edge is None else edge["position"],
            "games": len(g), "draws": int(g["draw"].sum()), "shared_wins": int((g["winners"] > 1).sum())}


def _mean_interval(values: np.ndarray) -> tuple[float, float, float]:
    """A mean with a percentile bootstrap interval (games resampled)."""
    if not len(values):
        return (math.nan, math.nan, math.nan)
    samples = game_bootstrap(np.arange(len(values)), values.reshape(-1, 1).astype(float),
                             np.ones((len(values), 1)), resamples=2000)
    low, high = percentile_interval(samples[:, 0])
    return (float(values.mean()), low, high)


def distribution(values: np.ndarray) -> dict[str, Any]:
    """Mean (with a bootstrap interval) and quantiles of a per-game quantity."""
    if not len(values):
        return {"mean": math.nan}
    mean, low, high = _mean_interval(values)
    q = np.percentile(values, [5, 25, 50, 75, 95])
    return {"mean": mean, "mean_low": low, "mean_high": high, "min": float(values.min()), "p5": float(q[0]),
            "p25": float(q[1]), "median": float(q[2]), "p75": float(q[3]), "p95": float(q[4]),
            "max": float(values.max())}


def lengths(fr: Frames) -> dict[str, Any]:
    """The distribution of game length in actions and in turns."""
    return {"actions": distribution(fr.games["length"].to_numpy()),
            "turns": distribution(fr.games["turns"].to_numpy())}


def endings(fr: Frames) -> list[dict[str, Any]]:
    """How games end: by rule, with the commonest reason, the share of games and its interval."""
    g = fr.games
    out: list[dict[str, Any]] = []
    n = len(g)
    for rule, rows in g.groupby("rule", sort=False):
        reasons = rows["reason"].value_counts()
        k = len(rows)
        out.append({"rule": str(rule) or "action limit", "reason": str(reasons.index[0]), "reasons": int(len(reasons)),
                    "games": k, "draws": int(rows["draw"].sum()), **interval_json(wilson(k, n))})
    out.sort(key=lambda r: -int(r["games"]))
    return out


def scores(fr: Frames) -> list[dict[str, Any]]:
    """Each position's final score (games that report scores): mean with interval and quantiles."""
    s = fr.seats
    if s["score"].isna().all():
        return []
    out = []
    for position in sorted(s["position"].unique()):
        values = s.loc[(s["position"] == position) & s["score"].notna(), "score"].to_numpy(dtype=float)
        out.append({"position": int(position), "label": POSITION_NAMES[int(position)], **distribution(values)})
    return out


# -- rates with a game bootstrap -----------------------------------------------------------------
@dataclass(frozen=True)
class RateSpec:
    """One rate to report: win rate over the seat-games of ``mask`` (or, with ``minus``, a difference)."""

    name: str
    mask: np.ndarray
    minus: np.ndarray | None = None


def bootstrap_rates(fr: Frames, specs: Sequence[RateSpec], outcome: np.ndarray | None = None,
                    resamples: int = 2000) -> dict[str, dict[str, float]]:
    """Win rates (or rate differences) over seat-game masks, each with a game-resampling bootstrap interval."""
    win = fr.seats["won"].to_numpy(dtype=float) if outcome is None else outcome
    groups = fr.seats["game"].to_numpy()
    masks: list[np.ndarray] = []
    where: list[tuple[int, int | None]] = []
    for spec in specs:
        masks.append(spec.mask.astype(float))
        if spec.minus is not None:
            masks.append(spec.minus.astype(float))
            where.append((len(masks) - 2, len(masks) - 1))
        else:
            where.append((len(masks) - 1, None))
    if not masks or not len(win):
        return {s.name: {"value": math.nan, "low": math.nan, "high": math.nan, "n": 0} for s in specs}
    den = np.column_stack(masks)
    num = den * win[:, None]
    samples = game_bootstrap(groups, num, den, resamples=resamples)
    with np.errstate(invalid="ignore", divide="ignore"):
        point = num.sum(axis=0) / den.sum(axis=0)
    out = {}
    for spec, (i, j) in zip(specs, where, strict=True):
        if j is None:
            value, dist, n = point[i], samples[:, i], int(den[:, i].sum())
        else:
            value, dist, n = point[i] - point[j], samples[:, i] - samples[:, j], int(min(den[:, i].sum(), den[:, j].sum()))
        low, high = percentile_interval(dist)
        out[spec.name] = {"value": float(value), "low": low, "high": high, "n": n}
    return out


# -- regressions (statsmodels) -------------------------------------------------------------------
@dataclass(frozen=True)
class Effects:
    """A fitted regression: each feature's average marginal effect with its interval, and the fit's facts."""

    model: str
    """``logit`` (win or not) or ``ols`` (a score)."""
    outcome: str
    effects: dict[str, dict[str, float]]
    """Per feature: ``coef``, ``p``, ``ame``, ``ame_low``, ``ame_high`` (the AME is the coefficient for OLS)."""
    controls: tuple[str, ...]
    observations: int
    dropped: tuple[str, ...]
    """Features left out: constant, or collinear with the controls."""
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """The fit as JSON."""
        return {"model": self.model, "outcome": self.outcome, "effects": self.effects, "controls": list(self.controls),
                "observations": self.observations, "dropped": list(self.dropped), "note": self.note}


def fit_effects(data: pd.DataFrame, outcome: str, features: Sequence[str], controls: Sequence[str] = (),
                categorical: Sequence[str] = (), groups: str | None = None, model: str = "logit") -> Effects:
    """Regress ``outcome`` on ``features`` plus controls with statsmodels (Logit or OLS), errors clustered by ``groups``.

    Numeric ``controls`` enter as they are, ``categorical`` ones as dummies (first level dropped);
    features without variance are dropped and named in ``dropped``.
    """
    from statsmodels.discrete.discrete_model import Logit  # type: ignore[import-untyped]
    from statsmodels.regression.linear_model import OLS  # type: ignore[import-untyped]
    from statsmodels.tools.tools import add_constant  # type: ignore[import-untyped]

    y = data[outcome].astype(float)
    kept = [f for f in features if data[f].astype(float).std() > 0]
    dropped = [f for f in features if f not in kept]
    parts = [data[kept].astype(float)]
    used_controls: list[str] = []
    for c in controls:
        if data[c].astype(float).std() > 0:
            parts.append(data[[c]].astype(float))
            used_controls.append(c)
    for c in categorical:
        if data[c].nunique() > 1:
            dummies = pd.get_dummies(data[c].astype(str), prefix=c, drop_first=True).astype(float)
            parts.append(dummies)
            used_controls.append(c)
    X = add_constant(pd.concat(parts, axis=1), has_constant="add")
    X = X.loc[:, ~X.columns.duplicated()]
    # drop features collinear with the rest (a card every deck holds and every seat draws)
    rank_ok = list(X.columns)
    if np.linalg.matrix_rank(X.to_numpy()) < X.shape[1]:
        rank_ok = []
        for col in X.columns:
            trial = [*rank_ok, col]
            if np.linalg.matrix_rank(X[trial].to_numpy()) == len(trial):
                rank_ok.append(col)
        for col in X.columns:
            if col not in rank_ok and col in kept:
                kept.remove(col)
                dropped.append(col)
        X = X[rank_ok]
    cov: dict[str, Any] = {}
    if groups is not None:
        cov = {"cov_type": "cluster", "cov_kwds": {"groups": data[groups].to_numpy()}}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if model == "logit":
            try:
                res = Logit(y, X).fit(disp=0, maxiter=200, **cov)
                marg = res.get_margeff(at="overall", method="dydx")
                names = list(X.columns[1:])
                ame = dict(zip(names, np.asarray(marg.margeff), strict=True))
                ci = np.asarray(marg.conf_int())
                ame_ci = {n: (float(ci[i, 0]), float(ci[i, 1])) for i, n in enumerate(names)}
            except Exception as exc:  # perfect separation, a singular matrix: say so in the report
                return Effects(model, outcome, {}, tuple(used_controls), len(y), tuple(dropped),
                               f"the logistic regression could not be fitted: {type(exc).__name__}: {exc}")
        else:
            res = OLS(y, X).fit(**cov)
            names = list(X.columns[1:])
            ame = {n: float(res.params[n]) for n in names}
            ci_frame = res.conf_int()
            ame_ci = {n: (float(ci_frame.loc[n, 0]), float(ci_frame.loc[n, 1])) for n in names}
    notes = sorted({f"{w.category.__name__}: {str(w.message).splitlines()[0]}" for w in caught
                    if w.category.__name__ in _FIT_WARNINGS})
    note = "; ".join(notes)
    effects = {}
    for name in kept:
        effects[name] = {"coef": float(res.params[name]), "p": float(res.pvalues[name]), "ame": float(ame[name]),
                         "ame_low": ame_ci[name][0], "ame_high": ame_ci[name][1]}
    return Effects(model, outcome, effects, tuple(used_controls), len(y), tuple(dropped), note)


_FIT_WARNINGS = ("PerfectSeparationWarning", "ConvergenceWarning", "HessianInversionWarning")
"""statsmodels warnings that make a fit's numbers unreliable; a report names them."""


# -- per-game strength tables (each game's kit names its own as ``report_tables``) -----------------
def seat_data(fr: Frames, extra: Mapping[str, np.ndarray | pd.Series]) -> pd.DataFrame:
    """The seat-game rows with a ``first`` column and the ``extra`` columns, ready for a regression."""
    data = fr.seats.copy()
    data["first"] = (data["position"] == 0).astype(float)
    turns = data["turns"].astype(float)
    data["turns_z"] = (turns - turns.mean()) / turns.std() if turns.std() > 0 else 0.0
    for key, values in extra.items():
        data[key] = np.asarray(values, dtype=float)
    return data


def control_columns(fr: Frames) -> tuple[list[str], list[str]]:
    """Numeric and categorical controls: the seat's position, and the context that varies."""
    categorical = [c for c in ("spec", "ctx_deck", "ctx_opponent_deck", "ctx_option_set") if c in fr.seats
                   and fr.seats[c].nunique() > 1]
    if fr.players > 2:
        return [], ["position", *categorical]
    return (["first"] if fr.players == 2 else []), categorical


def feature_table(fr: Frames, table: pd.DataFrame, label: str, descriptions: Mapping[str, str] | None = None,
                  model_outcome: str = "won") -> dict[str, Any]:
    """Per feature (a column of per-seat-game counts): how often it is used, the win rate when it is and is
    not used (bootstrap intervals), and its controlled marginal effect per use (statsmodels)."""
    if table.empty:
        return {"label": label, "rows": [], "fit": None}
    used = {c: (table[c].to_numpy() > 0) for c in table.columns}
    specs = []
    for c in table.columns:
        specs.append(RateSpec(f"{c}|used", used[c]))
        specs.append(RateSpec(f"{c}|unused", ~used[c]))
        specs.append(RateSpec(f"{c}|diff", used[c], ~used[c]))
    solo = fr.players == 1
    outcome = fr.seats["score"].to_numpy(dtype=float) if solo else None
    rates = bootstrap_rates(fr, specs, outcome=outcome)
    columns = {f"f{i}": c for i, c in enumerate(table.columns)}
    data = seat_data(fr, {k: table[c].to_numpy() for k, c in columns.items()})
    numeric, categorical = control_columns(fr)
    fit = fit_effects(data, "score" if solo else model_outcome, list(columns), [*numeric, "turns_z"], categorical,
                      groups="game", model="ols" if solo else "logit")
    rows = []
    for key, c in columns.items():
        n_used = int(used[c].sum())
        row: dict[str, Any] = {"feature": c, "description": (descriptions or {}).get(c, ""),
                               "seat_games": len(table), "used_in": n_used, "share_used": n_used / max(1, len(table)),
                               "mean_uses": float(table[c].mean()),
                               "when_used": rates[f"{c}|used"], "when_unused": rates[f"{c}|unused"],
                               "difference": rates[f"{c}|diff"], "effect": fit.effects.get(key)}
        rows.append(row)
    fit_json = fit.to_json()
    fit_json["effects"] = {columns[k]: v for k, v in fit.effects.items()}
    fit_json["dropped"] = [columns.get(d, d) for d in fit.dropped]
    return {"label": label, "measure": "mean score" if solo else "win rate", "rows": rows, "fit": fit_json}


MIN_SEAT_GAMES = 30
"""An estimate from fewer seat-games with (or without) the item than this is greyed out as too few."""
MIN_LOADOUTS = 10
"""A run identifies the strength of what a deck or loadout holds only if it has at least this many different ones."""


class Refusal:
    """Why a report shows no strength for an item (the reasons' codes; the report words them)."""

    FIXED_LOADOUTS = "fixed_loadouts"
    """Every seat plays the same few decks or loadouts: an item's effect is its loadout's and its seat's."""
    WITH_SEAT = "with_seat"
    """In some turn position every seat-game holds the item, or none does."""
    NO_VARIATION = "no_variation"
    """Every seat-game holds it, or none does."""


def identified(fr: Frames, held: pd.DataFrame, signature: Sequence[str]) -> dict[str, str | None]:
    """Per item of a deck or loadout (``held``: copies per seat-game): None if its strength is identified,
    else the :class:`Refusal` code. ``signature`` names each seat-game's deck or loadout."""
    loadouts = len(set(signature))
    out: dict[str, str | None] = {}
    position = fr.seats["position"].to_numpy()
    for c in held.columns:
        has = held[c].to_numpy() > 0
        if has.all() or not has.any():
            out[str(c)] = Refusal.NO_VARIATION
        elif loadouts < MIN_LOADOUTS:
            out[str(c)] = Refusal.FIXED_LOADOUTS
        elif any(has[position == p].all() or not has[position == p].any() for p in np.unique(position)):
            out[str(c)] = Refusal.WITH_SEAT
        else:
            out[str(c)] = None
    return out


def composition_table(fr: Frames, held: pd.DataFrame, signature: Sequence[str], label: str,
                      categorical: Sequence[str] = ()) -> dict[str, Any]:
    """Per item a deck or loadout holds: seat-games with and without it, their win rates, and its controlled
    effect per copy (logit on every item's copies, the turn position and ``categorical``), where identified."""
    if held.empty:
        return {"label": label, "rows": [], "fit": None, "loadouts": 0}
    why = identified(fr, held, signature)
    specs = []
    for c in held.columns:
        has = held[c].to_numpy() > 0
        specs += [RateSpec(f"{c}|with", has), RateSpec(f"{c}|without", ~has), RateSpec(f"{c}|diff", has, ~has)]
    rates = bootstrap_rates(fr, specs)
    columns = {f"h{i}": c for i, c in enumerate(held.columns)}
    ok = [k for k, c in columns.items() if why[str(c)] is None]
    fit = None
    if ok:
        data = seat_data(fr, {k: held[c].to_numpy() for k, c in columns.items()})
        numeric = ["first"] if fr.players == 2 else []
        cats = ["position"] if fr.players > 2 else []
        fit = fit_effects(data, "won", ok, numeric, [*cats, *[c for c in categorical if c in data]], groups="game")
    rows = []
    for key, c in columns.items():
        has = held[c].to_numpy() > 0
        n_with, n_without = int(has.sum()), int((~has).sum())
        effect = fit.effects.get(key) if fit is not None else None
        rows.append({"feature": str(c), "seat_games_with": n_with, "seat_games_without": n_without,
                     "when_held": rates[f"{c}|with"], "when_not": rates[f"{c}|without"],
                     "difference": rates[f"{c}|diff"], "effect": effect, "refused": why[str(c)],
                     "few": min(n_with, n_without) < MIN_SEAT_GAMES})
    fit_json = None
    if fit is not None:
        fit_json = fit.to_json()
        fit_json["effects"] = {columns[k]: v for k, v in fit.effects.items()}
        fit_json["dropped"] = [columns.get(d, d) for d in fit.dropped]
    return {"label": label, "rows": rows, "fit": fit_json, "loadouts": len(set(signature)), "composition": True}


def analyse(run: LoadedRun) -> dict[str, Any]:
    """Every number of a run's report, JSON-safe."""
    fr = frames(run.games)
    info = run.info
    out: dict[str, Any] = {
        "run": {"name": info.name, "game": info.config.game, "config": info.config.to_json(),
                "planned": info.planned, "stored": len(run.games), "complete": run.complete,
                "players": fr.players},
        "seats": seat_advantage(fr) if len(run.games) else {},
        "draws": draws(fr) if len(run.games) else {},
        "points": points(fr) if len(run.games) and fr.players > 1 else {},
        "lengths": lengths(fr) if len(run.games) else {},
        "endings": endings(fr) if len(run.games) else [],
        "scores": scores(fr) if len(run.games) else [],
    }
    tables: Callable[[Frames], dict[str, Any]] | None = registry.part(info.config.game, "report_tables", required=False)
    out["strength"] = tables(fr) if tables is not None and len(run.games) else {}
    safe: dict[str, Any] = _json_safe(out)
    return safe


def _json_safe(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        f = float(value)
        return f if math.isfinite(f) else None
    if isinstance(value, np.bool_):
        return bool(value)
    return value
