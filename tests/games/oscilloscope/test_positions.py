"""Position JSON: round trips, the JSON Schema, and malformed input raising only InvalidPosition."""

from __future__ import annotations

import copy
import json
import random
from importlib.resources import files
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.core import InvalidPosition, load_game

SCHEMA = json.loads(files("cardtable.games.oscilloscope").joinpath("position.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
GAME = load_game("oscilloscope")


def random_positions(players: int, seeds: range, every: int = 5) -> list[dict[str, Any]]:
    out = []
    for seed in seeds:
        state = GAME.new_game(seed=seed, players=players)
        rng = random.Random(seed)
        count = 0
        while True:
            if count % every == 0 or state.is_over:
                out.append(state.to_json())
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            count += 1
    return out


SAMPLES = random_positions(1, range(2)) + random_positions(2, range(2)) + random_positions(4, range(1))


def test_schema_is_valid_and_positions_match_it() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    variant = load_game("oscilloscope", close_gaps_on_capture=True, refill_all_players=True,
                        exhaustion_ends_game=False, lowhi_multi_per_set=True, capture_optional=True)
    for data in SAMPLES:
        VALIDATOR.validate(data["position"])
    for seed in range(2):
        state = variant.new_game(seed=seed, players=3)
        rng = random.Random(seed)
        count = 0
        while not state.is_over:
            if count % 6 == 0:
                VALIDATOR.validate(state.to_json()["position"])
            state.apply(state.legal_actions()[rng.randrange(len(state.legal_actions()))])
            count += 1
        VALIDATOR.validate(state.to_json()["position"])


def test_round_trip_continues_identically() -> None:
    for data in SAMPLES[::3]:
        state = GAME.from_json(json.loads(json.dumps(data)))
        assert state.to_json() == data
        if not state.is_over:
            twin = GAME.from_json(data)
            action = state.legal_actions()[-1]
            state.apply(action)
            twin.apply(action)
            assert state.to_json() == twin.to_json()


@pytest.mark.parametrize("path,value,where", [
    (("players",), 3, "$.position.players"),
    (("phase",), "lunch", "$.position.phase"),
    (("trains", 0, 0), {"card": "CLEAR", "out": "*"}, "$.position.trains[0][0].card"),
    (("trains", 0, 0), {"card": "HL", "out": "H"}, "$.position.trains[0][0].out"),
    (("hands", 0), ["HL", "HL", "HL", "HL"], "$.position.hands[0]"),
    (("trigger_deck", 0), "NOISE", "$.position.trigger_deck[0]"),
    (("counters", "stall"), -1, "$.position.counters.stall"),
])
def test_bad_fields_name_their_path(path: tuple[Any, ...], value: Any, where: str) -> None:
    data = copy.deepcopy(next(d for d in SAMPLES if d["setup"]["players"] == 2 and d["position"]["phase"] == "trigger"))
    target = data["position"]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(InvalidPosition) as info:
        GAME.from_json(data)
    assert info.value.path.startswith(where)


def test_card_conservation_is_checked() -> None:
    data = copy.deepcopy(SAMPLES[3])
    data["position"]["discard"].append("HL")
    with pytest.raises(InvalidPosition, match="110 cards"):
        GAME.from_json(data)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node[:6]):
            out += _paths(v, (*prefix, i))
    return out


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-3, 200) | st.floats(allow_nan=False)
                           | st.sampled_from(["HL", "T_BOTH", "A3", "H", "*", "over", "refill", ""]) | st.text(max_size=4),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                           max_leaves=6)


@settings(max_examples=250, deadline=None)
@given(st.integers(0, len(SAMPLES) - 1), st.integers(0, 10_000), JSON_VALUES, st.booleans())
def test_malformed_positions_only_raise_invalid_position(which: int, where: int, value: Any, delete: bool) -> None:
    data = copy.deepcopy(SAMPLES[which])
    paths = [p for p in _paths(data["position"]) if p]
    path = paths[where % len(paths)]
    parent = data["position"]
    for key in path[:-1]:
        parent = parent[key]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    elif delete and isinstance(parent, list):
        parent.pop(path[-1])
    else:
        parent[path[-1]] = value
    try:
        state = GAME.from_json(data)
    except InvalidPosition:
        return
    assert state.is_over or state.legal_actions()
    total = sum((len(v) for v in state.zones().values()), 0)
    assert total == 110
