"""The rooms server's app: a JSON API for rooms and one websocket per client for play.

``create_app(ServerSettings(...))`` builds the ASGI app: the routes of :mod:`cardtable.server.api`,
one shape for every refusal (:mod:`cardtable.server.errors`), a body limit and safe headers. It
serves no pages: the browser client (:mod:`cardtable.web`) builds on this app and adds them, and
``cardtable serve`` runs that with uvicorn. Every endpoint and message is in docs/server.md; the
OpenAPI description is at ``/openapi.json`` and ``/docs``, and the websocket messages' JSON Schemas
at ``/api/protocol``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import Response

from cardtable.core.errors import ErrorCode

from . import errors
from .api import ROUTERS, add_routes
from .auth import SessionGuard
from .errors import Refusal, error_response
from .services import ServerSettings, Services


class BodyLimit:
    """ASGI middleware: refuse HTTP bodies larger than ``limit`` bytes with 413."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: MutableMapping[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", []):
            if key == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    response = error_response(Refusal(ErrorCode.TOO_LARGE,
                                                      f"request bodies are limited to {self.limit} bytes", status=413))
                    await response(scope, receive, send)
                    return
        seen = 0

        async def limited() -> Any:
            """The next body chunk; an empty last one once the limit is passed."""
            nonlocal seen
            message = await receive()
            if message.get("type") == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    return {"type": "http.request", "body": b"", "more_body": False}
            return message

        await self.app(scope, limited, send)


class QuietBadFrames(logging.Filter):
    """A log filter: a client's text frame that is not UTF-8 (closed with 1007 by the websocket layer) is
    logged as one warning line, never with a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Strip the traceback of the websocket layer's "Invalid UTF-8" message (every record passes)."""
        if record.exc_info and "Invalid UTF-8" in str(record.msg):
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.msg = "a client sent a text frame that is not UTF-8; its socket was closed with 1007"
        return True


def quiet_bad_frames() -> None:
    """Install :class:`QuietBadFrames` on uvicorn's error log (once)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietBadFrames) for f in logger.filters):
        logger.addFilter(QuietBadFrames())


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    """The server's ASGI app, the API only (it opens its store when it starts)."""
    settings = settings or ServerSettings()
    services = Services(settings)
    quiet_bad_frames()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        """Open the store and start the hub while the app runs."""
        await services.start()
        try:
            yield
        finally:
            await services.stop()

    app = FastAPI(title="cardtable", version="1", lifespan=lifespan,
                  description="Online rooms for Zeta, Oscilloscope and Utahime: seats, bots, spectators. "
                              "Play is over the websocket /api/rooms/{room_id}/ws (messages: /api/protocol).")
    app.state.services = services
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(SessionGuard, services=services)  # the CSRF rule of every state-changing route
    errors.install(app)

    @app.middleware("http")
    async def _headers(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response = await call_next(request)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    for router in ROUTERS:
        add_routes(app, router)
    return app
