"""Spec strings: one parser, clear errors that list the valid specs."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.agents import (
    DIFFICULTIES,
    LEVELS,
    AgentSpecError,
    HeuristicAgent,
    ISMCTSAgent,
    RandomAgent,
    make_agent,
    parse_spec,
)


def test_valid_specs_build_the_right_agents() -> None:
    """Every documented form builds the agent it names, with the level's budget and the options applied."""
    game = cardtable.load_game("tally")
    assert isinstance(make_agent("random", game), RandomAgent)
    assert isinstance(make_agent("heuristic", game), HeuristicAgent)
    hard = make_agent("ismcts:hard", game)
    assert isinstance(hard, ISMCTSAgent) and hard.config == LEVELS["hard"]
    assert isinstance(make_agent("ismcts", game), ISMCTSAgent)
    assert make_agent("ismcts", game).config == LEVELS["normal"]  # type: ignore[attr-defined]
    custom = make_agent(" ISMCTS:easy, iterations=77, c=1.5, rollout=heuristic, epsilon=0.2, depth=9 ", game)
    assert isinstance(custom, ISMCTSAgent)
    cfg = custom.config
    assert (cfg.iterations, cfg.exploration, cfg.rollout, cfg.rollout_epsilon, cfg.max_rollout_actions) == (
        77, 1.5, "heuristic", 0.2, 9)
    timed = make_agent("ismcts:seconds=0.5", game)
    assert isinstance(timed, ISMCTSAgent) and timed.config.seconds == 0.5 and timed.config.iterations is None
    for level, target in DIFFICULTIES.items():
        assert parse_spec(level) == parse_spec(target)
        make_agent(level, game)
    assert make_agent("heuristic:epsilon=0.25", game).epsilon == 0.25  # type: ignore[attr-defined]


@pytest.mark.parametrize(("spec", "fragment"), [
    ("alphazero", "unknown agent 'alphazero'"),
    ("", "unknown agent ''"),
    ("ismcts:impossible", "unknown level or option 'impossible'"),
    ("ismcts:hard,easy", "more than one level"),
    ("ismcts:iterations=lots", "iterations must be an integer"),
    ("ismcts:iterations=0", "iterations must be at least 1"),
    ("ismcts:seconds=-1", "seconds must be positive"),
    ("ismcts:rollout=smart", "rollout must be random or heuristic"),
    ("ismcts:budget=3", "ismcts takes no option 'budget'"),
    ("ismcts:c=1,c=2", "given twice"),
    ("ismcts:hard,", "empty option"),
    ("random:hard", "random has no levels"),
    ("random:epsilon=0.1", "random takes no option 'epsilon' (its options: none)"),
    ("heuristic:epsilon=2", "epsilon must be between 0 and 1"),
    ("hard:iterations=5", "takes no options"),
])
def test_bad_specs_say_what_is_wrong_and_list_the_valid_ones(spec: str, fragment: str) -> None:
    """Each mistake names the problem and lists every valid spec form."""
    game = cardtable.load_game("tally")
    with pytest.raises(AgentSpecError) as info:
        make_agent(spec, game)
    message = str(info.value)
    assert fragment in message
    assert "Valid specs: random" in message and "ismcts[:LEVEL" in message and "easy / normal / hard" in message
    assert isinstance(info.value, ValueError)


def test_heuristic_specs_need_a_heuristic_for_the_game() -> None:
    """A game without a heuristic says so, naming the games that have one."""
    from dataclasses import replace

    from toy_game import KIT

    from cardtable.core import registry

    game = cardtable.load_game("tally")
    registry.register(replace(KIT, heuristic=""))
    try:
        with pytest.raises(AgentSpecError, match="no heuristic for game 'tally'"):
            make_agent("heuristic", game)
        with pytest.raises(AgentSpecError, match="no heuristic for game 'tally'"):
            make_agent("ismcts:rollout=heuristic", game)
        make_agent("ismcts", game)  # random rollouts need none
    finally:
        registry.register(KIT)


def test_levels_are_calibrated_per_game() -> None:
    """Long games get their own budgets with truncated rollouts; Zeta's rollouts are greedy."""
    from cardtable.agents import game_levels, level_config

    utahime = make_agent("ismcts:hard", cardtable.load_game("utahime"))
    assert isinstance(utahime, ISMCTSAgent) and utahime.config == game_levels("utahime")["hard"]
    assert utahime.config.max_rollout_actions == 20 and utahime.evaluator is not None
    zeta = make_agent("ismcts:hard,iterations=50", cardtable.load_game("zeta"))
    assert isinstance(zeta, ISMCTSAgent) and zeta.config.rollout_epsilon == 0.0 and zeta.config.iterations == 50
    assert level_config("hard", "no-such-game") == LEVELS["hard"]
    assert game_levels("tally") == LEVELS  # a kit without levels keeps the defaults
    for levels in map(game_levels, ("zeta", "oscilloscope", "utahime")):
        assert set(levels) == set(LEVELS)
        assert levels["easy"].iterations < levels["normal"].iterations < levels["hard"].iterations  # type: ignore[operator]


def test_bench_times_each_difficulty_level_per_decision() -> None:
    """`cardtable bench agents` times the levels: each row names the game, level, budget and CPU seconds."""
    from cardtable.lab.agent_bench import level_times

    rows = level_times({"zeta": {}, "oscilloscope": {"players": 2}}, levels=("easy", "normal"), count=1)
    assert [(r.game, r.level, r.iterations) for r in rows] == [
        ("zeta", "easy", 100), ("zeta", "normal", 300), ("oscilloscope", "easy", 50), ("oscilloscope", "normal", 150)]
    assert all(0 < r.mean <= r.longest and r.positions == 1 for r in rows)
