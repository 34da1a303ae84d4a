"""Utahime's views and position writer: what a seat may know and the ``$.position`` JSON of a state.

:mod:`cardtable.games.utahime.position` reads positions back (and samples them from views). This
module reads a state's fields and imports only the vocabulary and the card table, so the state
imports it without a circle.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any

from .cards import (
    OWNER,
    SORT_KEY,
    SUIT_LETTERS,
    token,
)
from .vocab import (
    BAN,
    CARD_MASK,
    COST,
    DISCARD,
    DRAWS_THEN_END,
    EFFECT_KINDS,
    HAND,
    OUT,
    PHASE_NAMES,
    PILE,
    SEEN,
    SELF,
    SUCCESS_NAMES,
    UP,
    WHERE_NAMES,
    MemoryEntry,
    Phase,
)

if TYPE_CHECKING:
    from .state import UtahimeState


def _effects_json(state: UtahimeState) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for turn, kind, player, value in state.effects:
        item: dict[str, Any] = {"turn": turn, "kind": EFFECT_KINDS[kind], "player": player}
        if kind == BAN:
            item["suit"] = SUIT_LETTERS[value]
        else:
            item["half_points"] = value
        out.append(item)
    return out


def _common_json(state: UtahimeState) -> dict[str, Any]:
    """The fields that are public in every view and complete in the position."""
    a = state.attacker
    attack: dict[str, Any] | None = None
    if state.atk >= 0:
        attack = {
            "card": token(state.atk, a),
            "next": state.atk_next,
            "bans": state.atk_bans,
            "block": token(state.blk, 1 - a) if state.blk >= 0 else None,
            "reaction": token(state.reacted, 1 - a) if state.reacted >= 0 else None,
            "success": state.success,
            "effect": SUCCESS_NAMES[state.success_kind],
        }
    effect: dict[str, Any] | None = None
    if state.eff is not None:
        user, source, slot, step, resume = state.eff
        effect = {"user": user, "source": "option" if source == 0 else "hero", "slot": slot, "step": step,
                  "resume": PHASE_NAMES[resume]}
    heart_next = None
    if state.revealed:
        heart_next = {"user": state.hn_user, "revealed": [token(c, state.hn_user) for c in state.revealed]}
    result = None
    if state.result is not None:
        result = {"reason": state.result[0], "rule": state.result[1], "detail": state.result[2]}
    return {
        "phase": PHASE_NAMES[state.phase],
        "turn": state.turn,
        "first_player": state.first,
        "attacker": a,
        "effects": _effects_json(state),
        "turn_state": {
            "rescue": state.rescue,
            "free_action_taken": state.free_used,
            "cosmic_taken": state.cosmic_taken,
            "stalled": state.stalled,
            "previous_dead_stall": state.prev_dead,
            "look": state.look if state.look >= 0 else None,
            "heart_next_used": list(state.hn_turn),
        },
        "attack": attack,
        "draws": {"queue": [list(q) for q in state.draw_queue],
                  "then": "end" if state.draw_then == DRAWS_THEN_END else "finish"},
        "heart_next": heart_next,
        "effect": effect,
        "result": result,
    }


def _player_common(state: UtahimeState, p: int) -> dict[str, Any]:
    return {
        "energy": state.energy[p],
        "joker_face_up": state.joker_up[p],
        "cosmic_pool": [token(c, p) for c in state.pools[p]],
        "options_face_up": list(state.opt_up[p]),
        "hero_uses_left": state.hero_left[p],
        "unlock_turn": state.unlock_turn[p],
        "heart_next_used_game": state.hn_game[p],
    }


def memory_json(entries: Mapping[int, tuple[int, int, int, int]]) -> list[dict[str, Any]]:
    """Remembered cards (UTA-I-CT21), card -> (where, zone player, set turn, since), in canonical card order."""
    return [{"card": token(c, e[1]), "player": e[1], "where": WHERE_NAMES[e[0]], "set": e[2], "since": e[3]}
            for c, e in sorted(entries.items(), key=lambda item: SORT_KEY[item[0]])]


def seat_memory(state: UtahimeState, o: int) -> dict[int, tuple[int, int, int, int]]:
    """What seat ``o`` alone remembers of the other seat's cards."""
    other = 1 - o
    out = {c: (OUT, other, *k) for c, k in state.priv_out[o].items()}
    out.update((c, (HAND, other, *k)) for c, k in state.priv_hand[o].items())
    out.update((c, (PILE, other, 0, 0)) for c in state.priv_pile[o])
    out.update((c, (DISCARD, other, 0, 0)) for c in state.priv_down[o])
    return out


def public_memory(state: UtahimeState) -> dict[int, tuple[int, int, int, int]]:
    """What everybody remembers of both hands (face-down cards everybody saw carry the ``seen`` flag instead)."""
    out = {c: (OUT, p, *k) for p in (0, 1) for c, k in state.pub_out[p].items()}
    out.update((c, (HAND, p, *k)) for p in (0, 1) for c, k in state.pub_hand[p].items())
    return out


