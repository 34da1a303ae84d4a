"""Building Oscilloscope positions the way the rulebook writes them, and reading them back.

``load(trains=["HL LH HL LOH LH", ...], hands=[[...], ...], ...)`` makes a state from a position
written with card tokens: every card not named goes to the decks (or to ``rest_to``), so the
position always holds the 110 cards. Seats are 0-based: the rulebook's P1 is seat 0.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from cardtable.core import load_game
from cardtable.core.rng import rng_to_json
from cardtable.games.oscilloscope import OscilloscopeState
from cardtable.games.oscilloscope.cards import ALL_CARDS, TOKENS, TRAIN_LETTERS

A0 = "HL LH HL LOH LH"
"""Standard train A0 of §5: out-levels L, H, L, L, H."""
B0 = "LOH HL LH NOISE HL"
"""Standard train B0 of §5: out-levels *, L, H, *, L."""

EMPTY_DECKS: dict[str, object] = {"mp_end_excludes_cleared": True}
"""Rules for positions that empty the decks by putting the other cards in a score pile: its noise must not
end the game at once (OSC-R34), so only noise not cancelled by a clear counts, none yet (OSC-I49)."""

PULSE_KINDS = ("HL", "LH", "LOH", "NOISE")
TRIGGER_ONLY = ("CLEAR", "T_HL", "T_LH", "T_BOTH")


def train(spec: str) -> list[dict[str, str] | None]:
    """A train from ``"HL LH _ LOH:L NOISE"``: ``_`` is a hole; ``CARD:LEVEL`` sets the out-level."""
    slots: list[dict[str, str] | None] = []
    level = "*"
    for token in spec.split():
        if token == "_":
            slots.append(None)
            continue
        card, _, out = token.partition(":")
        if not out:
            out = {"HL": "L", "LH": "H", "T_HL": "L", "T_LH": "H", "NOISE": "*"}.get(card, level)
        slots.append({"card": card, "out": out})
        level = out
    assert len(slots) == 5, spec
    return slots


def position(players: int = 2, *, trains: Sequence[str], hands: Sequence[Sequence[str]],
             triggers: Iterable[tuple[str, str, int]] = (), phase: str = "trigger", turn: int = 0,
             start: int | None = None, pulse_top: Sequence[str] = (), trigger_top: Sequence[str] = (),
             discard: Sequence[str] = (), score_piles: Sequence[Sequence[str]] | None = None,
             kept: Sequence[int] | None = None, filters: Sequence[str | None] | None = None,
             stock: str | None = None, offer: Sequence[str] = (), counters: dict[str, int] | None = None,
             flags: dict[str, bool] | None = None, pending: dict[str, Any] | None = None,
             rest_to: str | None = None, trigger_rest_to: str | None = None,
             assigned: Sequence[Sequence[str]] | None = None, memory: dict[str, Any] | None = None) -> dict[str, Any]:
    """``$.position`` with every unnamed card in the decks (pulse kinds under ``pulse_top``,
    clear and XX triggers under ``trigger_top``), or in the score piles ``rest_to`` and
    ``trigger_rest_to`` (``"score:P"``).

    The seat memory (OSC-I-CT14) defaults to remembering nothing: no known cards, every hand card of
    unknown origin, each deck built from what it holds now; ``memory`` replaces members of it.
    """
    piles = [list(p) for p in (score_piles or [[] for _ in range(players)])]
    trig = [{"card": card, "at": at, "owner": owner} for card, at, owner in triggers]
    used: Counter[str] = Counter()
    rows = [train(t) for t in trains]
    for row in rows:
        used.update(s["card"] for s in row if s is not None)
    used.update(t["card"] for t in trig)
    for group in (*hands, pulse_top, trigger_top, discard, offer, *piles):
        used.update(group)
    used.update(f for f in (filters or []) if f is not None)
    if stock is not None:
        used[stock] += 1
    left = ALL_CARDS - used
    assert not used - ALL_CARDS, f"more cards than the game has: {used - ALL_CARDS}"
    pulse_rest = [k for k in TOKENS if k in PULSE_KINDS for _ in range(left[k])]
    trigger_rest = [k for k in TOKENS if k in TRIGGER_ONLY for _ in range(left[k])]
    if rest_to is not None:
        piles[int(rest_to.split(":")[1])] += pulse_rest
        pulse_rest = []
    if trigger_rest_to is not None:
        piles[int(trigger_rest_to.split(":")[1])] += trigger_rest
        trigger_rest = []
    solo = players == 1
    pulse_deck = list(pulse_top) + pulse_rest
    trigger_deck = list(trigger_top) + trigger_rest
    remembered = {
        "pulse_bottom": 0,
        "pulse_source": dict(sorted(Counter(pulse_deck).items(), key=lambda kv: TOKENS.index(kv[0]))),
        "trigger_source": dict(sorted(Counter(trigger_deck).items(), key=lambda kv: TOKENS.index(kv[0]))),
        "drawn": [{"pulse": {}, "trigger": {}} for _ in range(players)],
        "hands": [{"known": [], "pulse": 0, "trigger": 0, "any": len(h)} for h in hands],
        **(memory or {}),
    }
    return {
        "players": players,
        "phase": phase,
        "start_player": turn if start is None else start,
        "turn_player": turn,
        "trains": rows,
        "triggers": trig,
        "filters": list(filters) if filters is not None else ([None, None] if solo else []),
        "stock": stock,
        "offer": list(offer),
        "hands": [list(h) for h in hands],
        "pulse_deck": pulse_deck,
        "trigger_deck": trigger_deck,
        "discard": list(discard),
        "score_piles": piles,
        "kept_triggers": list(kept) if kept is not None else [0] * players,
        "assigned_trains": [list(a) for a in assigned] if assigned is not None else
        ([["A", "B"]] if solo else [[TRAIN_LETTERS[p]] for p in range(players)]),
        "counters": {"sets": 0, "stall": 0, "counted_noise": 0, **(counters or {})},
        "flags": {"captured_this_set": False, "captured_last_set": False, "any_trigger_placed": True,
                  "pulse_deck_mixed": False, **(flags or {})},
        "pending": pending or {},
        "memory": remembered,
    }


def envelope(players: int, pos: dict[str, Any], rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole position JSON around ``pos``."""
    game = load_game("oscilloscope", **(rules or {}))
    return {"format": 1, "game": "oscilloscope", "rules_version": 1, "rules": game.rules.flags(), "seed": 0,
            "setup": {"players": players}, "history": [], "rng": rng_to_json(random.Random(0)), "position": pos}


