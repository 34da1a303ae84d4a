"""Utahime's numbers as a card set (``cardtable cards export utahime``): energy, premium attacks, Aces,
the hand limit, the option budget, each shipped option card's cost and hero's uses, the cosmic pool, and
the seat compensation designers try (the second player's extra energy).

The numbers that are rule flags already go there by name. The others travel in the ``cards`` rule flag
(UTA-I-CT24) as ``item.field=value;...``, only those that differ from the rulebook: an option card's
``cost`` and a hero's ``uses`` apply to the card of that name in the game's option set (the shipped
designer example's by default), and a cosmic card's ``pool`` (1: in each player's pool, 0: left out) is
folded into the ``cosmic_pool`` flag, so the two spellings of one pool are one set with one hash. The
energy an attack gains or drains (UTA-R41) is shown for reference and fixed in this version.

>>> SPEC.number("options.budget").flag
'option_cost_budget'
>>> split_cards("scout.cost=9;cosmic_h4.pool=0")
('scout.cost=9', ('H4',))
>>> option_numbers("seer.uses=2")
{'seer.uses': 2}
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from cardtable.core.cardset import CardSetSpec, Item, Number, decode_changes, encode_changes

from .cards import COSMIC_CARDS, COSMIC_NAMES, RANK_NAMES, SUIT_SYMBOLS
from .options import (
    MAX_HERO_USES,
    SHIPPED_SETS,
    check_construction,
    option_set_from_text,
    shipped_set_text,
    with_numbers,
)

__all__ = ["SPEC", "canonical_cards", "cosmic_item", "option_numbers", "split_cards"]

MAX_OPTION_COST = 99
"""The most an option card may cost in a card set (the budget's range is 0-200)."""

_SHIPPED = tuple(option_set_from_text(shipped_set_text(name)) for name in SHIPPED_SETS)


def cosmic_item(name: str) -> str:
    """The card-set item of a cosmic card: ``H4`` -> ``cosmic_h4``."""
    return f"cosmic_{name.lower()}"


def _option_items() -> tuple[tuple[Item, ...], tuple[Number, ...]]:
    """The shipped sets' option and hero cards as items, with their costs and uses."""
    items: dict[str, Item] = {}
    numbers: dict[str, Number] = {}
    for option_set in _SHIPPED:
        for card in option_set.options.values():
            items.setdefault(card.name, Item(card.name, card.title_ja or card.title, card.title, "UTA-R2"))
            numbers.setdefault(card.name, Number(card.name, "cost", card.cost, 0, MAX_OPTION_COST, "UTA-R2",
                                                 doc=f"option cost ({option_set.name})"))
        for card in option_set.heroes.values():
            items.setdefault(card.name, Item(card.name, card.title_ja or card.title, card.title, "UTA-R47"))
            numbers.setdefault(card.name, Number(card.name, "uses", card.uses, 1, MAX_HERO_USES, "UTA-R47",
                                                 doc=f"uses per game ({option_set.name})"))
    return tuple(items.values()), tuple(numbers.values())


_OPTION_ITEMS, _OPTION_NUMBERS = _option_items()

ITEMS: tuple[Item, ...] = (
    Item("energy", "エネルギー", "Energy", "UTA-R40", kind="component"),
    Item("attack", "アタックのエネルギー", "Energy from attacks", "UTA-R41", kind="component"),
    Item("premium_attack", "A・J・Q・Kのアタック", "Premium attack (A, J, Q, K)", "UTA-R42", kind="component"),
    Item("ace", "エース", "Ace", "UTA-R7", kind="component"),
    Item("hand", "手札", "Hand", "UTA-R53", kind="component"),
    Item("options", "オプションカード", "Option cards", "UTA-R2", kind="component"),
    *(Item(cosmic_item(name), f"コズミックカード {SUIT_SYMBOLS[s]}{RANK_NAMES[r - 1]}",
           f"Cosmic card {SUIT_SYMBOLS[s]}{RANK_NAMES[r - 1]}", "UTA-R52")
      for (s, r), name in zip(COSMIC_CARDS, COSMIC_NAMES, strict=True)),
    *_OPTION_ITEMS,
)

NUMBERS: tuple[Number, ...] = (
    Number("energy", "start", 0, 0, 20, "UTA-R40", flag="starting_energy", doc="each player's energy at the start"),
    Number("energy", "second_player_bonus", 0, 0, 20, "UTA-R40", flag="second_player_extra_energy",
           doc="extra energy for the player who moves second (a seat compensation)"),
    Number("energy", "cap", 0, 0, 20, "UTA-I48", flag="energy_cap", doc="the most energy a player holds (0: no cap)"),
    Number("attack", "low_gain", 1, 1, 1, "UTA-R41", fixed=True, doc="attacker's energy from a 2-4 attack"),
    Number("attack", "low_drain", 1, 1, 1, "UTA-R41", fixed=True, doc="defender's energy lost to a 2-4 attack"),
    Number("attack", "mid_gain", 1, 1, 1, "UTA-R41", fixed=True, doc="attacker's energy from a 5-7 attack"),
    Number("premium_attack", "cost", 1, 0, 20, "UTA-R42", flag="premium_attack_cost",
           doc="energy paid to attack with an A, J, Q or K"),
    Number("ace", "value", 1, 1, 14, "UTA-R7", flag="ace_value", doc="an Ace's number in blocks: 1 or 14"),
    Number("hand", "limit", 10, 1, 20, "UTA-R53", flag="hand_limit", doc="the most cards in a hand"),
    Number("options", "budget", 28, 0, 200, "UTA-R2", flag="option_cost_budget",
           doc="the most total cost of one player's option cards"),
    Number("options", "copies", 2, 0, 12, "UTA-R2", flag="option_max_copies", doc="option cards of one name"),
    *(Number(cosmic_item(name), "pool", 1, 0, 1, "UTA-R52", doc="copies in each player's cosmic pool (0: left out)")
      for name in COSMIC_NAMES),
    *_OPTION_NUMBERS,
)

_COSMIC_BY_ITEM = {cosmic_item(name): name for name in COSMIC_NAMES}


def _check(values: Mapping[str, int], flags: Mapping[str, Any]) -> list[str]:
    """UTA-I48: a starting energy within the cap; UTA-R2: every shipped loadout within the budget and copies."""
    problems: list[str] = []
    cap = values["energy.cap"]
    if cap and values["energy.start"] + values["energy.second_player_bonus"] > cap:
        problems.append(f"energy.start + energy.second_player_bonus ({values['energy.start']} + "
                        f"{values['energy.second_player_bonus']}) is above energy.cap {cap} (UTA-I48)")
    budget, copies = values["options.budget"], values["options.copies"]
    numbers = {n.key: values[n.key] for n in _OPTION_NUMBERS}
    for option_set in _SHIPPED:
        priced = with_numbers(option_set, numbers)
        for seat, names in enumerate(priced.loadouts):
            try:
                check_construction(priced, list(names), seat, budget, copies)
            except ValueError as exc:
                costs = ", ".join(f"{n}.cost {priced.options[n].cost}" for n in dict.fromkeys(names))
                why = str(exc).removeprefix("UTA-R2: ")
                problems.append(f"options.budget (Option cards, UTA-R2): budget {budget}, copies {copies}: the loadout "
                                f"the option set {option_set.name!r} deals does not fit: {why} ({costs}); raise the "
                                "budget or lower a cost")
    return problems


def split_cards(text: str) -> tuple[str, tuple[str, ...]]:
    """A ``cards`` flag's text, checked, as (its option and hero numbers, canonical; the cosmic cards it leaves out)."""
    changes = decode_changes(SPEC, text)
    left_out = tuple(_COSMIC_BY_ITEM[k.partition(".")[0]] for k, v in changes.items()
                     if k.partition(".")[0] in _COSMIC_BY_ITEM and v == 0)
    defaults = SPEC.defaults()
    rest = {k: v for k, v in changes.items() if k.partition(".")[0] not in _COSMIC_BY_ITEM and defaults[k] != v}
    return encode_changes(rest), tuple(n for n in COSMIC_NAMES if n in left_out)


def canonical_cards(text: str) -> str:
    """The ``cards`` flag's one spelling: its option and hero numbers that differ from the rulebook's, sorted."""
    return split_cards(text)[0]


@lru_cache(maxsize=256)
def option_numbers(text: str) -> dict[str, int]:
    """The option costs and hero uses of a canonical ``cards`` flag, by key (what the option set is priced with)."""
    return decode_changes(SPEC, text)


SPEC = CardSetSpec("utahime", ITEMS, NUMBERS, cards_flag="cards", check=_check,
                   texts={"en": {c.name: c.text for s in _SHIPPED for c in (*s.options.values(), *s.heroes.values())},
                          "ja": {c.name: c.text_ja for s in _SHIPPED
                                 for c in (*s.options.values(), *s.heroes.values()) if c.text_ja}})
"""Utahime's card-set spec (the ``cardset`` facet)."""
