"""Notation: every action string is canonical and round-trips; anything else is an InvalidAction."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.core import DECLINE, PASS, IllegalAction, InvalidAction, load_game
from cardtable.games.oscilloscope import (
    Card,
    Deck,
    Draw,
    Level,
    PlaceTrigger,
    Refill,
    parse_action,
)
from cardtable.games.oscilloscope import actions as actions_module

GAME = load_game("oscilloscope")
EXAMPLES = ["place T_HL A3", "place LOH F5", "pass", "capture", "decline", "keep T_BOTH", "keep B", "refill A HL",
            "refill C LOH L", "discard NOISE", "draw pulse", "draw trigger", "assign D", "exchange B",
            "filters A=T_HL B=CLEAR"]


def test_examples_round_trip_and_repr_is_executable() -> None:
    names = vars(actions_module) | {"Card": Card, "Level": Level, "Deck": Deck, "Pass": PASS.__class__,
                                    "Decline": DECLINE.__class__}
    for text in EXAMPLES:
        action = parse_action(text)
        assert str(action) == text
        assert eval(repr(action), names) == action  # noqa: S307 - the repr is meant to be executable
    assert parse_action("place T_HL A3") == PlaceTrigger(Card.T_HL, 0, 3)
    assert parse_action("refill B LOH H") == Refill(1, Card.LOH, Level.HIGH)
    assert parse_action("draw pulse") == Draw(Deck.PULSE) and parse_action("decline") == DECLINE
    assert parse_action("pass") == PASS  # the shared actions of cardtable.core.actions


def test_every_legal_action_round_trips_in_random_games() -> None:
    for players in (1, 2, 4):
        for seed in range(3):
            state = GAME.new_game(seed=seed, players=players)
            rng = random.Random(seed)
            while not state.is_over:
                legal = state.legal_actions()
                assert len({str(a) for a in legal}) == len(legal)
                for action in legal:
                    assert GAME.parse_action(str(action)) == action
                state.apply(str(legal[rng.randrange(len(legal))]))


def test_bad_notation_says_why() -> None:
    for text in ("place T_HL A6", "place T_HL G1", "place HLL A1", "refill A LOH *", "keep Z", "draw both",
                 "pass ", " pass", "PLACE T_HL A3", "", "filters T_HL CLEAR", "place T_HL  A3"):
        try:
            parse_action(text)
        except InvalidAction as exc:
            assert repr(text) in str(exc)
        else:
            raise AssertionError(f"{text!r} parsed")


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=20), st.sampled_from(EXAMPLES).flatmap(
    lambda s: st.tuples(st.just(s), st.integers(0, len(s)), st.text(max_size=3)).map(
        lambda t: t[0][:t[1]] + t[2] + t[0][t[1] + 1:]))))
def test_malformed_action_strings_only_raise_invalid_action(text: str) -> None:
    try:
        action = parse_action(text)
    except InvalidAction:
        return
    assert parse_action(str(action)) == action
    state = GAME.new_game(seed=1, players=2)
    before = state.to_json()
    try:
        state.apply(text)
    except (IllegalAction, InvalidAction):
        assert state.to_json() == before
