"""Printing what is being tested: a card set's numbers and stamp, Japanese or English text at 7 pt or more,
only the changed cards, and a 300 dpi picture of every face and back."""

from __future__ import annotations

import io
import math
from functools import cache
from pathlib import Path

import pytest
from PIL import Image
from print_helpers import require_pdftoppm
from pypdf import PdfReader
from reportlab.lib.units import mm
from typer.testing import CliRunner

from cardtable.cli.main import app
from cardtable.core import cardset
from cardtable.printing import PrintOptions, PrintResult, SheetLayout, SheetSpec
from cardtable.printing.images import write_card_images
from cardtable.printing.zeta import LEAST_PT, PRINTER, TEXT_JA, print_cards

runner = CliRunner()
ICE6 = cardset.default_set("zeta").replace({"ice_mage.cost": 6, "magic_broom.cap": 8}, name="ice6")


def _set_file(tmp: Path, cs: cardset.CardSet, name: str) -> Path:
    path = tmp / f"{name}.toml"
    path.write_text(cs.to_toml(), encoding="utf-8")
    return path


@cache
def _pdf(lang: str, changed_only: bool) -> bytes:
    return _result(lang, changed_only).pdf


@cache
def _result(lang: str, changed_only: bool) -> PrintResult:
    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="cardtable-sets-"))
    options = PrintOptions(decks=("classic", "arcana"), cards=_set_file(tmp, ICE6, "ice6"), lang=lang,
                           only_changed=_set_file(tmp, cardset.default_set("zeta"), "old") if changed_only else None)
    return print_cards(SheetSpec(), options)


def text_runs(pdf: bytes, layout: SheetLayout | None = None) -> list[tuple[int, str, float]]:
    """Every text run of every page: (page, text, size in points as printed: font size times the text matrices).

    With a ``layout``, only the runs that start on a card (its bleed included), not the sheet's footer.
    """
    out: list[tuple[int, str, float]] = []
    cards = [layout.bleed_rect(slot) for slot in range(layout.per_page)] if layout is not None else []
    for number, page in enumerate(PdfReader(io.BytesIO(pdf)).pages):
        def visit(text: str, cm: list[float], tm: list[float], font: object, size: float, number: int = number) -> None:
            if not text.strip():
                return
            if cards:
                x = (tm[4] * cm[0] + tm[5] * cm[2] + cm[4]) / mm
                y = (tm[4] * cm[1] + tm[5] * cm[3] + cm[5]) / mm
                if not any(r.x <= x <= r.x + r.width and r.y <= y <= r.y + r.height for r in cards):
                    return
            scale = math.sqrt(abs(tm[0] * tm[3] - tm[1] * tm[2])) * math.sqrt(abs(cm[0] * cm[3] - cm[1] * cm[2]))
            out.append((number, text, size * scale))
        page.extract_text(visitor_text=visit)
    return out


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_text_of_a_legible_print_is_at_least_7_pt(lang: str) -> None:
    result = _result(lang, False)
    runs = text_runs(result.pdf, result.layout)
    assert len(runs) > 10 * result.cards
    small = [(p, t, round(s, 2)) for p, t, s in runs if s < LEAST_PT - 0.01]
    assert not small, small[:5]


def test_japanese_cards_carry_the_designers_words_the_sets_numbers_and_its_stamp() -> None:
    runs = text_runs(_pdf("ja", False))
    text = "".join(t for _, t, _ in runs).replace(" ", "").replace("\n", "")
    assert TEXT_JA["fire_mage"].replace(" ", "") in text
    assert "コスト8以下" in text and "コスト10以下" not in text  # magic_broom.cap = 8 (ZETA-R49)
    result = _result("ja", False)
    fronts = [sum(1 for p in result.placements if p.sheet == sheet) for sheet in range(result.sheets)]
    stamps = [sum(1 for p, t, _ in runs if p == 2 * sheet and ICE6.stamp in t) for sheet in range(result.sheets)]
    assert stamps == fronts  # one stamp on every front; the backs carry it too
    assert any(ICE6.stamp in t for p, t, _ in runs if p % 2 == 1)


