"""The sheets as a printer sees them: pages rendered with pdftoppm and checked by their pixels."""

from __future__ import annotations

from functools import cache

import pytest
from PIL import Image, ImageChops
from print_helpers import MM_PER_INCH, darkness_profile, ink_centres, mean_colour, mm_box, pixels, render_page

from cardtable.games.oscilloscope.cards import CARD_TYPES, Edge
from cardtable.printing import CardSize, Paper, PrintCard, PrintJob, PrintResult, SheetSpec, render
from cardtable.printing.draw import Align, Face, Painter, fit_line, pt
from cardtable.printing.oscilloscope import edge_heights, print_oscilloscope
from cardtable.printing.utahime import OWNER_COLOURS as UTAHIME_COLOURS
from cardtable.printing.utahime import REFERENCE_COLOUR as UTAHIME_REFERENCE
from cardtable.printing.zeta import OWNER_COLOURS as ZETA_COLOURS
from cardtable.printing.zeta import REFERENCE_COLOUR as ZETA_REFERENCE
from cardtable.printing.zeta import load_deck, print_zeta

MARK_DPI = 600


def _mark_positions(result: PrintResult, page: int) -> tuple[list[float], list[float]]:
    """Crop marks found in the top margin (x of each, mm) and in the left margin (y of each, mm from the bottom)."""
    layout = result.layout
    grid = layout.grid_rect()
    h = layout.page_height
    top = render_page(result.pdf, page, MARK_DPI, gray=True, page_height_mm=h,
                      crop_mm=(0, grid.top + 0.2, layout.page_width, h - grid.top - 0.4))
    left = render_page(result.pdf, page, MARK_DPI, gray=True, page_height_mm=h,
                       crop_mm=(0.2, 0, grid.x - 0.4, h))
    px = MARK_DPI / MM_PER_INCH
    xs = [c / px for c in ink_centres(darkness_profile(top, 0), 60)]
    ys = [h - c / px for c in ink_centres(darkness_profile(left, 1), 60)][::-1]
    return xs, ys


def test_crop_marks_are_printed_on_every_cut_line_and_nowhere_else(zeta_result: PrintResult) -> None:
    xs, ys = _mark_positions(zeta_result, 1)
    want_x, want_y = zeta_result.layout.cut_lines(9)
    assert len(xs) == len(want_x) == 6 and len(ys) == len(want_y) == 6
    for got, want in zip(xs + ys, want_x + want_y, strict=True):
        assert got == pytest.approx(want, abs=0.05)


def test_a_part_filled_sheet_has_no_marks_for_its_empty_rows(utahime_result: PrintResult) -> None:
    sheet = 1  # player 1's second sheet: 5 cards, two rows
    on_sheet = [p for p in utahime_result.placements if p.sheet == sheet]
    assert len(on_sheet) == 5
    xs, ys = _mark_positions(utahime_result, 2 * sheet + 1)
    assert len(xs) == 6 and len(ys) == 4
    for got, want in zip(ys, utahime_result.layout.cut_lines(5)[1], strict=True):
        assert got == pytest.approx(want, abs=0.05)


@pytest.mark.parametrize(("paper", "card", "bleed"), [(Paper.A4, CardSize(63, 88), 2.0),
                                                      (Paper.LETTER, CardSize(56, 87), 3.0),
                                                      (Paper.A4, CardSize(70, 96), 0.0)])
def test_cards_measure_their_size_within_a_tenth_of_a_millimetre(paper: Paper, card: CardSize, bleed: float) -> None:
    result = print_zeta([load_deck("classic")], SheetSpec(paper, card, bleed))
    xs, ys = _mark_positions(result, 1)
    if bleed:  # each card has its own pair of cut lines
        widths = [b - a for a, b in zip(xs[::2], xs[1::2], strict=True)]
        heights = [b - a for a, b in zip(ys[::2], ys[1::2], strict=True)]
    else:  # neighbours share a cut line
        widths = [b - a for a, b in zip(xs, xs[1:], strict=False)]
        heights = [b - a for a, b in zip(ys, ys[1:], strict=False)]
    assert widths and heights
    for w in widths:
        assert w == pytest.approx(card.width, abs=0.1)
    for h in heights:
        assert h == pytest.approx(card.height, abs=0.1)


