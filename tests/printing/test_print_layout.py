"""Sheet geometry: the grid, duplex mirroring, crop marks and the checks on paper, card size and bleed."""

from __future__ import annotations

import pytest

from cardtable.printing import CardSize, Paper, PrintError, SheetLayout, parse_card_size, parse_paper
from cardtable.printing.layout import MIN_MARGIN_MM, check_bleed
from cardtable.printing.sheets import blank_card, paginate

SIZES = [CardSize(63, 88), CardSize(70, 96), CardSize(56, 87), CardSize(44, 68), CardSize(63.5, 88.9)]


@pytest.mark.parametrize("paper", list(Paper))
@pytest.mark.parametrize("card", SIZES)
@pytest.mark.parametrize("bleed", [0.0, 2.0, 3.0])
def test_every_card_fits_inside_the_margins_without_overlap(paper: Paper, card: CardSize, bleed: float) -> None:
    layout = SheetLayout(paper, card, bleed)
    width, height = paper.size_mm
    rects = [layout.bleed_rect(s) for s in range(layout.per_page)]
    for r in rects:
        assert r.x >= MIN_MARGIN_MM - 1e-9 and r.right <= width - MIN_MARGIN_MM + 1e-9
        assert r.y >= MIN_MARGIN_MM - 1e-9 and r.top <= height - MIN_MARGIN_MM + 1e-9
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert a.right <= b.x + 1e-9 or b.right <= a.x + 1e-9 or a.top <= b.y + 1e-9 or b.top <= a.y + 1e-9
    for s in range(layout.per_page):
        t = layout.trim(s)
        assert (t.width, t.height) == (card.width, card.height)


@pytest.mark.parametrize("paper", list(Paper))
@pytest.mark.parametrize("card", SIZES)
def test_a_long_edge_flip_puts_every_back_behind_its_front(paper: Paper, card: CardSize) -> None:
    layout = SheetLayout(paper, card, 2)
    width, _ = paper.size_mm
    for slot in range(layout.per_page):
        front, back = layout.trim(slot), layout.trim(layout.mirrored(slot))
        # turning the sheet over its vertical axis maps x to width - x
        assert width - back.right == pytest.approx(front.x, abs=1e-9)
        assert back.y == front.y
        assert layout.mirrored(layout.mirrored(slot)) == slot


def test_a4_holds_nine_standard_cards_and_letter_six_with_bleed_nine_without() -> None:
    a4 = SheetLayout(Paper.A4, CardSize(63, 88), 2)
    assert (a4.columns, a4.rows) == (3, 3)
    assert a4.mirrored(0) == 2 and a4.mirrored(3) == 5 and a4.mirrored(7) == 7
    assert (SheetLayout(Paper.LETTER, CardSize(63, 88), 2).per_page, SheetLayout(Paper.LETTER, CardSize(63, 88), 0.5)
            .per_page) == (6, 9)
    assert SheetLayout(Paper.A4, CardSize(70, 96), 2).per_page == 4


def test_crop_marks_sit_in_the_margins_on_every_cut_line_and_never_on_a_card() -> None:
    layout = SheetLayout(Paper.A4, CardSize(63, 88), 2)
    xs, ys = layout.cut_lines()
    assert len(xs) == 6 and len(ys) == 6
    marks = layout.crop_marks()
    vertical = [m for m in marks if m.is_vertical]
    assert sorted({m.x1 for m in vertical}) == xs and len(vertical) == 2 * len(xs)
    assert sorted({m.y1 for m in marks if not m.is_vertical}) == ys
    grid = layout.grid_rect()
    for m in marks:
        inside_x = grid.x < (m.x1 + m.x2) / 2 < grid.right
        inside_y = grid.y < (m.y1 + m.y2) / 2 < grid.top
        assert not (inside_x and inside_y)
        assert min(m.x1, m.x2) >= 1.0 - 1e-9 and max(m.x1, m.x2) <= layout.page_width - 1.0 + 1e-9
        assert min(m.y1, m.y2) >= 1.0 - 1e-9 and max(m.y1, m.y2) <= layout.page_height - 1.0 + 1e-9


def test_with_no_bleed_neighbours_share_a_cut_line() -> None:
    xs, ys = SheetLayout(Paper.A4, CardSize(63, 88), 0).cut_lines()
    assert len(xs) == 4 and len(ys) == 4


def test_a_part_filled_sheet_has_marks_only_for_the_rows_and_columns_it_uses() -> None:
    layout = SheetLayout(Paper.A4, CardSize(63, 88), 2)
    assert layout.used(2) == (1, 2) and layout.used(5) == (2, 3) and layout.used(9) == (3, 3)
    xs, ys = layout.cut_lines(2)
    assert len(xs) == 4 and len(ys) == 2
    assert len(layout.crop_marks(5)) == 2 * 6 + 2 * 4


def test_a_deck_that_asks_for_a_new_sheet_starts_one() -> None:
    cards = [blank_card("a")] * 10 + [blank_card("b", new_sheet=True)] + [blank_card("c")] * 2
    assert [len(s) for s in paginate(cards, 9)] == [9, 1, 3]
    assert [len(s) for s in paginate([blank_card("a", new_sheet=True)] * 2, 9)] == [1, 1]


@pytest.mark.parametrize(("text", "size"), [("63x88", (63, 88)), ("63.5 x 88.9", (63.5, 88.9)), ("70X96mm", (70, 96)),
                                            ("56×87", (56, 87))])
def test_card_sizes_are_read_in_millimetres(text: str, size: tuple[float, float]) -> None:
    assert parse_card_size(text) == CardSize(*size)


@pytest.mark.parametrize(("text", "message"), [("63by88", "WIDTHxHEIGHT"), ("88x63", "portrait"), ("30x40", "too small"),
                                               ("", "WIDTHxHEIGHT"), ("-63x88", "WIDTHxHEIGHT")])
def test_bad_card_sizes_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(PrintError, match=message):
        parse_card_size(text)


def test_papers_and_bleeds_are_checked() -> None:
    assert parse_paper("A4") is Paper.A4 and parse_paper(" letter ") is Paper.LETTER
    with pytest.raises(PrintError, match="choose one of: a4, letter"):
        parse_paper("a3")
    assert check_bleed(0) == 0.0
    for bad in (-1, 5.5, float("nan")):
        with pytest.raises(PrintError, match="out of range"):
            check_bleed(bad)
    with pytest.raises(PrintError, match="does not fit"):
        SheetLayout(Paper.LETTER, CardSize(190, 280), 0)