def test_zeta_r14_a_changed_cost_is_printed_and_only_changed_cards_are_printed() -> None:
    """ice_mage.cost 3 -> 6: its badge says 6; --only-changed prints Ice Mage and Magic Broom alone."""
    pdf = _pdf("en", True)
    runs = text_runs(pdf)
    names = {t.strip() for _, t, _ in runs}
    assert "Ice Mage" in names and "Fire Mage" not in names and "Chant Practice" not in names
    badges = [t.strip() for p, t, s in runs if p == 0 and s > 12 and t.strip().isdigit()]
    assert "6" in badges and "3" not in badges


def test_png_writes_a_300_dpi_front_and_back_of_every_card(tmp_path: Path) -> None:
    require_pdftoppm()
    result = print_cards(SheetSpec(), PrintOptions(decks=("classic", "arcana"), lang="ja", cards=_set_file(tmp_path, ICE6, "s"),
                                                   only_changed=_set_file(tmp_path, cardset.default_set("zeta"), "o")))
    written = write_card_images(result, tmp_path / "png")
    pictures = [p for p in written if p.suffix == ".png"]
    assert len(pictures) == 2 * result.cards
    with Image.open(tmp_path / "png" / "001-front.png") as image:
        assert image.size == (round((63 + 4) / 25.4 * 300), round((88 + 4) / 25.4 * 300))
        assert round(image.info["dpi"][0]) == 300
    assert "Ice Mage" in (tmp_path / "png" / "index.txt").read_text(encoding="utf-8")


def test_print_options_are_checked_on_the_command_line(tmp_path: Path) -> None:
    assert {"cards", "lang", "only_changed"} <= PRINTER.takes
    bad = runner.invoke(app, ["print", "zeta", "-o", str(tmp_path / "z.pdf"), "--lang", "fr"])
    assert bad.exit_code == 2 and "--lang must be en or ja" in bad.output
    other = runner.invoke(app, ["print", "oscilloscope", "-o", str(tmp_path / "o.pdf"), "--deck", "classic"])
    assert other.exit_code == 2 and "apply to zeta only" in other.output
    broken = tmp_path / "broken.toml"
    broken.write_text('[set]\ngame = "zeta"\n[cards.ice_mage]\ncost = -3\n', encoding="utf-8")
    refused = runner.invoke(app, ["print", "zeta", "-o", str(tmp_path / "z.pdf"), "--cards", str(broken)])
    assert refused.exit_code == 2 and "ZETA-R14" in refused.output and not (tmp_path / "z.pdf").exists()


# -- Utahime and Oscilloscope: the same legible editions, through their own printers ----------------------

QUIET = cardset.default_set("oscilloscope").replace({"noise.pulse_deck": 10, "lh.pulse_deck": 25}, name="quiet")
DEAR = cardset.default_set("utahime").replace({"seal.cost": 12, "options.budget": 40, "seer.uses": 2,
                                               "cosmic_h4.pool": 0, "hand.limit": 12}, name="dear")


@cache
def _other(game: str, lang: str, changed_only: bool) -> PrintResult:
    import tempfile

    from cardtable.core import registry

    tmp = Path(tempfile.mkdtemp(prefix="cardtable-sets-"))
    cs = QUIET if game == "oscilloscope" else DEAR
    options = PrintOptions(cards=_set_file(tmp, cs, cs.name), lang=lang,
                           options="designer_example" if game == "utahime" else None,
                           only_changed=_set_file(tmp, cardset.default_set(game), "old") if changed_only else None)
    result: PrintResult = registry.part(game, "printer").print_cards(SheetSpec(), options)
    return result


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("game", ["utahime", "oscilloscope"])
def test_every_text_of_a_legible_utahime_and_oscilloscope_print_is_at_least_7_pt(game: str, lang: str) -> None:
    result = _other(game, lang, game == "oscilloscope")
    runs = text_runs(result.pdf, result.layout)
    assert len(runs) > 4 * result.cards
    small = [(p, t, round(s, 2)) for p, t, s in runs if s < LEAST_PT - 0.01]
    assert not small, small[:5]


