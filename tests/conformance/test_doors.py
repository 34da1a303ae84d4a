"""The two doors of every game: ``apply`` checks, ``apply_legal`` trusts its caller, and both end in the same state.

Nothing here names a game: every registered game runs under each of its conformance cases.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cardtable
from cardtable.core import IllegalAction, State, game_class, game_names


def _cases() -> list[Any]:
    return [pytest.param(name, flags, setup, id=f"{name}-{i}")
            for name in game_names() for i, (flags, setup) in enumerate(game_class(name).conformance_cases())]


def _snapshot(state: State) -> str:
    return json.dumps({"state": state.to_json(), "events": [e.to_json() for e in state.events]}, sort_keys=True)


@pytest.mark.parametrize(("name", "flags", "setup"), _cases())
def test_both_doors_reach_the_same_states(name: str, flags: dict[str, Any], setup: dict[str, Any]) -> None:
    """Random games played through ``apply`` and through ``apply_legal`` stay identical, event logs included."""
    game = cardtable.load_game(name, **flags)
    for seed in (1, 2):
        checked = game.new_game(seed=seed, record_events=True, **setup)
        trusted = game.new_game(seed=seed, record_events=True, **setup)
        rng = random.Random(seed)
        while not checked.is_over:
            legal = checked.legal_actions()
            action = legal[rng.randrange(len(legal))]
            assert checked.apply(action) == trusted.apply_legal(trusted.legal_actions()[legal.index(action)])
            assert _snapshot(checked) == _snapshot(trusted)
        assert trusted.is_over


@pytest.mark.parametrize(("name", "flags", "setup"), _cases())
def test_the_checked_door_refuses_with_the_rule(name: str, flags: dict[str, Any], setup: dict[str, Any]) -> None:
    """An action that is legal in no position now is refused by ``apply`` with a rule id, and the state is unchanged."""
    game = cardtable.load_game(name, **flags)
    state = game.new_game(seed=5, **setup)
    rng = random.Random(5)
    refused = 0
    for _ in range(60):
        if state.is_over:
            break
        legal = state.legal_actions()
        other = next((a for a in game.indexed_actions() if a not in legal), None) if game.has_encoding else None
        if other is not None and not state.is_legal(other):
            before = json.dumps(state.to_json(), sort_keys=True)
            with pytest.raises(IllegalAction) as refusal:
                state.apply(other)
            assert refusal.value.rule, "the refusal names the rule it enforces"
            assert json.dumps(state.to_json(), sort_keys=True) == before
            refused += 1
        state.apply_legal(legal[rng.randrange(len(legal))])
    assert refused or not game.has_encoding
