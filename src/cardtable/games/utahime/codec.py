"""Utahime's compact event codes: every layout declared once, with encode and decode.

While recording, nearly every event (all but looks, wishes, the deal and the setup, jokers,
reactions and the game's end) is logged as one int. A code's kind is bits 0-3, its seat bit 4, and
its move (the action's index in ``history``) plus one is from bit 40 on (the setup's say
``SETUP_MOVE``); a value out of a code's range is
logged as a row instead. A card is its index in ``TOKENS`` (seven bits). ``CODEC`` holds the
layouts; the state encodes with the shifts below, computed from them, and ``event_row`` turns a code
into the row the event log keeps. The lab's fact reader reads the codes through the same constants.

>>> CODEC.describe().splitlines()  # doctest: +NORMALIZE_WHITESPACE
['turn: tag 1 of 0b1111; seat:4-4 rescue:5-5 turn:6-39 move:40+(+1)',
 'energy: tag 2 of 0b1111; seat:4-4 change:6-17(+2048) energy:18-39 move:40+(+1)',
 'notice: tag 3 of 0b1111; seat:4-4 notice:6-8 move:40+(+1)',
 'pass: tag 4 of 0b1111; seat:4-4 token:6-12 move:40+(+1)',
 'attack: tag 5 of 0b1111; seat:4-4 token:6-12 next:13-13 bans:14-17 move:40+(+1)',
 'effect: tag 6 of 0b1111; seat:4-4 kind:6-7 value:8-17(+512) turn:18-39 move:40+(+1)',
 'block: tag 7 of 0b1111; seat:4-4 token:6-12 face_up:13-13 move:40+(+1)',
 'cosmic: tag 8 of 0b1111; seat:4-4 token:6-12 move:40+(+1)',
 'draw: tag 9 of 0b1111; seat:4-4 count:6-8 tokens:9-29(3x7) move:40+(+1)',
 'reveal: tag 10 of 0b1111; seat:4-4 count:6-7 tokens:9-29(3x7) move:40+(+1)',
 'pick: tag 11 of 0b1111; seat:4-4 token:6-12 count:13-14 others:15-28(2x7) move:40+(+1)',
 'heart_next: tag 12 of 0b1111; seat:4-4 played:5-5 token:6-12 watched:13-13 move:40+(+1)',
 'set: tag 13 of 0b1111; seat:4-4 token:6-12 watched:13-13 turn:14-39 move:40+(+1)',
 'take: tag 14 of 0b1111; seat:4-4 face_up:5-5 token:6-12 pile:13-13 first:14-14 move:40+(+1)']
>>> CODEC.decode(CODEC.encode("energy", seat=1, change=-2, energy=3, move=9))
('energy', {'seat': 1, 'change': -2, 'energy': 3, 'move': 9})
"""

from __future__ import annotations

from typing import Any, Final

from cardtable.core.events import Codec, Field, Layout

from .cards import SUIT_LETTERS
from .events import UtahimeEvent as E
from .vocab import BAN, BANS, EFFECT_KINDS, TOKENS

KIND_MASK: Final = 15
"""The bits of a code's kind."""

_SEAT: Final = Field("seat", 4, 1)
_MOVE: Final = Field("move", 40, 0, 1)
"""The action's index in ``history`` (``SETUP_MOVE`` for the setup's codes), stored plus one."""
_TOKEN: Final = Field("token", 6, 7)

TURN: Final = Layout("turn", 1, KIND_MASK, (_SEAT, Field("rescue", 5, 1), Field("turn", 6, 34), _MOVE))
"""``turn`` starts for ``seat`` (a rescue turn if ``rescue``)."""
ENERGY: Final = Layout("energy", 2, KIND_MASK, (_SEAT, Field("change", 6, 12, 2048), Field("energy", 18, 22), _MOVE))
"""``seat``'s energy changes by ``change`` to ``energy``."""
NOTICE: Final = Layout("notice", 3, KIND_MASK, (_SEAT, Field("notice", 6, 3), _MOVE))
"""The event ``NOTICES[notice]`` of ``seat`` (its only field is the seat)."""
PASS: Final = Layout("pass", 4, KIND_MASK, (_SEAT, _TOKEN, _MOVE))
"""``seat`` passes with ``TOKENS[token]``."""
ATTACK: Final = Layout("attack", 5, KIND_MASK, (_SEAT, _TOKEN, Field("next", 13, 1), Field("bans", 14, 4), _MOVE))
"""An attack with ``TOKENS[token]``, declaring NEXT or not, banning the suits ``BANS[bans]``."""
EFFECT: Final = Layout("effect", 6, KIND_MASK, (
    _SEAT, Field("kind", 6, 2), Field("value", 8, 10, 512), Field("turn", 18, 22), _MOVE))
