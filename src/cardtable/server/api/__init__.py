"""The server's routes by concern: the catalog, rooms, seats, records, the play socket, accounts and players.

Each module holds one ``router``; :data:`ROUTERS` is the order the app includes them in.
"""

from __future__ import annotations

from fastapi import APIRouter, FastAPI

from . import accounts, catalog, play, players, records, rooms, seats, social, studio

ROUTERS: tuple[APIRouter, ...] = (catalog.router, rooms.router, seats.router, records.router, play.router,
                                  accounts.router, players.router, studio.router, social.router)
"""Every router of the API, in the order of docs/server.md."""


def add_routes(app: FastAPI, router: APIRouter) -> None:
    """Add a router's routes to ``app`` as its own routes, in order (so that walking ``app.router.routes``,
    as the ``405`` answer does to name a path's methods, finds every one of them)."""
    app.router.routes.extend(router.routes)


__all__ = ["ROUTERS", "add_routes"]
