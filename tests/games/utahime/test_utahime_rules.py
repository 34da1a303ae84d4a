"""One test (at least) per numbered rule UTA-R1 .. UTA-R59 of the Utahime rulebook."""

from __future__ import annotations

import random

import pytest
from utahime_helpers import P1, P2, build, card, game, play, random_playout, started, strs, verbs

from cardtable.core import IllegalAction
from cardtable.games.utahime.cards import deck_cards
from cardtable.games.utahime.state import SEEN, Phase

EX = {"option_set": "designer_example"}


# -- 3.1 Setup --------------------------------------------------------------------------------------
def test_uta_r1_players_and_materials() -> None:
    s = game().new_game(seed=3)
    assert s.num_players == 2
    expected = s.expected_cards()
    assert sum(expected.values()) == 2 * (52 + 6 + 1)
    for p in ("P1", "P2"):
        assert sum(1 for k in expected if k.startswith(p + ":") and not k.endswith("+") and "JOKER" not in k) == 52
        assert sorted(k[3:] for k in expected if k.startswith(p + ":") and k.endswith("+")) == \
            sorted(["H4+", "H6+", "S4+", "C6+", "C7+", "D6+"])
        assert expected[f"{p}:JOKER"] == 1


def test_uta_r2_construction_check() -> None:
    g = game()
    with pytest.raises(ValueError, match="UTA-R2.*cost 29.*budget is 28"):
        g.new_game(seed=1, option_set="designer_example", p1_options=["strip", "strip", "sabotage", "seal"])
    with pytest.raises(ValueError, match="UTA-R2.*3 copies of option card 'dig'"):
        g.new_game(seed=1, option_set="designer_example", p1_options=["dig", "dig", "dig"])
    ok = g.new_game(seed=1, option_set="designer_example", p1_options=["strip", "strip", "seal", "dig", "dig"])
    assert ok.setup["p1_options"] == ["strip", "strip", "seal", "dig", "dig"]  # 28 exactly
    with pytest.raises(ValueError, match="hero 'nobody'"):
        g.new_game(seed=1, option_set="designer_example", p2_hero="nobody")
    assert g.new_game(seed=1, option_set="designer_example", p1_options=[], p1_hero=None).setup["p1_hero"] is None


def test_uta_r3_wished_card_and_opening_hand() -> None:
    s = game().new_game(seed=4)
    assert s.phase == Phase.WISH and s.current_player == P1 and len(s.legal_actions()) == 52
    play(s, "wish DK")
    assert s.current_player == P2 and s.view(P2)["players"][P1]["wished"] is None  # secret, simultaneous
    assert len(s.legal_actions()) == 52
    play(s, "wish H2")
    for p, wish in ((P1, "DK"), (P2, "H2")):
        assert len(s.hands[p]) == 10 and card(p, wish) in s.hands[p] and len(s.decks[p]) == 42
    assert s.phase == Phase.MAIN and s.turn == 1


def test_uta_r4_joker_beside_the_hand() -> None:
    s = started()
    assert s.joker_up == [True, True] and all(len(h) == 10 for h in s.hands)
    assert s.zones()["p1.joker"] == ["P1:JOKER"]


def test_uta_r5_initial_state() -> None:
    s = started()
    assert s.energy == [0, 0] and s.discards == [[], []] and s.effects == [] and len(s.pools[P1]) == 6


def test_uta_r6_first_player() -> None:
    g = game()
    light = ["scout", "dig"]  # cost 3
    heavy = ["strip"]  # cost 8
    assert g.new_game(seed=2, option_set="designer_example", p1_options=heavy, p2_options=light).first == P2
    assert g.new_game(seed=2, option_set="designer_example", p1_options=light, p2_options=heavy).first == P1
    same_cost_fewer = g.new_game(seed=2, option_set="designer_example", p1_options=["scout", "scout", "dig"],
                                 p2_options=["quick_study", "dig"])  # 5 and 5, 3 cards against 2
    assert same_cost_fewer.first == P2
    assert game(first_player="p2").new_game(seed=1).first == P2
    assert {g.new_game(seed=x).first for x in range(16)} == {P1, P2}


