"""Utahime's vocabulary: phases, modifier kinds, discard flags, memory places and compact event codes.

A leaf: it imports only the card table and the event kinds, so the state, its views and its
position reader all import it and not each other.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from .cards import (
    CARDS_PER_SEAT,
    COSMIC_BASE,
    COSMIC_CARDS,
    JACK,
    NAME,
    RANK,
    SUITS,
    suits_text,
)
from .events import UtahimeEvent as E

EV_END_WINDOW: Final = E.END_WINDOW
EV_NO_BLOCK: Final = E.NO_BLOCK
EV_NO_COSMIC: Final = E.NO_COSMIC
EV_NO_REACT: Final = E.NO_REACT
EV_STALL: Final = E.STALL
EV_SUCCESS: Final = E.SUCCESS

# Compact codes: while recording, nearly every event (all but looks, wishes, the deal and the setup,
# jokers, reactions and the game's end) is logged as one int each and becomes a row when the log
# is read (``_decode_event``). Bits 0-3 name the code, bit 4 the seat, the move (the action's index in
# ``history``) is from ``CODE_MOVE`` on; a value out of a code's range is logged as a row instead.
CODE_TURN: Final = 1
"""``CODE_TURN | seat << 4 | rescue << 5 | turn << 6 | move << CODE_MOVE``: ``turn`` starts for ``seat``."""
CODE_ENERGY: Final = 2
"""``CODE_ENERGY | seat << 4 | (change + ENERGY_BIAS) << 6 | energy << 18 | move << CODE_MOVE``."""
CODE_NOTICE: Final = 3
"""``CODE_NOTICE | seat << 4 | notice << 6 | move << CODE_MOVE``: the event ``NOTICES[notice]`` of ``seat``."""
CODE_PASS: Final = 4
"""``CODE_PASS | seat << 4 | token << 6 | move << CODE_MOVE``: ``seat`` passes with ``TOKENS[token]``."""
CODE_ATTACK: Final = 5
"""``CODE_ATTACK | seat << 4 | token << 6 | next << 13 | bans << 14 | move << CODE_MOVE``: an attack
with ``TOKENS[token]``, declaring NEXT or not, banning the suits ``BANS[bans]``."""
CODE_EFFECT: Final = 6
"""``CODE_EFFECT | seat << 4 | kind << 6 | (value + EFFECT_BIAS) << 8 | turn << 18 | move << CODE_MOVE``:
a modifier or ban (``EFFECT_KINDS[kind]``) registered for ``seat``'s ``turn``."""
CODE_BLOCK: Final = 7
"""``CODE_BLOCK | seat << 4 | token << 6 | face_up << 13 | move << CODE_MOVE``: ``seat`` blocks."""
CODE_COSMIC: Final = 8
"""``CODE_COSMIC | seat << 4 | token << 6 | move << CODE_MOVE``: ``seat`` takes a cosmic card."""
CODE_DRAW: Final = 9
"""``CODE_DRAW | seat << 4 | count << 6 | token << (9 + 7 * i) ... | move << CODE_MOVE``: ``seat`` draws
``count`` cards (at most three), the ``i``-th ``TOKENS[token]``, seen by ``seat`` only."""
CODE_REVEAL: Final = 10
"""``CODE_REVEAL | seat << 4 | count << 6 | token << (9 + 7 * i) ... | move << CODE_MOVE``: ♥NEXT shows
``count`` cards (at most three) from the top of ``seat``'s deck."""
CODE_PICK: Final = 11
"""``CODE_PICK | seat << 4 | token << 6 | count << 13 | token << (15 + 7 * i) ... | move << CODE_MOVE``:
``seat`` picks a shown card, ``count`` (at most two) others go face down."""
CODE_HEART_NEXT: Final = 12
"""``CODE_HEART_NEXT | seat << 4 | played << 5 | token << 6 | watched << 13 | move << CODE_MOVE``: ♥NEXT
with a heart from the hand (seen by ``seat``, and by the other seat when ``watched``) or, ``played``,
the attack's own card."""
CODE_SET: Final = 13
"""``CODE_SET | seat << 4 | token << 6 | watched << 13 | turn << 14 | move << CODE_MOVE``: ``seat`` sets
a J/Q/K face down in ``turn`` (seen by ``seat``, and by the other seat when ``watched``)."""
CODE_TAKE: Final = 14
"""``CODE_TAKE | seat << 4 | face_up << 5 | token << 6 | pile << 13 | first << 14 | move << CODE_MOVE``:
``seat`` sends ``TOKENS[token]`` from the other seat's hand to the discard pile of seat ``pile``
(face down: seen by both seats only; ``first``: to the bottom of the pile, ♦NEXT)."""
CODE_MOVE: Final = 40
EFFECT_BIAS: Final = 512
"""Added to an effect's value (a suit, or half points) so that it codes as a non-negative number."""
ENERGY_BIAS: Final = 2048
"""Added to an energy change so that it codes as a non-negative number (a change in -2048..2047)."""
NOTICES: Final = (EV_END_WINDOW, EV_SUCCESS, EV_NO_BLOCK, EV_NO_REACT, EV_STALL, EV_NO_COSMIC)
"""The events whose only field is the seat (``{"player": seat}``), coded as ``CODE_NOTICE``."""
NOTICE_END_WINDOW: Final = 0
NOTICE_SUCCESS: Final = 1
NOTICE_NO_BLOCK: Final = 2
NOTICE_NO_REACT: Final = 3
NOTICE_STALL: Final = 4
NOTICE_NO_COSMIC: Final = 5
TOKENS: Final = tuple(NAME[i] for i in range(COSMIC_BASE + len(COSMIC_CARDS))) + \
    tuple("~" + NAME[i] for i in range(COSMIC_BASE + len(COSMIC_CARDS)))