def _fill(colour: tuple[float, float, float]) -> Painter:
    def paint(c: object, face: Face) -> None:
        c.setFillColorRGB(*colour)  # type: ignore[attr-defined]
        c.rect(-face.bleed, -face.bleed, face.width + 2 * face.bleed, face.height + 2 * face.bleed,  # type: ignore[attr-defined]
               stroke=0, fill=1)

    return paint


COLOURS = [(0.9, 0.1, 0.1), (0.1, 0.7, 0.1), (0.1, 0.1, 0.9), (0.9, 0.8, 0.1), (0.6, 0.1, 0.7)]


def test_each_back_prints_behind_its_own_front_after_a_long_edge_flip() -> None:
    cards = tuple(PrintCard(f"card {i}", "test", _fill(col), f"b{i}") for i, col in enumerate(COLOURS))
    job = PrintJob("mirror", cards, {f"b{i}": _fill(col) for i, col in enumerate(COLOURS)})
    result = render(job, SheetSpec(Paper.A4, CardSize(63, 88), 2))
    layout = result.layout
    front = render_page(result.pdf, 1, 30)
    back = render_page(result.pdf, 2, 30)
    mirrored_back = back.transpose(Image.Transpose.FLIP_LEFT_RIGHT)  # what shows through, seen from the front
    used_back_slots = {layout.mirrored(s) for s in range(len(cards))}
    for slot in range(layout.per_page):
        t = layout.trim(slot)
        box = mm_box((t.x + 5, t.y + 5, t.width - 10, t.height - 10), layout.page_height, 30)
        if slot < len(cards):
            want = tuple(255 * v for v in COLOURS[slot])
            assert mean_colour(front, box) == pytest.approx(want, abs=3)
            assert mean_colour(mirrored_back, box) == pytest.approx(want, abs=3)  # behind its own front
            assert layout.mirrored(slot) != slot or slot % layout.columns == layout.columns // 2
        if slot not in used_back_slots:
            assert mean_colour(back, box) == pytest.approx((255, 255, 255), abs=1)


def _nearest(colour: tuple[float, float, float], candidates: dict[str, tuple[float, float, float]]) -> str:
    return min(candidates, key=lambda k: sum((a - b) ** 2 for a, b in zip(colour, candidates[k], strict=True)))


def _rgb(c: object) -> tuple[float, float, float]:
    return (255 * c.red, 255 * c.green, 255 * c.blue)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("game", "sheet"), [("zeta", 2), ("zeta", 5), ("utahime", 3)])
def test_the_back_pages_of_the_games_are_mirrored(game: str, sheet: int, request: pytest.FixtureRequest) -> None:
    result: PrintResult = request.getfixturevalue(f"{game}_result")
    if game == "zeta":
        bases = {"p1": _rgb(ZETA_COLOURS[0]), "p2": _rgb(ZETA_COLOURS[1]), "reference": _rgb(ZETA_REFERENCE)}
    else:
        bases = {"p1": _rgb(UTAHIME_COLOURS[0]), "p2": _rgb(UTAHIME_COLOURS[1]), "reference": _rgb(UTAHIME_REFERENCE)}
    layout = result.layout
    back = render_page(result.pdf, 2 * sheet + 2, 50)
    on_sheet = [p for p in result.placements if p.sheet == sheet]
    assert on_sheet and len(on_sheet) < layout.per_page  # a part-filled sheet, so mirroring shows
    assert len({p.card.back for p in on_sheet}) >= 1
    for p in on_sheet:
        t = layout.trim(p.back_slot)
        strip = mm_box((t.x + 8, t.top - 2.0, t.width - 16, 1.2), layout.page_height, 50)
        assert _nearest(mean_colour(back, strip), bases) == p.card.back, p.card.label
    empty = set(range(layout.per_page)) - {p.back_slot for p in on_sheet}
    assert empty
    for slot in empty:
        t = layout.trim(slot)
        assert mean_colour(back, mm_box((t.x + 5, t.y + 5, 20, 20), layout.page_height, 50)) == pytest.approx(
            (255, 255, 255), abs=1)
    if game == "utahime":  # the reference card sits off-centre here, so its back is on the other side
        reference = next(p for p in on_sheet if p.card.back == "reference")
        assert (reference.slot, reference.back_slot) == (5, 3)


def _word(text: str) -> Painter:
    def paint(c: object, face: Face) -> None:
        fit_line(c, text, 0, face.height / 2, face.width, pt(face, 40), align=Align.CENTER)  # type: ignore[arg-type]

    return paint


