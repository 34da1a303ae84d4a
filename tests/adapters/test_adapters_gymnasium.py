"""Gymnasium: one seat against built-in agents passes Gymnasium's check_env, for every game."""

from __future__ import annotations

import random
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env  # noqa: E402

from cardtable.adapters.gymnasium import env, env_id  # noqa: E402

from .adapter_helpers import ENV_CASES, case_id  # noqa: E402


@pytest.mark.parametrize("case", ENV_CASES, ids=case_id)
def test_gymnasium_check_env(case: tuple[str, dict[str, Any]]) -> None:
    name, options = case
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env(name, opponent="heuristic", **options))
    # the checker warns only that a bare environment has no spec to test other render modes with
    assert all("spec" in str(w.message) for w in caught), [str(w.message) for w in caught]


@pytest.mark.parametrize("name", ["zeta", "oscilloscope", "utahime"])
def test_gymnasium_make_and_check_env_with_the_registered_id(name: str) -> None:
    made = gymnasium.make(env_id(name), opponent="random")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(made.unwrapped)
    assert not caught, [str(w.message) for w in caught]


@pytest.mark.parametrize("case", ENV_CASES, ids=case_id)
def test_an_episode_ends_with_the_seat_return_and_opponents_move_between_steps(case: tuple[str, dict[str, Any]]) -> None:
    name, options = case
    seat = 1 if options.get("players", 2) > 1 else 0
    e = env(name, seat=seat, opponent="random", **options)
    rng = random.Random(4)
    obs, info = e.reset(seed=8)
    assert e.seed_used == e.state.seed == 8 and set(info) == {"action_mask"}  # the seed would tell hidden cards
    done, reward, steps = False, 0.0, 0
    while not done:
        assert e.state.current_player == seat
        mask = obs["action_mask"]
        assert np.array_equal(mask, info["action_mask"]) and np.array_equal(mask.astype(bool), e.action_masks())
        assert list(np.flatnonzero(mask)) == e.state.legal_action_indices()
        legal = np.flatnonzero(mask)
        obs, reward, terminated, truncated, info = e.step(int(legal[rng.randrange(len(legal))]))
        assert not truncated
        done = terminated
        steps += 1
        if not done:
            assert reward == 0.0
    assert e.state.is_over and reward == e.state.returns()[seat]
    assert steps < len(e.state.history) or e.game.num_players_for(e.setup) == 1


def test_an_unmasked_illegal_action_ends_the_episode_with_the_illegal_reward() -> None:
    e = env("zeta", illegal_reward=-2.0)
    obs, _ = e.reset(seed=3)
    forbidden = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = e.step(forbidden)
    assert (reward, terminated, truncated) == (-2.0, True, False)
    assert info["illegal"].startswith("ZETA-R")
    with pytest.raises(ValueError, match="reset"):
        e.step(forbidden)


def test_zeta_r3_the_learner_sees_its_view_only() -> None:
    """The observation is the learner's view: redealing the hidden cards changes nothing the learner gets."""
    e = env("zeta", opponent="heuristic")
    obs, _ = e.reset(seed=12)
    twin = e.game.sample_state(e.state.view(0), random.Random(1))
    assert twin.to_json()["position"]["hands"][1] != e.state.to_json()["position"]["hands"][1]
    assert np.array_equal(obs["observation"], e.game.encode_view(twin.view(0)))


def test_opponent_specs_one_per_other_seat() -> None:
    e = env("oscilloscope", players=3, seat=2, opponent=["heuristic", "random"])
    assert [a.spec for a in e.opponents.values()] == ["heuristic", "random"]
    with pytest.raises(ValueError, match="one per other seat"):
        env("oscilloscope", players=3, opponent=["random"])
    with pytest.raises(ValueError, match="seat"):
        env("zeta", seat=2)
