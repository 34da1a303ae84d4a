"""The PDF writer shared by every game: sheets of card fronts, each followed by its mirrored back page.

A document is sheet after sheet, two pages each: the fronts with crop marks, then the backs laid
out for a long-edge duplex flip (row kept, column mirrored), so each card's back prints behind its
front. A card may ask to start a new sheet (each player's deck does), so decks never share a sheet.

>>> from cardtable.printing.layout import CardSize, Paper
>>> spec = SheetSpec(Paper.A4, CardSize(63, 88), bleed=2)
>>> [len(s) for s in paginate([blank_card("a")] * 10 + [blank_card("b", new_sheet=True)], spec.layout().per_page)]
[9, 1, 1]
"""

from __future__ import annotations

import io
import math
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.colors import black
from reportlab.lib.units import mm

from .draw import GREY, Align, Face, Painter, fit_line
from .fonts import register_font
from .layout import CardSize, Paper, PrintError, SheetLayout

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

MARK_WIDTH_PT = 0.3
FOOTER_SIZE_PT = 6.0


@dataclass(frozen=True)
class PrintCard:
    """One card to print: what it is, how its front looks and which back it has."""

    label: str
    """What the card is, in words (``P1 classic: Fire Mage 1/2``)."""
    group: str
    """The pile it belongs to (``P1 classic``, ``pulse deck``, ``reference``), for counts."""
    front: Painter
    back: str
    """The key of its back design in the job's ``backs``."""
    names: tuple[str, ...] = ()
    """The names the front shows (the tests find each in the PDF's text)."""
    new_sheet: bool = False
    """Start a new sheet with this card (the first card of each deck)."""


@dataclass(frozen=True)
class PrintJob:
    """Everything one document holds: a title, the cards in order and the back designs they use."""

    title: str
    cards: tuple[PrintCard, ...]
    backs: dict[str, Painter]


@dataclass(frozen=True)
class SheetSpec:
    """Paper, card size and bleed of a print run."""

    paper: Paper = Paper.A4
    card: CardSize = CardSize(63.0, 88.0)
    bleed: float = 2.0

    def layout(self) -> SheetLayout:
        """The sheet layout (PrintError if the card does not fit the paper)."""
        return SheetLayout(self.paper, self.card, self.bleed)


@dataclass(frozen=True)
class Placement:
    """Where one card went: its sheet (0-based), its front slot and the slot of its back on the back page."""

    card: PrintCard
    sheet: int
    slot: int
    back_slot: int


@dataclass(frozen=True)
class PrintResult:
    """What a print run made: the PDF, its page count and where every card is."""

    pdf: bytes
    layout: SheetLayout
    placements: tuple[Placement, ...]
    sheets: int
    backs_used: dict[str, int] = field(default_factory=dict)

    @property
    def pages(self) -> int:
        """Pages in the PDF: a front and a back page per sheet."""
        return 2 * self.sheets

    @property
    def cards(self) -> int:
        """How many cards the PDF holds."""
        return len(self.placements)

    def groups(self) -> dict[str, int]:
        """How many cards of each group, in print order."""
        out: dict[str, int] = {}
        for p in self.placements:
            out[p.card.group] = out.get(p.card.group, 0) + 1
        return out

    def write(self, path: str | Path) -> Path:
        """Write the PDF to ``path`` in one step (a half-written file never appears); PrintError if it cannot."""
        target = Path(path)
        if not target.parent.is_dir():
            raise PrintError(f"cannot write {target}: the folder {target.parent} does not exist")
        try:
            fd, tmp = tempfile.mkstemp(prefix=".cardtable-", suffix=".pdf", dir=target.parent)
            with os.fdopen(fd, "wb") as f:
                f.write(self.pdf)
            os.replace(tmp, target)
        except OSError as exc:
            raise PrintError(f"cannot write {target}: {exc.strerror or exc}") from None
        return target


@dataclass(frozen=True)
class PrintOptions:
    """The game options of ``cardtable print``; each game's printer reads those it takes."""

    decks: tuple[str, ...] = ()
    """Deck presets or deck files, one per player (Zeta)."""
    skins: tuple[Path, ...] = ()
    """Skin files: display names and a title, once for every deck or once per deck (Zeta)."""
    no_limits: bool = False
    """Allow decks over the copy limits (Zeta)."""
    options: str | None = None
    """An option set: a shipped set's name or a TOML file (Utahime)."""
    cards: Path | None = None
    """A card-set file: print its numbers, with its name and hash on every card."""
    lang: str | None = None
    """``ja`` or ``en``: the card text in that language at 7 pt or more; None: the classic bilingual cards."""
    only_changed: Path | None = None
    """An earlier card-set file: print only the cards whose numbers differ from it."""


