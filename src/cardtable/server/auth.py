"""Who is signed in: session cookies, the CSRF rule of every state-changing request, and the routes' dependencies.

A session is a server-side row (:class:`~cardtable.store.accounts.Accounts`) behind the cookie
``cardtable_session``: a 256-bit random value, stored only as its SHA-256; ``HttpOnly``,
``SameSite=Lax``, ``Path=/``, ``Max-Age`` 30 days, sliding (the row's ``last_seen`` and the cookie are
renewed at most once an hour), and ``Secure`` when the request came over https (its scheme, or
``X-Forwarded-Proto: https``) or the server's ``secure_cookies`` setting says so.

The CSRF rule lives in one place, :class:`SessionGuard`, an ASGI middleware in front of every route:
a POST, PUT, PATCH or DELETE that carries the session cookie must send ``X-CSRF-Token`` equal to its
session's token, and its ``Origin`` header, if sent, must be the server's own origin (its ``Host``, or
one of the ``trusted_origins``); else it is refused with ``csrf`` (403) before any route runs. Sign-up
and sign-in (no session yet) check the Origin rule only.

>>> cookie_header("abc", secure=False, max_age=60)
'cardtable_session=abc; Max-Age=60; Path=/; HttpOnly; SameSite=Lax'
>>> same_origin("https://cards.example", "cards.example"), same_origin("https://evil.example", "cards.example")
(True, False)
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from datetime import timedelta
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import Depends, Request
from fastapi.security import APIKeyCookie
from starlette.datastructures import Headers
from starlette.requests import cookie_parser

from cardtable.core.errors import ErrorCode
from cardtable.store.accounts import Account, Accounts, SessionInfo
from cardtable.store.models import utcnow

from .access import SECRET_MAX, digest
from .errors import Refusal, error_response
from .services import Services, services_of

COOKIE = "cardtable_session"
"""The session cookie's name."""
CSRF_HEADER = "X-CSRF-Token"
"""The header every state-changing request of a session sends (its ``csrf`` token)."""
SESSION_AGE = timedelta(days=30)
"""How long a session lives after it was last used."""
SLIDE_EVERY = timedelta(hours=1)
"""How often a used session's expiry (and cookie) moves on."""
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods that change state (the CSRF rule covers them)."""
ORIGIN_ONLY = frozenset({"/api/account/signup", "/api/account/signin", "/api/account/passkeys/signin/options",
                         "/api/account/passkeys/signin/verify"})
"""The routes that make a session rather than use one: the Origin rule only, and for every request."""
ACCOUNT_PREFIX = "/api/account/"
"""Every state-changing request under this path is checked against the Origin rule, cookie or not."""

SIGNED_OUT = "this needs a signed-in account: sign in first"
CROSS_SITE = "this request came from another site, or without its X-CSRF-Token: refused"

_SESSION = "cardtable.session"
"""Where a request's session, once looked up, is kept (``scope["state"]``)."""
_COOKIE_OUT = "cardtable.set_cookie"
"""The ``Set-Cookie`` value :class:`SessionGuard` adds to the answer (a new, renewed or cleared cookie)."""

session_cookie = APIKeyCookie(name=COOKIE, auto_error=False, scheme_name="session",
                              description="The session cookie from sign-up or sign-in. State-changing requests "
                                          "with it also send X-CSRF-Token (from GET /api/account/me).")


def new_secret() -> str:
    """A fresh 256-bit random secret, URL-safe (a session cookie's value, a CSRF token)."""
    return secrets.token_urlsafe(32)


def cookie_header(value: str, *, secure: bool, max_age: int) -> str:
    """The ``Set-Cookie`` value of the session cookie (``max_age`` 0 clears it)."""
    parts = [f"{COOKIE}={value}", f"Max-Age={max_age}", "Path=/", "HttpOnly", "SameSite=Lax"]
    if secure:
        parts.append("Secure")
    return "; ".join(parts)


def same_origin(origin: str, host: str | None, trusted: tuple[str, ...] = ()) -> bool:
    """Whether an ``Origin`` header names the server itself: its ``Host`` (over http or https) or a trusted origin."""
    if origin in trusted:
        return True
    parts = urlsplit(origin)
    return bool(host) and parts.scheme in ("http", "https") and parts.netloc.lower() == (host or "").lower()


def is_https(scope: MutableMapping[str, Any], services: Services) -> bool:
    """Whether the request came over https (its scheme or ``X-Forwarded-Proto``) or cookies are Secure anyway."""
    if services.settings.secure_cookies or scope.get("scheme") in ("https", "wss"):
        return True
    forwarded = Headers(scope=scope).get("x-forwarded-proto", "")
    return forwarded.split(",")[0].strip().lower() == "https"


def cookie_value(scope: MutableMapping[str, Any]) -> str | None:
    """The session cookie a request sent (None if none, or one too long to be ours)."""
    raw = Headers(scope=scope).get("cookie")
    if not raw:
        return None
    value = cookie_parser(raw).get(COOKIE)
    return value if value and len(value) <= SECRET_MAX else None


