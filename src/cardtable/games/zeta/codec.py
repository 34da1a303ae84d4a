"""Zeta's compact event codes: every layout declared once, with encode and decode.

The engine logs its most frequent events (a turn's start, a draw, a plain placement, a card
destroyed or removed, a pending decision, a Fanfare without effect or negated, a lasting effect:
all but a few of a game's events) as one int each. A code's kind is its low two bits; kind 0 has
four sub-kinds in bits 22-23. Every code holds its move plus one from bit 24 on (``MOVE``; the
state's ``move_base`` is that one during play and 0 while it deals, so the setup's codes say
``SETUP_MOVE`` themselves). ``CODEC`` holds the layouts; the state encodes with the shifts below,
computed from them, and ``event_row`` turns a code into the row the event log keeps. The lab's
fact reader reads the codes through the same constants.

>>> CODEC.describe().splitlines()  # doctest: +NORMALIZE_WHITESPACE
['destroy: tag 0 of 0b110000000000000000000011; owner:2-2 card:3-7 cause:8-12 by:13-13 random:14-14 removed:15-15 square:16-21(+1) move:24+(+1)',
 'decision: tag 4194304 of 0b110000000000000000000011; seat:2-2 phase:3-5 source:6-10 square:11-16 pending:17-17 targets:18-18 move:24-39(+1) mask:40+',
 'card_notice: tag 8388608 of 0b110000000000000000000011; seat:2-2 negated:3-3 card:4-8 square:9-14 move:24-39(+1)',
 'effect: tag 12582912 of 0b110000000000000000000011; seat:2-2 effect:3-4 cause:5-9 turn:10-19 move:24-39(+1)',
 'turn: tag 1 of 0b11; seat:2-2 turn:3-12 move:24+(+1)',
 'draw: tag 2 of 0b11; seat:2-2 card:3-12 cause:13-20(+1) move:24+(+1)',
 'place: tag 3 of 0b11; seat:2-2 card:3-12 square:13-20 move:24+(+1)']
>>> CODEC.decode(CODEC.encode("draw", seat=1, card=4, cause=-1, move=6))
('draw', {'seat': 1, 'card': 4, 'cause': -1, 'move': 6})
"""

from __future__ import annotations

from typing import Any, Final

from cardtable.core.events import Codec, Field, Layout

from .board import Geometry
from .cards import CARDS, NUM_TYPES
from .events import ZetaEvent
from .vocab import EFFECTS, PHASE_NAMES, TURN_DRAW

KIND_MASK: Final = 3
"""The bits of a code's kind."""
SUB_KIND_MASK: Final = KIND_MASK | 3 << 22
"""The bits of kind 0's codes: the kind and the sub-kind."""

_SEAT: Final = Field("seat", 2, 1)
_MOVE: Final = Field("move", 24, 0, 1)
"""The action's index in ``history`` (``SETUP_MOVE`` for the setup's codes), stored plus one."""
_SHORT_MOVE: Final = Field("move", 24, 16, 1)
"""The move of kind 0's sub-kinds 1-3 (a decision's target mask follows it)."""

DESTROY: Final = Layout("destroy", 0, SUB_KIND_MASK, (
    Field("owner", 2, 1), Field("card", 3, 5), Field("cause", 8, 5), Field("by", 13, 1), Field("random", 14, 1),
    Field("removed", 15, 1), Field("square", 16, 6, 1), _MOVE))
"""``owner``'s ``card`` leaves a hand (``square`` -1) or the board for the Destroyed pile, or the Removed
area if ``removed``; ``cause`` is the card whose effect destroys, ``by`` its controller (ZETA-R25, R29)."""
DECISION: Final = Layout("decision", 1 << 22, SUB_KIND_MASK, (
    _SEAT, Field("phase", 3, 3), Field("source", 6, 5), Field("square", 11, 6), Field("pending", 17, 1),
    Field("targets", 18, 1), _SHORT_MOVE, Field("mask", 40)))
