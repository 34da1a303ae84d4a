"""Refusals: the one body shape of every refused request, and the handlers that give it.

Every refusal, HTTP or websocket, has a stable ``code`` from the closed :class:`ErrorCode`, a
message for people, and a rulebook id when the engine gave one:

>>> error_body(Refusal(ErrorCode.SEAT_TAKEN, "seat 0 is already taken", status=409))
{'error': {'code': 'seat_taken', 'message': 'seat 0 is already taken', 'rule': None}}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route

from cardtable.core.errors import ErrorCode
from cardtable.store import StoreError

from .protocol import ErrorBody


class Refusal(Exception):
    """A request the server refuses: a stable ``code``, a message for people, and a rule id if the engine gave one."""

    def __init__(self, code: ErrorCode, message: str, rule: str | None = None, status: int = 400,
                 retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.status = status
        self.retry_after = retry_after
        """Seconds until a rate-limited request may be sent again (the ``Retry-After`` header)."""


STORE_STATUS: dict[ErrorCode, int] = {ErrorCode.NO_SUCH_ROOM: 404, ErrorCode.NO_SUCH_GAME: 404,
                                      ErrorCode.BAD_TOKEN: 401, ErrorCode.NO_ACCESS: 403}
"""The HTTP status of a store error's code (409 for the others)."""
HTTP_CODES: dict[int, ErrorCode] = {400: ErrorCode.BAD_REQUEST, 404: ErrorCode.NOT_FOUND,
                                    405: ErrorCode.METHOD_NOT_ALLOWED, 413: ErrorCode.TOO_LARGE}
"""The code of a refusal by the HTTP layer itself (``http_error`` for other statuses)."""

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "Refused: the body says why (code, message)."},
    401: {"model": ErrorBody, "description": "The seat token is missing or not valid in this room."},
    403: {"model": ErrorBody, "description": "A private room, without its invite code or a seat token."},
    404: {"model": ErrorBody, "description": "There is no such room (or game)."},
    409: {"model": ErrorBody, "description": "The room's state does not allow it (seat taken, game over, ...)."},
    429: {"model": ErrorBody, "description": "Too many attempts from this address (joins, wrong invite codes); "
                                             "the Retry-After header says when to try again."},
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
    """The HTTP answer of a refusal (with ``Retry-After`` when it was rate-limited)."""
    if refusal.retry_after is not None:
        headers = {**(headers or {}), "Retry-After": str(refusal.retry_after)}
    return JSONResponse(error_body(refusal), status_code=refusal.status, headers=headers)


def validation_message(errors: Sequence[Any]) -> str:
    """What was wrong with a request, in a line: the first three problems pydantic found, where each is."""
    parts = []
    for e in list(errors)[:3]:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {e.get('msg', 'not valid')}")
    return "not a valid request: " + "; ".join(parts)


def openapi_with_one_shape(app: FastAPI) -> dict[str, Any]:
    """The app's OpenAPI description, its 422 answers described in the one refusal shape (as sent)."""
    if app.openapi_schema is not None:
        return app.openapi_schema
    schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    for path in schema.get("paths", {}).values():
        for operation in path.values():
            answers = operation.get("responses", {}) if isinstance(operation, dict) else {}
            if "422" in answers:
                answers["422"] = {"description": "The request does not match its schema (code bad_request).",
                                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        components.pop(name, None)
    components.setdefault("ErrorBody", ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}")
                          | {"title": "ErrorBody"})
    defs = components["ErrorBody"].pop("$defs", {})
    for name, sub in defs.items():
        components.setdefault(name, sub)
    app.openapi_schema = schema
    return schema


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
            matching = [route for route in app.router.routes if isinstance(route, Route)
                        and route.matches(request.scope)[0] is not Match.NONE]
            exact = [route for route in matching if "{" not in route.path]
            # a path spelled out (``/cardsets/check``) is its own resource: a pattern it also fits
            # (``/cardsets/{set_id}``) answers it only with "no such item", so it is not one of its methods
            allowed = sorted({m for route in (exact or matching) for m in route.methods or ()})
            headers["Allow"] = ", ".join(allowed)
        code = HTTP_CODES.get(exc.status_code, ErrorCode.HTTP_ERROR)
        return error_response(Refusal(code, str(exc.detail), status=exc.status_code), headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(Refusal(ErrorCode.BAD_REQUEST, validation_message(exc.errors()), status=422))

    app.openapi = lambda: openapi_with_one_shape(app)  # type: ignore[method-assign]

    @app.exception_handler(RecursionError)
    async def _too_deep(_request: Request, _exc: RecursionError) -> JSONResponse:
        return error_response(Refusal(ErrorCode.BAD_REQUEST, "the request is nested too deeply"))
