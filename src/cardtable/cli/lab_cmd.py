"""``cardtable lab``: the balance lab. Thousands of stored games answer a designer's questions with intervals.

``lab run`` plays and stores a run (resumable), ``lab report`` turns it into numbers, plots, HTML, JSON
and CSV, ``lab compare`` A/B-tests a variant on paired seeds, ``lab decks`` plays a Zeta deck round
robin, ``lab ladder`` rates agents of rising strength. The work is :mod:`cardtable.lab`; this module
parses and presents. Register it with :func:`register`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from cardtable.agents.specs import SPEC_HELP

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from cardtable.lab.pipeline import Progress as RunProgress
    from cardtable.lab.report import Report
    from cardtable.lab.storage import LabStore
    from cardtable.lab.study import StudyConfig

app = typer.Typer(help="The balance lab: many stored games, seat advantage, card strength, variants, decks, skill.",
                  no_args_is_help=True)
console = Console(soft_wrap=True)
err = Console(stderr=True)

AGENTS_HELP = ("Agent specs, repeated over the seats and rotated (`--agents heuristic random`). "
               + "; ".join(SPEC_HELP))
EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}

DbOpt = Annotated[str | None, typer.Option("--db", help="Store URL (SQLAlchemy; default: the file cardtable.db).")]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", help="Local worker processes.")]
RayOpt = Annotated[bool, typer.Option("--ray", help="Play on Ray: a local cluster of --jobs CPUs, or the cluster "
                                                    "at --ray-address.")]
AddressOpt = Annotated[str | None, typer.Option("--ray-address", help="Join this Ray cluster (`auto`, "
                                                "`ray://HOST:10001`); implies --ray.")]
GamesOpt = Annotated[int, typer.Option("-n", "--games", help="Games (rounded up to whole seat rotations).")]
SeedOpt = Annotated[int, typer.Option(help="Seed of the run (game seeds and agent RNGs derive from it).")]
RulesOpt = Annotated[list[str] | None, typer.Option("--rules", "-r", help="Rule flag as flag=value (repeatable).")]
SetupOpt = Annotated[list[str] | None, typer.Option("--setup", help="Setup option as key=value (repeatable).")]
HtmlOpt = Annotated[Path | None, typer.Option("--html", help="Write the self-contained HTML report here.")]
JsonOpt = Annotated[Path | None, typer.Option("--json", help="Write the numbers as JSON here.")]
CsvOpt = Annotated[Path | None, typer.Option("--csv", help="Write the numbers as CSV files into this folder.")]
BatchOpt = Annotated[int | None, typer.Option("--batch", help="Games per worker task (default: automatic).")]


def _fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(code)


def _open(db: str | None) -> LabStore:
    from cardtable.lab.storage import LabStore
    from cardtable.store import DEFAULT_URL

    return LabStore.open(db or DEFAULT_URL)


def _executor(jobs: int, ray: bool, address: str | None) -> Executor | None:
    from cardtable.lab.pipeline import make_executor

    return make_executor(jobs, address, use_ray=ray)


def _extras(args: Sequence[str], flags: Sequence[str] = ()) -> tuple[list[str], dict[str, list[str]]]:
    """Leading bare words (more agents), then the words after each of ``flags`` (``--a k=v k=v``)."""
    leading: list[str] = []
    groups: dict[str, list[str]] = {f: [] for f in flags}
    current: str | None = None
    for word in args:
        if word in groups:
            current = word
        elif word.startswith("-"):
            raise _fail(f"unknown option {word!r}")
        elif current is None:
            leading.append(word)
        else:
            groups[current].append(word)
    return leading, groups


def _progress(title: str, total: int, show: bool = True) -> AbstractContextManager[Callable[[RunProgress], None]]:
    """The run's progress bar, showing the first player's running win rate and the speed."""
    from cardtable.cli.options import progress_bar

    wins = [0, 0]
    start = time.perf_counter()

    def info(p: RunProgress) -> str:
        """The first player's running win rate and the speed."""
        for g in p.batch:
            first = g.first_player
            if first is not None and g.players > 1:
                wins[0] += int(first in g.winners)
                wins[1] += 1
        rate = f"first player {100 * wins[0] / wins[1]:.1f}%  " if wins[1] else ""
        speed = len(p.batch) and p.stored / max(1e-9, time.perf_counter() - start)
        return f"{rate}{speed:.1f} games/s"

    return progress_bar(title, total, info, show)


