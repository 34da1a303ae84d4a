"""Zeta's fact reader: decks, opening hands, draws, placements, and cards destroyed, removed or returned.

It reads the engine's compact codes through :mod:`cardtable.games.zeta.codec` and its rows by kind.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from cardtable.core import State
from cardtable.games.zeta.cards import CARDS
from cardtable.games.zeta.codec import (
    CODE_DESTROY,
    CODE_DRAW,
    CODE_PLACE,
    DESTROY_CARD_AT,
    DESTROY_CARD_MASK,
    DESTROY_REMOVED,
    DRAW_CARD_AT,
    DRAW_CARD_MASK,
    KIND_MASK,
    PLACE_CARD_AT,
    PLACE_CARD_MASK,
    SEAT_AT,
    SUB_KIND_SHIFT,
    TURN_MASK,
    TURN_TURN_AT,
)

from ..facts import (
    ONE,
    V_DESTROYED,
    V_DRAWN,
    V_IN_DECK,
    V_OPENING,
    V_PLAYED,
    V_REMOVED,
    VERB_KEY,
    GameFacts,
    Tally,
    Verb,
    count_fact,
    facts_of,
    item_index,
    merged,
    to_bytes,
)

_CARD_ITEMS: Final = tuple(item_index(card.id) for card in CARDS)
"""The item index of each card (a code names a card by its index in ``CARDS``)."""

_ZETA_DECKS: dict[tuple[int, int], tuple[Any, bytes, tuple[dict[str, Any], ...], str]] = {}


def _zeta_decks(state: State) -> tuple[Any, bytes, tuple[dict[str, Any], ...], str]:
    """The setup, the packed ``in_deck`` facts of both decklists, the context (each seat's deck) and its JSON.

    Cached per game and setup unless a deck is drawn at random: every game of a run shares them (the
    context's dicts too; nothing writes to a game's context).
    """
    setup = state.setup
    key = (id(state.game), id(setup))
    found = _ZETA_DECKS.get(key)
    if found is not None and found[0] is setup:
        return found
    decks = setup.get("decks", [])
    context = tuple({"deck": _deck_name(decks[s]) if s < len(decks) else "?"} for s in range(state.num_players))
    tally = Tally()
    for token, copies in sorted(state.expected_cards().items()):
        owner, _, card_id = token.partition(":")
        if owner.isdigit():
            count_fact(tally, int(owner), V_IN_DECK, card_id, 0, copies)
    encoded = to_bytes(tally.keys)  # every Zeta card is in the codebook: ``tally.rest`` is empty
    out = (setup, encoded, context, json.dumps(list(context), separators=(",", ":"), ensure_ascii=False))
    if "random" not in decks:
        if len(_ZETA_DECKS) > 256:
            _ZETA_DECKS.clear()
        _ZETA_DECKS[key] = out  # the setup object is kept, so its id is not reused
    return out


def zeta_facts(state: State) -> GameFacts:
    """Zeta: decks, opening hands (ZETA-R9-R11), draws (R28), placements (R14), destroyed cards (R25).

    The turn starts, draws, plain placements and destroyed cards come as the engine's compact codes
    (ints) and are counted without building a row, read through the codec's fields.
    """
    tally = Tally()
    keys = tally.keys
    items = _CARD_ITEMS
    turn = 0
    first: int | None = None
    for row in state.event_rows():
        if type(row) is int:
            code: int = row
            kind = code & KIND_MASK
            if kind == CODE_DRAW:
                key = (code >> SEAT_AT & 1) | V_DRAWN | items[code >> DRAW_CARD_AT & DRAW_CARD_MASK] << 8 | turn << 24
            elif kind == CODE_PLACE:
                key = (code >> SEAT_AT & 1) | V_PLAYED | items[code >> PLACE_CARD_AT & PLACE_CARD_MASK] << 8 | turn << 24
            elif kind == CODE_DESTROY:  # the owner's card, destroyed or removed
                if code >> SUB_KIND_SHIFT & 3:
                    continue  # a decision, a Fanfare's notice or a lasting effect (kind 0's other codes)
                key = ((code >> SEAT_AT & 1) | (V_REMOVED if code & DESTROY_REMOVED else V_DESTROYED)
                       | items[code >> DESTROY_CARD_AT & DESTROY_CARD_MASK] << 8 | turn << 24)
            else:  # CODE_TURN
                turn = code >> TURN_TURN_AT & TURN_MASK
                continue
            keys.append(key | ONE)
            continue
        kind_name: str = row[0]
        pub = row[1]
        sec = row[2]
        if kind_name == "draw":
            count_fact(tally, pub["player"], V_DRAWN, sec["card"] if sec else "?", turn)
        elif kind_name == "turn":
            turn = int(pub["turn"])
        elif kind_name == "place":
            count_fact(tally, pub["player"], V_PLAYED, pub["card"], turn)
        elif kind_name == "deal":  # the seat is public, the cards are its secret
            if sec:
                seat = pub["player"]
                for card_id in sec.get("cards", ()):
                    count_fact(tally, seat, V_OPENING, card_id, turn)
        elif kind_name == "first_player":
            first = int(pub["player"])
        elif kind_name in _ZETA_OTHER:
            e = merged(pub, sec)
            seat = e.get("player")
            if kind_name == "mulligan" and e.get("taken") and isinstance(seat, int):
                # ZETA-R11: the new hand is the opening hand
                tally.keys = keys = [k for k in keys if not (k & 7 == seat and k & 0xF8 == V_OPENING)]
                for card_id in e.get("cards", ()):
                    count_fact(tally, seat, V_OPENING, card_id, turn)
            else:
                verb, who = _ZETA_OTHER[kind_name]
                seat = e.get(who)
                if verb is not None and isinstance(seat, int):
                    count_fact(tally, seat, VERB_KEY[verb], e["card"], turn)
    _, head, context, context_json = _zeta_decks(state)
    return facts_of(first, turn, tally, context, head, context_json)


_ZETA_OTHER: dict[str, tuple[Verb | None, str]] = {
    "mulligan": (None, "player"),
    "destroy": (Verb.DESTROYED, "owner"), "remove": (Verb.REMOVED, "owner"), "return": (Verb.RETURNED, "player"),
}
"""The rarer Zeta events that make facts: (verb, the field naming the seat); the frequent ones are inlined."""


def _deck_name(spec: Any) -> str:
    """The name a context gives a deck: a preset's name, or a custom list's ``name``."""
    if isinstance(spec, Mapping):
        return str(spec.get("name", "custom"))
    return str(spec)


