"""The lab's plots: matplotlib figures (the Agg backend, no display) rendered to small PNGs.

Every function takes report numbers (the JSON of :mod:`cardtable.lab.analysis`) and returns PNG
bytes, which the HTML report embeds as base64 and ``docs/images/lab`` keeps as files.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["font.family"] = ["DejaVu Sans", "IPAexGothic"]  # Japanese labels (IPAexGothic, where installed)
matplotlib.rcParams["axes.unicode_minus"] = False

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

DPI = 150
"""Dots per inch of every PNG (readable when a page scales it)."""

_BLUE, _ORANGE, _GREY = "#3b6ea8", "#d9822b", "#888888"


def _png(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    plt.close(fig)
    return buffer.getvalue()


def _err(rows: Sequence[Mapping[str, Any]], key: str | None = None) -> tuple[list[float], list[list[float]]]:
    values, lows, highs = [], [], []
    for r in rows:
        x = r[key] if key is not None else r
        v = x.get("value") if isinstance(x, Mapping) else None
        v = math.nan if v is None else float(v)
        lo: Any = x.get("low") if isinstance(x, Mapping) and x.get("low") is not None else v
        hi: Any = x.get("high") if isinstance(x, Mapping) and x.get("high") is not None else v
        values.append(v)
        lows.append(max(0.0, v - float(lo)) if math.isfinite(v) else 0.0)
        highs.append(max(0.0, float(hi) - v) if math.isfinite(v) else 0.0)
    return values, [lows, highs]


def seat_plot(rows: Sequence[Mapping[str, Any]], fair: float, title: str) -> bytes:
    """Win rate of each turn-order position with its interval, against the fair share."""
    fig, ax = plt.subplots(figsize=(5, 2.8))
    values, err = _err(rows)
    labels = [str(r.get("label")) for r in rows]
    ax.bar(labels, [100 * v for v in values], yerr=[[100 * e for e in err[0]], [100 * e for e in err[1]]],
           color=_BLUE, capsize=4)
    ax.axhline(100 * fair, color=_GREY, linestyle="--", linewidth=1, label=f"fair share {100 * fair:.0f}%")
    ax.set_ylabel("win rate (%)")
    ax.set_xlabel("position in the turn order")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="best")
    return _png(fig)


def histogram(values: Sequence[float], title: str, xlabel: str, bins: int = 30) -> bytes:
    """A histogram of a per-game quantity (length, score)."""
    fig, ax = plt.subplots(figsize=(5, 2.6))
    ax.hist(list(values), bins=bins, color=_BLUE, edgecolor="white")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.set_title(title, fontsize=10)
    return _png(fig)


def bars(labels: Sequence[str], rows: Sequence[Mapping[str, Any]], title: str, xlabel: str,
         percent: bool = True, center: float | None = None) -> bytes:
    """Horizontal bars with intervals (``rows`` of value/low/high), one per label, top to bottom."""
    height = max(1.8, 0.28 * len(labels) + 0.9)
    fig, ax = plt.subplots(figsize=(5.6, height))
    values, err = _err(rows)
    scale = 100.0 if percent else 1.0
    ys = list(range(len(labels)))[::-1]
    colors = [_BLUE if (center is None or v >= center) else _ORANGE for v in values]
    ax.barh(ys, [scale * v if math.isfinite(v) else 0 for v in values],
            xerr=[[scale * e for e in err[0]], [scale * e for e in err[1]]], color=colors, capsize=3)
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=8)
    if center is not None:
        ax.axvline(scale * center, color=_GREY, linewidth=1)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    return _png(fig)


def cost_scatter(cards: Sequence[Mapping[str, Any]], key: str, title: str, ylabel: str) -> bytes:
    """Zeta: each card's cost against its strength (a card above the trend is strong for its cost)."""
    xs, ys, names = [], [], []
    for c in cards:
        value = c.get(key)
        v = value.get("ame") if isinstance(value, Mapping) and "ame" in value else (
            value.get("value") if isinstance(value, Mapping) else None)
        if v is None or not math.isfinite(float(v)):
            continue
        xs.append(float(c["cost"]))
        ys.append(100 * float(v))
        names.append(str(c.get("short") or c["name"]))
    fig, ax = plt.subplots(figsize=(6, 3.6))
    ax.scatter(xs, ys, color=_BLUE, s=18)
    for x, y, n in zip(xs, ys, names, strict=True):
        ax.annotate(n, (x, y), fontsize=8, xytext=(2, 2), textcoords="offset points")
    if len(xs) >= 3:
        import numpy as np

        slope, intercept = np.polyfit(xs, ys, 1)
        grid = [min(xs), max(xs)]
        ax.plot(grid, [slope * g + intercept for g in grid], color=_GREY, linestyle="--", linewidth=1)
    ax.axhline(0, color=_GREY, linewidth=0.6)
    ax.set_xlabel("cost")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    return _png(fig)


