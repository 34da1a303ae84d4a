"""Sheet geometry in millimetres: paper sizes, card sizes, the card grid, duplex mirroring and crop marks.

Pure arithmetic, no PDF: the writer (``sheets.py``) and the tests share these numbers. The origin
is the bottom-left corner of a portrait page (the PDF convention); slots are numbered row by row
from the top-left.

>>> layout = SheetLayout(Paper.A4, CardSize(63, 88), bleed=2)
>>> layout.columns, layout.rows, layout.per_page
(3, 3, 9)
>>> layout.trim(0)
Rect(x=6.5, y=196.5, width=63.0, height=88.0)
>>> layout.mirrored(0), layout.mirrored(4), layout.mirrored(8)
(2, 4, 6)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import StrEnum

MIN_MARGIN_MM = 4.0
"""The least paper left around the grid of cards (room for the crop marks)."""
MARK_GAP_MM = 0.5
"""Crop marks start this far outside the grid's bleed edge, so none lies on a card after cutting."""
MARK_LENGTH_MM = 5.0
"""The longest a crop mark is drawn (shorter where the margin is narrower)."""
MARK_EDGE_MM = 1.0
"""Crop marks stop at least this far from the paper's edge."""
MAX_BLEED_MM = 5.0
MIN_CARD_MM = (40.0, 50.0)
"""The smallest card this tool lays out (narrower cards cannot hold the effect text)."""


class PrintError(ValueError):
    """A print job that cannot be made (bad paper, card size, deck, option set or font), with what to change."""


class Paper(StrEnum):
    """The paper sizes a sheet can be laid out on (portrait)."""

    A4 = "a4"
    LETTER = "letter"

    @property
    def size_mm(self) -> tuple[float, float]:
        """Width and height in millimetres, portrait."""
        return PAPER_SIZES_MM[self]


PAPER_SIZES_MM = {Paper.A4: (210.0, 297.0), Paper.LETTER: (215.9, 279.4)}


def parse_paper(text: str) -> Paper:
    """The paper named by ``a4`` or ``letter`` (any case); PrintError naming the choices otherwise."""
    try:
        return Paper(text.strip().lower())
    except ValueError:
        raise PrintError(f"unknown paper {text!r}; choose one of: {', '.join(p.value for p in Paper)}") from None


@dataclass(frozen=True)
class CardSize:
    """A card's trimmed size in millimetres (portrait: width <= height)."""

    width: float
    height: float

    def __str__(self) -> str:
        return f"{self.width:g} x {self.height:g} mm"


_CARD_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×X*]\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*$")


def parse_card_size(text: str) -> CardSize:
    """Read ``WxH`` in millimetres (``63x88``, ``63.5x88.9``); PrintError saying what is wrong otherwise."""
    match = _CARD_RE.match(text)
    if match is None:
        raise PrintError(f"card size {text!r} is not WIDTHxHEIGHT in millimetres, e.g. 63x88")
    width, height = float(match.group(1)), float(match.group(2))
    if width > height:
        raise PrintError(f"card size {text!r}: cards are portrait, so the width ({width:g}) must not exceed the "
                         f"height ({height:g}); try {height:g}x{width:g}")
    if width < MIN_CARD_MM[0] or height < MIN_CARD_MM[1]:
        raise PrintError(f"card size {text!r} is too small: at least {MIN_CARD_MM[0]:g} x {MIN_CARD_MM[1]:g} mm")
    return CardSize(width, height)