# -- 3.2 Numbers -----------------------------------------------------------------------------------
def test_uta_r7_printed_numbers() -> None:
    s = build(3, P1, hands=(["DJ"], ["C10", "CQ", "SK"]), sets=({"DJ": 1}, {"CQ": 2, "SK": 2}), energy=(1, 0))
    play(s, "attack DJ")
    assert verbs(s, "block") == ["block SK", "block CQ"]  # J=11: 10 < 11 <= 12, 13
    # rank effects follow the printed rank: a ♦NEXT 7 still gives +2 (cancelled by its own -2)
    s = build(3, P1, hands=(["D7"], ["S2"]))
    play(s, "attack D7 next")
    assert sorted(e[3] for e in s.effects if e[1] == 1) == [-4, 4]


def test_uta_r8_effective_numbers_are_exact() -> None:
    s = build(5, P2, hands=(["C8", "H9"], ["D7"]), effects=[(5, "attack", P2, 3)])  # ♦7 counts 8.5
    play(s, "attack D7")
    assert s.attack_number2() == 17 and verbs(s, "block") == ["block H9"]
    s = build(5, P2, hands=(["C8"], ["D7"]), effects=[(5, "plus2", P1, None), (5, "minus2", P1, None)])
    play(s, "attack D7")
    assert verbs(s, "block") == ["block C8"] and s.block_number2(card(P1, "C8")) == 16


# -- 3.3 Turn structure ----------------------------------------------------------------------------
def test_uta_r9_roles_alternate() -> None:
    s = build(9, P1, hands=(["S5"], ["S6"]))
    play(s, "attack S5", "noblock", "noreact", "take S6", "end", "nocosmic")
    assert s.turn == 10 and s.attacker == P2 and s.current_player == P2


def test_uta_r10_turn_procedure_order() -> None:
    s = build(3, P1, hands=(["S5", "HJ"], ["D2", "H7"]), energy=(1, 0))
    seen = [s.phase]
    for a in ("set HJ", "attack S5", "noblock", "noreact", "take H7", "end", "nocosmic"):
        play(s, a)
        seen.append(s.phase)
    assert seen == [Phase.MAIN, Phase.MAIN, Phase.BLOCK, Phase.REACT, Phase.TARGET, Phase.POST, Phase.END, Phase.MAIN]
    assert s.turn == 4


def test_uta_r11_free_actions_only_in_own_turn() -> None:
    s = build(3, P1, hands=(["S5", "HJ", "CQ"], ["DK", "D9"]), energy=(1, 0))
    assert "set HJ" in verbs(s, "set")
    play(s, "attack S5")
    assert s.phase == Phase.BLOCK and verbs(s, "set") == []  # the defender sets nothing in P1's turn
    play(s, "block D9")
    assert verbs(s, "set") == ["set HJ", "set CQ"]  # post-attack window
    play(s, "set CQ", "end", "nocosmic")
    assert s.set_turn[P1] == {card(P1, "CQ"): 3}


def test_uta_r12_exactly_one_main_action() -> None:
    s = build(3, P1, hands=(["S5", "S6"], ["D2"]), discards=(["H2"], []))
    acts = strs(s.legal_actions())
    assert {"attack S5", "pass H2", "joker"} <= set(acts)  # pass and joker allowed with a legal attack
    play(s, "attack S5", "noblock", "noreact", "take D2")
    assert verbs(s, "attack") == [] and verbs(s, "pass") == []
    with pytest.raises(IllegalAction, match="UTA-R10"):
        s.apply("attack S6")


def test_uta_r13_effects_last_for_the_next_turn_only() -> None:
    s = build(3, P1, hands=(["S2", "S9"], ["H5", "H6"]), discards=([], ["C2"]))
    play(s, "attack S2 ban H", "noblock", "noreact", "take H5", "end", "nocosmic")
    assert verbs(s, "attack") == [] and s.turn == 4  # ♥6 forbidden in turn 4
    play(s, "pass C2", "nocosmic", "attack S9", "noblock", "noreact", "take H6", "end", "nocosmic")
    assert s.turn == 6 and not [e for e in s.effects if e[1] == 0]


