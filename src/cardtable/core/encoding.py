"""What every game's ``encoding`` module shares: where each named block of a flat observation starts.

>>> layout_offsets([("board", 36), ("hand", 25)])
{'board': 0, 'hand': 36, '': 61}
"""

from __future__ import annotations

from collections.abc import Iterable


def layout_offsets(layout: Iterable[tuple[str, int]]) -> dict[str, int]:
    """The start of each named block of an observation layout, and its total length under ``""``."""
    out: dict[str, int] = {}
    at = 0
    for name, size in layout:
        out[name] = at
        at += size
    out[""] = at
    return out
