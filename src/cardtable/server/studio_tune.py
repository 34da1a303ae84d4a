"""The studio's ``tune`` studies: the lab's Optuna search (:mod:`cardtable.lab.tune`) run by the server.

A designer ticks numbers of a card set, each with a range, and a target (the first player's share,
50% by default). The search is the command line's ``cardtable lab tune``: its trials play on the
studio's worker pool, and its Optuna study lives in the server's own store (a journal, one entry a
row of ``studio_tune_log``), so a search cut short by a restart goes on with the trials it finished.
Then the best sets are checked on fresh seeds the search never played, each against the original
on the same seeds: those games are lab runs stored like every other study's, so the check resumes
too, and the report reads them through the lab's own :func:`cardtable.lab.tune.verify`.

>>> options = TuneOptions.from_body("zeta", {"vary": [{"key": "fire_mage.cost", "low": 3, "high": 6}], "trials": 4})
>>> options.vary, options.trials, options.target
((('fire_mage.cost', 3, 6),), 4, 0.5)
>>> TuneOptions.from_json(options.to_json()) == options
True
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select

from cardtable.core.cardset import CardSet, set_from_flags
from cardtable.lab.study import StudyConfig
from cardtable.store import Store
from cardtable.store.studio_models import StudioTuneLogRow

MAX_TRIALS = 200
"""The most trials one search may hold."""
MAX_NUMBERS = 6
"""The most numbers one search may vary."""
MAX_STEP_GAMES = 2_000
"""The most paired games of one step of a trial."""
MAX_STEPS = 12
"""The most steps of a full trial."""
BEST = 3
"""How many of the best sets a study checks on fresh seeds and reports."""


class Stopped(Exception):
    """The study was cancelled (or its server stops) while the search ran."""


@dataclass(frozen=True)
class TuneOptions:
    """What a tune study searches: the numbers and their ranges, the target, the trial budget and the check."""

    vary: tuple[tuple[str, int, int], ...]
    """Each number (``item.field``) with its least and largest value."""
    target: float = 0.5
    """The first player's share of the points the search aims at."""
    trials: int = 20
    step_games: int = 100
    """Paired games a step of a trial plays (successive halving stops bad trials after a step or two)."""
    steps: int = 4
    best: int = BEST
    name: str = ""
    """The name of the set the search starts from (its variant's label is the name and its hash)."""

    def to_json(self) -> dict[str, Any]:
        """The options as JSON (kept in the study's request)."""
        return {"vary": [{"key": k, "low": lo, "high": hi} for k, lo, hi in self.vary], "target": self.target,
                "trials": self.trials, "step_games": self.step_games, "steps": self.steps, "best": self.best,
                "name": self.name}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TuneOptions:
        """Read ``to_json``'s output."""
        return cls(tuple((str(v["key"]), int(v["low"]), int(v["high"])) for v in data["vary"]),
                   float(data.get("target", 0.5)), int(data["trials"]), int(data["step_games"]), int(data["steps"]),
                   int(data.get("best", BEST)), str(data.get("name") or ""))

    @classmethod
    def from_body(cls, game: str, body: Mapping[str, Any]) -> TuneOptions:
        """The options of an API body (ValueError saying what is wrong), each number checked as ``--vary`` is."""
        from cardtable.lab.tune import parse_target, parse_vary

        vary = body.get("vary")
        if not isinstance(vary, list) or not 1 <= len(vary) <= MAX_NUMBERS:
            raise ValueError(f"a tune needs vary: 1 to {MAX_NUMBERS} numbers, each {{key, low, high}}")
        dims: list[tuple[str, int, int]] = []
        for v in vary:
            if not isinstance(v, dict) or not all(_whole(v.get(f)) for f in ("low", "high")):
                raise ValueError("vary: each number is {key, low, high} with whole numbers low and high")
            key = str(v.get("key") or "")
            if "." not in key:
                raise ValueError(f"vary: {key!r} is not a card-set number (item.field)")
            dim = parse_vary(game, f"{key}={v['low']}..{v['high']}")
            if dim.low == dim.high:
                raise ValueError(f"vary: {key} needs a range of two values or more, not {dim.low}..{dim.high}")
            dims.append((dim.key, dim.low, dim.high))
        if len({k for k, _, _ in dims}) != len(dims):
            raise ValueError("vary: each number once")
        target = body.get("target", 0.5)
        if not isinstance(target, (int, float)) or isinstance(target, bool):
            raise ValueError("target: the first player's share, a number between 0 and 1")
        _, goal = parse_target(f"seat={target}")
        out = {}
        for field_name, default, most in (("trials", 20, MAX_TRIALS), ("step_games", 100, MAX_STEP_GAMES),
                                          ("steps", 4, MAX_STEPS), ("best", BEST, BEST)):
            value = body.get(field_name, default)
            if not _whole(value) or not 1 <= value <= most:
                raise ValueError(f"{field_name}: a whole number from 1 to {most:,}")
            out[field_name] = int(value)
        return cls(tuple(dims), goal, out["trials"], out["step_games"], out["steps"], out["best"],
                   str(body.get("name") or "").strip()[:64])

    def describe(self) -> str:
        """The numbers and their ranges: ``fire_mage.cost 3..6, ice_mage.cost 2..5``."""
        return ", ".join(f"{k} {lo}..{hi}" for k, lo, hi in self.vary)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def settings_of(config: StudyConfig, options: TuneOptions) -> Any:
    """The lab's search settings (:class:`cardtable.lab.tune.TuneSettings`) of a tune study whose original set
    plays ``config`` (its game, agents, seed, setup and the set's rule flags)."""
    from cardtable.lab.tune import Dimension, TuneSettings

    base = set_from_flags(config.game, config.rules, name=options.name)
    dims = tuple(Dimension(k, lo, hi) for k, lo, hi in options.vary)
    return TuneSettings(config.game, dims, (("seat", options.target),), base, tuple(config.agents),
                        options.step_games, options.steps, config.seed, setup=dict(config.setup),
                        max_actions=config.max_actions)


