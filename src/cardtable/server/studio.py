"""The designer's studio: lab studies launched from the browser, run on a worker pool of their own.

A study plays one or more *variants* (rule flags: a card set becomes flags) on the same seeds, so
they are paired: ``single`` plays one, ``ab`` two (A, then B), ``sweep`` one per value of a number,
``tune`` searches numbers with the lab's Optuna search and checks the best sets it finds on fresh
seeds (:mod:`.studio_tune`). Each variant is a lab run (:mod:`cardtable.lab.execute`) stored batch by
batch in the server's own store, so a study cut short by a restart resumes where it stopped (a
search, with the trials it finished: its journal is in the store too). The games are played by a bounded
pool of low-priority worker processes (or a Ray cluster) apart from the bots', so play keeps its
latency. Progress (games done, an estimate of the time left and the first player's interval as it
narrows) goes to every socket watching the study. When the last game is stored, the report is built
once, in both languages, with the lab's own report builders, and kept with the study.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import logging
import math
import multiprocessing
import os
import re
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from cardtable.core.cardset import set_from_flags
from cardtable.core.errors import ErrorCode
from cardtable.core.registry import load_game
from cardtable.lab.execute import run_study
from cardtable.lab.pipeline import Progress, RayExecutor
from cardtable.lab.storage import LabStore
from cardtable.lab.study import Batch, StudyConfig, batch_size, plan, play_batch
from cardtable.store import Store
from cardtable.store.lab_models import LabSeriesGameRow, LabSeriesRow
from cardtable.store.models import utcnow
from cardtable.store.studio_models import StudioStudyRow

from .errors import Refusal
from .studio_tune import (
    Stopped,
    TuneOptions,
    check_config,
    check_places,
    checked_sets,
    found_sets,
    load_search,
    search,
    search_info,
    set_label,
    settings_of,
    tune_view,
)

log = logging.getLogger("cardtable.studio")
T = TypeVar("T")

MAX_GAMES = 20_000
"""The most games one variant of a study may play."""
MAX_VARIANTS = 8
"""The most variants (sweep values) a study may have."""
AGENTS = ("random", "heuristic", "ismcts:easy")
"""The agents the studio offers, from the fastest and weakest to the slowest and strongest."""


class StudyKind(StrEnum):
    """What a study plays: one configuration, an A/B of two, a sweep of one number over values, or a search."""

    SINGLE = "single"
    AB = "ab"
    SWEEP = "sweep"
    TUNE = "tune"
    """The lab's automatic balancing: numbers searched toward a target, the best sets checked on fresh seeds."""


class Phase(StrEnum):
    """Where a running study is: searching (a tune's trials) or playing its runs' games."""

    SEARCH = "search"
    PLAY = "play"


class StudyStatus(StrEnum):
    """Where a study stands."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    CANCELLED = "cancelled"
    FAILED = "failed"


ACTIVE = (StudyStatus.QUEUED, StudyStatus.RUNNING)


@dataclass(frozen=True)
class Variant:
    """One configuration of a study: its label and its rule flags."""

    label: str
    rules: Mapping[str, Any]


@dataclass(frozen=True)
class StudyRequest:
    """What a person asked for: the kind, game, agents, games per variant, seed, setup and variants."""

    kind: StudyKind
    game: str
    agents: tuple[str, ...]
    games: int
    seed: int
    setup: Mapping[str, Any]
    variants: tuple[Variant, ...]
    parameter: str = ""
    """A sweep's number (``item.field`` or a rule flag)."""
    tune: TuneOptions | None = None
    """A tune's search: the numbers and ranges, the target and the trial budget (``games``: each set's check)."""

    def to_json(self) -> dict[str, Any]:
        """The request as JSON (what the store keeps)."""
        out = {"kind": self.kind.value, "game": self.game, "agents": list(self.agents), "games": self.games,
               "seed": self.seed, "setup": dict(self.setup), "parameter": self.parameter,
               "variants": [{"label": v.label, "rules": dict(v.rules)} for v in self.variants]}
        if self.tune is not None:
            out["tune"] = self.tune.to_json()
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StudyRequest:
        """Read ``to_json``'s output."""
        return cls(StudyKind(data["kind"]), str(data["game"]), tuple(data["agents"]), int(data["games"]),
                   int(data["seed"]), dict(data.get("setup") or {}),
                   tuple(Variant(str(v["label"]), dict(v["rules"])) for v in data["variants"]),
                   str(data.get("parameter") or ""),
                   TuneOptions.from_json(data["tune"]) if data.get("tune") else None)

    def config(self, variant: Variant) -> StudyConfig:
        """The lab configuration of one variant (every variant plays the same seeds)."""
        return StudyConfig(self.game, self.agents, self.games, self.seed, dict(variant.rules), dict(self.setup))

    def settings(self) -> Any:
        """A tune's search settings (:class:`cardtable.lab.tune.TuneSettings`); ValueError for another kind."""
        if self.tune is None:
            raise ValueError("only a tune study has search settings")
        return settings_of(self.config(self.variants[0]), self.tune)

    def check_configs(self) -> list[StudyConfig]:
        """A tune's check as planned before the search: the original and its best sets, each on the held-out seeds
        (the found sets' flags are known once the search is done; the games per set are the same)."""
        settings = self.settings()
        one = check_config(settings, settings.original(), self.games)
        return [one] * (1 + (self.tune.best if self.tune is not None else 0))


def _bad(message: str) -> Refusal:
    return Refusal(ErrorCode.BAD_STUDY, message)


class SetupChoice(StrEnum):
    """What the study form offers for a game's decks or option sets."""

    RULEBOOK = "rulebook"
    """The game's own setup (its preset decks, its option set)."""
    RANDOM = "random"
    """A random legal deck or loadout for every seat of every game (the lab's ``--deck random``,
    ``--setup loadouts=random``): each card is then in some decks and not in others, so its strength shows."""


RANDOM_LOADOUT_ITEMS = ("loadouts=random",)
"""The lab's setup items that ask a game's ``random_setup`` facet for random loadouts in every seat (lab.md)."""


