"""Fuzzing Zeta's input boundaries with hypothesis: action notation and position JSON.

- Malformed action strings only ever raise ``InvalidAction`` (not notation) or ``IllegalAction``
  (notation, not legal now), and a failed ``apply`` leaves the state exactly as it was.
- Mutated or random position JSON only ever raises ``InvalidPosition``, or loads a state that works.
- Every canonical string of every legal action round-trips through ``parse_action``.

The engine bugs this fuzzing found (all fixed) are pinned by the regression tests at the end.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable import Action, IllegalAction, InvalidAction, InvalidPosition, State
from cardtable.games.zeta import CARDS, ChooseLine, DestroyFromHand, Place, Target, ZetaGame
from cardtable.games.zeta.state import PHASE_NAMES

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CASES = ZetaGame.conformance_cases()
CARD_IDS = [c.id for c in CARDS]
SQUARES = [f"{f}{r}" for f in "abcdef" for r in range(1, 7)]


# ---------------------------------------------------------------------------------------- the pool
@cache
def pool() -> tuple[State, ...]:
    """Positions from random games of every conformance case: two whole games per case, every step,
    then more games until every phase has been seen (``line`` is rare: tens of games)."""
    out: list[State] = []
    phases: set[str] = set()
    for seed in range(1, 2000):
        for flags, setup in CASES:
            state = cardtable.load_game("zeta", **flags).new_game(seed=seed, **setup)
            rng = random.Random(seed)
            while True:
                phase = PHASE_NAMES[state.phase]  # type: ignore[attr-defined]
                if seed <= 2 or phase not in phases:
                    out.append(state.clone())
                    phases.add(phase)
                if state.is_over:
                    break
                actions = state.legal_actions()
                state.apply(actions[rng.randrange(len(actions))])
        if seed >= 2 and phases == set(PHASE_NAMES):
            break
    assert phases == set(PHASE_NAMES), f"the pool misses phases {set(PHASE_NAMES) - phases}"
    return tuple(out)


@cache
def pool_docs() -> tuple[dict[str, Any], ...]:
    return tuple(s.to_json() for s in pool())


def snapshot(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


state_index = st.integers(min_value=0).map(lambda i: i % len(pool()))


# ----------------------------------------------------------------------------- action strings
FRAGMENTS = [*CARD_IDS, "pass", "decline", "mulligan", "keep", "target", "destroy", "rank", "file", "@", ":",
             "a1", "c3", "f6", "d4", "g7", "a0", "a7", "1", "6", "7", "10", "-1", "", " ", "\t", "\n", "\x00",
             "\u3000", "PASS", "Chant_Practice", "chant", "@@", "::", "é", "ζ", "詠唱練習"]

action_texts = st.one_of(
    st.text(max_size=30),
    st.lists(st.sampled_from(FRAGMENTS), max_size=6).map("".join),
    st.builds(lambda c, s: f"{c}@{s}", st.sampled_from(CARD_IDS) | st.text(max_size=8),
              st.sampled_from(SQUARES) | st.text(max_size=4)),
    st.builds(lambda p, x: p + x, st.sampled_from(["target:", "destroy:", "rank:", "file:", "target", "destroy "]),
              st.sampled_from(SQUARES + CARD_IDS + list("123456789abcdefgz")) | st.text(max_size=12)),
    st.builds(lambda pre, core, post: pre + core + post, st.sampled_from(["", " ", "\n", "\t "]),
              st.sampled_from(["pass", "decline", "mulligan", "keep", "rank:1", "file:f", "target:c3",
                               "destroy:do_over", "chant_practice@a1"]),
              st.sampled_from(["", " ", "\n", "x", "1", ":", "@a1"])),
)


@FUZZ
@given(text=action_texts)
def test_parse_action_raises_only_invalid_action(text: str) -> None:
    for flags in ({}, {"board_width": 4, "board_height": 4, "deck_size": 20}):
        game = cardtable.load_game("zeta", **flags)
        try:
            action = game.parse_action(text)
        except InvalidAction as exc:
            assert exc.text == text
            continue
        # Accepted: it was canonical notation, possibly with surrounding whitespace.
        assert str(action) == text.strip()
        assert game.parse_action(str(action)) == action


@FUZZ
@given(index=state_index, text=action_texts)
def test_apply_of_malformed_text_raises_contract_errors_and_keeps_the_state(index: int, text: str) -> None:
    state = pool()[index].clone()
    before = snapshot(state)
    legal = [str(a) for a in state.legal_actions()]
    verdict = state.is_legal(text)
    try:
        state.apply(text)
    except (InvalidAction, IllegalAction):
        assert snapshot(state) == before, "a failed apply changed the state"
        assert not verdict
        return
    assert verdict and text.strip() in legal, f"applied {text!r}, which is not a legal action here"


@FUZZ
@given(index=state_index, data=st.data())
def test_well_formed_but_illegal_actions_raise_illegal_action(index: int, data: st.DataObject) -> None:
    """Canonical strings of the game's other actions: legal ones apply, the rest raise IllegalAction."""
    state = pool()[index].clone()
    text = data.draw(st.sampled_from(sorted(state.game.table.by_text)))  # type: ignore[attr-defined]
    before = snapshot(state)
    legal = {str(a) for a in state.legal_actions()}
    if text in legal:
        state.apply(text)
        return
    with pytest.raises(IllegalAction) as info:
        state.apply(text)
    assert info.value.rule and info.value.reason
    assert snapshot(state) == before


