"""A lab run's report: the numbers (:mod:`cardtable.lab.analysis`), their plots, and one self-contained
HTML page (Jinja2, images embedded as base64), with the same numbers as JSON and CSV.

>>> flatten({"card": "hexer", "gih_wr": {"value": 0.5, "low": 0.4, "high": 0.6}})
{'card': 'hexer', 'gih_wr': 0.5, 'gih_wr_low': 0.4, 'gih_wr_high': 0.6}
"""

from __future__ import annotations

import base64
import csv
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import svg
from .analysis import analyse
from .designer import Section, answer, glossary, position_name, sections
from .i18n import Lang, Translate, parse_lang, translator
from .storage import LoadedRun


@dataclass
class Report:
    """A report: a title, the answer in a sentence, designer-readable lines, the numbers, charts and tables.

    ``figures`` are PNG images (the deck matrix, the ladder, a comparison), ``charts`` SVG documents;
    ``sections`` are the per-item strengths a designer reads, ``tables`` the flat tables the CSV
    files hold (every raw column).
    """

    title: str
    numbers: dict[str, Any]
    summary: list[str] = field(default_factory=list)
    figures: dict[str, bytes] = field(default_factory=dict)
    captions: dict[str, str] = field(default_factory=dict)
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Flat tables (what the CSV files hold), by name."""
    answer: str = ""
    """The answer to the designer's question, in a sentence or two (the page's first line)."""
    subtitle: str = ""
    charts: dict[str, str] = field(default_factory=dict)
    """SVG charts by name (captions in ``captions``)."""
    sections: list[Section] = field(default_factory=list)
    lang: Lang = Lang.EN


def pct(x: Any, digits: int = 1) -> str:
    """A rate as a percentage (``-`` for a missing value)."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "-"
    return f"{100 * float(x):.{digits}f}%"


def pct_ci(r: Mapping[str, Any] | None, digits: int = 1) -> str:
    """``47.1% [45.7, 48.5]`` from a value/low/high mapping."""
    if not r or r.get("value") is None:
        return "-"
    low, high = r.get("low"), r.get("high")
    if low is None or high is None:
        return pct(r["value"], digits)
    return f"{100 * r['value']:.{digits}f}% [{100 * low:.{digits}f}, {100 * high:.{digits}f}]"


def points_ci(value: Any, low: Any, high: Any) -> str:
    """A difference in percentage points with its interval: ``+3.1 [+1.2, +5.0] pts``."""
    if value is None or low is None or high is None:
        return "-"
    return f"{100 * value:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}] pts"