def random_setup(game: str) -> dict[str, Any] | None:
    """The setup that deals every seat a random legal deck or loadout, through the game's kit (its ``decks`` facet's
    random deck, or its ``random_setup`` facet with one of the game's own setups), None for a game without."""
    from cardtable.core import registry
    from cardtable.core.registry import game_class
    from cardtable.lab.setup_args import parse_setup_items

    book = registry.part(game, "decks", required=False)
    if book is not None:
        players = load_game(game).min_players
        return {book.setup_key: [book.setup_entry(book.random_name)] * players}
    if registry.part(game, "random_setup", required=False) is None:
        return None
    asked = parse_setup_items(RANDOM_LOADOUT_ITEMS)
    for _label, flags, setup in game_class(game).bench_cases():  # the game's own setups: one with option cards
        candidate = {**setup, **asked}
        try:
            plan(StudyConfig(game, ("random",), 1, 0, dict(flags), candidate))
        except (ValueError, KeyError, TypeError):
            continue
        if not flags:
            return candidate
    return None


def rule_flags_of(game: str) -> list[dict[str, Any]]:
    """The rule flags a study may set (the card set's own flags left to the card set): name, type, default, choices,
    range, meaning and ledger entry, as ``cardtable games`` lists them."""
    from cardtable.core.cardset import spec_of
    from cardtable.core.registry import game_class

    try:
        spec = spec_of(game)
        taken = {spec.cards_flag} | {n.flag for n in spec.numbers if n.flag}
    except LookupError:
        taken = set()
    out = []
    for f in game_class(game).Rules.flag_specs():
        if f.name in taken:
            continue
        out.append({"name": f.name, "kind": f.kind.__name__, "default": f.default,
                    "choices": list(f.choices) if f.choices is not None else None, "min": f.minimum, "max": f.maximum,
                    "values": f.describe_values(), "doc": f.doc, "ledger": f.ledger})
    return out


def parse_rule_items(game: str, items: Any) -> dict[str, Any]:
    """``flag=value`` texts as the command line's ``--rules`` reads them (Refusal ``bad_study`` naming the problem);
    a card set's own flags are refused: they are edited in the card set."""
    from cardtable.core.registry import game_class
    from cardtable.core.rules import parse_assignments

    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        raise _bad("rule_items: a list of flag=value texts")
    try:
        flags = parse_assignments(game_class(game).Rules, items)
    except ValueError as exc:
        raise _bad(str(exc)) from None
    allowed = {f["name"] for f in rule_flags_of(game)}
    for name in flags:
        if name not in allowed:
            raise _bad(f"rule flag {name!r} is the card set's: change the card set's numbers instead")
    return flags


def set_name(game: str, label: str, rules: Mapping[str, Any]) -> str:
    """A variant's label as people read it: its name and its hash (``slow ice #3f2a9c01de``), never a hash alone;
    the rulebook's own rules by name."""
    label = " ".join(label.split())[:64]
    try:
        cs = set_from_flags(game, rules)
    except (ValueError, KeyError, TypeError, LookupError):
        return label or "custom"
    if not cs.rule_flags():
        return label or "rulebook"
    if not label or re.fullmatch(r"#?[0-9a-f]{6,}", label):
        label = "custom"
    return label if f"#{cs.hash}" in label else f"{label} #{cs.hash}"


def make_request(body: Mapping[str, Any]) -> StudyRequest:
    """A checked :class:`StudyRequest` from the API's JSON body (Refusal ``bad_study`` saying what is wrong).

    ``single``: ``rules``; ``ab``: ``a`` and ``b``, each ``{label, rules}``; ``sweep``: ``rules`` (the base),
    ``parameter`` and ``values``; ``tune``: ``rules`` (the original set), ``vary`` (``[{key, low, high}]``),
    ``target``, ``trials``, ``step_games``, ``steps`` and ``games`` (each set's check on fresh seeds). Every kind
    takes ``rule_items`` (``flag=value``, the command line's ``--rules``, for every variant), ``setup_choice``
    (``rulebook`` or ``random``), ``setup`` and ``setup_items`` (the lab's ``--setup``).
    """
    try:
        kind = StudyKind(str(body.get("kind", "single")))
    except ValueError:
        raise _bad(f"kind is one of {', '.join(k.value for k in StudyKind)}") from None
    game = body.get("game")
    try:
        load_game(str(game))
    except (ValueError, LookupError):
        raise Refusal(ErrorCode.UNKNOWN_GAME, f"unknown game {game!r}") from None
    game = str(game)
    agents = body.get("agents") or ["heuristic"]
    if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents) or not 1 <= len(agents) <= 4:
        raise _bad("agents: a list of one to four agent names")
    games = body.get("games", 200)
    if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= MAX_GAMES:
        raise _bad(f"games: a whole number from 1 to {MAX_GAMES:,}")
    seed = body.get("seed", secrets.randbelow(1_000_000))
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise _bad("seed: a whole number, 0 or more")
    setup = body.get("setup") or {}
    if not isinstance(setup, dict):
        raise _bad("setup: an object of setup options")
    try:
        choice = SetupChoice(str(body.get("setup_choice") or SetupChoice.RULEBOOK.value))
    except ValueError:
        raise _bad(f"setup_choice is one of {', '.join(c.value for c in SetupChoice)}") from None
    if choice is SetupChoice.RANDOM:
        drawn = random_setup(game)
        if drawn is None:
            raise _bad(f"{game} has no random decks or loadouts")
        setup = {**drawn, **setup}
    items = body.get("setup_items") or []
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        raise _bad("setup_items: a list of key=value texts")
    if items:
        from cardtable.lab.setup_args import parse_setup_items

        if any("@" in i for i in items):
            raise _bad("setup_items: files (@FILE) are read by the command line only")
        try:
            setup = {**setup, **parse_setup_items(items)}
        except ValueError as exc:
            raise _bad(str(exc)) from None
    flags = parse_rule_items(game, body.get("rule_items") or [])
    parameter = ""
    tune: TuneOptions | None = None
    if kind is StudyKind.SINGLE:
        rules = {**flags, **_rules(body.get("rules"))}
        variants = [Variant(set_name(game, str(body.get("label") or ""), rules), rules)]
    elif kind is StudyKind.AB:
        a, b = body.get("a"), body.get("b")
        if not isinstance(a, dict) or not isinstance(b, dict):
            raise _bad("an A/B study needs a and b, each {label, rules}")
        a_rules, b_rules = {**flags, **_rules(a.get("rules"))}, {**flags, **_rules(b.get("rules"))}
        variants = [Variant(set_name(game, str(a.get("label") or "A"), a_rules), a_rules),
                    Variant(set_name(game, str(b.get("label") or "B"), b_rules), b_rules)]
    elif kind is StudyKind.SWEEP:
        parameter, variants = _sweep_variants(game, {**flags, **_rules(body.get("rules"))}, body.get("parameter"),
                                              body.get("values"))
    else:
        try:
            import optuna  # noqa: F401
        except ImportError:
            raise _bad("a tune needs optuna on the server: pip install 'cardtable[tune]'") from None
        rules = {**flags, **_rules(body.get("rules"))}
        try:
            tune = TuneOptions.from_body(game, {**body, "name": body.get("name") or body.get("label") or ""})
            settings_of(StudyConfig(game, tuple(agents), games, seed, rules, setup), tune).original()
        except (ValueError, KeyError, TypeError) as exc:
            raise _bad(str(exc).removeprefix("card set: ")) from None
        variants = [Variant(set_name(game, tune.name, rules), rules)]
    request = StudyRequest(kind, game, tuple(agents), games, seed, setup, tuple(variants), parameter, tune)
    for variant in request.variants:
        try:
            plan(request.config(variant))
        except (ValueError, KeyError, TypeError) as exc:
            raise _bad(f"{variant.label}: {exc}") from None
    return request


