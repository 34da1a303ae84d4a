"""``cardtable print``: each game's command writes a PDF; bad input is a clear error and writes nothing."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from pypdf import PdfReader
from typer.testing import CliRunner

from cardtable.cli.print_cmd import register
from cardtable.printing import fonts

app = typer.Typer()
register(app)


@app.callback()
def _main() -> None:
    """Make ``print`` a subcommand, as in the real app."""


runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["print", *args])
    return result.exit_code, " ".join(result.output.split())


@pytest.mark.parametrize(("args", "pages", "cards"), [
    (["zeta"], 12, "51 cards (P1 classic 25, P2 classic 25, rules summary 1)"),
    (["zeta", "--deck", "arcana", "--deck", "control", "--paper", "letter"], 20, "P1 arcana 25, P2 control 25"),
    (["oscilloscope", "--card", "56x87", "--bleed", "1"], 26, "111 cards (pulse deck 70, trigger deck 40, reference 1)"),
    (["utahime", "--options", "designer_example"], 8, "29 cards (P1 14, P2 14, reference 1)"),
    (["utahime"], 4, "15 cards"),
])
def test_each_game_writes_a_pdf_and_says_where(tmp_path: Path, args: list[str], pages: int, cards: str) -> None:
    out = tmp_path / "cards.pdf"
    code, text = _run(*args, "-o", str(out))
    assert code == 0, text
    assert f"wrote {out}: {pages} pages" in text and cards in text
    assert len(PdfReader(io.BytesIO(out.read_bytes())).pages) == pages
    assert "flipping on the long edge" in text
    assert [p.name for p in tmp_path.iterdir()] == ["cards.pdf"]  # no temporary file left behind


def test_a_deck_file_and_a_skin_file(tmp_path: Path) -> None:
    deck = tmp_path / "wizards.toml"
    deck.write_text('name = "wizards"\nchant_practice = 8\nblessing_mist = 2\ndo_over = 3\nfortune_telling = 2\n'
                    'magic_circle = 3\nmagical_boost = 2\nfire_mage = 2\nice_mage = 2\nhexer = 1\n'
                    '[names]\nhexer = "Curse Weaver"\n', encoding="utf-8")
    skin = tmp_path / "skin.toml"
    skin.write_text('title = "Hedge Wizards"\n[names]\nchant_practice = "見習いの詠唱"\n', encoding="utf-8")
    out = tmp_path / "z.pdf"
    code, text = _run("zeta", "--deck", str(deck), "--skin", str(skin), "-o", str(out))
    assert code == 0, text
    pages = PdfReader(io.BytesIO(out.read_bytes())).pages
    pdf_text = "".join((pages[i].extract_text() or "") for i in (0, 1, 4))  # chant 1, its back, hexer
    assert "Curse Weaver" in pdf_text and "見習いの詠唱" in pdf_text and "Hedge Wizards" in pdf_text


@pytest.mark.parametrize(("args", "message"), [
    (["zeta", "--deck", "clasic"], "'clasic' is neither a preset deck nor a deck file (did you mean 'classic'?)"),
    (["zeta", "--deck", "plain"], "the limit is 8: remove 17; --no-limits prints it anyway"),
    (["zeta", "--card", "80x100"], "Zeta cards must be within 70 x 96 mm"),
    (["zeta", "--card", "63-88"], "is not WIDTHxHEIGHT in millimetres"),
    (["zeta", "--paper", "a3"], "unknown paper 'a3'; choose one of: a4, letter"),
    (["zeta", "--bleed", "7"], "bleed 7.0 mm is out of range"),
    (["oscilloscope", "--card", "200x290"], "does not fit on a4 paper"),
    (["oscilloscope", "--deck", "classic"], "--deck, --skin and --no-limits apply to zeta only"),
    (["zeta", "--options", "designer_example"], "--options applies to utahime only"),
    (["utahime", "--options", "missing.toml"], "cannot read option set missing.toml"),
    (["chess"], "unknown game 'chess'"),
])
def test_bad_input_is_a_clear_error_and_writes_nothing(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "cards.pdf"
    code, text = _run(*args, "-o", str(out))
    assert code == 2 and "error:" in text and message in text, text
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("content", "message"), [
    ('name = "x"\nchant_practice = "eight"\n', "count of chant_practice must be a whole number"),
    ("name = [broken\n", "is not valid TOML"),
    ('name = "short"\nchant_practice = 3\n', "it has 3 cards but a deck holds exactly 25"),
    ('name = "x"\nblesing_mist = 2\n', "did you mean 'blessing_mist'?"),
])
def test_bad_deck_files_are_refused(tmp_path: Path, content: str, message: str) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text(content, encoding="utf-8")
    code, text = _run("zeta", "--deck", str(deck), "-o", str(tmp_path / "out.pdf"))
    assert code == 2 and message in text, text
    assert not (tmp_path / "out.pdf").exists()


@pytest.mark.parametrize(("content", "message"), [
    ('[names]\nhexer = ""\n', "display name of hexer must be a non-empty string"),
    ('[names]\nhexr = "X"\n', "[names] has unknown card id 'hexr'"),
    ('colour = "red"\n', "unknown key(s) colour"),
])
def test_bad_skin_files_are_refused(tmp_path: Path, content: str, message: str) -> None:
    skin = tmp_path / "skin.toml"
    skin.write_text(content, encoding="utf-8")
    code, text = _run("zeta", "--skin", str(skin), "-o", str(tmp_path / "out.pdf"))
    assert code == 2 and message in text, text
    assert not (tmp_path / "out.pdf").exists()


def test_an_option_set_over_the_budget_is_refused(tmp_path: Path) -> None:
    toml = tmp_path / "big.toml"
    toml.write_text('format = 1\nname = "big"\n[[option]]\nname = "huge"\ncost = 15\ntext = "Draw."\n'
                    'effects = [{ do = "draw", count = 1 }]\n[loadout]\np1 = ["huge", "huge"]\n', encoding="utf-8")
    code, text = _run("utahime", "--options", str(toml), "-o", str(tmp_path / "out.pdf"))
    assert code == 2 and "UTA-R2: P1's option cards cost 30 in total; the budget is 28" in text, text


def test_an_output_folder_that_does_not_exist(tmp_path: Path) -> None:
    code, text = _run("utahime", "-o", str(tmp_path / "nowhere" / "u.pdf"))
    assert code == 2 and "does not exist" in text


@pytest.fixture
def no_font(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A machine without the Japanese font (the font cache is cleared before and after)."""
    monkeypatch.delenv(fonts.FONT_ENV, raising=False)
    monkeypatch.setattr(fonts, "FONT_PATHS", ())
    fonts.register_font.cache_clear()
    yield
    fonts.register_font.cache_clear()


def test_a_missing_font_names_the_debian_package(tmp_path: Path, no_font: None) -> None:
    code, text = _run("zeta", "-o", str(tmp_path / "z.pdf"))
    assert code == 2 and "apt-get install fonts-ipaexfont-gothic" in text, text
    assert list(tmp_path.iterdir()) == []


def test_a_cff_font_is_refused_because_it_cannot_be_embedded(tmp_path: Path, no_font: None,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "NotoSansCJK.otf"
    fake.write_bytes(b"OTTO" + bytes(60))
    monkeypatch.setenv(fonts.FONT_ENV, str(fake))
    code, text = _run("utahime", "-o", str(tmp_path / "u.pdf"))
    assert code == 2 and "CFF-flavoured OpenType" in text, text
    assert not (tmp_path / "u.pdf").exists()