def check_config(settings: Any, cs: CardSet, games: int) -> StudyConfig:
    """The lab run of a set's held-out check: ``games`` games on the seeds the search never played."""
    from cardtable.lab.tune import held_out_seed

    return StudyConfig(settings.game, tuple(settings.agents), games, held_out_seed(settings), cs.rule_flags(),
                       dict(settings.setup), settings.max_actions)


def set_label(cs: CardSet) -> str:
    """A set as people name it: its name and its hash (``slow ice #3f2a9c01de``)."""
    return f"{cs.name} #{cs.hash}"


def checked_sets(settings: Any, runs: Sequence[tuple[int, Mapping[str, Any]]]) -> list[CardSet]:
    """The sets a study's check plays, from its runs' places and rule flags: place 0 the original, place ``i`` the
    search's ``i``-th best set, named as the search names it (``NAME-tuned-i``)."""
    name = settings.original().name
    return [settings.original() if i == 0 else set_from_flags(settings.game, rules, name=f"{name}-tuned-{i}")
            for i, rules in runs]


def check_places(settings: Any, sets: Sequence[CardSet]) -> list[tuple[int, CardSet]]:
    """The runs a check plays for the search's best ``sets``: the original at place 0, then each set that changes
    something at its place in the search's order (a best set that is the original is the original's run)."""
    original = settings.original()
    return [(0, original), *((i, cs) for i, cs in enumerate(sets, 1) if cs.hash != original.hash)]


# -- Optuna's journal in the server's store ---------------------------------------------------------
def _journal_base() -> type:
    """Optuna's journal backend class (``BaseJournalLogStorage`` before Optuna 4)."""
    import importlib

    try:
        found: type = importlib.import_module("optuna.storages.journal").BaseJournalBackend
    except (ImportError, AttributeError):
        found = importlib.import_module("optuna.storages").BaseJournalLogStorage
    return found


