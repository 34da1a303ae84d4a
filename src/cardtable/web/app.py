"""The browser client's app: the rooms server's app (:func:`cardtable.server.create_app`) with the pages added.

The web package depends on the server, never the reverse: :func:`mount` adds to a server app the
pages and the client's files (:mod:`.pages`), what the pages read about the games
(:mod:`.catalogs`), each game's own routes (found through the registry, :mod:`.kit`), hints
(:mod:`.hints`) and replays (:mod:`.replays`). Every body and parameter is validated (pydantic);
a refusal has the server's shape ``{"error": {"code", "message", "rule"}}``.

>>> from fastapi import FastAPI
>>> app = FastAPI()
>>> mount(app)
>>> sorted(r.path for r in app.routes if getattr(r, "path", "").startswith("/web/decks"))
['/web/decks/zeta', '/web/decks/zeta/check', '/web/decks/zeta/print', '/web/decks/zeta/random']
"""

from __future__ import annotations

from fastapi import FastAPI

from cardtable.server import ServerSettings
from cardtable.server import create_app as create_server_app
from cardtable.server.api import add_routes

from . import catalogs, hints, replays, tutorial
from .kit import game_webs
from .pages import mount_pages


def mount(app: FastAPI) -> None:
    """Add the client's pages, files and routes to a server's ``app`` (the API keeps its paths)."""
    mount_pages(app)
    add_routes(app, catalogs.router)
    for web in game_webs().values():
        if web.router is not None:
            add_routes(app, web.router)
    add_routes(app, hints.routes())
    add_routes(app, replays.routes())
    add_routes(app, tutorial.router)


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    """The server's app with the browser client (what ``cardtable serve`` runs)."""
    app = create_server_app(settings)
    mount(app)
    return app


def app_from_env() -> FastAPI:
    """:func:`create_app` with :meth:`ServerSettings.from_env` (``uvicorn --factory``, several workers)."""
    return create_app(ServerSettings.from_env())
