"""Oscilloscope's compact event codes: every layout declared once, with encode and decode.

Nearly every kind of event (draws, refills, a set's start, placements, discards, shifts, captures,
the noise count, one-seat notices: 96% of a random game's events) is logged as one int. A code's kind
is its low three bits (a notice's sub-kind is bits 6-7); every code holds its move (its action's
index in ``history``) plus one from bit 32 on (a capture only bits 32-47), so the setup's codes say
``SETUP_MOVE``. A value out of a code's range is
logged as a row. ``CODEC`` holds the layouts; the state encodes with the shifts below, computed from
them, and ``event_row`` turns a code into the row the event log keeps. The lab's fact reader reads the
codes through the same constants.

>>> CODEC.describe().splitlines()  # doctest: +NORMALIZE_WHITESPACE
['capture: tag 0 of 0b111; player:3-5 position:6-8 kept:9-12(+1) clears:13-15 emptied:16-21 move:32-47(+1) cards:48-71(6x4)(+1) discards:72-74 discarded:75-95(7x3)',
 'draw_pulse: tag 1 of 0b111; player:3-5 card:6-15 move:32+(+1)',
 'draw_trigger: tag 2 of 0b111; player:3-5 card:6-15 move:32+(+1)',
 'refill: tag 3 of 0b111; player:3-5 card:6-15 train:16-18 out:19-20 move:32+(+1)',
 'turn: tag 4 of 0b111; player:3-5 set:6-15 move:32+(+1)',
 'no_trigger: tag 5 of 0b11000111; player:3-5 move:32+(+1)',
 'early_end: tag 69 of 0b11000111; player:3-5 move:32+(+1)',
 'shift: tag 133 of 0b11000111; trains:8-31(6x4) move:32+(+1)',
 'noise: tag 197 of 0b11000111; count:8-19 limit:20-31 move:32+(+1)',
 'discard: tag 6 of 0b111; player:3-5 card:6-15 move:32+(+1)',
 'place: tag 7 of 0b111; player:3-5 card:6-8 discarded:9-14(2x3) train:16-18 discards:19-20 slot:21-23 step:24-26 result:27-28 move:32+(+1)']
>>> CODEC.decode(CODEC.encode("refill", player=2, card=1, train=3, out=1, move=40))
('refill', {'player': 2, 'card': 1, 'train': 3, 'out': 1, 'move': 40})
"""

from __future__ import annotations

from typing import Any, Final

from cardtable.core.events import Codec, Field, Layout

from .cards import LEVEL_SYMBOLS, TOKENS, TRAIN_LETTERS
from .events import OscilloscopeEvent as E
from .vocab import PLACE_RESULTS

assert len(TOKENS) <= 8, "a placement's and a capture's codes give a card three bits"

KIND_MASK: Final = 7
"""The bits of a code's kind."""
NOTICE_MASK: Final = KIND_MASK | 3 << 6
"""The bits of a notice's kind and sub-kind."""
NOTICE_AT: Final = 6
"""Where a notice's sub-kind starts."""

_PLAYER: Final = Field("player", 3, 3)
_MOVE: Final = Field("move", 32, 0, 1)
"""The action's index in ``history`` (``SETUP_MOVE`` for the setup's codes), stored plus one."""
_CARD: Final = Field("card", 6, 10)

CAPTURE: Final = Layout("capture", 0, KIND_MASK, (
    _PLAYER, Field("position", 6, 3), Field("kept", 9, 4, 1), Field("clears", 13, 3), Field("emptied", 16, 6),
    Field("move", 32, 16, 1), Field("cards", 48, 4, 1, 6), Field("discards", 72, 3), Field("discarded", 75, 3, 0, 7)))
