"""Random legal Utahime loadouts: option cards within the cost budget (UTA-R2) and a hero (UTA-R47).

What Zeta's random decks are to its cards, these are to Utahime's option cards: in a run where every
seat's loadout is drawn at random, each option card is held by some seats and not by others, in
either turn position, so its strength can be told apart from the seat's and from the rest of the
loadout. In a random loadout each copy of each option card (``max_copies`` of each name) is taken
with one probability, independently, and a loadout over the budget is drawn again: so a card's
copies vary independently of the others' and the total cost varies too. The hero is one of the
set's heroes, uniformly. Costs are read from the option set only.

The setup values ``"random"`` ask for it: ``p1_options``, ``p2_options``, ``p1_hero``,
``p2_hero``, or ``loadouts = "random"`` for all four. :func:`random_setup` replaces them by a drawn
loadout, from an RNG the caller seeds (the lab: the game's seed).

>>> import random
>>> from cardtable.games.utahime.options import option_set_from_text, shipped_set_text
>>> cards = option_set_from_text(shipped_set_text("designer_example"))
>>> names = random_loadout(cards, random.Random(3), budget=28, max_copies=2)
>>> sum(cards.options[n].cost for n in names) <= 28
True
>>> setup = random_setup({"option_set": "designer_example", "loadouts": "random"}, random.Random(3),
...                      budget=28, max_copies=2)
>>> sorted(setup), setup["p1_options"] == sorted(setup["p1_options"])
(['option_set', 'p1_hero', 'p1_options', 'p2_hero', 'p2_options'], True)
>>> random_setup({"option_set": "designer_example"}, random.Random(3), budget=28, max_copies=2)
{'option_set': 'designer_example'}
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .cardset import option_numbers
from .options import OptionSet, check_construction, option_set_from_text, shipped_set_text, with_numbers

RANDOM = "random"
"""The setup value that asks for a random loadout."""
ALL_KEY = "loadouts"
"""``loadouts = "random"``: every seat's option cards and hero at random."""
SEAT_KEYS = ("p1_options", "p2_options", "p1_hero", "p2_hero")
MAX_CARDS = 40
"""The most option cards drawn for one player (the engine's limit)."""


def random_loadout(option_set: OptionSet, rng: random.Random, *, budget: int, max_copies: int,
                   max_cards: int = MAX_CARDS) -> list[str]:
    """A random legal loadout (UTA-R2), sorted: each copy of each name (``max_copies`` of each) is taken with one
    probability, the same for all, and a loadout over the budget is drawn again.

    Each card's copies are drawn independently of the others' (but for the budget), so the loadouts'
    total cost varies and what one copy of a card adds can be told from what the others add. The
    probability makes the expected total about the budget (at most one half).
    """
    pool = [name for name in option_set.options for _ in range(max_copies)]
    pool_cost = sum(option_set.options[n].cost for n in pool)
    if not pool:
        return []
    chance = min(0.5, budget / pool_cost) if pool_cost else 0.5
    for _ in range(1000):
        chosen = [n for n in pool if rng.random() < chance][:max_cards]
        if sum(option_set.options[n].cost for n in chosen) <= budget:
            break
    else:  # a budget too small for independent draws: fill greedily in a random order
        rng.shuffle(pool)
        chosen, total = [], 0
        for n in pool:
            if total + option_set.options[n].cost <= budget and len(chosen) < max_cards:
                chosen.append(n)
                total += option_set.options[n].cost
    chosen.sort()
    check_construction(option_set, chosen, 0, budget, max_copies)
    return chosen


def random_hero(option_set: OptionSet, rng: random.Random) -> str | None:
    """One of the set's heroes, uniformly (None for a set without heroes)."""
    heroes = sorted(option_set.heroes)
    return heroes[int(rng.random() * len(heroes))] if heroes else None


def option_set_of(setup: Mapping[str, Any], cards: str = "") -> OptionSet | None:
    """The option set a setup names (None for ``none``, the seed's game without option cards), priced with
    the rules' ``cards`` flag (UTA-I-CT24)."""
    name = setup.get("option_set", "custom" if setup.get("option_toml") is not None else "none")
    if name == "none":
        return None
    if name == "custom":
        text = setup.get("option_toml")
        if not isinstance(text, str):
            raise ValueError("option_set='custom' needs option_toml (the TOML text of the set)")
        return with_numbers(option_set_from_text(text), option_numbers(cards))
    return with_numbers(option_set_from_text(shipped_set_text(str(name))), option_numbers(cards))


def wants_random(setup: Mapping[str, Any]) -> bool:
    """True if the setup asks for any random loadout."""
    return setup.get(ALL_KEY) == RANDOM or any(setup.get(k) == RANDOM for k in SEAT_KEYS)


def random_setup(setup: Mapping[str, Any], rng: random.Random, *, budget: int = 28,
                 max_copies: int = 2, cards: str = "") -> dict[str, Any]:
    """``setup`` with every ``"random"`` loadout value replaced by a drawn one (ValueError if it cannot be)."""
    out = dict(setup)
    if not wants_random(out):
        return out
    every = out.pop(ALL_KEY, None)
    if every is not None and every != RANDOM:
        raise ValueError(f"{ALL_KEY} must be 'random', got {every!r}")
    option_set = option_set_of(out, cards)
    if option_set is None:
        raise ValueError("random loadouts need an option set: add option_set=designer_example (or a custom set)")
    for seat in (1, 2):
        key = f"p{seat}_options"
        if every == RANDOM or out.get(key) == RANDOM:
            out[key] = random_loadout(option_set, rng, budget=budget, max_copies=max_copies)
        hero = f"p{seat}_hero"
        if every == RANDOM or out.get(hero) == RANDOM:
            out[hero] = random_hero(option_set, rng)
    return out


def lab_setup(setup: Mapping[str, Any], rules: Any, seed: int) -> dict[str, Any]:
    """The lab's hook (the kit's ``random_setup`` facet): a game's setup with its random loadouts drawn from ``seed``."""
    if not wants_random(setup):
        return dict(setup)
    return random_setup(setup, random.Random(f"utahime-loadout:{seed}"),
                        budget=int(getattr(rules, "option_cost_budget", 28)),
                        max_copies=int(getattr(rules, "option_max_copies", 2)),
                        cards=str(getattr(rules, "cards", "")))
