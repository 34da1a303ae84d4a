"""Zeta's vocabulary: phases, resolution steps, end reasons, frame fields and lasting effects.

A leaf: it imports only the card table, so the state, its views and its position reader all import
it and not each other. The compact event codes are declared in :mod:`cardtable.games.zeta.codec`.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Final

from .cards import CARDS, NUM_TYPES

EFFECTS: Final = ("negate_fanfares", "apprentice_check", "broom", "only_cost_zero")
"""The lasting effects an effect event names (its compact code's ``effect`` field indexes them)."""


class Phase(IntEnum):
    """Who decides what: the mulligan, the main action, a pending choice inside an effect, or nobody.

    An ``IntEnum`` so the hot path compares ints; ``label`` is the name used in JSON.
    """

    MULLIGAN = 0
    """ZETA-R11: P1 then P2 keep or redraw (``mulligan=once`` only)."""
    MAIN = 1
    """ZETA-R12: the active player places a card or passes."""
    DO_OVER = 2
    """ZETA-R38: Do-Over's card of the hand to destroy."""
    FORTUNE = 3
    """ZETA-R39: which of the two cards Fortune-Telling drew to destroy."""
    TARGET = 4
    """ZETA-R30: an optional single-target destroy (Fire, Ice, Light, Astrology, Thunder, Blaze)."""
    MOURN = 5
    """ZETA-R57: Mourning the Dead's cost-0 placement, or decline."""
    LINE = 6
    """ZETA-R59: the full line Single-Arrow Summoning destroys."""
    OVER = 7
    """The game has ended."""

    @property
    def label(self) -> str:
        """The phase's name in position JSON and views."""
        return PHASE_NAMES[self]


class Step(IntEnum):
    """The steps of resolve_placement (ZETA-R18) after COVER and PUT."""

    LINE = 0
    """Step 2: four in a row (R20, R21)."""
    FANFARE = 1
    """Step 3: the placed card's Fanfare (R32)."""
    TRIGGERS = 2
    """Step 4: placement triggers of continuous cards (R19)."""
    FULL = 3
    """Step 5: the board-full end, top-level placements only (R22)."""
    FULL_NOW = 4
    """The board-full test right after the line check (``board_full_check=on_placement``, ZETA-I16)."""


class EndReason(StrEnum):
    """Why a Zeta game ended (the outcome's ``reason``)."""

    FOUR_IN_A_ROW = "four_in_a_row"
    """ZETA-R20: the placing seat made four in a row."""
    BOARD_FULL = "board_full"
    """ZETA-R22: the board is full; more cards on it wins."""
    BOARD_FULL_TIE = "board_full_tie"
    """ZETA-R22: the board is full with equal counts (``board_full_tie=draw``)."""
    DECK_OUT = "deck_out"
    """ZETA-R23: the active seat's deck was empty at the start of its turn."""
    EMPTY_DECK_DRAW = "empty_deck_draw"
    """ZETA-R23 with ``empty_deck_draw=lose_immediately``: a draw from an empty deck loses."""


PHASE_NAMES: Final = ("mulligan", "main", "do_over", "fortune", "target", "mourn", "line", "over")
PHASE_BY_NAME: Final = {name: Phase(i) for i, name in enumerate(PHASE_NAMES)}
# Module-level aliases (Final: compiled code reads them without a lookup).
MULLIGAN_PHASE: Final = Phase.MULLIGAN
MAIN: Final = Phase.MAIN
CHOOSE_HAND: Final = Phase.DO_OVER
CHOOSE_FORTUNE: Final = Phase.FORTUNE
CHOOSE_TARGET: Final = Phase.TARGET
CHOOSE_MOURN: Final = Phase.MOURN
CHOOSE_LINE: Final = Phase.LINE
OVER: Final = Phase.OVER
LINE: Final = Step.LINE
FANFARE: Final = Step.FANFARE
TRIGGERS: Final = Step.TRIGGERS
FULL: Final = Step.FULL
FULL_NOW: Final = Step.FULL_NOW
STEP_NAMES: Final = ("line", "fanfare", "triggers", "full", "full_now")

# A frame is [seat, card, square, top_level, step_position, covered_card, vacancy].
F_SEAT: Final = 0
F_CARD: Final = 1
F_SQUARE: Final = 2
F_TOP: Final = 3
F_POS: Final = 4
F_COVERED: Final = 5
F_VACANCY: Final = 6

ZERO_COST: Final = tuple(c.index for c in CARDS if c.cost == 0)
"""The card types Mourning the Dead may place (ZETA-R57)."""
NO_KNOWN: Final[tuple[int, ...]] = (0,) * NUM_TYPES
"""No remembered card of any type (ZETA-I-CT6)."""
TURN_DRAW: Final = -1
"""The ``cause`` of the turn's draw (ZETA-R12 step 2), where effects pass their card type."""
EFFECT_KEYS: Final = (("negate_fanfares", "negate", 1), ("only_cost_zero", "only_zero", 1), ("broom", "broom", 2),
               ("apprentice_check", "apprentice", 1))
"""(JSON key, state attribute, how many turns ahead a record can be created: R44, R47, R49, R53)."""