"""A modifier or ban (``EFFECT_KINDS[kind]``; ``value`` a suit or half points) registered for ``seat``'s ``turn``."""
BLOCK: Final = Layout("block", 7, KIND_MASK, (_SEAT, _TOKEN, Field("face_up", 13, 1), _MOVE))
"""``seat`` blocks with ``TOKENS[token]``."""
COSMIC: Final = Layout("cosmic", 8, KIND_MASK, (_SEAT, _TOKEN, _MOVE))
"""``seat`` takes the cosmic card ``TOKENS[token]``."""
DRAW: Final = Layout("draw", 9, KIND_MASK, (_SEAT, Field("count", 6, 3), Field("tokens", 9, 7, 0, 3), _MOVE))
"""``seat`` draws ``count`` cards (at most three), ``tokens``, seen by ``seat`` only."""
REVEAL: Final = Layout("reveal", 10, KIND_MASK, (_SEAT, Field("count", 6, 2), Field("tokens", 9, 7, 0, 3), _MOVE))
"""♥NEXT shows ``count`` cards (at most three), ``tokens``, from the top of ``seat``'s deck."""
PICK: Final = Layout("pick", 11, KIND_MASK, (_SEAT, _TOKEN, Field("count", 13, 2), Field("others", 15, 7, 0, 2), _MOVE))
"""``seat`` picks the shown card ``token``; ``count`` (at most two) ``others`` go face down."""
HEART_NEXT: Final = Layout("heart_next", 12, KIND_MASK, (
    _SEAT, Field("played", 5, 1), _TOKEN, Field("watched", 13, 1), _MOVE))
"""♥NEXT with a heart from the hand (seen by ``seat``, and by the other seat when ``watched``) or,
``played``, the attack's own card."""
SET: Final = Layout("set", 13, KIND_MASK, (_SEAT, _TOKEN, Field("watched", 13, 1), Field("turn", 14, 26), _MOVE))
"""``seat`` sets a J/Q/K face down in ``turn`` (seen by ``seat``, and by the other seat when ``watched``)."""
TAKE: Final = Layout("take", 14, KIND_MASK, (
    _SEAT, Field("face_up", 5, 1), _TOKEN, Field("pile", 13, 1), Field("first", 14, 1), _MOVE))
"""``seat`` sends ``TOKENS[token]`` from the other seat's hand to the discard pile of seat ``pile``
(face down: seen by both seats only; ``first``: to the bottom of the pile, ♦NEXT)."""

CODEC: Final = Codec("utahime", (TURN, ENERGY, NOTICE, PASS, ATTACK, EFFECT, BLOCK, COSMIC, DRAW, REVEAL, PICK,
                                 HEART_NEXT, SET, TAKE))
"""Utahime's codes: every layout, matched in this order."""

