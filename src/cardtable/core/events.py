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
from typing import Any, NamedTuple

SETUP_MOVE = -1
"""The ``move`` of events that the setup yields (before the first action)."""


class _EventFields(NamedTuple):
    kind: str
    public: Mapping[str, Any]
    secret: Mapping[str, Any] | None
    to: tuple[int, ...]
    move: int


class Event(_EventFields):
    """One fact learned at the table: a kind, a public part, and a secret part for the seats in ``to``.

    Its fields (immutable) are ``kind``, what happened, from the game's closed vocabulary (a
    ``StrEnum`` value such as ``"draw"``); ``public``, what everybody learns (JSON-safe);
    ``secret``, what only the seats in ``to`` learn besides ``public`` (JSON-safe; its keys add to
    ``public``'s); ``to``, the seats that learn ``secret``; and ``move``, the index in ``history``
    of the action that caused the event (``SETUP_MOVE`` for the setup). An event is a named tuple,
    so a long log is cheap to keep. Its parts are read-only: an engine may share one part between
    events (the same ``{"card": ...}`` secret for every draw of that card).
    """

    __slots__ = ()

    def __new__(cls, kind: str, public: Mapping[str, Any] | None = None, secret: Mapping[str, Any] | None = None,
                to: tuple[int, ...] = (), move: int = SETUP_MOVE) -> Event:
        """An event; ``public`` defaults to an empty part."""
        return tuple.__new__(cls, (kind, {} if public is None else public, secret, to, move))

    def __repr__(self) -> str:
        return (f"Event(kind={self.kind!r}, public={self.public!r}, secret={self.secret!r}, to={self.to!r}, "
                f"move={self.move!r})")

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