"""``seat`` now decides in ``phase``; with ``pending``, for the card ``source`` on ``square`` (Do-Over's card
to destroy, ZETA-R38; Fortune-Telling's, R39), and with ``targets``, among the squares of ``mask`` (a
targeted Fanfare). A Line choice (it lists lines) is logged as a row."""
CARD_NOTICE: Final = Layout("card_notice", 2 << 22, SUB_KIND_MASK, (
    _SEAT, Field("negated", 3, 1), Field("card", 4, 5), Field("square", 9, 6), _SHORT_MOVE))
"""The Fanfare of ``seat``'s ``card`` on ``square`` found nothing to act on, or was ``negated`` (ZETA-R35)."""
EFFECT: Final = Layout("effect", 3 << 22, SUB_KIND_MASK, (
    _SEAT, Field("effect", 3, 2), Field("cause", 5, 5), Field("turn", 10, 10), _SHORT_MOVE))
"""A lasting effect (``effect`` indexes ``EFFECTS``) of the card ``cause`` on ``seat`` for ``turn``."""
TURN: Final = Layout("turn", 1, KIND_MASK, (_SEAT, Field("turn", 3, 10), _MOVE))
"""``turn`` starts for ``seat``. Ten bits hold any turn: every turn but the first draws from a deck of at
most 26 cards, and a turn that starts on an empty deck ends the game (ZETA-R12, R23)."""
DRAW: Final = Layout("draw", 2, KIND_MASK, (_SEAT, Field("card", 3, 10), Field("cause", 13, 8, 1), _MOVE))
"""``seat`` draws ``card``; ``cause`` is the card whose effect draws (``TURN_DRAW``: the turn's draw)."""
PLACE: Final = Layout("place", 3, KIND_MASK, (_SEAT, Field("card", 3, 10), Field("square", 13, 8), _MOVE))
"""A placement that covers nothing, on no vacancy, as the turn's card."""

CODEC: Final = Codec("zeta", (DESTROY, DECISION, CARD_NOTICE, EFFECT, TURN, DRAW, PLACE))
"""Zeta's codes: every layout, matched in this order."""

