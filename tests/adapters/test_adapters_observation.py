"""Observation tensors: a documented numpy encoding of a seat's view, memory included, with a shape fixed by the rules."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from cardtable.core import Game, load_game
from cardtable.games.oscilloscope.cards import CARD_TYPES
from cardtable.games.utahime.cards import INDEX_BY_NAME

from .adapter_helpers import GAMES, conformance_cases, random_states


def segment(game: Game[Any], obs: np.ndarray, name: str) -> np.ndarray:
    """The named segment of an observation."""
    at = 0
    for seg, size in game.observation_layout():
        if seg == name:
            return obs[at:at + size]
        at += size
    raise KeyError(name)


@pytest.mark.parametrize("name", GAMES)
def test_layout_names_each_segment_once_and_adds_up_to_the_shape(name: str) -> None:
    game = load_game(name)
    layout = game.observation_layout()
    assert len({seg for seg, _ in layout}) == len(layout)
    assert all(size > 0 for _, size in layout)
    assert game.observation_shape == (sum(size for _, size in layout),)


@pytest.mark.parametrize("name, flags, setup", conformance_cases())
def test_every_view_of_random_games_encodes_to_the_fixed_shape_in_0_1(name: str, flags: dict[str, Any],
                                                                       setup: dict[str, Any]) -> None:
    game = load_game(name, **flags)
    for state in random_states(game, setup, range(3), max_actions=300):
        for seat in [*range(state.num_players), None]:
            obs = game.encode_view(state.view(seat))
            assert obs.dtype == np.float32 and obs.shape == game.observation_shape
            assert np.isfinite(obs).all() and obs.min() >= 0.0 and obs.max() <= 1.0


def test_osc_i51_the_shape_depends_on_the_rules_not_on_the_number_of_players() -> None:
    game = load_game("oscilloscope")
    shapes = {game.encode_view(game.new_game(seed=1, players=n).view(0)).shape for n in (1, 2, 3, 4)}
    assert shapes == {game.observation_shape}
    assert load_game("oscilloscope", max_players=6).observation_shape != game.observation_shape


TWIN_CASES = [("zeta", {}, {}), ("zeta", {}, {"decks": ["control", "arcana"]}), ("oscilloscope", {}, {"players": 1}),
              ("oscilloscope", {}, {"players": 3}), ("utahime", {}, {}),
              ("utahime", {}, {"option_set": "designer_example"})]


@pytest.mark.parametrize("name, flags, setup", TWIN_CASES)
def test_zeta_r3_osc_i63_uta_r59_twins_differing_only_in_hidden_cards_look_the_same(
        name: str, flags: dict[str, Any], setup: dict[str, Any]) -> None:
    """A state dealt from a seat's view (other hands and decks redrawn) gives that seat the same tensor."""
    game = load_game(name, **flags)
    rng = random.Random(11)
    differing = 0
    for k, state in enumerate(random_states(game, setup, range(3), max_actions=250)):
        if k % 3 or state.is_over:
            continue
        for seat in range(state.num_players):
            twin = game.sample_state(state.view(seat), random.Random(rng.random()))
            differing += twin.to_json()["position"] != state.to_json()["position"]
            assert np.array_equal(game.encode_view(twin.view(seat)), game.encode_view(state.view(seat)))
    assert differing > 0, "the twins never differed: the test proved nothing"


@pytest.mark.parametrize("name, flags, setup", TWIN_CASES)
def test_different_views_of_random_games_give_different_tensors(name: str, flags: dict[str, Any],
                                                                 setup: dict[str, Any]) -> None:
    """The tensor keeps what the view tells apart (seeded random games, every seat)."""
    game = load_game(name, **flags)
    by_tensor: dict[bytes, str] = {}
    for state in random_states(game, setup, range(3), max_actions=250):
        for seat in range(state.num_players):
            view = state.view(seat)
            text = json.dumps(view, sort_keys=True)
            key = game.encode_view(view).tobytes()
            assert by_tensor.setdefault(key, text) == text, "two different views share a tensor"
    assert len(by_tensor) > 20


