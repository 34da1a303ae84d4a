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

from collections.abc import Mapping, Sequence
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


# -- compact codes ------------------------------------------------------------------------------
class Field(NamedTuple):
    """One named bit field of a compact code: ``width`` bits from bit ``shift`` (0: every bit above).

    A field stores ``value + bias`` (a bias lets a field hold -1, or a move that starts at -1). A
    field of several ``slots`` holds that many values of ``width`` bits each, the first lowest.

    >>> f = Field("card", 3, 5)
    >>> f.put(9), f.get(f.put(9) | 1), f.mask
    (72, 9, 31)
    >>> cards = Field("cards", 8, 4, slots=3)
    >>> cards.slot(cards.put_slot(5, 2), 2), cards.describe()
    (5, 'cards:8-19(3x4)')
    """

    name: str
    shift: int
    width: int = 0
    bias: int = 0
    slots: int = 1

    @property
    def mask(self) -> int:
        """A slot's bits once shifted down (-1, every bit, for an open field)."""
        return (1 << self.width) - 1 if self.width else -1

    @property
    def bits(self) -> int:
        """The bits the field takes in a code (every bit from ``shift`` on for an open field)."""
        return ((1 << self.width * self.slots) - 1) << self.shift if self.width else -1 << self.shift

    def get(self, code: int) -> int:
        """The field's value in ``code`` (its first slot's)."""
        return ((code >> self.shift) & self.mask) - self.bias

    def slot(self, code: int, i: int) -> int:
        """The value of slot ``i`` in ``code``."""
        return ((code >> (self.shift + i * self.width)) & self.mask) - self.bias

    def put(self, value: int) -> int:
        """``value`` in its place (ValueError if it does not fit)."""
        return self.put_slot(value, 0)

    def put_slot(self, value: int, i: int) -> int:
        """``value`` in the place of slot ``i`` (ValueError if it does not fit)."""
        stored = value + self.bias
        if stored < 0 or (self.width and stored >> self.width) or not 0 <= i < self.slots:
            raise ValueError(f"{self.name}[{i}]={value} does not fit {self.width or 'open'} bits")
        return stored << (self.shift + i * self.width)

    def describe(self) -> str:
        """The field as ``name:low-high`` (``name:low+`` for an open field), lowest bit first."""
        top = self.shift + self.width * self.slots - 1
        bits = f"{self.shift}-{top}" if self.width else f"{self.shift}+"
        slots = f"({self.slots}x{self.width})" if self.slots > 1 else ""
        return f"{self.name}:{bits}{slots}" + (f"(+{self.bias})" if self.bias else "")


class Layout(NamedTuple):
    """One kind of compact code: the bits that tell it apart (``tag`` under ``tag_mask``) and its fields.

    >>> turn = Layout("turn", 1, 3, (Field("seat", 2, 1), Field("turn", 3, 10)))
    >>> code = turn.encode(seat=1, turn=7)
    >>> code, turn.matches(code), turn.decode(code)
    (61, True, {'seat': 1, 'turn': 7})
    >>> turn.describe()
    'turn: tag 1 of 0b11; seat:2-2 turn:3-12'
    """

    name: str
    tag: int
    tag_mask: int
    fields: tuple[Field, ...]

    def matches(self, code: int) -> bool:
        """True if ``code`` is of this layout."""
        return code & self.tag_mask == self.tag

    def field(self, name: str) -> Field:
        """The field called ``name`` (KeyError if none)."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"layout {self.name!r} has no field {name!r}")

    def encode(self, **values: int | Sequence[int]) -> int:
        """The code of these field values (a slotted field takes a sequence; a field not given stores 0).

        ValueError for a field the layout lacks, or a value that does not fit.
        """
        code = self.tag
        unknown = set(values) - {f.name for f in self.fields}
        if unknown:
            raise ValueError(f"layout {self.name!r} has no field {', '.join(sorted(unknown))}")
        for f in self.fields:
            value = values.get(f.name)
            if value is None:
                continue
            if isinstance(value, int):
                code |= f.put(value)
            else:
                for i, v in enumerate(value):
                    code |= f.put_slot(v, i)
        return code

    def decode(self, code: int) -> dict[str, Any]:
        """Every field of ``code`` by name (a slotted field as a tuple of its slots)."""
        return {f.name: f.get(code) if f.slots == 1 else tuple(f.slot(code, i) for i in range(f.slots))
                for f in self.fields}

    def describe(self) -> str:
        """The layout in one line: its tag and its fields, lowest bit first."""
        return f"{self.name}: tag {self.tag} of {bin(self.tag_mask)}; " + " ".join(f.describe() for f in self.fields)

    def check(self) -> None:
        """ValueError if two fields, or a field and the tag, share a bit (an open field must come last)."""
        used = self.tag_mask
        for f in sorted(self.fields, key=lambda f: f.shift):
            if not f.width and any(g.shift > f.shift for g in self.fields):
                raise ValueError(f"layout {self.name!r}: the open field {f.name!r} is not the last")
            if used & f.bits:
                raise ValueError(f"layout {self.name!r}: field {f.name!r} overlaps another field or the tag")
            used |= f.bits


class Codec:
    """A game's compact event codes: its layouts, told apart by their tags, with encode and decode.

    >>> codec = Codec("toy", (Layout("turn", 1, 1, (Field("turn", 1, 8),)), Layout("pass", 0, 1, ())))
    >>> codec.decode(codec.encode("turn", turn=3))
    ('turn', {'turn': 3})
    """

    __slots__ = ("game", "layouts", "_by_name")

    def __init__(self, game: str, layouts: tuple[Layout, ...]) -> None:
        """The codec of ``game``'s codes (ValueError if a layout overlaps itself or two tags collide)."""
        self.game = game
        """The game whose codes these are."""
        self.layouts = layouts
        """Every layout, in the order a code is matched against them."""
        self._by_name = {layout.name: layout for layout in layouts}
        for layout in layouts:
            layout.check()
        for i, a in enumerate(layouts):
            for b in layouts[i + 1:]:
                common = a.tag_mask & b.tag_mask
                if a.tag & common == b.tag & common:
                    raise ValueError(f"{game}: the tags of {a.name!r} and {b.name!r} cannot be told apart")

    def __getitem__(self, name: str) -> Layout:
        """The layout called ``name`` (KeyError if none)."""
        return self._by_name[name]

    def layout_of(self, code: int) -> Layout:
        """The layout of ``code`` (ValueError if none matches)."""
        for layout in self.layouts:
            if code & layout.tag_mask == layout.tag:
                return layout
        raise ValueError(f"{self.game}: {code} is no compact code")

    def encode(self, name: str, **values: int) -> int:
        """The code of layout ``name`` with these field values."""
        return self._by_name[name].encode(**values)

    def decode(self, code: int) -> tuple[str, dict[str, int]]:
        """The layout's name and every field of ``code`` by name."""
        layout = self.layout_of(code)
        return layout.name, layout.decode(code)

    def describe(self) -> str:
        """Every layout, one a line (what docs and tests print)."""
        return "\n".join(layout.describe() for layout in self.layouts)
