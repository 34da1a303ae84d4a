"""The PDFs themselves: page size, card counts, names in the text, the embedded Japanese font, fronts and backs."""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

import pytest
from print_helpers import page_texts, squash
from pypdf import PdfReader

from cardtable.games.oscilloscope.cards import CARD_TYPES
from cardtable.games.utahime.cards import COSMIC_CARDS
from cardtable.games.zeta.cards import CARD_BY_ID, CARDS
from cardtable.games.zeta.decks import Deck, preset
from cardtable.printing import CardSize, Paper, PrintError, PrintResult, SheetSpec
from cardtable.printing.oscilloscope import HINTS
from cardtable.printing.utahime import load_option_set, print_utahime, seat_cards
from cardtable.printing.zeta import Skin, check_card_size, print_zeta, zeta_job

PT_PER_MM = 72 / 25.4


def _fonts(pdf: bytes) -> dict[str, dict[str, object]]:
    """Every font the pages use: base name -> its descriptor facts."""
    out: dict[str, dict[str, object]] = {}
    for page in PdfReader(io.BytesIO(pdf)).pages:
        resources: Any = page["/Resources"].get_object()
        fonts = resources.get("/Font", {})
        for ref in fonts.get_object().values():
            font = ref.get_object()
            descriptor = font.get("/FontDescriptor")
            desc = descriptor.get_object() if descriptor is not None else {}
            out[str(font["/BaseFont"])] = {"subtype": str(font["/Subtype"]), "embedded": "/FontFile2" in desc,
                                           "to_unicode": "/ToUnicode" in font}
    return out


@pytest.mark.parametrize(("paper", "size"), [(Paper.A4, (210.0, 297.0)), (Paper.LETTER, (215.9, 279.4))])
def test_pages_have_the_paper_size(paper: Paper, size: tuple[float, float]) -> None:
    result = print_utahime(None, SheetSpec(paper=paper))
    reader = PdfReader(io.BytesIO(result.pdf))
    assert len(reader.pages) == result.pages == 2 * result.sheets
    for page in reader.pages:
        box = page.mediabox
        assert float(box.width) / PT_PER_MM == pytest.approx(size[0], abs=0.1)
        assert float(box.height) / PT_PER_MM == pytest.approx(size[1], abs=0.1)


def test_zeta_prints_one_card_per_copy_of_each_deck_and_the_rules_summary(zeta_result: PrintResult) -> None:
    groups = zeta_result.groups()
    assert groups == {"P1 classic": 25, "P2 control": 25, "rules summary": 1}
    assert zeta_result.cards == 51 and zeta_result.sheets == 6  # 9 + 9 + 7 for each deck; the summary fills a gap
    for owner, name in ((1, "classic"), (2, "control")):
        counted = Counter(p.card.label.split(": ")[1].rsplit(" ", 1)[0] for p in zeta_result.placements
                          if p.card.group == f"P{owner} {name}")
        assert counted == Counter({CARD_BY_ID[cid].english: n for cid, n in preset(name).counts.items()})
    assert zeta_result.backs_used == {"p1": 25, "p2": 25, "reference": 1}
    first_p2 = next(p for p in zeta_result.placements if p.card.group == "P2 control")
    assert first_p2.slot == 0 and first_p2.sheet == 3  # each deck starts its own sheet


def test_oscilloscope_prints_all_110_cards_in_their_decks(oscilloscope_result: PrintResult) -> None:
    assert oscilloscope_result.groups() == {"pulse deck": 70, "trigger deck": 40, "reference": 1}
    by_kind = Counter(p.card.names[0] for p in oscilloscope_result.placements if p.card.group != "reference")
    assert by_kind == Counter({k.seed_name: k.total for k in CARD_TYPES})  # OSC-R1: 110 cards
    assert oscilloscope_result.backs_used == {"pulse": 70, "trigger": 40, "reference": 1}
    assert set(HINTS) == {k.card for k in CARD_TYPES}


def test_utahime_prints_cosmic_cards_jokers_and_the_loadouts(utahime_result: PrintResult) -> None:
    option_set = load_option_set("designer_example")
    for seat in (0, 1):
        options, heroes = seat_cards(option_set, seat)
        labels = [p.card.label for p in utahime_result.placements if p.card.group == f"P{seat + 1}"]
        assert len([x for x in labels if " cosmic " in x]) == len(COSMIC_CARDS) == 6  # UTA-R1
        assert len([x for x in labels if x.endswith(" joker")]) == 1  # UTA-R4
        assert [x.split(" ", 2)[2] for x in labels if " option " in x or " hero " in x] == \
            [c.title for c in options] + [h.title for h in heroes]
    assert utahime_result.cards == 29
    bare = print_utahime(None)
    assert bare.groups() == {"P1": 7, "P2": 7, "reference": 1}