# -- 3.4 Attacking ---------------------------------------------------------------------------------
def test_uta_r14_legal_attack_card() -> None:
    s = build(5, P1, hands=(["HA", "SK", "CQ", "D5"], ["S2"]), sets=({"SK": 3, "CQ": 5}, {}),
              effects=[(5, "ban", P1, "D")])
    assert {a.split()[1] for a in verbs(s, "attack")} == set()  # A/K need energy, Q set this turn, ♦ forbidden
    s.energy[P1] = 1
    assert {a.split()[1] for a in verbs(s, "attack")} == {"HA", "SK"}
    assert s.illegality("attack CQ") == ("UTA-R36", "CQ must be set face down in an earlier turn before it is played")
    assert s.illegality("attack D5")[0] == "UTA-R33"
    assert s.illegality("attack H9")[0] == "UTA-R14"


def test_uta_r15_declarations() -> None:
    s = build(3, P1, hands=(["H3", "S5", "C9", "D9"], ["S2"]))
    assert s.illegality("attack H3")[0] == "UTA-R15"  # a 2-4 must designate a suit
    assert s.illegality("attack S5 next")[0] == "UTA-R15"  # there is no ♠NEXT
    assert s.illegality("attack C9 next")[0] == "UTA-R15"  # ♣NEXT designates a suit
    assert s.illegality("attack D9 next ban H")[0] == "UTA-R15"  # ♦NEXT on a 9 designates nothing
    assert s.illegality("attack S5 ban H")[0] == "UTA-R15"
    assert verbs(s, "attack").count("attack C9 next ban H") == 1


def test_uta_r16_on_play_is_final_even_when_blocked() -> None:
    s = build(3, P1, hands=(["CK", "S3"], ["CA", "D9"]), sets=({"CK": 1}, {}), energy=(1, 0))
    play(s, "attack CK")
    assert s.energy[P1] == 0 and s.discards[P1] == [card(P1, "CK") | 384]
    s = build(3, P1, hands=(["S3"], ["D9"]), energy=(0, 1))
    play(s, "attack S3 ban C", "block D9")
    assert s.score(P1) == 1 and s.energy == [1, 0] and (4, 0, P2, 2) in s.effects


# -- 3.5 Blocking ----------------------------------------------------------------------------------
@pytest.mark.parametrize("attack", ["attack HA", "attack SA", "attack D9 next"])
def test_uta_r17_unblockable_attacks(attack: str) -> None:
    s = build(3, P1, hands=(["HA", "SA", "D9"], ["CK", "DK", "D10", "C10"]), sets=({}, {"CK": 2, "DK": 2}),
              energy=(1, 0))
    play(s, attack)
    assert s.phase in (Phase.REACT, Phase.TARGET) and s.success


def test_uta_r18_suit_restriction() -> None:
    defender = ["H10", "S10", "C10", "D10"]
    for attack, allowed in (("H5", ["block C10"]), ("S5", ["block D10"]),
                            ("C5", ["block H10", "block S10", "block C10", "block D10"]),
                            ("D5", ["block H10", "block S10", "block C10", "block D10"])):
        s = build(3, P1, hands=([attack], defender))
        play(s, f"attack {attack}")
        assert verbs(s, "block") == allowed


def test_uta_r19_equal_number_blocks() -> None:
    s = build(3, P1, hands=(["C8"], ["H7", "H8"]))
    play(s, "attack C8")
    assert verbs(s, "block") == ["block H8"]


def test_uta_r20_other_block_constraints() -> None:
    s = build(3, P1, hands=(["C8"], ["HK", "DQ", "S9"]), sets=({}, {"DQ": 2}))
    play(s, "attack C8")
    assert verbs(s, "block") == ["block S9", "block DQ"]  # (c) unset ♥K may not block
    assert "noblock" in strs(s.legal_actions())  # (e) optional
    assert s.illegality("block HK")[0] == "UTA-R20"
    play(s, "block DQ")
    assert s.energy == [0, 0] and not [e for e in s.effects if e[2] == P2]  # (d), (f)
    forced = build(3, P1, flags={"forced_block": True}, hands=(["C8"], ["S9"]))
    play(forced, "attack C8")
    assert "noblock" not in strs(forced.legal_actions())