@pytest.mark.parametrize("game", ["utahime", "oscilloscope"])
def test_the_set_stamp_is_on_every_front_and_back(game: str) -> None:
    result = _other(game, "ja", False)
    stamp = (QUIET if game == "oscilloscope" else DEAR).stamp
    runs = text_runs(result.pdf)
    fronts = [sum(1 for p in result.placements if p.sheet == sheet) for sheet in range(result.sheets)]
    stamps = [sum(1 for p, t, _ in runs if p == 2 * sheet and stamp in t) for sheet in range(result.sheets)]
    backs = [sum(1 for p, t, _ in runs if p == 2 * sheet + 1 and stamp in t) for sheet in range(result.sheets)]
    assert stamps == fronts and backs == fronts


def test_osc_r1_the_sets_composition_is_printed_and_only_its_changed_types() -> None:
    """OSC-R1 with noise 15 -> 10 and rising edges 20 -> 25: the whole print holds the set's 110 cards; with
    --only-changed, the 10 noise and 25 rising edges alone, in the designer's words."""
    whole = _other("oscilloscope", "ja", False)
    assert whole.cards == 110
    assert sum(1 for p in whole.placements if "noise" in p.card.label) == 10
    changed = _other("oscilloscope", "ja", True)
    assert changed.cards == 35 and {p.card.label.split(": ")[1].split()[0] for p in changed.placements} == {"noise", "Low→Hi"}
    from cardtable.games.oscilloscope.cardset import TEXT_JA

    text = "".join(t for _, t, _ in text_runs(changed.pdf)).replace(" ", "").replace("\n", "")
    assert TEXT_JA["lh"][:12] in text


def test_uta_r2_r52_the_sets_costs_uses_pool_and_hand_limit_are_printed() -> None:
    """Seal costs 12, the Seer has 2 uses, ♥4 leaves the cosmic pool, the hand limit is 12 in the joker's and the
    cosmic cards' words (UTA-R45, R52)."""
    result = _other("utahime", "ja", False)
    labels = [p.card.label for p in result.placements]
    assert "P1 cosmic ♥4+" not in labels and "P1 cosmic ♥6+" in labels
    runs = text_runs(result.pdf)
    text = "".join(t for _, t, _ in runs).replace(" ", "").replace("\n", "")
    assert "手札上限の12枚" in text and "手札上限の10枚" not in text
    assert "封印" in text and "コスト12" in text and "1ゲームに2回まで" in text
    changed = _other("utahime", "en", True)
    kept = {p.card.label for p in changed.placements}
    assert "P1 option Seal" in kept and "P1 hero The Seer" in kept and "P1 joker" in kept  # the hand limit changed
    assert "P1 option Scout" not in kept


def test_png_of_a_utahime_edition(tmp_path: Path) -> None:
    require_pdftoppm()
    result = _other("utahime", "en", True)
    written = write_card_images(result, tmp_path / "png")
    assert len([p for p in written if p.suffix == ".png"]) == 2 * result.cards
    assert "Seal" in (tmp_path / "png" / "index.txt").read_text(encoding="utf-8")


def test_print_utahime_and_oscilloscope_editions_on_the_command_line(tmp_path: Path) -> None:
    quiet = _set_file(tmp_path, QUIET, "quiet")
    out = runner.invoke(app, ["print", "oscilloscope", "-o", str(tmp_path / "o.pdf"), "--cards", str(quiet),
                              "--lang", "ja", "--only-changed", str(_set_file(tmp_path, cardset.default_set("oscilloscope"), "o"))])
    assert out.exit_code == 0 and (tmp_path / "o.pdf").exists(), out.output
    broken = tmp_path / "broken.toml"
    broken.write_text('[set]\ngame = "utahime"\n[cards.seal]\ncost = -3\n', encoding="utf-8")
    refused = runner.invoke(app, ["print", "utahime", "-o", str(tmp_path / "u.pdf"), "--cards", str(broken)])
    assert refused.exit_code == 2 and "UTA-R2" in refused.output and not (tmp_path / "u.pdf").exists()
    same = runner.invoke(app, ["print", "utahime", "-o", str(tmp_path / "u.pdf"), "--cards", str(broken.parent / "quiet.toml")])
    assert same.exit_code == 2 and "for 'oscilloscope', not 'utahime'" in same.output
