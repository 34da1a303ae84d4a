"""OpenSpiel: every game registered as a Python game passes OpenSpiel's random-simulation test, and its bots play it."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,unused-ignore]
import pytest
from open_spiel.python import observation as spiel_observation  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from cardtable.adapters.openspiel import load, short_name  # noqa: E402

from .adapter_helpers import GAMES  # noqa: E402

SIM_CASES = [("zeta", {}), ("zeta", {"construction_limits": False, "setup": json.dumps({"decks": ["plain", "plain"]})}),
             ("oscilloscope", {"players": 1}), ("oscilloscope", {"players": 2}), ("utahime", {}),
             ("utahime", {"setup": json.dumps({"option_set": "designer_example"})})]
SLOW_SIM_CASES = [("oscilloscope", {"players": 3}), ("oscilloscope", {"players": 4}),
                  ("oscilloscope", {"trigger_cards_connect": True, "flat_after_wild": "declare", "players": 2}),
                  ("zeta", {"board_width": 4, "board_height": 4, "gravity": True, "mulligan": "once",
                            "setup": json.dumps({"decks": ["random", "random"]})}),
                  ("utahime", {"diamond_next_pile": "self", "rank_effects_on_block": True, "optional_draws": True,
                               "setup": json.dumps({"option_set": "designer_example"})})]


def _id(case: tuple[str, dict[str, Any]]) -> str:
    name, params = case
    return name + "".join(f"-{k}" if k == "setup" else f"-{k}={v}" for k, v in params.items())


@pytest.mark.parametrize("case", SIM_CASES, ids=_id)
def test_openspiel_random_sim_test(case: tuple[str, dict[str, Any]]) -> None:
    name, params = case
    pyspiel.random_sim_test(load(name, **params), num_sims=2, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("case", SLOW_SIM_CASES, ids=_id)
def test_openspiel_random_sim_test_more_setups(case: tuple[str, dict[str, Any]]) -> None:
    name, params = case
    pyspiel.random_sim_test(load(name, **params), num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_registered_with_its_type(name: str) -> None:
    assert short_name(name) in pyspiel.registered_names()
    game = pyspiel.load_game(short_name(name))
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_distinct_actions() == game.cardtable.num_distinct_actions
    assert game.observation_tensor_shape() == list(game.cardtable.observation_shape)
    assert game.max_game_length() == game.cardtable.termination_bound


def test_parameters_are_rule_flags_and_setup() -> None:
    game = load("oscilloscope", players=3, tiebreak="fewer_net_noise")
    assert game.num_players() == 3 and game.cardtable.rules.tiebreak == "fewer_net_noise"
    zeta = pyspiel.load_game("cardtable_zeta", {"gravity": True, "setup": json.dumps({"decks": ["control", "arcana"]})})
    assert zeta.cardtable.rules.gravity and zeta.setup["decks"][0]["name"] == "control"
    solo = pyspiel.load_game("cardtable_oscilloscope(players=1,solo_scoring=general_formula)")
    assert solo.num_players() == 1 and solo.cardtable.rules.solo_scoring == "general_formula"
    with pytest.raises((ValueError, pyspiel.SpielError), match="custom"):
        load("utahime", setup=json.dumps({"option_set": "custom", "option_toml": 'format = 1\nname = "x"\n'}))


def test_rng_seed_deals_a_reproducible_sequence_of_games() -> None:
    first = [load("zeta", rng_seed=4).new_initial_state().engine.seed for _ in range(2)]
    game = load("zeta", rng_seed=4)
    again = [game.new_initial_state().engine.seed, game.new_initial_state().engine.seed]
    assert first[0] == again[0] and again[0] != again[1]


@pytest.mark.parametrize("name", GAMES)
def test_strings_and_tensors_are_the_views(name: str) -> None:
    """Python calls and OpenSpiel's C++ observers agree; both are the seat's view (a spectator's when public)."""
    game = load(name)
    state = game.new_initial_state()
    rng = random.Random(2)
    public = spiel_observation.make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                         private_info=pyspiel.PrivateInfoType.NONE))
    for _ in range(25):
        engine = state.engine
        for p in range(game.num_players()):
            view = engine.view(p)
            text = json.dumps(view, sort_keys=True, separators=(",", ":"))
            assert state.information_state_string(p) == text == pyspiel.State.information_state_string(state, p)
            assert state.observation_string(p) == text == pyspiel.State.observation_string(state, p)
            tensor = game.cardtable.encode_view(view)
            assert np.array_equal(np.asarray(state.observation_tensor(p), np.float32), tensor)
            assert np.array_equal(np.asarray(pyspiel.State.observation_tensor(state, p), np.float32), tensor)
            assert np.array_equal(np.asarray(pyspiel.State.information_state_tensor(state, p), np.float32), tensor)
            public.set_from(state, p)
            assert np.array_equal(public.tensor, game.cardtable.encode_view(engine.view(None)))
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    with pytest.raises(ValueError, match="no player"):
        state.observation_string(game.num_players())


