"""Seats at a table: who plays each one (a person or an agent spec) and what every screen calls it.

Seat names come from here alone: seat ``i`` (0-based, as in the engine) is ``P{i+1}`` everywhere people
read it, and its label adds who sits there (``P1 (you)``, ``P2 (heuristic)``, ``P3 Alice``).

>>> seat_name(0)
'P1'
>>> [s.label(humans=1) for s in (Seat(0), Seat(1, "ismcts:normal"))]
['P1 (you)', 'P2 (ismcts:normal)']
>>> Seat(2, name="Alice").label(humans=2)
'P3 Alice'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

HUMAN = "human"
"""The spec of a seat played by a person."""

NAME_LIMIT = 24
"""The longest seat name a person may choose (longer names are refused, not cut)."""


class SeatKind(Enum):
    """Who plays a seat."""

    PERSON = "person"
    AGENT = "agent"


def seat_name(seat: int) -> str:
    """The name people read for a 0-based seat: ``P1``, ``P2``, ..."""
    return f"P{seat + 1}"


def check_name(name: str) -> str:
    """A person's chosen name, stripped; ValueError if empty, too long or holding control characters."""
    text = " ".join(name.split())
    if not text:
        raise ValueError("a name must not be empty")
    if len(text) > NAME_LIMIT:
        raise ValueError(f"a name has at most {NAME_LIMIT} characters, got {len(text)}")
    if any(not ch.isprintable() for ch in text):
        raise ValueError("a name must not hold control characters")
    return text


@dataclass(frozen=True)
class Seat:
    """One seat: its index, its spec (``human`` or an agent spec) and a person's chosen name (may be empty)."""

    index: int
    spec: str = HUMAN
    name: str = ""

    @property
    def kind(self) -> SeatKind:
        """A person or an agent."""
        return SeatKind.PERSON if self.spec == HUMAN else SeatKind.AGENT

    @property
    def is_human(self) -> bool:
        """True for a seat played by a person."""
        return self.spec == HUMAN

    def label(self, humans: int = 1) -> str:
        """``P1 (you)`` (the only person), ``P1 Alice`` (named), ``P2 (random)`` (an agent), ``P3`` (hot-seat)."""
        base = seat_name(self.index)
        if not self.is_human:
            return f"{base} ({self.spec})"
        if self.name:
            return f"{base} {self.name}"
        return f"{base} (you)" if humans == 1 else base


def seat_specs(num_players: int, vs: Sequence[str], seat: int | None) -> list[str]:
    """Every seat's spec: the person at ``seat`` (0-based; default 0), ``vs`` filling the others in order.

    Seats left over after ``vs`` are people too (hot-seat). ValueError if ``vs`` is too long or the seat
    is out of range.

    >>> seat_specs(3, ["random"], 1)
    ['random', 'human', 'human']
    """
    if seat is not None and not 0 <= seat < num_players:
        raise ValueError(f"--seat must be 1 to {num_players} for {num_players} players, got {seat + 1}")
    if not vs:
        return [HUMAN] * num_players
    me = 0 if seat is None else seat
    others = [p for p in range(num_players) if p != me]
    if len(vs) > len(others):
        raise ValueError(f"{len(vs)} --vs agents given but only {len(others)} other seat(s) "
                         f"in a {num_players}-player game")
    specs = [HUMAN] * num_players
    for p, spec in zip(others, vs, strict=False):
        specs[p] = spec
    return specs