"""Every card token a zone can name (own cards, then ``~`` foreign ones): a code names one by index."""
TOKEN_CODE: Final = {t: i for i, t in enumerate(TOKENS)}
BANS: Final = tuple(suits_text(tuple(s for s in SUITS if m >> s & 1)) for m in range(16))
"""Every set of banned suits as an attack writes it (canonical order), by the mask of its suits."""
BAN_CODE: Final = {b: i for i, b in enumerate(BANS)}
TURN_MASK: Final = (1 << (CODE_MOVE - 6)) - 1


class Phase(IntEnum):
    """Who decides what, now (UTA-R10's steps as pending decisions)."""

    WISH = 0  # a player picks the wished card (UTA-R3)
    MAIN = 1  # attacker: free actions and the main action (steps 2-3)
    BLOCK = 2  # defender: block or not (UTA-R18-R20)
    REACT = 3  # defender: ♣A/♦A reaction or not (UTA-R22 step 1)
    TARGET = 4  # attacker: the card of the defender's hand (UTA-R24/R25/R28/R48)
    DRAW = 5  # a drawer: how many to draw (optional_draws)
    HEART_PICK = 6  # ♥NEXT user: which revealed card to take (UTA-R51)
    BLOCKER_WINDOW = 7  # defender: ♥NEXT after a block (heart_next_after_block)
    POST = 8  # attacker: post-attack window (step 5)
    END = 9  # attacker: cosmic card at the end step (step 6)
    EFFECT = 10  # user of an option/hero card: a choice inside its effect
    OVER = 11


PHASE_NAMES: Final = tuple(p.name.lower() for p in Phase)

# modifier kinds (UTA-R8); values are half-points, or a suit for BAN
BAN: Final = 0
BLOCK_BONUS: Final = 1
BONUS_810: Final = 2
ATTACK_BONUS: Final = 3
EFFECT_KINDS: Final = ("ban", "block_bonus", "bonus_8_10", "attack_bonus")

# discard entries: card | UP | SELF | COST | SEEN
UP: Final = 128
SELF: Final = 256
COST: Final = 512
"""Put face down as the price of ♥NEXT: publicly known to be a heart (UTA-R51, UTA-I-CT22)."""
SEEN: Final = 1024
"""Face down, but everybody saw which card it is (a pass, ♥NEXT's other cards, a shown block; UTA-I-CT21)."""
CARD_MASK: Final = 127

# seat memory (UTA-I-CT21). What everybody knows is kept once: ``pub_hand[p]`` card -> (set turn, since) for cards
# known to be in seat p's hand, ``pub_out[p]`` the same for cards in the hand or face down in the pile, and the
# SEEN bit of face-down discards. What only seat o knows of the other seat adds to it (and overrides it):
# ``priv_hand[o]``, ``priv_out[o]``, ``priv_pile[o]`` (cards face down somewhere in the other pile) and
# ``priv_down[o]`` (face-down cards of the other pile it knows one by one). A seat's own hand and pile are never
# in its memory: it sees them.
# In the hand; in the hand or face down in the pile; face down somewhere in the pile; that face-down entry.
HAND: Final = 0
OUT: Final = 1
PILE: Final = 2
DISCARD: Final = 3
WHERE_NAMES: Final = ("hand", "hand_or_pile", "pile", "discard")
PUBLIC: Final = 2
"""The observer index of what every seat and spectator knows."""
MemoryEntry = tuple[int, int, int]
"""(where, set turn or 0, since: the turn from which an unset J/Q/K is known to be unset, or 0)."""
Known = tuple[int, int]
"""(set turn or 0, since) of a card remembered in, or perhaps in, a hand."""
_UNSET: Final = (0, 0)
PICTURES: Final = frozenset(c for c in range(2 * CARDS_PER_SEAT) if RANK[c] >= JACK)
"""Every J, Q and K (deck cards of both seats)."""

# success kinds (UTA-R22's table)
DRAW_EFFECT: Final = 1
REMOVE_EFFECT: Final = 2
DNEXT_EFFECT: Final = 3
DRAWS_THEN_FINISH: Final = 0
DRAWS_THEN_END: Final = 1
SUCCESS_NAMES: Final = {0: "none", DRAW_EFFECT: "draw", REMOVE_EFFECT: "remove", DNEXT_EFFECT: "diamond_next"}
"""The name of each success kind (UTA-R22's table) in position JSON."""
SUCCESS_CODES: Final = {v: k for k, v in SUCCESS_NAMES.items()}