def check_bleed(bleed: float) -> float:
    """The bleed in millimetres if it is in 0..MAX_BLEED_MM; PrintError otherwise."""
    if not (isinstance(bleed, int | float) and math.isfinite(bleed)) or not 0 <= bleed <= MAX_BLEED_MM:
        raise PrintError(f"bleed {bleed!r} mm is out of range: use 0 to {MAX_BLEED_MM:g} mm")
    return float(bleed)


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in millimetres, from its bottom-left corner."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        """The x of the right edge."""
        return self.x + self.width

    @property
    def top(self) -> float:
        """The y of the top edge."""
        return self.y + self.height


@dataclass(frozen=True)
class Segment:
    """A straight line in millimetres (a crop mark)."""

    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def is_vertical(self) -> bool:
        """True for a mark that shows where a vertical cut goes."""
        return self.x1 == self.x2


class SheetLayout:
    """Where cards go on a sheet: a centred grid of trimmed cards, each with its bleed, and the crop marks."""

    def __init__(self, paper: Paper, card: CardSize, bleed: float) -> None:
        self.paper = paper
        self.card = card
        self.bleed = check_bleed(bleed)
        self.page_width, self.page_height = paper.size_mm
        self.cell_width = card.width + 2 * self.bleed
        self.cell_height = card.height + 2 * self.bleed
        self.columns = int((self.page_width - 2 * MIN_MARGIN_MM + 1e-9) // self.cell_width)
        self.rows = int((self.page_height - 2 * MIN_MARGIN_MM + 1e-9) // self.cell_height)
        if self.columns < 1 or self.rows < 1:
            raise PrintError(f"a {card} card with {self.bleed:g} mm bleed does not fit on {paper.value} paper "
                             f"with {MIN_MARGIN_MM:g} mm margins; choose a smaller --card or --bleed")
        # Centred exactly, so that a long-edge duplex flip puts every back behind its front.
        self.margin_x = (self.page_width - self.columns * self.cell_width) / 2
        self.margin_y = (self.page_height - self.rows * self.cell_height) / 2

    @property
    def per_page(self) -> int:
        """How many cards one sheet holds."""
        return self.columns * self.rows

    def position(self, slot: int) -> tuple[int, int]:
        """(row, column) of a slot, row 0 at the top."""
        if not 0 <= slot < self.per_page:
            raise IndexError(f"slot {slot} is not on a sheet of {self.per_page}")
        return divmod(slot, self.columns)

    def trim(self, slot: int) -> Rect:
        """The trimmed card rectangle of a slot."""
        row, col = self.position(slot)
        x = self.margin_x + col * self.cell_width + self.bleed
        y = self.page_height - self.margin_y - (row + 1) * self.cell_height + self.bleed
        return Rect(round(x, 6), round(y, 6), float(self.card.width), float(self.card.height))

    def bleed_rect(self, slot: int) -> Rect:
        """The trimmed card plus its bleed: everything a card may paint."""
        t = self.trim(slot)
        b = self.bleed
        return Rect(t.x - b, t.y - b, t.width + 2 * b, t.height + 2 * b)

    def mirrored(self, slot: int) -> int:
        """The slot on the back page that lies behind ``slot`` after a long-edge flip (same row, column mirrored)."""
        row, col = self.position(slot)
        return row * self.columns + (self.columns - 1 - col)

    def used(self, cards: int) -> tuple[int, int]:
        """(rows, columns) that hold cards when a sheet holds ``cards`` (filled row by row)."""
        cards = max(0, min(cards, self.per_page))
        rows = -(-cards // self.columns)
        return rows, (self.columns if rows > 1 else cards)

    def cut_lines(self, cards: int | None = None) -> tuple[list[float], list[float]]:
        """The x of every vertical cut and the y of every horizontal cut of a sheet of ``cards`` (default: full).

        A line shared by two cards (bleed 0) is listed once.
        """
        rows, cols = self.used(self.per_page if cards is None else cards)
        xs = sorted({round(v, 6) for s in range(cols) for v in (self.trim(s).x, self.trim(s).right)})
        ys = sorted({round(v, 6) for r in range(rows)
                     for v in (self.trim(r * self.columns).y, self.trim(r * self.columns).top)})
        return xs, ys

    def grid_rect(self) -> Rect:
        """The area the cards and their bleed cover on a full sheet."""
        return Rect(self.margin_x, self.margin_y, self.columns * self.cell_width, self.rows * self.cell_height)

    def crop_marks(self, cards: int | None = None) -> list[Segment]:
        """Crop marks in the margins at both ends of every cut line of a sheet of ``cards``, never on a card."""
        grid = self.grid_rect()
        xs, ys = self.cut_lines(cards)
        marks: list[Segment] = []
        length_y = min(MARK_LENGTH_MM, self.margin_y - MARK_GAP_MM - MARK_EDGE_MM)
        length_x = min(MARK_LENGTH_MM, self.margin_x - MARK_GAP_MM - MARK_EDGE_MM)
        if length_y > 0:
            for x in xs:
                marks.append(Segment(x, grid.top + MARK_GAP_MM, x, grid.top + MARK_GAP_MM + length_y))
                marks.append(Segment(x, grid.y - MARK_GAP_MM - length_y, x, grid.y - MARK_GAP_MM))
        if length_x > 0:
            for y in ys:
                marks.append(Segment(grid.x - MARK_GAP_MM - length_x, y, grid.x - MARK_GAP_MM, y))
                marks.append(Segment(grid.right + MARK_GAP_MM, y, grid.right + MARK_GAP_MM + length_x, y))
        return marks
