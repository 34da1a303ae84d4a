"""The report's charts as small SVG documents: text stays text (any language, any zoom), 14 px and up.

>>> chart = interval_chart([Bar("first", 0.6, 0.58, 0.62, "n = 1,000")], reference=0.5, axis="share")
>>> chart.startswith("<svg") and "first" in chart and "n = 1,000" in chart
True
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass

FONT = "'Noto Sans', 'IPAexGothic', 'Hiragino Sans', 'Yu Gothic', sans-serif"
"""The charts' fonts: Latin and Japanese."""
_BLUE, _GREY, _LIGHT, _INK = "#2f6db0", "#9a9a9a", "#c8c8c8", "#1f1f1f"


@dataclass(frozen=True)
class Bar:
    """One row of an interval chart: its label, value with interval, a note (the sample size), greyed or not."""

    label: str
    value: float
    low: float
    high: float
    note: str = ""
    greyed: bool = False


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _text_width(text: str) -> int:
    """About how wide ``text`` is at 14 px: a wide (CJK) character 14 px, any other 8."""
    return sum(14 if ord(c) >= 0x2E80 else 8 for c in text)


def _nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    span = high - low
    if span <= 0:
        return [low]
    raw = span / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    return [first + i * step for i in range(int((high - first) / step + 1e-9) + 1)]


def interval_chart(bars: Sequence[Bar], *, reference: float | None = None, reference_label: str = "",
                   axis: str = "", percent: bool = True, signed: bool = False, width: int = 760,
                   title: str = "") -> str:
    """Horizontal dots with their 95% intervals, a labelled reference line, and each row's note at the right."""
    label_w = min(380, max(120, max((_text_width(b.label) for b in bars), default=0) + 18))
    note_w, row_h, top = 190, 28, 34 if title else 12
    plot_w = width - label_w - note_w
    lows = [b.low for b in bars if math.isfinite(b.low)] + ([reference] if reference is not None else [])
    highs = [b.high for b in bars if math.isfinite(b.high)] + ([reference] if reference is not None else [])
    lo, hi = (min(lows), max(highs)) if lows and highs else (0.0, 1.0)
    pad = (hi - lo) * 0.08 or 0.05
    lo, hi = lo - pad, hi + pad
    if percent and not signed:
        lo, hi = max(0.0, lo), min(1.0, hi)

    def x(v: float) -> float:
        return label_w + (v - lo) / (hi - lo) * plot_w

    height = top + row_h * len(bars) + 52
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="{_e(FONT)}" font-size="14" role="img">']
    if title:
        out.append(f'<text x="{label_w}" y="20" font-size="15" font-weight="bold" fill="{_INK}">{_e(title)}</text>')
    bottom = top + row_h * len(bars)
    scale = 100 if percent else 1
    for tick in _nice_ticks(lo, hi):
        tx = x(tick)
        text = f"{scale * tick:+.0f}" if signed else f"{scale * tick:.0f}{'%' if percent else ''}"
        if not percent and not signed:
            text = f"{tick:g}"
        out.append(f'<line x1="{tx:.1f}" y1="{top}" x2="{tx:.1f}" y2="{bottom}" stroke="#eeeeee"/>')
        out.append(f'<text x="{tx:.1f}" y="{bottom + 18}" text-anchor="middle" fill="#555">{_e(text)}</text>')
    if axis:
        out.append(f'<text x="{label_w + plot_w / 2:.1f}" y="{bottom + 40}" text-anchor="middle" '
                   f'fill="#333">{_e(axis)}</text>')
    if reference is not None:
        rx = x(reference)
        out.append(f'<line x1="{rx:.1f}" y1="{top - 4}" x2="{rx:.1f}" y2="{bottom}" stroke="{_GREY}" '
                   'stroke-dasharray="5 4"/>')
        if reference_label:
            out.append(f'<text x="{rx + 4:.1f}" y="{top + 4 if not title else top - 6}" font-size="13" '
                       f'fill="#666">{_e(reference_label)}</text>')
    for i, b in enumerate(bars):
        cy = top + row_h * i + row_h / 2
        colour = _LIGHT if b.greyed else _BLUE
        ink = "#9a9a9a" if b.greyed else _INK
        out.append(f'<text x="{label_w - 10}" y="{cy + 5:.1f}" text-anchor="end" fill="{ink}">{_e(b.label)}</text>')
        if math.isfinite(b.value):
            if math.isfinite(b.low) and math.isfinite(b.high):
                out.append(f'<line x1="{x(max(lo, b.low)):.1f}" y1="{cy:.1f}" x2="{x(min(hi, b.high)):.1f}" '
                           f'y2="{cy:.1f}" stroke="{colour}" stroke-width="3"/>')
            out.append(f'<circle cx="{x(min(hi, max(lo, b.value))):.1f}" cy="{cy:.1f}" r="5.5" fill="{colour}"/>')
        out.append(f'<text x="{label_w + plot_w + 10}" y="{cy + 5:.1f}" fill="{ink}" font-size="13">'
                   f'{_e(b.note)}</text>')
    out.append("</svg>")
    return "".join(out)


def histogram(values: Sequence[float], *, axis: str, count_label: str, width: int = 760, bins: int = 30) -> str:
    """A histogram of a per-game quantity (length, score)."""
    if not values:
        return ""
    lo, hi = min(values), max(values)
    bins = max(1, min(bins, int(hi - lo) + 1))
    step = (hi - lo) / bins or 1.0
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, int((v - lo) / step))] += 1
    left, top, plot_w, plot_h = 60, 12, width - 80, 180
    peak = max(counts)
    height = top + plot_h + 56
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="{_e(FONT)}" font-size="14" role="img">']
    bar_w = plot_w / bins
    for i, c in enumerate(counts):
        h = plot_h * c / peak
        out.append(f'<rect x="{left + i * bar_w + 1:.1f}" y="{top + plot_h - h:.1f}" width="{max(1.0, bar_w - 2):.1f}" '
                   f'height="{h:.1f}" fill="{_BLUE}"/>')
    for tick in _nice_ticks(lo, hi + step):
        tx = left + (tick - lo) / (hi + step - lo) * plot_w
        out.append(f'<text x="{tx:.1f}" y="{top + plot_h + 18}" text-anchor="middle" fill="#555">{tick:g}</text>')
    out.append(f'<text x="{left - 8}" y="{top + 12}" text-anchor="end" fill="#555">{peak}</text>')
    out.append(f'<text x="{left - 8}" y="{top + plot_h}" text-anchor="end" fill="#555">0</text>')
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{top + plot_h + 42}" text-anchor="middle" fill="#333">'
               f'{_e(axis)}</text>')
    out.append(f'<text x="14" y="{top + plot_h / 2:.1f}" transform="rotate(-90 14 {top + plot_h / 2:.1f})" '
               f'text-anchor="middle" fill="#333">{_e(count_label)}</text>')
    out.append("</svg>")
    return "".join(out)