def _play(lab: LabStore, name: str, config: StudyConfig | None, *, jobs: int, ray: tuple[bool, str | None],
          batch: int | None, show: bool, resume_only: bool = False) -> None:
    """Create (or resume) and play one run with a progress bar; Ctrl-C keeps what was stored."""
    from cardtable.lab.execute import ensure_run, run_study

    info = lab.find(name)
    planned = info.planned if info is not None else 0
    if config is not None:
        from cardtable.lab.study import plan

        planned = len(plan(config))
    executor = _executor(jobs, *ray)
    try:
        with _progress(name, planned, show) as tick:
            if resume_only:
                run_study(lab, name, None, jobs=jobs, executor=executor, batch=batch, on_progress=tick)
            else:
                assert config is not None
                ensure_run(lab, name, config, jobs=jobs, executor=executor, batch=batch, on_progress=tick)
    except KeyboardInterrupt:
        found = lab.find(name)
        stored = found.stored if found is not None else 0
        err.print(f"interrupted: {stored} of {planned} games of {name!r} are stored; "
                  f"`cardtable lab run --resume {name}` finishes it")
        raise typer.Exit(130) from None
    finally:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


def _config(game: str, agents: Sequence[str], games: int, seed: int, rules: Sequence[str], setup: Sequence[str],
            deck: Sequence[str] | None, players: int | None, max_actions: int | None) -> StudyConfig:
    from cardtable.cli.options import setup_from_options
    from cardtable.lab.study import config_from_strings

    extra = setup_from_options(game, deck, players)
    try:
        return config_from_strings(game, agents or ["heuristic"], games=games, seed=seed, rules=rules, setup=setup,
                                   extra_setup=extra, max_actions=max_actions)
    except ValueError as exc:
        raise _fail(str(exc)) from None


