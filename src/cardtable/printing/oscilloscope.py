"""Oscilloscope print-and-play cards: all 110 cards with their waveforms, the two deck backs and a reference card.

Every waveform is drawn from the card data (``CARD_TYPES``: the left and right edge levels and
the stroke), at two heights shared by every card, and runs out through the bleed, so after
cutting the line of one card meets the line of the next (OSC-I4). Pulse cards step at a right
angle, triggers slope (OSC-I4). The Low or Hi card's flat line is printed at the high level: turn
the card around and it lies low (OSC-I5, PRINT-I2); every other card looks the same either way up.

>>> job = oscilloscope_job()
>>> len(job.cards), sorted(job.backs)
(111, ['pulse', 'reference', 'trigger'])

A legible edition (``--cards``, ``--lang``) prints the set's decks in one language, every text at 7 pt or
more and the set's stamp on every face and back; ``--only-changed`` keeps the card types whose counts changed:

>>> from cardtable.core.cardset import default_set
>>> quiet = default_set("oscilloscope").replace({"noise.pulse_deck": 10, "lh.pulse_deck": 25}, name="quiet")
>>> job = oscilloscope_job(Edition(quiet, "ja", default_set("oscilloscope")))
>>> len(job.cards), sorted(job.backs)
(35, ['pulse', 'trigger'])
>>> level_height(Edge.HIGH, 88.0), level_height(Edge.LOW, 88.0)
(58.08, 29.92)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib.colors import Color, HexColor

from cardtable.games.oscilloscope.cards import CARD_TYPES, Card, CardType, Edge, Stroke
from cardtable.games.oscilloscope.cardset import TEXT_EN, TEXT_JA

from .draw import (
    GREY,
    INK,
    PAPER,
    Align,
    Face,
    Painter,
    Pattern,
    fill_bleed,
    fit_line,
    fit_text,
    panel,
    pattern_back,
    pt,
    sections,
    tint,
)
from .editions import LEAST_PT, Edition, edition_of, size
from .layout import PrintError
from .sheets import GamePrinter, PrintCard, PrintJob, PrintOptions, PrintResult, SheetSpec, render

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

TITLE = "Oscilloscope"
LEVEL_OFFSET = 0.16
"""The high and low lines lie this fraction of the card's height above and below its middle."""
LINE_WIDTH_MM = 1.3
PULSE_INK = HexColor("#00695C")
TRIGGER_INK = HexColor("#D84315")
NOISE_INK = HexColor("#B71C1C")
CLEAR_INK = HexColor("#1565C0")
GRATICULE = HexColor("#CFE8E4")
PULSE_BACK = HexColor("#263F73")
TRIGGER_BACK = HexColor("#B8461B")
REFERENCE_COLOUR = HexColor("#37474F")

HINTS: dict[Card, str] = {
    Card.HL: "joins a Hi line and leaves it Low",
    Card.LH: "joins a Low line and leaves it Hi",
    Card.LOH: "carries the level on; turn the card around to swap Hi and Low; also a trigger (OSC-R12)",
    Card.NOISE: "joins anything, anything may follow (OSC-I6); satisfies every trigger; costs 1.5 when captured",
    Card.CLEAR: "a trigger with no condition; a captured noise is cancelled by it (OSC-R30, R48)",
    Card.T_HL: "trigger: fires on Hi→Low or noise (OSC-R27)",
    Card.T_LH: "trigger: fires on Low→Hi or noise (OSC-R27)",
    Card.T_BOTH: "trigger: fires on either edge or noise (OSC-R27)",
}
"""The one line of rules each card carries."""


def level_height(edge: Edge, card_height: float) -> float:
    """The height of a line at an edge, from the card's bottom, in the unit of ``card_height`` (FOLLOW prints high)."""
    if edge in (Edge.HIGH, Edge.FOLLOW):
        return round(card_height * (0.5 + LEVEL_OFFSET), 6)
    if edge is Edge.LOW:
        return round(card_height * (0.5 - LEVEL_OFFSET), 6)
    raise ValueError(f"no single line height at an edge of kind {edge!r}")