"""``player`` captures ``position`` (1-based), keeping trigger ``kept`` (-1: none), scoring ``clears``
clears, emptying the filters of the trains in the mask ``emptied``; ``cards`` are the captured cards in
train order (-1: none), ``discarded`` the first ``discards`` cards discarded (OSC-R29, R30)."""
DRAW_PULSE: Final = Layout("draw_pulse", 1, KIND_MASK, (_PLAYER, _CARD, _MOVE))
"""``player`` draws ``card`` from the pulse deck (seen by its drawer only)."""
DRAW_TRIGGER: Final = Layout("draw_trigger", 2, KIND_MASK, (_PLAYER, _CARD, _MOVE))
"""``player`` draws ``card`` from the trigger deck (seen by its drawer only)."""
REFILL: Final = Layout("refill", 3, KIND_MASK, (_PLAYER, _CARD, Field("train", 16, 3), Field("out", 19, 2), _MOVE))
"""``player`` refills ``train`` with ``card``, out level ``out`` (OSC-R37)."""
TURN: Final = Layout("turn", 4, KIND_MASK, (_PLAYER, Field("set", 6, 10), _MOVE))
"""Set ``set`` starts with ``player`` (sets below 1024)."""
NO_TRIGGER: Final = Layout("no_trigger", 5, NOTICE_MASK, (_PLAYER, _MOVE))
"""``player`` has no trigger to place."""
EARLY_END: Final = Layout("early_end", 5 | 1 << 6, NOTICE_MASK, (_PLAYER, _MOVE))
"""``player``'s set ends early (OSC-R10)."""
SHIFT: Final = Layout("shift", 5 | 2 << 6, NOTICE_MASK, (Field("trains", 8, 4, 0, 6), _MOVE))
"""The trains shift: per train, 0 nothing happens to it, 1 + card its first card is pushed off (no
trigger riding on it), ``SHIFT_CLOSES`` a gap closes."""
NOISE: Final = Layout("noise", 5 | 3 << 6, NOTICE_MASK, (Field("count", 8, 12), Field("limit", 20, 12), _MOVE))
"""The noise count changed to ``count`` (of ``limit``)."""
DISCARD: Final = Layout("discard", 6, KIND_MASK, (_PLAYER, _CARD, _MOVE))
"""``player`` discards ``card`` (OSC-R37)."""
PLACE: Final = Layout("place", 7, KIND_MASK, (
    _PLAYER, Field("card", 6, 3), Field("discarded", 9, 3, 0, 2), Field("train", 16, 3), Field("discards", 19, 2),
    Field("slot", 21, 3), Field("step", 24, 3), Field("result", 27, 2), _MOVE))
"""``player`` places trigger ``card`` on ``train``, ``slot``, in ``step``, with the result
``PLACE_RESULTS[result]``, discarding ``discards`` cards (at most two), ``discarded``."""

CODEC: Final = Codec("oscilloscope", (CAPTURE, DRAW_PULSE, DRAW_TRIGGER, REFILL, TURN, NO_TRIGGER, EARLY_END, SHIFT,
                                      NOISE, DISCARD, PLACE))
"""Oscilloscope's codes: every layout, matched in this order."""

