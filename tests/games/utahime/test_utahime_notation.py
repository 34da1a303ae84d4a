"""Card and action notation: canonical strings round-trip, and malformed input only raises InvalidAction."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from utahime_helpers import game, random_playout

from cardtable.core import InvalidAction
from cardtable.games.utahime import actions as A
from cardtable.games.utahime.cards import COSMIC_NAMES, NAME, deck_cards, parse_card

EXAMPLES = {
    "wish HA": A.Wish("HA"), "set SK": A.SetCard("SK"), "option quick_study": A.UseOption("quick_study"),
    "hero": A.UseHero(), "flip D10": A.Flip("D10"), "attack H7": A.Attack("H7"),
    "attack H3 ban C": A.Attack("H3", False, "C"), "attack C3 next ban HS": A.Attack("C3", True, "HS"),
    "attack D9 next": A.Attack("D9", True), "attack H4+ ban S": A.Attack("H4+", False, "S"),
    "pass ~H9": A.Pass("~H9"), "joker": A.Joker(), "stall": A.Stall(), "block C8": A.Block("C8"),
    "block C3 ban H": A.Block("C3", "H"), "noblock": A.NoBlock(), "react": A.React(), "noreact": A.NoReact(),
    "take DK": A.Take("DK"), "take DA first": A.Take("DA", "first"), "take none": A.TakeNothing(),
    "draw 2": A.Draw(2), "heartnext H2": A.HeartNext("H2"), "pick DJ": A.Pick("DJ"), "end": A.EndWindow(),
    "cosmic C7+": A.Cosmic("C7+"), "nocosmic": A.NoCosmic(), "choose SK": A.Choose("SK"),
    "choose none": A.ChooseNothing(), "suit D": A.NameSuit("D"),
}


@pytest.mark.parametrize(("text", "action"), EXAMPLES.items())
def test_notation_examples_round_trip(text: str, action: A.Action) -> None:
    assert A.parse_action(text) == action and str(action) == text
    assert eval(repr(action), vars(A)) == action


def test_card_notation_covers_every_card_once() -> None:
    names = [NAME[c] for c in deck_cards(0)] + [n + "+" for n in COSMIC_NAMES]
    assert len(set(names)) == 58
    assert names[:13] == ["HA", "H2", "H3", "H4", "H5", "H6", "H7", "H8", "H9", "H10", "HJ", "HQ", "HK"]
    assert all(parse_card(n) == (i, False) for i, n in enumerate(names))
    assert parse_card("~S5") == (17, True) and parse_card("H1") is None and parse_card("H4*") is None


def test_parser_normalizes_suit_order() -> None:
    assert str(A.parse_action("attack C3 next ban SH")) == "attack C3 next ban HS"


def test_every_legal_action_round_trips_in_random_games() -> None:
    for setup in ({}, {"option_set": "designer_example"}):
        g = game()
        s = g.new_game(seed=11, **setup)
        rng = random.Random(11)
        while not s.is_over:
            acts = s.legal_actions()
            for a in acts:
                assert g.parse_action(str(a)) == a and eval(repr(a), vars(A)) == a
            s.apply(acts[rng.randrange(len(acts))])
        random_playout(s, rng)


WORDS = st.sampled_from(["attack", "block", "take", "pass", "set", "wish", "option", "suit", "draw", "cosmic",
                         "next", "ban", "none", "first", "last", "H7", "C3", "SK", "D10", "H4+", "~H9", "HS",
                         "HH", "X", "", "10", "-1", "5", "hero", "joker", "choose", "pick", "heartnext", "end"])


@settings(max_examples=300, deadline=None)
@given(st.lists(WORDS, max_size=5).map(" ".join) | st.text(max_size=30))
def test_malformed_action_strings_raise_only_invalid_action(text: str) -> None:
    try:
        action = A.parse_action(text)
    except InvalidAction:
        return
    assert A.parse_action(str(action)) == action


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=30), st.integers(0, 2000))
def test_any_string_applied_to_a_game_raises_only_contract_errors(text: str, seed: int) -> None:
    s = game().new_game(seed=seed % 7)
    s.apply("wish HA")
    s.apply("wish HA")
    before = s.to_json()
    try:
        s.apply(text)
    except ValueError:
        assert s.to_json() == before