class StoreJournal:
    """Optuna's journal of one study's search as rows of ``studio_tune_log`` (a journal backend: ``read_logs``
    and ``append_logs``). One search writes it at a time; the rows' primary key refuses a second writer's
    entry at a place already taken."""

    def __init__(self, store: Store, study: str) -> None:
        self.store = store
        self.study = study

    def read_logs(self, log_number_from: int) -> Iterable[dict[str, Any]]:
        """The entries from ``log_number_from`` on, in order."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(StudioTuneLogRow.entry).where(
                StudioTuneLogRow.study == self.study, StudioTuneLogRow.seq >= log_number_from)
                .order_by(StudioTuneLogRow.seq)).all()
        return [json.loads(r[0]) for r in rows]

    def append_logs(self, logs: list[dict[str, Any]]) -> None:
        """Add entries at the journal's end, in one transaction."""
        if not logs:
            return
        with self.store.transaction() as conn:
            last = conn.execute(select(func.max(StudioTuneLogRow.seq))
                                .where(StudioTuneLogRow.study == self.study)).scalar()
            start = 0 if last is None else int(last) + 1
            conn.execute(insert(StudioTuneLogRow), [{"study": self.study, "seq": start + i, "entry": json.dumps(log)}
                                                    for i, log in enumerate(logs)])


def storage(store: Store, study: str) -> Any:
    """The Optuna storage of a study's search: a journal storage over :class:`StoreJournal`."""
    from optuna.storages import JournalStorage

    backend = type("StudioJournal", (StoreJournal, _journal_base()), {})(store, study)
    return JournalStorage(backend)


def forget(store: Store, study: str) -> None:
    """Drop a study's search journal."""
    from sqlalchemy import delete

    with store.transaction() as conn:
        conn.execute(delete(StudioTuneLogRow).where(StudioTuneLogRow.study == study))