# The engine's encoding sites and the readers of whole logs use these, computed from the layouts
# above (so the layouts are stated once and the hot path shifts by constants).
CODE_DESTROY: Final = DESTROY.tag
CODE_DECISION: Final = DECISION.tag
CODE_CARD_NOTICE: Final = CARD_NOTICE.tag
CODE_EFFECT: Final = EFFECT.tag
CODE_TURN: Final = TURN.tag
CODE_DRAW: Final = DRAW.tag
CODE_PLACE: Final = PLACE.tag
SUB_KIND_SHIFT: Final = 22
"""Where kind 0's sub-kind starts (``CODE_DECISION >> SUB_KIND_SHIFT`` is 1)."""
SEAT_AT: Final = _SEAT.shift
"""Where every code's seat (a destroy's owner) starts."""
MOVE_AT: Final = _MOVE.shift
"""Where every code's move starts."""
SHORT_MOVE_LIMIT: Final = _SHORT_MOVE.mask
"""The moves that a decision, a notice and an effect hold (a later one is logged as a row)."""
TURN_TURN_AT: Final = TURN.field("turn").shift
TURN_MASK: Final = TURN.field("turn").mask
DRAW_CARD_AT: Final = DRAW.field("card").shift
DRAW_CARD_MASK: Final = DRAW.field("card").mask
DRAW_CAUSE_AT: Final = DRAW.field("cause").shift
DRAW_CAUSE_MASK: Final = DRAW.field("cause").mask
PLACE_CARD_AT: Final = PLACE.field("card").shift
PLACE_CARD_MASK: Final = PLACE.field("card").mask
PLACE_SQUARE_AT: Final = PLACE.field("square").shift
PLACE_SQUARE_MASK: Final = PLACE.field("square").mask
DESTROY_CARD_AT: Final = DESTROY.field("card").shift
DESTROY_CARD_MASK: Final = DESTROY.field("card").mask
DESTROY_CAUSE_AT: Final = DESTROY.field("cause").shift
DESTROY_CAUSE_MASK: Final = DESTROY.field("cause").mask
DESTROY_BY_AT: Final = DESTROY.field("by").shift
DESTROY_RANDOM: Final = DESTROY.field("random").put(1)
DESTROY_REMOVED: Final = DESTROY.field("removed").put(1)
DESTROY_REMOVED_AT: Final = DESTROY.field("removed").shift
DESTROY_SQUARE_AT: Final = DESTROY.field("square").shift
DESTROY_SQUARE_MASK: Final = DESTROY.field("square").mask
DECISION_PHASE_AT: Final = DECISION.field("phase").shift
DECISION_PHASE_MASK: Final = DECISION.field("phase").mask
DECISION_SOURCE_AT: Final = DECISION.field("source").shift
DECISION_SOURCE_MASK: Final = DECISION.field("source").mask
DECISION_SQUARE_AT: Final = DECISION.field("square").shift
DECISION_SQUARE_MASK: Final = DECISION.field("square").mask
DECISION_PENDING: Final = DECISION.field("pending").put(1)
DECISION_TARGETS: Final = DECISION.field("targets").put(1)
DECISION_MASK_AT: Final = DECISION.field("mask").shift
NOTICE_NEGATED: Final = CARD_NOTICE.field("negated").put(1)
NOTICE_CARD_AT: Final = CARD_NOTICE.field("card").shift
NOTICE_CARD_MASK: Final = CARD_NOTICE.field("card").mask
NOTICE_SQUARE_AT: Final = CARD_NOTICE.field("square").shift
NOTICE_SQUARE_MASK: Final = CARD_NOTICE.field("square").mask
EFFECT_EFFECT_AT: Final = EFFECT.field("effect").shift
EFFECT_EFFECT_MASK: Final = EFFECT.field("effect").mask
EFFECT_CAUSE_AT: Final = EFFECT.field("cause").shift
EFFECT_CAUSE_MASK: Final = EFFECT.field("cause").mask
EFFECT_TURN_AT: Final = EFFECT.field("turn").shift
EFFECT_TURN_MASK: Final = EFFECT.field("turn").mask
EFFECT_TURN_LIMIT: Final = EFFECT_TURN_MASK + 1
"""The turns an effect's code holds (a later one is logged as a row)."""

EFFECT_CODE: Final = {name: i for i, name in enumerate(EFFECTS)}
"""The ``effect`` field of each lasting effect."""

# Event kinds and parts of the rows a code becomes, made once (an event's parts are read-only).
EV_DECISION: Final = ZetaEvent.DECISION
EV_DESTROY: Final = ZetaEvent.DESTROY
EV_DRAW: Final = ZetaEvent.DRAW
EV_EFFECT: Final = ZetaEvent.EFFECT
EV_NEGATED: Final = ZetaEvent.NEGATED
EV_NO_EFFECT: Final = ZetaEvent.NO_EFFECT
EV_PLACE: Final = ZetaEvent.PLACE
EV_REMOVE: Final = ZetaEvent.REMOVE
EV_TURN: Final = ZetaEvent.TURN
SEAT_TO: Final = ((0,), (1,))
"""The recipients of each seat's secret."""
CARD_SECRET: Final = tuple({"card": card.id} for card in CARDS)
"""The secret part of a draw of each card."""


def cause_id(cause: int) -> str:
    """The ``cause`` of a draw as events name it: ``turn`` or a card id."""
    return "turn" if cause == TURN_DRAW else CARDS[cause].id


DRAW_PUBLIC: Final = tuple({cause: {"player": seat, "cause": cause_id(cause)} for cause in (TURN_DRAW, *range(NUM_TYPES))}
                           for seat in (0, 1))
