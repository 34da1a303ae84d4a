"""The one font every sheet uses: a TrueType font that covers Japanese, found on this machine and embedded.

reportlab embeds TrueType (``glyf``) fonts only, not CFF-flavoured OpenType (``OTTO``), so Noto
Sans CJK will not do; the project uses IPAexGothic from the Debian package
``fonts-ipaexfont-gothic`` (its licence allows embedding in documents). ``CARDTABLE_FONT`` may
name another TrueType file. Nothing is ever downloaded.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from .layout import PrintError

FONT_NAME = "CardtableGothic"
"""The name the font is registered under in reportlab."""
FONT_ENV = "CARDTABLE_FONT"
DEBIAN_PACKAGE = "fonts-ipaexfont-gothic"
FONT_PATHS = (
    "/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf",  # Debian, Ubuntu
    "/usr/share/fonts/truetype/ipaexfont-gothic/ipaexg.ttf",
    "/usr/share/fonts/ipa-ex-gothic/ipaexg.ttf",  # Fedora
    "/usr/share/fonts/TTF/ipaexg.ttf",  # Arch
    "/usr/local/share/fonts/ipaexg.ttf",
    "/Library/Fonts/ipaexg.ttf",
)
TRUETYPE_TAGS = (b"\x00\x01\x00\x00", b"true")


def _sfnt_tag(path: Path) -> bytes:
    """The sfnt version of a font file (of its first font, for a collection)."""
    with path.open("rb") as f:
        head = f.read(16)
        if head[:4] == b"ttcf" and len(head) >= 16:
            f.seek(int.from_bytes(head[12:16], "big"))
            return f.read(4)
        return head[:4]


def find_font() -> Path:
    """The font file to embed: ``$CARDTABLE_FONT`` or IPAexGothic; PrintError naming the package if missing."""
    override = os.environ.get(FONT_ENV)
    if override:
        path = Path(override)
        if not path.is_file():
            raise PrintError(f"{FONT_ENV}={override} is not a font file")
        return path
    for candidate in FONT_PATHS:
        path = Path(candidate)
        if path.is_file():
            return path
    raise PrintError(f"the Japanese font IPAexGothic (ipaexg.ttf) is not installed; on Debian or Ubuntu: "
                     f"apt-get install {DEBIAN_PACKAGE} (or set {FONT_ENV} to a TrueType font file that covers "
                     f"Japanese)")


def check_truetype(path: Path) -> None:
    """PrintError unless the file is a TrueType (glyf) font, the only kind reportlab embeds."""
    try:
        tag = _sfnt_tag(path)
    except OSError as exc:
        raise PrintError(f"cannot read font {path}: {exc.strerror or exc}") from None
    if tag == b"OTTO":
        raise PrintError(f"font {path} is CFF-flavoured OpenType, which reportlab cannot embed; use a TrueType "
                         f"(glyf) font such as IPAexGothic ({DEBIAN_PACKAGE})")
    if tag not in TRUETYPE_TAGS:
        raise PrintError(f"font {path} is not a TrueType font")


@cache
def register_font() -> str:
    """Register the font with reportlab once and return its name."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    path = find_font()
    check_truetype(path)
    try:
        pdfmetrics.registerFont(TTFont(FONT_NAME, str(path)))
    except TTFError as exc:
        raise PrintError(f"font {path} cannot be embedded: {exc}") from None
    return FONT_NAME


def covered(char: str) -> bool:
    """True if the registered font has a glyph for ``char`` (whitespace always counts as covered)."""
    from reportlab.pdfbase import pdfmetrics

    if char.isspace():
        return True
    font = pdfmetrics.getFont(register_font())
    return ord(char) in font.face.charToGlyph  # type: ignore[attr-defined]


def missing_glyphs(text: str) -> list[str]:
    """The characters of ``text`` the font cannot draw (they would print as empty boxes), in order, once each."""
    out: list[str] = []
    for ch in text:
        if ch not in out and not covered(ch):
            out.append(ch)
    return out


def require_glyphs(text: str, where: str) -> None:
    """PrintError naming the characters of ``text`` that the font lacks."""
    missing = missing_glyphs(text)
    if missing:
        shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in missing)
        raise PrintError(f"{where}: the font has no glyph for {shown}; change the text")
