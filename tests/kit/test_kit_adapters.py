"""The fourth game in the learning adapters: its kit's ``encoding`` gives PettingZoo and Gymnasium their
action index and observation tensor, and both environments step it to the end."""

from __future__ import annotations

import numpy as np


def test_pettingzoo_steps_it_to_the_end_with_masked_actions() -> None:
    from cardtable.adapters.pettingzoo import env

    e = env("tally", players=3)
    e.reset(seed=4)
    assert e.agents == ["player_0", "player_1", "player_2"]
    rng = np.random.default_rng(4)
    steps = 0
    for _agent in e.agent_iter(max_iter=100):
        obs, _reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        assert obs["observation"].shape == (9,) and obs["observation"].dtype == np.float32
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
        steps += 1
    assert 0 < steps <= 18 and not e.agents


def test_gymnasium_plays_a_seat_against_its_heuristic_to_the_end() -> None:
    from cardtable.adapters.gymnasium import env

    e = env("tally", opponent="heuristic")
    obs, _info = e.reset(seed=9)
    assert e.action_space.n == 6  # type: ignore[attr-defined]
    done, reward = False, 0.0
    for _ in range(20):
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, _info = e.step(int(legal[0]))
        done = terminated or truncated
        if done:
            break
    assert done and reward in (-1.0, 0.0, 1.0)