@app.command("run", context_settings=EXTRA)
def run_cmd(
    ctx: typer.Context,
    game: Annotated[str | None, typer.Argument(help="Game name (not needed with --resume).")] = None,
    agents: Annotated[list[str] | None, typer.Option("--agents", "-a", help=AGENTS_HELP)] = None,
    games: GamesOpt = 1000,
    rules: RulesOpt = None,
    setup: SetupOpt = None,
    deck: Annotated[list[str] | None, typer.Option(help="Zeta deck: preset name, 'random' or a TOML file.")] = None,
    players: Annotated[int | None, typer.Option(help="Number of players, where the game allows several.")] = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 1,
    ray: RayOpt = False,
    ray_address: AddressOpt = None,
    name: Annotated[str | None, typer.Option(help="Name of the run in the store (default: game and time).")] = None,
    resume: Annotated[str | None, typer.Option(help="Finish the stored run of this name.")] = None,
    max_actions: Annotated[int | None, typer.Option(help="Stop a game after this many actions (a draw).")] = None,
    batch: BatchOpt = None,
    db: DbOpt = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """Play N games on paired seeds with the seats rotated, and store each game's outcome and facts."""
    more, _ = _extras(ctx.args)
    lab = _open(db)
    try:
        if resume is not None:
            if lab.find(resume) is None:
                raise _fail(f"no lab run named {resume!r} in this store")
            _play(lab, resume, None, jobs=jobs, ray=(ray, ray_address), batch=batch, show=progress, resume_only=True)
            target = resume
        else:
            if game is None:
                raise _fail("give GAME (or --resume NAME)")
            config = _config(game, [*(agents or []), *more], games, seed, rules or [], setup or [], deck, players,
                             max_actions)
            target = name or f"{game}-{time.strftime('%Y%m%d-%H%M%S')}"
            if lab.find(target) is not None:
                raise _fail(f"a lab run named {target!r} exists; `cardtable lab run --resume {target}` finishes it")
            _play(lab, target, config, jobs=jobs, ray=(ray, ray_address), batch=batch, show=progress)
        info = lab.get(target)
        console.print(f"{target}: {info.stored} of {info.planned} games stored"
                      f" · `cardtable lab report {target}` for the numbers", markup=False)
    finally:
        lab.close()


def _print_report(report: Report) -> None:
    console.print(f"[bold]{escape(report.title)}[/]")
    for line in report.summary:
        console.print(f"  {line}", markup=False)


def _write(report: Report, html: Path | None, json_out: Path | None, csv_dir: Path | None,
           extra: Sequence[tuple[str, Sequence[dict[str, Any]], str]] = ()) -> None:
    from cardtable.lab.report import html_page, write_csv, write_json

    if html is not None:
        html.parent.mkdir(parents=True, exist_ok=True)
        html.write_text(html_page(report, extra), encoding="utf-8")
        json_out = json_out or html.with_suffix(".json")
        csv_dir = csv_dir or html.with_name(html.stem + "-csv")
    if json_out is not None:
        write_json(report, json_out)
    if csv_dir is not None:
        for name, rows, _ in extra:
            report.tables.setdefault(name, [dict(r) for r in rows])
        write_csv(report, csv_dir)
    for label, path in (("HTML", html), ("JSON", json_out), ("CSV", csv_dir)):
        if path is not None:
            console.print(f"{label}: {path}", markup=False)


@app.command("report")
def report_cmd(
    name: Annotated[str, typer.Argument(help="A stored run (see `cardtable lab list`).")],
    db: DbOpt = None,
    html: HtmlOpt = None,
    json_out: JsonOpt = None,
    csv_dir: CsvOpt = None,
) -> None:
    """Seat advantage, length, endings, draws and per-card strength of a stored run, with 95% intervals."""
    from cardtable.lab.report import build_report
    from cardtable.lab.storage import NoSuchRun

    lab = _open(db)
    try:
        report = build_report(lab.load(name))
    except NoSuchRun as exc:
        raise _fail(str(exc)) from None
    finally:
        lab.close()
    _print_report(report)
    _write(report, html, json_out, csv_dir)


@app.command("facts")
def facts_cmd(
    name: Annotated[str, typer.Argument(help="A stored run (see `cardtable lab list`).")],
    out: Annotated[Path, typer.Option("--csv", help="The CSV file to write.")],
    db: DbOpt = None,
) -> None:
    """Every stored fact of a run, one CSV row each: game, seat, verb, item, turn, count (for your own tools)."""
    from cardtable.lab.storage import NoSuchRun, write_facts_csv

    lab = _open(db)
    try:
        rows = write_facts_csv(lab.load(name), out)
    except NoSuchRun as exc:
        raise _fail(str(exc)) from None
    except OSError as exc:
        raise _fail(f"cannot write {out}: {exc.strerror or exc}") from None
    finally:
        lab.close()
    console.print(f"wrote {rows:,} facts to {out}", markup=False)


@app.command("list")
def list_cmd(db: DbOpt = None) -> None:
    """The stored runs: name, game, agents, games stored of planned."""
    lab = _open(db)
    try:
        for info in lab.runs():
            c = info.config
            console.print(f"{info.name}  {c.game}  {' '.join(c.agents)}  {info.stored}/{info.planned}"
                          f"  rules {json.dumps(dict(c.rules))}  setup {json.dumps(dict(c.setup))}", markup=False)
    finally:
        lab.close()


@app.command("compare", context_settings=EXTRA)
def compare_cmd(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="Game name.")],
    agents: Annotated[list[str] | None, typer.Option("--agents", help=AGENTS_HELP)] = None,
    games: GamesOpt = 1000,
    setup: SetupOpt = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 1,
    ray: RayOpt = False,
    ray_address: AddressOpt = None,
    name: Annotated[str | None, typer.Option(help="Runs are stored as NAME/a and NAME/b.")] = None,
    batch: BatchOpt = None,
    db: DbOpt = None,
    html: HtmlOpt = None,
    json_out: JsonOpt = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """A/B test: `--a k=v ... --b k=v ...` (rule flags or setup options) on the same seeds; a paired verdict."""
    from cardtable.lab.compare import compare_runs, split_items, variant_label
    from cardtable.lab.study import config_from_strings

    more, groups = _extras(ctx.args, ("--a", "--b"))
    lineup = [*(agents or []), *more] or ["heuristic"]
    configs: list[StudyConfig] = []
    for key in ("--a", "--b"):
        try:
            rule_items, setup_items = split_items(game, groups[key])
            configs.append(config_from_strings(game, lineup, games=games, seed=seed, rules=rule_items,
                                               setup=[*(setup or []), *setup_items]))
        except ValueError as exc:
            raise _fail(str(exc)) from None
    base_name = name or f"{game}-compare-{time.strftime('%Y%m%d-%H%M%S')}"
    lab = _open(db)
    try:
        for suffix, config in zip(("a", "b"), configs, strict=True):
            _play(lab, f"{base_name}/{suffix}", config, jobs=jobs, ray=(ray, ray_address), batch=batch, show=progress)
        result = compare_runs(lab.load(f"{base_name}/a"), lab.load(f"{base_name}/b"),
                              (variant_label(groups["--a"]), variant_label(groups["--b"])))
    finally:
        lab.close()
    console.print(result.verdict(), markup=False)
    _write_compare(result, html, json_out)


