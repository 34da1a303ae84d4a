"""Hidden information: views hide hands and decks (OSC-I63); sample_state builds from the view alone."""

from __future__ import annotations

import json
import random

from cardtable.core import load_game

GAME = load_game("oscilloscope")


def test_views_hide_other_hands_and_the_decks() -> None:
    state = GAME.new_game(seed=4, players=3)
    for viewer in (0, 1, 2, None):
        view = state.view(viewer)
        json.dumps(view)
        assert view["viewer"] == viewer and view["current_player"] == state.current_player
        assert view["pulse_deck"] is None and view["trigger_deck"] is None
        for p in range(3):
            assert (view["hands"][p] is not None) == (p == viewer)
        assert view["sizes"]["hands"] == [3, 3, 3]


def test_a_view_does_not_change_with_what_the_viewer_cannot_see() -> None:
    state = GAME.new_game(seed=9, players=2)
    other = state.clone()
    other.hands[1], other.pulse = [0] * 8, other.pulse[:]  # swap P2's hand with the top of the pulse deck
    for _ in range(3):
        other.hands[1][other.pulse.pop()] += 1
    other.pulse.extend(k for k in range(8) for _ in range(state.hands[1][k]))
    assert other.view(0) == state.view(0)
    assert other.view(1) != state.view(1)


def test_sample_state_matches_the_view_and_the_legal_actions() -> None:
    for players in (1, 2, 4):
        for seed in range(3):
            state = GAME.new_game(seed=seed, players=players)
            rng = random.Random(seed)
            while not state.is_over:
                seat = state.current_player
                view = state.view(seat)
                sample = GAME.sample_state(view, random.Random(rng.random()))
                assert sample.view(seat) == view
                assert sample.legal_actions() == state.legal_actions()
                assert sum(len(z) for z in sample.zones().values()) == 110
                state.apply(state.legal_actions()[rng.randrange(len(state.legal_actions()))])


def test_samples_differ_in_hidden_cards_only() -> None:
    state = GAME.new_game(seed=2, players=2)
    seen = set()
    for i in range(10):
        sample = GAME.sample_state(state.view(0), random.Random(i))
        seen.add(tuple(sample.zones()["hand:1"]))
        assert sample.zones()["hand:0"] == state.zones()["hand:0"]
    assert len(seen) > 1


def test_sampled_decks_hold_only_what_they_can() -> None:
    state = GAME.new_game(seed=3, players=2)
    for i in range(10):
        sample = GAME.sample_state(state.view(None), random.Random(i))
        assert set(sample.zones()["trigger_deck"]) <= {"LOH", "CLEAR", "T_HL", "T_LH", "T_BOTH"}
        assert set(sample.zones()["pulse_deck"]) <= {"HL", "LH", "LOH", "NOISE"}


def test_samples_for_other_seats_keep_the_phase_possible() -> None:
    """A trigger phase is public: every sample gives its decider a card with a legal target (OSC-R13)."""
    for seed in range(6):
        state = GAME.new_game(seed=seed, players=3)
        rng = random.Random(seed)
        while not state.is_over:
            if state.phase.value == "trigger":
                for viewer in (None, (state.current_player + 1) % 3):  # type: ignore[operator]
                    sample = GAME.sample_state(state.view(viewer), random.Random(rng.random()))
                    assert sample.legal_actions() and sample.view(viewer) == state.view(viewer)
            state.apply(state.legal_actions()[rng.randrange(len(state.legal_actions()))])


def test_osc_i_ct2_samples_keep_a_post_phase_possible() -> None:
    """A post phase is offered only with a legal placement (OSC-I-CT2): every sample for another seat gives
    its decider a trigger card that can be placed, not only the pass."""
    checked = 0
    for seed in range(4):
        state = GAME.new_game(seed=seed, players=3)
        rng = random.Random(seed)
        while not state.is_over:
            if state.phase.value == "post":
                viewer = (state.turn + 1) % 3
                for _ in range(3):
                    sample = GAME.sample_state(state.view(viewer), random.Random(rng.random()))
                    assert [str(a) for a in sample.legal_actions()] != ["pass"]
                    checked += 1
            state.apply(state.legal_actions()[rng.randrange(len(state.legal_actions()))])
    assert checked > 20
