"""Zeta's deck files as every front end sees them: the game kit's ``decks`` facet.

The terminal's ``--deck``, ``cardtable deck check|random|show`` and the lab find a game's decks
through this object (``registry.part(game, "decks")``) and never name the game. The deck files
themselves, their checks (ZETA-R6) and the presets are :mod:`cardtable.games.zeta.decks`.

>>> from cardtable import load_game
>>> DECKS.presets[:2], DECKS.setup_key
(('classic', 'control'), 'decks')
>>> DECKS.setup_entry("classic")
'classic'
>>> DECKS.check_file("no-such-deck.toml", load_game("zeta")).problems
('cannot read deck file no-such-deck.toml: No such file or directory',)
>>> DECKS.preset_toml("plain").splitlines()[0]
'name = "plain"'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from .cards import CARD_BY_ID
from .decks import PRESET_NAMES, DeckError, check_deck_file, load_deck_file, preset, random_deck


@dataclass(frozen=True)
class DeckCheck:
    """What checking a deck file found: its name and size as read, every problem, and advice (empty if none)."""

    name: str
    size: int
    problems: tuple[str, ...]
    advice: str = ""


class ZetaDecks:
    """Zeta's decks for the front ends: presets, deck files, random legal decks, and the setup they make."""

    setup_key: Final = "decks"
    """The setup keyword a game's decks go to (one entry per seat)."""
    presets: Final = PRESET_NAMES
    """The project's preset decks, by name."""
    random_name: Final = "random"
    """The entry that deals a random legal deck at setup."""

    def setup_entry(self, text: str) -> Any:
        """One seat's setup entry for a preset name, ``random`` or a TOML file (ValueError saying what is wrong).

        The game checks the deck against its rules when the setup reaches it (ZETA-R6).
        """
        if text in PRESET_NAMES or text == self.random_name:
            return text
        deck = load_deck_file(text)
        return deck.to_json()

    def check_file(self, path: str | Path, game: Any) -> DeckCheck:
        """Every problem of a deck file under ``game``'s rules (ZETA-R6), with the valid ids if one is unknown."""
        rules = game.rules
        report = check_deck_file(path, deck_size=rules.deck_size, limits=rules.construction_limits, cards=rules.cards)
        advice = ""
        if any("unknown card id" in p for p in report.problems):
            advice = f"valid card ids: {', '.join(CARD_BY_ID)}"
        return DeckCheck(report.name, report.size, report.problems, advice)

    def random_toml(self, rng: random.Random, game: Any, name: str = "random") -> str:
        """A uniformly random legal deck under ``game``'s rules, as a TOML deck file."""
        rules = game.rules
        return random_deck(rng, deck_size=rules.deck_size, name=name, cards=rules.cards).to_toml()

    def preset_toml(self, name: str) -> str:
        """One of the project's preset decks as a TOML deck file (ValueError naming the presets if unknown)."""
        return preset(name).to_toml()


DECKS: Final = ZetaDecks()
"""The facet object the kit names."""

__all__ = ["DECKS", "DeckCheck", "DeckError", "ZetaDecks"]
