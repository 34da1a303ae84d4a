"""Oscilloscope's fact reader: dealt and drawn cards, triggers placed, captures, refills and discards.

It reads the engine's compact codes through :mod:`cardtable.games.oscilloscope.codec` and its rows by kind.
"""

from __future__ import annotations

from typing import Any, Final

from cardtable.core import State
from cardtable.games.oscilloscope.cards import TOKENS
from cardtable.games.oscilloscope.codec import (
    CAPTURE_CARD_BITS,
    CAPTURE_CARD_MASK,
    CAPTURE_CARDS_AT,
    CAPTURE_CARDS_MASK,
    CAPTURE_CLEARS_AT,
    CAPTURE_CLEARS_MASK,
    CAPTURE_KEPT_AT,
    CAPTURE_KEPT_MASK,
    CARD_AT,
    CODE_CAPTURE,
    CODE_DISCARD,
    CODE_DRAW_PULSE,
    CODE_DRAW_TRIGGER,
    CODE_PLACE,
    CODE_REFILL,
    CODE_TURN,
    KIND_MASK,
    PLACE_CARD_MASK,
    PLAYER_AT,
    PLAYER_MASK,
    SET_AT,
    SET_MASK,
)

from ..facts import (
    ONE,
    V_CAPTURED,
    V_CLEARED,
    V_DISCARDED,
    V_DRAWN,
    V_KEPT,
    V_OPENING,
    V_PLAYED,
    V_REFILLED,
    V_SPECIAL,
    GameFacts,
    Tally,
    count_fact,
    facts_of,
    item_index,
    merged,
)


def oscilloscope_facts(state: State) -> GameFacts:
    """Oscilloscope: dealt and drawn cards, triggers placed (OSC-R12), captures (R29, R30), refills (R37)."""
    tally = Tally()
    keys = tally.keys
    turn = 0
    first: int | None = 0 if state.num_players == 1 else None
    context: list[dict[str, Any]] = [{} for _ in range(state.num_players)]
    items = _OSC_ITEMS
    for row in state.event_rows():
        if type(row) is int:  # the engine's compact codes: draws, refills, placements, discards, notices ...
            code: int = row
            kind_code = code & KIND_MASK
            if kind_code == CODE_TURN:
                turn = code >> SET_AT & SET_MASK
                continue
            if kind_code == CODE_CAPTURE:  # the captured cards, the kept trigger, the clears scored
                capturer = code >> PLAYER_AT & PLAYER_MASK
                train_cards = code >> CAPTURE_CARDS_AT & CAPTURE_CARDS_MASK  # one slot a train
                while train_cards:
                    slot = train_cards & CAPTURE_CARD_MASK
                    if slot:
                        key = capturer | V_CAPTURED | items[slot - 1] << 8 | turn << 24
                        keys.append(key | ONE)
                    train_cards >>= CAPTURE_CARD_BITS
                kept = code >> CAPTURE_KEPT_AT & CAPTURE_KEPT_MASK
                if kept:
                    key = capturer | V_KEPT | items[kept - 1] << 8 | turn << 24
                    keys.append(key | ONE)
                clears = code >> CAPTURE_CLEARS_AT & CAPTURE_CLEARS_MASK
                if clears:
                    count_fact(tally, capturer, V_CLEARED, "CLEAR", turn, clears)
                continue
            verb_item = _CODE_KEYS[kind_code | (code >> _CARD_KEY_SHIFT & _CARD_KEY_MASK)]  # by the kind and the card
            if verb_item < 0:
                continue  # a notice makes no fact
            key = (code >> PLAYER_AT & PLAYER_MASK) | verb_item | turn << 24
            keys.append(key | ONE)
            continue
        kind: str = row[0]
        pub = row[1]
        if kind == "draw":
            sec = row[2]
            card = sec.get("card") if sec else pub.get("card")
            if card is not None:
                count_fact(tally, pub["player"], V_DRAWN, card, turn)
        elif kind == "refill":
            count_fact(tally, pub["player"], V_REFILLED, pub["card"], turn)
        elif kind == "turn":
            turn = int(pub.get("set", turn))
        elif kind == "place":
            count_fact(tally, pub["player"], V_PLAYED, pub["card"], turn)
        elif kind == "discard":
            count_fact(tally, pub["player"], V_DISCARDED, pub["card"], turn)
        elif kind in _OSC_OTHER:
            e = merged(pub, row[2])
            seat = e.get("player")
            if kind == "capture" and isinstance(seat, int):
                for part in e.get("cards", ()):
                    count_fact(tally, seat, V_CAPTURED, part["card"], turn)
                if e.get("kept"):
                    count_fact(tally, seat, V_KEPT, e["kept"], turn)
                clears = len(e.get("clears") or ())
                if clears:
                    count_fact(tally, seat, V_CLEARED, "CLEAR", turn, clears)
            elif kind == "start":
                first = int(e["player"])
            elif kind == "deal" and isinstance(seat, int):
                for card in [*e.get("pulse_cards", ()), *e.get("trigger_cards", ())]:
                    count_fact(tally, seat, V_OPENING, card, turn)
            elif kind == "exchange":
                count_fact(tally, 0, V_SPECIAL, "exchange", turn)
            elif kind == "decline" and isinstance(seat, int):
                count_fact(tally, seat, V_SPECIAL, "decline_capture", turn)
            elif kind == "score":
                for score_row in e.get("scores", ()):
                    p = score_row.get("player")
                    if isinstance(p, int) and 0 <= p < len(context):
                        context[p].update({k: v for k, v in score_row.items() if k != "player"})
    return facts_of(first, turn, tally, tuple(context))


_OSC_ITEMS: Final = tuple(item_index(token) for token in TOKENS)
"""The item index of each Oscilloscope card (a compact code names a card by its index in ``TOKENS``)."""
_CODE_VERBS: Final = tuple({CODE_DRAW_PULSE: V_DRAWN, CODE_DRAW_TRIGGER: V_DRAWN, CODE_REFILL: V_REFILLED,
                            CODE_PLACE: V_PLAYED, CODE_DISCARD: V_DISCARDED}.get(k, -1) for k in range(KIND_MASK + 1))
"""The verb of each Oscilloscope code's fact by its kind (-1: the code makes none)."""
_CARD_KEY_SHIFT: Final = CARD_AT - 3
_CARD_KEY_MASK: Final = PLACE_CARD_MASK << 3
"""A code's card (its three low bits, what every code with a card holds) in its place in ``kind | card << 3``."""
_CODE_KEYS: Final = tuple(-1 if _CODE_VERBS[i & 7] < 0 else _CODE_VERBS[i & 7] | _OSC_ITEMS[i >> 3] << 8
                          for i in range(64))
"""The verb and item part of a code's fact key by ``kind | card << 3`` (-1: the code makes none)."""
_OSC_OTHER = frozenset({"capture", "start", "deal", "exchange", "decline", "score"})
"""The rarer Oscilloscope events that make facts (the frequent ones are inlined)."""


