"""The shipped JSON Schema of Zeta positions (``position.schema.json``) against ``State.to_json()``.

Every position of random games (each conformance case, several seeds, every step) must validate;
broken documents must not; and the schema's enums must agree with the engine's tables.
"""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from importlib import resources
from typing import Any

import jsonschema
import pytest

import cardtable
from cardtable.games.zeta import CARDS, ZetaGame, ZetaRules
from cardtable.games.zeta.state import PHASE_NAMES

SEEDS = (1, 2, 3, 4)
CASES = ZetaGame.conformance_cases()


@cache
def schema() -> dict[str, Any]:
    """The schema as installed with the package (package data ``**/*.json``)."""
    text = resources.files("cardtable.games.zeta").joinpath("position.schema.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema())


def errors(doc: Any) -> list[str]:
    return [f"{e.json_path}: {e.message[:300]}" for e in validator().iter_errors(doc)]


def positions(flags: dict[str, Any], setup: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    """``to_json()`` at every step of a random game, the finished position included."""
    state = cardtable.load_game("zeta", **flags).new_game(seed=seed, **setup)
    rng = random.Random(seed * 104729)
    out = [state.to_json()]
    while not state.is_over:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        out.append(state.to_json())
    return out


@cache
def sample_doc(case: int = 0) -> dict[str, Any]:
    """The first position of a random game of a conformance case (callers deep-copy it)."""
    flags, setup = CASES[case]
    return positions(flags, setup, 1)[0]


def test_schema_is_valid_draft_2020_12() -> None:
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema())


def test_schema_enums_match_the_engine() -> None:
    defs = schema()["$defs"]
    assert defs["card_id"]["enum"] == [c.id for c in CARDS]
    assert schema()["$defs"]["position"]["properties"]["phase"]["enum"] == list(PHASE_NAMES)
    assert schema()["properties"]["rules_version"]["const"] == ZetaRules.RULES_VERSION
    flags = defs["rules"]["properties"]
    assert list(flags) == [s.name for s in ZetaRules.flag_specs()]
    assert defs["rules"]["required"] == list(flags)
    for spec in ZetaRules.flag_specs():
        entry = flags[spec.name]
        assert entry["default"] == spec.default, spec.name
        if spec.choices is not None:
            assert entry["enum"] == list(spec.choices), spec.name
        elif spec.kind is bool:
            assert entry["type"] == "boolean", spec.name
        assert spec.ledger in entry["description"], spec.name


def test_position_keys_are_exactly_the_schema_properties() -> None:
    doc = sample_doc()
    assert set(doc) == set(schema()["properties"])
    assert set(doc["position"]) == set(schema()["$defs"]["position"]["properties"])


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("case", range(len(CASES)), ids=[f"case{i}" for i in range(len(CASES))])
def test_every_position_of_random_games_validates(case: int, seed: int) -> None:
    flags, setup = CASES[case]
    for step, doc in enumerate(positions(flags, setup, seed)):
        problems = errors(doc)
        assert not problems, f"case {case} seed {seed} step {step}: {problems[:3]}"


@cache
def find_doc(phase: str) -> dict[str, Any]:
    """The first position in ``phase`` of random games over the conformance cases (callers deep-copy it).

    Some phases are rare (``line`` needs two full lines when a Single-Arrow resolves): tens of games.
    """
    for seed in range(1, 2000):
        for flags, setup in CASES:
            state = cardtable.load_game("zeta", **flags).new_game(seed=seed, **setup)
            rng = random.Random(seed)
            while True:
                if PHASE_NAMES[state.phase] == phase:  # type: ignore[attr-defined]
                    return state.to_json()
                if state.is_over:
                    break
                actions = state.legal_actions()
                state.apply(actions[rng.randrange(len(actions))])
    raise AssertionError(f"no random game reached phase {phase}")


@pytest.mark.parametrize("phase", PHASE_NAMES)
def test_every_phase_validates_and_round_trips(phase: str) -> None:
    """Each phase, the rare pending decisions (mourn, line) included, validates and survives from_json."""
    doc = find_doc(phase)
    assert not errors(doc), phase
    game = cardtable.load_game("zeta", **doc["rules"])
    assert game.from_json(copy.deepcopy(doc)).to_json() == doc


def broken(mutate: Any) -> dict[str, Any]:
    doc = copy.deepcopy(sample_doc())
    mutate(doc)
    return doc


def _set(path: str, value: Any) -> Any:
    keys = path.split(".")

    def mutate(doc: dict[str, Any]) -> None:
        target = doc
        for k in keys[:-1]:
            target = target[int(k)] if isinstance(target, list) else target[k]
        last = keys[-1]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return mutate


def _delete(path: str) -> Any:
    keys = path.split(".")

    def mutate(doc: dict[str, Any]) -> None:
        target = doc
        for k in keys[:-1]:
            target = target[k]
        del target[keys[-1]]

    return mutate


BROKEN = {
    "extra top-level key": _set("extra", 1),
    "missing position": _delete("position"),
    "missing phase": _delete("position.phase"),
    "unknown phase": _set("position.phase", "attack"),
    "wrong game": _set("game", "utahime"),
    "format 2": _set("format", 2),
    "seat 2": _set("position.active", 2),
    "turn 0": _set("position.turn", 0),
    "turn as string": _set("position.turn", "1"),
    "bool flag as string": _set("rules.gravity", "false"),
    "unknown flag value": _set("rules.first_player", "p2"),
    "unknown flag": _set("rules.teleport", True),
    "board off the grid": _set("position.board", {"g7": {"card": "chant_practice", "owner": 0}}),
    "board unknown card": _set("position.board", {"a1": {"card": "joker", "owner": 0}}),
    "board entry extra key": _set("position.board", {"a1": {"card": "chant_practice", "owner": 0, "x": 1}}),
    "blocked not a square": _set("position.blocked", ["a0"]),
    "three hands": _set("position.hands", [[], [], []]),
    "unknown card in deck": _set("position.decks.0", ["chant_practice", "joker"]),
    "negative hand size": _set("position.hand_sizes", [-1, 3]),
    "effects extra key": _set("position.effects.shield", [0, 0]),
    "pending in main": _set("position.pending", {"source": "fire_mage", "square": "a1", "targets": ["a2"]}),
    "outcome while playing": _set("position.outcome", {"winners": [0], "reason": "deck_out", "rule": "ZETA-R23",
                                                       "scores": None, "detail": ""}),
    "history not notation": _set("history", ["chant_practice@z9"]),
    "rng too short": _set("rng", [3, [0] * 624, None]),
    "rng word too large": lambda doc: doc["rng"][1].__setitem__(0, 2**32),
    "deck count zero": lambda doc: doc["setup"]["decks"][0]["cards"].__setitem__("chant_practice", 0),
    "one deck": _set("setup.decks", ["random"]),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_broken_documents_are_rejected(name: str) -> None:
    doc = broken(BROKEN[name])
    assert errors(doc), f"schema accepted: {name}"


def test_phase_specific_pending_is_enforced() -> None:
    target = find_doc("target")
    assert not errors(target)
    for mutate in (_set("position.pending", None), _delete("position.pending.targets"),
                   _set("position.pending.source", "dark_mage"), _set("position.pending.drawn", ["do_over"] * 2)):
        doc = copy.deepcopy(target)
        mutate(doc)
        assert errors(doc)
    fortune = copy.deepcopy(find_doc("fortune"))
    fortune["position"]["pending"]["drawn"] = ["do_over"]
    assert errors(fortune)
    over = copy.deepcopy(find_doc("over"))
    assert not errors(over)
    over["position"]["outcome"] = None
    assert errors(over)


def test_small_boards_narrow_the_squares() -> None:
    """On the 4x4 conformance case, e5 and rank 5 do not exist; on 6x6 they do."""
    small = sample_doc(4)
    assert small["rules"]["board_width"] == 4 and small["rules"]["board_height"] == 4
    assert not errors(small)
    for mutate in (_set("position.blocked", ["e1"]), _set("position.blocked", ["a5"]),
                   _set("position.markers", {"d5": 0}), _set("history", ["chant_practice@e1"]),
                   _set("position.ever_destroyed", [["f6"], []])):
        doc = copy.deepcopy(small)
        mutate(doc)
        assert errors(doc)
    big = copy.deepcopy(sample_doc(0))
    big["position"]["markers"] = {"f6": 0}
    assert not errors(big)