# -- the search ------------------------------------------------------------------------------------------
class WatchedExecutor(Executor):
    """The studio's pool as a search sees it: each finished batch's games counted for the progress; once the study
    is cancelled, no new batch, and every batch the search still waits for ends at once with :class:`Stopped`.

    The search waits on futures of its own, each finished by the pool's: a future the pool drops (a cancel, the
    pool shutting down) ends its own with Stopped, so a wait on it never hangs (the pool's dropped futures tell
    no one who waits on them).
    """

    def __init__(self, inner: Executor, cancelled: threading.Event, on_games: Callable[[int], None],
                 workers: int) -> None:
        self.inner = inner
        self.cancelled = cancelled
        self.on_games = on_games
        self.workers = workers
        self._lock = threading.Lock()
        self._waiting: dict[Future[Any], Future[Any]] = {}

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Hand a batch to the pool (Stopped once the study is cancelled); the future the search waits on."""
        if self.cancelled.is_set():
            raise Stopped
        mine: Future[Any] = Future()
        mine.set_running_or_notify_cancel()  # it ends with the pool's, or with Stopped
        theirs: Future[Any] = self.inner.submit(fn, *args, **kwargs)
        with self._lock:
            self._waiting[theirs] = mine
        theirs.add_done_callback(self._done)
        return mine

    def _done(self, theirs: Future[Any]) -> None:
        with self._lock:
            mine = self._waiting.pop(theirs, None)
        if mine is not None:
            if theirs.cancelled():
                _finish(mine, error=Stopped())
            elif (error := theirs.exception()) is not None:
                _finish(mine, error=error)
            else:
                result = theirs.result()
                self.on_games(len(result) if isinstance(result, (list, tuple)) else 0)
                _finish(mine, result=result)
        if self.cancelled.is_set():
            self.stop()

    def stop(self) -> None:
        """End every batch the search waits for with Stopped (and drop those the pool has not started)."""
        with self._lock:
            waiting = list(self._waiting.items())
            self._waiting.clear()
        for theirs, mine in waiting:
            theirs.cancel()
            _finish(mine, error=Stopped())

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """The studio's pool outlives a search: only the search's own waits end."""
        self.stop()


def _finish(future: Future[Any], *, result: Any = None, error: BaseException | None = None) -> None:
    """Finish a future once (a second finish, from a stop that raced the pool, is ignored)."""
    from concurrent.futures import InvalidStateError

    try:
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
    except InvalidStateError:
        pass


def finished_trials(study: Any) -> int:
    """Trials that finished or were stopped early (what a search's budget counts)."""
    import optuna

    done = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    return sum(1 for t in study.trials if t.state in done)


def search_state(settings: Any, study: Any | None, trials: int, games_now: int = 0) -> dict[str, Any]:
    """Where a search stands: trials done of the budget, games played, the best set so far in words."""
    from cardtable.lab.tune import best_sets, change_words

    state: dict[str, Any] = {"phase": "search", "trials_done": 0, "trials": trials, "games": games_now, "best": None}
    if study is None:
        return state
    state["trials_done"] = finished_trials(study)
    state["games"] = games_now + sum(int(t.user_attrs.get("games", 0) or 0) for t in study.trials
                                     if t.state.is_finished())
    found = best_sets(settings, study, 1)
    if found:
        cs, info = found[0]
        seat = info.get("seat")
        state["best"] = {"trial": info["trial"], "distance": info["value"], "seat": seat, "hash": cs.hash,
                         "changes": {lang: change_words(settings.original(), cs, lang) for lang in ("en", "ja")}}
    return state


def search(settings: Any, *, store: Store, study: str, trials: int, executor: Executor, workers: int,
           cancelled: threading.Event, on_state: Callable[[dict[str, Any]], None]) -> Any:
    """Run (or go on with) a study's search until it holds ``trials`` finished trials; the Optuna study.

    ``on_state`` hears :func:`search_state` after each trial and each batch of games; a cancel stops the
    search at its next batch (Stopped), the trial it cut short left unfinished in the journal.
    """
    import optuna

    from cardtable.lab.tune import run_search

    journal = storage(store, study)
    played = [0]
    current: list[Any] = [None]
    lock = threading.Lock()

    def load() -> Any:
        try:
            return optuna.load_study(study_name=study, storage=journal)
        except KeyError:  # no trial yet
            return None

    def on_games(n: int) -> None:
        with lock:
            played[0] += n
            now = played[0]
        if current[0] is not None:
            state = dict(current[0])
            state["games"] = state.get("games_done", 0) + now
            on_state(state)

    def publish() -> None:
        with lock:
            played[0] = 0
        state = search_state(settings, load(), trials)
        state["games_done"] = state["games"]
        current[0] = state
        on_state(state)

    def progress(done: int, total: int, best: float | None) -> None:
        publish()
        if cancelled.is_set():
            raise Stopped

    publish()
    watched = WatchedExecutor(executor, cancelled, on_games, workers)
    finished = threading.Event()

    def stop_on_cancel() -> None:  # a cancel ends the batches the search waits for at once
        while not finished.is_set():
            if cancelled.wait(0.2):
                watched.stop()
                return

    threading.Thread(target=stop_on_cancel, name=f"studio-search-{study}", daemon=True).start()
    try:
        return run_search(settings, storage=journal, name=study, trials=trials, executor=watched, workers=workers,
                          progress=progress)
    finally:
        finished.set()


def found_sets(settings: Any, study: Any, best: int) -> list[CardSet]:
    """The best distinct sets of a finished search, best first (the lab's :func:`best_sets`)."""
    from cardtable.lab.tune import best_sets

    return [cs for cs, _ in best_sets(settings, study, best)]


def load_search(store: Store, study: str) -> Any:
    """A finished study's Optuna study, read back from its journal."""
    import optuna

    return optuna.load_study(study_name=study, storage=storage(store, study))


# -- the report ------------------------------------------------------------------------------------------
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "{game}: automatic balancing of {numbers}",
        "answer": "{changes} brings the first player from {before} to {after} [{low}, {high}] "
                  "(target {target}; {games} games the search never played).",
        "no_change": "No change of {numbers} beats the original: the first player stays at {before} [{low}, {high}] "
                     "(target {target}).",
        "search": "Search: {trials} trials ({pruned} stopped early), {games} games, players: {agents}.",
        "check": "Check: {games} fresh games a set, each against the original on the same seeds (95% intervals); "
                 "the sets nearest the target on them first.",
        "original": "The original, {label}: first player {score}.",
        "set": "{label}: {changes}: first player {score} (change {diff} points); {length} actions a game.",
        "limits": "The search tunes the game as its players ({agents}) play it; people may see another edge. "
                  "Playtest the set before you print it.",
        "set_col": "set", "changes_col": "changes", "first_col": "first player (fresh games)",
        "diff_col": "change against the original (points)", "wins_col": "first player's wins", "length_col": "length",
        "axis": "first player's share of the points (%)", "target_line": "target {target}", "table": "The best sets",
        "chart": "The original and the best sets on fresh games, with 95% intervals",
    },
    "ja": {
        "title": "{game}:{numbers} の自動バランス調整",
        "answer": "{changes} で、先手の得点率は {before} から {after} [{low}, {high}] になります"
                  "(目標 {target}、探索に使っていない {games} ゲームで確認)。",
        "no_change": "{numbers} をどう変えても元のセットより目標に近づきませんでした:先手の得点率は {before} "
                     "[{low}, {high}] のままです(目標 {target})。",
        "search": "探索:{trials} 回の試行(うち {pruned} 回は途中で打ち切り)、{games} ゲーム、プレイヤー:{agents}。",
        "check": "確認:セットごとに探索に使っていない新しい {games} ゲーム(元のセットと同じシードで比較、95% 区間)。"
                 "その結果で目標に近い順に並べています。",
        "original": "元のセット {label}:先手 {score}。",
        "set": "{label}:{changes}:先手 {score}(差 {diff} ポイント)、平均 {length} 手。",
        "limits": "調整はこのプレイヤー({agents})が遊んだ場合のものです。人どうしでは有利不利が変わりえます。"
                  "印刷する前にテストプレイで確かめてください。",
        "set_col": "セット", "changes_col": "変更", "first_col": "先手の得点率(新しいゲーム)",
        "diff_col": "元のセットとの差(ポイント)", "wins_col": "先手の勝率", "length_col": "長さ",
        "axis": "先手の得点の割合(%)", "target_line": "目標 {target}", "table": "最良のセット",
        "chart": "元のセットと最良のセット(新しいゲーム、95% 区間)",
    },
}