def flatten(row: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """A nested report row as one flat CSV row (``value`` keeps the parent's name)."""
    out: dict[str, Any] = {}
    for key, value in row.items():
        name = f"{prefix}{key}" if not prefix else (prefix[:-1] if key == "value" else f"{prefix}{key}")
        if isinstance(value, Mapping):
            out.update(flatten(value, f"{name}_"))
        elif isinstance(value, (list, tuple)):
            out[name] = json.dumps(value)
        else:
            out[name] = value
    return out


def short_value(value: Any, limit: int = 40) -> str:
    """A setup or rule value as a label: a list joined by commas, a long text cut (a whole TOML is not a label).

    >>> short_value(["quick_study", "scout"]), short_value("x" * 60)[-3:]
    ('quick_study,scout', '...')
    """
    text = ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def run_label(config: Mapping[str, Any]) -> str:
    """A run's rules and setup as a short label: ``option_set=custom, p1_options=a,b`` (no file contents)."""
    items = [f"{k}={short_value(v)}" for k, v in config.get("rules", {}).items()]
    for k, v in config.get("setup", {}).items():
        if k in ("option_toml", "decks") and not isinstance(v, str):
            v = [d if isinstance(d, str) else (d.get("name", "custom") if isinstance(d, Mapping) else "custom")
                 for d in v] if k == "decks" and isinstance(v, (list, tuple)) else "custom"
        elif k == "option_toml":
            continue
        items.append(f"{k}={short_value(v)}")
    return ", ".join(items)


# -- building ------------------------------------------------------------------------------------
def build_report(run: LoadedRun, lang: Lang | str = Lang.EN, numbers: dict[str, Any] | None = None) -> Report:
    """The report of a stored run in ``lang``: the answer, summary, charts, per-item sections and flat tables.

    ``numbers`` are the run's :func:`analyse` numbers when they are at hand (one analysis, two languages).
    """
    lang = parse_lang(lang)
    t = translator(lang)
    numbers = analyse(run) if numbers is None else numbers
    info = numbers["run"]
    config = info["config"]
    title = t("{game}: {name}", game=t(str(info["game"]).title()), name=info["name"])
    subtitle = t("{n} games", n=f"{info['stored']:,}") + " · " + " / ".join(config["agents"])
    label = run_label(config)
    subtitle += " · " + (label or t("default rules"))
    report = Report(title, numbers, subtitle=subtitle, lang=lang)
    report.sections = sections(numbers, lang)
    report.answer = answer(numbers, report.sections, t)
    report.summary = summary_lines(numbers, lang)
    _charts(report, run, t)
    report.tables = tables_of(numbers)
    report.tables["games"] = games_table(run)
    return report


def games_table(run: LoadedRun) -> list[dict[str, Any]]:
    """One row per game (what a spreadsheet joins the facts on): its id, seeds, seats, first player and winners.

    ``winners`` lists the winning seats joined by ``;`` (empty for a draw); ``seat_N`` is seat N's agent.
    """
    rows = []
    for g in run.games:
        row: dict[str, Any] = {"game": g.index, "group": g.group, "rotation": g.rotation, "seed": g.seed,
                               "players": g.players, "first_player": g.facts.first_player,
                               "winners": ";".join(map(str, g.winners)), "draw": int(not g.winners),
                               "shared_win": int(len(g.winners) > 1), "reason": g.reason, "rule": g.rule,
                               "length": g.length, "turns": g.facts.turns}
        for seat, spec in enumerate(g.specs):
            row[f"seat_{seat}"] = spec
        if g.scores is not None:
            for seat, score in enumerate(g.scores):
                row[f"score_{seat}"] = score
        rows.append(row)
    return rows


def summary_lines(numbers: Mapping[str, Any], lang: Lang | str = Lang.EN) -> list[str]:
    """The evidence under the answer: each position's points, wins, draws; length; how games end."""
    t = translator(lang)
    lines = []
    run = numbers["run"]
    if not run["complete"]:
        lines.append(t("Incomplete run: {stored} of {planned} games stored (`cardtable lab run --resume {name}` "
                       "finishes it).", stored=run["stored"], planned=run["planned"], name=run["name"]))
    pts = numbers.get("points") or {}
    for p in pts.get("by_position", []):
        lines.append(t("{who} player: {share} of the points; wins alone {sole}, shares a win {shared}, draws {draw}, "
                       "loses {loss}.", who=position_name(t, p["position"]).capitalize(),
                       share=pct_ci(p), sole=pct(p["sole_win"]), shared=pct(p["shared_win"]), draw=pct(p["draw"]),
                       loss=pct(p["loss"])))
    for agent in numbers.get("seats", {}).get("by_agent", []):
        lines.append(t("Agent {agent} wins {rate} of its seat-games.", agent=agent["agent"], rate=pct_ci(agent)))
    length = numbers.get("lengths", {}).get("actions")
    turns = numbers.get("lengths", {}).get("turns")
    if length and length.get("mean") is not None:
        lines.append(t("A game lasts {mean:.1f} actions on average ({turns:.1f} turns); 90% of games between {p5:.0f} "
                       "and {p95:.0f} actions.", mean=length["mean"], turns=(turns or {}).get("mean") or 0.0,
                       p5=length["p5"], p95=length["p95"]))
    ends = numbers.get("endings", [])
    if ends:
        lines.append(t("How games end: {list}.", list="; ".join(
            f"{_ending(t, e)} {pct(e['value'])}" for e in ends[:4])))
    return lines


ENDINGS = {"ZETA-R20": "four in a row", "ZETA-R22": "the board is full", "ZETA-R23": "an empty deck",
           "OSC-R34": "the noise limit", "OSC-R46": "a train that can no longer be completed",
           "OSC-R60": "the third counted noise", "OSC-R63": "no filter left",
           "UTA-R55": "a player starts a turn with no cards", "UTA-R56": "two dead turns in a row",
           "UTA-R57": "the turn limit"}
"""How a game ends, by the rule that ends it (the lab's words; the catalog translates them)."""


def _ending(t: Translate, e: Mapping[str, Any]) -> str:
    """How a game ended, in words (the rule's name, else the engine's reason), and the rule id."""
    rule = str(e["rule"])
    if rule in ENDINGS:
        return f"{t(ENDINGS[rule])} ({rule})"
    reason = str(e["reason"]) if e.get("reasons") == 1 else t("e.g. {reason}", reason=e["reason"])
    return f"{reason} ({rule})" if rule else reason


def _charts(report: Report, run: LoadedRun, t: Translate) -> None:
    numbers = report.numbers
    pts = numbers.get("points") or {}
    rows = pts.get("by_position") or []
    if len(rows) > 1:
        bars = [svg.Bar(t("{who} player", who=position_name(t, r["position"])), r["value"], r["low"], r["high"],
                        t("n = {n}", n=f"{r['games']:,}")) for r in rows]
        report.charts["seats"] = svg.interval_chart(bars, reference=pts["fair"],
                                                    reference_label=t("fair share {share}", share=pct(pts["fair"], 0)),
                                                    axis=t("share of the points (%)"))
        report.captions["seats"] = t("Each turn position's share of the points, with its 95% interval.")
    score_rows = numbers.get("scores", [])
    if score_rows and run.games and run.games[0].scores is not None and len(score_rows) == 1:
        values = [float(g.scores[0]) for g in run.games if g.scores]
        report.charts["scores"] = svg.histogram(values, axis=t("final score"), count_label=t("games"))
        report.captions["scores"] = t("How the final scores spread.")
    for s in report.sections:
        shown = s.shown()
        if not shown or s.refused:
            continue
        bars = [svg.Bar(r.name, r.value or 0.0, r.low if r.low is not None else math.nan,
                        r.high if r.high is not None else math.nan,
                        t("n = {with_games} / {without_games}", with_games=r.with_games, without_games=r.without_games)
                        + (" " + t("(too few)") if r.greyed else ""), bool(r.greyed)) for r in shown]
        report.charts[s.key] = svg.interval_chart(bars, reference=0.0, axis=s.measure, percent=s.percent, signed=True,
                                                  title=s.title)
        report.captions[s.key] = t("{title}: controlled effect with its 95% interval; n = seat-games with / without; "
                                   "grey: too few games to read.", title=s.title)
    if run.games:
        report.charts["length"] = svg.histogram([float(g.length) for g in run.games], axis=t("actions per game"),
                                                count_label=t("games"))
        report.captions["length"] = t("How long games last.")


def tables_of(numbers: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The report's numbers as flat tables (one CSV file each)."""
    out: dict[str, list[dict[str, Any]]] = {}
    seats = numbers.get("seats", {})
    for key in ("by_position", "by_seat", "by_agent"):
        if seats.get(key):
            out[f"seats_{key}"] = [flatten(r) for r in seats[key]]
    if numbers.get("draws"):
        out["draws"] = [flatten(numbers["draws"])]
    if (numbers.get("points") or {}).get("by_position"):
        out["points_by_position"] = [flatten(r) for r in numbers["points"]["by_position"]]
    if numbers.get("lengths"):
        out["lengths"] = [{"measure": k, **flatten(v)} for k, v in numbers["lengths"].items()]
    if numbers.get("endings"):
        out["endings"] = [flatten(r) for r in numbers["endings"]]
    if numbers.get("scores"):
        out["scores"] = [flatten(r) for r in numbers["scores"]]
    for key, table in numbers.get("strength", {}).items():
        if isinstance(table, Mapping) and table.get("rows"):
            out[f"strength_{key}"] = [flatten(r) for r in table["rows"]]
    return out


# -- writing -------------------------------------------------------------------------------------
def write_json(report: Report, path: Path) -> Path:
    """The numbers as one JSON file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"title": report.title, "summary": report.summary, **report.numbers}, indent=1,
                               ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def write_csv(report: Report, directory: Path) -> list[Path]:
    """One CSV file per flat table in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, rows in report.tables.items():
        columns: list[str] = []
        for r in rows:
            columns += [k for k in r if k not in columns]
        path = directory / f"{name}.csv"
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=columns)
            writer.writeheader()
            writer.writerows(rows)
        written.append(path)
    return written


def write_figures(report: Report, directory: Path, prefix: str) -> list[Path]:
    """Every figure as ``directory/prefix-NAME.png`` and every chart as ``directory/prefix-NAME.svg``."""
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for name, png in report.figures.items():
        path = directory / f"{prefix}-{name}.png"
        path.write_bytes(png)
        out.append(path)
    for name, chart in report.charts.items():
        path = directory / f"{prefix}-{name}.svg"
        path.write_text(chart, encoding="utf-8")
        out.append(path)
    return out


_TEMPLATE = """<!doctype html>
<html lang="{{ lang }}"><head><meta charset="utf-8"><title>{{ title }}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font-family: 'Noto Sans', 'IPAexGothic', 'Hiragino Sans', 'Yu Gothic', sans-serif; max-width: 820px;
       margin: 1.5em auto; padding: 0 1em; color: #1f1f1f; line-height: 1.5; font-size: 16px; }
h1 { font-size: 1.5em; margin-bottom: 0.1em; } h2 { font-size: 1.2em; margin-top: 1.6em; }
.sub { color: #555; margin-top: 0; } .answer { font-size: 1.25em; font-weight: 600; background: #eef4fb;
       border-left: 5px solid #2f6db0; padding: 0.6em 0.9em; }
table { border-collapse: collapse; margin: 0.6em 0 1.2em; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: 4px 8px; text-align: right; }
th { background: #f3f3f3; } th:first-child, td:first-child { text-align: left; }
tr.greyed td { color: #9a9a9a; } .why { font-size: 0.85em; color: #8a4b00; }
figure { margin: 1em 0; } figure svg, figure img { max-width: 100%; height: auto; }
figcaption { font-size: 0.9em; color: #555; }
.refused { background: #fff4e5; border-left: 5px solid #d9822b; padding: 0.5em 0.8em; }
dt { font-weight: 600; margin-top: 0.5em; } dd { margin-left: 1.2em; }
.note { color: #555; font-size: 0.9em; }
</style></head><body>
<h1>{{ title }}</h1>
{% if subtitle %}<p class="sub">{{ subtitle }}</p>{% endif %}
{% if answer %}<p class="answer">{{ answer }}</p>{% endif %}
{% if summary %}<h2>{{ words.evidence }}</h2><ul>{% for line in summary %}<li>{{ line }}</li>{% endfor %}</ul>{% endif %}
{% for name, chart in charts if name in top_charts %}<figure>{{ chart | safe }}
<figcaption>{{ captions.get(name, '') }}</figcaption></figure>{% endfor %}
{% for s in sections %}<h2>{{ s.title }}</h2>
{% if s.refused %}<p class="refused">{{ s.refused }}</p>{% else %}
{% if s.chart %}<figure>{{ s.chart | safe }}<figcaption>{{ s.caption }}</figcaption></figure>{% endif %}
<table><tr><th>{{ words.item }}</th><th>{{ s.measure }}</th><th>{{ words.with }}</th><th>{{ words.without }}</th></tr>
{% for r in s.rows %}<tr{% if r.greyed %} class="greyed"{% endif %}><td>{{ r.name }}{% if r.greyed %}<br><span class="why">{{ r.greyed }}</span>{% endif %}</td>
<td>{{ r.effect }}</td><td>{{ r.with_games }}</td><td>{{ r.without_games }}</td></tr>{% endfor %}</table>{% endif %}
{% endfor %}
{% for name, data in figures %}<figure><img alt="{{ captions.get(name, name) }}" src="data:image/png;base64,{{ data }}">
<figcaption>{{ captions.get(name, '') }}</figcaption></figure>{% endfor %}
{% for name, table in tables %}<h2>{{ table.heading }}</h2>
{% if table.note %}<p class="note">{{ table.note }}</p>{% endif %}
<table><tr>{% for c in table.columns %}<th>{{ c }}</th>{% endfor %}</tr>
{% for row in table.rows %}<tr>{% for cell in row %}<td>{{ cell }}</td>{% endfor %}</tr>{% endfor %}</table>
{% endfor %}
{% for name, chart in charts if name not in top_charts and name not in section_charts %}<figure>{{ chart | safe }}
<figcaption>{{ captions.get(name, '') }}</figcaption></figure>{% endfor %}
{% if glossary %}<h2>{{ words.glossary }}</h2><dl>{% for term, text in glossary %}<dt>{{ term }}</dt><dd>{{ text }}</dd>
{% endfor %}</dl>{% endif %}
<p class="note">{{ words.csv }}</p>
</body></html>
"""


def _cell(value: Any) -> str:
    """A table cell: whole numbers without decimals, rates as they are written."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            return "-"
        if value.is_integer():
            return f"{int(value):,}"
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
    if isinstance(value, int):
        return f"{value:,}"
    return "-" if value is None else str(value)


def _inline(chart: str) -> str:
    """An SVG document as an element of an HTML page (the page needs no namespace, nor any address)."""
    return chart.replace(' xmlns="http://www.w3.org/2000/svg"', "", 1)


def html_page(report: Report, extra: Sequence[tuple[str, Sequence[Mapping[str, Any]], str]] = ()) -> str:
    """The report as one self-contained HTML page (every chart and image inline; no external resource).

    A run's report shows the answer, the evidence, the per-item sections and a glossary; the flat
    tables (every raw column) are left to the CSV files. A report without sections (a comparison,
    a deck matrix, a ladder) shows its flat tables.
    """
    import jinja2

    t = translator(report.lang)
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    tables = []
    sources = [*report.tables.items()] if not report.sections else []
    for name, rows in [*sources, *[(n, r) for n, r, _ in extra]]:
        columns: list[str] = []
        for r in rows:
            columns += [k for k in r if k not in columns]
        notes = [n for n2, _, n in extra if n2 == name]
        heading = name.replace("_", " ").capitalize() if re.fullmatch(r"[a-z0-9_]+", name) else name
        tables.append((name, {"heading": heading, "columns": columns,
                              "rows": [[_cell(r.get(c)) for c in columns] for r in rows],
                              "note": notes[0] if notes else ""}))
    secs = []
    for s in report.sections:
        rows = [{"name": r.name, "greyed": r.greyed, "with_games": f"{r.with_games:,}",
                 "without_games": f"{r.without_games:,}",
                 "effect": s.effect(r)}
                for r in [*s.shown(), *[r for r in s.rows if r.value is None]]]
        secs.append({"title": s.title, "measure": s.measure, "refused": s.refused, "rows": rows,
                     "chart": _inline(report.charts.get(s.key, "")), "caption": report.captions.get(s.key, "")})
    figures = [(name, base64.b64encode(png).decode("ascii")) for name, png in report.figures.items()]
    words = {"evidence": t("The evidence"), "item": t("item"), "with": t("seat-games with"),
             "without": t("seat-games without"), "glossary": t("Glossary"),
             "csv": t("Every number of this page, with the raw columns, is in the report's CSV files "
                      "(`cardtable lab report NAME --csv FOLDER`).")}
    return env.from_string(_TEMPLATE).render(
        lang=report.lang.value, title=report.title, subtitle=report.subtitle, answer=report.answer,
        summary=report.summary, charts=[(k, _inline(v)) for k, v in report.charts.items()], top_charts=("seats", "scores"),
        section_charts=[s.key for s in report.sections], captions=report.captions, sections=secs, figures=figures,
        tables=tables, words=words, glossary=glossary(t) if report.sections or report.answer else [])


def write_html(report: Report, path: Path) -> Path:
    """Write the self-contained HTML page."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html_page(report), encoding="utf-8")
    return path