def _rules(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _bad("rules: an object of rule flags")
    return dict(value)


def _sweep_variants(game: str, rules: Mapping[str, Any], parameter: Any, values: Any) -> tuple[str, list[Variant]]:
    from cardtable.lab.sweep import flags_for

    if not isinstance(parameter, str) or not parameter:
        raise _bad("a sweep needs parameter: a number (item.field) or a rule flag")
    if not isinstance(values, list) or not 2 <= len(values) <= MAX_VARIANTS:
        raise _bad(f"a sweep needs 2 to {MAX_VARIANTS} values")
    try:
        base = set_from_flags(game, rules)
        variants = [Variant(f"{parameter}={v}", flags_for(base, parameter, v)) for v in values]
    except (ValueError, KeyError, TypeError) as exc:
        raise _bad(str(exc)) from None
    return parameter, variants


# -- the running first-player score, for progress ------------------------------------------------
@dataclass
class Tally:
    """The first player's share of the points over the games stored so far (a mean with a normal interval)."""

    label: str
    games: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, first: int | None, winners: Sequence[int], players: int) -> None:
        """Count one game: the first player's share of its point."""
        if players < 2:
            return
        if not winners:
            share = 1.0 / players
        else:
            share = (1.0 / len(winners)) if (first if first is not None else 0) in winners else 0.0
        self.games += 1
        self.total += share
        self.squares += share * share

    def to_json(self) -> dict[str, Any]:
        """``{label, games, value, low, high}`` (None while fewer than two games are in)."""
        if self.games < 2:
            return {"label": self.label, "games": self.games, "value": None, "low": None, "high": None}
        mean = self.total / self.games
        var = max(0.0, (self.squares - self.games * mean * mean) / (self.games - 1))
        half = 1.959964 * math.sqrt(var / self.games)
        return {"label": self.label, "games": self.games, "value": mean, "low": max(0.0, mean - half),
                "high": min(1.0, mean + half)}


@dataclass
class Live:
    """A running study's progress, shared with the sockets that watch it."""

    study_id: str
    planned: int
    done: int
    tallies: list[Tally]
    status: StudyStatus = StudyStatus.QUEUED
    started: float = field(default_factory=time.monotonic)
    done_at_start: int = 0
    cancel: threading.Event = field(default_factory=threading.Event)
    watchers: set[asyncio.Queue[dict[str, Any]]] = field(default_factory=set)
    phase: Phase = Phase.PLAY
    search: dict[str, Any] | None = None
    """A tune's search as it stands (:func:`.studio_tune.search_state`), kept once the search is done."""
    search_started: tuple[float, int] = (0.0, 0)
    """When this process took the search up, and the trials it held then."""
    busy: int = 0
    """The study's work running in threads now (a stopping server waits for it before it stops the pool)."""
    busy_lock: threading.Lock = field(default_factory=threading.Lock)

    def working(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)``, counted as the study's work while it runs (in a thread)."""
        with self.busy_lock:
            self.busy += 1
        try:
            return fn(*args)
        finally:
            with self.busy_lock:
                self.busy -= 1

    def message(self) -> dict[str, Any]:
        """The progress message sockets get."""
        played = self.done - self.done_at_start
        elapsed = time.monotonic() - self.started
        estimate = None
        if self.phase is Phase.SEARCH and self.search is not None and self.status is StudyStatus.RUNNING:
            since, held = self.search_started
            trials = self.search["trials_done"] - held
            if trials > 0:
                per_trial = (time.monotonic() - since) / trials
                per_game = (time.monotonic() - since) / max(1, self.search["games"])
                estimate = round(per_trial * (self.search["trials"] - self.search["trials_done"])
                                 + per_game * self.planned, 1)
        elif played > 0 and self.status is StudyStatus.RUNNING:
            estimate = round(elapsed / played * (self.planned - self.done), 1)
        out = {"type": "progress", "study": self.study_id, "status": self.status.value, "done": self.done,
               "planned": self.planned, "estimate_s": estimate, "variants": [t.to_json() for t in self.tallies],
               "phase": self.phase.value}
        if self.search is not None:
            out["search"] = {k: v for k, v in self.search.items() if k != "games_done"}
        return out


