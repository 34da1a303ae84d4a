"""Rate limits per client address: joins, and wrong invite codes (so that invite codes cannot be guessed).

Built on the ``limits`` package (a moving window in this process's memory). Every join attempt
counts against ``joins``; every *wrong* invite code counts against ``invites``, and once an address
has used its allowance every attempt from it that carries an invite code is refused with
``rate_limited`` (429, ``Retry-After``) until the window moves on.

>>> limiter = Throttle(joins="2/minute", invites="1/minute")
>>> limiter.join("10.0.0.1"); limiter.join("10.0.0.1")
>>> limiter.join("10.0.0.1")
Traceback (most recent call last):
...
cardtable.server.errors.Refusal: too many joins from this address; try again in 60 s
>>> limiter.join("10.0.0.2")  # another address has its own allowance
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum

from limits import RateLimitItem, parse, storage, strategies

from cardtable.core.errors import ErrorCode

from .errors import Refusal

DEFAULT_JOINS = "60/minute"
"""How many joins one address may attempt (a person joins a few rooms an hour)."""
DEFAULT_INVITES = "10/minute"
"""How many wrong invite codes one address may send (96-bit codes: guessing is hopeless at this rate)."""


class Limited(Enum):
    """What an address is limited in."""

    JOIN = "join"
    INVITE = "invite"


class Throttle:
    """The rate limits of one server process, per client address."""

    def __init__(self, *, joins: str = DEFAULT_JOINS, invites: str = DEFAULT_INVITES) -> None:
        self.rules: dict[Limited, RateLimitItem] = {Limited.JOIN: parse(joins), Limited.INVITE: parse(invites)}
        self._limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())

    def _refusal(self, kind: Limited, address: str, what: str) -> Refusal:
        stats = self._limiter.get_window_stats(self.rules[kind], kind.value, address)
        wait = max(1, math.ceil(stats.reset_time - time.time()))
        return Refusal(ErrorCode.RATE_LIMITED, f"too many {what} from this address; try again in {wait} s",
                       status=429, retry_after=wait)

    def join(self, address: str) -> None:
        """Count a join attempt from ``address``; Refusal ``rate_limited`` past the limit."""
        if not self._limiter.hit(self.rules[Limited.JOIN], Limited.JOIN.value, address):
            raise self._refusal(Limited.JOIN, address, "joins")

    def check_invite(self, address: str) -> None:
        """Refusal ``rate_limited`` if ``address`` has sent too many wrong invite codes lately."""
        if not self._limiter.test(self.rules[Limited.INVITE], Limited.INVITE.value, address):
            raise self._refusal(Limited.INVITE, address, "wrong invite codes")

    def wrong_invite(self, address: str) -> None:
        """Count a wrong invite code from ``address``."""
        self._limiter.hit(self.rules[Limited.INVITE], Limited.INVITE.value, address)

    @contextmanager
    def invite_attempt(self, address: str, invite: str | None) -> Iterator[None]:
        """Around a request that may carry an invite code: refused up front past the limit, and counted
        when the code turns out wrong (the request is refused with ``no_access``)."""
        if invite is None:
            yield
            return
        self.check_invite(address)
        try:
            yield
        except Refusal as refused:
            if refused.code is ErrorCode.NO_ACCESS:
                self.wrong_invite(address)
            raise


def address_of(client: object) -> str:
    """The address a request or socket came from (``unknown`` when the server was not told)."""
    host = getattr(client, "host", None)
    return str(host) if host else "unknown"
