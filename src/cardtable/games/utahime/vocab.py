"""Utahime's vocabulary: phases, modifier kinds, discard flags, memory places, card tokens and bans.

A leaf: it imports only the card table, so the state, its views and its position reader all import
it and not each other. The compact event codes are declared in :mod:`cardtable.games.utahime.codec`.
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

TOKENS: Final = tuple(NAME[i] for i in range(COSMIC_BASE + len(COSMIC_CARDS))) + \
    tuple("~" + NAME[i] for i in range(COSMIC_BASE + len(COSMIC_CARDS)))
"""Every card token a zone can name (own cards, then ``~`` foreign ones): a compact code names one by index."""
TOKEN_CODE: Final = {t: i for i, t in enumerate(TOKENS)}
BANS: Final = tuple(suits_text(tuple(s for s in SUITS if m >> s & 1)) for m in range(16))
"""Every set of banned suits as an attack writes it (canonical order), by the mask of its suits."""
BAN_CODE: Final = {b: i for i, b in enumerate(BANS)}


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
