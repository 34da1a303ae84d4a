"""``cardtable lab``: the balance lab. Thousands of stored games answer a designer's questions with intervals.

``lab run`` plays and stores a run (resumable), ``lab report`` turns it into numbers, plots, HTML, JSON
and CSV, ``lab compare`` A/B-tests a variant on paired seeds, ``lab decks`` plays a deck round
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
SetupOpt = Annotated[list[str] | None, typer.Option("--setup", help="Setup option as key=value (repeatable): a list "
                                                    "as key=a,b; a file as key=@FILE (options=@my_set.toml: a whole "
                                                    "option set); loadouts=random: random Utahime loadouts.")]
LangOpt = Annotated[str, typer.Option("--lang", help="Language of the report, verdict and messages: en or ja.")]
HtmlOpt = Annotated[Path | None, typer.Option("--html", help="Write the self-contained HTML report here (one file).")]
OpenOpt = Annotated[bool, typer.Option("--open", help="Open the HTML report in the browser (written to a temporary "
                                                      "file without --html).")]
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


def _unknown_option(word: str, known: Sequence[str]) -> str:
    """An unknown option's message, with the closest known option when one is close."""
    from cardtable.lab.setup_args import suggest

    close = suggest(word.split("=", 1)[0], known)
    return f"unknown option {word!r}" + (f"; did you mean {close!r}?" if close else "") + " (see --help)"


def _options_of(ctx: typer.Context) -> list[str]:
    """Every option name of the command ``ctx`` runs."""
    return [o for p in ctx.command.params for o in (*p.opts, *p.secondary_opts) if o.startswith("-")]


def _extras(args: Sequence[str], flags: Sequence[str] = (), known: Sequence[str] = ()
            ) -> tuple[list[str], dict[str, list[str]]]:
    """Leading bare words (more agents), then the words after each of ``flags`` (``--a k=v k=v``)."""
    leading: list[str] = []
    groups: dict[str, list[str]] = {f: [] for f in flags}
    current: str | None = None
    for word in args:
        if word in groups:
            current = word
        elif word.startswith("-"):
            raise _fail(_unknown_option(word, [*flags, *known]))
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
    except ValueError as exc:
        raise _fail(str(exc)) from None
    finally:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


def _config(game: str, agents: Sequence[str], games: int, seed: int, rules: Sequence[str], setup: Sequence[str],
            deck: Sequence[str] | None, players: int | None, max_actions: int | None) -> StudyConfig:
    from cardtable.cli.options import setup_from_options
    from cardtable.lab.setup_args import parse_setup_items
    from cardtable.lab.study import config_from_strings

    extra = setup_from_options(game, deck, players)
    try:
        parsed = parse_setup_items(setup)
        return config_from_strings(game, agents or ["heuristic"], games=games, seed=seed, rules=rules,
                                   extra_setup={**parsed, **extra}, max_actions=max_actions)
    except ValueError as exc:
        raise _fail(str(exc)) from None


@app.command("run", context_settings=EXTRA)
def run_cmd(
    ctx: typer.Context,
    game: Annotated[str | None, typer.Argument(help="Game name (not needed with --resume).")] = None,
    agents: Annotated[list[str] | None, typer.Option("--agents", "-a", help=AGENTS_HELP)] = None,
    games: GamesOpt = 1000,
    rules: RulesOpt = None,
    cards: Annotated[Path | None, typer.Option(help="A card-set file (cardtable cards export GAME).")] = None,
    setup: SetupOpt = None,
    deck: Annotated[list[str] | None, typer.Option(help="A deck, for a game with deck files: preset name, 'random' or a TOML file.")] = None,
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
    lang: LangOpt = "en",
) -> None:
    """Play N games on paired seeds with the seats rotated, and store each game's outcome and facts.

    More agents may follow GAME as words (`lab run zeta heuristic random`).
    """
    more, _ = _extras(ctx.args, known=_options_of(ctx))
    t = _translator(lang)
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
            from cardtable.cli.cards_cmd import rules_with_cards

            config = _config(game, [*(agents or []), *more], games, seed, rules_with_cards(game, rules, cards), setup or [], deck, players,
                             max_actions)
            target = name or f"{game}-{time.strftime('%Y%m%d-%H%M%S')}"
            if lab.find(target) is not None:
                raise _fail(f"a lab run named {target!r} exists; `cardtable lab run --resume {target}` finishes it")
            _play(lab, target, config, jobs=jobs, ray=(ray, ray_address), batch=batch, show=progress)
        info = lab.get(target)
        console.print(t("{name}: {stored} of {planned} games stored · `cardtable lab report {name}` for the numbers",
                        name=target, stored=info.stored, planned=info.planned), markup=False)
    finally:
        lab.close()


