"""Pinned perft counts: the number of legal action sequences from fixed positions (a change means the rules changed)."""

from __future__ import annotations

import pytest
from utahime_helpers import game

from cardtable.core import perft, perft_divide

VARIANT = {"optional_draws": True, "free_flip_for_energy": True, "heart_next_after_block": True,
           "rank_effects_on_block": True}
EX = {"option_set": "designer_example"}

PINNED = [
    # (flags, setup, seed, counts for depth 1, 2, ...) after the wishes ♥A (first seat) and ♠A (second seat)
    ({}, {}, 1, [22, 143, 874, 4721]),
    ({}, {}, 2, [37, 306, 1670, 7452]),
    ({}, EX, 1, [30, 357, 4105]),
    ({}, EX, 2, [45, 569, 6681]),
    (VARIANT, {}, 1, [22, 143, 873, 4540]),
    (VARIANT, {}, 2, [37, 402, 1883, 8034]),
    (VARIANT, EX, 1, [30, 357, 3896]),
    (VARIANT, EX, 2, [45, 665, 6739]),
]


@pytest.mark.parametrize(("flags", "setup", "seed", "counts"), PINNED)
def test_perft_pinned(flags: dict[str, bool], setup: dict[str, str], seed: int, counts: list[int]) -> None:
    s = game(**flags).new_game(seed=seed, **setup)
    s.apply("wish HA")
    s.apply("wish SA")
    got = [perft(s, depth) for depth in range(1, len(counts) + 1)]
    if got != counts:  # pragma: no cover - the breakdown helps find what changed
        print(perft_divide(s, len(counts)))
    assert got == counts


def test_perft_of_the_wished_cards() -> None:
    assert perft(game().new_game(seed=1), 2) == 52 * 52  # UTA-R3: any card of the own deck