class Cancelled(Exception):
    """A study was cancelled while it ran."""


def _low_priority() -> None:
    """A studio worker's start: the lowest CPU priority (play comes first), then the games' registry."""
    with contextlib.suppress(OSError):  # a platform without nice
        os.nice(19)
    from .bots import warm_up

    warm_up()


def owner_key(account_id: str | None, address: str) -> str:
    """Who owns a study: a signed-in person's account, else a guest's address."""
    return f"account:{account_id}" if account_id else f"address:{address}"


class Studio:
    """The studies of a server: launch, watch, cancel, resume after a restart, and their reports."""

    def __init__(self, store: Store, url: str | None, *, workers: int = 1, max_running: int = 2,
                 ray_address: str | None = None) -> None:
        self.store = store
        self.url = url
        self.workers = workers
        self.max_running = max_running
        self.ray_address = ray_address
        self.lab = LabStore.open(url, migrate=False) if url and _is_file_or_server(url) else LabStore(store)
        self._executor: Executor | None = None
        self._lock = threading.Lock()
        self.live: dict[str, Live] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None

    # -- the pool ------------------------------------------------------------------------------
    def executor(self) -> Executor:
        """The studio's worker pool (made on first use): Ray when an address is set, else low-priority processes."""
        with self._lock:
            if self._executor is None:
                if self.ray_address:
                    self._executor = RayExecutor(self.ray_address, self.workers)
                else:
                    self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                         initializer=_low_priority)
            return self._executor

    async def start(self) -> None:
        """Resume every study a stopped server left queued or running."""
        self.loop = asyncio.get_running_loop()
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(StudioStudyRow.id).where(
                StudioStudyRow.status.in_([s.value for s in ACTIVE])).order_by(StudioStudyRow.created_at)).all()
        for (study_id,) in rows:
            self._launch(study_id)

    async def stop(self) -> None:
        """Stop watching the studies (their stored games stay; the next start resumes them) and the pool.

        The studies' threads stop at their next batch; the pool is shut down once they have (or after a minute).
        """
        lives = list(self.live.values())
        for live in lives:
            live.cancel.set()
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        deadline = time.monotonic() + 60
        while any(live.busy for live in lives) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if self._executor is not None:
            executor, self._executor = self._executor, None
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)  # in-flight batches land
        self.lab.close() if self.lab.store is not self.store else None

    # -- studies -------------------------------------------------------------------------------
    def running(self, owner: str) -> int:
        """How many studies of ``owner`` are queued or running."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(StudioStudyRow.id).where(
                StudioStudyRow.owner == owner, StudioStudyRow.status.in_([s.value for s in ACTIVE]))).all()
        return len(rows)

    async def create(self, owner: str, request: StudyRequest) -> dict[str, Any]:
        """Store a new study and start it (Refusal ``too_many_studies`` past the per-person limit)."""
        if await asyncio.to_thread(self.running, owner) >= self.max_running:
            raise Refusal(ErrorCode.TOO_MANY_STUDIES,
                          f"you have {self.max_running} studies running already: wait for one or cancel it", status=429)
        study_id = secrets.token_urlsafe(12)
        if request.kind is StudyKind.TUNE:  # the check's runs are made once the search has found the sets
            configs = request.check_configs()
        else:
            configs = [request.config(v) for v in request.variants]
        runs = [f"studio-{study_id}-{i}" for i in range(len(configs))]
        planned = sum(len(plan(c)) for c in configs)

        def write() -> None:
            with self.store.transaction() as conn:
                conn.execute(insert(StudioStudyRow).values(
                    id=study_id, share_id=secrets.token_urlsafe(16), owner=owner, kind=request.kind.value,
                    game=request.game, request=request.to_json(), runs=runs, status=StudyStatus.QUEUED.value,
                    planned=planned, done=0, created_at=utcnow()))
            if request.kind is not StudyKind.TUNE:
                for name, config in zip(runs, configs, strict=True):
                    self.lab.create(name, config)

        await asyncio.to_thread(write)
        self._launch(study_id)
        return await asyncio.to_thread(self.get, study_id)

    def _launch(self, study_id: str) -> None:
        self.live[study_id] = Live(study_id, 0, 0, [])
        self._tasks[study_id] = asyncio.get_running_loop().create_task(self._run(study_id))

    def row(self, study_id: str) -> Any:
        """The stored row of a study (Refusal ``no_such_study`` if none)."""
        with self.store.engine.connect() as conn:
            row = conn.execute(select(StudioStudyRow).where(StudioStudyRow.id == study_id)).first()
        if row is None:
            raise Refusal(ErrorCode.NO_SUCH_STUDY, "no such study", status=404)
        return row

    def by_share(self, share_id: str) -> Any:
        """The row of the study shared as ``share_id`` (Refusal ``no_such_study`` if none)."""
        with self.store.engine.connect() as conn:
            row = conn.execute(select(StudioStudyRow).where(StudioStudyRow.share_id == share_id)).first()
        if row is None:
            raise Refusal(ErrorCode.NO_SUCH_STUDY, "no such study", status=404)
        return row

    def get(self, study_id: str) -> dict[str, Any]:
        """A study as JSON (without its report)."""
        return self.summary(self.row(study_id))

    def summary(self, row: Any, *, shared: bool = False) -> dict[str, Any]:
        """A study's row as JSON: what it plays, where it stands, its answer once done (no report)."""
        live = self.live.get(row.id)
        result = row.result or {}
        out: dict[str, Any] = {
            "kind": row.kind, "game": row.game, "request": row.request,
            "status": live.status.value if live is not None else row.status,
            "done": live.done if live is not None else row.done, "planned": row.planned,
            "created_at": row.created_at.isoformat(), "finished_at": row.finished_at.isoformat()
            if row.finished_at else None, "error": row.error,
            "answer": {lang: view.get("answer", "") for lang, view in (result.get("views") or {}).items()},
            "share_id": row.share_id}
        if not shared:
            out["id"] = row.id
        return out

    def studies(self, owner: str) -> list[dict[str, Any]]:
        """The studies of ``owner``, newest first."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(StudioStudyRow).where(StudioStudyRow.owner == owner)
                                .order_by(StudioStudyRow.created_at.desc()).limit(200)).all()
        return [self.summary(r) for r in rows]

    async def cancel(self, study_id: str) -> dict[str, Any]:
        """Cancel a queued or running study (its stored games stay); a finished one is left as it is."""
        live = self.live.get(study_id)
        if live is not None:
            live.cancel.set()
            task = self._tasks.get(study_id)
            if task is not None:
                await asyncio.wait({task}, timeout=30)
        else:
            await asyncio.to_thread(self._set_status, study_id, StudyStatus.CANCELLED, only_active=True)
        return await asyncio.to_thread(self.get, study_id)

    def _set_status(self, study_id: str, status: StudyStatus, *, only_active: bool = False, done: int | None = None,
                    result: dict[str, Any] | None = None, error: str | None = None,
                    planned: int | None = None) -> None:
        values: dict[str, Any] = {"status": status.value}
        if done is not None:
            values["done"] = done
        if planned is not None:
            values["planned"] = planned
        if result is not None:
            values["result"] = result
        if error is not None:
            values["error"] = error
        if status not in ACTIVE:
            values["finished_at"] = utcnow()
        stmt = update(StudioStudyRow).where(StudioStudyRow.id == study_id)
        if only_active:
            stmt = stmt.where(StudioStudyRow.status.in_([s.value for s in ACTIVE]))
        with self.store.transaction() as conn:
            conn.execute(stmt.values(**values))

    # -- running -------------------------------------------------------------------------------
    async def _run(self, study_id: str) -> None:
        live = self.live[study_id]
        loop = asyncio.get_running_loop()
        try:
            row = await asyncio.to_thread(self.row, study_id)
            request = StudyRequest.from_json(row.request)
            tallies = await asyncio.to_thread(self._tallies, row.runs, request)
            done = await asyncio.to_thread(self._stored, row.runs)
            live.planned, live.done, live.done_at_start, live.tallies = row.planned, done, done, tallies
            live.status, live.started = StudyStatus.RUNNING, time.monotonic()
            if live.cancel.is_set():
                raise Cancelled
            await asyncio.to_thread(self._set_status, study_id, StudyStatus.RUNNING, done=done)
            self._publish(live)
            runs = list(row.runs)
            if request.kind is StudyKind.TUNE:
                runs = await asyncio.to_thread(live.working, self._search, live, row, request, loop)
            for i, name in enumerate(runs):
                await asyncio.to_thread(live.working, self._play, live, name, i, loop)
            result = await asyncio.to_thread(live.working, self._result, study_id, runs, request)
            await asyncio.to_thread(self._set_status, study_id, StudyStatus.DONE, done=live.done, result=result)
            live.status = StudyStatus.DONE  # after the report is stored: a page that reads "done" finds it
        except (Cancelled, Stopped):
            live.status = StudyStatus.CANCELLED
            await asyncio.to_thread(self._set_status, study_id, StudyStatus.CANCELLED, done=live.done)
        except asyncio.CancelledError:  # the server stops: the study stays running, to resume
            live.cancel.set()
            raise
        except Exception as exc:  # a study that cannot finish says why; the server goes on
            log.exception("studio: study %s failed", study_id)
            live.status = StudyStatus.FAILED
            await asyncio.to_thread(self._set_status, study_id, StudyStatus.FAILED, done=live.done, error=str(exc))
        finally:
            self._publish(live)
            for queue in list(live.watchers):
                queue.put_nowait({"type": "end"})
            self.live.pop(study_id, None)
            self._tasks.pop(study_id, None)

    def _search(self, live: Live, row: Any, request: StudyRequest, loop: asyncio.AbstractEventLoop) -> list[str]:
        """A tune's search (in a thread: it waits on the workers), then its check's runs made: the original and the
        sets found, each on the held-out seeds. The names of the runs to play."""
        settings = request.settings()
        trials = request.tune.trials if request.tune is not None else 0
        live.phase, live.search_started = Phase.SEARCH, (time.monotonic(), 0)
        first = [True]

        def on_state(state: dict[str, Any]) -> None:
            if first[0]:
                live.search_started = (time.monotonic(), state["trials_done"])
                first[0] = False
            live.search = state
            loop.call_soon_threadsafe(self._publish, live)

        study = search(settings, store=self.store, study=row.id, trials=trials, executor=self.executor(),
                       workers=self.workers, cancelled=live.cancel, on_state=on_state)
        sets = found_sets(settings, study, request.tune.best if request.tune is not None else 1)
        if not sets:
            raise RuntimeError("no trial of the search finished: give it more trials or a wider range")
        runs = []
        for place, cs in check_places(settings, sets):
            runs.append(row.runs[place])
            if self.lab.find(row.runs[place]) is None:
                self.lab.create(row.runs[place], check_config(settings, cs, request.games))
        planned = sum(self.lab.get(name).planned for name in runs)
        live.tallies = self._tallies(runs, request)
        live.planned, live.done = planned, self._stored(runs)
        live.done_at_start, live.started, live.phase = live.done, time.monotonic(), Phase.PLAY
        if live.search is not None:
            live.search = {**live.search, "phase": "done"}
        self._set_status(live.study_id, StudyStatus.RUNNING, done=live.done, planned=planned)
        loop.call_soon_threadsafe(self._publish, live)
        return runs

    def _play(self, live: Live, name: str, index: int, loop: asyncio.AbstractEventLoop) -> None:
        """Play the missing games of one variant's run on the pool (in a thread: it waits on the workers)."""
        if live.cancel.is_set():
            raise Cancelled
        tally = live.tallies[index]

        def progress(p: Progress) -> None:
            for g in p.batch:
                tally.add(g.first_player, g.winners, g.players)
            live.done += len(p.batch)
            loop.call_soon_threadsafe(self._publish, live)
            if live.cancel.is_set():
                raise Cancelled

        for attempt in range(3):
            info = self.lab.get(name)
            try:
                run_study(self.lab, name, None, executor=self.executor(), on_progress=progress,
                          batch=batch_size(info.planned - info.stored, self.workers * 3, largest=50))
                break
            except IntegrityError:  # a batch the worker of a killed server stored late: play what is still missing
                if attempt == 2:
                    raise
                live.done = self._stored([name]) + sum(t.games for t in live.tallies[:index])
        if live.cancel.is_set():
            raise Cancelled
        with self.store.transaction() as conn:
            conn.execute(update(StudioStudyRow).where(StudioStudyRow.id == live.study_id).values(done=live.done))

    def _stored(self, runs: Sequence[str]) -> int:
        return sum(info.stored for name in runs if (info := self.lab.find(name)) is not None)

    def _tallies(self, runs: Sequence[str], request: StudyRequest) -> list[Tally]:
        """The tallies of the games a study has stored already (a resumed study's interval goes on from them)."""
        out = []
        with self.lab.store.engine.connect() as conn:
            for name, label in run_labels(self.lab, runs, request):
                tally = Tally(label)
                rows = conn.execute(select(LabSeriesGameRow.first_player, LabSeriesGameRow.winners,
                                           LabSeriesGameRow.specs)
                                    .join(LabSeriesRow, LabSeriesRow.id == LabSeriesGameRow.series_id)
                                    .where(LabSeriesRow.name == name)).all()
                for first, winners, specs in rows:
                    tally.add(first, winners, len(specs))
                out.append(tally)
        return out

    def _publish(self, live: Live) -> None:
        message = live.message()
        for queue in list(live.watchers):
            if queue.qsize() < 64:
                queue.put_nowait(message)

    def _result(self, study: str, runs: Sequence[str], request: StudyRequest) -> dict[str, Any]:
        """The finished study's report in both languages (built on the pool when the store is shared)."""
        url = self.lab.shared_url
        if url is not None and not self.ray_address:
            future = self.executor().submit(build_result, url, list(runs), request.to_json(), study)
            result: dict[str, Any] = future.result()
            return result
        return result_of(self.lab, runs, request, study)

    def progress(self, study_id: str) -> dict[str, Any]:
        """The progress message of a study (a finished one: its final counts)."""
        live = self.live.get(study_id)
        if live is not None and live.planned:
            return live.message()
        row = self.row(study_id)
        out = {"type": "progress", "study": study_id, "status": row.status, "done": row.done, "planned": row.planned,
               "estimate_s": None, "variants": (row.result or {}).get("tallies", []), "phase": Phase.PLAY.value}
        if (row.result or {}).get("search"):
            out["search"] = row.result["search"]
        return out

    def watch(self, study_id: str) -> asyncio.Queue[dict[str, Any]] | None:
        """A queue of a running study's progress messages (None when it is not running)."""
        live = self.live.get(study_id)
        if live is None:
            return None
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        live.watchers.add(queue)
        return queue

    def unwatch(self, study_id: str, queue: asyncio.Queue[dict[str, Any]]) -> None:
        """Stop sending progress to ``queue``."""
        live = self.live.get(study_id)
        if live is not None:
            live.watchers.discard(queue)

    # -- downloads -----------------------------------------------------------------------------
    async def on_pool(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on the studio's pool when its workers can open the store (so the server's own
        process spends no CPU on it), else in a thread here."""
        url = self.lab.shared_url
        if url is not None and not self.ray_address:
            return await asyncio.wrap_future(self.executor().submit(_with_lab, url, fn, *args))
        return await asyncio.to_thread(fn, self.lab, *args)

    async def html(self, row: Any, lang: str) -> str:
        """The study's self-contained HTML report (the lab's page), in ``lang``."""
        page: str = await self.on_pool(html_report, list(row.runs), row.request, row.result, lang)
        return page

    async def csv(self, row: Any) -> str:
        """Every game of the study, one CSV row each, with its variant."""
        text: str = await self.on_pool(games_csv, list(row.runs), row.request)
        return text

    async def estimate(self, request: StudyRequest) -> dict[str, Any]:
        """How long ``request`` would take (:func:`estimate`, timed on a studio worker)."""
        url = self.lab.shared_url
        if url is not None and not self.ray_address:
            found: dict[str, Any] = await asyncio.wrap_future(self.executor().submit(estimate, request, self.workers))
            return found
        return await asyncio.to_thread(estimate, request, self.workers)


def _with_lab(url: str, fn: Callable[..., Any], *args: Any) -> Any:
    """A worker's task: ``fn(lab, *args)`` with the store at ``url``."""
    lab = LabStore.open(url, migrate=False)
    try:
        return fn(lab, *args)
    finally:
        lab.close()