"""The public part of each seat's draw for each cause (the turn, or the card whose effect draws), made once."""


def event_row(code: int, geo: Geometry) -> tuple[Any, ...]:
    """The ``(kind, public, secret, to, move)`` row of a code on the board ``geo``."""
    kind = code & KIND_MASK
    seat = code >> SEAT_AT & 1
    if kind == 0 and code >> SUB_KIND_SHIFT & 3:
        return _notice_row(code, seat, (code >> MOVE_AT & SHORT_MOVE_LIMIT) - 1, geo)
    move = (code >> MOVE_AT) - 1
    if kind == CODE_DESTROY:
        square = code >> DESTROY_SQUARE_AT & DESTROY_SQUARE_MASK
        return (EV_REMOVE if code >> DESTROY_REMOVED_AT & 1 else EV_DESTROY,
                {"owner": seat, "card": CARDS[code >> DESTROY_CARD_AT & DESTROY_CARD_MASK].id,
                 "zone": "board" if square else "hand", "square": geo.names[square - 1] if square else None,
                 "cause": CARDS[code >> DESTROY_CAUSE_AT & DESTROY_CAUSE_MASK].id,
                 "by": code >> DESTROY_BY_AT & 1, "random": bool(code & DESTROY_RANDOM)}, None, (), move)
    if kind == CODE_TURN:
        return (EV_TURN, {"turn": code >> TURN_TURN_AT & TURN_MASK, "player": seat}, None, (), move)
    if kind == CODE_DRAW:
        return (EV_DRAW, DRAW_PUBLIC[seat][(code >> DRAW_CAUSE_AT & DRAW_CAUSE_MASK) - 1],
                CARD_SECRET[code >> DRAW_CARD_AT & DRAW_CARD_MASK], SEAT_TO[seat], move)
    return (EV_PLACE, {"player": seat, "card": CARDS[code >> PLACE_CARD_AT & PLACE_CARD_MASK].id,
                       "square": geo.names[code >> PLACE_SQUARE_AT & PLACE_SQUARE_MASK], "covers": None,
                       "vacancy": False, "extra": False}, None, (), move)


def _notice_row(code: int, seat: int, move: int, geo: Geometry) -> tuple[Any, ...]:
    """The row of a ``DECISION``, ``CARD_NOTICE`` or ``EFFECT`` code."""
    sub = code >> SUB_KIND_SHIFT & 3
    names = geo.names
    if sub == 1:
        public: dict[str, Any] = {"player": seat, "decision": PHASE_NAMES[code >> DECISION_PHASE_AT & DECISION_PHASE_MASK]}
        if code & DECISION_PENDING:
            public["source"] = CARDS[code >> DECISION_SOURCE_AT & DECISION_SOURCE_MASK].id
            public["square"] = names[code >> DECISION_SQUARE_AT & DECISION_SQUARE_MASK]
            if code & DECISION_TARGETS:
                public["targets"] = [names[q] for q in geo.squares(code >> DECISION_MASK_AT)]
        return (EV_DECISION, public, None, (), move)
    if sub == 2:
        return (EV_NEGATED if code & NOTICE_NEGATED else EV_NO_EFFECT,
                {"player": seat, "card": CARDS[code >> NOTICE_CARD_AT & NOTICE_CARD_MASK].id,
                 "square": names[code >> NOTICE_SQUARE_AT & NOTICE_SQUARE_MASK]}, None, (), move)
    return (EV_EFFECT, {"effect": EFFECTS[code >> EFFECT_EFFECT_AT & EFFECT_EFFECT_MASK], "player": seat,
                        "turn": code >> EFFECT_TURN_AT & EFFECT_TURN_MASK,
                        "cause": CARDS[code >> EFFECT_CAUSE_AT & EFFECT_CAUSE_MASK].id}, None, (), move)