def _state(scope: MutableMapping[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = scope.setdefault("state", {})
    return state


async def session_of(scope: MutableMapping[str, Any], services: Services) -> SessionInfo | None:
    """The live session of a request's cookie (looked up once per request); a used session slides on, and a
    cookie that names no live session is cleared in the answer."""
    state = _state(scope)
    if _SESSION in state:
        found: SessionInfo | None = state[_SESSION]
        return found
    token = cookie_value(scope)
    found = None
    if token is not None and services.store is not None:
        accounts = Accounts(services.store)
        found = await asyncio.to_thread(accounts.session, digest(token))
        if found is None:
            state[_COOKIE_OUT] = cookie_header("", secure=is_https(scope, services), max_age=0)
        else:
            now = utcnow()
            if now - found.last_seen >= SLIDE_EVERY:
                await asyncio.to_thread(accounts.touch_session, found.token_hash, now, now + SESSION_AGE)
                state[_COOKIE_OUT] = cookie_header(token, secure=is_https(scope, services),
                                                   max_age=int(SESSION_AGE.total_seconds()))
    state[_SESSION] = found
    return found


async def start_session(request: Request, services: Services, account: Account) -> str:
    """Sign ``account`` in on this browser: a new session row (the browser's previous one ends), its cookie set on
    the answer; its CSRF token."""
    token, csrf = new_secret(), new_secret()
    agent = request.headers.get("user-agent", "")
    store, _ = services.parts()
    accounts = Accounts(store)
    previous = cookie_value(request.scope)
    if previous is not None:
        await asyncio.to_thread(accounts.end_session, digest(previous))
    await asyncio.to_thread(accounts.new_session, account.id, digest(token), csrf, agent, utcnow() + SESSION_AGE)
    state = _state(request.scope)
    state[_COOKIE_OUT] = cookie_header(token, secure=is_https(request.scope, services),
                                       max_age=int(SESSION_AGE.total_seconds()))
    state[_SESSION] = None
    return csrf


def clear_cookie(request: Request, services: Services) -> None:
    """Clear the session cookie in the answer (signing out, deleting the account)."""
    _state(request.scope)[_COOKIE_OUT] = cookie_header("", secure=is_https(request.scope, services), max_age=0)


class SessionGuard:
    """ASGI middleware: the CSRF rule of every state-changing request, and the session cookie of every answer."""

    def __init__(self, app: Any, services: Services) -> None:
        self.app = app
        self.services = services

    async def refusal(self, scope: MutableMapping[str, Any]) -> Refusal | None:
        """Why a state-changing request is refused under the CSRF rule (None: it may go on)."""
        headers = Headers(scope=scope)
        path = str(scope.get("path", ""))
        token = cookie_value(scope)
        origin = headers.get("origin")
        checked = origin is not None and (token is not None or path.startswith(ACCOUNT_PREFIX))
        if checked and not same_origin(origin or "", headers.get("host"), self.services.settings.trusted_origins):
            return Refusal(ErrorCode.CSRF, CROSS_SITE, status=403)
        if token is None or path in ORIGIN_ONLY:
            return None
        session = await session_of(scope, self.services)
        if session is None:
            return None  # a stale cookie carries no authority (the answer clears it)
        sent = headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode("utf-8", "replace"), session.csrf.encode()):
            return Refusal(ErrorCode.CSRF, CROSS_SITE, status=403)
        return None

    async def __call__(self, scope: MutableMapping[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope.get("method") in UNSAFE:
            refused = await self.refusal(scope)
            if refused is not None:
                await error_response(refused)(scope, receive, send)
                return

        async def send_with_cookie(message: Any) -> None:
            """The answer, with the session cookie a route or the lookup set."""
            if message.get("type") == "http.response.start":
                cookie = scope.get("state", {}).get(_COOKIE_OUT)
                if cookie:
                    message["headers"] = [*message.get("headers", []), (b"set-cookie", cookie.encode("latin-1"))]
            await send(message)

        await self.app(scope, receive, send_with_cookie)


# -- dependencies ----------------------------------------------------------------------------------------
async def current_session(request: Request) -> SessionInfo | None:
    """The request's live session (None: a guest)."""
    return await session_of(request.scope, services_of(request))


async def current_account(session: Annotated[SessionInfo | None, Depends(current_session)]) -> Account | None:
    """The signed-in account of the request (None: a guest)."""
    return None if session is None else session.account


async def require_session(request: Request, _cookie: Annotated[str | None, Depends(session_cookie)]) -> SessionInfo:
    """The request's live session; Refusal ``not_signed_in`` (401) without one (its OpenAPI names the cookie)."""
    session = await session_of(request.scope, services_of(request))
    if session is None:
        raise Refusal(ErrorCode.NOT_SIGNED_IN, SIGNED_OUT, status=401)
    return session


async def require_account(session: Annotated[SessionInfo, Depends(require_session)]) -> Account:
    """The signed-in account of the request; Refusal ``not_signed_in`` (401) without one."""
    return session.account


CurrentSession = Annotated[SessionInfo | None, Depends(current_session)]
"""A route's session, or None for a guest."""
RequireSession = Annotated[SessionInfo, Depends(require_session)]
"""A route's session (401 ``not_signed_in`` without one)."""
CurrentAccount = Annotated[Account | None, Depends(current_account)]
"""A route's signed-in account, or None for a guest."""
RequireAccount = Annotated[Account, Depends(require_account)]
"""A route's signed-in account (401 ``not_signed_in`` without one)."""

__all__ = ["COOKIE", "CSRF_HEADER", "SESSION_AGE", "Account", "CurrentAccount", "CurrentSession", "RequireAccount",
           "RequireSession", "SessionGuard", "clear_cookie", "cookie_header", "current_account", "require_account",
           "same_origin", "session_of", "start_session"]
