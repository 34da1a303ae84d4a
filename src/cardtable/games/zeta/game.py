"""The Zeta game object: setup options (decks), notation, positions from JSON, and sampling from a view."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from cardtable.core import Action, Game

from .actions import action_table
from .board import geometry
from .decks import Deck, DeckError, deck_from_mapping, preset, random_deck, validate_deck
from .position import ZetaSampler, read_position, sample_position
from .rules import ZetaRules
from .state import ZetaState, step_sequence

DEFAULT_DECKS = ("classic", "classic")


class ZetaGame(Game[ZetaRules]):
    """Zeta (技術四目並べ・ゼータζ): four in a row on a 6x6 grid with 25-card decks."""

    name: ClassVar[str] = "zeta"
    title: ClassVar[str] = "Zeta"
    Rules: ClassVar[type[ZetaRules]] = ZetaRules
    termination_bound: ClassVar[int] = 500
    zero_sum: ClassVar[bool] = True

    def __init__(self, rules: ZetaRules) -> None:
        super().__init__(rules)
        self.geometry = geometry(rules.board_width, rules.board_height)
        self.table = action_table(rules.board_width, rules.board_height)
        self.steps = step_sequence(rules)
        self._setup_cache: dict[tuple[str, ...], dict[str, Any]] = {}
        self._decklist_cache: dict[int, tuple[Any, list[int]]] = {}

    # ------------------------------------------------------------------ setup
    def normalize_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """``decks``: two deck specs (preset name, ``"random"``, a deck mapping or a ``Deck``)."""
        extra = set(setup) - {"decks"}
        if extra:
            raise ValueError(f"unknown Zeta setup option(s) {', '.join(sorted(extra))}; Zeta takes: decks")
        specs = setup.get("decks", DEFAULT_DECKS)
        if isinstance(specs, (list, tuple)) and all(type(x) is str for x in specs):
            key = tuple(specs)
            cached = self._setup_cache.get(key)
            if cached is None:
                cached = self._setup_cache[key] = self._normalize_decks(specs)
            return cached
        return self._normalize_decks(specs)

    def _normalize_decks(self, specs: Any) -> dict[str, Any]:
        if isinstance(specs, (str, Deck)) or not isinstance(specs, (list, tuple)) or len(specs) != 2:
            raise ValueError("decks must be a pair: one deck per seat (preset name, 'random', or a deck)")
        out: list[Any] = []
        for seat, spec in enumerate(specs):
            if spec == "random":
                out.append("random")
                continue
            if isinstance(spec, Deck):
                deck = spec
            elif isinstance(spec, str):
                deck = preset(spec)
            elif isinstance(spec, Mapping):
                deck = deck_from_mapping(dict(spec), source=f"deck of seat {seat}")
            else:
                raise ValueError(f"deck of seat {seat}: expected a preset name, 'random' or a deck, got {spec!r}")
            try:
                validate_deck(deck, deck_size=self.rules.deck_size, limits=self.rules.construction_limits,
                              cards=self.rules.cards)
            except DeckError as exc:
                hint = ""
                if deck.name == "plain" and self.rules.construction_limits:
                    hint = " (the plain deck needs construction_limits=false)"
                raise DeckError(f"seat {seat}: {exc}{hint}") from None
            out.append(deck.to_json())
        return {"decks": out}

    def _decklists(self, setup: dict[str, Any], rng: random.Random) -> list[list[int]]:
        lists = []
        for spec in setup["decks"]:
            if spec == "random":
                lists.append(random_deck(rng, deck_size=self.rules.deck_size, cards=self.rules.cards).card_indexes())
                continue
            hit = self._decklist_cache.get(id(spec))
            if hit is None or hit[0] is not spec:
                if len(self._decklist_cache) > 64:
                    self._decklist_cache.clear()
                hit = self._decklist_cache[id(spec)] = (spec, deck_from_mapping(dict(spec)).card_indexes())
            lists.append(list(hit[1]))
        return lists

    def _new_state(self, seed: int, setup: dict[str, Any], rng: random.Random, record: bool = False) -> ZetaState:
        """The initial state; with ``record`` it records while it deals (what ``_setup_events`` rebuilds later)."""
        state = ZetaState(self, seed, setup, rng, self._decklists(setup, rng))
        if record:
            state.record_events()
        state._setup()
        return state

    def _new_recording_state(self, seed: int, setup: dict[str, Any], rng: random.Random) -> ZetaState:
        """The initial state recording from the deal on (no second deal to learn the setup's events)."""
        return self._new_state(seed, setup, rng, record=True)

    def parse_action(self, text: str) -> Action:
        """Parse Zeta notation (see ``cardtable.games.zeta.actions``)."""
        return self.table.parse(text)

    # ------------------------------------------------------------------ positions (cardtable.games.zeta.position)
    def _state_from_json(self, position: Any, seed: int, setup: dict[str, Any], rng: random.Random) -> ZetaState:
        return read_position(self, position, seed, setup, rng, "$.position")

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> ZetaState:
        """A full state consistent with ``view`` and its memory: the unseen cards of each seat dealt at random."""
        return sample_position(self, view, rng)

    def sampler(self, view: Mapping[str, Any]) -> Callable[[random.Random], ZetaState]:
        """Deals determinisations of ``view``: the view is read once, each call deals the unseen cards anew."""
        return ZetaSampler(self, view)

    # ------------------------------------------------------------------ metadata
    @classmethod
    def conformance_cases(cls) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """Default game, control vs arcana, plain, random decks under non-default flags, gravity on 4x4."""
        return [
            ({}, {}),
            ({}, {"decks": ["control", "arcana"]}),
            ({"construction_limits": False}, {"decks": ["plain", "plain"]}),
            ({"trigger_order": "triggers_first", "mulligan": "once", "wind_mage_vacant": "ever",
              "circle_reach": "line", "board_full_tie": "continue", "empty_deck_draw": "lose_immediately",
              "overline_wins": False}, {"decks": ["random", "random"]}),
            ({"gravity": True, "board_width": 4, "board_height": 4, "deck_size": 20, "first_player": "p1",
              "win_check_timing": "after_triggers", "board_full_check": "on_placement",
              "apprentice_check_time": "opponent_turn_start", "wind_mage_negated": "forbid_cover"},
             {"decks": ["random", "random"]}),
        ]

    @classmethod
    def bench_cases(cls) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
        """Default Zeta (classic decks) and plain Zeta (25 Chant Practice each)."""
        return [
            ("default", {}, {}),
            ("plain", {"construction_limits": False}, {"decks": ["plain", "plain"]}),
        ]