def _pc(r: Mapping[str, float]) -> str:
    return f"{100 * r['value']:.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"


def _pts(r: Mapping[str, float]) -> str:
    return f"{100 * r['value']:+.1f} [{100 * r['low']:+.1f}, {100 * r['high']:+.1f}]"


def search_info(study: Any) -> dict[str, Any]:
    """A finished search in numbers: trials, those stopped early, games played, minutes."""
    import optuna

    trials = study.trials
    pruned = sum(1 for t in trials if t.state == optuna.trial.TrialState.PRUNED)
    games = sum(int(t.user_attrs.get("games", 0) or 0) for t in trials)
    starts = [t.datetime_start for t in trials if t.datetime_start is not None]
    ends = [t.datetime_complete for t in trials if t.datetime_complete is not None]
    seconds = (max(ends) - min(starts)).total_seconds() if starts and ends else 0.0
    return {"trials": finished_trials(study), "pruned": pruned, "games": games, "seconds": seconds}


def tune_view(settings: Any, base: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], sets: Sequence[CardSet],
              info: Mapping[str, Any], lang: str, game_title: str) -> dict[str, Any]:
    """A tune study's report in ``lang``: the answer first (what to change, and where it brings the first player on
    fresh games), then the search and the check in lines, a chart, a table, and the sets to load.

    ``sets`` are the search's best, best first, with their held-out ``rows`` (:func:`cardtable.lab.tune.verify`);
    the report shows them nearest the target on the fresh games first, and answers with the nearest.
    """
    from cardtable.lab import svg
    from cardtable.lab.tune import change_words, changed_count

    words = WORDS[lang]
    original = settings.original()
    target = dict(settings.targets).get("seat", 0.5)
    numbers = ", ".join(d.key for d in settings.dims)
    # the sets in the order of their distance to the target on the fresh games: the answer is the nearest
    order = sorted(range(len(sets)), key=lambda i: abs(rows[i]["first"]["value"] - target))
    sets, rows = [sets[i] for i in order], [rows[i] for i in order]
    best, row = sets[0], rows[0]
    first = row["first"]

    def whole(x: float) -> str:
        return f"{100 * x:.0f}"

    if changed_count(settings, best):
        changes = change_words(original, best, lang)
        answer = words["answer"].format(changes=changes[:1].upper() + changes[1:], before=whole(base["first"]["value"]) + "%",
                                        after=whole(first["value"]) + "%", low=whole(first["low"]),
                                        high=whole(first["high"]), target=whole(target) + "%",
                                        games=f"{row['games']:,}")
    else:
        answer = words["no_change"].format(numbers=numbers, before=whole(base["first"]["value"]) + "%",
                                           low=whole(base["first"]["low"]), high=whole(base["first"]["high"]),
                                           target=whole(target) + "%")
    agents = " / ".join(settings.agents)
    summary = [words["search"].format(trials=info["trials"], pruned=info["pruned"], games=f"{info['games']:,}",
                                      agents=agents),
               words["check"].format(games=f"{base['games']:,}"),
               words["original"].format(label=set_label(original), score=_pc(base["first"]))]
    for cs, r in zip(sets, rows, strict=True):
        summary.append(words["set"].format(label=set_label(cs), changes=change_words(original, cs, lang),
                                           score=_pc(r["first"]), diff=_pts(r["difference"]),
                                           length=f"{r['length']['value']:.1f}"))
    summary.append(words["limits"].format(agents=agents))
    bars = [svg.Bar(set_label(original), base["first"]["value"], base["first"]["low"], base["first"]["high"],
                    f"n = {base['games']:,}")]
    bars += [svg.Bar(set_label(cs), r["first"]["value"], r["first"]["low"], r["first"]["high"], f"n = {r['games']:,}")
             for cs, r in zip(sets, rows, strict=True)]
    chart = svg.interval_chart(bars, reference=target, reference_label=words["target_line"].format(
        target=whole(target) + "%"), axis=words["axis"])
    table = [{words["set_col"]: set_label(cs), words["changes_col"]: change_words(original, cs, lang),
              words["first_col"]: _pc(r["first"]), words["diff_col"]: _pts(r["difference"]),
              words["wins_col"]: _pc(r["wins"]), words["length_col"]: f"{r['length']['value']:.1f}"}
             for cs, r in zip(sets, rows, strict=True)]
    return {"title": words["title"].format(game=game_title, numbers=numbers), "answer": answer, "summary": summary,
            "charts": [{"key": "tune", "svg": chart, "caption": words["chart"]}], "table": table,
            "table_title": words["table"],
            "sets": [{"label": set_label(cs), "name": cs.name, "hash": cs.hash, "values": cs.changed(),
                      "flags": dict(cs.flags), "rules": cs.rule_flags(), "changes": change_words(original, cs, lang),
                      "first": r["first"], "difference": r["difference"], "games": r["games"]}
                     for cs, r in zip(sets, rows, strict=True)],
            "original": {"label": set_label(original), "first": base["first"], "games": base["games"]},
            "search": dict(info), "target": target}


__all__ = ["BEST", "MAX_NUMBERS", "MAX_STEPS", "MAX_STEP_GAMES", "MAX_TRIALS", "Stopped", "StoreJournal",
           "TuneOptions", "WatchedExecutor", "check_config", "check_places", "checked_sets", "finished_trials", "forget",
           "found_sets", "load_search", "search", "search_info", "search_state", "set_label", "settings_of",
           "storage", "tune_view"]