def test_zeta_the_tensor_holds_the_own_hand_and_the_board_and_no_other_hand() -> None:
    """ZETA-R3: the own hand is seen, the other hand only by its size."""
    game = load_game("zeta")
    scale = game.rules.deck_size
    for state in random_states(game, {}, range(2), max_actions=60):
        for seat in (0, 1):
            view = state.view(seat)
            obs = game.encode_view(view)
            hand = np.rint(segment(game, obs, "hand_own") * scale)
            assert hand.sum() == len(view["hands"][seat]) == view["hand_sizes"][seat]
            own = sum(1 for cell in view["board"].values() if cell["owner"] == seat)
            assert segment(game, obs, "board_own").sum() == own
            assert segment(game, obs, "board_opp").sum() == len(view["board"]) - own
            assert round(float(segment(game, obs, "hand_sizes")[1]) * scale) == view["hand_sizes"][1 - seat]


def test_zeta_i_ct6_a_returned_card_everybody_remembers_is_in_the_tensor() -> None:
    """ZETA-I-CT6: a card a Wind Mage returned is remembered in its owner's hand, by both seats."""
    game = load_game("zeta")
    found = 0
    for state in random_states(game, {"decks": ["classic", "classic"]}, range(60)):
        known = state.view(0)["known_hands"]
        if not any(known):
            continue
        for seat in (0, 1):
            obs = game.encode_view(state.view(seat))
            for owner, cards in enumerate(known):
                seg = segment(game, obs, "known_own" if owner == seat else "known_opp")
                assert round(float(seg.sum()) * game.rules.deck_size) == len(cards)
        found += 1
    assert found, "no random game returned a card with a Wind Mage"


def test_osc_i_ct14_hand_origins_and_deck_memory_are_in_the_tensor() -> None:
    """OSC-I-CT14: what each hand's cards came from, and what the decks may still hold."""
    game = load_game("oscilloscope")
    for state in random_states(game, {"players": 3}, range(2), max_actions=120):
        for seat in range(3):
            view = state.view(seat)
            obs = game.encode_view(view)
            memory = view["memory"]
            for key in ("pulse", "trigger", "any"):
                seg = segment(game, obs, f"origin_{key}")
                for other in range(3):
                    assert round(float(seg[(other - seat) % 3]) * 3) == memory["hands"][other][key]
            may = segment(game, obs, "pulse_may_hold")
            for c in CARD_TYPES:
                expected = memory["pulse_may_hold"].get(c.token, 0)
                assert round(float(may[int(c.card)]) * c.total) == expected
            own = np.rint(segment(game, obs, "hand_own") * 3)
            assert Counter({CARD_TYPES[k].token: int(n) for k, n in enumerate(own) if n}) == Counter(view["hands"][seat])


def test_uta_i_ct21_cards_a_seat_remembers_in_the_other_hand_are_in_the_tensor() -> None:
    """UTA-I-CT21: a seat's memory of the other hand (a look through ♦ or ♠, ...) is encoded, and only its own."""
    game = load_game("utahime")
    remembered = 0
    for state in random_states(game, {}, range(3), max_actions=300):
        for seat in (0, 1):
            view = state.view(seat)
            obs = game.encode_view(view)
            other = view["players"][1 - seat]
            in_hand = {m["card"] for m in other["memory"] or () if m["where"] == "hand"}
            seg = segment(game, obs, "opp_memory_hand")
            # the other seat's own cards lie in the tensor's second half of card slots
            expected = {58 + INDEX_BY_NAME[c] for c in in_hand if not c.startswith("~")}
            assert {int(i) for i in np.flatnonzero(seg)} == expected
            assert not segment(game, obs, "own_memory_hand").any(), "a seat's memory is of the other hand"
            remembered += len(in_hand)
    assert remembered, "no seat ever remembered a card"
