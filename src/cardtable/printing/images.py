"""One picture per card face and back (``cardtable print ... --png DIR``), for Tabletop Simulator and print services.

The sheets are rasterised with poppler's ``pdftoppm`` at 300 dpi, and every card is cut out with its
bleed: ``001-front.png`` and ``001-back.png`` for the first card in print order, and so on, with an
``index.txt`` naming what each number is. The pictures are the sheets' own pixels, so they show what
the PDF prints.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from .layout import PrintError
from .sheets import PrintResult

DPI = 300
"""Dots per inch of every picture (what print services ask for)."""
MM_PER_INCH = 25.4


def _pdftoppm() -> str:
    path = shutil.which("pdftoppm")
    if path is None:
        raise PrintError("--png needs pdftoppm from poppler: apt-get install -y poppler-utils")
    return path


def _slug(text: str) -> str:
    """A file-name-safe form of a label."""
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()[:60]


def write_card_images(result: PrintResult, directory: Path, dpi: int = DPI) -> list[Path]:
    """Write a front and a back picture of every card of ``result`` into ``directory`` (PrintError if it cannot)."""
    from PIL import Image

    directory.mkdir(parents=True, exist_ok=True)
    layout = result.layout
    px = dpi / MM_PER_INCH
    written: list[Path] = []
    lines: list[str] = []
    with tempfile.TemporaryDirectory(prefix="cardtable-png-") as tmp:
        source = Path(tmp) / "sheets.pdf"
        source.write_bytes(result.pdf)
        try:
            subprocess.run([_pdftoppm(), "-r", str(dpi), "-png", str(source), str(Path(tmp) / "page")],
                           capture_output=True, check=True, timeout=600)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            raise PrintError(f"pdftoppm could not render the sheets: {exc}") from None
        pages = sorted(Path(tmp).glob("page-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
        images = [Image.open(p) for p in pages]
        try:
            for number, place in enumerate(result.placements, start=1):
                for side, page, slot in (("front", 2 * place.sheet, place.slot),
                                         ("back", 2 * place.sheet + 1, place.back_slot)):
                    box = layout.bleed_rect(slot)
                    left = round(box.x * px)
                    top = round((layout.page_height - box.y - box.height) * px)
                    crop = images[page].crop((left, top, left + round(box.width * px), top + round(box.height * px)))
                    path = directory / f"{number:03d}-{side}.png"
                    crop.save(path, dpi=(dpi, dpi))
                    written.append(path)
                lines.append(f"{number:03d}\t{place.card.group}\t{place.card.label}\t{_slug(place.card.label)}")
        finally:
            for image in images:
                image.close()
    index = directory / "index.txt"
    index.write_text("number\tgroup\tcard\tslug\n" + "\n".join(lines) + "\n", encoding="utf-8")
    written.append(index)
    return written
