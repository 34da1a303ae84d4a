"""Option and hero cards: the data-defined extension points of UTA-R2, UTA-R46 and UTA-R47.

The seed defines the framework (cost budget, copy limit, timing, single use) but no cards. A set of
cards is a TOML document (format in docs/games/utahime.md) whose effects are lists of named
primitive steps the engine carries out (``PRIMITIVES``). This module only reads and checks data;
the steps run in ``state.py``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from .cards import suit_of

FORMAT = 1
MAX_OPTION_DEFS = 12
MAX_HEROES = 3  # UTA-R47: one hero out of three kinds
MAX_STEPS = 4
MAX_HERO_USES = 3
NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
SHIPPED_SETS = {"designer_example": "examples/designer_example.toml"}
"""Option sets shipped with the engine, by setup name (none is part of the seed's game)."""

#: primitive -> the keys it accepts (besides ``do``), with their allowed values.
PRIMITIVES: dict[str, dict[str, tuple[str, ...] | str]] = {
    "draw": {"who": ("self", "opponent", "both"), "count": "count"},
    "look_at_hand": {"who": ("opponent",)},
    "discard_from_hand": {"who": ("self", "opponent"), "face": ("up", "down"), "optional": "bool"},
    "recover": {"optional": "bool"},
    "mill": {"count": "count", "face": ("up", "down")},
    "flip_discard": {"who": ("self", "opponent"), "optional": "bool"},
    "exchange": {"optional": "bool"},
    "forbid_suit": {"suit": ("H", "S", "C", "D", "choose")},
    "change_energy": {"who": ("self", "opponent"), "amount": "amount"},
    "add_modifier": {"target": ("my_blocks", "opponent_attack"), "amount": "half",
                     "duration": ("opponent_next_turn", "this_turn")},
}
#: primitives whose step is a pending decision of the card's user.
CHOICE_PRIMITIVES = frozenset({"discard_from_hand", "recover", "flip_discard", "exchange"})


@dataclass(frozen=True)
class Step:
    """One primitive step of an effect, with every parameter filled in."""

    do: str
    who: str = "self"
    count: int = 1
    face: str = "up"
    optional: bool = False
    suit: int = -1  # -1: the user names the suit (``suit = "choose"``)
    amount: int = 0  # change_energy: units; add_modifier: half-points
    target: str = "my_blocks"
    duration: str = "opponent_next_turn"

    @property
    def needs_choice(self) -> bool:
        """True if the step is a pending decision (a card or a suit to choose)."""
        return self.do in CHOICE_PRIMITIVES or (self.do == "forbid_suit" and self.suit < 0)


@dataclass(frozen=True)
class CardDef:
    """An option card or hero card definition."""

    kind: str  # "option" or "hero"
    name: str
    title: str
    text: str
    cost: int
    timing: str  # "own_turn" or "any_time"
    ignore_hand_limit: bool
    uses: int
    steps: tuple[Step, ...]
    title_ja: str = ""
    """The card's name in Japanese (``title_ja``; empty: the set gives none)."""
    text_ja: str = ""
    """The card's text in Japanese (``text_ja``; empty: the set gives none)."""


@dataclass(frozen=True)
class OptionSet:
    """A set of option and hero definitions, plus the default loadouts of the two seats."""

    name: str
    title: str
    options: dict[str, CardDef]
    heroes: dict[str, CardDef]
    loadouts: tuple[tuple[str, ...], tuple[str, ...]]
    hero_choices: tuple[str | None, str | None]


EMPTY_SET = OptionSet("none", "no option or hero cards (the seed's game)", {}, {}, ((), ()), (None, None))


def _fail(where: str, message: str) -> ValueError:
    return ValueError(f"option set: {where}: {message}")


def _read_step(raw: Any, where: str) -> Step:
    if not isinstance(raw, dict):
        raise _fail(where, "each effect must be a table like { do = \"draw\", count = 1 }")
    do = raw.get("do")
    if do not in PRIMITIVES:
        raise _fail(where, f"unknown primitive {do!r}; choose one of: {', '.join(PRIMITIVES)}")
    spec = PRIMITIVES[do]
    values: dict[str, Any] = {"do": do}
    for key, value in raw.items():
        if key == "do":
            continue
        allowed = spec.get(key)
        if allowed is None:
            raise _fail(where, f"primitive {do!r} takes no key {key!r}; it takes: {', '.join(spec) or 'nothing'}")
        if allowed == "bool":
            if not isinstance(value, bool):
                raise _fail(where, f"{key} must be true or false")
            values[key] = value
        elif allowed == "count":
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 5:
                raise _fail(where, f"{key} must be an integer in 1..5")
            values[key] = value
        elif allowed == "amount":
            if not isinstance(value, int) or isinstance(value, bool) or value == 0 or not -5 <= value <= 5:
                raise _fail(where, f"{key} must be a non-zero integer in -5..5")
            values[key] = value
        elif allowed == "half":
            try:
                frac = Fraction(str(value)) if not isinstance(value, bool) else None
            except (ValueError, ZeroDivisionError):
                frac = None
            if frac is None or (frac * 2).denominator != 1 or frac == 0 or abs(frac) > 5:
                raise _fail(where, f"{key} must be a non-zero multiple of 0.5 in -5..5 (e.g. \"+1.5\")")
            values[key] = int(frac * 2)
        else:
            if value not in allowed:
                raise _fail(where, f"{key} must be one of: {', '.join(allowed)}; got {value!r}")
            if key == "suit":
                values[key] = -1 if value == "choose" else suit_of(value)
            else:
                values[key] = value
    if do == "add_modifier" and "amount" not in values:
        raise _fail(where, "add_modifier needs an amount")
    if do == "change_energy" and "amount" not in values:
        raise _fail(where, "change_energy needs an amount")
    if do == "forbid_suit" and "suit" not in values:
        raise _fail(where, "forbid_suit needs a suit (a letter or \"choose\")")
    if do == "discard_from_hand" and "who" not in values:
        values["who"] = "opponent"
    if do == "flip_discard" and "who" not in values:
        values["who"] = "opponent"
    if do == "look_at_hand":
        values["who"] = "opponent"
    return Step(**values)


def _read_card(raw: Any, kind: str, index: int) -> CardDef:
    where = f"[[{kind}]] #{index + 1}"
    if not isinstance(raw, dict):
        raise _fail(where, "must be a table")
    name = raw.get("name")
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise _fail(where, "name must be lower-case letters, digits and _ (starting with a letter, at most 32)")
    where = f"[[{kind}]] {name!r}"
    known = {"name", "title", "text", "title_ja", "text_ja", "timing", "effects", "ignore_hand_limit"} | (
        {"cost"} if kind == "option" else {"uses"})
    for key in raw:
        if key not in known:
            raise _fail(where, f"unknown key {key!r}; allowed: {', '.join(sorted(known))}")
    cost = raw.get("cost", 0)
    if kind == "option" and (not isinstance(cost, int) or isinstance(cost, bool) or cost < 0):
        raise _fail(where, "cost must be an integer >= 0")
    uses = raw.get("uses", 1)
    if kind == "hero" and (not isinstance(uses, int) or isinstance(uses, bool) or not 1 <= uses <= MAX_HERO_USES):
        raise _fail(where, f"uses must be an integer in 1..{MAX_HERO_USES}")
    timing = raw.get("timing", "own_turn")
    if timing not in ("own_turn", "any_time"):
        raise _fail(where, "timing must be \"own_turn\" or \"any_time\"")
    ignore = raw.get("ignore_hand_limit", False)
    if not isinstance(ignore, bool):
        raise _fail(where, "ignore_hand_limit must be true or false")
    effects = raw.get("effects")
    if not isinstance(effects, list) or not 1 <= len(effects) <= MAX_STEPS:
        raise _fail(where, f"effects must be a list of 1..{MAX_STEPS} primitive steps")
    steps = tuple(_read_step(e, f"{where} effect #{i + 1}") for i, e in enumerate(effects))
    title = raw.get("title", name)
    text = raw.get("text", "")
    title_ja = raw.get("title_ja", "")
    text_ja = raw.get("text_ja", "")
    if not all(isinstance(v, str) for v in (title, text, title_ja, text_ja)):
        raise _fail(where, "title, text, title_ja and text_ja must be strings")
    return CardDef(kind, name, title, text, cost if kind == "option" else 0, timing, ignore,
                   uses if kind == "hero" else 1, steps, title_ja, text_ja)


def parse_option_set(text: str) -> OptionSet:
    """Read an option set from TOML text (ValueError that says what is wrong and where)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"option set: not valid TOML: {exc}") from None
    for key in data:
        if key not in ("format", "name", "title", "option", "hero", "loadout"):
            raise _fail("top level", f"unknown key {key!r}")
    if data.get("format") != FORMAT:
        raise _fail("top level", f"format must be {FORMAT}")
    name = data.get("name")
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise _fail("top level", "name must be lower-case letters, digits and _")
    title = data.get("title", name)
    if not isinstance(title, str):
        raise _fail("top level", "title must be a string")
    raw_options = data.get("option", [])
    raw_heroes = data.get("hero", [])
    if not isinstance(raw_options, list) or not isinstance(raw_heroes, list):
        raise _fail("top level", "option and hero must be arrays of tables ([[option]], [[hero]])")
    if len(raw_options) > MAX_OPTION_DEFS:
        raise _fail("top level", f"at most {MAX_OPTION_DEFS} option definitions")
    if len(raw_heroes) > MAX_HEROES:
        raise _fail("top level", f"at most {MAX_HEROES} hero kinds (UTA-R47: one hero out of three kinds)")
    options: dict[str, CardDef] = {}
    for i, raw in enumerate(raw_options):
        card = _read_card(raw, "option", i)
        if card.name in options:
            raise _fail(f"[[option]] {card.name!r}", "defined twice")
        options[card.name] = card
    heroes: dict[str, CardDef] = {}
    for i, raw in enumerate(raw_heroes):
        card = _read_card(raw, "hero", i)
        if card.name in heroes:
            raise _fail(f"[[hero]] {card.name!r}", "defined twice")
        heroes[card.name] = card
    loadout = data.get("loadout", {})
    if not isinstance(loadout, dict):
        raise _fail("[loadout]", "must be a table")
    lists: list[tuple[str, ...]] = []
    hero_choice: list[str | None] = []
    for seat_name in ("p1", "p2"):
        names = loadout.get(seat_name, [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise _fail("[loadout]", f"{seat_name} must be a list of option names")
        lists.append(tuple(names))
        hero = loadout.get(f"{seat_name}_hero")
        if hero is not None and not isinstance(hero, str):
            raise _fail("[loadout]", f"{seat_name}_hero must be a hero name")
        hero_choice.append(hero)
    for key in loadout:
        if key not in ("p1", "p2", "p1_hero", "p2_hero"):
            raise _fail("[loadout]", f"unknown key {key!r}")
    result = OptionSet(name, title, options, heroes, (lists[0], lists[1]), (hero_choice[0], hero_choice[1]))
    for seat in (0, 1):
        check_names(result, list(result.loadouts[seat]), result.hero_choices[seat], seat)
    return result


def check_names(option_set: OptionSet, names: list[str], hero: str | None, seat: int) -> None:
    """Check that a loadout names only cards of the set (ValueError otherwise)."""
    for n in names:
        if n not in option_set.options:
            choices = ", ".join(option_set.options) or "none (this set defines no option cards)"
            raise ValueError(f"P{seat + 1}'s option card {n!r} is not in set {option_set.name!r}; choose from: {choices}")
    if hero is not None and hero not in option_set.heroes:
        choices = ", ".join(option_set.heroes) or "none (this set defines no heroes)"
        raise ValueError(f"P{seat + 1}'s hero {hero!r} is not in set {option_set.name!r}; choose from: {choices}")


def check_construction(option_set: OptionSet, names: list[str], seat: int, budget: int, max_copies: int) -> None:
    """UTA-R2: total cost <= budget and at most ``max_copies`` cards of one name (ValueError otherwise)."""
    total = sum(option_set.options[n].cost for n in names)
    if total > budget:
        raise ValueError(f"UTA-R2: P{seat + 1}'s option cards cost {total} in total; the budget is {budget}")
    for n in sorted(set(names)):
        copies = names.count(n)
        if copies > max_copies:
            raise ValueError(f"UTA-R2: P{seat + 1} has {copies} copies of option card {n!r}; at most {max_copies} allowed")


def with_numbers(option_set: OptionSet, numbers: Mapping[str, int]) -> OptionSet:
    """The set with a card set's numbers (``name.cost`` of an option, ``name.uses`` of a hero; UTA-I-CT24).

    Numbers of cards the set does not hold are left out: a card set speaks of cards by name.

    >>> cards = option_set_from_text(shipped_set_text("designer_example"))
    >>> with_numbers(cards, {"scout.cost": 9, "seer.uses": 2, "nobody.cost": 1}).options["scout"].cost
    9
    """
    if not numbers:
        return option_set
    options = dict(option_set.options)
    heroes = dict(option_set.heroes)
    for key, value in numbers.items():
        name, _, field_ = key.partition(".")
        if field_ == "cost" and name in options:
            options[name] = replace(options[name], cost=value)
        elif field_ == "uses" and name in heroes:
            heroes[name] = replace(heroes[name], uses=value)
    return replace(option_set, options=options, heroes=heroes)


@cache
def shipped_set_text(name: str) -> str:
    """The TOML text of a set shipped in the package (ValueError naming the choices if unknown)."""
    path = SHIPPED_SETS.get(name)
    if path is None:
        raise ValueError(f"unknown option set {name!r}; choose one of: none, {', '.join(SHIPPED_SETS)}, custom")
    return resources.files(__package__).joinpath(path).read_text(encoding="utf-8")


@lru_cache(maxsize=64)
def option_set_from_text(text: str) -> OptionSet:
    """A parsed option set, cached by its text."""
    return parse_option_set(text)