@FUZZ
@given(index=state_index, junk=st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.binary(max_size=8),
                                         st.lists(st.text(max_size=4), max_size=3),
                                         st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)))
def test_apply_of_non_actions_raises_invalid_action(index: int, junk: Any) -> None:
    state = pool()[index].clone()
    before = snapshot(state)
    with pytest.raises(InvalidAction):
        state.apply(junk)
    assert snapshot(state) == before
    assert not state.is_legal(junk)


def test_every_legal_action_of_the_pool_round_trips() -> None:
    for state in pool():
        game = state.game
        for action in state.legal_actions():
            text = str(action)
            again = game.parse_action(text)
            assert again == action and str(again) == text
            assert state.is_legal(text)


@FEW
@given(case=st.integers(0, len(CASES) - 1), seed=st.integers(0, 2**32))
def test_every_legal_action_of_random_games_round_trips(case: int, seed: int) -> None:
    flags, setup = CASES[case]
    game = cardtable.load_game("zeta", **flags)
    state = game.new_game(seed=seed, **setup)
    rng = random.Random(seed)
    while not state.is_over:
        actions = state.legal_actions()
        for action in actions:
            text = str(action)
            assert game.parse_action(text) == action and str(game.parse_action(text)) == text
        state.apply(actions[rng.randrange(len(actions))])


def test_every_notation_of_each_board_size_round_trips() -> None:
    for width in (4, 6):
        for height in (4, 6):
            game = cardtable.load_game("zeta", board_width=width, board_height=height)
            table = game.table  # type: ignore[attr-defined]
            for text in table.by_text:
                assert str(game.parse_action(text)) == text