def test_uta_r21_blocked_attack() -> None:
    s = build(3, P1, hands=(["C3", "S5"], ["D9", "H4"]))
    play(s, "attack C3 next ban HS", "block D9")
    assert s.phase == Phase.POST and len(s.hands[P1]) == 1  # no draw, no reaction window
    assert s.score(P2) == 1 and {e[3] for e in s.effects if e[1] == 0} == {0, 1}  # both bans stand
    assert not [e for e in s.effects if e[1] == 3]  # no +1.5


# -- 3.6 Success -----------------------------------------------------------------------------------
def test_uta_r22_success_reaction_then_club_next_price() -> None:
    s = build(3, P1, hands=(["C9"], ["CA", "H2"]))
    play(s, "attack C9 next ban D", "noblock")
    assert s.phase == Phase.REACT and strs(s.legal_actions()) == ["react", "noreact"]
    play(s, "react")
    assert len(s.hands[P1]) == 0 and (4, 3, P2, 3) in s.effects  # the +1.5 stays after ♣A


def test_uta_r23_heart_and_club_draw_one() -> None:
    for attack in ("H9", "C9"):
        s = build(3, P1, hands=([attack, "S2"], ["S3"]), decks=(["D5"], None))
        play(s, f"attack {attack}", "noblock", "noreact")
        assert card(P1, "D5") in s.hands[P1] and len(s.hands[P1]) == 2


def test_uta_r24_spade_effect_face_down() -> None:
    s = build(3, P1, hands=(["S9"], ["HK", "D2"]), sets=({}, {"HK": 2}))
    play(s, "attack S9", "noblock", "noreact")
    assert strs(s.legal_actions()) == ["take HK", "take D2"]
    play(s, "take HK")
    assert s.discards[P2] == [card(P2, "HK")] and s.score(P2) == 0


def test_uta_r25_diamond_effect_face_up_at_the_end() -> None:
    s = build(3, P1, hands=(["D9"], ["HK", "S2"]), discards=([], ["C5"]))
    play(s, "attack D9", "noblock", "noreact", "take S2")
    assert s.discards[P2] == [card(P2, "C5") | 384, card(P2, "S2") | 128] and s.score(P2) == 2


def test_uta_r26_empty_target_does_nothing() -> None:
    s = build(3, P1, hands=(["D9"], []))
    play(s, "attack D9")
    assert s.phase == Phase.POST and s.success


# -- 3.7 Aces --------------------------------------------------------------------------------------
def test_uta_r27_heart_ace_draws_one() -> None:
    s = build(3, P1, hands=(["HA"], ["C2"]), energy=(1, 0), decks=(["S7", "S8"], None))
    play(s, "attack HA", "noreact")
    assert s.hands[P1] == [card(P1, "S7")]


def test_uta_r28_spade_ace_face_up() -> None:
    s = build(3, P1, hands=(["SA"], ["C2", "H3"]), energy=(1, 0))
    play(s, "attack SA", "noreact", "take H3")
    assert s.discards[P2] == [card(P2, "H3") | 128] and s.score(P2) == 1


def test_uta_r29_club_ace_reaction() -> None:
    s = build(3, P1, hands=(["H5"], ["CA", "D2"]))
    play(s, "attack H5")
    assert "block CA" not in verbs(s, "block")
    play(s, "noblock", "react")
    assert s.hands[P1] == [] and s.discards[P2] == [card(P2, "CA") | 384] and (4, 1, P1, 4) in s.effects
    s = build(3, P1, hands=(["S5"], ["CA", "D2"]))
    play(s, "attack S5", "noblock")
    assert strs(s.legal_actions()) == ["noreact"]  # ♣A answers only draws


def test_uta_r30_diamond_ace_reaction() -> None:
    s = build(3, P1, hands=(["D5"], ["DA", "H2"]))
    play(s, "attack D5", "noblock", "react")
    assert s.phase == Phase.POST and s.hands[P2] == [card(P2, "H2")] and s.view(P1)["players"][P2]["hand"] is None
    s = build(3, P1, hands=(["D5"], ["DA", "H2"]))
    play(s, "attack D5 next")
    assert s.phase == Phase.TARGET  # no ♦A against ♦NEXT (UTA-I42)
    s = build(3, P1, flags={"diamond_ace_vs_diamond_next": True}, hands=(["D5"], ["DA", "H2"]))
    play(s, "attack D5 next")
    assert strs(s.legal_actions()) == ["react", "noreact"]


