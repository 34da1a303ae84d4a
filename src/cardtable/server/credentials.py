"""Passwords and sign-in rate limits: argon2id hashes through ``pwdlib``, and ``limits`` counters per name and address.

Passwords are hashed with argon2id (RFC 9106's second recommended profile, the ``argon2-cffi``
defaults): 64 MiB of memory, 3 passes, 4 lanes, a 16-byte random salt and a 32-byte tag. Only the
encoded hash (``$argon2id$v=19$m=65536,t=3,p=4$...``) is stored; a hash made with other parameters is
replaced at the next successful sign-in.

>>> passwords = Passwords(memory_kib=1024, time_cost=1)  # tests only: cheap parameters
>>> stored = passwords.hash("correct horse")
>>> stored.startswith("$argon2id$v=19$m=1024,t=1,p=4$"), "correct horse" in stored
(True, False)
>>> passwords.verify("correct horse", stored), passwords.verify("wrong", stored), passwords.verify("x", None)
((True, None), (False, None), (False, None))

Failed sign-ins are counted per account name and per address; once either has used its allowance,
every attempt is refused with ``rate_limited`` (429, ``Retry-After``) before the password is looked at:

>>> logins = LoginLimits(per_name="2/minute", per_address="30/minute")
>>> logins.check("alice", "10.0.0.1"); logins.failed("alice", "10.0.0.1"); logins.failed("alice", "10.0.0.1")
>>> logins.check("alice", "10.0.0.9")
Traceback (most recent call last):
...
cardtable.server.errors.Refusal: too many failed sign-ins; try again in 60 s
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse, storage, strategies
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from cardtable.core.errors import ErrorCode

from .errors import Refusal

ARGON2_MEMORY_KIB = 65_536
"""argon2id memory per hash, in KiB (64 MiB)."""
ARGON2_TIME_COST = 3
"""argon2id passes over that memory."""
ARGON2_PARALLELISM = 4
"""argon2id lanes."""
PER_NAME = "10/minute"
"""Failed sign-ins allowed per account name (the 11th attempt within a minute is refused)."""
PER_ADDRESS = "30/minute"
"""Failed sign-ins allowed per client address."""


class Passwords:
    """argon2id hashing of one server process (its parameters are settings; the defaults are the documented ones)."""

    def __init__(self, *, memory_kib: int = ARGON2_MEMORY_KIB, time_cost: int = ARGON2_TIME_COST,
                 parallelism: int = ARGON2_PARALLELISM) -> None:
        self._hash = PasswordHash((Argon2Hasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism),))

    def hash(self, password: str) -> str:
        """The encoded argon2id hash of a password (a fresh random salt each time)."""
        return self._hash.hash(password)

    def verify(self, password: str, stored: str | None) -> tuple[bool, str | None]:
        """Whether ``password`` matches ``stored``, and a new hash when ``stored`` used other parameters.

        Without a stored hash (no such account, or passkeys only) the password is hashed all the same, so that
        the answer takes as long whether or not the name exists."""
        if stored is None:
            self._hash.hash(password)  # the same argon2id work as checking a stored hash, thrown away
            return False, None
        try:
            return self._hash.verify_and_update(password, stored)
        except Exception:  # noqa: BLE001 - an unreadable stored hash matches nothing
            return False, None


class LoginLimits:
    """Failed sign-ins per account name and per address, in a moving window in this process's memory."""

    def __init__(self, *, per_name: str = PER_NAME, per_address: str = PER_ADDRESS) -> None:
        self.per_name: RateLimitItem = parse(per_name)
        self.per_address: RateLimitItem = parse(per_address)
        self._limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())

    def _wait(self, item: RateLimitItem, *keys: str) -> int:
        stats = self._limiter.get_window_stats(item, *keys)
        return max(1, math.ceil(stats.reset_time - time.time()))

    def check(self, name_key: str, address: str) -> None:
        """Refusal ``rate_limited`` if this name or this address has failed too often lately."""
        for item, key in ((self.per_name, ("name", name_key)), (self.per_address, ("address", address))):
            if not self._limiter.test(item, *key):
                wait = self._wait(item, *key)
                raise Refusal(ErrorCode.RATE_LIMITED, f"too many failed sign-ins; try again in {wait} s",
                              status=429, retry_after=wait)

    def failed(self, name_key: str, address: str) -> None:
        """Count a failed sign-in of this name from this address."""
        self._limiter.hit(self.per_name, "name", name_key)
        self._limiter.hit(self.per_address, "address", address)


__all__ = ["ARGON2_MEMORY_KIB", "ARGON2_PARALLELISM", "ARGON2_TIME_COST", "PER_ADDRESS", "PER_NAME", "LoginLimits",
           "Passwords"]
