"""Actions that several games share: ``Pass`` (do nothing more now) and ``Decline`` (refuse an optional effect).

A game that offers them uses these classes, so ``"pass"`` and ``"decline"`` mean the same everywhere.

>>> from cardtable.core.actions import PASS, Pass
>>> str(PASS), Pass() == PASS
('pass', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .game import Action


@dataclass(frozen=True, slots=True, repr=False)
class Pass(Action):
    """Do nothing (more) now: the game's rule says when a pass is allowed."""

    def __str__(self) -> str:
        return "pass"

    def __hash__(self) -> int:
        """A constant: every value of this kind is equal (and search trees look actions up often)."""
        return 0x427b1a


@dataclass(frozen=True, slots=True, repr=False)
class Decline(Action):
    """Refuse a pending optional effect (a "may" of the rulebook)."""

    def __str__(self) -> str:
        return "decline"

    def __hash__(self) -> int:
        """A constant: every value of this kind is equal (and search trees look actions up often)."""
        return 0xd3768a


PASS: Final = Pass()
"""The one ``Pass`` value (equal to every other)."""
DECLINE: Final = Decline()
"""The one ``Decline`` value (equal to every other)."""