def test_uta_r31_aces_otherwise_ordinary() -> None:
    s = build(3, P1, hands=(["CA", "DA"], ["H2"]), energy=(2, 0))
    assert {"attack CA", "attack CA next ban H", "attack DA next"} <= set(verbs(s, "attack"))
    play(s, "attack CA next ban H", "noblock")
    assert s.energy[P1] == 1 and s.phase == Phase.REACT
    s = build(3, P1, hands=(["D2"], ["CA"]), effects=[(3, "plus2", P2, None)])
    play(s, "attack D2 ban H")
    assert verbs(s, "block") == ["block CA"]  # 1 + 2 >= 2


# -- 3.8 Rank effects ------------------------------------------------------------------------------
def test_uta_r32_rank_effects_always_on_attack_never_on_block() -> None:
    s = build(3, P1, hands=(["C6"], ["H9", "D8"]))
    play(s, "attack C6", "block D8")
    assert s.effects == [(4, 1, P1, 4)]


def test_uta_r33_forbidden_suit_covers_attacks_only() -> None:
    s = build(3, P1, hands=(["H9", "H2", "S3"], ["C9"]), effects=[(3, "ban", P1, "H")])
    assert {a.split()[1] for a in verbs(s, "attack")} == {"S3"}
    play(s, "attack S3 ban C", "noblock", "noreact", "take C9")
    assert verbs(s, "heartnext") == ["heartnext H2", "heartnext H9"]


def test_uta_r34_five_to_seven_plus_two() -> None:
    s = build(3, P1, hands=(["D6", "C7"], ["H9"]))
    play(s, "attack D6", "noblock", "noreact", "take H9", "end", "nocosmic")
    assert (4, 1, P1, 4) in s.effects and s.block_number2(card(P1, "C7")) == 18


def test_uta_r35_eight_to_ten_plus_one_even_for_cards_drawn_later() -> None:
    s = build(3, P1, hands=(["D9", "C5"], ["H9"]), decks=(None, None))
    play(s, "attack D9", "noblock", "noreact", "take H9", "end", "nocosmic")
    assert s.block_number2(card(P1, "C10")) == 22 and s.block_number2(card(P1, "C5")) == 10


# -- 3.9 J Q K -------------------------------------------------------------------------------------
def test_uta_r36_set_requirement_per_card() -> None:
    s = build(5, P1, hands=(["SK", "SQ"], ["D2"]), sets=({"SK": 3}, {}), energy=(2, 0))
    assert {a.split()[1] for a in verbs(s, "attack")} == {"SK"}
    s = build(5, P1, flags={"jqk_unlock_mode": "any_set_unlocks"}, hands=(["SK", "SQ"], ["D2"]),
              sets=({"SK": 3}, {}), energy=(2, 0))
    s.unlock_turn[P1] = 3
    assert {a.split()[1] for a in verbs(s, "attack")} == {"SK", "SQ"}


def test_uta_r37_setting_is_free_and_public_in_number_only() -> None:
    s = build(3, P1, hands=(["SK", "HQ", "C5"], ["D2"]))
    play(s, "set SK", "set HQ")
    assert s.phase == Phase.MAIN and verbs(s, "set") == []
    view = s.view(P2)["players"][P1]
    assert view["hand"] is None and view["set"] == [{"card": None, "turn": 3}, {"card": None, "turn": 3}]


def test_uta_r38_set_cards_are_hand() -> None:
    s = build(3, P1, hands=(["S9"], ["HQ"] + [f"S{r}" for r in range(2, 10)] + ["D2"]), sets=({}, {"HQ": 2}))
    assert len(s.hands[P2]) == 10
    play(s, "attack S9", "noblock", "noreact")
    assert "take HQ" in strs(s.legal_actions())
    s = build(4, P2, hands=(["S9"], ["HQ", "S2"]), sets=({}, {"HQ": 2}))
    play(s, "attack S2 ban D", "noblock", "noreact", "take S9")
    assert verbs(s, "heartnext") == ["heartnext HQ"]