def _translator(lang: str) -> Callable[..., str]:
    """The translation function of ``--lang`` (exit 2 on an unknown language)."""
    from cardtable.lab.i18n import translator

    try:
        return translator(lang)
    except ValueError as exc:
        raise _fail(str(exc)) from None


def _print_report(report: Report) -> None:
    from cardtable.lab.designer import terminal_lines

    console.print(f"[bold]{escape(report.title)}[/]  {escape(report.subtitle)}")
    lines = terminal_lines(report.numbers, report.lang) if report.sections or report.answer else []
    if lines:
        console.print(f"[bold]{escape(lines[0])}[/]")
    for line in lines[1:]:
        console.print(line, markup=False)
    if report.summary:
        console.print("")
    for line in report.summary:
        console.print(f"  {line}", markup=False)


def _write(report: Report, html: Path | None, json_out: Path | None, csv_dir: Path | None,
           extra: Sequence[tuple[str, Sequence[dict[str, Any]], str]] = (), open_page: bool = False) -> None:
    """Write what was asked for (HTML, JSON, CSV), and open the HTML page if asked."""
    from cardtable.lab.report import html_page, write_csv, write_json

    if open_page and html is None:
        import tempfile

        html = Path(tempfile.mkdtemp(prefix="cardtable-lab-")) / "report.html"
    try:
        if html is not None:
            html.parent.mkdir(parents=True, exist_ok=True)
            html.write_text(html_page(report, extra), encoding="utf-8")
        if json_out is not None:
            write_json(report, json_out)
        if csv_dir is not None:
            for name, rows, _ in extra:
                report.tables.setdefault(name, [dict(r) for r in rows])
            write_csv(report, csv_dir)
    except OSError as exc:
        raise _fail(f"cannot write {exc.filename or ''}: {exc.strerror or exc}") from None
    for label, path in (("HTML", html), ("JSON", json_out), ("CSV", csv_dir)):
        if path is not None:
            console.print(f"{label}: {path}", markup=False)
    if open_page and html is not None:
        import webbrowser

        webbrowser.open(html.resolve().as_uri())


@app.command("report")
def report_cmd(
    name: Annotated[str, typer.Argument(help="A stored run (see `cardtable lab list`).")],
    db: DbOpt = None,
    html: HtmlOpt = None,
    json_out: JsonOpt = None,
    csv_dir: CsvOpt = None,
    lang: LangOpt = "en",
    open_page: OpenOpt = False,
) -> None:
    """The answer first (seat advantage; the strongest and weakest items where the run can tell), then the evidence.

    Prints the answer and each section's top and bottom items; --html writes one self-contained page
    (--open shows it), --json the numbers, --csv every table with its raw columns.
    """
    from cardtable.lab.report import build_report
    from cardtable.lab.storage import NoSuchRun

    _translator(lang)
    lab = _open(db)
    try:
        report = build_report(lab.load(name), lang)
    except NoSuchRun as exc:
        raise _fail(str(exc)) from None
    finally:
        lab.close()
    _print_report(report)
    _write(report, html, json_out, csv_dir, open_page=open_page)


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
            setup = {k: ("custom" if k == "option_toml" else v) for k, v in c.setup.items()}
            console.print(f"{info.name}  {c.game}  {' '.join(c.agents)}  {info.stored}/{info.planned}"
                          f"  rules {json.dumps(dict(c.rules))}  setup {json.dumps(setup)}", markup=False)
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
    lang: LangOpt = "en",
    open_page: OpenOpt = False,
) -> None:
    """A/B test on the same seeds, with a paired verdict.

    After the options: `--a K=V ...` variant A's and `--b K=V ...` variant B's rule flags and setup
    options (lists and files as in --setup: `--b p1_options=quick_study,scout`, `--b options=@my.toml`);
    words before them are more agents.
    """
    from cardtable.lab.compare import compare_runs, split_items, variant_label
    from cardtable.lab.setup_args import parse_setup_items
    from cardtable.lab.study import config_from_strings

    more, groups = _extras(ctx.args, ("--a", "--b"), _options_of(ctx))
    _translator(lang)
    lineup = [*(agents or []), *more] or ["heuristic"]
    configs: list[StudyConfig] = []
    for key in ("--a", "--b"):
        try:
            rule_items, setup_items = split_items(game, groups[key])
            configs.append(config_from_strings(game, lineup, games=games, seed=seed, rules=rule_items,
                                               extra_setup=parse_setup_items([*(setup or []), *setup_items])))
        except ValueError as exc:
            raise _fail(str(exc)) from None
    base_name = name or f"{game}-compare-{time.strftime('%Y%m%d-%H%M%S')}"
    lab = _open(db)
    try:
        for suffix, config in zip(("a", "b"), configs, strict=True):
            _play(lab, f"{base_name}/{suffix}", config, jobs=jobs, ray=(ray, ray_address), batch=batch, show=progress)
        t = _translator(lang)
        label_a, label_b = (variant_label(groups[k]) if groups[k] else t("the default") for k in ("--a", "--b"))
        result = compare_runs(lab.load(f"{base_name}/a"), lab.load(f"{base_name}/b"), (label_a, label_b))
    finally:
        lab.close()
    console.print(result.verdict(lang), markup=False)
    _write_compare(result, html, json_out, lang, open_page)


