"""Pinned perft-style counts: the number of legal action sequences from fixed seeds to fixed depths.

A changed count means the legal-move generator changed; the failure prints the per-action breakdown.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable.core import perft, perft_divide, play_random

PLAIN = ({"construction_limits": False}, {"decks": ["plain", "plain"]})

CASES: list[tuple[dict[str, Any], dict[str, Any], int, int, int, int]] = [
    # flags, setup, seed, random actions played first, depth, count
    ({}, {}, 1, 0, 1, 37),
    ({}, {}, 1, 0, 2, 2629),
    ({}, {}, 2, 0, 2, 1441),
    (*PLAIN, 1, 0, 3, 46729),
    ({"mulligan": "once"}, {"decks": ["control", "arcana"]}, 1, 0, 4, 15592),
    ({}, {"decks": ["control", "arcana"]}, 3, 14, 2, 6189),
    ({}, {"decks": ["control", "arcana"]}, 4, 14, 2, 4513),
]


@pytest.mark.parametrize(("flags", "setup", "seed", "prefix", "depth", "expected"), CASES)
def test_zeta_perft(flags: dict[str, Any], setup: dict[str, Any], seed: int, prefix: int, depth: int,
                    expected: int) -> None:
    state = cardtable.load_game("zeta", **flags).new_game(seed=seed, **setup)
    if prefix:
        play_random(state, random.Random(seed), max_actions=prefix)
    got = perft(state, depth)
    assert got == expected, f"perft({depth}) = {got}, expected {expected}; by first action: " \
                            f"{perft_divide(state, depth)}"