# The engine's encoding sites and the readers of whole logs use these, computed from the layouts above.
CODE_TURN: Final = TURN.tag
CODE_ENERGY: Final = ENERGY.tag
CODE_NOTICE: Final = NOTICE.tag
CODE_PASS: Final = PASS.tag
CODE_ATTACK: Final = ATTACK.tag
CODE_EFFECT: Final = EFFECT.tag
CODE_BLOCK: Final = BLOCK.tag
CODE_COSMIC: Final = COSMIC.tag
CODE_DRAW: Final = DRAW.tag
CODE_REVEAL: Final = REVEAL.tag
CODE_PICK: Final = PICK.tag
CODE_HEART_NEXT: Final = HEART_NEXT.tag
CODE_SET: Final = SET.tag
CODE_TAKE: Final = TAKE.tag
SEAT_AT: Final = _SEAT.shift
MOVE_AT: Final = _MOVE.shift
TOKEN_AT: Final = _TOKEN.shift
"""Where a code's card (its token) starts."""
TOKEN_MASK: Final = _TOKEN.mask
TOKEN_BITS: Final = _TOKEN.width
TURN_RESCUE: Final = TURN.field("rescue").put(1)
TURN_AT: Final = TURN.field("turn").shift
TURN_MASK: Final = TURN.field("turn").mask
ENERGY_BIAS: Final = ENERGY.field("change").bias
"""Added to an energy change so that it codes as a non-negative number."""
ENERGY_CHANGE_AT: Final = ENERGY.field("change").shift
ENERGY_CHANGE_MASK: Final = ENERGY.field("change").mask
ENERGY_AT: Final = ENERGY.field("energy").shift
ENERGY_MASK: Final = ENERGY.field("energy").mask
NOTICE_AT: Final = NOTICE.field("notice").shift
NOTICE_MASK: Final = NOTICE.field("notice").mask
ATTACK_NEXT: Final = ATTACK.field("next").put(1)
ATTACK_NEXT_AT: Final = ATTACK.field("next").shift
ATTACK_BANS_AT: Final = ATTACK.field("bans").shift
ATTACK_BANS_MASK: Final = ATTACK.field("bans").mask
EFFECT_BIAS: Final = EFFECT.field("value").bias
"""Added to an effect's value (a suit, or half points) so that it codes as a non-negative number."""
EFFECT_KIND_AT: Final = EFFECT.field("kind").shift
EFFECT_KIND_MASK: Final = EFFECT.field("kind").mask
EFFECT_VALUE_AT: Final = EFFECT.field("value").shift
EFFECT_VALUE_MASK: Final = EFFECT.field("value").mask
EFFECT_VALUE_LIMIT: Final = EFFECT_VALUE_MASK + 1
EFFECT_TURN_AT: Final = EFFECT.field("turn").shift
EFFECT_TURN_MASK: Final = EFFECT.field("turn").mask
EFFECT_TURN_LIMIT: Final = EFFECT_TURN_MASK + 1
BLOCK_FACE_UP: Final = BLOCK.field("face_up").put(1)
BLOCK_FACE_UP_AT: Final = BLOCK.field("face_up").shift
DRAW_COUNT_AT: Final = DRAW.field("count").shift
DRAW_COUNT_MASK: Final = DRAW.field("count").mask
DRAW_TOKENS_AT: Final = DRAW.field("tokens").shift
DRAW_LIMIT: Final = DRAW.field("tokens").slots
"""The cards a draw's (and a reveal's) code holds (more are logged as a row)."""
REVEAL_COUNT_MASK: Final = REVEAL.field("count").mask
PICK_COUNT_AT: Final = PICK.field("count").shift
PICK_COUNT_MASK: Final = PICK.field("count").mask
PICK_OTHERS_AT: Final = PICK.field("others").shift
PICK_LIMIT: Final = PICK.field("others").slots
"""The face-down cards a pick's code holds (more are logged as a row)."""
HEART_NEXT_PLAYED: Final = HEART_NEXT.field("played").put(1)
WATCHED: Final = HEART_NEXT.field("watched").put(1)
"""A ♥NEXT's or a set's card is seen by the other seat too."""
WATCHED_AT: Final = HEART_NEXT.field("watched").shift
SET_TURN_AT: Final = SET.field("turn").shift
SET_TURN_MASK: Final = SET.field("turn").mask
TAKE_FACE_UP: Final = TAKE.field("face_up").put(1)
TAKE_PILE_AT: Final = TAKE.field("pile").shift
TAKE_FIRST: Final = TAKE.field("first").put(1)
assert SET.field("watched") == HEART_NEXT.field("watched"), "the watched bit is the same in both codes"
assert len(TOKENS) <= TOKEN_MASK + 1, "a code gives a card seven bits"

# Event kinds and parts of the rows a code becomes, made once (an event's parts are read-only).
EV_ATTACK: Final = E.ATTACK
EV_BLOCK: Final = E.BLOCK
EV_COSMIC: Final = E.COSMIC
EV_DRAW: Final = E.DRAW
EV_EFFECT: Final = E.EFFECT
EV_ENERGY: Final = E.ENERGY
EV_HEART_NEXT: Final = E.HEART_NEXT
EV_PASS: Final = E.PASS
EV_PICK: Final = E.PICK
EV_REVEAL: Final = E.REVEAL
EV_SET: Final = E.SET
EV_TAKE: Final = E.TAKE
EV_TURN: Final = E.TURN
NOTICES: Final = (E.END_WINDOW, E.SUCCESS, E.NO_BLOCK, E.NO_REACT, E.STALL, E.NO_COSMIC)
"""The events whose only field is the seat (``{"player": seat}``), coded as ``NOTICE``, by ``notice``."""
NOTICE_END_WINDOW: Final = 0
NOTICE_SUCCESS: Final = 1
NOTICE_NO_BLOCK: Final = 2
NOTICE_NO_REACT: Final = 3
NOTICE_STALL: Final = 4
NOTICE_NO_COSMIC: Final = 5
SEAT_TO: Final = ((0,), (1,))
"""The recipients of each seat's secret."""


