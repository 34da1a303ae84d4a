"""Automatic balancing: search a card set's numbers with Optuna until the designer's target is met.

``cardtable lab tune zeta --vary ice_mage.cost=3..8 --vary fire_mage.cost=3..8 --target seat=0.5`` tries
card sets (Optuna's TPE sampler), each on the same paired seeds in steps of ``step_games`` games: after each
step the trial reports its objective so far and the successive-halving pruner stops the trials that are
behind the others at that step, so a bad candidate costs a step or two, not a whole evaluation. The games
of a step are played in worker processes. The study lives in an SQLite file, so a stopped search goes on
where it was when the command runs again with the same ``--store`` and ``--name``.

Then the best few distinct sets are played again on fresh seeds the search never saw (the held-out check:
the best of many noisy trials looks better than it is), each against the original set on those same
seeds, with 95% intervals; the sets are written as card-set files, with a chart of the search and a report
in English and Japanese. A designer should then check a set with a stronger agent (``check_agent``): the
search tunes the game as the heuristic players play it.

>>> parse_vary("zeta", "ice_mage.cost=3..8")
Dimension(key='ice_mage.cost', low=3, high=8, choices=())
>>> parse_target("seat=0.5"), parse_target("length=30")
(('seat', 0.5), ('length', 30.0))
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from cardtable.core.cardset import CardSet, default_set, spec_of
from cardtable.core.registry import game_class
from cardtable.core.rules import parse_value

from .stats import wilson
from .sweep import first_scores, mean_interval, paired_first, play_games

HELD_OUT_OFFSET = 1_000_003
"""Held-out seeds are the search seed plus this: games the search never played."""


@dataclass(frozen=True)
class Dimension:
    """One number (or rule flag) the search varies: a whole-number range, or a list of choices."""

    key: str
    low: int = 0
    high: int = 0
    choices: tuple[Any, ...] = ()


def parse_vary(game: str, text: str) -> Dimension:
    """``KEY=lo..hi`` (whole numbers) or ``KEY=a,b,c`` (choices), for a card-set number or a rule flag."""
    key, eq, raw = text.partition("=")
    key = key.strip()
    if not eq:
        raise ValueError(f"--vary takes KEY=lo..hi or KEY=a,b,c (e.g. ice_mage.cost=3..8), not {text!r}")
    raw = raw.strip()
    if "." in key:
        spec = spec_of(game)
        number = spec.number(key)
        if number.fixed:
            raise ValueError(f"{spec.describe(key)} is fixed at {number.default} in this version")
        if number.flag:
            return parse_vary(game, f"{number.flag}={raw}")
        lo, dots, hi = raw.partition("..")
        try:
            if dots:
                dim = Dimension(key, int(lo), int(hi))
            else:
                dim = Dimension(key, choices=tuple(int(v) for v in raw.split(",")))
        except ValueError:
            raise ValueError(f"{spec.describe(key)}: {raw!r} is not lo..hi or a list of whole numbers") from None
        values = range(dim.low, dim.high + 1) if not dim.choices else dim.choices
        bad = [v for v in values if not number.minimum <= v <= number.maximum]
        if bad or (not dim.choices and dim.low > dim.high):
            raise ValueError(f"{spec.describe(key)}: {raw} leaves {number.minimum}-{number.maximum}")
        return dim
    flags = {s.name: s for s in game_class(game).Rules.flag_specs()}
    flag_spec = flags.get(key.replace("-", "_"))
    if flag_spec is None:
        raise ValueError(f"{key!r} is neither a card-set number (item.field) nor a rule flag of {game}")
    lo, dots, hi = raw.partition("..")
    if dots and flag_spec.kind is int:
        return Dimension(flag_spec.name, int(lo), int(hi))
    return Dimension(flag_spec.name, choices=tuple(parse_value(flag_spec, v.strip()) for v in raw.split(",")))


def parse_target(text: str) -> tuple[str, float]:
    """``seat=0.5`` (the first player's score), ``length=N`` (actions per game): the name and the goal."""
    name, eq, raw = text.partition("=")
    name = name.strip()
    if name not in ("seat", "length") or not eq:
        raise ValueError(f"--target takes seat=SHARE (e.g. seat=0.5) or length=ACTIONS, not {text!r}")
    try:
        goal = float(raw)
    except ValueError:
        raise ValueError(f"--target {name}: {raw!r} is not a number") from None
    if name == "seat" and not 0 <= goal <= 1:
        raise ValueError(f"--target seat is a share between 0 and 1, not {goal}")
    return name, goal


@dataclass
class TuneSettings:
    """What a search plays and aims at."""

    game: str
    dims: tuple[Dimension, ...]
    targets: tuple[tuple[str, float], ...] = (("seat", 0.5),)
    base: CardSet | None = None
    agents: tuple[str, ...] = ("heuristic",)
    step_games: int = 200
    steps: int = 8
    seed: int = 0
    change_cost: float = 0.002
    """Added to the objective per number changed from the original set: of two equal sets, the smaller change."""
    max_actions: int | None = None
    setup: Mapping[str, Any] = field(default_factory=dict)

    def original(self) -> CardSet:
        """The set the search starts from."""
        return self.base or default_set(self.game)


def candidate(settings: TuneSettings, params: Mapping[str, Any]) -> CardSet:
    """The card set of a trial's parameters (ValueError if the set breaks a rule)."""
    base = settings.original()
    by_flag = {n.flag: n.key for n in spec_of(settings.game).numbers if n.flag}
    numbers = {k if "." in k else by_flag[k]: int(v) for k, v in params.items() if "." in k or k in by_flag}
    flags = {k: v for k, v in params.items() if "." not in k and k not in by_flag}
    return base.replace(numbers, name=f"{base.name}-tuned", flags=flags)


def objective_value(settings: TuneSettings, scores: np.ndarray, lengths: np.ndarray, changes: int) -> float:
    """How far a set is from the targets (0: on target), plus the cost of its changes."""
    total = 0.0
    for name, goal in settings.targets:
        if name == "seat":
            total += abs(float(scores.mean()) - goal)
        else:
            total += abs(float(lengths.mean()) - goal) / max(goal, 1.0)
    return total + settings.change_cost * changes


def step_seed(seed: int, step: int) -> int:
    """The seed of a search step: every trial plays the same games at the same step (paired)."""
    return seed * 1009 + step


def suggest(trial: Any, dims: Sequence[Dimension]) -> dict[str, Any]:
    """A trial's values for every dimension."""
    out: dict[str, Any] = {}
    for d in dims:
        out[d.key] = (trial.suggest_categorical(d.key, list(d.choices)) if d.choices
                      else trial.suggest_int(d.key, d.low, d.high))
    return out


def changed_count(settings: TuneSettings, cs: CardSet) -> int:
    """How many numbers and flags differ from the original set."""
    base = settings.original()
    return (sum(1 for k, v in cs.values.items() if base.values[k] != v)
            + sum(1 for k, v in cs.flags.items() if base.flags.get(k) != v))


def run_search(settings: TuneSettings, *, storage: Any, name: str, trials: int, timeout: float | None = None,
               executor: Executor | None = None, workers: int = 1,
               progress: Callable[[int, int, float | None], None] | None = None) -> Any:
    """Run (or go on with) the Optuna study ``name`` in ``storage`` until it holds ``trials`` finished trials.

    ``storage`` is what Optuna takes: a database URL (the command line's SQLite file) or a storage object
    (the studio's journal in the server's store).
    """
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(
        study_name=name, storage=storage, load_if_exists=True, direction="minimize",
        sampler=optuna.samplers.TPESampler(seed=settings.seed, n_startup_trials=8),
        pruner=optuna.pruners.SuccessiveHalvingPruner(min_resource=1, reduction_factor=3))
    study.set_user_attr("settings", settings_json(settings))
    if not study.trials:  # the original set first: the search's yardstick
        study.enqueue_trial({d.key: _original_value(settings, d.key) for d in settings.dims})
    done = _finished(study)
    started = time.monotonic()

    def objective(trial: Any) -> float:
        params = suggest(trial, settings.dims)
        try:
            cs = candidate(settings, params)
        except ValueError as exc:
            trial.set_user_attr("refused", str(exc))
            raise optuna.TrialPruned(str(exc)) from None
        flags = cs.rule_flags()
        scores: list[np.ndarray] = []
        lengths: list[np.ndarray] = []
        changes = changed_count(settings, cs)
        value = math.inf
        for step in range(settings.steps):
            try:
                played = play_games(settings.game, flags, agents=settings.agents, games=settings.step_games,
                                    seed=step_seed(settings.seed, step), setup=settings.setup,
                                    max_actions=settings.max_actions, executor=executor, workers=workers)
            except ValueError as exc:
                trial.set_user_attr("refused", str(exc))
                raise optuna.TrialPruned(str(exc)) from None
            scores.append(first_scores(played))
            lengths.append(np.array([g.length for g in played], dtype=float))
            value = objective_value(settings, np.concatenate(scores), np.concatenate(lengths), changes)
            trial.report(value, step + 1)
            if trial.should_prune():
                trial.set_user_attr("games", sum(len(s) for s in scores))
                raise optuna.TrialPruned()
        allscores = np.concatenate(scores)
        trial.set_user_attr("games", len(allscores))
        trial.set_user_attr("seat", float(allscores.mean()))
        trial.set_user_attr("length", float(np.concatenate(lengths).mean()))
        trial.set_user_attr("hash", cs.hash)
        return value

    while _finished(study) < trials:
        if timeout is not None and time.monotonic() - started > timeout:
            break
        study.optimize(objective, n_trials=1, catch=())
        if progress is not None:
            best = _best_value(study)
            progress(_finished(study) - done, max(1, trials - done), best)
    return study


def _finished(study: Any) -> int:
    import optuna

    return sum(1 for t in study.trials if t.state in (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED))


def _best_value(study: Any) -> float | None:
    try:
        return float(study.best_value)
    except ValueError:
        return None


def _original_value(settings: TuneSettings, key: str) -> Any:
    from .sweep import value_of

    return value_of(settings.original(), key)


def settings_json(settings: TuneSettings) -> dict[str, Any]:
    """The search's settings as JSON (kept with the study)."""
    return {"game": settings.game, "dims": [d.__dict__ | {"choices": list(d.choices)} for d in settings.dims],
            "targets": [list(t) for t in settings.targets], "agents": list(settings.agents),
            "step_games": settings.step_games, "steps": settings.steps, "seed": settings.seed,
            "base": settings.original().name, "base_hash": settings.original().hash}


def best_sets(settings: TuneSettings, study: Any, k: int = 3) -> list[tuple[CardSet, dict[str, Any]]]:
    """The ``k`` best distinct finished (not pruned) trials' card sets, best first, with their search numbers."""
    import optuna

    done = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE and t.value is not None]
    done.sort(key=lambda t: t.value)
    out: list[tuple[CardSet, dict[str, Any]]] = []
    seen: set[str] = set()
    for t in done:
        try:
            cs = candidate(settings, t.params)
        except ValueError:
            continue
        if cs.hash in seen:
            continue
        seen.add(cs.hash)
        named = CardSet(cs.game, f"{settings.original().name}-tuned-{len(out) + 1}", cs.values, cs.flags)
        out.append((named, {"trial": t.number, "value": t.value, "seat": t.user_attrs.get("seat"),
                            "games": t.user_attrs.get("games")}))
        if len(out) == k:
            break
    return out