# ----------------------------------------------------------------------------- position JSON
def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON document (the 625 RNG words sampled: first, middle, last)."""
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += paths(v, (*prefix, k))
    elif isinstance(node, list):
        indexes = range(len(node))
        if prefix == ("rng", 1):
            indexes = (0, 311, 623, 624)  # type: ignore[assignment]
        for i in indexes:
            out += paths(node[i], (*prefix, i))
    return out


@cache
def doc_paths(index: int) -> tuple[tuple[Any, ...], ...]:
    return tuple(p for p in paths(pool_docs()[index]) if p)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats(allow_nan=False) | st.text(max_size=8)
    | st.sampled_from([-1, 0, 1, 2, 3, 4, 7, 625, 10_000, 10_001, *CARD_IDS[:3], "joker", "a1", "f6", "g7", "",
                       *PHASE_NAMES, "rank:1", "file:z"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6) | st.sampled_from(SQUARES), inner,
                                                                max_size=3),
    max_leaves=8,
)


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    node = doc
    for key in path[:-1]:
        node = node[key]
    return node


def check_loaded(state: State) -> None:
    """A position that loaded must work: JSON round trip, views, and every legal action applies."""
    doc = state.to_json()
    assert state.game.from_json(copy.deepcopy(doc)).to_json() == doc
    for seat in (None, 0, 1):
        json.dumps(state.view(seat))
    state.summary()
    for action in list(state.legal_actions())[:60]:
        child = state.clone()
        child.apply(action)
        child.to_json()


def expect_invalid_or_working(game: Any, doc: Any) -> None:
    try:
        state = game.from_json(doc)
    except InvalidPosition as exc:
        assert exc.path.startswith("$"), exc.path
        event("rejected")
        return
    event("loaded")
    check_loaded(state)


@FUZZ
@given(index=st.integers(min_value=0), data=st.data())
def test_deleting_a_key_or_item_raises_invalid_position(index: int, data: st.DataObject) -> None:
    index %= len(pool_docs())
    doc = copy.deepcopy(pool_docs()[index])
    path = data.draw(st.sampled_from(doc_paths(index)))
    del _parent(doc, path)[path[-1]]
    expect_invalid_or_working(pool()[index].game, doc)


@FUZZ
@given(index=st.integers(min_value=0), data=st.data(), value=json_values)
def test_replacing_a_value_raises_invalid_position_or_loads(index: int, data: st.DataObject, value: Any) -> None:
    index %= len(pool_docs())
    doc = copy.deepcopy(pool_docs()[index])
    path = data.draw(st.sampled_from(doc_paths(index)))
    _parent(doc, path)[path[-1]] = value
    expect_invalid_or_working(pool()[index].game, doc)


@FUZZ
@given(index=st.integers(min_value=0), data=st.data())
def test_plausible_edits_raise_invalid_position_or_load_a_working_state(index: int, data: st.DataObject) -> None:
    """Edits that keep each value's type: another card, square, phase or seat, an int off by one, a list shuffled."""
    index %= len(pool_docs())
    doc = copy.deepcopy(pool_docs()[index])
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from([p for p in paths(doc) if p[:1] == ("position",) and len(p) > 1]))
        parent = _parent(doc, path)
        old = parent[path[-1]]
        new: Any = old
        if isinstance(old, bool):
            new = not old
        elif isinstance(old, int):
            new = old + data.draw(st.sampled_from([-2, -1, 1, 2]))
        elif isinstance(old, str):
            for choices in (CARD_IDS, SQUARES, list(PHASE_NAMES)):
                if old in choices:
                    new = data.draw(st.sampled_from(choices))
        elif isinstance(old, list) and old:
            new = list(old)
            op = data.draw(st.sampled_from(["drop", "duplicate", "shuffle"]))
            i = data.draw(st.integers(0, len(new) - 1))
            if op == "drop":
                new.pop(i)
            elif op == "duplicate":
                new.append(copy.deepcopy(new[i]))
            else:
                new = data.draw(st.permutations(new))
        elif isinstance(old, dict) and old:
            new = dict(old)
            key = data.draw(st.sampled_from(sorted(new)))
            if key in SQUARES:
                new[data.draw(st.sampled_from(SQUARES))] = new.pop(key)
            else:
                del new[key]
        parent[path[-1]] = new
    expect_invalid_or_working(pool()[index].game, doc)


@FUZZ
@given(doc=json_values)
def test_random_json_raises_invalid_position(doc: Any) -> None:
    game = cardtable.load_game("zeta")
    with pytest.raises(InvalidPosition):
        game.from_json(doc)


@FUZZ
@given(index=st.integers(min_value=0), position=json_values)
def test_random_json_as_the_position_raises_invalid_position(index: int, position: Any) -> None:
    index %= len(pool_docs())
    doc = copy.deepcopy(pool_docs()[index])
    doc["position"] = position
    with pytest.raises(InvalidPosition):
        pool()[index].game.from_json(doc)


