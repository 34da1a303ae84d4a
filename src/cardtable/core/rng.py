"""Seeded randomness: every state owns a ``random.Random``; its state travels in the position JSON."""

from __future__ import annotations

import random
import secrets
from typing import Any

from .errors import InvalidPosition


def fresh_seed() -> int:
    """A new random seed, for games started without one (it is stored so the record replays)."""
    return secrets.randbits(48)


def rng_to_json(rng: random.Random) -> list[Any]:
    """The full generator state as a JSON list."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: Any, path: str = "$.rng") -> random.Random:
    """Rebuild a generator from ``rng_to_json`` output, raising InvalidPosition if malformed."""
    if not isinstance(data, list) or len(data) != 3:
        raise InvalidPosition(path, "expected [version, state, gauss]")
    version, internal, gauss = data
    if version != 3 or not isinstance(internal, list) or len(internal) != 625:
        raise InvalidPosition(path, "expected a version-3 Mersenne Twister state of 625 integers")
    for i, word in enumerate(internal):
        if not isinstance(word, int) or isinstance(word, bool) or not 0 <= word < 2**32:
            raise InvalidPosition(f"{path}[1][{i}]", "expected a 32-bit unsigned integer")
    if internal[624] > 624:
        raise InvalidPosition(f"{path}[1][624]", "index must be at most 624")
    if gauss is not None and not isinstance(gauss, float):
        raise InvalidPosition(f"{path}[2]", "expected null or a float")
    rng = random.Random()
    try:
        rng.setstate((version, tuple(internal), gauss))
    except (ValueError, TypeError) as exc:
        raise InvalidPosition(path, str(exc)) from None
    return rng


def clone_rng(rng: random.Random) -> random.Random:
    """An independent copy of a generator."""
    copy = random.Random.__new__(random.Random)  # skips seeding from the OS (5x faster)
    copy.setstate(rng.getstate())
    return copy


def shuffle(items: list[Any], rng: random.Random) -> None:
    """Fisher-Yates shuffle in place drawing floats from ``rng`` (deterministic; faster than ``rng.shuffle``)."""
    rand = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rand() * (i + 1))
        items[i], items[j] = items[j], items[i]
