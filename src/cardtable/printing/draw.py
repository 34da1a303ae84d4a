"""Drawing helpers shared by the games' card designs: a card face's geometry, fitted text, panels and back patterns.

A painter draws one face of a card on a canvas whose origin is the card's trimmed bottom-left
corner, in points; it may paint out to the bleed (negative coordinates and beyond the trim). All
text goes through ``fit_line`` and ``fit_text``, which embed the registered font, refuse
characters it cannot draw, and shrink the text until it fits or say it does not.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from .fonts import register_font, require_glyphs
from .layout import PrintError

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

DESIGN_WIDTH_MM = 63.0
DESIGN_HEIGHT_MM = 88.0
"""Card designs are drawn for 63 x 88 mm and scaled to the card size asked for."""


@dataclass(frozen=True)
class Face:
    """The geometry of one card face in points: trimmed width and height, and the bleed around them."""

    width: float
    height: float
    bleed: float

    @property
    def scale(self) -> float:
        """How much the 63 x 88 mm design is scaled to fit this card."""
        return min(self.width / (DESIGN_WIDTH_MM * mm), self.height / (DESIGN_HEIGHT_MM * mm))

    def u(self, millimetres: float) -> float:
        """A design length in millimetres, scaled, in points (sizes: line widths, radii)."""
        return millimetres * mm * self.scale

    def x(self, millimetres: float) -> float:
        """A horizontal design position or width in millimetres, stretched to this card's width, in points."""
        return millimetres * mm * self.width / (DESIGN_WIDTH_MM * mm)

    def y(self, millimetres: float) -> float:
        """A vertical design position or height in millimetres, stretched to this card's height, in points."""
        return millimetres * mm * self.height / (DESIGN_HEIGHT_MM * mm)


Painter = Callable[["Canvas", Face], None]
"""Draws one face of a card (front or back)."""


class Align(Enum):
    """Horizontal alignment of a line of text."""

    LEFT = "left"
    CENTER = "center"
    RIGHT = "right"


INK = HexColor("#222222")
GREY = HexColor("#666666")
PAPER = white


def tint(colour: Color, amount: float) -> Color:
    """``colour`` mixed with white: 0 is the colour, 1 is white."""
    return Color(colour.red + (1 - colour.red) * amount, colour.green + (1 - colour.green) * amount,
                 colour.blue + (1 - colour.blue) * amount)


def text_width(text: str, size: float) -> float:
    """The width in points of ``text`` set in the card font at ``size``."""
    return float(stringWidth(text, register_font(), size))