def run_labels(lab: LabStore, runs: Sequence[str], request: StudyRequest) -> list[tuple[str, str]]:
    """Each stored run of a study with its label: its variant's, or for a tune the set it checks (name and hash)."""
    if request.kind is not StudyKind.TUNE:
        return list(zip(runs, (v.label for v in request.variants), strict=True))
    existing = [(name, info) for name in runs if (info := lab.find(name)) is not None]
    sets = checked_sets(request.settings(), [(int(name.rsplit("-", 1)[1]), info.config.rules) for name, info in existing])
    return [(name, set_label(cs)) for (name, _), cs in zip(existing, sets, strict=True)]


def report_run(lab: LabStore, runs: Sequence[str], request: StudyRequest,
               result: Mapping[str, Any] | None = None) -> str:
    """The run whose lab report a study's page and HTML file show: the last variant's, or the set a tune's answer
    names."""
    if request.kind is StudyKind.TUNE:
        if (result or {}).get("report_run"):
            return str((result or {})["report_run"])
        names = [name for name, _ in run_labels(lab, runs, request)]
        return names[1] if len(names) > 1 else names[0]
    return runs[-1]


def html_report(lab: LabStore, runs: Sequence[str], request_json: Mapping[str, Any],
                result: Mapping[str, Any] | None, lang: str) -> str:
    """A finished study's self-contained HTML page: the lab's report of its last variant, the study's answer first."""
    from cardtable.lab.report import build_report, html_page

    request = StudyRequest.from_json(request_json)
    view = ((result or {}).get("views") or {}).get(lang, {})
    report = build_report(lab.load(report_run(lab, runs, request, result)), lang)
    if request.kind is not StudyKind.SINGLE:
        report.answer = str(view.get("answer", report.answer))
        report.summary = [*view.get("summary", []), *report.summary]
        report.title = view.get("title", report.title)
    extra = [(str(view.get("table_title", "variants")), view.get("table", []), "")] if view.get("table") else []
    return html_page(report, extra)


