"""Termination: OSC-R64 and the action bound."""

from __future__ import annotations

import random

from cardtable.core import load_game
from cardtable.games.oscilloscope import OscilloscopeGame
from cardtable.games.oscilloscope.game import action_bound

from .helpers import A0, B0, load


def test_osc_r64_stall_limit_ends_the_game_after_the_set() -> None:
    st = load(rules={"stall_limit_sets": 3}, trains=[A0, B0], hands=[["T_HL", "HL", "LH"], ["T_LH", "HL", "LH"]],
              counters={"stall": 2})
    st.apply("place T_HL A3")  # a set cut short by OSC-R10 counts
    out = st.outcome()
    assert out is not None and out.rule == "OSC-R64" and out.winners == (0, 1)


def test_osc_r64_one_set_limit_in_random_games() -> None:
    game = load_game("oscilloscope", stall_limit_sets=1)
    for seed in range(5):
        st = game.new_game(seed=seed, players=2)
        rng = random.Random(seed)
        while not st.is_over:
            st.apply(st.legal_actions()[rng.randrange(len(st.legal_actions()))])
        assert st.outcome().rule in ("OSC-R64", "OSC-R34")  # type: ignore[union-attr]


def test_termination_bound_is_the_proved_bound() -> None:
    assert OscilloscopeGame.termination_bound == action_bound(6, 6, 100)
    assert action_bound(2, 2, 20) < OscilloscopeGame.termination_bound


def test_random_games_stay_far_below_the_bound() -> None:
    game = load_game("oscilloscope")
    for players in (1, 2, 4):
        for seed in range(4):
            st = game.new_game(seed=seed, players=players)
            rng = random.Random(seed)
            count = 0
            while not st.is_over:
                st.apply(st.legal_actions()[rng.randrange(len(st.legal_actions()))])
                count += 1
            assert count < action_bound(players, max(players, 2), 20)