@pytest.mark.parametrize("name", GAMES)
def test_zeta_r3_osc_i63_uta_r59_resampled_states_keep_the_information_state(name: str) -> None:
    """resample_from_infostate redeals what the player cannot see, and nothing else."""
    game = load(name)
    state = game.new_initial_state()
    rng = random.Random(5)
    differing = 0
    for _ in range(40):
        if state.is_terminal():
            break
        p = state.current_player()
        sampled = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert sampled.information_state_string(p) == state.information_state_string(p)
        assert sampled.observation_tensor(p) == state.observation_tensor(p)
        assert sampled.legal_actions() == state.legal_actions()
        differing += str(sampled) != str(state)
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert differing > 0


def test_clones_continue_like_the_original_and_are_independent() -> None:
    game = load("zeta")
    state = game.new_initial_state()
    clone = state.clone()
    for _ in range(6):
        a = state.legal_actions()[-1]
        state.apply_action(a)
        clone.apply_action(a)
    assert str(state) == str(clone) and state.history() == clone.history()
    clone.apply_action(clone.legal_actions()[0])
    assert str(state) != str(clone)
    restored = game.new_initial_state(json.dumps(state.engine.to_json()))  # a cardtable position, as text
    assert restored.engine.to_json() == state.engine.to_json()
    assert game.new_initial_state(state.engine.to_json()).legal_actions() == state.legal_actions()


def _play_with_bots(name: str, params: dict[str, Any], max_decisions: int | None) -> tuple[Any, int]:
    game = load(name, **params)
    rs = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots = [mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=rs),
            ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=rs)]
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal() and (max_decisions is None or n < max_decisions):
        bot = bots[(state.current_player() + n) % 2 if game.num_players() == 1 else state.current_player() % 2]
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        n += 1
    return state, n


@pytest.mark.parametrize("case", [("zeta", {}), ("oscilloscope", {"players": 1})], ids=_id)
def test_openspiel_mcts_and_ismcts_bots_play_whole_games(case: tuple[str, dict[str, Any]]) -> None:
    state, n = _play_with_bots(*case, max_decisions=None)
    assert state.is_terminal() and n > 0
    assert state.returns() == state.engine.returns()


@pytest.mark.parametrize("case", [("oscilloscope", {"players": 2}), ("utahime", {})], ids=_id)
def test_openspiel_mcts_and_ismcts_bots_play_long_games_through_the_adapter(case: tuple[str, dict[str, Any]]) -> None:
    state, n = _play_with_bots(*case, max_decisions=12)
    assert n == 12 or state.is_terminal()


@pytest.mark.slow
@pytest.mark.parametrize("case", [("oscilloscope", {"players": 3}), ("utahime", {})], ids=_id)
def test_openspiel_bots_play_long_games_to_the_end(case: tuple[str, dict[str, Any]]) -> None:
    state, _ = _play_with_bots(*case, max_decisions=None)
    assert state.is_terminal() and state.returns() == state.engine.returns()
