"""Option and hero cards: the TOML format, construction checks, timing and every effect primitive."""

from __future__ import annotations

import json
import random

import pytest
from utahime_helpers import P1, P2, build, card, game, play, random_playout, strs, verbs

from cardtable.core import record_of, replay
from cardtable.games.utahime.options import PRIMITIVES, option_set_from_text, parse_option_set, shipped_set_text
from cardtable.games.utahime.state import Phase

EX = {"option_set": "designer_example"}


def setup(p1: list[str], p2: list[str] | None = None, p1_hero: str | None = None, p2_hero: str | None = None) -> dict:
    """A designer-example setup; the scenarios give P2 the costlier loadout, so P1 goes first (UTA-R6)."""
    return {"option_set": "designer_example", "p1_options": p1, "p2_options": p2 or [], "p1_hero": p1_hero,
            "p2_hero": p2_hero}


def test_the_example_set_is_labelled_and_exercises_every_primitive() -> None:
    text = shipped_set_text("designer_example")
    assert "NOT PART OF THE SEED" in text
    ex = option_set_from_text(text)
    assert len(ex.options) == 10 and len(ex.heroes) == 3
    used = {step.do for c in [*ex.options.values(), *ex.heroes.values()] for step in c.steps}
    assert used == set(PRIMITIVES)
    assert sum(ex.options[n].cost for n in ex.loadouts[0]) == 23
    assert sum(ex.options[n].cost for n in ex.loadouts[1]) == 27


def test_default_game_has_no_option_or_hero_cards() -> None:
    s = game().new_game(seed=1)
    assert s.setup == {"option_set": "none", "p1_options": [], "p2_options": [], "p1_hero": None, "p2_hero": None}
    with pytest.raises(ValueError, match="not in set 'none'"):
        game().new_game(seed=1, p1_options=["quick_study"])