def test_unchanged_pool_documents_load() -> None:
    for state, doc in zip(pool(), pool_docs(), strict=True):
        loaded = state.game.from_json(copy.deepcopy(doc))
        assert loaded.to_json() == doc
        seen: Counter[str] = Counter()
        for cards in loaded.zones().values():
            seen.update(cards)
        assert seen == loaded.expected_cards()


# ----------------------------------------------------------------------------- regressions
def _first_position(phase: str, **flags: Any) -> State:
    for state in pool():
        if PHASE_NAMES[state.phase] == phase and state.game.rules.changed_flags() == flags:  # type: ignore[attr-defined]
            return state.clone()
    raise AssertionError(f"no {phase} position in the pool")


def test_regression_pending_target_on_an_empty_square_is_rejected() -> None:
    """Found by fuzzing: from_json took a target on an empty square, and target:SQUARE then raised
    IndexError halfway through, leaving a corrupted state."""
    state = _first_position("target")
    doc = state.to_json()
    empty = next(s for s in SQUARES if s not in doc["position"]["board"] and s not in doc["position"]["blocked"])
    doc["position"]["pending"]["targets"].append(empty)
    with pytest.raises(InvalidPosition) as info:
        state.game.from_json(doc)
    assert info.value.path == "$.position.pending.targets"


@pytest.mark.parametrize("scores", [["x", 1], [[1], 2], [None, 1], [True, False]])
def test_regression_outcome_scores_must_be_numbers(scores: list[Any]) -> None:
    """Found by fuzzing: Outcome.from_json called float() unchecked (ValueError / TypeError escaped)."""
    state = _first_position("over")
    doc = state.to_json()
    doc["position"]["outcome"]["scores"] = scores
    with pytest.raises(InvalidPosition):
        state.game.from_json(doc)


@pytest.mark.parametrize(("flags", "text"), [({"board_width": 4}, "chant_practice@e1"),
                                             ({"board_height": 4}, "chant_practice@a6")], ids=["4x6", "6x4"])
def test_regression_action_objects_from_another_board_size(flags: dict[str, Any], text: str) -> None:
    """Found by fuzzing: a Place parsed on a 6x6 board compared equal by square index, so on a 4-wide
    board it landed on another square, and on a 4-high one it raised IndexError after changing the state."""
    big = cardtable.load_game("zeta")
    small = cardtable.load_game("zeta", first_player="p1", construction_limits=False, **flags)
    state = small.new_game(seed=1, decks=["plain", "plain"])
    before = snapshot(state)
    foreign = big.parse_action(text)  # no such square on the smaller board
    assert not state.is_legal(foreign)
    with pytest.raises(IllegalAction):
        state.apply(foreign)
    assert snapshot(state) == before


HAND_BUILT_TEXT = st.sampled_from(["x", ""]) | st.sampled_from(SQUARES).map("chant_practice@".__add__)


@FUZZ
@given(index=state_index, kind=st.sampled_from(["place", "target"]), card=st.integers(-3, 30),
       square=st.integers(-40, 60), text=HAND_BUILT_TEXT)
def test_hand_built_place_and_target_objects_raise_contract_errors(index: int, kind: str, card: int, square: int,
                                                                   text: str) -> None:
    """Action objects built by hand, not parsed: out-of-range indexes or a text that names another square."""
    state = pool()[index].clone()
    action = Place(card, square, text) if kind == "place" else Target(square, text)
    before = snapshot(state)
    legal = list(state.legal_actions())
    try:
        state.apply(action)
    except (IllegalAction, InvalidAction):
        assert snapshot(state) == before
        return
    assert action in legal


@pytest.mark.parametrize("action", [Place(0, -37, "x"), Place(-1, -1, "x"), DestroyFromHand(99),
                                    ChooseLine("file", 99)], ids=["place-37", "place-1-1", "destroy99", "file99"])
def test_hand_built_out_of_range_actions_raise_illegal_action(action: Action) -> None:
    state = _first_position("main")
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        state.apply(action)
    assert snapshot(state) == before
