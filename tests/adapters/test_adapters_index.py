"""The action index of the contract: a fixed bijection between 0..N-1 and every action a game can offer."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable.adapters.common import game_and_setup
from cardtable.core import Action, Game, State, load_game
from cardtable.games.utahime.actions import UseOption
from cardtable.games.zeta.cards import NUM_TYPES
from cardtable.games.zeta.rules import ZetaRules

from .adapter_helpers import GAMES, conformance_cases, random_states


@pytest.mark.parametrize("name, flags, setup", conformance_cases())
def test_index_is_a_bijection_of_canonical_actions(name: str, flags: dict[str, Any], setup: dict[str, Any]) -> None:
    game = load_game(name, **flags)
    actions = game.indexed_actions()
    assert len(actions) == game.num_distinct_actions > 0
    assert len(set(actions)) == len(actions), "an action is indexed twice"
    assert len({str(a) for a in actions}) == len(actions), "two indexes share a notation"
    for i, action in enumerate(actions):
        assert game.action_from_index(i) is action
        assert game.parse_action(str(action)) == action  # the index holds canonical actions only
        assert game.action_index(action) == i
        assert game.action_index(str(action)) == i


@pytest.mark.parametrize("name, flags, setup", conformance_cases())
def test_every_legal_action_of_random_games_has_an_index(name: str, flags: dict[str, Any],
                                                         setup: dict[str, Any]) -> None:
    game = load_game(name, **flags)
    seen: set[int] = set()
    for state in random_states(game, setup, range(4), max_actions=400):
        legal = state.legal_actions()
        indices = state.legal_action_indices()
        assert indices == sorted(set(indices)) and len(indices) == len(legal)
        assert {str(game.action_from_index(i)) for i in indices} == {str(a) for a in legal}
        mask = state.legal_action_mask()
        assert len(mask) == game.num_distinct_actions and sum(mask) == len(legal)
        assert [i for i, m in enumerate(mask) if m] == indices
        for a in legal:
            assert state.action_index(a) == game.action_index(str(a))
        seen.update(indices)
    assert seen, "no decision was taken"


def test_zeta_index_size_is_card_types_times_squares_plus_the_decisions() -> None:
    """ZETA-R14, R13, R30, R38, R39, R59, R11: K x S placements, pass, S targets, K destroys, H + W lines, 3 more."""
    for width, height in ((6, 6), (4, 4), (6, 4)):
        game = load_game("zeta", board_width=width, board_height=height)
        s = width * height
        assert game.num_distinct_actions == NUM_TYPES * s + 1 + s + NUM_TYPES + height + width + 3
    assert load_game("zeta").num_distinct_actions == 977


def test_documented_index_sizes() -> None:
    assert load_game("oscilloscope").num_distinct_actions == 250
    assert load_game("oscilloscope", max_players=6).num_distinct_actions == 350  # OSC-I51: six trains
    assert load_game("utahime").num_distinct_actions == 762
    assert load_game("utahime", diamond_next_pile="self").num_distinct_actions > 762  # UTA-I60: the ~ cards


@pytest.mark.parametrize("name", GAMES)
def test_action_from_index_refuses_what_is_not_an_index(name: str) -> None:
    game = load_game(name)
    for bad in (-1, game.num_distinct_actions, True):
        with pytest.raises(ValueError, match="no action index"):
            game.action_from_index(bad)


def test_an_action_outside_the_index_is_refused_by_name() -> None:
    game = load_game("utahime")
    with pytest.raises(ValueError, match="not in utahime's action index"):
        game.action_index(UseOption("not_a_shipped_card"))


def test_uta_r46_custom_option_sets_are_outside_the_index() -> None:
    """Option cards are named in their actions: the index knows the shipped sets' cards, not a custom set's."""
    game = load_game("utahime")
    assert game.encoding_problem({}) is None
    assert game.encoding_problem({"option_set": "designer_example"}) is None
    toml = 'format = 1\nname = "mine"\ntitle = "Mine"\n\n[[option]]\nname = "zap"\ntitle = "Zap"\ncost = 1\n' \
           'text = "Draw."\neffects = [{ do = "draw", count = 1 }]\n'
    problem = game.encoding_problem({"option_set": "custom", "option_toml": toml})
    assert problem is not None and "custom" in problem
    assert load_game("zeta").encoding_problem({}) is None


def test_legal_actions_map_to_indexes_fast_and_to_equal_actions() -> None:
    """An action equal to an indexed one (not the same object) finds the same index."""
    game = load_game("oscilloscope")
    state = game.new_game(seed=5, players=1)
    rng = random.Random(1)
    while not state.is_over:
        for a in state.legal_actions():
            assert game.action_index(game.parse_action(str(a))) == state.action_index(a)
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


class _BareGame(Game[ZetaRules]):
    """A game whose package ships no encoding module."""

    name = "bare"

    def _new_state(self, seed: int, setup: dict[str, Any], rng: random.Random) -> State:
        raise NotImplementedError

    def parse_action(self, text: str) -> Action:
        raise NotImplementedError

    def _state_from_json(self, position: Any, seed: int, setup: dict[str, Any], rng: random.Random) -> State:
        raise NotImplementedError

    def sample_state(self, view: Any, rng: random.Random) -> State:
        raise NotImplementedError


def test_a_game_without_an_encoding_module_says_so_and_the_adapters_refuse_it() -> None:
    bare = _BareGame(ZetaRules())
    assert not bare.has_encoding and all(load_game(n).has_encoding for n in GAMES)
    with pytest.raises(NotImplementedError, match="bare has no action index"):
        bare.num_distinct_actions  # noqa: B018
    with pytest.raises(ValueError, match="no action index"):
        game_and_setup(bare, {})
