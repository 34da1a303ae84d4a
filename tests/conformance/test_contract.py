"""The shared conformance suite: every registered game, under each of its conformance cases.

Later games join by registering; nothing here names a game.
"""

from __future__ import annotations

import inspect
import json
import random
from collections import Counter
from typing import Any

import pytest

import cardtable
from cardtable.core import (
    IllegalAction,
    InvalidAction,
    InvalidPosition,
    State,
    game_class,
    game_names,
    play_random,
    record_of,
    replay,
)

SEEDS = (1, 2, 3)


def _cases() -> list[Any]:
    out = []
    for name in game_names():
        for i, (flags, setup) in enumerate(game_class(name).conformance_cases()):
            out.append(pytest.param(name, flags, setup, id=f"{name}-{i}"))
    return out


CASES = _cases()


def _new(name: str, flags: dict[str, Any], setup: dict[str, Any], seed: int) -> State:
    return cardtable.load_game(name, **flags).new_game(seed=seed, **setup)


def _check_conservation(state: State) -> None:
    seen: Counter[str] = Counter()
    for cards in state.zones().values():
        seen.update(cards)
    assert seen == state.expected_cards(), "card conservation: every card in exactly one zone"


def _fields(state: State) -> set[str]:
    """The names of a state's fields that are set (its ``__dict__``, or a compiled state's slots)."""
    if hasattr(state, "__dict__"):
        return set(vars(state))
    names = {n for cls in type(state).__mro__ for n, v in vars(cls).items() if inspect.isgetsetdescriptor(v)}
    return {n for n in names if hasattr(state, n)}


def _check_views(state: State, rng: random.Random) -> None:
    game = state.game
    for p in [None, *range(state.num_players)]:
        view = state.view(p)
        assert json.loads(json.dumps(view)) == view, "view must be JSON-safe"
        assert view["viewer"] == p
        assert view["current_player"] == state.current_player
        if p is None or state.is_over:
            continue
        sampled = game.sample_state(view, random.Random(rng.random()))
        # The view hides what it must: a state resampled from the hidden cards looks the same to p.
        assert sampled.view(p) == view, f"sample_state(view({p})) does not reproduce the view"
        _check_conservation(sampled)
        # A sampler may skip whole-position checks for speed; what it builds must still pass them.
        assert game.from_json(sampled.to_json()).view(p) == view
        if p == state.current_player:
            assert [str(a) for a in sampled.legal_actions()] == [str(a) for a in state.legal_actions()]
        _check_sampler(game, view, rng.random())


def _check_sampler(game: Any, view: dict[str, Any], seed: float) -> None:
    """A search's sampler deals what ``sample_state`` deals, draw for draw, however its samples are played."""
    sampler = game.sampler(view)
    mine, fresh = random.Random(seed), random.Random(seed)
    for k in range(4):
        dealt = sampler(mine)
        expected = game.sample_state(view, fresh)
        assert dealt.to_json() == expected.to_json(), f"sample {k} of the sampler differs from sample_state's"
        play_random(dealt, random.Random(k))  # playing a sample must not change the next one


def _play(name: str, flags: dict[str, Any], setup: dict[str, Any], seed: int, full_every: int = 7) -> State:
    state = _new(name, flags, setup, seed)
    rng = random.Random(seed * 7919)
    game = state.game
    foreign: list[Any] = []  # actions legal somewhere else, to probe illegality
    steps = 0
    while not state.is_over:
        actions = list(state.legal_actions())
        assert actions, "legal actions are non-empty until the game ends"
        assert state.current_player is not None
        assert [str(a) for a in state.legal_actions()] == [str(a) for a in actions], "deterministic order"
        texts = [str(a) for a in actions]
        assert len(set(texts)) == len(texts), "no duplicate actions"
        for a in actions:
            parsed = game.parse_action(str(a))
            assert parsed == a and hash(parsed) == hash(a), "canonical strings round-trip, to an equal hash"
        if steps % full_every == 0:
            for a in actions:
                assert state.is_legal(a) and state.is_legal(str(a))
            _check_conservation(state)
            _check_views(state, rng)
            before = json.dumps(state.to_json(), sort_keys=True)
            for probe in foreign[-20:]:
                if str(probe) not in texts:
                    assert not state.is_legal(probe)
                    with pytest.raises(IllegalAction):
                        state.apply(probe)
            with pytest.raises(InvalidAction):
                state.apply("definitely not an action")
            assert json.dumps(state.to_json(), sort_keys=True) == before, "rejected input leaves the state unchanged"
            # clone independence
            twin = state.clone()
            assert _fields(twin) >= _fields(state), "a clone copies every field"
            twin.apply(actions[0])
            assert json.dumps(state.to_json(), sort_keys=True) == before
            # JSON round trip continues identically
            restored = game.from_json(json.loads(before))
            assert json.dumps(restored.to_json(), sort_keys=True) == before
            choice = rng.randrange(len(actions))
            restored.apply(texts[choice])
            state.apply(actions[choice])
            assert json.dumps(restored.to_json(), sort_keys=True) == json.dumps(state.to_json(), sort_keys=True)
        else:
            choice = rng.randrange(len(actions))
            state.apply(actions[choice])
        foreign.extend(actions[:3])
        steps += 1
        assert steps <= game.termination_bound, "the game terminates within its stated bound"
    assert state.current_player is None
    assert list(state.legal_actions()) == []
    out = state.outcome()
    assert out is not None
    assert len(state.returns()) == state.num_players
    _check_conservation(state)
    _check_views(state, rng)
    return state