def _write_compare(result: Any, html: Path | None, json_out: Path | None, lang: str = "en",
                   open_page: bool = False) -> None:
    from cardtable.lab import plots
    from cardtable.lab.designer import points_ci, position_name
    from cardtable.lab.i18n import parse_lang
    from cardtable.lab.report import Report, pct_ci

    t = _translator(lang)
    data = result.to_json()
    report = Report(f"{t(str(data['game']).title())}: {data['b']} / {data['a']}", data, answer=result.verdict(lang),
                    lang=parse_lang(lang))
    if data["positions"]:
        report.figures["positions"] = plots.paired_bars(
            [position_name(t, p["position"]) for p in data["positions"]], [p["a"] for p in data["positions"]],
            [p["b"] for p in data["positions"]], (data["a"], data["b"]), t("win rate by turn order"),
            t("win rate (%)"))
    rows = [{t("position"): t("{who} player", who=position_name(t, p["position"])), "A": pct_ci(p["a"]),
             "B": pct_ci(p["b"]), t("difference (points)"): points_ci(p["difference"]["value"],
                                                                       p["difference"]["low"],
                                                                       p["difference"]["high"]),
             "McNemar p": f"{p['p']:.3f}" if p["p"] >= 0.001 else "< 0.001"} for p in data["positions"]]
    rows.append({t("position"): t("draws"), "A": pct_ci(data["draws"]["a"]), "B": pct_ci(data["draws"]["b"]),
                 t("difference (points)"): points_ci(data["draws"]["difference"]["value"],
                                                      data["draws"]["difference"]["low"],
                                                      data["draws"]["difference"]["high"]),
                 "McNemar p": f"{data['draws']['p']:.3f}"})
    report.tables = {t("A against B, game by game"): rows}
    _write(report, html, json_out, None, open_page=open_page)


@app.command("decks", context_settings=EXTRA)
def decks_cmd(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="A game with deck files (see `cardtable games`).")],
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
    lang: LangOpt = "en",
    open_page: OpenOpt = False,
) -> None:
    """A round robin of decks as a win-rate matrix (a game with deck files): DECK words after the options are
    presets or TOML files (`lab decks zeta classic control my.toml`); decks of one name are told apart as NAME-2.
    """
    from cardtable.core.registry import part
    from cardtable.lab.decks import DEFAULT_PRESETS, deck_matrix, deck_pairs, deck_spec
    from cardtable.lab.setup_args import unique_names
    from cardtable.lab.study import config_from_strings

    t = _translator(lang)
    try:
        book = part(game, "decks", required=False)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if book is None:
        raise _fail(f"{game} has no deck files: deck round robins are for the games with decks")
    words, _ = _extras(ctx.args, known=_options_of(ctx))
    try:
        specs = [deck_spec(d, book) for d in (words or book.presets[:DEFAULT_PRESETS])]
    except (ValueError, OSError) as exc:
        raise _fail(str(exc)) from None
    labels = unique_names([label for label, _ in specs])
    base_name = name or f"{game}-decks-{time.strftime('%Y%m%d-%H%M%S')}"
    lab = _open(db)
    runs = {}
    try:
        for i, j in deck_pairs(labels):
            try:
                config = config_from_strings(game, agents or ["heuristic"], games=games, seed=seed, rules=rules or [],
                                             extra_setup={book.setup_key: [specs[i][1], specs[j][1]]})
            except ValueError as exc:
                raise _fail(str(exc)) from None
            run_name = f"{base_name}/{labels[i]}-vs-{labels[j]}"
            _play(lab, run_name, config, jobs=jobs, ray=(ray, ray_address), batch=None, show=progress)
            runs[(i, j)] = lab.load(run_name)
    finally:
        lab.close()
    matrix = deck_matrix(labels, runs)
    _print_matrix(matrix.to_json(), t)
    from cardtable.lab import plots
    from cardtable.lab.i18n import parse_lang
    from cardtable.lab.report import Report

    data = matrix.to_json()
    best = max((o for o in data["overall"] if o["mean_score"] is not None), key=lambda o: o["mean_score"],
               default=None)
    report = Report(t("Deck round robin ({games} games per ordered pair; {agents})", games=games,
                      agents=" / ".join(agents or ["heuristic"])), data,
                    [t("{deck}: mean score {score} against the others", deck=o["deck"],
                       score=f"{100 * o['mean_score']:.1f}%") for o in data["overall"] if o["mean_score"] is not None],
                    lang=parse_lang(lang))
    if best is not None:
        report.answer = t("The strongest deck is {deck}: it scores {score} against the others on average.",
                          deck=best["deck"], score=f"{100 * best['mean_score']:.1f}%")
    report.figures["matrix"] = plots.heatmap(labels, [[c["value"] if c else None for c in r] for r in data["matrix"]],
                                             "row deck's score against column deck")
    report.tables = {"matrix": [{"deck": labels[i], **{labels[j]: _cell_text(c) for j, c in enumerate(r)}}
                                for i, r in enumerate(data["matrix"])]}
    _write(report, html, json_out, None, open_page=open_page)


