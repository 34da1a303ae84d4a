"""Deck round robins (of a game whose kit has deck files): every ordered pair of decks on the same seeds.

For decks ``i`` and ``j`` the lab plays a run with ``decks=[i, j]`` and one with ``decks=[j, i]``,
both on the run's seed, so the same coin toss (Zeta's ZETA-R8) and agent RNGs meet each deck in each seat.
Deck ``i``'s score against ``j`` counts a win 1 and a draw 1/2 over both runs; its interval is a
Wilson interval, or a bootstrap over the paired games when there are draws
(:func:`cardtable.lab.stats.score_interval`).

>>> deck_pairs(["classic", "control", "arcana"])
[(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .stats import score_interval
from .storage import LoadedRun

DEFAULT_PRESETS = 3
"""How many of the game's presets a round robin plays by default (its first ones)."""


def deck_pairs(labels: Sequence[str]) -> list[tuple[int, int]]:
    """Every ordered pair of different decks."""
    return [(i, j) for i in range(len(labels)) for j in range(len(labels)) if i != j]


def deck_spec(text: str, book: Any) -> tuple[str, Any]:
    """A deck argument as (label, setup entry) through the game's ``decks`` facet: a preset's name, or a
    TOML file's deck (its name, else the file's, as label)."""
    entry = book.setup_entry(text)
    if isinstance(entry, str):
        return entry, entry
    name = entry.get("name") if isinstance(entry, Mapping) else None
    return str(name or Path(text).stem), entry


@dataclass(frozen=True)
class DeckMatrix:
    """Row deck's score against column deck, with intervals (None on the diagonal)."""

    labels: tuple[str, ...]
    cells: tuple[tuple[dict[str, Any] | None, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """The matrix as JSON, with each deck's mean score over its opponents."""
        return {"decks": list(self.labels), "matrix": [list(r) for r in self.cells], "overall": self.overall()}

    def overall(self) -> list[dict[str, Any]]:
        """Each deck's mean score against the others (unweighted over opponents)."""
        out = []
        for label, row in zip(self.labels, self.cells, strict=True):
            values = [c["value"] for c in row if c is not None]
            out.append({"deck": label, "mean_score": sum(values) / len(values) if values else None})
        return out


def deck_matrix(labels: Sequence[str], runs: Mapping[tuple[int, int], LoadedRun]) -> DeckMatrix:
    """The matrix from the stored runs of each ordered pair (``runs[(i, j)]`` played ``decks=[i, j]``)."""
    cells: list[list[dict[str, Any] | None]] = []
    for i in range(len(labels)):
        row: list[dict[str, Any] | None] = []
        for j in range(len(labels)):
            if i == j:
                row.append(None)
                continue
            scores: list[float] = []
            groups: list[int] = []
            for (a, b), seat in (((i, j), 0), ((j, i), 1)):
                run = runs.get((a, b))
                for g in run.games if run is not None else ():
                    scores.append(1.0 / len(g.winners) if seat in g.winners else 0.0 if g.winners else 0.5)
                    groups.append(g.index)
            ci = score_interval(scores, groups)
            row.append({"value": ci.value, "low": ci.low, "high": ci.high, "games": len(scores),
                        "method": ci.method})
        cells.append(row)
    return DeckMatrix(tuple(labels), tuple(tuple(r) for r in cells))
