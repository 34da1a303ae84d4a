"""Zeta's views and position writer: what a seat may know and the ``$.position`` JSON of a state.

- :func:`view_json` is what a seat may know (ZETA-R3) and remembers (ZETA-I-CT6): everything public,
  its own hand, and the cards every seat knows to be in each hand (``known_hands``).
- :func:`position_json` writes ``$.position`` (:mod:`cardtable.games.zeta.position` reads it back).

It reads a state's fields and imports only the vocabulary and the card table, so the state imports
it without a circle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CARDS
from .vocab import EFFECT_KEYS, F_CARD, F_COVERED, F_POS, F_SEAT, F_SQUARE, F_TOP, F_VACANCY, PHASE_NAMES

if TYPE_CHECKING:
    from .state import ZetaState


def _ids(cards: list[int]) -> list[str]:
    return [CARDS[c].id for c in cards]


# ---------------------------------------------------------------------------------------- writing
def public_json(state: ZetaState) -> dict[str, Any]:
    """The part of a position every seat sees (ZETA-R3), memory (ZETA-I-CT6) included."""
    geo = state.geo
    names = geo.names
    board = {names[s]: {"card": CARDS[state.card[s]].id, "owner": state.owner[s]}
             for s in range(geo.size) if state.card[s] >= 0}
    markers = {names[s]: seat for seat in (0, 1) for s in geo.squares(state.marks[seat])}
    return {
        "turn": state.turn,
        "first_player": state.first,
        "active": state.active,
        "phase": PHASE_NAMES[state.phase],
        "board": board,
        "blocked": [names[s] for s in geo.squares(state.blocked)],
        "markers": dict(sorted(markers.items())),
        "ever_destroyed": [[names[s] for s in geo.squares(state.ever[p])] for p in (0, 1)],
        "hand_sizes": list(state.hand_size),
        "known_hands": [_ids(state.known_cards(p)) for p in (0, 1)],
        "deck_sizes": [len(state.decks[0]), len(state.decks[1])],
        "destroyed": [_ids(state.destroyed[p]) for p in (0, 1)],
        "destroyed_from_board": list(state.destroyed_board),
        "removed": [_ids(state.removed[p]) for p in (0, 1)],
        "set_aside": CARDS[state.set_aside].id if state.set_aside >= 0 else None,
        "effects": {key: list(getattr(state, attr)) for key, attr, _ in EFFECT_KEYS},
        "resolution": [
            {"seat": f[F_SEAT], "card": CARDS[f[F_CARD]].id, "square": names[f[F_SQUARE]], "top_level": bool(f[F_TOP]),
             "step": f[F_POS], "covered": CARDS[f[F_COVERED]].id if f[F_COVERED] >= 0 else None,
             "vacancy": bool(f[F_VACANCY])}
            for f in state.frames
        ],
        "mulligan_left": list(state.mulligan_left),
        "decklists": [_ids(state.decklists[p]) for p in (0, 1)],
        "outcome": state.result.to_json() if state.result is not None else None,
    }


def pending_json(state: ZetaState, reveal: bool) -> dict[str, Any] | None:
    """The pending decision; Fortune-Telling's two drawn cards only with ``reveal`` (the decider's own)."""
    p = state.pending
    if not p:
        return None
    geo = state.geo
    out: dict[str, Any] = {"source": CARDS[p["source"]].id, "square": geo.names[p["square"]]}
    if "mask" in p:
        out["targets"] = [geo.names[s] for s in geo.squares(p["mask"])]
    if "lines" in p:
        out["lines"] = [str(state._line_action(k, i)) for k, i in p["lines"]]
    if "drawn" in p:
        out["drawn"] = _ids(p["drawn"]) if reveal else None
    return out


def view_json(state: ZetaState, player: int | None) -> dict[str, Any]:
    """What ``player`` may know (ZETA-R3): everything but the other hand and deck order, plus memory (I-CT6)."""
    out: dict[str, Any] = {"game": "zeta", "viewer": player, "current_player": state.current_player,
                           "board_size": [state.geo.width, state.geo.height]}
    out.update(public_json(state))
    out["pending"] = pending_json(state, reveal=player is not None and player == state.decider)
    out["hands"] = [_ids(state.hand_cards(p)) if player == p else None for p in (0, 1)]
    out["setup"] = state.setup
    return out


def position_json(state: ZetaState) -> dict[str, Any]:
    """``$.position``: the public part, the decider, the pending decision, both hands and both decks."""
    out = public_json(state)
    out["decider"] = state.decider
    out["pending"] = pending_json(state, reveal=True)
    out["hands"] = [_ids(state.hand_cards(p)) for p in (0, 1)]
    out["decks"] = [_ids(state.decks[p]) for p in (0, 1)]
    return out
