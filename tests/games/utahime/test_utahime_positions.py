"""Position JSON, its schema, malformed input, views and sampling from a view."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from importlib import resources
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from utahime_helpers import P1, P2, build, game, play

from cardtable.core import InvalidPosition
from cardtable.games.utahime.state import UtahimeState

SETUPS = [({}, {}), ({}, {"option_set": "designer_example"}),
          ({"diamond_next_pile": "self", "optional_draws": True, "heart_next_after_block": True,
            "wished_card_public": True, "free_flip_for_energy": True}, {"option_set": "designer_example"})]


def _states(flags: dict[str, Any], setup: dict[str, Any], seed: int, every: int = 1) -> list[UtahimeState]:
    s = game(**flags).new_game(seed=seed, **setup)
    assert isinstance(s, UtahimeState)
    rng = random.Random(seed)
    out = []
    i = 0
    while not s.is_over:
        if i % every == 0:
            out.append(s.clone())
        acts = s.legal_actions()
        s.apply(acts[rng.randrange(len(acts))])
        i += 1
    out.append(s)
    return out


@pytest.fixture(scope="module")
def schema() -> jsonschema.Draft202012Validator:
    text = resources.files("cardtable.games.utahime").joinpath("position.schema.json").read_text(encoding="utf-8")
    data = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(data)
    return jsonschema.Draft202012Validator(data)


@pytest.mark.parametrize(("flags", "setup"), SETUPS)
def test_random_positions_validate_against_the_schema(flags: dict[str, Any], setup: dict[str, Any],
                                                      schema: jsonschema.Draft202012Validator) -> None:
    for s in _states(flags, setup, seed=5, every=3):
        schema.validate(s.to_json())


@pytest.mark.parametrize(("flags", "setup"), SETUPS)
def test_json_round_trip_and_identical_continuation(flags: dict[str, Any], setup: dict[str, Any]) -> None:
    g = game(**flags)
    for s in _states(flags, setup, seed=8, every=9):
        data = json.loads(json.dumps(s.to_json()))
        back = g.from_json(data)
        assert back.to_json() == data
        a, b = s.clone(), back
        rng_a, rng_b = random.Random(1), random.Random(1)
        for _ in range(30):
            if a.is_over:
                break
            acts = a.legal_actions()
            assert [str(x) for x in acts] == [str(x) for x in b.legal_actions()]
            pick = acts[rng_a.randrange(len(acts))]
            rng_b.randrange(len(acts))
            a.apply(pick)
            b.apply(str(pick))
        assert a.to_json()["position"] == b.to_json()["position"]


@pytest.mark.parametrize(("flags", "setup"), SETUPS)
def test_card_conservation_at_every_step(flags: dict[str, Any], setup: dict[str, Any]) -> None:
    for s in _states(flags, setup, seed=13):
        assert Counter(c for zone in s.zones().values() for c in zone) == s.expected_cards()


def _mutations(data: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    paths: list[tuple[Any, ...]] = []

    def walk(node: Any, path: tuple[Any, ...]) -> None:
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, (*path, k))
        elif isinstance(node, list) and len(node) < 60:
            for i, v in enumerate(node):
                walk(v, (*path, i))

    walk(data["position"], ("position",))
    junk = st.one_of(st.none(), st.booleans(), st.integers(-3, 70), st.text(max_size=4),
                     st.sampled_from(["H7", "~H7", "C7+", "SK", "main", "block", "ban", "ZZ"]),
                     st.lists(st.integers(0, 3), max_size=3), st.dictionaries(st.text(max_size=3), st.none(), max_size=2))

    @st.composite
    def mutate(draw: st.DrawFn) -> dict[str, Any]:
        out = copy.deepcopy(data)
        for _ in range(draw(st.integers(1, 3))):
            path = draw(st.sampled_from(paths[1:]))
            parent: Any = out
            try:
                for key in path[:-1]:
                    parent = parent[key]
                if draw(st.booleans()) and isinstance(parent, dict):
                    parent.pop(path[-1], None)
                else:
                    parent[path[-1]] = draw(junk)
            except (KeyError, IndexError, TypeError):
                continue
        return out

    return mutate()


_BASES = [s.to_json() for s in _states({}, {"option_set": "designer_example"}, seed=21, every=25)]


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_malformed_positions_raise_only_invalid_position(data: st.DataObject) -> None:
    base = data.draw(st.sampled_from(_BASES))
    position = data.draw(_mutations(base))
    g = game()
    try:
        state = g.from_json(position)
    except InvalidPosition:
        return
    if not state.is_over:  # an accepted position can be played on
        assert state.legal_actions()
        state.apply(state.legal_actions()[0])


def test_wrong_envelope_and_conservation_errors_name_the_path() -> None:
    s = game().new_game(seed=1)
    data = s.to_json()
    data["position"]["players"][0]["deck"].pop()
    with pytest.raises(InvalidPosition, match="card conservation"):
        game().from_json(data)
    with pytest.raises(InvalidPosition, match=r"\$\.rules"):
        game(ace_value=14).from_json(s.to_json())


@pytest.mark.parametrize(("flags", "setup"), SETUPS)
def test_sampled_states_agree_with_the_view(flags: dict[str, Any], setup: dict[str, Any]) -> None:
    g = game(**flags)
    rng = random.Random(3)
    for s in _states(flags, setup, seed=17, every=2):
        for viewer in (P1, P2, None):
            view = s.view(viewer)
            json.dumps(view)
            sampled = g.sample_state(view, rng)
            assert sampled.view(viewer) == view
            if viewer is not None and viewer == s.current_player:
                assert [str(a) for a in sampled.legal_actions()] == [str(a) for a in s.legal_actions()]


def test_views_hide_what_the_viewer_may_not_know() -> None:
    s = build(3, P1, hands=(["S9", "HK"], ["D2", "C5"]), sets=({"HK": 1}, {}), discards=(["H2v"], ["C2v"]))
    for viewer in (P1, P2, None):
        text = json.dumps(s.view(viewer))
        other = [p for p in (P1, P2) if p != viewer]
        for p in other:
            for c in s.view(p)["players"][p]["hand"]:
                assert f'"{c}"' not in text.replace('"cosmic_pool"', "")  # hands hidden
        assert "deck\"" not in text  # no deck order
    assert s.view(P2)["players"][P1]["discard"][0]["card"] is None


def test_heart_next_reveal_is_public_while_pending() -> None:
    s = build(3, P1, hands=(["S9", "H2"], ["D2"]), decks=(["C5", "C6", "C7"], None))
    play(s, "attack S9", "noblock", "noreact", "take D2", "heartnext H2")
    for viewer in (P1, P2, None):
        assert s.view(viewer)["heart_next"]["revealed"] == ["C5", "C6", "C7"]
