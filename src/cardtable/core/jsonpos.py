"""Small validators for reading position JSON: every failure is an ``InvalidPosition`` with a path."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import InvalidPosition


def obj(data: Any, path: str) -> Mapping[Any, Any]:
    """``data`` as a JSON object (its keys unchecked: a caller's dict may have keys of any type)."""
    if not isinstance(data, Mapping):
        raise InvalidPosition(path, f"expected an object, got {type(data).__name__}")
    return data


def get(data: Mapping[Any, Any], key: str, path: str) -> Any:
    """A required member of an object."""
    if key not in data:
        raise InvalidPosition(f"{path}.{key}", "missing")
    return data[key]


def integer(value: Any, path: str, lo: int | None = None, hi: int | None = None) -> int:
    """An integer within ``[lo, hi]``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidPosition(path, f"expected an integer, got {value!r}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise InvalidPosition(path, f"expected an integer in {lo}..{hi}, got {value}")
    return value


def boolean(value: Any, path: str) -> bool:
    """A JSON boolean."""
    if not isinstance(value, bool):
        raise InvalidPosition(path, f"expected true or false, got {value!r}")
    return value


def string(value: Any, path: str, choices: Any = None) -> str:
    """A string, optionally one of ``choices``."""
    if not isinstance(value, str):
        raise InvalidPosition(path, f"expected a string, got {value!r}")
    if choices is not None and value not in choices:
        raise InvalidPosition(path, f"expected one of {', '.join(map(str, choices))}; got {value!r}")
    return value


def array(value: Any, path: str, length: int | None = None) -> list[Any]:
    """A JSON array, optionally of an exact length."""
    if not isinstance(value, list):
        raise InvalidPosition(path, f"expected an array, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise InvalidPosition(path, f"expected {length} items, got {len(value)}")
    return value