def held_out_seed(settings: TuneSettings) -> int:
    """The seed of the held-out check's games (none of them a game the search played)."""
    return settings.seed + HELD_OUT_OFFSET


def verify(settings: TuneSettings, sets: Sequence[CardSet], *, games: int, agents: Sequence[str] | None = None,
           executor: Executor | None = None, workers: int = 1,
           played: Callable[[CardSet], Sequence[Any]] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The original and each set on held-out seeds: first player's score, the paired change, length.

    ``played`` gives a set's held-out games when they were played (and stored) elsewhere, as the studio
    does: the lab run of ``games`` games on :func:`held_out_seed` under the set's rule flags.
    """
    seed = held_out_seed(settings)
    who = tuple(agents or settings.agents)

    def play(cs: CardSet) -> Sequence[Any]:
        if played is not None:
            return played(cs)
        return play_games(settings.game, cs.rule_flags(), agents=who, games=games, seed=seed, setup=settings.setup,
                          max_actions=settings.max_actions, executor=executor, workers=workers)

    base_games = play(settings.original())
    base = {"first": mean_interval(first_scores(base_games)), "games": len(base_games),
            "length": mean_interval(np.array([g.length for g in base_games], dtype=float)),
            "wins": _win_rate(base_games)}
    rows = []
    for cs in sets:
        mine = play(cs)
        rows.append({"name": cs.name, "hash": cs.hash, "first": mean_interval(first_scores(mine)),
                     "difference": paired_first(base_games, mine), "games": len(mine),
                     "length": mean_interval(np.array([g.length for g in mine], dtype=float)),
                     "wins": _win_rate(mine)})
    return base, rows


def _win_rate(played: Sequence[Any]) -> dict[str, float]:
    """The first player's share of the decisive games, with its Wilson interval."""
    decisive = [g for g in played if g.winners]
    won = sum(1 for g in decisive if (g.facts.first_player or 0) in g.winners)
    r = wilson(won, len(decisive))
    return {"value": r.value, "low": r.low, "high": r.high}


def search_plot(study: Any, settings: TuneSettings) -> bytes:
    """The search as one chart: each trial's objective (finished, and pruned at its last step), the best so far."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import optuna

    fig, (ax, bx) = plt.subplots(1, 2, figsize=(9, 3.4))
    best = math.inf
    xs, ys, bests, px, py = [], [], [], [], []
    for t in study.trials:
        last = t.value if t.value is not None else (max(t.intermediate_values.items())[1]
                                                    if t.intermediate_values else None)
        if last is None:
            continue
        if t.state == optuna.trial.TrialState.COMPLETE:
            xs.append(t.number)
            ys.append(100 * last)
            best = min(best, last)
        elif t.state == optuna.trial.TrialState.PRUNED:
            px.append(t.number)
            py.append(100 * last)
        bests.append((t.number, 100 * best))
    ax.scatter(px, py, s=10, color="#bbbbbb", label="pruned (last step)")
    ax.scatter(xs, ys, s=14, color="#3b6ea8", label="finished")
    if bests:
        ax.step([b[0] for b in bests], [b[1] for b in bests], where="post", color="#d9822b", label="best so far")
    ax.set_xlabel("trial")
    ax.set_ylabel("distance from target (points)")
    ax.set_yscale("symlog", linthresh=1)
    ax.legend(fontsize=7)
    ax.set_title(f"{settings.game}: search ({len(study.trials)} trials)", fontsize=9)
    for t in study.trials:
        if t.state == optuna.trial.TrialState.COMPLETE or t.intermediate_values:
            steps = sorted(t.intermediate_values.items())
            bx.plot([s for s, _ in steps], [100 * v for _, v in steps], color="#3b6ea8" if
                    t.state == optuna.trial.TrialState.COMPLETE else "#cccccc", linewidth=0.7)
    bx.set_xlabel(f"step ({settings.step_games} paired games each)")
    bx.set_ylabel("distance from target (points)")
    bx.set_yscale("symlog", linthresh=1)
    bx.set_title("successive halving: trials stopped early in grey", fontsize=9)
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    return buffer.getvalue()


def _pc(r: Mapping[str, float]) -> str:
    return f"{100 * r['value']:.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"


def _pts(r: Mapping[str, float]) -> str:
    return f"{100 * r['value']:+.1f} [{100 * r['low']:+.1f}, {100 * r['high']:+.1f}]"


def change_words(original: CardSet, cs: CardSet, lang: str) -> str:
    """What a set changes, in words: ``cost of Ice Mage 3 -> 6`` / ``氷術師のコスト 3 → 6``."""
    spec = spec_of(cs.game)
    parts = []
    for key, value in cs.values.items():
        old = original.values[key]
        if old == value:
            continue
        item, _, fld = key.partition(".")
        try:
            it = spec.item(item)
            label, card = (it.ja, it.en), it.kind == "card"
        except KeyError:
            label, card = (item, item), False
        if lang == "ja":
            parts.append(f"{label[0]}の{_JA_FIELDS.get(fld, fld)} {old} → {value}" if card
                         else f"{label[0]}({_JA_FIELDS.get(fld, fld)}) {old} → {value}")
        else:
            parts.append(f"{fld.replace('_', ' ')} of {label[1]} {old} -> {value}" if card
                         else f"{label[1]} ({fld.replace('_', ' ')}) {old} -> {value}")
    for flag, value in cs.flags.items():
        if original.flags.get(flag) != value:
            parts.append(f"{flag} = {value}" if lang != "ja" else f"ルールフラグ {flag} = {value}")
    if not parts:
        return "変更なし(元のまま)" if lang == "ja" else "no change (the original)"
    return ("、" if lang == "ja" else " and ").join(parts)


_JA_FIELDS = {"cost": "コスト", "limit": "上限枚数", "draw": "ドロー枚数", "destroy": "破壊枚数", "hand": "手札条件",
              "cap": "コスト上限", "destroyed": "破壊枚数条件", "first": "先手", "second": "後手",
              "start": "開始時", "second_player_bonus": "後手への追加", "value": "値", "budget": "予算", "limit_sets": "セット数上限"}


def report_text(settings: TuneSettings, base: Mapping[str, Any], rows: Sequence[Mapping[str, Any]],
                sets: Sequence[CardSet], study_info: Mapping[str, Any], lang: str, check: Sequence[Mapping[str, Any]] = ()
                ) -> str:
    """The search's report (Markdown) in English or Japanese: what changed and how it plays on held-out seeds."""
    original = settings.original()
    ja = lang == "ja"
    games = base["games"]
    lines = [f"# {settings.game}: " + ("自動バランス調整の結果" if ja else "automatic balancing"), ""]
    if ja:
        lines += [f"- 目標: 先手のスコア(勝ち + 引き分けの半分){100 * dict(settings.targets).get('seat', 0.5):.0f}%",
                  f"- 探索: {study_info['trials']} 回の試行(うち {study_info['pruned']} 回は途中で打ち切り)、"
                  f"{study_info['games']} ゲーム、{study_info['seconds'] / 60:.1f} 分、プレイヤー: {', '.join(settings.agents)}",
                  f"- 検証: 探索に使っていない新しいシードで {games} ゲーム(各セットと元のセットを同じシードで比較、95% 区間)",
                  f"- 元のセット ({original.name} #{original.hash}): 先手 {_pc(base['first'])}", ""]
    else:
        lines += [f"- target: the first player's score (wins + half the draws) at "
                  f"{100 * dict(settings.targets).get('seat', 0.5):.0f}%",
                  f"- search: {study_info['trials']} trials ({study_info['pruned']} stopped early), "
                  f"{study_info['games']} games, {study_info['seconds'] / 60:.1f} minutes, players: {', '.join(settings.agents)}",
                  f"- check: {games} games on fresh seeds the search never played (each set against the original "
                  "on the same seeds, 95% intervals)",
                  f"- the original ({original.name} #{original.hash}): first player {_pc(base['first'])}", ""]
    for cs, row in zip(sets, rows, strict=True):
        inside = 0.48 <= row["first"]["value"] <= 0.52
        if ja:
            lines.append(f"- **{cs.name}** (#{cs.hash}, ファイル {cs.name}.toml): {change_words(original, cs, 'ja')}: "
                         f"先手 {_pc(base['first'])} → {_pc(row['first'])}(差 {_pts(row['difference'])} ポイント)"
                         f"{'、48〜52% の範囲内' if inside else ''}; 平均 {row['length']['value']:.1f} 手")
        else:
            lines.append(f"- **{cs.name}** (#{cs.hash}, file {cs.name}.toml): {change_words(original, cs, 'en')}: "
                         f"first player {_pc(base['first'])} -> {_pc(row['first'])} (change {_pts(row['difference'])} "
                         f"points){', inside 48-52%' if inside else ''}; {row['length']['value']:.1f} actions a game")
    if check:
        lines += ["", "## " + ("より強いエージェントでの確認" if ja else "Checked with a stronger agent"), ""]
        for c in check:
            lines.append(f"- {c['name']} ({c['agent']}, {c['games']} " + ("ゲーム): 先手 " if ja else "games): first player ")
                         + _pc(c["first"]))
    lines += ["", "## " + ("注意" if ja else "Limits"), ""]
    if ja:
        lines += ["- 調整はヒューリスティックのプレイヤーが遊んだ場合のものです。人や強いエージェントが遊ぶと"
                  "先手の有利さは変わりえます(--check-agent で確認してください)。",
                  "- 多くの試行から一番よいものを選ぶと、実際より良く見えます。上の数値は探索に使っていない"
                  "シードでの値です。",
                  "- 変更は少ないほど良いとして、変えた数値の数に小さなペナルティを付けています。"]
    else:
        lines += ["- The search tunes the game as the heuristic players play it; people and stronger agents may "
                  "see another first-player edge (check with --check-agent).",
                  "- The best of many noisy trials looks better than it is: the figures above are on seeds the search "
                  "never played.",
                  "- Fewer changes are preferred: each changed number adds a small cost to the objective."]
    return "\n".join(lines) + "\n"


def write_outputs(out: Path, settings: TuneSettings, study: Any, sets: Sequence[CardSet], base: Mapping[str, Any],
                  rows: Sequence[Mapping[str, Any]], seconds: float, check: Sequence[Mapping[str, Any]] = ()
                  ) -> list[Path]:
    """The card-set files, the chart, the reports (en, ja) and the numbers (JSON) into ``out``."""
    import optuna

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for cs in sets:
        p = out / f"{cs.name}.toml"
        p.write_text(cs.to_toml("en"), encoding="utf-8")
        written.append(p)
    chart = out / "search.png"
    chart.write_bytes(search_plot(study, settings))
    written.append(chart)
    pruned = sum(1 for t in study.trials if t.state == optuna.trial.TrialState.PRUNED)
    games = sum(int(t.user_attrs.get("games", 0) or 0) for t in study.trials)
    info = {"trials": len(study.trials), "pruned": pruned, "games": games, "seconds": seconds}
    for lang in ("en", "ja"):
        p = out / f"report.{lang}.md"
        p.write_text(report_text(settings, base, rows, sets, info, lang, check), encoding="utf-8")
        written.append(p)
    p = out / "tune.json"
    p.write_text(json.dumps({"settings": settings_json(settings), "search": info, "original": base,
                             "sets": [{"name": cs.name, "hash": cs.hash, "changes": cs.changed(), "flags": dict(cs.flags),
                                       **row} for cs, row in zip(sets, rows, strict=True)],
                             "check": list(check)}, indent=2, ensure_ascii=False), encoding="utf-8")
    written.append(p)
    return written