def edge_heights(kind: CardType, card_height: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The heights where lines cross the left and the right edge of a card (none for noise and clear)."""

    def at(edge: Edge) -> tuple[float, ...]:
        if edge is Edge.NONE:
            return ()
        if edge is Edge.BOTH:
            return (level_height(Edge.HIGH, card_height), level_height(Edge.LOW, card_height))
        return (level_height(edge, card_height),)

    return at(kind.left), at(kind.right)


def _ink(kind: CardType) -> Color:
    if kind.card is Card.NOISE:
        return NOISE_INK
    if kind.card is Card.CLEAR:
        return CLEAR_INK
    return TRIGGER_INK if kind.stroke is Stroke.SLOPE else PULSE_INK


def _waveform(c: Canvas, face: Face, kind: CardType) -> None:
    """The card's line, edge to edge and out through the bleed."""
    w, h, b = face.width, face.height, face.bleed
    c.setStrokeColor(_ink(kind))
    c.setLineWidth(face.u(LINE_WIDTH_MM))
    c.setLineCap(0)
    c.setLineJoin(0)
    if kind.stroke is Stroke.STEP:
        y0, y1 = level_height(kind.left, h), level_height(kind.right, h)
        path = c.beginPath()
        path.moveTo(-b, y0)
        path.lineTo(w / 2, y0)
        path.lineTo(w / 2, y1)
        path.lineTo(w + b, y1)
        c.drawPath(path, stroke=1, fill=0)
    elif kind.stroke is Stroke.FLAT:
        y = level_height(kind.left, h)
        c.line(-b, y, w + b, y)
    elif kind.stroke is Stroke.SLOPE:
        hi, lo = level_height(Edge.HIGH, h), level_height(Edge.LOW, h)
        pairs = [(hi, lo), (lo, hi)] if kind.left is Edge.BOTH else [(level_height(kind.left, h),
                                                                        level_height(kind.right, h))]
        for ya, yb in pairs:
            slope = (yb - ya) / w
            c.line(-b, ya - slope * b, w + b, yb + slope * b)
    # Stroke.WORD: noise and clear draw no line (OSC-I6, OSC-I8)


def _graticule(c: Canvas, face: Face) -> None:
    """The faint grid of a scope screen, 8 by 10 divisions."""
    w, h, b = face.width, face.height, face.bleed
    c.setStrokeColor(GRATICULE)
    c.setLineWidth(face.u(0.2))
    for i in range(1, 8):
        c.line(w * i / 8, -b, w * i / 8, h + b)
    for j in range(1, 10):
        c.line(-b, h * j / 10, w + b, h * j / 10)


def _labels(c: Canvas, face: Face, kind: CardType, corner: str, hint: str) -> None:
    """Name, English name, token and count in the top strip (drawn twice, once each way up)."""
    fx, fy = face.x, face.y
    ink = _ink(kind)
    top = face.height
    fit_line(c, kind.seed_name, fx(4), top - fy(8.5), fx(38), pt(face, 10), min_size=pt(face, 6), colour=ink)
    fit_line(c, kind.english, fx(4), top - fy(12.6), fx(38), pt(face, 6.2), colour=GREY)
    fit_line(c, kind.token, fx(43), top - fy(8.5), fx(16), pt(face, 7.5), align=Align.RIGHT, colour=INK)
    fit_line(c, corner, fx(40), top - fy(12.6), fx(19), pt(face, 5.2), align=Align.RIGHT, colour=GREY)
    fit_text(c, hint, fx(4), top - fy(14.8), fx(55), fy(8.6), pt(face, 5.6), min_size=pt(face, 3.6), colour=INK)


def _front(kind: CardType, corner: str) -> Painter:
    hint = HINTS[kind.card]

    def paint(c: Canvas, face: Face) -> None:
        fill_bleed(c, face, PAPER)
        _graticule(c, face)
        _waveform(c, face, kind)
        if kind.stroke is Stroke.WORD:
            fit_line(c, kind.seed_name, face.u(4), face.height / 2 - pt(face, 22) * 0.35, face.width - face.u(8),
                     pt(face, 26), align=Align.CENTER, colour=_ink(kind))
        _labels(c, face, kind, corner, hint)
        c.saveState()
        c.translate(face.width, face.height)
        c.rotate(180)
        _labels(c, face, kind, corner, hint)
        c.restoreState()

    return paint


STEPS = (
    ("1 Trigger set", "lay a trigger from your hand on a card: you must if you can (OSC-R13), within one position "
                      "of the triggers already out (R16); an edge trigger replaces them (R17). The first trigger "
                      "on an empty board ends your turn (R10)."),
    ("2 Shift", "every train moves one card left; a full train drops its first card (OSC-R23)."),
    ("3 Capture", "if every trigger is satisfied, take the whole time position (OSC-R28, R29)."),
    ("4 Refill", "put a card that joins at the end of your train, else discard one; draw 1; then top up to "
                 "3 cards (OSC-R36 to R40)."),
    ("5 Trigger set", "you may lay one more trigger (OSC-R42)."),
    ("Score", "waveform cards minus 1.5 × (noise − clear), rounded up (OSC-R47 to R49). The game ends when "
              "10 noise have been captured in all (OSC-R34)."),
)
SOLO = (
    ("Solo setup", "two trains; draw 3 trigger cards, put 2 as filters at the left end of the trains, the "
                   "third is the exchange stock (OSC-R8, R53)."),
    ("Exchange", "after a set that captured, swap one filter for the stock, then turn up a new stock (OSC-R55)."),
    ("Shift", "the trains move left under the fixed filters (OSC-R53)."),
    ("Capture", "when every filter is satisfied by the first card of its train, take the first card of both "
                "trains (OSC-R56)."),
    ("Refill", "play into either train; top up to 3 (OSC-R62)."),
    ("End", "at the third counted noise; score = waveform cards (OSC-R60, R61)."),
)


def _reference_face(title: str, subtitle: str, rows: tuple[tuple[str, str], ...]) -> Painter:
    def paint(c: Canvas, face: Face) -> None:
        u, fx, fy = face.u, face.x, face.y
        fill_bleed(c, face, REFERENCE_COLOUR)
        panel(c, fx(2.5), fy(2.5), face.width - fx(5), face.height - fy(5), fill=PAPER, radius=u(2.5))
        fit_line(c, title, fx(5), fy(79.5), fx(53), pt(face, 10), align=Align.CENTER, colour=REFERENCE_COLOUR)
        fit_line(c, subtitle, fx(5), fy(75.3), fx(53), pt(face, 6), align=Align.CENTER, colour=GREY)
        sections(c, face, rows, fx(5.5), fy(72.5), fx(52), fy(5), pt(face, 6.2), head_colour=REFERENCE_COLOUR)

    return paint


def _square_wave(c: Canvas, face: Face, x: float, y: float, width: float, height: float) -> None:
    """The pulse back's emblem: two periods of a square wave."""
    c.setLineWidth(face.u(1.1))
    path = c.beginPath()
    lo, hi = y + height * 0.2, y + height * 0.8
    path.moveTo(x, lo)
    for i in range(4):
        level = hi if i % 2 == 0 else lo
        path.lineTo(x + width * i / 4, level)
        path.lineTo(x + width * (i + 1) / 4, level)
    path.lineTo(x + width, lo)
    c.drawPath(path, stroke=1, fill=0)


def _trigger_mark(c: Canvas, face: Face, x: float, y: float, width: float, height: float) -> None:
    """The trigger back's emblem: a rising and a falling slope, as on a scope's trigger button."""
    c.setLineWidth(face.u(1.1))
    lo, hi = y + height * 0.15, y + height * 0.85
    c.line(x, lo, x + width * 0.45, hi)
    c.line(x + width * 0.55, hi, x + width, lo)


DECK_WORDS = {"en": {"pulse": "pulse deck", "trigger": "trigger deck"},
              "ja": {"pulse": "パルス山札", "trigger": "トリガー山札"}}


def _legible_front(kind: CardType, deck: str, corner: str, ed: Edition) -> Painter:
    """A front whose every text is at least 7 pt, in one language, with the set's stamp; the waveform as always."""
    item = kind.token.lower()
    text = TEXT_JA[item] if ed.ja else TEXT_EN[item]
    sub = DECK_WORDS[ed.lang][deck] if ed.ja else f"{kind.english} · {DECK_WORDS['en'][deck]}"

    def paint(c: Canvas, face: Face) -> None:
        fx, fy, u = face.x, face.y, face.u
        top = face.height
        fill_bleed(c, face, PAPER)
        _graticule(c, face)
        _waveform(c, face, kind)
        if kind.stroke is Stroke.WORD:
            fit_line(c, kind.seed_name, u(4), face.height / 2 - pt(face, 22) * 0.35, face.width - u(8),
                     pt(face, 26), align=Align.CENTER, colour=_ink(kind))
        ink = _ink(kind)
        fit_line(c, kind.seed_name, fx(4), top - fy(8.5), fx(40), size(face, 11), min_size=LEAST_PT, colour=ink)
        fit_line(c, kind.token, fx(44), top - fy(8.5), fx(15), size(face, 8), min_size=LEAST_PT, align=Align.RIGHT)
        fit_line(c, sub, fx(4), top - fy(13.2), fx(55), size(face, 7.5), min_size=LEAST_PT, colour=GREY)
        panel(c, fx(2.5), fy(2.5), face.width - fx(5), fy(24.5), fill=PAPER, stroke=tint(ink, 0.5),
              line_width=u(0.3), radius=u(1.5))
        fit_text(c, text, fx(4.5), fy(26.2), fx(54), fy(14), size(face, 7.6), min_size=LEAST_PT)
        fit_line(c, corner, fx(4.5), fy(8.7), fx(54), size(face, 7), min_size=LEAST_PT, colour=GREY)
        fit_line(c, ed.stamp, fx(4.5), fy(4.3), fx(54), size(face, 7), min_size=LEAST_PT, align=Align.CENTER)

    return paint


def oscilloscope_job(edition: Edition | None = None) -> PrintJob:
    """All 110 cards, pulse deck first then trigger deck (each on its own sheets), and the reference card.

    With an ``edition`` the decks are the card set's (OSC-I-CT15), the fronts the legible ones, the
    reference card is left out, and ``--only-changed`` keeps the types whose counts changed in a deck.
    """
    cards: list[PrintCard] = []
    changed = edition.changed_keys() if edition is not None else None
    sizes = {"pulse": 70, "trigger": 40}
    for deck in ("pulse", "trigger"):
        index = 0
        for kind in CARD_TYPES:
            key = f"{kind.token.lower()}.{deck}_deck"
            count = (edition.value(key) if edition is not None
                     else kind.pulse_deck if deck == "pulse" else kind.trigger_deck)
            for copy in range(count):
                index += 1
                if changed is not None and key not in changed:
                    continue
                if edition is None:
                    front = _front(kind, f"{deck} {index}/{sizes[deck]}")
                else:
                    words = DECK_WORDS[edition.lang][deck]
                    front = _legible_front(kind, deck, f"{words} {index}/{sizes[deck]} · {copy + 1}/{count}", edition)
                first = not any(p.group == f"{deck} deck" for p in cards)
                cards.append(PrintCard(f"{deck} deck: {kind.seed_name} {copy + 1}/{count}", f"{deck} deck", front,
                                       deck, names=(kind.seed_name, kind.english), new_sheet=first))
    if edition is None:
        cards.append(PrintCard("reference", "reference",
                               _reference_face("Oscilloscope: a set", "one turn, in this order", STEPS),
                               "reference", names=("Oscilloscope: a set",)))
    if not cards:
        raise PrintError("no card count of this set differs from the earlier set's: nothing to print")
    least, stamp = (LEAST_PT, edition.stamp) if edition is not None else (0.0, "")
    backs: dict[str, Painter] = {
        "pulse": pattern_back(Pattern.WAVES, PULSE_BACK, tint(PULSE_BACK, 0.45), _square_wave, "PULSE · パルス山札",
                              "Oscilloscope · 70 cards", least_pt=least, stamp=stamp),
        "trigger": pattern_back(Pattern.SLOPES, TRIGGER_BACK, tint(TRIGGER_BACK, 0.45), _trigger_mark,
                                "TRIGGER · トリガー山札", "Oscilloscope · 40 cards", least_pt=least, stamp=stamp),
    }
    if edition is None:
        backs["reference"] = _reference_face("Oscilloscope: solo", "一人用ルール", SOLO)
    return PrintJob(TITLE, tuple(cards), backs)


def print_oscilloscope(spec: SheetSpec | None = None, edition: Edition | None = None) -> PrintResult:
    """Render Oscilloscope's 110 cards and reference card; the PDF is in the result, not yet written."""
    return render(oscilloscope_job(edition), spec or SheetSpec())


def print_cards(spec: SheetSpec, options: PrintOptions) -> PrintResult:
    """``cardtable print oscilloscope``: every card, or a card set's legible edition (``--cards``, ``--lang``)."""
    return print_oscilloscope(spec, edition_of("oscilloscope", options))


PRINTER = GamePrinter(print_cards, frozenset({"cards", "lang", "only_changed"}))
"""Oscilloscope's printer (its kit's ``printer``)."""


def level_heights_mm(card_height_mm: float) -> tuple[float, float]:
    """The high and low line heights of a card of this height, in millimetres from its bottom."""
    return level_height(Edge.HIGH, card_height_mm), level_height(Edge.LOW, card_height_mm)