def position_json(state: UtahimeState) -> dict[str, Any]:
    """The complete position (hidden information included)."""
    out = _common_json(state)
    players = []
    for p in (0, 1):
        item = {
            "deck": [token(c, p) for c in reversed(state.decks[p])],
            "hand": [token(c, p) for c in state.hands[p]],
            "set": [{"card": token(c, p), "turn": t} for c, t in state.set_turn[p].items()],
            "discard": [{"card": token(e & CARD_MASK, p), "face_up": bool(e & UP), "self_played": bool(e & SELF),
                         "heart_next_cost": bool(e & COST), "seen": bool(e & SEEN)} for e in state.discards[p]],
            "wished": token(state.wished[p], p) if state.wished[p] >= 0 else None,
        }
        item.update(_player_common(state, p))
        players.append(item)
    out["players"] = players
    out["memory"] = [memory_json(seat_memory(state, 0)), memory_json(seat_memory(state, 1)),
                     memory_json(public_memory(state))]
    return out


def _memory_view(mem: Mapping[int, MemoryEntry], p: int) -> list[dict[str, Any]]:
    """What an observer remembers of ``p``'s hand and pile, known face-down entries aside (UTA-I-CT21)."""
    out: list[dict[str, Any]] = []
    for c in sorted(mem, key=SORT_KEY.__getitem__):
        e = mem[c]
        item: dict[str, Any] = {"card": token(c, p), "where": WHERE_NAMES[e[0]]}
        if e[1]:
            item["set"] = e[1]
        elif e[2]:
            item["since"] = e[2]
        out.append(item)
    return out


_NO_CARDS: frozenset[int] = frozenset()


def view_json(state: UtahimeState, viewer: int | None) -> dict[str, Any]:
    """UTA-R59: hands, set identities, deck order and face-down discards are hidden from others."""
    out = _common_json(state)
    out["viewer"] = viewer
    out["current_player"] = state.current_player
    out["setup"] = state.setup
    out["scores"] = [state.score(0), state.score(1)]
    reveal_wishes = state.rules.wished_card_public and state.phase != Phase.WISH  # UTA-I14 variant (UTA-I-CT12)
    players = []
    for p in (0, 1):
        sees_hand = viewer == p or (viewer is not None and state.look == viewer and viewer != p)
        hand = sorted(state.hands[p], key=SORT_KEY.__getitem__)
        item: dict[str, Any] = {
            "deck_count": len(state.decks[p]),
            "hand_count": len(hand),
            "hand": [token(c, p) for c in hand] if sees_hand else None,
            "hidden_foreign_in_hand": 0 if sees_hand else len([c for c in hand if OWNER[c] != p]),
            "set": sorted(({"card": token(c, p) if sees_hand else None, "turn": t}
                           for c, t in state.set_turn[p].items()),
                          key=lambda s: (s["turn"], s["card"] or "")) if state.set_turn[p] else [],
            "discard": _discard_view(state.discards[p], p, viewer == p,
                                     state.priv_down[viewer] if viewer is not None and viewer != p else _NO_CARDS),
            "wished": token(state.wished[p], p) if state.wished[p] >= 0 and (viewer == p or reveal_wishes) else None,
            "memory": None if viewer == p else _memory_view(state.remembered(viewer, p), p) if state.remembers(viewer, p)
            else [],
        }
        item.update(_player_common(state, p))
        players.append(item)
    out["players"] = players
    return out


def _discard_entry(e: int, p: int, shown: bool) -> dict[str, Any]:
    """The view of one discard entry of ``p``'s pile, its card shown or not."""
    c = e & CARD_MASK
    return {"card": token(c, p) if shown else None, "face_up": e & UP != 0, "self_played": e & SELF != 0,
            "heart_next_cost": e & COST != 0, "foreign": OWNER[c] != p}


_ENTRY_VALUES = 2 * SEEN
"""Every discard entry (a card and its flags) is below this."""
_DISCARD_ENTRIES: list[tuple[list[dict[str, Any]], list[dict[str, Any]]]] = []
"""Per pile owner: the view of every discard entry with its card hidden, and shown (views copy them)."""


def _discard_entries(p: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The table of discard entry views of ``p``'s pile (built on first use)."""
    if not _DISCARD_ENTRIES:
        _DISCARD_ENTRIES.extend(([_discard_entry(e, q, False) for e in range(_ENTRY_VALUES)],
                                 [_discard_entry(e, q, True) for e in range(_ENTRY_VALUES)]) for q in (0, 1))
    return _DISCARD_ENTRIES[p]


def _discard_view(pile: list[int], p: int, own: bool, known: AbstractSet[int]) -> list[dict[str, Any]]:
    """A discard pile as a viewer sees it: face-down cards only to the owner or to who remembers them."""
    hidden, shown = _discard_entries(p)
    if own:
        return [shown[e].copy() for e in pile]
    if known:
        return [(shown if e & (UP | SEEN) or (e & CARD_MASK) in known else hidden)[e].copy() for e in pile]
    return [(shown if e & (UP | SEEN) else hidden)[e].copy() for e in pile]
