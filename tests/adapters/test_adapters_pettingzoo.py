"""PettingZoo: every game (and 1-4 player Oscilloscope) passes PettingZoo's own api_test and seed_test."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test  # noqa: E402

from cardtable.adapters.pettingzoo import env  # noqa: E402
from cardtable.core import IllegalAction, load_game  # noqa: E402

from .adapter_helpers import ENV_CASES, case_id  # noqa: E402


@pytest.mark.parametrize("case", ENV_CASES, ids=case_id)
def test_pettingzoo_api_test(case: tuple[str, dict[str, Any]]) -> None:
    name, options = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice for dict observations that PettingZoo whitelists for its own games
        api_test(env(name, **options), num_cycles=200)


@pytest.mark.parametrize("case", ENV_CASES, ids=case_id)
def test_pettingzoo_seed_test(case: tuple[str, dict[str, Any]]) -> None:
    name, options = case
    seed_test(lambda: env(name, **options), num_cycles=200)


def _play(e: Any, seed: int) -> list[str]:
    """A whole random game through the environment; returns the actions as notation."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        assert e.agent_selection == f"player_{e.state.current_player}"
        legal = np.flatnonzero(obs["action_mask"])
        assert list(legal) == e.state.legal_action_indices()
        e.step(int(legal[rng.randrange(len(legal))]))
        del agent
    return list(e.state.history)


@pytest.mark.parametrize("case", ENV_CASES, ids=case_id)
def test_a_game_through_the_environment_is_the_engine_game_of_that_seed(case: tuple[str, dict[str, Any]]) -> None:
    """reset(seed=s) plays new_game(seed=s); the rewards at the end are returns()."""
    name, options = case
    e = env(name, **options)
    history = _play(e, 5)
    replayed = e.game.new_game(seed=5, **e.setup)
    for text in history:
        replayed.apply(text)
    assert replayed.to_json() == e.state.to_json()
    e.reset(seed=5)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        e.step(e.game.action_index(history[len(e.state.history)]))
    assert [totals[a] for a in e.possible_agents] == replayed.returns()


def test_observations_come_from_the_seat_views_and_masks_only_for_the_mover() -> None:
    e = env("oscilloscope", players=3)
    e.reset(seed=2)
    for agent in e.possible_agents:
        obs = e.observe(agent)
        seat = int(agent.split("_")[1])
        assert np.array_equal(obs["observation"], e.game.encode_view(e.state.view(seat)))
        assert bool(obs["action_mask"].any()) == (seat == e.state.current_player)


@pytest.mark.parametrize("name", ["zeta", "oscilloscope", "utahime"])
def test_zeta_r3_osc_i63_uta_r59_an_agent_sees_the_same_in_twins_differing_only_in_hidden_cards(name: str) -> None:
    """Swap the true state for one dealt from an agent's view: that agent's observation does not change."""
    e = env(name)
    e.reset(seed=9)
    rng = random.Random(3)
    for _ in range(30):
        if e.state.is_over:
            break
        for agent in e.agents:
            seat = int(agent.split("_")[1])
            before = e.observe(agent)
            real = e.state
            e.state = e.game.sample_state(real.view(seat), random.Random(rng.random()))
            after = e.observe(agent)
            e.state = real
            assert np.array_equal(before["observation"], after["observation"])
            assert np.array_equal(before["action_mask"], after["action_mask"])
        legal = e.state.legal_action_indices()
        e.step(legal[rng.randrange(len(legal))])


def test_an_action_the_mask_forbids_is_refused_with_its_rule() -> None:
    e = env("zeta")
    e.reset(seed=1)
    forbidden = next(i for i, m in enumerate(e.observe(e.agent_selection)["action_mask"]) if not m)
    before = e.state.to_json()
    with pytest.raises(IllegalAction, match=r"\[ZETA-R"):
        e.step(forbidden)
    assert e.state.to_json() == before


def test_max_steps_truncates_every_agent() -> None:
    e = env("utahime", max_steps=7)
    e.reset(seed=1)
    steps = 0
    for _ in e.agent_iter():
        _, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            assert truncated and not terminated
            e.step(None)
            continue
        e.step(e.state.legal_action_indices()[0])
        steps += 1
    assert steps == 7


def test_options_are_rule_flags_or_setup_and_a_game_object_works_too() -> None:
    e = env("zeta", gravity=True, decks=["control", "arcana"])
    assert e.game.rules.gravity and e.setup["decks"][1]["name"] == "arcana"
    e2 = env(load_game("oscilloscope", tiebreak="fewer_net_noise"), players=1)
    assert e2.possible_agents == ["player_0"] and e2.game.rules.tiebreak == "fewer_net_noise"
    with pytest.raises(ValueError, match="custom"):
        env("utahime", option_set="custom", option_toml='format = 1\nname = "x"\ntitle = "X"\n')