# The engine's encoding sites and the readers of whole logs use these, computed from the layouts above.
CODE_CAPTURE: Final = CAPTURE.tag
CODE_DRAW_PULSE: Final = DRAW_PULSE.tag
CODE_DRAW_TRIGGER: Final = DRAW_TRIGGER.tag
CODE_REFILL: Final = REFILL.tag
CODE_TURN: Final = TURN.tag
CODE_NOTICE: Final = NO_TRIGGER.tag
"""The kind every notice shares (its sub-kind tells them apart)."""
CODE_NO_TRIGGER: Final = NO_TRIGGER.tag
CODE_EARLY_END: Final = EARLY_END.tag
CODE_SHIFT: Final = SHIFT.tag
CODE_NOISE: Final = NOISE.tag
CODE_DISCARD: Final = DISCARD.tag
CODE_PLACE: Final = PLACE.tag
NOTICE_NO_TRIGGER: Final = NO_TRIGGER.tag >> NOTICE_AT
NOTICE_EARLY_END: Final = EARLY_END.tag >> NOTICE_AT
NOTICE_SHIFT: Final = SHIFT.tag >> NOTICE_AT
NOTICE_NOISE: Final = NOISE.tag >> NOTICE_AT
PLAYER_AT: Final = _PLAYER.shift
PLAYER_MASK: Final = _PLAYER.mask
MOVE_AT: Final = _MOVE.shift
CARD_AT: Final = _CARD.shift
"""Where a draw's, refill's, discard's and placement's card starts."""
CARD_MASK: Final = _CARD.mask
SET_AT: Final = TURN.field("set").shift
SET_MASK: Final = TURN.field("set").mask
SET_LIMIT: Final = SET_MASK
"""The sets a turn's code holds (a later one is logged as a row)."""
TRAIN_AT: Final = REFILL.field("train").shift
TRAIN_MASK: Final = REFILL.field("train").mask
OUT_AT: Final = REFILL.field("out").shift
OUT_MASK: Final = REFILL.field("out").mask
SHIFT_TRAINS_AT: Final = SHIFT.field("trains").shift
SHIFT_TRAIN_BITS: Final = SHIFT.field("trains").width
SHIFT_TRAIN_MASK: Final = SHIFT.field("trains").mask
SHIFT_CLOSES: Final = SHIFT_TRAIN_MASK
"""A shift's train value for a gap that closes."""
NOISE_COUNT_AT: Final = NOISE.field("count").shift
NOISE_LIMIT_AT: Final = NOISE.field("limit").shift
NOISE_VALUE_MASK: Final = NOISE.field("count").mask
NOISE_VALUE_LIMIT: Final = NOISE_VALUE_MASK + 1
"""The counts and limits a noise code holds."""
PLACE_CARD_MASK: Final = PLACE.field("card").mask
PLACE_DISCARDED_AT: Final = PLACE.field("discarded").shift
PLACE_DISCARDED_BITS: Final = PLACE.field("discarded").width
PLACE_DISCARDED_MASK: Final = PLACE.field("discarded").mask
PLACE_DISCARDS_LIMIT: Final = PLACE.field("discarded").slots
PLACE_DISCARDS_AT: Final = PLACE.field("discards").shift
PLACE_DISCARDS_MASK: Final = PLACE.field("discards").mask
PLACE_TRAIN_AT: Final = PLACE.field("train").shift
PLACE_SLOT_AT: Final = PLACE.field("slot").shift
PLACE_SLOT_MASK: Final = PLACE.field("slot").mask
PLACE_STEP_AT: Final = PLACE.field("step").shift
PLACE_STEP_MASK: Final = PLACE.field("step").mask
PLACE_STEP_LIMIT: Final = PLACE_STEP_MASK + 1
PLACE_RESULT_AT: Final = PLACE.field("result").shift
PLACE_RESULT_MASK: Final = PLACE.field("result").mask
CAPTURE_POSITION_AT: Final = CAPTURE.field("position").shift
CAPTURE_POSITION_MASK: Final = CAPTURE.field("position").mask
CAPTURE_KEPT_AT: Final = CAPTURE.field("kept").shift
CAPTURE_KEPT_MASK: Final = CAPTURE.field("kept").mask
CAPTURE_CLEARS_AT: Final = CAPTURE.field("clears").shift
CAPTURE_CLEARS_MASK: Final = CAPTURE.field("clears").mask
CAPTURE_CLEARS_LIMIT: Final = CAPTURE_CLEARS_MASK
CAPTURE_EMPTIED_AT: Final = CAPTURE.field("emptied").shift
CAPTURE_MOVE_MASK: Final = CAPTURE.field("move").mask
CAPTURE_MOVE_LIMIT: Final = CAPTURE_MOVE_MASK + 1
CAPTURE_CARDS_AT: Final = CAPTURE.field("cards").shift
CAPTURE_CARD_BITS: Final = CAPTURE.field("cards").width
CAPTURE_CARD_MASK: Final = CAPTURE.field("cards").mask
CAPTURE_CARDS_MASK: Final = (1 << CAPTURE_CARD_BITS * CAPTURE.field("cards").slots) - 1
CAPTURE_DISCARDS_AT: Final = CAPTURE.field("discards").shift
CAPTURE_DISCARDS_MASK: Final = CAPTURE.field("discards").mask
CAPTURE_DISCARDS_LIMIT: Final = CAPTURE.field("discarded").slots
CAPTURE_DISCARDED_AT: Final = CAPTURE.field("discarded").shift - CAPTURE_DISCARDS_AT
"""Where the discarded cards start in a capture's tail (the code from ``CAPTURE_DISCARDS_AT`` on)."""
CAPTURE_DISCARDED_BITS: Final = CAPTURE.field("discarded").width
CAPTURE_DISCARDED_MASK: Final = CAPTURE.field("discarded").mask

# Event kinds and parts of the rows a code becomes, made once (an event's parts are read-only).
EV_CAPTURE: Final = E.CAPTURE
EV_DISCARD: Final = E.DISCARD
EV_DRAW: Final = E.DRAW
EV_NOISE: Final = E.NOISE
EV_PLACE: Final = E.PLACE
EV_REFILL: Final = E.REFILL
EV_SHIFT: Final = E.SHIFT
EV_TURN: Final = E.TURN
NOTICES: Final = (E.NO_TRIGGER, E.EARLY_END, E.SHIFT, E.NOISE)
"""The event of each notice sub-kind."""
SEAT_TO: Final = tuple((p,) for p in range(6))  # up to max_players = 6 (OSC-I51)
PULSE_DRAW: Final = tuple({"player": p, "deck": "pulse"} for p in range(6))
TRIGGER_DRAW: Final = tuple({"player": p, "deck": "trigger"} for p in range(6))
CARD_SECRET: Final = tuple({"card": t} for t in TOKENS)


