"""Social play on the server: the chat's rate limit (``limits``, a moving window per sender in this process).

>>> allow = chat_limiter("2 per 10 seconds")
>>> allow("account:a"), allow("account:a"), allow("account:a"), allow("account:b")
(True, True, False, True)
"""

from __future__ import annotations

from collections.abc import Callable

from limits import parse, storage, strategies

DEFAULT_CHAT_RATE = "8 per 10 seconds"
"""How many chat messages one sender (an account, a seat or an address) may send."""


def chat_limiter(rate: str = DEFAULT_CHAT_RATE) -> Callable[[str], bool]:
    """A function counting a sender's message: False once the sender is past ``rate``."""
    item = parse(rate)
    limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())

    def allow(sender: str) -> bool:
        return limiter.hit(item, "chat", sender)

    return allow