def test_uta_r39_exchange_may_choose_jqk_set_or_not() -> None:
    s = build(3, P1, setup=dict(EX, p1_options=["mulligan"]), hands=(["SK", "HQ", "C5"], ["D2"]),
              sets=({"SK": 1}, {}), decks=(["D7"], None))
    play(s, "option mulligan")
    assert {"choose SK", "choose HQ", "choose C5", "choose none"} == set(strs(s.legal_actions()))
    play(s, "choose SK")
    assert card(P1, "D7") in s.hands[P1] and s.discards[P1] == [card(P1, "SK")] and s.set_turn[P1] == {}


# -- 3.10 Energy -----------------------------------------------------------------------------------
def test_uta_r40_energy_never_below_zero() -> None:
    s = build(3, P1, hands=(["S2"], ["D2"]), energy=(0, 0))
    play(s, "attack S2 ban H")
    assert s.energy == [1, 0]


def test_uta_r41_energy_from_attack_by_rank() -> None:
    for c, gain in (("S2", 1), ("S6", 1), ("S9", 0), ("S10", 0)):
        s = build(3, P1, hands=([c], ["D2"]), energy=(0, 3))
        play(s, f"attack {c}" + (" ban H" if c == "S2" else ""))
        assert s.energy == [gain, 2 if c == "S2" else 3]


def test_uta_r42_premium_cost() -> None:
    s = build(3, P1, hands=(["HA", "CJ"], ["D2"]), sets=({"CJ": 1}, {}))
    assert verbs(s, "attack") == [] and s.illegality("attack HA")[0] == "UTA-R42"
    s = build(3, P1, flags={"premium_attack_cost": 2}, hands=(["HA"], ["D2"]), energy=(2, 0))
    play(s, "attack HA")
    assert s.energy[P1] == 0


def test_uta_r43_flip_gives_energy() -> None:
    s = build(3, P1, hands=(["S2"], ["D2"]), discards=(["H5", "H6"], []))
    play(s, "pass H6")
    assert s.energy[P1] == 1 and s.discards[P1][1] == card(P1, "H6") | 256 | SEEN  # everybody saw it (UTA-I-CT21)


def test_uta_r44_pass() -> None:
    s = build(3, P1, hands=(["S2"], ["D2"]), discards=(["H5", "H6v"], []))
    assert verbs(s, "pass") == ["pass H5"]
    assert s.illegality("pass H6")[0] == "UTA-R44"
    play(s, "pass H5")
    assert s.phase == Phase.END and s.effects == []


def test_uta_r45_joker() -> None:
    s = build(3, P1, hands=(["S2"], ["D2"]), decks=(["H5", "H6", "H7"], ["C5", "C6"]))
    play(s, "joker")
    assert s.hands[P1] == [card(P1, "S2"), card(P1, "H5"), card(P1, "H6")]
    assert s.hands[P2] == [card(P2, "D2"), card(P2, "C5"), card(P2, "C6")]
    assert s.phase == Phase.END and not s.joker_up[P1]
    play(s, "nocosmic")
    assert "joker" in strs(s.legal_actions())  # P2's own joker is still face up


# -- 3.13 Options and heroes -----------------------------------------------------------------------
def test_uta_r46_option_cards() -> None:
    s = build(3, P1, setup=dict(EX, p1_options=["quick_study", "quick_study", "seal"],  # P2 costs more (UTA-R6)
                                p2_options=["bulwark", "strip", "sabotage"]),
              hands=(["S9"], ["D9"]), decks=(["H5", "H6"], None))
    assert verbs(s, "option") == ["option quick_study", "option seal"]
    play(s, "option quick_study")
    assert s.opt_up[P1] == [False, True, True] and card(P1, "H5") in s.hands[P1]
    play(s, "option quick_study")
    assert verbs(s, "option") == ["option seal"]
    play(s, "attack S9")
    assert verbs(s, "option") == ["option bulwark"]  # P2's any-time card in P1's turn
    full = build(3, P1, setup=dict(EX, p1_options=["quick_study"]),
                 hands=([f"S{r}" for r in range(2, 11)] + ["D2"], ["D9"]))
    play(full, "option quick_study")
    assert len(full.hands[P1]) == 10  # the hand limit holds


