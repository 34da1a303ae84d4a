"""The account pages' addresses without a browser: each serves the shell page with the strict policy, and the
client never builds a page from HTML (names are text)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardtable.server import ServerSettings
from cardtable.web import create_app, i18n
from cardtable.web.pages import PAGE_PATHS


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("account-pages") / "rooms.db"
    with TestClient(create_app(ServerSettings(db=f"sqlite:///{db}", durable=False, bot_executor="thread"))) as c:
        yield c


@pytest.mark.parametrize("path", ["/signup", "/signin", "/account", "/players/AbC123", "/leaderboards",
                                  "/leaderboards/zeta"])
def test_every_account_page_serves_the_shell(client: TestClient, path: str) -> None:
    page = client.get(path, headers={"Accept-Language": "ja"})
    assert page.status_code == 200 and '<html lang="ja">' in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]


def test_the_page_list_names_every_account_page() -> None:
    assert {"/signup", "/signin", "/account", "/players/{account_id}", "/leaderboards/{game}"} <= set(PAGE_PATHS)


def test_the_client_sends_the_csrf_token_on_every_unsafe_request() -> None:
    scripts = Path(str(i18n.client_dir())) / "js"
    api = (scripts / "api.js").read_text(encoding="utf-8")
    assert 'headers["X-CSRF-Token"] = csrf' in api and '"POST", "PUT", "PATCH", "DELETE"' in api
    # every other request the pages make goes through api(), or adds the same header itself
    posting = [p for p in scripts.rglob("*.js") if 'method: "POST"' in p.read_text(encoding="utf-8")]
    assert posting and all("csrfHeaders()" in p.read_text(encoding="utf-8") for p in posting), posting
