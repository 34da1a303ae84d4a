"""Legible editions: what ``--cards``, ``--lang`` and ``--only-changed`` ask a game's printer to print.

An :class:`Edition` is a card set (its numbers, name and hash), a language and, with
``--only-changed``, the earlier set whose unchanged cards are left out. A game's printer reads it
through :func:`edition_of` and draws its own cards; every text of an edition is at least
:data:`LEAST_PT` points, and every face and back carries the set's stamp.

>>> from cardtable.core.cardset import default_set
>>> ed = Edition(default_set("zeta"), "ja")
>>> ed.stamp.startswith("rulebook #"), ed.changed_items() is None
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cardtable.core.cardset import CardSet, CardSetError, changed_items, default_set
from cardtable.core.cardset import load as load_card_set

from .draw import Face, pt
from .layout import PrintError
from .sheets import PrintOptions

__all__ = ["LANGS", "LEAST_PT", "Edition", "edition_of", "read_set"]

LEAST_PT = 7.0
"""The smallest text of a legible card: nothing under 7 pt."""
LANGS = ("en", "ja")
"""The languages of a legible edition."""


@dataclass(frozen=True)
class Edition:
    """A legible print: a card set's numbers, the text's language, and the set it is compared with."""

    cards: CardSet
    lang: str = "en"
    old: CardSet | None = None
    """``--only-changed``: the earlier set; None: print every card."""

    @property
    def stamp(self) -> str:
        """The set's name and hash, printed on every face and back."""
        return self.cards.stamp

    @property
    def ja(self) -> bool:
        """True for the Japanese edition."""
        return self.lang == "ja"

    def value(self, key: str) -> int:
        """A number of the set (``item.field``)."""
        return self.cards.values[key]

    def changed_items(self) -> frozenset[str] | None:
        """The ids of the items whose numbers differ from the earlier set's (None: no ``--only-changed``)."""
        if self.old is None:
            return None
        return frozenset(changed_items(self.old, self.cards))

    def changed_keys(self) -> frozenset[str] | None:
        """The numbers (``item.field``) that differ from the earlier set's (None: no ``--only-changed``)."""
        if self.old is None:
            return None
        return frozenset(k for k, v in self.cards.values.items() if self.old.values.get(k) != v)


def size(face: Face, points: float) -> float:
    """A design size scaled to the card, never under :data:`LEAST_PT`."""
    return max(LEAST_PT, pt(face, points))


def read_set(path: Path, game: str) -> CardSet:
    """A card-set file of ``game`` (PrintError listing its problems, each naming the card and the rule)."""
    try:
        return load_card_set(path, game)
    except CardSetError as exc:
        raise PrintError(str(exc)) from None


def edition_of(game: str, options: PrintOptions) -> Edition | None:
    """The legible edition the options ask for (``--cards``, ``--lang``, ``--only-changed``), or None."""
    if options.cards is None and options.lang is None and options.only_changed is None:
        return None
    lang = options.lang or "en"
    if lang not in LANGS:
        raise PrintError(f"--lang must be en or ja, not {lang!r}")
    cards = read_set(options.cards, game) if options.cards is not None else default_set(game)
    old = read_set(options.only_changed, game) if options.only_changed is not None else None
    return Edition(cards, lang, old)
