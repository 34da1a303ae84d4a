"""Oscilloscope's views and position writer: what a seat may know and the ``$.position`` JSON of a state.

A view is the position with what its seat may not know removed (OSC-I63) and what it remembers
added (``memory``, OSC-I-CT14); :mod:`cardtable.games.oscilloscope.position` reads positions back.
It reads a state's fields and imports only the vocabulary and the card table, so the state imports
it without a circle.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import sub
from typing import TYPE_CHECKING, Any

from .cards import LEVEL_SYMBOLS, POSITIONS, TOKENS, TRAIN_LETTERS
from .vocab import EMPTY, Phase, counts_to_tokens

if TYPE_CHECKING:
    from .state import OscilloscopeState


def counts_json(counts: Sequence[int]) -> dict[str, int]:
    """Counts per kind as ``{"HL": 3, ...}`` in card order, zeros left out."""
    return {TOKENS[k]: n for k, n in enumerate(counts) if n}


def _hands_memory_json(st: OscilloscopeState) -> list[dict[str, Any]]:
    """What every seat remembers of each hand (OSC-I-CT14): known cards and the origins of the others."""
    if not st.known_count:
        return [{"known": [], "pulse": o[0], "trigger": o[1], "any": o[2]} for o in st.origin]
    return [{"known": counts_to_tokens(k), "pulse": o[0], "trigger": o[1], "any": o[2]}
            for k, o in zip(st.known, st.origin, strict=True)]


def _less(source: Sequence[int], drawn: Sequence[int] | None) -> dict[str, int]:
    """``source`` less ``drawn`` (counts per kind) as ``{"HL": 3, ...}``."""
    if drawn is None:
        return {TOKENS[k]: n for k, n in enumerate(source) if n}
    return {TOKENS[k]: n for k, n in enumerate(map(sub, source, drawn)) if n}


_SLOT_AT = tuple(tuple(f"{letter}{s + 1}" for s in range(POSITIONS)) for letter in TRAIN_LETTERS)
"""The name of every slot (``A1`` .. ``D5``), by train and slot."""


def _common_json(st: OscilloscopeState, reveal: bool, viewer: int | None) -> dict[str, Any]:
    tokens = TOKENS
    players = st.players
    return {
        "players": players,
        "phase": st.phase.value,
        "start_player": st.start_player,
        "turn_player": st.turn,
        "trains": [[None if k == EMPTY else {"card": tokens[k], "out": LEVEL_SYMBOLS[lv]} for k, lv in zip(row, lvs, strict=True)]
                   for row, lvs in zip(st.cards, st.levels, strict=True)],
        "triggers": [{"card": tokens[t[2]], "at": _SLOT_AT[t[0]][t[1]], "owner": t[3]} for t in st.triggers],
        "filters": [None if k == EMPTY else tokens[k] for k in st.filters],
        "stock": None if st.stock == EMPTY else tokens[st.stock],
        "offer": [tokens[k] for k in st.offer],
        "hands": [counts_to_tokens(st.hands[p]) if reveal or viewer == p else None for p in range(players)],
        "pulse_deck": [tokens[k] for k in reversed(st.pulse)] if reveal else None,
        "trigger_deck": [tokens[k] for k in reversed(st.trigger_deck)] if reveal else None,
        "discard": [tokens[k] for k in st.discard],
        "score_piles": [counts_to_tokens(s) for s in st.scores],
        "kept_triggers": list(st.kept),
        "assigned_trains": [[TRAIN_LETTERS[c] for c in st.trains_of(p)] for p in range(players)],
        "counters": {"sets": st.sets, "stall": st.stall, "counted_noise": st.counted_noise},
        "flags": {"captured_this_set": st.captured_this_set, "captured_last_set": st.captured_last_set,
                  "any_trigger_placed": st.any_trigger_placed, "pulse_deck_mixed": st.pulse_mixed},
        "pending": pending_json(st),
    }


def position_json(st: OscilloscopeState) -> dict[str, Any]:
    """The whole position (``$.position``, see position.schema.json), memory bookkeeping included."""
    data = _common_json(st, True, None)
    data["memory"] = {
        "pulse_bottom": st.bottom_known,
        "pulse_source": counts_json(st.pulse_source),
        "trigger_source": counts_json(st.trigger_source),
        "drawn": [{"pulse": counts_json(st.drawn_pulse[p]), "trigger": counts_json(st.drawn_trigger[p])}
                  for p in range(st.players)],
        "hands": _hands_memory_json(st),
    }
    return data


def view_memory(st: OscilloscopeState, viewer: int | None) -> dict[str, Any]:
    """What ``viewer`` remembers of the hidden cards (OSC-I-CT14), as its view carries it."""
    return {
        "pulse_bottom": [TOKENS[k] for k in reversed(st.pulse[:st.bottom_known])] if st.bottom_known else [],
        "pulse_may_hold": _less(st.pulse_source, None if viewer is None else st.drawn_pulse[viewer]),
        "trigger_may_hold": _less(st.trigger_source, None if viewer is None else st.drawn_trigger[viewer]),
        "hands": _hands_memory_json(st),
    }


def view_json(st: OscilloscopeState, viewer: int | None) -> dict[str, Any]:
    """What ``viewer`` may know (OSC-I63) and remembers (OSC-I-CT14); None is a spectator."""
    data = _common_json(st, False, viewer)
    data["memory"] = view_memory(st, viewer)
    data["sizes"] = {"hands": [sum(h) for h in st.hands], "pulse_deck": len(st.pulse),
                     "trigger_deck": len(st.trigger_deck)}
    data["scores"] = st.scores_now()
    data["viewer"] = viewer
    data["current_player"] = st.current_player
    return data


def pending_json(st: OscilloscopeState) -> dict[str, Any]:
    """The data of the pending decision (``$.position.pending``)."""
    phase = st.phase
    if phase is Phase.MORE:
        return {"step": st.more_step, "early_end": st.more_early_end}
    if phase in (Phase.CAPTURE, Phase.KEEP):
        return {"row": st.cap_row + 1, "by": st.cap_by}
    if phase is Phase.REFILL:
        return {"index": st.refill_index, "discards": list(st.refill_discards),
                "deliberate": list(st.refill_deliberate), "played": list(st.refill_played),
                "stopped": list(st.refill_stopped), "limit": st.refill_limit}
    if phase is Phase.TOPUP:
        return {"index": st.topup_index}
    if phase is Phase.OVER:
        return {"reason": st.end_reason, "rule": st.end_rule}
    return {}