BAD = [
    ("format = 2\nname = \"x\"\n", "format must be 1"),
    ("format = 1\nname = \"X y\"\n", "name must be"),
    ("format = 1\nname = \"x\"\n[[option]]\nname = \"a\"\ncost = -1\neffects = [{ do = \"draw\" }]\n", "cost"),
    ("format = 1\nname = \"x\"\n[[option]]\nname = \"a\"\neffects = [{ do = \"fly\" }]\n", "unknown primitive 'fly'"),
    ("format = 1\nname = \"x\"\n[[option]]\nname = \"a\"\neffects = [{ do = \"draw\", suit = \"H\" }]\n", "no key 'suit'"),
    ("format = 1\nname = \"x\"\n[[option]]\nname = \"a\"\neffects = [{ do = \"add_modifier\", amount = \"0.3\" }]\n",
     "multiple of 0.5"),
    ("format = 1\nname = \"x\"\n[[option]]\nname = \"a\"\ntiming = \"never\"\neffects = [{ do = \"draw\" }]\n", "timing"),
    ("format = 1\nname = \"x\"\n[[option]]\nname = \"a\"\neffects = []\n", "effects must be"),
    ("format = 1\nname = \"x\"\n" + "".join(f"[[hero]]\nname = \"h{i}\"\neffects = [{{ do = \"draw\" }}]\n"
                                           for i in range(4)), "at most 3 hero kinds"),
    ("format = 1\nname = \"x\"\n[[option]]\nname = \"a\"\neffects = [{ do = \"draw\" }]\n"
     "[[option]]\nname = \"a\"\neffects = [{ do = \"draw\" }]\n", "defined twice"),
    ("format = 1\nname = \"x\"\n[loadout]\np1 = [\"ghost\"]\n", "'ghost' is not in set"),
    ("format = 1\nname = \"x\"\n[[option]\n", "not valid TOML"),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_bad_option_sets_give_clear_errors(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_option_set(text)


def test_custom_sets_are_stored_in_the_setup_and_records_replay() -> None:
    toml = ('format = 1\nname = "mine"\n[[option]]\nname = "spark"\ncost = 1\n'
            'effects = [{ do = "change_energy", amount = 2 }]\n[loadout]\np1 = ["spark"]\n')
    g = game()
    s = g.new_game(seed=3, option_set="custom", option_toml=toml)
    assert s.setup["option_toml"] == toml and s.setup["p1_options"] == ["spark"]
    random_playout(s, random.Random(3))
    rec = record_of(s)
    json.dumps(rec.to_json())
    assert replay(rec).to_json() == s.to_json()
    s2 = g.new_game(seed=4, **EX)
    random_playout(s2, random.Random(4))
    assert replay(record_of(s2)).to_json() == s2.to_json()


def test_setup_errors() -> None:
    g = game()
    with pytest.raises(ValueError, match="unknown option set"):
        g.new_game(seed=1, option_set="mystery")
    with pytest.raises(ValueError, match="unknown utahime setup option"):
        g.new_game(seed=1, decks=3)
    with pytest.raises(ValueError, match="needs option_toml"):
        g.new_game(seed=1, option_set="custom")


def test_own_turn_cards_wait_for_the_own_turn_any_time_cards_do_not() -> None:
    s = build(3, P1, setup=setup([], ["quick_study", "bulwark"]), hands=(["D8"], ["H7"]))
    play(s, "attack D8")
    assert verbs(s, "option") == ["option bulwark"]
    play(s, "option bulwark")  # +1.5 to P2's blocks this turn: 7 + 1.5 >= 8
    assert s.phase == Phase.BLOCK and verbs(s, "block") == ["block H7"]


def test_primitive_draw_and_ignore_hand_limit() -> None:
    toml = ('format = 1\nname = "x"\n[[option]]\nname = "flood"\nignore_hand_limit = true\n'
            'effects = [{ do = "draw", who = "both", count = 2 }]\n'
            '[[option]]\nname = "idle"\neffects = [{ do = "draw" }]\n')
    hand = [f"S{r}" for r in range(2, 11)] + ["SJ"]
    s = build(3, P1, setup={"option_set": "custom", "option_toml": toml, "p1_options": ["flood"],
                            "p2_options": ["idle", "idle"]},  # P1 has fewer cards, so goes first (UTA-R6)
              hands=(hand, ["D2"]))
    play(s, "option flood")
    assert len(s.hands[P1]) == 12 and len(s.hands[P2]) == 3
    assert verbs(s, "cosmic") == []


def test_primitive_look_at_hand() -> None:
    s = build(3, P1, setup=setup(["scout"], ["quick_study"]), hands=(["S9"], ["D2", "C4"]))
    assert s.view(P1)["players"][P2]["hand"] is None
    play(s, "option scout")
    assert s.view(P1)["players"][P2]["hand"] == ["C4", "D2"] and s.view(None)["players"][P2]["hand"] is None


def test_primitive_discard_from_opponent_hand() -> None:
    s = build(3, P1, setup=setup(["strip"], ["sabotage", "dig"]), hands=(["S9"], ["D2", "C4"]))
    play(s, "option strip")
    assert s.phase == Phase.EFFECT and strs(s.legal_actions()) == ["choose C4", "choose D2"]
    assert s.view(P1)["players"][P2]["hand"] == ["C4", "D2"]
    play(s, "choose D2")
    assert s.discards[P2] == [card(P2, "D2")] and s.phase == Phase.MAIN


def test_primitive_recover_mill_and_flip() -> None:
    s = build(3, P1, setup=setup(["salvage", "dig", "sabotage"], ["strip", "quick_study", "dig"]), hands=(["S9"], ["D2"]),
              discards=(["H5", "H6v"], ["C5", "C6"]), decks=(["D7", "D8"], None))
    play(s, "option salvage")
    assert strs(s.legal_actions()) == ["choose H5", "choose none"]
    play(s, "choose H5", "option dig")
    assert card(P1, "H5") in s.hands[P1] and s.discards[P1][-2:] == [card(P1, "D7"), card(P1, "D8")]
    play(s, "option sabotage", "choose C6")
    assert s.score(P2) == 1


def test_primitive_forbid_change_energy_and_modifiers() -> None:
    s = build(3, P1, setup=setup(["seal", "surge"], ["strip", "quick_study"], p2_hero="warden"), hands=(["S9"], ["H2", "D9"]),
              energy=(0, 2))
    play(s, "option seal")
    assert strs(s.legal_actions()) == ["suit H", "suit S", "suit C", "suit D"]
    play(s, "suit D", "option surge")
    assert s.energy == [1, 1] and (4, 0, P2, 3) in s.effects
    play(s, "attack S9")
    assert "hero" in strs(s.legal_actions())  # the warden is any-time
    play(s, "hero")
    assert s.attack_number2() == 16 and verbs(s, "block") == ["block D9"]


def test_hero_uses_and_timing() -> None:
    s = build(3, P1, setup=setup([], [], p1_hero="seer"), hands=(["S9"], ["D2"]), decks=(["H5"], None))
    play(s, "hero")
    assert card(P1, "H5") in s.hands[P1] and s.view(P1)["players"][P2]["hand"] == ["D2"]
    assert "hero" not in strs(s.legal_actions())
