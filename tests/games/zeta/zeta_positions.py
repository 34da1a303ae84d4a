"""Build Zeta positions the way the rulebook's scenarios describe them (§5 harness conventions).

``P1`` is seat 0 and moves on odd turns; the state is at the main-action step after the draw.
Board entries are ``"P1:magic_circle@c3"`` or ``"P2@a1"`` (an unnamed card is a chant_practice).
Hands and decks are lists of card ids; decks are written top card first.
"""

from __future__ import annotations

from typing import Any

import cardtable
from cardtable.games.zeta import ZetaState
from cardtable.games.zeta.state import MAIN, PHASE_NAMES

SHORT = {"chant": "chant_practice", "burst": "burst_circle", "great": "great_magic_circle", "circle": "magic_circle"}

# Filler set F(k) of the rulebook's harness conventions: all chant_practice.
FILLER = ["P1@a6", "P2@b6", "P2@c6", "P1@d6", "P1@e6", "P2@f6", "P2@a5", "P1@b5", "P1@c5", "P2@d5", "P2@e5", "P1@f5"]


def F(k: int) -> list[str]:
    """The first k entries of the filler set."""
    return FILLER[:k]


def _entry(text: str) -> tuple[str, int, str]:
    head, _, square = text.rpartition("@")
    who, _, card = head.partition(":")
    return square, {"P1": 0, "P2": 1}[who], SHORT.get(card, card or "chant_practice")


def build(
    board: list[str] | None = None,
    *,
    p1_hand: list[str] | None = None,
    p2_hand: list[str] | None = None,
    p1_deck: list[str] | None = None,
    p2_deck: list[str] | None = None,
    p1_destroyed: list[str] | None = None,
    p2_destroyed: list[str] | None = None,
    turn: int = 3,
    blocked: list[str] | None = None,
    markers: dict[str, int] | None = None,
    ever: tuple[list[str], list[str]] | None = None,
    effects: dict[str, list[int]] | None = None,
    flags: dict[str, Any] | None = None,
    seed: int = 0,
) -> ZetaState:
    """A main-phase position; the active player is P1 on odd turns and P2 on even turns."""
    game = cardtable.load_game("zeta", construction_limits=False, **(flags or {}))
    entries = [_entry(e) for e in (board or [])]
    hands = [[SHORT.get(c, c) for c in (p1_hand if p1_hand is not None else ["chant_practice"] * 3)],
             [SHORT.get(c, c) for c in (p2_hand if p2_hand is not None else ["chant_practice"] * 3)]]
    decks = [[SHORT.get(c, c) for c in (p1_deck if p1_deck is not None else ["chant_practice"] * 10)],
             [SHORT.get(c, c) for c in (p2_deck if p2_deck is not None else ["chant_practice"] * 10)]]
    destroyed = [[SHORT.get(c, c) for c in (p1_destroyed or [])], [SHORT.get(c, c) for c in (p2_destroyed or [])]]
    decklists: list[list[str]] = [[], []]
    for seat in (0, 1):
        decklists[seat] = hands[seat] + decks[seat] + destroyed[seat] + [c for _, o, c in entries if o == seat]
    active = 0 if turn % 2 else 1
    position = {
        "turn": turn,
        "first_player": 0,
        "active": active,
        "phase": PHASE_NAMES[MAIN],
        "decider": active,
        "board": {sq: {"card": card, "owner": seat} for sq, seat, card in entries},
        "blocked": list(blocked or []),
        "markers": dict(markers or {}),
        "ever_destroyed": [list(x) for x in (ever or ([], []))],
        "hand_sizes": [len(hands[0]), len(hands[1])],
        "deck_sizes": [len(decks[0]), len(decks[1])],
        "destroyed": destroyed,
        "destroyed_from_board": [0, 0],
        "removed": [[], []],
        "set_aside": None,
        "effects": {"negate_fanfares": [0, 0], "only_cost_zero": [0, 0], "broom": [0, 0], "apprentice_check": [0, 0],
                    **(effects or {})},
        "resolution": [],
        "mulligan_left": [],
        "decklists": decklists,
        "outcome": None,
        "pending": None,
        "hands": hands,
        "decks": [list(reversed(decks[0])), list(reversed(decks[1]))],
    }
    data = {
        "format": 1, "game": "zeta", "rules_version": game.rules.rules_version, "rules": game.rules.flags(),
        "seed": seed, "setup": {"decks": ["random", "random"]}, "history": [],
        "rng": cardtable.core.rng.rng_to_json(__import__("random").Random(seed)), "position": position,
    }
    state = game.from_json(data)
    assert isinstance(state, ZetaState)
    return state


def hand(state: ZetaState, seat: int) -> list[str]:
    """A seat's hand as sorted card ids."""
    return sorted(state.view(seat)["hands"][seat])


def pile(state: ZetaState, seat: int) -> list[str]:
    """A seat's Destroyed pile as card ids."""
    return list(state.view(None)["destroyed"][seat])


def board(state: ZetaState) -> dict[str, tuple[int, str]]:
    """Square -> (owner seat, card id)."""
    return {sq: (e["owner"], e["card"]) for sq, e in state.view(None)["board"].items()}


def legal(state: ZetaState) -> list[str]:
    """The legal action strings."""
    return [str(a) for a in state.legal_actions()]