def test_japanese_names_render_as_distinct_glyphs_with_ink() -> None:
    words = ["詠唱", "練習", "ゼタ"]
    cards = tuple(PrintCard(w, "test", _word(w), "b") for w in words)
    result = render(PrintJob("glyphs", cards, {"b": _fill((1, 1, 1))}), SheetSpec())
    layout = result.layout
    page = render_page(result.pdf, 1, 100, gray=True)
    crops = []
    for slot in range(len(words)):
        t = layout.trim(slot)
        crop = page.crop(mm_box((t.x, t.y, t.width, t.height), layout.page_height, 100)).point(
            lambda v: 255 if v > 128 else 0)
        ink = sum(1 for v in pixels(crop) if v == 0)
        assert ink > 400, f"{words[slot]!r} printed no ink"
        crops.append(crop)
    for i, a in enumerate(crops):
        for b in crops[i + 1:]:  # missing glyphs would all be the same empty box
            diff = ImageChops.difference(a, b)
            assert sum(1 for v in pixels(diff) if v) > 200


def test_a_zeta_card_shows_its_japanese_name_in_ink(zeta_result: PrintResult) -> None:
    layout = zeta_result.layout
    page = render_page(zeta_result.pdf, 1, 100)
    t = layout.trim(0)
    s = t.width / 63
    name_band = mm_box((t.x + 6 * s, t.y + 52 * s, 51 * s, 8 * s), layout.page_height, 100)  # 詠唱練習 over the art
    plain_band = mm_box((t.x + 6 * s, t.y + 61 * s, 51 * s, 3 * s), layout.page_height, 100)

    def inked(box: tuple[int, int, int, int]) -> int:
        return sum(1 for r, g, b in pixels(page.crop(box)) if r + g + b < 600)

    assert inked(name_band) > 300 and inked(plain_band) == 0


@cache
def _oscilloscope() -> PrintResult:
    return print_oscilloscope()


@cache
def _osc_page(page: int) -> Image.Image:
    return render_page(_oscilloscope().pdf, page, 150)


def _line_heights(image: Image.Image, x_mm: float, y0_mm: float, y1_mm: float, page_h: float) -> list[float]:
    """Heights (mm from the page bottom) where a waveform line crosses the pixel column at ``x_mm``."""
    px = 150 / MM_PER_INCH
    col = round(x_mm * px - 0.5)
    top, bottom = round((page_h - y1_mm) * px), round((page_h - y0_mm) * px)
    rgb = image.convert("RGB")
    profile = [255.0 if min(rgb.getpixel((col, y))) < 140 else 0.0 for y in range(top, bottom)]  # type: ignore[arg-type]
    return [page_h - (top + c) / px for c in ink_centres(profile, 1)]


@pytest.mark.parametrize("kind", CARD_TYPES, ids=[k.token for k in CARD_TYPES])
def test_waveform_lines_reach_both_edges_at_the_shared_levels(kind: object) -> None:
    result = _oscilloscope()
    layout = result.layout
    placement = next(p for p in result.placements if p.card.names and p.card.names[0] == kind.seed_name)  # type: ignore[attr-defined]
    image = _osc_page(2 * placement.sheet + 1)
    t = layout.trim(placement.slot)
    left_want, right_want = edge_heights(kind, t.height)  # type: ignore[arg-type]
    for x, want in ((t.x + 0.1, left_want), (t.right - 0.1, right_want)):
        got = _line_heights(image, x, t.y + 24, t.top - 24, layout.page_height)
        assert len(got) == len(want), f"{kind.token} at x={x:.1f}: lines at {got}"  # type: ignore[attr-defined]
        for g, w in zip(sorted(got), sorted(t.y + v for v in want), strict=True):
            assert g == pytest.approx(w, abs=0.25)


def test_every_edge_level_is_one_of_two_heights_so_neighbours_meet() -> None:
    heights = {h for k in CARD_TYPES for side in edge_heights(k, 88.0) for h in side}
    assert heights == {58.08, 29.92}
    hl = next(k for k in CARD_TYPES if k.left is Edge.HIGH and k.right is Edge.LOW)
    lh = next(k for k in CARD_TYPES if k.left is Edge.LOW and k.right is Edge.HIGH)
    assert edge_heights(hl, 88.0)[1] == edge_heights(lh, 88.0)[0]  # Hi→Low then Low→Hi: the low line joins
    assert edge_heights(lh, 88.0)[1] == edge_heights(hl, 88.0)[0]
