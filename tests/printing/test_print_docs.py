"""docs/print.md: its examples run, and its pictures are rendered pages (rewritten with CARDTABLE_WRITE_DOCS_IMAGES=1)."""

from __future__ import annotations

import doctest
import io

import pytest
from PIL import Image
from print_helpers import DOCS_IMAGES, render_page, write_docs_image

from cardtable.printing import PrintResult

DPI = 100
MAX_BYTES = 300_000
# (file name, game, page): a front and the back behind it for each game, and Oscilloscope's triggers
PAGES = [
    ("zeta-front.png", "zeta", 1),
    ("zeta-back.png", "zeta", 2),
    ("oscilloscope-front.png", "oscilloscope", 9),
    ("oscilloscope-back.png", "oscilloscope", 10),
    ("oscilloscope-triggers.png", "oscilloscope", 23),
    ("utahime-front.png", "utahime", 1),
    ("utahime-back.png", "utahime", 2),
]


@pytest.mark.parametrize(("name", "game", "page"), PAGES, ids=[p[0] for p in PAGES])
def test_docs_pictures_are_small_rendered_pages(name: str, game: str, page: int, request: pytest.FixtureRequest) -> None:
    result: PrintResult = request.getfixturevalue(f"{game}_result")
    image = render_page(result.pdf, page, DPI)
    width_mm = result.layout.page_width
    assert image.size[0] == pytest.approx(width_mm / 25.4 * DPI, abs=2)
    buffer = io.BytesIO()
    image.quantize(colors=48, method=Image.Quantize.MEDIANCUT).save(buffer, format="PNG", optimize=True)
    assert len(buffer.getvalue()) < MAX_BYTES
    written = write_docs_image(image, name)
    if written is not None:
        assert written.stat().st_size < MAX_BYTES


def test_docs_print_md_shows_every_picture() -> None:
    doc = (DOCS_IMAGES.parents[1] / "print.md").read_text(encoding="utf-8")
    for name, _, _ in PAGES:
        assert f"images/print/{name}" in doc
        assert (DOCS_IMAGES / name).is_file(), f"run the printing tests with CARDTABLE_WRITE_DOCS_IMAGES=1 ({name})"


def test_the_examples_in_docs_print_md_run() -> None:
    result = doctest.testfile(str(DOCS_IMAGES.parents[1] / "print.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