def test_uta_r47_hero_cards() -> None:
    assert started().kit.heroes == (None, None)  # default: no hero
    s = build(3, P1, setup=dict(EX, p1_hero="quartermaster"), hands=(["S9"], ["D9"]))
    assert "hero" in strs(s.legal_actions())
    play(s, "hero")
    assert s.energy[P1] == 2 and "hero" not in strs(s.legal_actions())


# -- 3.14 NEXT -------------------------------------------------------------------------------------
def test_uta_r48_diamond_next() -> None:
    s = build(3, P1, hands=(["D9"], ["S5", "H7"]), discards=([], ["C2"]))
    play(s, "attack D9 next")
    assert strs(s.legal_actions()) == ["take H7 first", "take H7 last", "take S5 first", "take S5 last", "take none"]
    play(s, "take none")
    assert (4, 1, P1, -4) in s.effects and s.discards[P2] == [card(P2, "C2") | 384]


def test_uta_r49_club_next() -> None:
    s = build(3, P1, hands=(["C9"], ["H10", "D2"]))
    play(s, "attack C9 next ban D")
    assert verbs(s, "block") == ["block H10"]  # blocked normally, by any suit
    assert (4, 0, P2, 3) in s.effects  # the ban is registered at declaration
    play(s, "noblock", "noreact")
    assert len(s.hands[P1]) == 1 and (4, 3, P2, 3) in s.effects


def test_uta_r50_club_next_on_a_two_designates_two_different_suits() -> None:
    s = build(3, P1, hands=(["C2"], ["H10"]))
    assert [a for a in verbs(s, "attack") if "next" in a] == [
        "attack C2 next ban HS", "attack C2 next ban HC", "attack C2 next ban HD",
        "attack C2 next ban SC", "attack C2 next ban SD", "attack C2 next ban CD"]
    assert s.illegality("attack C2 next ban HH")[0] == "UTA-R50"


def test_uta_r51_heart_next_details() -> None:
    s = build(3, P1, hands=(["S9", "H2", "H3"], ["D2"]), decks=(["C5", "C6"], None))
    s.decks[P1] = s.decks[P1][-2:]  # only two cards left; the others go face down to the discard
    s.discards[P1] = [c for c in deck_cards(P1) if c not in s.decks[P1] and c not in s.hands[P1]]
    play(s, "attack S9", "noblock", "noreact", "take D2", "heartnext H2")
    assert s.view(P2)["heart_next"]["revealed"] == ["C5", "C6"]
    play(s, "pick C6")
    assert card(P1, "C6") in s.hands[P1] and s.discards[P1][-1] == card(P1, "C5") | SEEN
    assert verbs(s, "heartnext") == []  # once per turn
    play(s, "end")
    assert s.phase in (Phase.END, Phase.MAIN)


# -- 3.15 Cosmic -----------------------------------------------------------------------------------
def test_uta_r52_cosmic_cards() -> None:
    s = build(3, P1, hands=(["S2"], ["D2"]), discards=(["H9"], []))
    play(s, "pass H9")
    assert strs(s.legal_actions()) == ["cosmic H4+", "cosmic H6+", "cosmic S4+", "cosmic C6+", "cosmic C7+",
                                       "cosmic D6+", "nocosmic"]
    play(s, "cosmic S4+")
    assert s.turn == 4 and card(P1, "S4+") in s.hands[P1] and card(P1, "S4") not in s.hands[P1]


# -- 3.16 Hand limit and drawing -------------------------------------------------------------------
def test_uta_r53_hand_limit() -> None:
    s = build(3, P1, hands=(["H9"] + [f"S{r}" for r in range(2, 11)], ["D2"]))
    play(s, "attack H9", "noblock", "noreact")
    assert len(s.hands[P1]) == 10  # 9 + 1
    s = build(3, P1, hands=([f"S{r}" for r in range(2, 11)] + ["SJ"], ["D2"]), discards=(["H9"], []))
    play(s, "pass H9")
    assert s.turn == 4  # no cosmic card into a hand of 10