def _write_compare(result: Any, html: Path | None, json_out: Path | None) -> None:
    from cardtable.lab import plots
    from cardtable.lab.report import Report, flatten

    data = result.to_json()
    report = Report(f"{data['game']}: {data['b']} against {data['a']}", data, [data["verdict"]])
    if data["positions"]:
        report.figures["positions"] = plots.paired_bars(
            [p["label"] for p in data["positions"]], [p["a"] for p in data["positions"]],
            [p["b"] for p in data["positions"]], (data["a"], data["b"]), "win rate by turn order", "win rate (%)")
    report.tables = {"positions": [flatten(p) for p in data["positions"]],
                     "length": [flatten(data["length"])], "draws": [flatten(data["draws"])]}
    _write(report, html, json_out, None)


@app.command("decks", context_settings=EXTRA)
def decks_cmd(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="zeta")],
    agents: Annotated[list[str] | None, typer.Option("--agents", help=AGENTS_HELP)] = None,
    games: Annotated[int, typer.Option("-n", "--games", help="Games per ordered pair of decks.")] = 200,
    rules: RulesOpt = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 1,
    ray: RayOpt = False,
    ray_address: AddressOpt = None,
    name: Annotated[str | None, typer.Option(help="Runs are stored as NAME/DECK-vs-DECK.")] = None,
    db: DbOpt = None,
    html: HtmlOpt = None,
    json_out: JsonOpt = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """A round robin of Zeta decks (presets or TOML files: `lab decks zeta classic control my.toml`) as a matrix."""
    from cardtable.lab.decks import DEFAULT_DECKS, deck_matrix, deck_pairs, deck_spec
    from cardtable.lab.study import config_from_strings

    if game != "zeta":
        raise _fail("deck round robins are for zeta")
    words, _ = _extras(ctx.args)
    try:
        specs = [deck_spec(d) for d in (words or DEFAULT_DECKS)]
    except (ValueError, OSError) as exc:
        raise _fail(str(exc)) from None
    labels = [label for label, _ in specs]
    base_name = name or f"zeta-decks-{time.strftime('%Y%m%d-%H%M%S')}"
    lab = _open(db)
    runs = {}
    try:
        for i, j in deck_pairs(labels):
            try:
                config = config_from_strings("zeta", agents or ["heuristic"], games=games, seed=seed,
                                             rules=rules or [], extra_setup={"decks": [specs[i][1], specs[j][1]]})
            except ValueError as exc:
                raise _fail(str(exc)) from None
            run_name = f"{base_name}/{labels[i]}-vs-{labels[j]}"
            _play(lab, run_name, config, jobs=jobs, ray=(ray, ray_address), batch=None, show=progress)
            runs[(i, j)] = lab.load(run_name)
    finally:
        lab.close()
    matrix = deck_matrix(labels, runs)
    _print_matrix(matrix.to_json())
    from cardtable.lab import plots
    from cardtable.lab.report import Report

    data = matrix.to_json()
    report = Report(f"zeta deck round robin ({games} games per ordered pair; {' vs '.join(agents or ['heuristic'])})",
                    data, [f"{o['deck']}: mean score {100 * o['mean_score']:.1f}% against the others"
                           for o in data["overall"] if o["mean_score"] is not None])
    report.figures["matrix"] = plots.heatmap(labels, [[c["value"] if c else None for c in r] for r in data["matrix"]],
                                             "row deck's score against column deck")
    report.tables = {"matrix": [{"deck": labels[i], **{labels[j]: _cell_text(c) for j, c in enumerate(r)}}
                                for i, r in enumerate(data["matrix"])]}
    _write(report, html, json_out, None)


