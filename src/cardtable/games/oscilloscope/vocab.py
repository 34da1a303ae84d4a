"""Oscilloscope's vocabulary: card kinds and levels, origins, phases, steps and placement results.

A leaf: it imports only the card table, so the state, its views and its position reader all import
it and not each other. The compact event codes are declared in :mod:`cardtable.games.oscilloscope.codec`.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum, IntEnum
from typing import Final

from .cards import TOKENS

PLACE_RESULTS: Final = ("set", "cancelled", "replaced", "added")
"""The results of a placement (a place event's ``result``)."""

EMPTY: Final = -1
HL: Final = 0
LH: Final = 1
LOH: Final = 2
NOISE: Final = 3
CLEAR: Final = 4
T_HL: Final = 5
T_LH: Final = 6
T_BOTH: Final = 7
HIGH: Final = 0
LOW: Final = 1
WILD: Final = 2
NO: Final = -1
"""Connection table entry: the card does not connect at this level."""
DECLARE: Final = -2
"""Connection table entry: a Low or Hi card after a wild level whose player declares H or L (OSC-I5)."""
# Where an unknown card of a hand came from, as every seat remembers it (OSC-I-CT14): the pulse deck
# while it held only pulse kinds, the trigger deck, or anywhere (a rebuilt deck, or a Low or Hi whose deck
# is unknown).
PULSE_ORIGIN: Final = 0
TRIGGER_ORIGIN: Final = 1
ANY_ORIGIN: Final = 2
ORIGIN_NAMES: Final = ("pulse", "trigger", "any")
KIND_GROUP: Final = (0, 0, 2, 0, 1, 1, 1, 1)
"""0: only the pulse deck starts with it (HL, LH, NOISE); 1: only the trigger deck (CLEAR and the XX
triggers); 2: both (LOH, OSC-I3)."""
ORIGIN_ALLOWS: Final = ((True, True, True, True, False, False, False, False),
                        (False, False, True, False, True, True, True, True),
                        (True,) * 8)
"""``ORIGIN_ALLOWS[origin][card]``: the kinds a card of each origin can be."""


class Phase(Enum):
    """The decision a position waits for (style rule 8: every choice is a phase with its own actions)."""

    ASSIGN = "assign"
    """OSC-R6: the decider picks an unassigned train."""
    FILTERS = "filters"
    """OSC-R8: the solo player picks the two filters; the third card becomes the stock."""
    TRIGGER = "trigger"
    """OSC-R9 step 1: the current player places a trigger."""
    MORE = "more"
    """OSC-I22 variant: after a Low or Hi placement, stack another one or pass."""
    CAPTURE = "capture"
    """OSC-I33 variant: take the capture or decline it."""
    KEEP = "keep"
    """OSC-R30 / OSC-R57: which trigger (filter) the capturer keeps as a score card."""
    REFILL = "refill"
    """OSC-R36, OSC-R37: the decider plays a card to a refill slot, or discards."""
    TOPUP = "topup"
    """OSC-R40: the decider draws from the pulse deck or the trigger deck."""
    POST = "post"
    """OSC-R42: the current player may place one more trigger."""
    EXCHANGE = "exchange"
    """OSC-R55: the solo player chooses which filter position the stock goes to."""
    OVER = "over"
    """The game has ended."""


class Step(IntEnum):
    """The automatic steps of a set, run by ``_run`` until a decision is pending (an ``IntEnum``: hot path)."""

    WAIT = 0
    """A decision is pending (or the game is over): stop."""
    SET_BEGIN = 1
    """OSC-R9 step 1 / OSC-R54 step 1: the trigger set, or the solo exchange."""
    SHIFT = 2
    """OSC-R22: the shift, then the capture test (OSC-R28, OSC-R56)."""
    CAPTURE_KEEP = 3
    """OSC-R30 / OSC-R57: the capture, asking which trigger to keep when there is a choice."""
    REFILL_BEGIN = 4
    """OSC-R36: a refill step begins."""
    REFILL_NEXT = 5
    """OSC-R36, OSC-R46: the next player to play in the refill."""
    TOPUP_NEXT = 6
    """OSC-R40: the next hand to top up."""
    POST_BEGIN = 7
    """OSC-R42: the optional post-refill placement."""
    SET_END = 8
    """The set is over (OSC-R64's count), the turn passes."""


# Module-level aliases (Final: compiled code reads them without a lookup).
STEP_WAIT: Final = Step.WAIT
STEP_SET_BEGIN: Final = Step.SET_BEGIN
STEP_SHIFT: Final = Step.SHIFT
STEP_CAPTURE_KEEP: Final = Step.CAPTURE_KEEP
STEP_REFILL_BEGIN: Final = Step.REFILL_BEGIN
STEP_REFILL_NEXT: Final = Step.REFILL_NEXT
STEP_TOPUP_NEXT: Final = Step.TOPUP_NEXT
STEP_POST_BEGIN: Final = Step.POST_BEGIN
STEP_SET_END: Final = Step.SET_END


_TOKEN_LISTS: Final = tuple([t] for t in TOKENS)


def counts_to_tokens(counts: Sequence[int]) -> list[str]:
    """A hand or pile (counts per kind) as card tokens in card order."""
    out: list[str] = []
    for k in range(8):
        n = counts[k]
        if n:
            out += _TOKEN_LISTS[k] * n
    return out