def event_row(code: int, ntrains: int, nfilters: int) -> tuple[Any, ...]:
    """The ``(kind, public, secret, to, move)`` row of a code in a game of ``ntrains`` trains and ``nfilters`` filters."""
    kind = code & KIND_MASK
    player = code >> PLAYER_AT & PLAYER_MASK
    a = code >> CARD_AT & CARD_MASK
    move = (code >> MOVE_AT) - 1
    if kind == CODE_DRAW_PULSE:
        return (EV_DRAW, PULSE_DRAW[player], CARD_SECRET[a], SEAT_TO[player], move)
    if kind == CODE_DRAW_TRIGGER:
        return (EV_DRAW, TRIGGER_DRAW[player], CARD_SECRET[a], SEAT_TO[player], move)
    if kind == CODE_REFILL:
        return (EV_REFILL, {"player": player, "train": TRAIN_LETTERS[code >> TRAIN_AT & TRAIN_MASK], "card": TOKENS[a],
                            "out": LEVEL_SYMBOLS[code >> OUT_AT & OUT_MASK]}, None, (), move)
    if kind == CODE_TURN:
        return (EV_TURN, {"player": player, "set": code >> SET_AT & SET_MASK}, None, (), move)
    if kind == CODE_CAPTURE:
        return _capture_row(code, ntrains, nfilters)
    if kind == CODE_NOTICE:
        notice = code >> NOTICE_AT & 3
        if notice == NOTICE_NOISE:
            return (EV_NOISE, {"count": code >> NOISE_COUNT_AT & NOISE_VALUE_MASK,
                               "limit": code >> NOISE_LIMIT_AT & NOISE_VALUE_MASK}, None, (), move)
        if notice != NOTICE_SHIFT:
            return (NOTICES[notice], {"player": player}, None, (), move)
        dropped: list[dict[str, str | None]] = []
        closed: list[str] = []
        for c in range(ntrains):
            part = code >> (SHIFT_TRAINS_AT + SHIFT_TRAIN_BITS * c) & SHIFT_TRAIN_MASK
            if part == SHIFT_CLOSES:
                closed.append(TRAIN_LETTERS[c])
            elif part:
                dropped.append({"train": TRAIN_LETTERS[c], "card": TOKENS[part - 1], "trigger": None})
        return (EV_SHIFT, {"dropped": dropped, "closed": closed}, None, (), move)
    if kind == CODE_DISCARD:
        return (EV_DISCARD, {"player": player, "card": TOKENS[a]}, None, (), move)
    discards = [TOKENS[code >> (PLACE_DISCARDED_AT + PLACE_DISCARDED_BITS * i) & PLACE_DISCARDED_MASK]
                for i in range(code >> PLACE_DISCARDS_AT & PLACE_DISCARDS_MASK)]
    return (EV_PLACE, {"player": player, "card": TOKENS[a & PLACE_CARD_MASK],
                       "at": f"{TRAIN_LETTERS[code >> PLACE_TRAIN_AT & TRAIN_MASK]}{(code >> PLACE_SLOT_AT & PLACE_SLOT_MASK) + 1}",
                       "step": code >> PLACE_STEP_AT & PLACE_STEP_MASK,
                       "result": PLACE_RESULTS[code >> PLACE_RESULT_AT & PLACE_RESULT_MASK], "discarded": discards},
            None, (), move)


def _capture_row(code: int, ntrains: int, nfilters: int) -> tuple[Any, ...]:
    """The row of a ``CAPTURE`` code."""
    cards = code >> CAPTURE_CARDS_AT & CAPTURE_CARDS_MASK
    taken = [{"train": TRAIN_LETTERS[c], "card": TOKENS[(cards >> (CAPTURE_CARD_BITS * c) & CAPTURE_CARD_MASK) - 1]}
             for c in range(ntrains) if cards >> (CAPTURE_CARD_BITS * c) & CAPTURE_CARD_MASK]
    kept = code >> CAPTURE_KEPT_AT & CAPTURE_KEPT_MASK
    tail = code >> CAPTURE_DISCARDS_AT
    discarded = [TOKENS[tail >> (CAPTURE_DISCARDED_AT + CAPTURE_DISCARDED_BITS * i) & CAPTURE_DISCARDED_MASK]
                 for i in range(tail & CAPTURE_DISCARDS_MASK)]
    emptied = [TRAIN_LETTERS[c] for c in range(nfilters) if code >> (CAPTURE_EMPTIED_AT + c) & 1]
    return (EV_CAPTURE, {"player": code >> PLAYER_AT & PLAYER_MASK,
                         "position": code >> CAPTURE_POSITION_AT & CAPTURE_POSITION_MASK, "cards": taken,
                         "kept": TOKENS[kept - 1] if kept else None,
                         "clears": ["CLEAR"] * (code >> CAPTURE_CLEARS_AT & CAPTURE_CLEARS_MASK),
                         "discarded": discarded, "emptied": emptied}, None, (), (code >> MOVE_AT & CAPTURE_MOVE_MASK) - 1)