def _cell_text(c: dict[str, Any] | None) -> str:
    return "-" if c is None else f"{100 * c['value']:.1f}% [{100 * c['low']:.1f}, {100 * c['high']:.1f}]"


def _print_matrix(data: dict[str, Any]) -> None:
    from rich.table import Table

    table = Table(title="row deck's score against column deck (win 1, draw 1/2), 95% intervals")
    table.add_column("deck")
    for d in data["decks"]:
        table.add_column(d, justify="right")
    for d, row in zip(data["decks"], data["matrix"], strict=True):
        table.add_row(d, *[_cell_text(c) for c in row])
    console.print(table)


@app.command("ladder", context_settings=EXTRA)
def ladder_cmd(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="Game name.")],
    games: Annotated[int, typer.Option("-n", "--games", help="Games per pair of rungs.")] = 100,
    adjacent: Annotated[bool, typer.Option(help="Play neighbouring rungs only (not a full round robin).")] = False,
    setup: SetupOpt = None,
    rules: RulesOpt = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 1,
    ray: RayOpt = False,
    ray_address: AddressOpt = None,
    name: Annotated[str | None, typer.Option(help="Runs are stored as NAME/A~B.")] = None,
    db: DbOpt = None,
    html: HtmlOpt = None,
    json_out: JsonOpt = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """Rate agents of rising strength (`lab ladder zeta random heuristic ismcts:easy`) with Elo and intervals."""
    from cardtable.lab.ladder import DEFAULT_RUNGS, fit_ladder, ladder_pairs
    from cardtable.lab.study import config_from_strings

    words, _ = _extras(ctx.args)
    rungs = words or list(DEFAULT_RUNGS)
    base_name = name or f"{game}-ladder-{time.strftime('%Y%m%d-%H%M%S')}"
    lab = _open(db)
    runs = {}
    try:
        for i, j in ladder_pairs(rungs, adjacent):
            try:
                config = config_from_strings(game, [rungs[i], rungs[j]], games=games, seed=seed, rules=rules or [],
                                             setup=setup or [])
            except ValueError as exc:
                raise _fail(str(exc)) from None
            run_name = f"{base_name}/{rungs[i]}~{rungs[j]}"
            _play(lab, run_name, config, jobs=jobs, ray=(ray, ray_address), batch=None, show=progress)
            runs[(i, j)] = lab.load(run_name)
        ladder = fit_ladder(game, rungs, runs)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    finally:
        lab.close()
    data = ladder.to_json()
    for r in data["ratings"]:
        console.print(f"{r['agent']:>24}  Elo {r['elo']:+7.0f}  [{r['low']:+.0f}, {r['high']:+.0f}]", markup=False)
    for s in data["steps"]:
        console.print(f"{s['upper']} over {s['lower']}: {100 * s['score_upper']:.1f}% [{100 * s['low']:.1f}, "
                      f"{100 * s['high']:.1f}] {'(a skill step)' if s['significant'] else '(not significant)'}",
                      markup=False)
    console.print(f"skill depth: {data['skill_depth']} levels; spread {data['spread']:.0f} Elo", markup=False)
    from cardtable.lab import plots
    from cardtable.lab.report import Report, flatten

    report = Report(f"{game} skill ladder ({games} games per pair)", data,
                    [f"skill depth {data['skill_depth']} levels, spread {data['spread']:.0f} Elo"])
    report.figures["ladder"] = plots.ladder_plot(data["ratings"], f"{game}: Elo by agent")
    report.tables = {"ratings": [flatten(r) for r in data["ratings"]], "pairs": [flatten(p) for p in data["pairs"]],
                     "steps": [flatten(s) for s in data["steps"]]}
    _write(report, html, json_out, None)


def register(main: typer.Typer) -> None:
    """Add the ``lab`` sub-app to the ``cardtable`` app."""
    main.add_typer(app, name="lab")