def event_row(code: int) -> tuple[Any, ...]:
    """The ``(kind, public, secret, to, move)`` row of a code (ValueError if it is none)."""
    kind = code & KIND_MASK
    seat = code >> SEAT_AT & 1
    move = (code >> MOVE_AT) - 1
    if kind == CODE_TURN:
        return (EV_TURN, {"turn": code >> TURN_AT & TURN_MASK, "player": seat, "rescue": bool(code & TURN_RESCUE)},
                None, (), move)
    if kind == CODE_ENERGY:
        return (EV_ENERGY, {"player": seat, "change": (code >> ENERGY_CHANGE_AT & ENERGY_CHANGE_MASK) - ENERGY_BIAS,
                            "energy": code >> ENERGY_AT & ENERGY_MASK}, None, (), move)
    if kind == CODE_NOTICE:
        return (NOTICES[code >> NOTICE_AT & NOTICE_MASK], {"player": seat}, None, (), move)
    tok = code >> TOKEN_AT & TOKEN_MASK
    if kind == CODE_PASS:
        return (EV_PASS, {"player": seat, "card": TOKENS[tok]}, None, (), move)
    if kind == CODE_ATTACK:
        return (EV_ATTACK, {"player": seat, "card": TOKENS[tok], "next": bool(code >> ATTACK_NEXT_AT & 1),
                            "bans": BANS[code >> ATTACK_BANS_AT & ATTACK_BANS_MASK]}, None, (), move)
    if kind == CODE_EFFECT:
        effect = code >> EFFECT_KIND_AT & EFFECT_KIND_MASK
        value = (code >> EFFECT_VALUE_AT & EFFECT_VALUE_MASK) - EFFECT_BIAS
        public: dict[str, Any] = {"player": seat, "turn": code >> EFFECT_TURN_AT & EFFECT_TURN_MASK,
                                  "effect": EFFECT_KINDS[effect]}
        if effect == BAN:
            public["suit"] = SUIT_LETTERS[value]
        else:
            public["half_points"] = value
        return (EV_EFFECT, public, None, (), move)
    if kind == CODE_BLOCK:
        return (EV_BLOCK, {"player": seat, "card": TOKENS[tok], "face_up": bool(code >> BLOCK_FACE_UP_AT & 1)}, None,
                (), move)
    if kind == CODE_COSMIC:
        return (EV_COSMIC, {"player": seat, "card": TOKENS[tok]}, None, (), move)
    if kind == CODE_DRAW:
        count = code >> DRAW_COUNT_AT & DRAW_COUNT_MASK
        secret = {"cards": _tokens(code, DRAW_TOKENS_AT, count)} if count else None
        return (EV_DRAW, {"player": seat, "count": count}, secret, SEAT_TO[seat], move)
    if kind == CODE_REVEAL:
        return (EV_REVEAL, {"player": seat, "cards": _tokens(code, DRAW_TOKENS_AT, code >> DRAW_COUNT_AT & REVEAL_COUNT_MASK)},
                None, (), move)
    if kind == CODE_PICK:
        others = _tokens(code, PICK_OTHERS_AT, code >> PICK_COUNT_AT & PICK_COUNT_MASK)
        return (EV_PICK, {"player": seat, "card": TOKENS[tok], "discarded": others}, None, (), move)
    if kind == CODE_HEART_NEXT:
        if code & HEART_NEXT_PLAYED:
            return (EV_HEART_NEXT, {"player": seat, "suit": "H", "card": TOKENS[tok], "source": "played_card"},
                    None, (), move)
        return (EV_HEART_NEXT, {"player": seat, "suit": "H"}, {"card": TOKENS[tok]},
                (seat, 1 - seat) if code >> WATCHED_AT & 1 else SEAT_TO[seat], move)
    if kind == CODE_SET:
        return (EV_SET, {"player": seat, "turn": code >> SET_TURN_AT & SET_TURN_MASK}, {"card": TOKENS[tok]},
                (seat, 1 - seat) if code >> WATCHED_AT & 1 else SEAT_TO[seat], move)
    if kind == CODE_TAKE:
        target = 1 - seat
        if code & TAKE_FACE_UP:
            return (EV_TAKE, {"player": seat, "target": target, "face_up": True, "pile": code >> TAKE_PILE_AT & 1,
                              "where": "first" if code & TAKE_FIRST else "last", "card": TOKENS[tok]}, None, (), move)
        return (EV_TAKE, {"player": seat, "target": target, "face_up": False, "pile": target, "where": "last"},
                {"card": TOKENS[tok]}, (seat, target), move)
    raise ValueError(f"not a Utahime event code: {code}")


def _tokens(code: int, at: int, count: int) -> list[str]:
    """The ``count`` cards of a code's token slots from bit ``at``."""
    return [TOKENS[code >> (at + TOKEN_BITS * i) & TOKEN_MASK] for i in range(count)]
