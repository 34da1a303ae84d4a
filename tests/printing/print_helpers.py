"""Helpers for the printing tests: rasterise PDF pages with pdftoppm, read their text with pypdf, measure ink."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image
from pypdf import PdfReader

import system_needs

MM_PER_INCH = 25.4
DOCS_IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images" / "print"
WRITE_DOCS_ENV = "CARDTABLE_WRITE_DOCS_IMAGES"


def require_pdftoppm() -> str:
    """The pdftoppm binary (the outside-need rule of ``system_needs``: skipped without it, failed under CI)."""
    path = shutil.which("pdftoppm")
    system_needs.need(None if path else "pdftoppm is not installed (apt-get install -y poppler-utils)")
    assert path is not None
    return path


def render_page(pdf: bytes, page: int, dpi: int, *, crop_mm: tuple[float, float, float, float] | None = None,
                page_height_mm: float | None = None, gray: bool = False) -> Image.Image:
    """One page (1-based) as an image; ``crop_mm`` = (x, y, width, height) in PDF millimetres (origin bottom-left)."""
    tool = require_pdftoppm()
    args = [tool, "-r", str(dpi), "-f", str(page), "-l", str(page), "-png", "-singlefile"]
    if gray:
        args.append("-gray")
    if crop_mm is not None:
        assert page_height_mm is not None
        x, y, w, h = crop_mm
        px = dpi / MM_PER_INCH
        top = page_height_mm - (y + h)
        args += ["-x", str(round(x * px)), "-y", str(round(top * px)), "-W", str(round(w * px)), "-H", str(round(h * px))]
    with tempfile.TemporaryDirectory(prefix="cardtable-print-") as tmp:
        source, root = Path(tmp) / "in.pdf", Path(tmp) / "page"
        source.write_bytes(pdf)
        subprocess.run([*args, str(source), str(root)], capture_output=True, check=True, timeout=120)
        with Image.open(root.with_suffix(".png")) as image:
            return image.convert("L" if gray else "RGB")


@cache
def page_texts(pdf: bytes, pages: tuple[int, ...] | None = None) -> list[str]:
    """The extracted text of every page, or of the pages (0-based) asked for; cached, as pypdf is slow."""
    reader = PdfReader(io.BytesIO(pdf))
    wanted = range(len(reader.pages)) if pages is None else pages
    return [reader.pages[i].extract_text() or "" for i in wanted]


def squash(text: str) -> str:
    """Text without whitespace (names may wrap or be spaced differently by extraction)."""
    return "".join(text.split())


def darkness_profile(image: Image.Image, axis: int) -> list[float]:
    """Total darkness (255 - grey) summed across the other axis, per column (axis 0) or per row (axis 1)."""
    gray = image.convert("L")
    w, h = gray.size
    data = gray.tobytes()
    if axis == 0:
        return [float(sum(255 - data[y * w + x] for y in range(h))) for x in range(w)]
    return [float(sum(255 - v for v in data[y * w:(y + 1) * w])) for y in range(h)]


def ink_centres(profile: list[float], threshold: float) -> list[float]:
    """The darkness-weighted centre (in pixels, pixel centres at i + 0.5) of every run above ``threshold``."""
    centres: list[float] = []
    run: list[int] = []
    for i, v in enumerate([*profile, 0.0]):
        if v > threshold:
            run.append(i)
        elif run:
            weight = sum(profile[j] for j in run)
            centres.append(sum((j + 0.5) * profile[j] for j in run) / weight)
            run = []
    return centres


def pixels(image: Image.Image) -> list[Any]:
    """Every pixel value, row by row (whichever accessor this Pillow has)."""
    flat = getattr(image, "get_flattened_data", None)
    return list(flat() if flat is not None else image.getdata())


def mean_colour(image: Image.Image, box_px: tuple[int, int, int, int]) -> tuple[float, float, float]:
    """The average RGB of a box (left, top, right, bottom) of an image."""
    region = image.convert("RGB").crop(box_px)
    values = pixels(region)
    n = len(values)
    return (sum(p[0] for p in values) / n, sum(p[1] for p in values) / n, sum(p[2] for p in values) / n)


def mm_box(rect_mm: tuple[float, float, float, float], page_height_mm: float, dpi: int) -> tuple[int, int, int, int]:
    """A rectangle (x, y, width, height) in PDF millimetres as a pixel box of a full-page render."""
    x, y, w, h = rect_mm
    px = dpi / MM_PER_INCH
    return (round(x * px), round((page_height_mm - y - h) * px), round((x + w) * px), round((page_height_mm - y) * px))


def write_docs_image(image: Image.Image, name: str) -> Path | None:
    """Save a page picture for docs/print.md when CARDTABLE_WRITE_DOCS_IMAGES=1 (a small palette PNG)."""
    if os.environ.get(WRITE_DOCS_ENV) != "1":
        return None
    DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
    path = DOCS_IMAGES / name
    image.convert("RGB").quantize(colors=48, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    return path