def games_csv(lab: LabStore, runs: Sequence[str], request_json: Mapping[str, Any]) -> str:
    """Every game of a study as CSV, one row each, with its variant."""
    from cardtable.lab.report import games_table

    request = StudyRequest.from_json(request_json)
    out = io.StringIO()
    writer: csv.DictWriter[str] | None = None
    for name, label in run_labels(lab, runs, request):
        for game in games_table(lab.load(name)):
            line = {"variant": label, **game}
            if writer is None:
                writer = csv.DictWriter(out, list(line), extrasaction="ignore")
                writer.writeheader()
            writer.writerow(line)
    return out.getvalue()


def _is_file_or_server(url: str) -> bool:
    return not (url.startswith("sqlite://") and url.rstrip("/") in ("sqlite:", "sqlite://", "sqlite:///:memory:"))


# -- the report, built once a study is finished (in a worker when it can be) -------------------
_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "ab_title": "{game}: {b} against {a}",
        "sweep_title": "{game}: {parameter} swept",
        "sweep_point": "{label}: first player {score} ({diff} points against {base}), draws {draws}, length {length}",
        "sweep_best": "Closest to an even game: {label}, the first player scores {score}.",
        "variant": "variant", "first": "first player's score", "difference": "against the first value",
        "draws": "draws", "length": "length (actions)",
        "sweep_axis": "first player's share of the points (%)", "even": "even 50%",
        "table": "Variants",
    },
    "ja": {
        "ab_title": "{game}:{a} に対する {b}",
        "sweep_title": "{game}:{parameter} の掃引",
        "sweep_point": "{label}:先手の得点率 {score}({base} に対して {diff} ポイント)、引き分け {draws}、長さ {length}",
        "sweep_best": "最も互角に近いのは {label}:先手の得点率 {score}。",
        "variant": "条件", "first": "先手の得点率", "difference": "最初の値との差", "draws": "引き分け",
        "length": "長さ(手数)", "sweep_axis": "先手の得点の割合(%)", "even": "互角 50%", "table": "条件ごとの結果",
    },
}