def heatmap(labels: Sequence[str], matrix: Sequence[Sequence[float | None]], title: str) -> bytes:
    """A win-rate matrix (row's win rate against column), percentages written in the cells."""
    import numpy as np

    data = np.array([[math.nan if v is None else 100 * float(v) for v in row] for row in matrix])
    size = 1.0 + 0.9 * len(labels)
    fig, ax = plt.subplots(figsize=(size + 1.2, size))
    image = ax.imshow(data, cmap="RdBu", vmin=20, vmax=80)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, fontsize=8)
    for i in range(len(labels)):
        for j in range(len(labels)):
            if math.isfinite(data[i, j]):
                dark = abs(data[i, j] - 50) > 18  # the ends of the colour scale are dark: white numbers there
                ax.text(j, i, f"{data[i, j]:.0f}", ha="center", va="center", fontsize=10,
                        color="white" if dark else "black")
    ax.set_xlabel("opponent deck")
    ax.set_ylabel("deck")
    ax.set_title(title, fontsize=10)
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label="win rate (%)")
    return _png(fig)


def paired_bars(labels: Sequence[str], a: Sequence[Mapping[str, Any]], b: Sequence[Mapping[str, Any]],
                names: tuple[str, str], title: str, ylabel: str) -> bytes:
    """Two variants side by side (win rate by position, say), each bar with its interval."""
    fig, ax = plt.subplots(figsize=(5.4, 2.8))
    width = 0.38
    xs = list(range(len(labels)))
    for offset, rows, color, name in ((-width / 2, a, _BLUE, names[0]), (width / 2, b, _ORANGE, names[1])):
        values, err = _err(rows)
        ax.bar([x + offset for x in xs], [100 * v for v in values], width,
               yerr=[[100 * e for e in err[0]], [100 * e for e in err[1]]], color=color, capsize=3, label=name)
    ax.set_xticks(xs)
    ax.set_xticklabels(labels)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="best")
    return _png(fig)


def ladder_plot(rows: Sequence[Mapping[str, Any]], title: str) -> bytes:
    """Each agent's Elo (random = 0) with its interval."""
    labels = [str(r["agent"]) for r in rows]
    fig, ax = plt.subplots(figsize=(5.4, max(1.8, 0.4 * len(rows) + 0.9)))
    ys = list(range(len(rows)))[::-1]
    values = [float(r["elo"]) for r in rows]
    lows = [max(0.0, v - float(r["low"])) for v, r in zip(values, rows, strict=True)]
    highs = [max(0.0, float(r["high"]) - v) for v, r in zip(values, rows, strict=True)]
    ax.barh(ys, values, xerr=[lows, highs], color=_BLUE, capsize=3)
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=8)
    ax.axvline(0, color=_GREY, linewidth=1)
    ax.set_xlabel("Elo (random = 0)")
    ax.set_title(title, fontsize=10)
    return _png(fig)
