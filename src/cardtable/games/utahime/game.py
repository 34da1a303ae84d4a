"""The Utahime game object: setup options, new games, action and position parsing, sampling."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, ClassVar

from cardtable.core import jsonpos
from cardtable.core.errors import InvalidPosition
from cardtable.core.game import Action, Game

from .actions import parse_action
from .cards import COSMIC_BASE, COSMIC_NAMES
from .cardset import option_numbers
from .options import (
    EMPTY_SET,
    SHIPPED_SETS,
    OptionSet,
    check_construction,
    check_names,
    option_set_from_text,
    shipped_set_text,
    with_numbers,
)
from .position import read_position, sample_position
from .rules import MAX_TURNS_CAP, UtahimeRules
from .state import Kit, UtahimeState

MAX_OPTION_CARDS = 40
"""Engine limit on one player's option cards (UTA-I-CT17: keeps ``termination_bound`` finite)."""
SETUP_KEYS = ("option_set", "option_toml", "p1_options", "p2_options", "p1_hero", "p2_hero")
ACTIONS_PER_TURN_BOUND = 600
"""Most actions one turn can take (docs/games/utahime.md, "Termination"): sets 24, free flips 116,
option and hero uses with their choices 2 * (40 * 5 + 3 * 5), the attack's decisions 14."""


def _load_set(name: str, text: str | None, cards: str = "") -> OptionSet:
    """The option set a setup names, priced with the card set's option costs and hero uses (UTA-I-CT24)."""
    if name == "none":
        return EMPTY_SET
    if name == "custom":
        if text is None:
            raise ValueError("option_set='custom' needs option_toml (the TOML text of the set)")
        return with_numbers(option_set_from_text(text), option_numbers(cards))
    return with_numbers(option_set_from_text(shipped_set_text(name)), option_numbers(cards))


class UtahimeGame(Game[UtahimeRules]):
    """Utahime (言歌姫): the two-player duel of the seed 004, with the ledger's variant flags."""

    name: ClassVar[str] = "utahime"
    title: ClassVar[str] = "Utahime"
    Rules: ClassVar[type[UtahimeRules]] = UtahimeRules
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    zero_sum: ClassVar[bool] = True
    termination_bound: ClassVar[int] = 2 + MAX_TURNS_CAP * ACTIONS_PER_TURN_BOUND

    # -- setup -----------------------------------------------------------------------------------
    def normalize_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """Validate the option-set setup (UTA-R2) and return its complete JSON-safe form."""
        for key in setup:
            if key not in SETUP_KEYS:
                raise ValueError(f"unknown utahime setup option {key!r}; valid: {', '.join(SETUP_KEYS)}")
        text = setup.get("option_toml")
        if text is not None and not isinstance(text, str):
            raise ValueError("option_toml must be the TOML text of an option set")
        name = setup.get("option_set", "custom" if text is not None else "none")
        if not isinstance(name, str) or name not in ("none", "custom", *SHIPPED_SETS):
            raise ValueError(f"unknown option set {name!r}; choose one of: none, {', '.join(SHIPPED_SETS)}, custom")
        if text is not None and name != "custom":
            raise ValueError("option_toml goes with option_set='custom'")
        option_set = _load_set(name, text, self.rules.cards)
        out: dict[str, Any] = {"option_set": name}
        if name == "custom":
            out["option_toml"] = text
        for seat in (0, 1):
            key = f"p{seat + 1}_options"
            names = setup.get(key, list(option_set.loadouts[seat]))
            if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
                raise ValueError(f"{key} must be a list of option card names")
            names = list(names)
            if len(names) > MAX_OPTION_CARDS:
                raise ValueError(f"{key}: at most {MAX_OPTION_CARDS} option cards per player (engine limit)")
            hero_key = f"p{seat + 1}_hero"
            hero = setup.get(hero_key, option_set.hero_choices[seat])
            if hero is not None and not isinstance(hero, str):
                raise ValueError(f"{hero_key} must be a hero name or None")
            check_names(option_set, names, hero, seat)
            check_construction(option_set, names, seat, self.rules.option_cost_budget, self.rules.option_max_copies)
            out[key] = names
            out[hero_key] = hero
        return out

    def kit(self, setup: Mapping[str, Any]) -> Kit:
        """The static card data of a normalized setup (cached)."""
        return _kit(json.dumps(dict(setup), sort_keys=True), self.rules.cosmic_names(), self.rules.cards)

    def _new_state(self, seed: int, setup: dict[str, Any], rng: random.Random) -> UtahimeState:
        """UTA-R1-R6: components, energy, and the first player; the wished cards come next."""
        kit = self.kit(setup)
        state = UtahimeState(self, seed, setup, rng, kit)
        costs, counts = kit.costs, kit.counts
        if costs[0] != costs[1]:  # UTA-R6
            state.first = 0 if costs[0] < costs[1] else 1
        elif counts[0] != counts[1]:  # UTA-I15
            state.first = 0 if counts[0] < counts[1] else 1
        elif self.rules.first_player == "random":  # UTA-I16
            state.first = rng.randrange(2)
        else:
            state.first = 0 if self.rules.first_player == "p1" else 1
        bonus = self.rules.second_player_extra_energy  # a seat compensation (UTA-I48), 0 in the rulebook
        if bonus:
            cap = self.rules.energy_cap
            second = 1 - state.first
            state.energy[second] = min(state.energy[second] + bonus, cap) if cap else state.energy[second] + bonus
        return state

    # -- notation and positions ----------------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        """Parse canonical notation (docs/games/utahime.md) into an action."""
        return parse_action(text)

    def _state_from_json(self, position: Any, seed: int, setup: dict[str, Any], rng: random.Random) -> UtahimeState:
        """Rebuild ``$.position`` (InvalidPosition on any problem)."""
        return read_position(self, position, seed, setup, rng, self.kit(setup))

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> UtahimeState:
        """A full state consistent with ``view``; hidden cards are drawn with ``rng``."""
        d = jsonpos.obj(view, "$")
        try:
            setup = self.normalize_setup(jsonpos.obj(jsonpos.get(d, "setup", "$"), "$.setup"))
        except (ValueError, TypeError) as exc:
            if isinstance(exc, InvalidPosition):
                raise
            raise InvalidPosition("$.setup", str(exc)) from None
        kit = self.kit(setup)
        position = sample_position(self, d, rng, kit)
        return read_position(self, position, 0, setup, random.Random(rng.getrandbits(64)), kit, trusted=True)

    # -- metadata ----------------------------------------------------------------------------------
    @classmethod
    def conformance_cases(cls) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """The default game, and the game with the designer example option set."""
        return [({}, {}), ({}, {"option_set": "designer_example"})]

    @classmethod
    def bench_cases(cls) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
        """What ``cardtable bench utahime`` measures."""
        return [("default", {}, {}), ("designer_example", {}, {"option_set": "designer_example"})]


@lru_cache(maxsize=128)
def _kit(setup_key: str, cosmic: tuple[str, ...], cards: str = "") -> Kit:
    setup = json.loads(setup_key)
    option_set = _load_set(setup["option_set"], setup.get("option_toml"), cards)
    loadouts = tuple(tuple(option_set.options[n] for n in setup[f"p{s + 1}_options"]) for s in (0, 1))
    heroes = tuple(option_set.heroes[h] if (h := setup[f"p{s + 1}_hero"]) is not None else None for s in (0, 1))
    cosmic_idx = tuple(COSMIC_BASE + COSMIC_NAMES.index(n) for n in cosmic)
    return Kit(option_set, (loadouts[0], loadouts[1]), (heroes[0], heroes[1]), cosmic_idx)