def build_result(url: str, runs: list[str], request: dict[str, Any], study: str = "") -> dict[str, Any]:
    """A worker's task: open the store at ``url`` and build a finished study's report (:func:`result_of`)."""
    lab = LabStore.open(url, migrate=False)
    try:
        return result_of(lab, runs, StudyRequest.from_json(request), study)
    finally:
        lab.close()


def result_of(lab: LabStore, runs: Sequence[str], request: StudyRequest, study: str = "") -> dict[str, Any]:
    """A finished study's report as JSON, in English and Japanese: the answer first, then the evidence.

    ``study`` is the study's id (a tune's search is kept under it).
    """
    from cardtable.lab.analysis import analyse
    from cardtable.lab.compare import compare_runs
    from cardtable.lab.report import build_report

    if request.kind is StudyKind.TUNE:
        return _tune_result(lab, runs, request, study)
    loaded = [lab.load(name) for name in runs]
    numbers = [analyse(run) for run in loaded]
    views: dict[str, Any] = {}
    tallies = []
    for run, variant in zip(loaded, request.variants, strict=True):
        tally = Tally(variant.label)
        for g in run.games:
            tally.add(g.facts.first_player, g.winners, g.players)
        tallies.append(tally.to_json())
    for lang in ("en", "ja"):
        parts = [_view(build_report(run, lang, nums)) for run, nums in zip(loaded, numbers, strict=True)]
        words = _WORDS[lang]
        game_name = re.split("[:\uff1a]", parts[-1]["title"])[0]  # the lab's title: "{game}: {run}"
        if request.kind is StudyKind.SINGLE:
            view = parts[0]
        elif request.kind is StudyKind.AB:
            a, b = request.variants
            comparison = compare_runs(loaded[0], loaded[1], names=(a.label, b.label))
            view = {**parts[1], "title": words["ab_title"].format(game=game_name, a=a.label, b=b.label),
                    "answer": comparison.verdict(lang),
                    "summary": [f"{a.label}: {parts[0]['answer']}", f"{b.label}: {parts[1]['answer']}"],
                    "comparison": comparison.to_json()}
        else:
            view = _sweep_view(loaded, request, words, game_name, parts[-1])
        view["parts"] = [{"label": v.label, "answer": p["answer"]} for v, p in zip(request.variants, parts, strict=True)]
        views[lang] = view
    return {"views": views, "tallies": tallies}