def test_uta_r54_empty_deck_draws_nothing() -> None:
    s = build(3, P1, hands=(["H9"], ["D2"]))
    s.discards[P1] = [c for c in reversed(s.decks[P1])] + s.discards[P1]
    s.decks[P1] = []
    play(s, "attack H9", "noblock")
    assert s.phase == Phase.POST and s.hands[P1] == []  # no reaction window either: nothing to cancel


# -- 3.17 End of game ------------------------------------------------------------------------------
def test_uta_r55_empty_hand_ends_the_game() -> None:
    s = build(3, P1, hands=(["S2"], ["D2"]), jokers=(True, False))
    play(s, "attack S2 ban H", "noblock", "noreact", "take D2", "end", "nocosmic")
    out = s.outcome()
    assert out is not None and out.rule == "UTA-R55" and s.legal_actions() == []
    s2 = build(3, P1, hands=([], ["D2"]), jokers=(True, True))
    assert strs(s2.legal_actions()) == ["joker"]
    s3 = build(3, P1, flags={"end_on_empty_hand": False, "empty_hand_joker_rescue": False},
               hands=([], ["D2"]), jokers=(False, True), discards=(["H2"], []))
    assert strs(s3.legal_actions()) == ["pass H2"]


def test_uta_r56_deadlock() -> None:
    s = build(3, P1, hands=(["SQ"], ["DQ"]), sets=({"SQ": 1}, {"DQ": 2}), jokers=(False, False))
    play(s, "stall", "nocosmic")
    assert s.turn == 4 and s.prev_dead is True
    play(s, "stall", "nocosmic")
    assert s.outcome() is not None and s.outcome().rule == "UTA-R56"


def test_uta_r57_termination_guard_and_bound() -> None:
    s = build(3, P1, flags={"max_turns": 3}, hands=(["S2"], ["D2"]), discards=(["H5"], []))
    play(s, "pass H5", "nocosmic")
    out = s.outcome()
    assert out is not None and out.rule == "UTA-R57" and "ended_by_guard" in out.detail
    g = game()
    for seed in range(10):
        end = random_playout(g.new_game(seed=seed), random.Random(seed))
        assert end.turn <= 542  # UTA-I75


def test_uta_r58_scoring_and_winner() -> None:
    s = build(3, P1, hands=(["S2"], []), discards=(["H5", "H6", "H7v"], ["C5", "C6^"]), jokers=(True, False))
    play(s, "attack S2 ban H", "end", "nocosmic")
    out = s.outcome()
    assert out is not None and out.scores == (3.0, 2.0) and out.winners == (P1,)
    s = build(3, P1, flags={"score_only_self_played": True}, hands=(["S2"], []),
              discards=(["H5"], ["C5", "C6^"]), jokers=(True, False))
    play(s, "attack S2 ban H", "end", "nocosmic")
    assert s.outcome().scores == (2.0, 1.0)


def test_uta_r59_visibility() -> None:
    s = build(3, P1, hands=(["S9", "HK"], ["D2", "C5"]), sets=({"HK": 1}, {}), discards=(["H2v", "H3"], []))
    v2 = s.view(P2)
    me = v2["players"][P1]
    assert me["hand"] is None and me["hand_count"] == 2 and me["set"] == [{"card": None, "turn": 1}]
    assert me["discard"][0]["card"] is None and me["discard"][1]["card"] == "H3"
    assert "deck" not in me and me["deck_count"] == len(s.decks[P1])
    own = s.view(P1)["players"][P1]
    assert own["hand"] == ["HK", "S9"] and own["discard"][0]["card"] == "H2"
    spectator = s.view(None)
    assert spectator["players"][P1]["hand"] is None and spectator["players"][P2]["hand"] is None
    play(s, "attack S9", "noblock", "noreact")
    assert s.view(P1)["players"][P2]["hand"] == ["C5", "D2"] and s.view(None)["players"][P2]["hand"] is None