def _cell_text(c: dict[str, Any] | None) -> str:
    return "-" if c is None else f"{100 * c['value']:.1f}% [{100 * c['low']:.1f}, {100 * c['high']:.1f}]"


def _print_matrix(data: dict[str, Any], t: Callable[..., str]) -> None:
    from rich.table import Table

    table = Table(title=t("row deck's score against column deck (win 1, draw 1/2), 95% intervals"))
    table.add_column(t("deck"))
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
    lang: LangOpt = "en",
    open_page: OpenOpt = False,
) -> None:
    """Rate agents of rising strength (`lab ladder zeta random heuristic ismcts:easy`) with Elo and intervals."""
    from cardtable.lab.ladder import DEFAULT_RUNGS, fit_ladder, ladder_pairs
    from cardtable.lab.setup_args import parse_setup_items
    from cardtable.lab.study import config_from_strings

    t = _translator(lang)
    words, _ = _extras(ctx.args, known=_options_of(ctx))
    rungs = words or list(DEFAULT_RUNGS)
    base_name = name or f"{game}-ladder-{time.strftime('%Y%m%d-%H%M%S')}"
    lab = _open(db)
    runs = {}
    try:
        for i, j in ladder_pairs(rungs, adjacent):
            try:
                config = config_from_strings(game, [rungs[i], rungs[j]], games=games, seed=seed, rules=rules or [],
                                             extra_setup=parse_setup_items(setup or []))
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
        console.print(t("{upper} over {lower}: {score}", upper=s["upper"], lower=s["lower"],
                        score=f"{100 * s['score_upper']:.1f}% [{100 * s['low']:.1f}, {100 * s['high']:.1f}]") + " "
                      + (t("(a skill step)") if s["significant"] else t("(not significant)")), markup=False)
    depth = t("skill depth: {depth} levels; spread {spread} Elo", depth=data["skill_depth"],
              spread=f"{data['spread']:.0f}")
    console.print(depth, markup=False)
    from cardtable.lab import plots
    from cardtable.lab.i18n import parse_lang
    from cardtable.lab.report import Report, flatten

    report = Report(t("{game}: skill ladder ({games} games per pair)", game=t(game.title()), games=games), data,
                    answer=depth, lang=parse_lang(lang))
    report.figures["ladder"] = plots.ladder_plot(data["ratings"], f"{game}: Elo by agent")
    report.tables = {"ratings": [flatten(r) for r in data["ratings"]], "pairs": [flatten(p) for p in data["pairs"]],
                     "steps": [flatten(s) for s in data["steps"]]}
    _write(report, html, json_out, None, open_page=open_page)


def register(main: typer.Typer) -> None:
    """Add the ``lab`` sub-app to the ``cardtable`` app."""
    from cardtable.cli import lab_tune_cmd

    lab_tune_cmd.register(app)  # lab sweep, lab tune
    main.add_typer(app, name="lab")