def load(players: int = 2, rules: dict[str, Any] | None = None, **kw: Any) -> OscilloscopeState:
    """A state from ``position(players, **kw)`` under ``rules`` flags."""
    game = load_game("oscilloscope", **(rules or {}))
    state = game.from_json(envelope(players, position(players, **kw), rules))
    assert isinstance(state, OscilloscopeState)
    return state


def refill_pending(players: int, index: int, trains: int | None = None, limit: int = 100) -> dict[str, Any]:
    """``pending`` of a refill phase with nothing discarded yet."""
    return {"index": index, "discards": [0] * players, "deliberate": [False] * players,
            "played": [0] * players, "stopped": [False] * (trains or max(players, 2)), "limit": limit}


def show(state: OscilloscopeState, train: str) -> str:
    """A train as ``"LH _ LOH LH _"``."""
    return " ".join(s["card"] if s else "_" for s in state.to_json()["position"]["trains"][TRAIN_LETTERS.index(train)])


def board(state: OscilloscopeState) -> list[str]:
    """Board triggers as ``["T_HL@A2", ...]`` in placement order."""
    return [f"{t['card']}@{t['at']}" for t in state.to_json()["position"]["triggers"]]


def hand(state: OscilloscopeState, seat: int) -> list[str]:
    """A hand as sorted tokens (card order)."""
    return list(state.to_json()["position"]["hands"][seat])


def pile(state: OscilloscopeState, seat: int) -> Counter[str]:
    """A score pile as a Counter."""
    return Counter(state.to_json()["position"]["score_piles"][seat])


def discards(state: OscilloscopeState) -> list[str]:
    """The discard pile, oldest first."""
    return list(state.to_json()["position"]["discard"])


def legal(state: OscilloscopeState) -> list[str]:
    """The legal actions as strings."""
    return [str(a) for a in state.legal_actions()]


def cards(spec: str) -> list[str]:
    """``"HL LOH"`` -> ``["HL", "LOH"]``."""
    return spec.split()
