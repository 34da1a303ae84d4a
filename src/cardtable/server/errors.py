"""Refusals: the one body shape of every refused request, and the handlers that give it.

Every refusal, HTTP or websocket, has a stable ``code`` from the closed :class:`ErrorCode`, a
message for people, and a rulebook id when the engine gave one:

>>> error_body(Refusal(ErrorCode.SEAT_TAKEN, "seat 0 is already taken", status=409))
{'error': {'code': 'seat_taken', 'message': 'seat 0 is already taken', 'rule': None}}
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route

from cardtable.core.errors import ErrorCode
from cardtable.store import StoreError

from .protocol import ErrorBody


class Refusal(Exception):
    """A request the server refuses: a stable ``code``, a message for people, and a rule id if the engine gave one."""

    def __init__(self, code: ErrorCode, message: str, rule: str | None = None, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.status = status


STORE_STATUS: dict[ErrorCode, int] = {ErrorCode.NO_SUCH_ROOM: 404, ErrorCode.BAD_TOKEN: 401,
                                      ErrorCode.NO_ACCESS: 403}
"""The HTTP status of a store error's code (409 for the others)."""
HTTP_CODES: dict[int, ErrorCode] = {400: ErrorCode.BAD_REQUEST, 404: ErrorCode.NOT_FOUND,
                                    405: ErrorCode.METHOD_NOT_ALLOWED, 413: ErrorCode.TOO_LARGE}
"""The code of a refusal by the HTTP layer itself (``http_error`` for other statuses)."""

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "Refused: the body says why (code, message)."},
    401: {"model": ErrorBody, "description": "The seat token is missing or not valid in this room."},
    403: {"model": ErrorBody, "description": "A private room, without its invite code or a seat token."},
    404: {"model": ErrorBody, "description": "There is no such room."},
    409: {"model": ErrorBody, "description": "The room's state does not allow it (seat taken, game over, ...)."},
}
"""The OpenAPI description of each refusal status."""


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route that may refuse with ``statuses``."""
    return {s: ERRORS[s] for s in statuses}


def refusal_of_store(exc: StoreError) -> Refusal:
    """The refusal of a store error (its code, its message, its HTTP status)."""
    code = ErrorCode(exc.code)
    return Refusal(code, exc.message, status=STORE_STATUS.get(code, 409))


def error_body(refusal: Refusal) -> dict[str, Any]:
    """The JSON body of a refusal."""
    return {"error": {"code": str(refusal.code), "message": refusal.message, "rule": refusal.rule}}


def error_response(refusal: Refusal, headers: dict[str, str] | None = None) -> JSONResponse:
    """The HTTP answer of a refusal."""
    return JSONResponse(error_body(refusal), status_code=refusal.status, headers=headers)


def install(app: FastAPI) -> None:
    """Give every refusal of ``app`` (a Refusal, a store error, an HTTP error, a body nested too deeply) one shape."""

    @app.exception_handler(Refusal)
    async def _refused(_request: Request, exc: Refusal) -> JSONResponse:
        return error_response(exc)

    @app.exception_handler(StoreError)
    async def _store_refused(_request: Request, exc: StoreError) -> JSONResponse:
        return error_response(refusal_of_store(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        headers = dict(exc.headers or {})
        if exc.status_code == 405:  # name every method of the path (Starlette names only one route's)
            allowed = sorted({m for route in app.router.routes if isinstance(route, Route)
                              and route.matches(request.scope)[0] is not Match.NONE for m in route.methods or ()})
            headers["Allow"] = ", ".join(allowed)
        code = HTTP_CODES.get(exc.status_code, ErrorCode.HTTP_ERROR)
        return error_response(Refusal(code, str(exc.detail), status=exc.status_code), headers=headers)

    @app.exception_handler(RecursionError)
    async def _too_deep(_request: Request, _exc: RecursionError) -> JSONResponse:
        return error_response(Refusal(ErrorCode.BAD_REQUEST, "the request is nested too deeply"))
