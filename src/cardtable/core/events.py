"""Events: what every seat learns from each action, automatic steps included.

An action (or the setup) yields events. Each event has a public part, which every seat and every
spectator learns, and optionally a secret part that only the seats in ``to`` learn (the card a seat
drew, the hand a spade lets the attacker see). Every event has a public part, so the log of every
seat, and the spectators' log, has the same length: event ``i`` of a seat's log is
``events[i].seen_by(seat)``, and a front end can ask for "the log from index ``i``".

Recording is off by default, so searches and playouts pay nothing; a table turns it on with
``game.new_game(..., record_events=True)`` or ``replay(record, events=True)``.

>>> from cardtable.core.events import Event
>>> e = Event("draw", {"player": 0}, {"card": "fire_mage"}, to=(0,), move=4)
>>> e.seen_by(0)
{'kind': 'draw', 'move': 4, 'player': 0, 'card': 'fire_mage'}
>>> e.seen_by(1)
{'kind': 'draw', 'move': 4, 'player': 0}
>>> e.seen_by(None)
{'kind': 'draw', 'move': 4, 'player': 0}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

SETUP_MOVE = -1
"""The ``move`` of events that the setup yields (before the first action)."""


@dataclass(frozen=True, slots=True)
class Event:
    """One fact learned at the table: a kind, a public part, and a secret part for the seats in ``to``."""

    kind: str
    """What happened, from the game's closed vocabulary (a ``StrEnum`` value such as ``"draw"``)."""
    public: Mapping[str, Any] = field(default_factory=dict)
    """What everybody learns (JSON-safe)."""
    secret: Mapping[str, Any] | None = None
    """What only the seats in ``to`` learn besides ``public`` (JSON-safe; its keys add to ``public``'s)."""
    to: tuple[int, ...] = ()
    """The seats that learn ``secret``."""
    move: int = SETUP_MOVE
    """The index in ``history`` of the action that caused the event (``SETUP_MOVE`` for the setup)."""

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` learns it (None: a spectator), as a JSON object."""
        out: dict[str, Any] = {"kind": str(self.kind), "move": self.move}
        out.update(self.public)
        if self.secret and seat is not None and seat in self.to:
            out.update(self.secret)
        return out

    def revealed(self) -> dict[str, Any]:
        """The event with its secret part, whoever it was for (a revealed replay for the table's owner)."""
        out: dict[str, Any] = {"kind": str(self.kind), "move": self.move}
        out.update(self.public)
        if self.secret:
            out.update(self.secret)
            out["to"] = list(self.to)
        return out

    def to_json(self) -> dict[str, Any]:
        """The whole event (secret part and its seats included) as a JSON object; server-side only."""
        return {"kind": str(self.kind), "public": dict(self.public),
                "secret": dict(self.secret) if self.secret is not None else None,
                "to": list(self.to), "move": self.move}