def _tune_result(lab: LabStore, runs: Sequence[str], request: StudyRequest, study: str) -> dict[str, Any]:
    """A tune's report: the lab's held-out check (:func:`cardtable.lab.tune.verify`) of the sets found, read from
    the stored check runs, the search in numbers, and the lab's report of the games of the set the answer names
    (the one nearest the target on the fresh games)."""
    from cardtable.lab.analysis import analyse
    from cardtable.lab.report import build_report
    from cardtable.lab.tune import verify

    settings = request.settings()
    labelled = run_labels(lab, runs, request)
    loaded = [lab.load(name) for name, _ in labelled]
    games: dict[str, Sequence[Any]] = {}
    by_hash: dict[str, Any] = {}
    for run in loaded:
        key = set_from_flags(settings.game, run.info.config.rules).hash
        games.setdefault(key, run.games)
        by_hash.setdefault(key, run)
    searched = load_search(lab.store, study)
    sets = found_sets(settings, searched, request.tune.best if request.tune is not None else 1)
    base, rows = verify(settings, sets, games=request.games, played=lambda cs: games[cs.hash])
    info = search_info(searched)
    target = dict(settings.targets).get("seat", 0.5)
    nearest, _ = min(zip(sets, rows, strict=True), key=lambda p: abs(p[1]["first"]["value"] - target))
    best = by_hash[nearest.hash]
    numbers = analyse(best)
    tallies = []
    for run, (_, label) in zip(loaded, labelled, strict=True):
        tally = Tally(label)
        for g in run.games:
            tally.add(g.facts.first_player, g.winners, g.players)
        tallies.append(tally.to_json())
    views: dict[str, Any] = {}
    for lang in ("en", "ja"):
        part = _view(build_report(best, lang, numbers))
        game_name = re.split("[:\uff1a]", part["title"])[0]
        found = tune_view(settings, base, rows, sets, info, lang, game_name)
        views[lang] = {**part, **found, "subtitle": part["subtitle"], "charts": [*found["charts"], *part["charts"]],
                       "parts": [{"label": set_label(nearest), "answer": part["answer"]}]}
    return {"views": views, "tallies": tallies, "report_run": best.info.name,
            "search": {"phase": "done", "trials_done": info["trials"], "trials": request.tune.trials
                       if request.tune is not None else info["trials"], "games": info["games"], "best": None}}


def _sweep_view(loaded: Sequence[Any], request: StudyRequest, words: Mapping[str, str], game_name: str,
                last: Mapping[str, Any]) -> dict[str, Any]:
    from cardtable.lab import svg
    from cardtable.lab.sweep import measure, paired_first

    base = loaded[0].games
    points = []
    for run, variant in zip(loaded, request.variants, strict=True):
        m = measure(run.games)
        points.append((variant, m, paired_first(base, run.games)))
    best_variant, best, _ = min(points, key=lambda p: abs(p[1]["first"]["value"] - 0.5))

    def score(m: Mapping[str, Any]) -> str:
        f = m["first"]
        return f"{100 * f['value']:.1f}% [{100 * f['low']:.1f}, {100 * f['high']:.1f}]"

    lines = [words["sweep_point"].format(
        label=v.label, score=score(m), diff=f"{100 * d['value']:+.1f} [{100 * d['low']:+.1f}, {100 * d['high']:+.1f}]",
        base=request.variants[0].label, draws=f"{100 * m['draws']['value']:.1f}%",
        length=f"{m['length']['value']:.1f}") for v, m, d in points]
    chart = svg.interval_chart([svg.Bar(v.label, m["first"]["value"], m["first"]["low"], m["first"]["high"],
                                        f"n = {m['games']:,}") for v, m, _ in points],
                               reference=0.5, reference_label=words["even"], axis=words["sweep_axis"])
    table = [{words["variant"]: v.label, words["first"]: score(m),
              words["difference"]: f"{100 * d['value']:+.1f}", words["draws"]: f"{100 * m['draws']['value']:.1f}%",
              words["length"]: f"{m['length']['value']:.1f}"} for v, m, d in points]
    return {"title": words["sweep_title"].format(game=game_name, parameter=request.parameter),
            "subtitle": last.get("subtitle", ""),
            "answer": words["sweep_best"].format(label=best_variant.label, score=score(best)),
            "summary": lines, "charts": [{"key": "sweep", "svg": chart, "caption": ""}], "sections": [],
            "table": table, "table_title": words["table"]}


def _view(report: Any) -> dict[str, Any]:
    """A lab report as the page's components: title, answer, summary lines, SVG charts and per-item sections."""
    sections = []
    for s in report.sections:
        rows = [{"name": r.name, "effect": s.effect(r), "with": r.with_games, "without": r.without_games,
                 "greyed": bool(r.greyed)} for r in s.shown()]
        sections.append({"key": s.key, "title": s.title, "measure": s.measure, "refused": s.refused or "",
                         "rows": rows})
    return {"title": report.title, "subtitle": report.subtitle, "answer": report.answer,
            "summary": list(report.summary),
            "charts": [{"key": k, "svg": v, "caption": report.captions.get(k, "")} for k, v in report.charts.items()],
            "sections": sections}


def estimate(request: StudyRequest, workers: int, sample: int = 4) -> dict[str, Any]:
    """How long a study would take: a few of its games played here, timed, scaled to its games and workers."""
    variant = request.variants[-1]
    config = request.config(variant)
    tasks = plan(config)
    start = time.perf_counter()
    played = play_batch(Batch(config, tuple(tasks[:sample])))
    per_game = (time.perf_counter() - start) / max(1, len(played))
    planned = len(tasks) * len(request.variants)
    out: dict[str, Any] = {"planned": planned, "per_game_s": per_game}
    if request.tune is not None:  # at most every trial to its last step, then the check of the original and the sets
        step = len(plan(StudyConfig(config.game, config.agents, request.tune.step_games, 0, config.rules,
                                    config.setup)))
        search_games = request.tune.trials * request.tune.steps * step
        planned = search_games + sum(len(plan(c)) for c in request.check_configs())
        out.update(planned=planned, search_games=search_games, trials=request.tune.trials)
    out["seconds"] = round(per_game * planned / max(1, workers), 1)
    return out


def report_view(row: Any, lang: str) -> dict[str, Any] | None:
    """A finished study's report in ``lang`` (None while it runs)."""
    views = (row.result or {}).get("views") or {}
    found: dict[str, Any] | None = views.get(lang) or views.get("en")
    return found


__all__ = ["AGENTS", "MAX_GAMES", "Phase", "SetupChoice", "Studio", "StudyKind", "StudyRequest", "StudyStatus", "Tally",
           "Variant", "build_result", "estimate", "make_request", "owner_key", "random_setup", "report_view",
           "result_of", "rule_flags_of", "run_labels", "set_name"]
