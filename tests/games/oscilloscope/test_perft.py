"""Pinned perft counts: legal action sequences from fixed seeds (a change means the rules changed)."""

from __future__ import annotations

import pytest

from cardtable.core import load_game, perft, perft_divide

CASES = [
    # (players, seed, depth, count)
    (1, 1, 1, 3), (1, 1, 2, 8), (1, 1, 4, 16), (1, 1, 7, 283), (1, 1, 9, 1572),
    (2, 1, 1, 2), (2, 1, 3, 16), (2, 1, 6, 140), (2, 1, 9, 3570),
    (3, 5, 6, 1554),
    (4, 2, 5, 768),
]


@pytest.mark.parametrize("players,seed,depth,count", CASES)
def test_perft(players: int, seed: int, depth: int, count: int) -> None:
    state = load_game("oscilloscope").new_game(seed=seed, players=players)
    got = perft(state, depth)
    assert got == count, f"perft({players}p seed {seed}, {depth}) = {got}, not {count}; by first action: " \
                         f"{perft_divide(state, depth)}"
