"""Zeta's actions: small frozen values whose ``str()`` is the canonical notation.

| notation              | meaning                                                        | rule      |
|-----------------------|----------------------------------------------------------------|-----------|
| ``magic_circle@c3``   | place a card from hand on a square (also Mourning's placement) | R14-R18   |
| ``pass``              | place nothing this turn                                        | R13       |
| ``target:d4``         | destroy the card on d4 with the pending optional effect        | R42-R55   |
| ``destroy:do_over``   | destroy a card of that type from your hand (Do-Over, Fortune)  | R38, R39  |
| ``rank:1``/``file:f`` | the full line Single-Arrow Summoning destroys                  | R59       |
| ``decline``           | decline a pending optional effect                              | R30       |
| ``mulligan``/``keep`` | the once-only mulligan decision (``mulligan=once``)            | R11       |

``pass`` and ``decline`` are the shared :class:`cardtable.core.actions.Pass` and ``Decline``
(importable from here too).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from cardtable.core import Action, InvalidAction
from cardtable.core.actions import DECLINE, PASS, Decline, Pass

from .board import FILES, Geometry, geometry
from .cards import CARD_BY_ID, CARDS, NUM_TYPES


@dataclass(frozen=True, slots=True, repr=False)
class Place(Action):
    """Place card type ``card`` (index) on ``square`` (index)."""

    card: int
    square: int
    text: str = field(repr=False)  # compared too: the same index names another square on another board

    def __str__(self) -> str:
        return self.text

    def __hash__(self) -> int:
        """The text's hash (a str caches it): search trees look actions up often."""
        return hash(self.text)


@dataclass(frozen=True, slots=True, repr=False)
class Target(Action):
    """Destroy the card on ``square`` with the pending optional targeted effect."""

    square: int
    text: str = field(repr=False)

    def __str__(self) -> str:
        return self.text

    def __hash__(self) -> int:
        """The text's hash (a str caches it)."""
        return hash(self.text)


@dataclass(frozen=True, slots=True, repr=False)
class DestroyFromHand(Action):
    """Destroy one card of type ``card`` from your hand (Do-Over, Fortune-Telling)."""

    card: int

    def __str__(self) -> str:
        return f"destroy:{CARDS[self.card].id if 0 <= self.card < NUM_TYPES else f'#{self.card}'}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.card) ^ 0xeba18b


@dataclass(frozen=True, slots=True, repr=False)
class ChooseLine(Action):
    """Single-Arrow Summoning's choice: ``kind`` is "rank" or "file", ``index`` 0-based."""

    kind: str
    index: int

    def __str__(self) -> str:
        if self.kind == "rank":
            label = str(self.index + 1)
        else:
            label = FILES[self.index] if 0 <= self.index < len(FILES) else f"#{self.index}"
        return f"{self.kind}:{label}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash((self.kind, self.index)) ^ 0x8f3af4


@dataclass(frozen=True, slots=True, repr=False)
class Mulligan(Action):
    """Take the once-only mulligan (ZETA-R11), or keep the hand when ``take`` is False."""

    take: bool

    def __str__(self) -> str:
        return "mulligan" if self.take else "keep"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.take) ^ 0x44d121


__all__ = ["DECLINE", "DESTROY", "KEEP", "MULLIGAN", "PASS", "TARGET_ROW", "ActionTable", "ChooseLine", "Decline",
           "DestroyFromHand", "Mulligan", "Pass", "Place", "Target", "ZetaAction", "action_table"]

ZetaAction = Place | Pass | Target | DestroyFromHand | ChooseLine | Decline | Mulligan

TARGET_ROW: Final = NUM_TYPES
MULLIGAN: Final = Mulligan(True)
KEEP: Final = Mulligan(False)
DESTROY: Final = tuple(DestroyFromHand(c) for c in range(NUM_TYPES))


class ActionTable:
    """Every action of one board size, built once and shared (the hot path never allocates actions)."""

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        self.place = tuple(tuple(Place(c, s, f"{CARDS[c].id}@{geo.names[s]}") for s in range(geo.size))
                           for c in range(NUM_TYPES))
        self.target = tuple(Target(s, f"target:{geo.names[s]}") for s in range(geo.size))
        self.ranks = tuple(ChooseLine("rank", r) for r in range(geo.height))
        self.files = tuple(ChooseLine("file", f) for f in range(geo.width))
        by_text: dict[str, Action] = {"pass": PASS, "decline": DECLINE, "mulligan": MULLIGAN, "keep": KEEP}
        for row in self.place:
            for a in row:
                by_text[a.text] = a
        for t in self.target:
            by_text[t.text] = t
        for d in DESTROY:
            by_text[str(d)] = d
        for line in self.ranks + self.files:
            by_text[str(line)] = line
        self.by_text = by_text
        # rows[k][square]: Place of card type k (k < 25) or Target (k == 25); chunk caches per row.
        self.rows: tuple[tuple[Action, ...], ...] = (*self.place, self.target)
        self._chunks: list[list[dict[int, tuple[Action, ...]]]] = [
            [{} for _ in range(0, geo.size, 12)] for _ in self.rows]

    def on(self, row: int, mask: int) -> tuple[Action, ...]:
        """The actions of ``rows[row]`` on the squares of ``mask``, ascending (cached per 12-bit chunk)."""
        out: tuple[Action, ...] = ()
        caches = self._chunks[row]
        k = 0
        while mask:
            part = mask & 4095
            if part:
                cache = caches[k]
                found = cache.get(part)
                if found is None:
                    base = 12 * k
                    line = self.rows[row]
                    found = cache[part] = tuple(line[base + i] for i in range(12) if part >> i & 1)
                out += found
            mask >>= 12
            k += 1
        return out

    def parse(self, text: object) -> Action:
        """The action named by ``text``, or InvalidAction saying what is wrong (for input that is no string too)."""
        if not isinstance(text, str):
            raise InvalidAction(text, "expected a string", game="zeta")
        found = self.by_text.get(text)
        if found is not None:
            return found
        t = text.strip()
        found = self.by_text.get(t)
        if found is not None:
            return found
        if "@" in t:
            cid, _, sq = t.partition("@")
            if cid not in CARD_BY_ID:
                raise InvalidAction(text, f"unknown card id {cid!r}", game="zeta")
            raise InvalidAction(text, f"no square {sq!r} on a {self.geo.width}x{self.geo.height} board", game="zeta")
        if t.startswith("target:"):
            raise InvalidAction(text, f"no square {t[7:]!r} on this board", game="zeta")
        if t.startswith("destroy:"):
            raise InvalidAction(text, f"unknown card id {t[8:]!r}", game="zeta")
        raise InvalidAction(
            text, "expected CARD@SQUARE, pass, target:SQUARE, destroy:CARD, rank:N, file:X, decline, mulligan or keep",
            game="zeta")


@lru_cache(maxsize=8)
def action_table(width: int, height: int) -> ActionTable:
    """The (cached) action table of a board size."""
    return ActionTable(geometry(width, height))
