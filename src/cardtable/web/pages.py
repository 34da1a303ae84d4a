"""The client's pages and files: one shell page (``client/index.html``) at every page address, and ``/client``.

============================================  ==================================================================
``/``                                         the lobby: new room, open rooms, my games
``/room/{room_id}``                           a room: play a seat or watch (``?invite=CODE`` for a private one)
``/rooms/{room_id}``                          the same room (the address the server's notifications and lists give)
``/games``                                    my games: every unfinished game of the signed-in player, theirs to move first
``/friends``                                  friends, requests, blocks, invites and the in-app notifications
``/play``                                     play now (a queue per game and player count) and the games going on
``/replay/{room_id}/{game_no}``               step through a finished game as a seat or revealed
``/decks``                                    the games' deck and option-set builders
``/rules``, ``/rules/{game}``                 how to play, and every rule of the rulebook by id
``/tutorial/{game}``                          a first-game guide: a scripted game, one move at a time
``/signup``, ``/signin``                      make an account (a password or a passkey), or sign in to one
``/account``                                  the signed-in player's settings: password, passkeys, deletion
``/players/{account_id}``                     a player's profile: ratings with their history, results, games
``/leaderboards``, ``/leaderboards/{game}``   each game's ranking (per player count where it varies)
``/studio``, ``/studio/studies/{id}``         the designer's studio: card sets, studies, their reports
``/studio/shared/{id}``, ``/studio/compare``  a shared study's report (read-only), two studies side by side
============================================  ==================================================================

The shell's ES modules route on the address.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.routing import Mount
from starlette.types import Scope

from . import i18n
from .i18n import Language

PAGE_PATHS = ("/", "/room/{room_id}", "/rooms/{room_id}", "/games", "/friends", "/play", "/replay/{room_id}/{game_no}", "/decks", "/rules", "/rules/{game}",
              "/tutorial/{game}", "/signup", "/signin", "/account", "/players/{account_id}", "/leaderboards",
              "/leaderboards/{game}", "/studio", "/studio/compare", "/studio/studies/{study_id}", "/studio/shared/{share_id}")
"""Every page address (each serves the shell)."""

PAGE_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
                                "connect-src 'self' ws: wss:; base-uri 'none'; form-action 'self'; "
                                "frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
"""The headers of every page and client file: scripts and styles from this server only, no framing."""


def _shell(lang: Language) -> str:
    text = (i18n.client_dir() / "index.html").read_text(encoding="utf-8")
    return text.replace('<html lang="en">', f'<html lang="{lang.value}">', 1)


def page(request: Request) -> HTMLResponse:
    """The client's shell page (every page route serves it; the scripts route on the address)."""
    lang = i18n.negotiate(request.headers.get("accept-language"))
    return HTMLResponse(_shell(lang), headers={**PAGE_HEADERS, "Cache-Control": "no-cache"})


class ClientFiles(StaticFiles):
    """The client's static files, with the page headers and revalidation on every load."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        """The file at ``path`` (404 if none), with the page headers."""
        response = await super().get_response(path, scope)
        for key, value in PAGE_HEADERS.items():
            response.headers[key] = value
        response.headers["Cache-Control"] = "no-cache"
        return response


def mount_pages(app: FastAPI) -> None:
    """Serve the shell at every page address and the client's files under ``/client``."""
    for path in PAGE_PATHS:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False, response_class=HTMLResponse)
    app.router.routes.append(Mount("/client", app=ClientFiles(directory=str(i18n.client_dir())), name="client"))
