"""Helpers for the Utahime tests: build rulebook positions by hand, and play."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from typing import Any

from cardtable.core import load_game
from cardtable.games.utahime.cards import CARDS_PER_SEAT, INDEX_BY_NAME, deck_cards
from cardtable.games.utahime.game import UtahimeGame
from cardtable.games.utahime.state import BAN, BLOCK_BONUS, BONUS_810, SELF, UP, Phase, UtahimeState

P1, P2 = 0, 1
SUIT_INDEX = {"H": 0, "S": 1, "C": 2, "D": 3}


def game(**flags: Any) -> UtahimeGame:
    """The Utahime game with these flags."""
    g = load_game("utahime", **flags)
    assert isinstance(g, UtahimeGame)
    return g


def card(owner: int, text: str) -> int:
    """The card int of a seat's card written ``H7`` / ``C7+``."""
    return owner * CARDS_PER_SEAT + INDEX_BY_NAME[text]


def names(owner: int, cards: Iterable[int]) -> list[str]:
    """Card ints as their names (own cards plain)."""
    from cardtable.games.utahime.cards import token

    return [token(c, owner) for c in cards]


def build(
    turn: int,
    attacker: int = P1,
    *,
    flags: Mapping[str, Any] | None = None,
    setup: Mapping[str, Any] | None = None,
    hands: tuple[list[str], list[str]] = ([], []),
    sets: tuple[Mapping[str, int], Mapping[str, int]] = ({}, {}),
    discards: tuple[list[str], list[str]] = ([], []),
    decks: tuple[list[str] | None, list[str] | None] = (None, None),
    energy: tuple[int, int] = (0, 0),
    jokers: tuple[bool, bool] = (True, True),
    pools: tuple[list[str] | None, list[str] | None] = (None, None),
    effects: Iterable[tuple[int, str, int, Any]] = (),
    seed: int = 7,
) -> UtahimeState:
    """A position at the start of ``turn`` (phase main), as a rulebook scenario describes it.

    ``discards`` entries are ``"H7"`` (face up, played by the owner), ``"H7v"`` (face down) or
    ``"H7^"`` (face up, placed by the opponent). Unlisted cards of a deck stay in the deck, whose
    listed top cards come first. The wished card is the first own card of the hand or pile (UTA-R3);
    a player with neither gets the deck's bottom card face down at the bottom of the pile. ``effects`` are (turn, kind, player, value) with kind ``ban``
    (value a suit letter), ``plus2``, ``plus810``, ``minus2`` or ``attack`` (value in half-points).
    """
    g = game(**(flags or {}))
    state = g.new_game(seed=seed, **dict(setup or {}))
    assert isinstance(state, UtahimeState)
    state.turn = turn
    state.attacker = attacker
    state.first = attacker if turn % 2 == 1 else 1 - attacker
    state.phase = Phase.MAIN
    for p in (0, 1):
        own_deck = set(deck_cards(p))
        used: set[int] = set()
        hand = [card(p, c) for c in hands[p]]
        used.update(hand)
        state.hands[p] = hand
        state.set_turn[p] = {card(p, c): t for c, t in sets[p].items()}
        pile = []
        for entry in discards[p]:
            if entry.endswith("v"):
                c, bits = card(p, entry[:-1]), 0
            elif entry.endswith("^"):
                c, bits = card(p, entry[:-1]), UP
            else:
                c, bits = card(p, entry), UP | SELF
            used.add(c)
            pile.append(c | bits)
        state.discards[p] = pile
        pool_names = pools[p]
        all_pool = [c for c in state.pools[p]]
        if pool_names is None:
            state.pools[p] = [c for c in all_pool if c not in used]
        else:
            state.pools[p] = [card(p, n + "+") for n in pool_names]
        in_pool = set(state.pools[p])
        for c in all_pool:
            if c not in in_pool and c not in used:
                raise AssertionError(f"cosmic card {c} is in no zone; list it in a hand or discard")
        top = [card(p, c) for c in (decks[p] or [])]
        used.update(top)
        # the wished card went into the hand at the deal and never returns to the deck (UTA-R3): it is the
        # first own card of the hand or pile; with neither, the deck's bottom card lies face down in the pile
        outside = [c for c in hand + [e & 127 for e in pile] if c in own_deck]
        if not outside:
            bottom = next(c for c in reversed(deck_cards(p)) if c not in used)
            used.add(bottom)
            pile.insert(0, bottom)
            outside = [bottom]
        state.wished[p] = outside[0]
        rest = [c for c in deck_cards(p) if c not in used]
        state.decks[p] = list(reversed(top + rest))
        state.energy[p] = energy[p]
        state.joker_up[p] = jokers[p]
    kinds = {"ban": BAN, "plus2": BLOCK_BONUS, "minus2": BLOCK_BONUS, "plus810": BONUS_810, "attack": 3}
    for t, kind, player, value in effects:
        if kind == "ban":
            state.effects.append((t, BAN, player, SUIT_INDEX[value]))
        else:
            default = {"plus2": 4, "minus2": -4, "plus810": 2, "attack": 3}[kind]
            state.effects.append((t, kinds[kind], player, default if value is None else value))
    # the same position through the validating reader (conservation and consistency checks)
    copy = g.from_json(json.loads(json.dumps(state.to_json())))
    assert isinstance(copy, UtahimeState)
    return copy


def strs(actions: Iterable[object]) -> list[str]:
    """Actions as their canonical strings."""
    return [str(a) for a in actions]


def verbs(state: UtahimeState, verb: str) -> list[str]:
    """The legal actions starting with ``verb``."""
    return [str(a) for a in state.legal_actions() if str(a).split()[0] == verb]


def play(state: UtahimeState, *actions: str) -> UtahimeState:
    """Apply actions in order (each must be legal)."""
    for a in actions:
        state.apply(a)
    return state


def started(seed: int = 1, **flags: Any) -> UtahimeState:
    """A new game after both wishes (the first wishes ♥A, the second ♠A)."""
    s = game(**flags).new_game(seed=seed)
    assert isinstance(s, UtahimeState)
    s.apply("wish HA")
    s.apply("wish SA")
    return s


def random_playout(state: UtahimeState, rng: random.Random, limit: int = 100_000) -> UtahimeState:
    """Random legal actions until the game ends."""
    n = 0
    while not state.is_over:
        acts = state.legal_actions()
        state.apply(acts[rng.randrange(len(acts))])
        n += 1
        assert n < limit
    return state