@pytest.mark.parametrize(("name", "flags", "setup"), CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_meet_the_contract(name: str, flags: dict[str, Any], setup: dict[str, Any], seed: int) -> None:
    final = _play(name, flags, setup, seed)
    # replay equality: the record replays to the same final state
    again = replay(record_of(final))
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(final.to_json(), sort_keys=True)
    # determinism from the seed
    assert _play(name, flags, setup, seed).history == final.history


@pytest.mark.parametrize(("name", "flags", "setup"), CASES)
def test_finished_game_rejects_every_action(name: str, flags: dict[str, Any], setup: dict[str, Any]) -> None:
    state = _new(name, flags, setup, 11)
    first = list(state.legal_actions())[0]
    cardtable.core.play_random(state, random.Random(5))
    with pytest.raises(IllegalAction):
        state.apply(first)


@pytest.mark.parametrize("name", game_names())
def test_unknown_flags_and_values_name_the_choices(name: str) -> None:
    with pytest.raises(ValueError, match="valid flags"):
        cardtable.load_game(name, no_such_flag=True)
    specs = game_class(name).Rules.flag_specs()
    for spec in specs:
        bad: Any = "not-a-valid-value" if spec.kind is not str else 12345
        with pytest.raises(ValueError, match="must be one of"):
            cardtable.load_game(name, **{spec.name: bad})


def test_unknown_game_names_the_choices() -> None:
    with pytest.raises(ValueError, match="choose one of"):
        cardtable.load_game("chess")


@pytest.mark.parametrize(("name", "flags", "setup"), CASES)
def test_recording_events_changes_nothing_in_the_game(name: str, flags: dict[str, Any], setup: dict[str, Any]) -> None:
    """A table's recording state plays exactly like a search's silent one; its log is sound at every step."""
    for seed in SEEDS:
        game = cardtable.load_game(name, **flags)
        loud = game.new_game(seed=seed, record_events=True, **setup)
        quiet = game.new_game(seed=seed, **setup)
        assert loud.is_recording and not quiet.is_recording and quiet.events == []
        assert all(e.move == -1 for e in loud.events), "setup events carry move -1"
        rng = random.Random(seed)
        while not loud.is_over:
            legal = loud.legal_actions()
            assert [str(a) for a in legal] == [str(a) for a in quiet.legal_actions()]
            action = legal[rng.randrange(len(legal))]
            before = len(loud.events)
            loud.apply(action)
            quiet.apply(action)
            assert all(e.move == len(loud.history) - 1 for e in loud.events[before:])
            if len(loud.history) % 11 == 0:
                count = len(loud.events)
                twin = loud.clone()
                assert twin.is_recording and twin.events == loud.events and twin.events is not loud.events
                if not twin.is_over:
                    twin.apply(twin.legal_actions()[0])
                assert len(loud.events) == count, "a clone's moves go to the clone's log only"
        assert loud.to_json() == quiet.to_json()
        assert len(loud.events) >= len(loud.history), "every action tells the table something"
        for seat in [None, *range(loud.num_players)]:
            log = loud.events_for(seat)
            assert len(log) == len(loud.events)
            assert json.loads(json.dumps(log)) == log, "a seat's log is JSON-safe"
        assert [e.to_json() for e in replay(record_of(loud), events=True).events] == [e.to_json() for e in loud.events]
        for e in loud.events:
            assert all(0 <= p < loud.num_players for p in e.to), "secrets go to real seats"
            if e.secret:
                assert e.to, "a secret part names the seats that learn it"
        sampled = game.sample_state(loud.view(0), random.Random(seed))
        assert not sampled.is_recording, "sampled states (search) do not record"


@pytest.mark.parametrize(("name", "flags", "setup"), CASES)
def test_a_game_that_records_while_it_deals_tells_the_same_setup(name: str, flags: dict[str, Any],
                                                                 setup: dict[str, Any]) -> None:
    """A game's own recording setup (``_new_recording_state``) yields the events the generic path rebuilds."""
    from cardtable.core import Game

    game = cardtable.load_game(name, **flags)
    normal = game.normalize_setup(setup)
    for seed in SEEDS:
        own = game._new_recording_state(seed, normal, random.Random(seed))
        generic = Game._new_recording_state(game, seed, normal, random.Random(seed))
        assert [tuple(e[:4]) for e in own.events] == [tuple(e[:4]) for e in generic.events]
        assert own.to_json() == generic.to_json()


JUNK: list[Any] = [None, True, 0, 10**9, 1.5, float("nan"), b"pass", ["pass"], ("pass",), {"pass": 1}, {1, 2}, object()]
"""Inputs that are no action, index or position of any game (every build must refuse them with its typed errors)."""


@pytest.mark.parametrize("name", game_names())
def test_junk_input_raises_the_documented_errors(name: str) -> None:
    game = cardtable.load_game(name)
    state = game.new_game(seed=3)
    before = json.dumps(state.to_json(), sort_keys=True)
    for junk in JUNK:
        with pytest.raises(InvalidAction):
            game.parse_action(junk)
        with pytest.raises(InvalidAction):
            state.apply(junk)
        with pytest.raises(InvalidAction):
            state.illegality(junk)
        assert not state.is_legal(junk)
        with pytest.raises(InvalidPosition):
            game.from_json(junk)
        if game.has_encoding:
            with pytest.raises(ValueError):
                game.action_index(junk)
            if type(junk) is not int:  # 0 is an index; True, -1 and the rest are not
                with pytest.raises(ValueError):
                    game.action_from_index(junk)
    assert json.dumps(state.to_json(), sort_keys=True) == before, "refused input leaves the state unchanged"