@dataclass(frozen=True)
class GamePrinter:
    """A game's printer, named by its kit (``GameKit.printer``): the options it takes and how it lays out its cards."""

    print_cards: Callable[[SheetSpec, PrintOptions], PrintResult]
    """Check the options, then lay out and draw the game's cards (PrintError saying what is wrong)."""
    takes: frozenset[str] = frozenset()
    """The fields of :class:`PrintOptions` it reads; giving another is refused before anything is drawn."""


def blank_card(label: str, *, new_sheet: bool = False) -> PrintCard:
    """A card with an empty front and the ``plain`` back (for layout examples and tests)."""
    return PrintCard(label, "blank", lambda c, face: None, "plain", new_sheet=new_sheet)


def paginate(cards: Sequence[PrintCard], per_page: int) -> list[list[PrintCard]]:
    """Cards in order, cut into sheets of ``per_page``; a ``new_sheet`` card starts a fresh sheet."""
    sheets: list[list[PrintCard]] = []
    for card in cards:
        if not sheets or len(sheets[-1]) == per_page or (card.new_sheet and sheets[-1]):
            sheets.append([])
        sheets[-1].append(card)
    return sheets


def _clip_to(c: Canvas, face: Face) -> None:
    b = face.bleed
    path = c.beginPath()
    path.rect(-b, -b, face.width + 2 * b, face.height + 2 * b)
    c.clipPath(path, stroke=0, fill=0)


def _footer(c: Canvas, layout: SheetLayout, text: str) -> None:
    """A small line in the bottom margin, under the first column (clear of every crop mark)."""
    room = layout.margin_y - 1.5
    if room < 2.5:
        return
    trim = layout.trim(0)
    width = layout.card.width - 4
    fit_line(c, text, (trim.x + 2) * mm, 1.5 * mm + (room - 2.2) / 2 * mm, width * mm, FOOTER_SIZE_PT,
             min_size=3.0, align=Align.CENTER, colour=GREY)


def render(job: PrintJob, spec: SheetSpec) -> PrintResult:
    """Lay out and draw a job; PrintError for a layout that does not fit or text the font cannot draw."""
    from reportlab.pdfgen.canvas import Canvas

    layout = spec.layout()
    font = register_font()
    if not job.cards:
        raise PrintError("nothing to print")
    for card in job.cards:
        if card.back not in job.backs:
            raise PrintError(f"card {card.label!r} has no back design {card.back!r}")
    buffer = io.BytesIO()
    width, height = layout.page_width * mm, layout.page_height * mm
    # The initial font is the embedded one, so no page refers to an unembedded base-14 font.
    # (The reportlab stubs type initialFontName as a number; it is the font's name.)
    c = Canvas(buffer, pagesize=(width, height), initialFontName=font,  # type: ignore[arg-type]
               initialFontSize=8, invariant=1)
    c.setTitle(f"{job.title}: print-and-play cards")
    c.setAuthor("cardtable")
    c.setSubject(f"{len(job.cards)} cards, {spec.card}, {layout.bleed:g} mm bleed, {spec.paper.value}; "
                 "print at 100% on both sides, flip on the long edge")
    face = Face(layout.card.width * mm, layout.card.height * mm, layout.bleed * mm)
    defined: set[str] = set()
    placements: list[Placement] = []
    backs_used: dict[str, int] = {}
    sheets = paginate(job.cards, layout.per_page)
    for number, sheet in enumerate(sheets):
        # front page
        for slot, card in enumerate(sheet):
            trim = layout.trim(slot)
            c.saveState()
            c.translate(trim.x * mm, trim.y * mm)
            _clip_to(c, face)
            card.front(c, face)
            c.restoreState()
            placements.append(Placement(card, number, slot, layout.mirrored(slot)))
        c.setStrokeColor(black)
        c.setLineWidth(MARK_WIDTH_PT)
        for m in layout.crop_marks(len(sheet)):
            c.line(m.x1 * mm, m.y1 * mm, m.x2 * mm, m.y2 * mm)
        _footer(c, layout, f"{job.title} · sheet {number + 1} of {len(sheets)} · front")
        c.showPage()
        # back page: the backs are forms, drawn once and placed many times
        for slot, card in enumerate(sheet):
            if card.back not in defined:
                b = face.bleed  # the form's box, rounded outward to whole points
                c.beginForm(f"back-{card.back}", lowerx=-math.ceil(b), lowery=-math.ceil(b),
                            upperx=math.ceil(face.width + b), uppery=math.ceil(face.height + b))
                _clip_to(c, face)
                job.backs[card.back](c, face)
                c.endForm()
                defined.add(card.back)
            trim = layout.trim(layout.mirrored(slot))
            c.saveState()
            c.translate(trim.x * mm, trim.y * mm)
            c.doForm(f"back-{card.back}")
            c.restoreState()
            backs_used[card.back] = backs_used.get(card.back, 0) + 1
        _footer(c, layout, f"{job.title} · sheet {number + 1} of {len(sheets)} · back")
        c.showPage()
    c.save()
    return PrintResult(buffer.getvalue(), layout, tuple(placements), len(sheets), backs_used)
