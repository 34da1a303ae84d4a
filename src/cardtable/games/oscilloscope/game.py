"""The Oscilloscope game object: setup (OSC-R1 to OSC-R8), notation, positions, sampling, test cases."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from cardtable.core import Game

from .actions import OscilloscopeAction, parse_action
from .cards import POSITIONS
from .cardset import composition
from .position import read_position, sample_position
from .rules import MAX_STALL_LIMIT, OscilloscopeRules
from .state import OscilloscopeState, RuleTables, counts_of
from .vocab import WILD, Phase

MAX_TRAINS = 6


def action_bound(players: int, trains: int, stall_limit: int) -> int:
    """A proven bound on the actions of one game (OSC-R64's argument, counted in decisions).

    Every capture moves at least one card from a train to a score pile for good, so there are at
    most 110 captures and at most ``(110 + 1) * stall_limit`` sets. One set holds at most: 4
    trigger-set decisions (a hand has at most 3 cards, plus a pass) twice, a capture and a keep
    decision, a solo exchange, ``3 * players`` top-up draws, and refill plays: each player
    discards at most ``110 + 1`` times before OSC-R46 stops them, each train takes at most 5
    placements, and with ``refill_all_players`` every pass adds a play per player.
    """
    plays = 5 * trains + 111 * players + 1
    refill = players * plays
    per_set = 4 + 2 + 1 + refill + 3 * players + 4
    return (110 + 1) * stall_limit * per_set + players + 1


class OscilloscopeGame(Game[OscilloscopeRules]):
    """Oscilloscope: 1 to 4 players capture time slices of square-wave channels with triggers."""

    name: ClassVar[str] = "oscilloscope"
    title: ClassVar[str] = "Oscilloscope"
    Rules: ClassVar[type[OscilloscopeRules]] = OscilloscopeRules
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = MAX_TRAINS
    """The most any rules allow (``max_players`` = 6); the default rules allow 4 (OSC-I51)."""
    termination_bound: ClassVar[int] = action_bound(MAX_TRAINS, MAX_TRAINS, MAX_STALL_LIMIT)

    def __init__(self, rules: OscilloscopeRules) -> None:
        super().__init__(rules)
        self.tables = RuleTables(rules)

    # -- setup ----------------------------------------------------------------------------------------
    def normalize_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """``{"players": N}``: 1 (solo rules) to ``max_players`` (4 by default); 2 if not given."""
        extra = [k for k in setup if k != "players"]
        if extra:
            raise ValueError(f"oscilloscope takes only the setup option 'players'; got {', '.join(extra)}")
        players = setup.get("players", 2)
        top = self.rules.max_players
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= top:
            more = "" if top == 6 else " (the flag max_players=5 or 6 allows more, experimentally)"
            raise ValueError(f"oscilloscope is played by 1 to {top} players (1 plays the solo rules); "
                             f"got players={players!r}{more}")
        return {"players": players}

    def num_players_for(self, setup: Mapping[str, Any]) -> int:
        """The number of seats: ``setup["players"]``."""
        return int(setup["players"])

    def _new_state(self, seed: int, setup: dict[str, Any], rng: random.Random) -> OscilloscopeState:
        """OSC-R1 to OSC-R8: shuffle both decks, build the trains, deal, then ask for the first choice."""
        st = OscilloscopeState(self, seed, setup, rng)
        decks = composition(self.rules.cards, self.rules.mp_noise_limit)  # OSC-I-CT15: the card set's decks
        pulse = list(decks.pulse)
        triggers = list(decks.trigger)
        rng.shuffle(pulse)  # OSC-R1 (top of a deck = end of the list)
        rng.shuffle(triggers)
        st.pulse, st.trigger_deck = pulse, triggers
        for c in range(st.ntrains):  # OSC-R2, OSC-R3
            under: list[int] = []
            st.cards[c], st.levels[c] = build_train(pulse, self.tables.setup_conn, under)
            st.setup_under.append(under)
        # OSC-I-CT14: every seat saw the trains built and the cards that went under the pulse deck.
        st.bottom_known = sum(len(u) for u in st.setup_under)
        st.pulse_source = counts_of(pulse[st.bottom_known:])
        st.trigger_source = counts_of(triggers)
        n = st.players
        if st.solo:  # OSC-R8 (OSC-I52, OSC-I53)
            for _ in range(self.rules.solo_initial_pulse_cards):
                st._draw_pulse(0)
            st.offer = [triggers.pop() for _ in range(3)]
            st.trigger_source = counts_of(triggers)  # the offer is face up
            st.phase, st.decider = Phase.FILTERS, 0
            return st
        st.start_player = st.turn = rng.randrange(n)  # OSC-R4 (OSC-I10)
        for i in range(n):  # OSC-R5, dealt in turn order from the start player
            p = (st.start_player + i) % n
            st._draw_pulse(p)
            st._draw_pulse(p)
            st._draw_trigger(p)
        if self.rules.train_assignment == "random":  # OSC-I11 variant
            order = list(range(st.ntrains))
            rng.shuffle(order)
            st.assigned = order[:n]
            st.start_play()
        else:  # OSC-R6: the start player chooses first
            st.phase, st.decider = Phase.ASSIGN, st.start_player
        return st

    # -- notation and positions --------------------------------------------------------------------------
    def parse_action(self, text: str) -> OscilloscopeAction:
        """Canonical notation to an action (see docs/games/oscilloscope.md); InvalidAction otherwise."""
        return parse_action(text)

    def _state_from_json(self, position: Any, seed: int, setup: dict[str, Any],
                         rng: random.Random) -> OscilloscopeState:
        """Rebuild ``$.position`` (position.schema.json), validating every field."""
        return read_position(self, position, seed, setup, rng)

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> OscilloscopeState:
        """A full state consistent with ``view``, hidden cards dealt with ``rng`` from the unseen ones."""
        return sample_position(self, view, rng)

    # -- test and bench cases ------------------------------------------------------------------------------
    @classmethod
    def conformance_cases(cls) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """Solo, 2 and 4 players under the defaults, and two variant mixes (3 players and solo)."""
        variant = {"trigger_anchor": "position", "close_gaps_on_capture": True, "refill_order": "per_player",
                   "capture_optional": True, "lowhi_multi_per_set": True, "flat_after_wild": "declare",
                   "noise_penalty": "trains_x1_5_per_noise", "refill_must_connect": False,
                   "clear_mode": "replacing", "capture_by": "trigger_owner", "refill_all_players": True,
                   "exhaustion_ends_game": False, "main_trigger_optional": True, "stall_limit_sets": 8}
        solo_variant = {"solo_initial_pulse_cards": 0, "solo_clear_covers": "all_in_capture",
                        "solo_scoring": "general_formula", "trigger_cards_connect": True,
                        "noise_out_level": "transparent", "refill_draw": "to_three"}
        return [({}, {"players": 1}), ({}, {"players": 2}), ({}, {"players": 4}),
                (variant, {"players": 3}), (solo_variant, {"players": 1})]

    @classmethod
    def bench_cases(cls) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
        """The solo game and the 4-player game under the default rules."""
        return [("solo", {}, {"players": 1}), ("4 players", {}, {"players": 4})]


def build_train(deck: list[int], conn: tuple[tuple[int, ...], ...],
                under: list[int] | None = None) -> tuple[list[int], list[int]]:
    """OSC-R3: fill slots 1 to 5 from the top of ``deck``; a card that does not connect goes under it.

    ``deck`` has its top card last and is changed in place; the cards put under it are appended to
    ``under`` in order. The first card connects to anything (OSC-I7); the loop ends because Low or
    Hi and noise always connect (OSC-I9).
    """
    cards: list[int] = []
    levels: list[int] = []
    while len(cards) < POSITIONS:
        card = deck.pop()
        out = conn[card][levels[-1] if levels else WILD]
        if out < 0:
            deck.insert(0, card)  # OSC-R3: to the bottom, not the discard pile
            if under is not None:
                under.append(card)
        else:
            cards.append(card)
            levels.append(out)
    return cards, levels