def test_a_set_without_loadouts_prints_every_card_for_each_player() -> None:
    text = """format = 1
name = "pool"
[[option]]
name = "a"
cost = 3
text = "Draw a card."
effects = [{ do = "draw", count = 1 }]
[[hero]]
name = "h"
effects = [{ do = "draw", count = 1 }]
"""
    from cardtable.games.utahime.options import parse_option_set

    options, heroes = seat_cards(parse_option_set(text), 1)
    assert [c.name for c in options] == ["a"] and [h.name for h in heroes] == ["h"]


def _names_by_page(result: PrintResult) -> dict[int, list[str]]:
    pages: dict[int, list[str]] = {}
    for p in result.placements:
        pages.setdefault(2 * p.sheet, []).extend(p.card.names)
    return pages


@pytest.mark.parametrize("game", ["zeta", "oscilloscope", "utahime"])
def test_every_card_name_is_in_the_text_of_its_front_page(game: str, request: pytest.FixtureRequest) -> None:
    result: PrintResult = request.getfixturevalue(f"{game}_result")
    texts = [squash(t) for t in page_texts(result.pdf)]
    for page, names in _names_by_page(result).items():
        for name in names:
            assert squash(name) in texts[page], f"{name!r} missing from page {page + 1}"


def test_the_japanese_names_extract_as_japanese(zeta_result: PrintResult) -> None:
    text = squash("".join(page_texts(zeta_result.pdf)))
    for card in CARDS:  # the summary's back lists all 25
        assert card.japanese in text
    assert "技術四目並べ・ゼータζ" in text and "ファンファーレ" in text


@pytest.mark.parametrize("game", ["zeta", "oscilloscope", "utahime"])
def test_the_only_font_is_the_embedded_truetype_japanese_one(game: str, request: pytest.FixtureRequest) -> None:
    result: PrintResult = request.getfixturevalue(f"{game}_result")
    fonts = _fonts(result.pdf)
    assert fonts
    for name, facts in fonts.items():
        assert facts == {"subtype": "/TrueType", "embedded": True, "to_unicode": True}, name
        assert "+" in name  # a subset, as reportlab embeds TrueType fonts


def test_skins_rename_cards_and_keep_the_seed_names_beside_them() -> None:
    skin = Skin({"chant_practice": "Apprentice Chant", "hexer": "呪いの織り手"}, title="Wizards")
    job = zeta_job([preset("classic")], [skin])
    chants = [c for c in job.cards if c.label.startswith("P1 classic: Apprentice Chant")]
    assert len(chants) == 8 and chants[0].names == ("Apprentice Chant", "詠唱練習", "Chant Practice")
    assert {c.group for c in job.cards} == {"P1 classic", "P2 classic", "rules summary"}  # one deck: both players
    text = squash("".join(page_texts(print_zeta([preset("classic")], skins=[skin]).pdf, (0, 1, 4))))
    assert "呪いの織り手" in text and "ApprenticeChant" in text
    assert "Wizards" in text  # the skin's title is on the backs


def test_a_deck_with_its_own_display_names_prints_them() -> None:
    deck = Deck("mine", dict(preset("classic").counts), {"barrier": "Stone Wall"})
    labels = [c.label for c in zeta_job([deck]).cards]
    assert "P1 mine: Stone Wall 1/1" in labels and "P2 mine: Stone Wall 1/1" in labels


def test_text_the_font_cannot_draw_is_refused_not_printed_as_boxes() -> None:
    with pytest.raises(PrintError, match=r"no glyph for '🐉' \(U\+1F409\)"):
        print_zeta([preset("classic")], skins=[Skin({"hexer": "Dragon 🐉"})])


def test_zeta_cards_stay_within_the_seeds_70_by_96_mm() -> None:
    check_card_size(CardSize(70, 96))
    with pytest.raises(PrintError, match="within 70 x 96 mm"):
        check_card_size(CardSize(70, 97))
    with pytest.raises(PrintError, match="within 70 x 96 mm"):
        print_zeta([preset("classic")], SheetSpec(card=CardSize(71, 90)))


def test_three_decks_are_refused() -> None:
    with pytest.raises(PrintError, match="two players"):
        zeta_job([preset("classic")] * 3)


def test_the_same_input_gives_the_same_pdf() -> None:
    assert print_utahime(None).pdf == print_utahime(None).pdf