def wrap(text: str, size: float, width: float) -> list[str]:
    """Break ``text`` into lines no wider than ``width``: at spaces, and inside a word only if it must."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if text_width(candidate, size) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = ""
            for ch in word:  # a word wider than the line (or Japanese, which has no spaces)
                if line and text_width(line + ch, size) > width:
                    lines.append(line)
                    line = ""
                line += ch
        lines.append(line)
    return lines


def _draw_aligned(c: Canvas, text: str, x: float, y: float, width: float, align: Align) -> None:
    if align is Align.LEFT:
        c.drawString(x, y, text)
    elif align is Align.CENTER:
        c.drawCentredString(x + width / 2, y, text)
    else:
        c.drawRightString(x + width, y, text)


def fit_line(c: Canvas, text: str, x: float, y: float, width: float, size: float, *, min_size: float | None = None,
             align: Align = Align.LEFT, colour: Color = INK) -> float:
    """Draw one line with its baseline at ``y``, shrunk to fit ``width``; return the size used."""
    require_glyphs(text, f"text {text!r}")
    low = min_size if min_size is not None else size * 0.5
    used = size
    while text_width(text, used) > width:
        used -= 0.25
        if used < low:
            raise PrintError(f"the text {text!r} does not fit on the card; shorten it or use a larger --card")
    c.setFont(register_font(), used)
    c.setFillColor(colour)
    _draw_aligned(c, text, x, y, width, align)
    return used


def fit_text(c: Canvas, text: str, x: float, top: float, width: float, height: float, size: float, *,
             min_size: float | None = None, align: Align = Align.LEFT, colour: Color = INK,
             leading: float = 1.22) -> float:
    """Draw wrapped text in the box whose top-left corner is (x, top), shrunk until it fits; return the size."""
    require_glyphs(text, f"text {text[:40]!r}")
    low = min_size if min_size is not None else size * 0.5
    used = size
    while True:
        lines = wrap(text, used, width)
        if len(lines) * used * leading <= height + 1e-6:
            break
        used -= 0.25
        if used < low:
            raise PrintError(f"the text {text[:60]!r} does not fit on the card; shorten it or use a larger --card")
    c.setFont(register_font(), used)
    c.setFillColor(colour)
    y = top - used
    for line in lines:
        _draw_aligned(c, line, x, y, width, align)
        y -= used * leading
    return used


def fill_bleed(c: Canvas, face: Face, colour: Color) -> None:
    """Paint the whole card, bleed included, in one colour."""
    c.setFillColor(colour)
    b = face.bleed
    c.rect(-b, -b, face.width + 2 * b, face.height + 2 * b, stroke=0, fill=1)


def panel(c: Canvas, x: float, y: float, width: float, height: float, *, fill: Color | None = PAPER,
          stroke: Color | None = None, line_width: float = 0.6, radius: float = 0.0) -> None:
    """A (rounded) rectangle, filled and/or stroked."""
    if fill is not None:
        c.setFillColor(fill)
    if stroke is not None:
        c.setStrokeColor(stroke)
        c.setLineWidth(line_width)
    c.roundRect(x, y, width, height, radius, stroke=int(stroke is not None), fill=int(fill is not None))


def badge(c: Canvas, cx: float, cy: float, radius: float, label: str, *, fill: Color, colour: Color = PAPER) -> None:
    """A filled circle with a centred label (a cost)."""
    c.setFillColor(fill)
    c.circle(cx, cy, radius, stroke=0, fill=1)
    size = radius * (1.25 if len(label) < 2 else 1.0)
    fit_line(c, label, cx - radius, cy - size * 0.36, 2 * radius, size, align=Align.CENTER, colour=colour)


class Pattern(Enum):
    """The patterns a card back is covered with; each deck's back has its own, so they differ in grey too."""

    STRIPES = "stripes"
    DOTS = "dots"
    WAVES = "waves"
    SLOPES = "slopes"
    CHECKS = "checks"


def _paint_pattern(c: Canvas, face: Face, pattern: Pattern, ink: Color) -> None:
    b = face.bleed
    x0, y0, x1, y1 = -b, -b, face.width + b, face.height + b
    step = face.u(4.0)
    c.setStrokeColor(ink)
    c.setFillColor(ink)
    c.setLineWidth(face.u(0.9))
    if pattern is Pattern.STRIPES:
        span = (x1 - x0) + (y1 - y0)
        k = 0.0
        while k <= span:
            c.line(x0 + k, y0, x0 + k - (y1 - y0), y1)
            k += step
    elif pattern is Pattern.DOTS:
        row = 0
        y = y0
        while y <= y1 + step:
            x = x0 + (step / 2 if row % 2 else 0)
            while x <= x1 + step:
                c.circle(x, y, face.u(0.8), stroke=0, fill=1)
                x += step
            y += step * 0.87
            row += 1
    elif pattern is Pattern.CHECKS:
        row = 0
        y = y0
        while y <= y1:
            x = x0 + (step if row % 2 else 0)
            while x <= x1:
                c.rect(x, y, step, step, stroke=0, fill=1)
                x += 2 * step
            y += step
            row += 1
    elif pattern is Pattern.WAVES:
        amp = step * 0.6
        y = y0 + step
        while y <= y1:
            path = c.beginPath()
            x, high = x0, False
            path.moveTo(x, y)
            while x <= x1:
                x += step
                path.lineTo(x, y + (amp if high else 0))
                high = not high
                path.lineTo(x, y + (amp if high else 0))
            c.drawPath(path, stroke=1, fill=0)
            y += 2.2 * step
    else:  # SLOPES: rising and falling trigger marks
        y, row = y0 + step, 0
        while y <= y1:
            x = x0 + (step if row % 2 else 0)
            while x <= x1:
                c.line(x, y, x + step, y + step * 0.8)
                c.line(x + step, y, x + 2 * step, y + step * 0.8)
                x += 2.5 * step
            y += 1.6 * step
            row += 1


