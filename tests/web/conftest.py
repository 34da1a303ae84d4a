"""Fixtures of the browser tests: a real server (uvicorn, a temp SQLite file, the web routes), Debian's
chromium through playwright, pages that fail the test on any script error, and the screenshots."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import system_needs

from .live import LiveServer

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--headless"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
DOCS_IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images" / "web"


def _browser_missing() -> str | None:
    if not CHROMIUM.exists():
        return f"Debian's chromium is not installed ({CHROMIUM}; apt-get install -y chromium)"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the browser tests with the outside need (skipped with the reason, failed under CI) where chromium is missing."""
    reason = _browser_missing()
    if reason is None:
        return
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(system_needs.mark(reason))


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the session's browser tests."""
    live = LiveServer(tmp_path_factory.mktemp("web") / "rooms.db").start()
    yield live
    live.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Pages:
    """New browser contexts (one person each); every page fails the test on an uncaught script error."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def new(self, *, locale: str = "en-US", viewport: dict[str, int] | None = None, touch: bool = False) -> Any:
        """A page in a new context (its own localStorage: another person); ``touch``: a phone's touch screen."""
        context = self.browser.new_context(locale=locale, viewport=viewport or DESKTOP, accept_downloads=True,
                                           **({"has_touch": True, "is_mobile": True} if touch else {}))
        context.set_default_timeout(30_000)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(f"{page.url}: {exc}"))
        return page

    def close(self) -> None:
        """Close every context."""
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    """Pages for one test; a script error on any of them fails it."""
    made = Pages(browser)
    yield made
    made.close()
    assert not made.errors, made.errors


@pytest.fixture(scope="session")
def shot(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Any, str], Path]:
    """Take a full-page screenshot (into docs/images/web/ when CARDTABLE_WRITE_DOCS_IMAGES=1)."""
    folder = DOCS_IMAGES if os.environ.get("CARDTABLE_WRITE_DOCS_IMAGES") == "1" else tmp_path_factory.mktemp("shots")
    folder.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str, full: bool = True) -> Path:
        """The whole page from its top, or (``full=False``) just what the viewport shows now."""
        path = folder / f"{name}.png"
        if full:
            page.mouse.move(0, 0)
            page.evaluate("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
        page.wait_for_timeout(150)
        page.screenshot(path=str(path), full_page=full, animations="disabled")
        assert path.stat().st_size > 10_000
        if folder == DOCS_IMAGES:
            _shrink(path)
        return path

    return take


def _shrink(path: Path) -> None:
    """Keep the docs' screenshots small: 256 colours are plenty for pages of flat colours and text."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


class Api:
    """The server's JSON API, as a test client calls it."""

    def __init__(self, base: str) -> None:
        self.base = base

    def __call__(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = httpx.request(method, self.base + path, json=body, headers=headers, timeout=30)
        assert response.status_code < 400, response.text
        return response.json()

    def room(self, game: str, seats: list[dict[str, Any]], *, setup: dict[str, Any] | None = None,
             rules: dict[str, Any] | None = None, title: str = "", join: str | None = "Aki") -> tuple[str, str | None, int | None]:
        """A new room; with ``join``, that person takes the first open seat: (room id, token, seat)."""
        made = self("POST", "/api/rooms", {"game": game, "seats": seats, "setup": setup or {}, "rules": rules or {},
                                           "title": title})
        room = made["room"]["id"]
        if join is None:
            return room, None, None
        joined = self("POST", f"/api/rooms/{room}/join", {"name": join})
        return room, joined["token"], joined["seat"]


@pytest.fixture(scope="session")
def api(server: LiveServer) -> Api:
    """The session server's API."""
    return Api(server.url)
