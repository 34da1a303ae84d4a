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
from .cardset import card_numbers

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
    """Read a deck from a mapping: ``name``, card id -> count (flat or under ``cards``), optional ``names``.

    Raises DeckError listing every problem of the mapping (unknown ids, bad counts, bad names).
    """
    deck, problems = read_deck_mapping(data, source=source)
    if problems:
        hint = f"; valid ids: {', '.join(CARD_BY_ID)}" if any("unknown card id" in p for p in problems) else ""
        raise DeckError(f"{source}: " + "; ".join(problems) + hint)
    return deck


def read_deck_mapping(data: Any, *, source: str = "deck") -> tuple[Deck, list[str]]:
    """A deck read from a mapping as far as possible, and every problem found on the way (ZETA-R6)."""
    problems: list[str] = []
    if not isinstance(data, dict):
        return Deck(source, {}), ["a deck is a table of card id -> count"]
    data = dict(data)
    name = data.pop("name", source)
    if not isinstance(name, str):
        problems.append("'name' must be a string")
        name = source
    names = data.pop("names", {})
    cards = data.pop("cards", None)
    if cards is None:
        cards = data
    elif data:
        problems.append(f"unexpected keys {', '.join(data)} next to [cards]")
    if not isinstance(cards, dict):
        problems.append("'cards' must be a table of card id -> count")
        cards = {}
    if not isinstance(names, dict):
        problems.append("'names' must be a table of card id -> display name")
        names = {}
    counts: dict[str, int] = {}
    for cid, n in cards.items():
        if cid not in CARD_BY_ID:
            problems.append(f"unknown card id {cid!r}{_suggest(cid)}")
            continue
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            problems.append(f"count of {cid} must be a whole number >= 0, got {n!r}")
            continue
        if n:
            counts[cid] = n
    labels: dict[str, str] = {}
    for cid, label in names.items():
        if cid not in CARD_BY_ID:
            problems.append(f"[names] has unknown card id {cid!r}{_suggest(cid)}")
        elif not isinstance(label, str) or not label.strip():
            problems.append(f"display name of {cid} must be a non-empty string")
        else:
            labels[cid] = label
    return Deck(name, counts, labels), problems


def deck_problems(deck: Deck, *, deck_size: int = 25, limits: bool = True, cards: str = "") -> list[str]:
    """Every way ``deck`` breaks the deck-construction rules, with what to change (ZETA-R6); empty if legal.

    ``cards`` is a card set's ``cards`` rule flag: its copy limits replace the rulebook's.
    """
    problems = []
    if deck.size != deck_size:
        diff = deck.size - deck_size
        fix = f"remove {diff}" if diff > 0 else f"add {-diff}"
        problems.append(f"it has {deck.size} cards but a deck holds exactly {deck_size}: {fix} card(s)")
    if limits:
        set_limits = card_numbers(cards).limits
        for cid, n in deck.counts.items():
            limit = set_limits[CARD_BY_ID[cid].index]
            if n > limit:
                problems.append(f"{cid}: {n} copies, the limit is {limit}: remove {n - limit}")
    return problems


def validate_deck(deck: Deck, *, deck_size: int = 25, limits: bool = True, cards: str = "") -> None:
    """Raise DeckError listing every problem and what to change (ZETA-R6; ``cards``: a card set's limits)."""
    problems = deck_problems(deck, deck_size=deck_size, limits=limits, cards=cards)
    if problems:
        raise DeckError(f"deck {deck.name!r} is not legal: " + "; ".join(problems))


@dataclass(frozen=True)
class DeckReport:
    """What ``check_deck_file`` found: the deck's name and size as read, and every problem (none: legal)."""

    name: str
    size: int
    problems: tuple[str, ...]


def check_deck_file(path: str | Path, *, deck_size: int = 25, limits: bool = True, cards: str = "") -> DeckReport:
    r"""Read and check a TOML deck file, collecting every problem at once (file, card ids, counts, ZETA-R6).

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "mine.toml"
    >>> _ = f.write_text('name = "mine"\nchant_practice = 9\nfire_mge = 1\n[names]\nhexr = "Witch"\n')
    >>> for problem in check_deck_file(f).problems:
    ...     print(problem)
    unknown card id 'fire_mge' (did you mean 'fire_mage'?)
    [names] has unknown card id 'hexr' (did you mean 'hexer'?)
    it has 9 cards but a deck holds exactly 25: add 16 card(s)
    chant_practice: 9 copies, the limit is 8: remove 1
    """
    p = Path(path)
    try:
        data = read_toml(p)
    except DeckError as exc:
        return DeckReport(p.stem, 0, (str(exc),))
    deck, problems = read_deck_mapping(data, source=p.stem)
    problems += deck_problems(deck, deck_size=deck_size, limits=limits, cards=cards)
    return DeckReport(deck.name, deck.size, tuple(problems))


def read_toml(path: str | Path, kind: str = "deck", error: type[ValueError] = DeckError) -> dict[str, Any]:
    """The table of a TOML file, or ``error`` raised saying that the ``kind`` file cannot be read or is not TOML.

    The one reader of the TOML files that name Zeta cards: deck files, and print skins (``kind="skin"``).
    """
    p = Path(path)
    try:
        return tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise error(f"cannot read {kind} file {p}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{kind} file {p} is not valid TOML: {exc}") from None


def load_deck_file(path: str | Path) -> Deck:
    """Read a TOML deck file (not yet validated against rules; see ``validate_deck``)."""
    return deck_from_mapping(read_toml(path), source=Path(path).stem)


def preset(name: str) -> Deck:
    """One of the project's preset decks (the seed defines none; see docs/games/zeta.md)."""
    if name not in PRESET_NAMES:
        raise DeckError(f"unknown preset deck {name!r}; presets: {', '.join(PRESET_NAMES)}")
    return _preset(name)


@cache
def _preset(name: str) -> Deck:
    text = resources.files("cardtable.games.zeta").joinpath("presets", f"{name}.toml").read_text(encoding="utf-8")
    return deck_from_mapping(tomllib.loads(text), source=name)


def random_deck(rng: random.Random, *, deck_size: int = 25, name: str = "random", cards: str = "") -> Deck:
    """A uniformly random legal deck: ``deck_size`` copies drawn from the 50-copy pool without replacement.

    ``cards`` is a card set's ``cards`` rule flag: its copy limits make the pool.
    """
    limits = card_numbers(cards).limits
    pool = [c.id for c in CARDS for _ in range(limits[c.index])]
    counts: dict[str, int] = {}
    for cid in rng.sample(pool, deck_size):
        counts[cid] = counts.get(cid, 0) + 1
    return Deck(name, counts)
