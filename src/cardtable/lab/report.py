"""A lab run's report: the numbers (:mod:`cardtable.lab.analysis`), their plots, and one self-contained
HTML page (Jinja2, images embedded as base64), with the same numbers as JSON and CSV.

>>> flatten({"card": "hexer", "gih_wr": {"value": 0.5, "low": 0.4, "high": 0.6}})
{'card': 'hexer', 'gih_wr': 0.5, 'gih_wr_low': 0.4, 'gih_wr_high': 0.6}
"""

from __future__ import annotations

import base64
import csv
import html
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import plots
from .analysis import analyse
from .storage import LoadedRun


@dataclass
class Report:
    """A report: a title, designer-readable summary lines, the numbers, and PNG figures by name."""

    title: str
    numbers: dict[str, Any]
    summary: list[str] = field(default_factory=list)
    figures: dict[str, bytes] = field(default_factory=dict)
    captions: dict[str, str] = field(default_factory=dict)
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Flat tables (what the CSV files hold), by name."""


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


# -- building ------------------------------------------------------------------------------------
def build_report(run: LoadedRun) -> Report:
    """The report of a stored run: numbers, summary, figures and flat tables."""
    numbers = analyse(run)
    info = numbers["run"]
    config = info["config"]
    agents = " vs ".join(config["agents"])
    changed = ", ".join(f"{k}={v}" for k, v in config["rules"].items()) or "default rules"
    setup = ", ".join(f"{k}={v}" for k, v in config["setup"].items() if k != "option_toml")
    title = f"{info['game']}: {info['name']} ({info['stored']} games; {agents}; {changed}{'; ' + setup if setup else ''})"
    report = Report(title, numbers)
    report.summary = summary_lines(numbers)
    _figures(report, run)
    report.tables = tables_of(numbers)
    return report


def summary_lines(numbers: Mapping[str, Any]) -> list[str]:
    """What a designer reads first: seat advantage, draws, length, how games end."""
    lines = []
    run = numbers["run"]
    if not run["complete"]:
        lines.append(f"Incomplete run: {run['stored']} of {run['planned']} games stored "
                     f"(`cardtable lab run --resume {run['name']}` finishes it).")
    positions = numbers.get("seats", {}).get("by_position", [])
    if len(positions) > 1:
        fair = 1 / len(positions)
        parts = [f"{p['label']} player {pct_ci(p)}" for p in positions]
        lines.append(f"Win rate by turn order (fair share {pct(fair, 0)}): " + "; ".join(parts) + ".")
    for agent in numbers.get("seats", {}).get("by_agent", []):
        lines.append(f"Agent {agent['agent']} wins {pct_ci(agent)} of its seat-games.")
    d = numbers.get("draws")
    if d:
        extra = f", {d['truncated']} of them stopped at the action limit" if d.get("truncated") else ""
        lines.append(f"Draws: {d['draws']} of {d['games']} games ({pct_ci(d)}){extra}.")
    length = numbers.get("lengths", {}).get("actions")
    turns = numbers.get("lengths", {}).get("turns")
    if length and length.get("mean") is not None:
        text = (f"Length: {length['mean']:.1f} actions on average (median {length['median']:.0f}, "
                f"90% of games between {length['p5']:.0f} and {length['p95']:.0f})")
        if turns and turns.get("mean"):
            text += f"; {turns['mean']:.1f} turns"
        lines.append(text + ".")
    ends = numbers.get("endings", [])
    if ends:
        lines.append("Games end by " + "; ".join(f"{e['rule']} ({e['reason'] if e['reasons'] == 1 else 'e.g. ' + e['reason']}) "
                                                 f"{pct(e['value'])}" for e in ends[:4]) + ".")
    for s in numbers.get("scores", []):
        if s.get("mean") is not None and len(numbers.get("scores", [])) == 1:
            lines.append(f"Score: mean {s['mean']:.2f} [{s['mean_low']:.2f}, {s['mean_high']:.2f}], median "
                         f"{s['median']:.0f}, 90% between {s['p5']:.0f} and {s['p95']:.0f}.")
    return lines


def _figures(report: Report, run: LoadedRun) -> None:
    numbers = report.numbers
    positions = numbers.get("seats", {}).get("by_position", [])
    if len(positions) > 1:
        report.figures["seats"] = plots.seat_plot(positions, 1 / len(positions), "win rate by turn order")
        report.captions["seats"] = "Win rate of each position in the turn order, with 95% Wilson intervals."
    if run.games:
        report.figures["length"] = plots.histogram([g.length for g in run.games], "game length", "actions")
        report.captions["length"] = "Distribution of game length (actions, automatic steps excluded)."
    ends = numbers.get("endings", [])
    if len(ends) > 1:
        report.figures["endings"] = plots.bars([f"{e['rule']} {e['reason']}"[:40] for e in ends], ends,
                                               "how games end", "games (%)")
        report.captions["endings"] = "Share of games by the rule that ended them."
    score_rows = numbers.get("scores", [])
    if score_rows and run.games and run.games[0].scores is not None and len(score_rows) == 1:
        values = [g.scores[0] for g in run.games if g.scores]
        report.figures["scores"] = plots.histogram(values, "final score", "score", bins=max(5, min(30, len(set(values)))))
        report.captions["scores"] = "Distribution of the final score."
    strength = numbers.get("strength", {})
    cards = strength.get("cards")
    if cards and cards.get("rows"):
        rows = [r for r in cards["rows"] if r["iwd"].get("value") is not None]
        rows.sort(key=lambda r: -r["iwd"]["value"])
        if rows:
            report.figures["cards_iwd"] = plots.bars([f"{r['name']} ({r['cost']})" for r in rows],
                                                     [r["iwd"] for r in rows], "improvement when drawn (IWD)",
                                                     "GIH WR minus GNS WR (points)", center=0.0)
            report.captions["cards_iwd"] = ("Improvement when drawn: win rate with the card in hand minus win rate "
                                            "without it ever in hand, with game-bootstrap 95% intervals.")
        controlled = [r for r in cards["rows"] if r.get("controlled")]
        if controlled:
            report.figures["cards_cost"] = plots.cost_scatter(controlled, "controlled",
                                                              "strength for the cost", "controlled effect (points)")
            report.captions["cards_cost"] = ("Each card's cost against its controlled effect of being in hand "
                                             "(logistic regression, average marginal effect); above the dashed "
                                             "trend: strong for its cost.")
    for key in ("special", "ranks", "triggers", "kept", "noise", "options"):
        table = strength.get(key)
        if not table or not table.get("rows"):
            continue
        rows = [r for r in table["rows"] if r.get("effect")]
        if not rows:
            continue
        effects = [{"value": r["effect"]["ame"], "low": r["effect"]["ame_low"], "high": r["effect"]["ame_high"]}
                   for r in rows]
        solo = table.get("measure") == "mean score"
        report.figures[key] = plots.bars([r["feature"] for r in rows], effects, table["label"],
                                         "effect per use on the score" if solo else "effect per use (points)",
                                         percent=not solo, center=0.0)
        report.captions[key] = (f"{table['label']}: the controlled effect of one more use on "
                                f"{'the final score' if solo else 'the win probability'} (statsmodels, clustered "
                                "by game, 95% intervals).")


def tables_of(numbers: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The report's numbers as flat tables (one CSV file each)."""
    out: dict[str, list[dict[str, Any]]] = {}
    seats = numbers.get("seats", {})
    for key in ("by_position", "by_seat", "by_agent"):
        if seats.get(key):
            out[f"seats_{key}"] = [flatten(r) for r in seats[key]]
    if numbers.get("draws"):
        out["draws"] = [flatten(numbers["draws"])]
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
    """Every figure as ``directory/prefix-NAME.png``."""
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for name, png in report.figures.items():
        path = directory / f"{prefix}-{name}.png"
        path.write_bytes(png)
        out.append(path)
    return out


_TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ title }}</title>
<style>
body { font-family: sans-serif; max-width: 960px; margin: 1.5em auto; color: #222; line-height: 1.4; }
table { border-collapse: collapse; margin: 0.6em 0 1.2em; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
figure { margin: 0.8em 0; } figcaption { font-size: 0.85em; color: #555; }
.note { color: #8a4b00; font-size: 0.85em; }
</style></head><body>
<h1>{{ title }}</h1>
<ul>{% for line in summary %}<li>{{ line }}</li>{% endfor %}</ul>
{% for name, data in figures %}<figure><img alt="{{ name }}" src="data:image/png;base64,{{ data }}">
<figcaption>{{ captions.get(name, '') }}</figcaption></figure>{% endfor %}
{% for name, table in tables %}<h2>{{ name }}</h2>
{% if table.note %}<p class="note">{{ table.note }}</p>{% endif %}
<table><tr>{% for c in table.columns %}<th>{{ c }}</th>{% endfor %}</tr>
{% for row in table.rows %}<tr>{% for cell in row %}<td>{{ cell }}</td>{% endfor %}</tr>{% endfor %}</table>
{% endfor %}
<p class="note">Intervals are 95%: Wilson for proportions, a bootstrap resampling whole games for per-card
and per-play rates; controlled effects are average marginal effects of statsmodels regressions with
errors clustered by game.</p>
</body></html>
"""


def _cell(value: Any) -> str:
    if isinstance(value, float):
        if not math.isfinite(value):
            return "-"
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
    return "-" if value is None else str(value)


def html_page(report: Report, extra: Sequence[tuple[str, Sequence[Mapping[str, Any]], str]] = ()) -> str:
    """The report as one self-contained HTML page (every image inline; no external resource)."""
    import jinja2

    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    tables = []
    for name, rows in [*report.tables.items(), *[(n, r) for n, r, _ in extra]]:
        columns: list[str] = []
        for r in rows:
            columns += [k for k in r if k not in columns]
        notes = [n for n2, _, n in extra if n2 == name]
        tables.append((name, {"columns": columns, "rows": [[_cell(r.get(c)) for c in columns] for r in rows],
                              "note": notes[0] if notes else _fit_note(report, name)}))
    figures = [(name, base64.b64encode(png).decode("ascii")) for name, png in report.figures.items()]
    return env.from_string(_TEMPLATE).render(title=report.title, summary=report.summary, figures=figures,
                                             captions=report.captions, tables=tables)


def _fit_note(report: Report, table: str) -> str:
    key = table.removeprefix("strength_")
    fit = report.numbers.get("strength", {}).get(key, {})
    fit = fit.get("fit") if isinstance(fit, Mapping) else None
    if not fit:
        return ""
    text = (f"Controlled effects: {fit['model']} of {fit['outcome']} on the features with controls "
            f"{', '.join(fit['controls']) or 'none'}; {fit['observations']} seat-games.")
    if fit.get("dropped"):
        text += f" Left out (no variance or collinear): {', '.join(map(str, fit['dropped']))}."
    if fit.get("note"):
        text += " Warning: " + html.unescape(str(fit["note"]))
    return text


def write_html(report: Report, path: Path) -> Path:
    """Write the self-contained HTML page."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html_page(report), encoding="utf-8")
    return path