Emblem = Callable[["Canvas", Face, float, float, float, float], None]
"""Draws a picture in the box (x, y, width, height) of a back's plaque."""


def pattern_back(pattern: Pattern, base: Color, ink: Color, emblem: str | Emblem, title: str,
                 subtitle: str, *, least_pt: float = 0.0, stamp: str = "") -> Painter:
    """A card back: a patterned field with a central plaque (emblem text or picture, title, subtitle).

    ``least_pt``: no text smaller than this (the legible cards: 7); ``stamp``: a card set's name and hash,
    on a strip under the plaque.
    """

    def paint(c: Canvas, face: Face) -> None:
        fill_bleed(c, face, base)
        c.saveState()
        _paint_pattern(c, face, pattern, ink)
        c.restoreState()
        w, h = face.width, face.height
        pw, ph = w * 0.72, face.u(34)
        px, py = (w - pw) / 2, (h - ph) / 2
        panel(c, px, py, pw, ph, fill=PAPER, stroke=base, line_width=face.u(1.2), radius=face.u(4))
        if isinstance(emblem, str):
            fit_line(c, emblem, px, py + ph * 0.44, pw, pt(face, 34), align=Align.CENTER, colour=base)
        else:
            c.saveState()
            c.setStrokeColor(base)
            c.setFillColor(base)
            emblem(c, face, px + pw * 0.15, py + ph * 0.42, pw * 0.7, ph * 0.45)
            c.restoreState()
        low = least_pt or None
        fit_line(c, title, px + face.u(2), py + ph * 0.24, pw - face.u(4), max(pt(face, 9), least_pt),
                 min_size=low, align=Align.CENTER, colour=INK)
        fit_line(c, subtitle, px + face.u(2), py + ph * 0.09, pw - face.u(4), max(pt(face, 6.5), least_pt),
                 min_size=low, align=Align.CENTER, colour=GREY)
        if stamp:
            size = max(pt(face, 7), least_pt)
            panel(c, px, py - face.u(9), pw, face.u(6), fill=PAPER, radius=face.u(1.5))
            fit_line(c, stamp, px + face.u(1.5), py - face.u(9) + face.u(1.9), pw - face.u(3), size, min_size=low,
                     align=Align.CENTER, colour=INK)

    return paint


def pt(face: Face, size_pt: float) -> float:
    """A font size given for the 63 x 88 mm design, scaled to this card."""
    return size_pt * face.scale


def sections(c: Canvas, face: Face, rows: tuple[tuple[str, str], ...], x: float, top: float, width: float,
             bottom: float, size: float, *, head_colour: Color = INK, min_size: float | None = None) -> float:
    """Headed paragraphs from ``top`` down to ``bottom``, all at the largest size that fits; return it."""
    low = min_size if min_size is not None else size * 0.5
    require_glyphs("".join(h + b for h, b in rows), "reference text")
    leading = 1.2
    used = size
    while True:
        needed = sum(used * 1.15 + len(wrap(body, used, width)) * used * leading + used * 0.45 for _, body in rows)
        if needed <= top - bottom:
            break
        used -= 0.2
        if used < low:
            raise PrintError("the reference text does not fit on the card; use a larger --card")
    y = top
    font = register_font()
    for head, body in rows:
        y -= used * 1.05
        c.setFont(font, used * 1.05)
        c.setFillColor(head_colour)
        c.drawString(x, y, head)
        c.setFont(font, used)
        c.setFillColor(INK)
        y -= used * 0.1
        for line in wrap(body, used, width):
            y -= used * leading
            c.drawString(x, y + used * 0.2, line)
        y -= used * 0.45
    return used
