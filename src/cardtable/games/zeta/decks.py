"""Zeta decks: TOML files, validation with advice, the project's presets and random legal decks (ZETA-R6)."""

from __future__ import annotations

import difflib
import random
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from .cards import CARD_BY_ID, CARDS

PRESET_NAMES = ("classic", "control", "arcana", "plain")


class DeckError(ValueError):
    """A deck that cannot be used, with what to change."""


@dataclass(frozen=True)
class Deck:
    """A named deck: card id -> count, plus optional display names (skins, ZETA-I58)."""

    name: str
    counts: dict[str, int]
    names: dict[str, str] = field(default_factory=dict)

    @property
    def size(self) -> int:
        """How many cards the deck holds."""
        return sum(self.counts.values())

    def card_indexes(self) -> list[int]:
        """The deck as card-type indexes, in pool order (shuffled at setup)."""
        out: list[int] = []
        for c in CARDS:
            out.extend([c.index] * self.counts.get(c.id, 0))
        return out

    def to_json(self) -> dict[str, Any]:
        """The deck as JSON (stored in the game setup and records)."""
        counts = {c.id: self.counts[c.id] for c in CARDS if self.counts.get(c.id)}
        out: dict[str, Any] = {"name": self.name, "cards": counts}
        if self.names:
            out["names"] = dict(sorted(self.names.items()))
        return out

    def to_toml(self) -> str:
        """The deck in the TOML deck-file format."""
        lines = [f'name = "{self.name}"', ""]
        lines += [f"{cid} = {n}" for cid, n in self.to_json()["cards"].items()]
        if self.names:
            lines += ["", "[names]"] + [f'{cid} = "{label}"' for cid, label in sorted(self.names.items())]
        return "\n".join(lines) + "\n"


def _suggest(card_id: str) -> str:
    close = difflib.get_close_matches(card_id, CARD_BY_ID, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def deck_from_mapping(data: Any, *, source: str = "deck") -> Deck:
    """Read a deck from a mapping: ``name``, card id -> count (flat or under ``cards``), optional ``names``."""
    if not isinstance(data, dict):
        raise DeckError(f"{source}: a deck is a table of card id -> count")
    data = dict(data)
    name = data.pop("name", source)
    if not isinstance(name, str):
        raise DeckError(f"{source}: 'name' must be a string")
    names = data.pop("names", {})
    cards = data.pop("cards", None)
    if cards is None:
        cards = data
    elif data:
        raise DeckError(f"{source}: unexpected keys {', '.join(data)} next to [cards]")
    if not isinstance(cards, dict) or not isinstance(names, dict):
        raise DeckError(f"{source}: 'cards' and 'names' must be tables")
    counts: dict[str, int] = {}
    for cid, n in cards.items():
        if cid not in CARD_BY_ID:
            raise DeckError(f"{source}: unknown card id {cid!r}{_suggest(cid)}; valid ids: {', '.join(CARD_BY_ID)}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise DeckError(f"{source}: count of {cid} must be a whole number >= 0, got {n!r}")
        if n:
            counts[cid] = n
    for cid, label in names.items():
        if cid not in CARD_BY_ID:
            raise DeckError(f"{source}: [names] has unknown card id {cid!r}{_suggest(cid)}")
        if not isinstance(label, str) or not label.strip():
            raise DeckError(f"{source}: display name of {cid} must be a non-empty string")
    return Deck(name, counts, {k: str(v) for k, v in names.items()})


def validate_deck(deck: Deck, *, deck_size: int = 25, limits: bool = True) -> None:
    """Raise DeckError listing every problem and what to change (ZETA-R6)."""
    problems = []
    if deck.size != deck_size:
        diff = deck.size - deck_size
        fix = f"remove {diff}" if diff > 0 else f"add {-diff}"
        problems.append(f"it has {deck.size} cards but a deck holds exactly {deck_size}: {fix} card(s)")
    if limits:
        for cid, n in deck.counts.items():
            limit = CARD_BY_ID[cid].limit
            if n > limit:
                problems.append(f"{cid}: {n} copies, the limit is {limit}: remove {n - limit}")
    if problems:
        raise DeckError(f"deck {deck.name!r} is not legal: " + "; ".join(problems))


def load_deck_file(path: str | Path) -> Deck:
    """Read a TOML deck file (not yet validated against rules; see ``validate_deck``)."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DeckError(f"cannot read deck file {p}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise DeckError(f"deck file {p} is not valid TOML: {exc}") from None
    return deck_from_mapping(data, source=p.stem)


def preset(name: str) -> Deck:
    """One of the project's preset decks (the seed defines none; see docs/games/zeta.md)."""
    if name not in PRESET_NAMES:
        raise DeckError(f"unknown preset deck {name!r}; presets: {', '.join(PRESET_NAMES)}")
    return _preset(name)


@cache
def _preset(name: str) -> Deck:
    text = resources.files("cardtable.games.zeta").joinpath("presets", f"{name}.toml").read_text(encoding="utf-8")
    return deck_from_mapping(tomllib.loads(text), source=name)


def random_deck(rng: random.Random, *, deck_size: int = 25, name: str = "random") -> Deck:
    """A uniformly random legal deck: ``deck_size`` copies drawn from the 50-copy pool without replacement."""
    pool = [c.id for c in CARDS for _ in range(c.limit)]
    counts: dict[str, int] = {}
    for cid in rng.sample(pool, deck_size):
        counts[cid] = counts.get(cid, 0) + 1
    return Deck(name, counts)
