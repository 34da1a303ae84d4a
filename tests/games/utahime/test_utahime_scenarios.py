"""The rulebook's scenarios UTA-T1 .. UTA-T15 (section 5), one test each (branches as their own tests)."""

from __future__ import annotations

import pytest
from utahime_helpers import P1, P2, build, card, game, play, strs, verbs

from cardtable.games.utahime.state import COST, SEEN, Phase


def test_uta_t1_heart_attack_club_block_and_plus_two() -> None:
    s = build(3, P1, hands=(["H7", "C6", "S2"], ["C8", "D9", "S10", "HQ"]), sets=({}, {"HQ": 2}))
    play(s, "attack H7")
    assert verbs(s, "block") == ["block C8"]  # (1)
    play(s, "block C8")  # (2)
    assert s.discards[P1] and s.score(P1) == 1 and s.score(P2) == 1  # (3)
    assert len(s.hands[P1]) == 2  # (4) no draw
    assert s.energy == [1, 0]  # (5)
    play(s, "end", "nocosmic")
    # (6) turn 4: P2 attacks ♥8; P1's ♣6 counts 6 + 2 = 8 >= 8
    assert s.turn == 4 and s.attacker == P2
    s.hands[P2].append(card(P2, "H8"))
    s.decks[P2].remove(card(P2, "H8"))
    play(s, "attack H8")
    assert "block C6" in verbs(s, "block")
    play(s, "noblock", "noreact", "end", "nocosmic")
    assert s.turn == 5 and not [e for e in s.effects if e[0] == 5 and e[2] == P1 and e[1] == 1]


def test_uta_t2_spade_needs_diamond_and_takes_a_set_card() -> None:
    s = build(5, P1, hands=(["S9", "C9", "C7"], ["D8", "CK", "H10"]), sets=({}, {"CK": 4}), discards=([], ["C5"]))
    play(s, "attack S9")
    assert verbs(s, "block") == []  # (1) ♦8 < 9, the others are not diamonds
    play(s, "noblock", "noreact")
    assert s.phase == Phase.TARGET and s.view(P1)["players"][P2]["hand"] == ["H10", "CK", "D8"]
    assert s.view(P2)["players"][P1]["hand"] is None
    play(s, "take CK")  # (2)
    assert [e & 127 for e in s.discards[P2]] == [card(P2, "C5"), card(P2, "CK")]
    assert s.score(P2) == 1 and len(s.hands[P2]) == 2
    assert s.energy[P1] == 0  # (3)
    play(s, "end", "nocosmic")
    play(s, "attack H10")  # (4) ♣9 counts 10; ♣7 does not
    assert verbs(s, "block") == ["block C9"]


def _t3_position() -> object:
    return build(7, P1, hands=(["C3", "C8", "H9"], ["D5", "D7", "H9", "SJ", "CA"]), sets=({}, {"SJ": 4}),
                 energy=(2, 1))


def test_uta_t3_club_next_on_three_two_bans() -> None:
    s = _t3_position()
    assert "attack C3 next ban HS" in verbs(s, "attack")
    with pytest.raises(ValueError, match="two different suits|designates"):
        s.apply("attack C3 next ban HH")
    play(s, "attack C3 next ban HS")
    assert verbs(s, "block") == ["block H9", "block SJ", "block D5", "block D7"]  # (1) ♣A: 1 < 3
    assert s.energy == [3, 0]  # (2)


def test_uta_t3_branch_a_blocked_no_penalty() -> None:
    s = _t3_position()
    play(s, "attack C3 next ban HS", "block D5", "end", "nocosmic")
    assert s.attacker == P2 and verbs(s, "attack") == ["attack D7", "attack D7 next"]  # no ♥, ♠; ♣A needs energy
    play(s, "attack D7")
    assert verbs(s, "block") == ["block H9", "block C8"]  # ♦7 counts 7


def test_uta_t3_branch_a_variant_penalty_at_declaration() -> None:
    s = build(7, P1, flags={"club_next_penalty_only_on_success": False},
              hands=(["C3", "C8", "H9"], ["D5", "D7", "H9", "SJ", "CA"]), sets=({}, {"SJ": 4}), energy=(2, 1))
    play(s, "attack C3 next ban HS", "block D5", "end", "nocosmic", "attack D7")
    assert verbs(s, "block") == ["block H9"]  # ♦7 counts 8.5: ♣8 may not block, ♥9 may


@pytest.mark.parametrize("react", [True, False])
def test_uta_t3_branch_b_unblocked_penalty(react: bool) -> None:
    s = _t3_position()
    play(s, "attack C3 next ban HS", "noblock")
    hand_before = len(s.hands[P1])
    play(s, "react" if react else "noreact")
    assert len(s.hands[P1]) == hand_before + (0 if react else 1)
    play(s, "end", "nocosmic")
    attacks = {a.split()[1] for a in verbs(s, "attack")}
    assert attacks == {"D5", "D7"}
    play(s, "attack D7")
    blocks = verbs(s, "block")
    assert "block C8" not in blocks and "block H9" in blocks  # ♦7 counts 8.5


def test_uta_t4_heart_ace_unblockable_and_club_ace_reaction() -> None:
    hand = ["HA", "S2", "S3", "S5", "S6", "S7", "S8", "S9"]
    s = build(9, P1, hands=(hand, ["CQ", "CA", "D4"]), sets=({}, {"CQ": 6}), energy=(1, 0))
    play(s, "attack HA")
    assert s.energy[P1] == 0  # (1)
    assert s.phase == Phase.REACT  # (2) no block decision at all
    play(s, "react")  # (3)
    assert len(s.hands[P1]) == 7 and s.score(P1) == 1 and s.score(P2) == 1  # (4)
    play(s, "end", "nocosmic")
    assert s.effects == []  # (5)


@pytest.mark.parametrize(("flags", "hand_after"), [({}, 8), ({"heart_ace_extra_draw": True}, 9)])
def test_uta_t4_branch_no_reaction(flags: dict[str, bool], hand_after: int) -> None:
    hand = ["HA", "S2", "S3", "S5", "S6", "S7", "S8", "S9"]
    s = build(9, P1, flags=flags, hands=(hand, ["CQ", "CA", "D4"]), sets=({}, {"CQ": 6}), energy=(1, 0))
    play(s, "attack HA", "noreact")
    assert len(s.hands[P1]) == hand_after


def test_uta_t5_spade_ace_and_diamond_ace() -> None:
    s = build(11, P1, hands=(["SA"], ["DA", "DK", "S3"]), sets=({}, {"DK": 8}), energy=(2, 0))
    play(s, "attack SA")
    assert s.energy[P1] == 1 and s.phase == Phase.REACT
    a = s.clone()
    play(a, "react")  # branch A
    assert [e & 127 for e in a.discards[P2]] == [card(P2, "DA")]
    assert a.view(P1)["players"][P2]["hand"] is None and a.phase == Phase.POST
    assert sorted(a.hands[P2]) == sorted([card(P2, "DK"), card(P2, "S3")])
    play(s, "noreact")  # branch B
    assert set(s.view(P1)["players"][P2]["hand"]) == {"DA", "DK", "S3"}
    play(s, "take DK")
    assert s.discards[P2] == [card(P2, "DK") | 128] and s.score(P2) == 1


def test_uta_t6_diamond_next_on_four() -> None:
    s = build(13, P1, hands=(["D4", "SK", "H10"], ["DA", "DQ", "C9"]), sets=({"SK": 11}, {"DQ": 10}),
              discards=([], ["H5", "S6"]), energy=(0, 2))
    play(s, "attack D4 next ban C")
    assert s.phase == Phase.TARGET  # (1) no block, no ♦A reaction
    assert s.energy == [1, 1]  # (2)
    assert "take DA first" in strs(s.legal_actions()) and "take none" in strs(s.legal_actions())
    play(s, "take DA first")  # (3)
    assert [e & 127 for e in s.discards[P2]] == [card(P2, c) for c in ("DA", "H5", "S6")] and s.score(P2) == 3
    play(s, "end", "nocosmic")
    assert "attack C9" not in verbs(s, "attack")  # (4)
    play(s, "attack DQ")
    assert s.energy[P2] == 0
    assert verbs(s, "block") == []  # ♠K 11 < 12, ♥10 8 < 12
    play(s, "noblock", "noreact")
    assert s.phase == Phase.TARGET and s.attacker == P2


def test_uta_t7_heart_next() -> None:
    s = build(15, P1, hands=(["C5", "H2", "S2", "S5", "S6", "S7", "S8", "S9", "S10", "D2"], ["H6"]),
              decks=(["S3", "DJ", "H8"], None), discards=(["S4"], []))
    play(s, "attack C5", "block H6")
    assert len(s.hands[P1]) == 9
    play(s, "heartnext H2")
    assert s.view(P2)["heart_next"]["revealed"] == ["S3", "DJ", "H8"]
    play(s, "pick DJ")
    assert len(s.hands[P1]) == 9
    assert s.discards[P1] == [card(P1, "S4") | 384, card(P1, "C5") | 384, card(P1, "H2") | COST,
                              card(P1, "S3") | SEEN, card(P1, "H8") | SEEN]  # the ♥NEXT heart: publicly a heart
    # (UTA-I-CT22); the other two were revealed, so everybody remembers them (UTA-I-CT21)
    assert s.score(P1) == 2 and len(s.decks[P1]) == 52 - 11 - 3
    assert verbs(s, "heartnext") == []  # a second ♥NEXT is illegal
    passed = build(15, P1, hands=(["H2"], ["H6"]), discards=(["S4"], []))
    play(passed, "pass S4")
    assert verbs(passed, "heartnext") == []  # no post-attack window after a pass


def test_uta_t8_jqk_set_timing() -> None:
    s = build(17, P1, hands=(["SK", "HQ", "H5"], ["D9"]), energy=(1, 0))
    assert "attack SK" not in verbs(s, "attack")  # (a)
    play(s, "set SK")  # (b)
    assert len(s.hands[P1]) == 3 and "attack SK" not in verbs(s, "attack")
    play(s, "attack H5", "noblock", "noreact", "end", "nocosmic")
    assert s.energy[P1] == 2
    play(s, "attack D9")  # (c)
    assert "block SK" in verbs(s, "block") and "block HQ" not in verbs(s, "block")
    after_block = play(s.clone(), "block SK")
    assert after_block.discards[P1][-1] == card(P1, "SK") | 384 and after_block.energy[P1] == 2
    play(s, "noblock", "noreact", "take HQ", "end", "nocosmic")  # (d)
    assert "attack SK" in verbs(s, "attack")


def test_uta_t9_energy_cost_and_passing() -> None:
    s = build(21, P1, hands=(["CJ", "HK"], ["S3"]), sets=({"CJ": 19, "HK": 19}, {}),
              discards=(["S4", "D7"], []), jokers=(False, True))
    assert strs(s.legal_actions()) == ["pass S4", "pass D7"]  # (1), (2)
    play(s, "pass D7")  # (3)
    assert s.score(P1) == 1 and s.energy[P1] == 1 and s.phase == Phase.END
    play(s, "cosmic H4+")
    assert s.turn == 22 and s.effects == []
    s2 = build(21, P1, hands=(["S3"], ["S2"]), energy=(0, 0))  # separate check
    play(s2, "attack S3 ban H")
    assert s2.energy == [1, 0]


def test_uta_t9_premium_attack_next_turn() -> None:
    s = build(23, P1, hands=(["CJ", "HK"], ["S3"]), sets=({"CJ": 19, "HK": 19}, {}), energy=(1, 0))
    play(s, "attack CJ")  # (4)
    assert s.energy[P1] == 0


def test_uta_t10_joker() -> None:
    p1 = ["H2", "H3", "H4", "H5", "H6", "H7", "H8", "H9", "H10"]
    p2 = ["S2", "S3", "S4", "S5", "S6", "S7", "S8"]
    s = build(25, P1, hands=(p1, p2))
    play(s, "joker")
    assert s.joker_up[P1] is False  # (1)
    assert len(s.hands[P1]) == 10 and len(s.hands[P2]) == 9  # (2)
    assert s.energy == [0, 0] and s.effects == []  # (3)
    assert s.turn == 26  # (4) no cosmic decision with a hand of 10
    later = build(27, P1, hands=(["H2"], ["S2"]), jokers=(False, True))
    assert "joker" not in strs(later.legal_actions())  # (5)
    attacked = build(25, P1, hands=(["H2"], ["S2"]))
    play(attacked, "attack H2 ban C", "noblock", "noreact")
    assert "joker" not in strs(attacked.legal_actions())  # (6)


def test_uta_t11_cosmic_cards() -> None:
    hand = ["H2", "H3", "H5", "H7", "H8", "H9", "H10", "S2", "S3"]
    s = build(27, P1, hands=(hand, ["S5"]), discards=(["S4"], []))
    play(s, "pass S4")
    play(s, "cosmic C7+")
    assert len(s.hands[P1]) == 10
    assert [c % 64 for c in s.pools[P1]] == [52, 53, 54, 55, 57]
    assert s.turn == 28  # no second cosmic card
    later = build(29, P1, hands=(["C7", "S2"], ["S5"]), discards=(["C7+"], []))
    assert later.score(P1) == 1
    play(later, "attack C7")
    assert later.energy[P1] == 1
    assert (30, 1, P1, 4) in later.effects


def test_uta_t11_cosmic_card_plays_like_its_rank() -> None:
    s = build(29, P1, hands=(["C7+"], ["S5"]), pools=(["H4", "H6", "S4", "C6", "D6"], None))
    play(s, "attack C7+")
    assert s.energy[P1] == 1 and (30, 1, P1, 4) in s.effects and s.score(P1) == 1


def test_uta_t12_forbidden_suit_and_what_it_does_not_cover() -> None:
    s = build(31, P1, hands=(["H9", "HK", "C3"], ["S5"]), sets=({"HK": 29}, {}), energy=(2, 0),
              effects=[(31, "ban", P1, "H")])
    assert {a.split()[1] for a in verbs(s, "attack")} == {"C3"}  # (1)
    play(s, "attack C3 ban D")  # (2)
    assert s.energy == [3, 0]
    play(s, "noblock", "noreact")
    assert "heartnext H9" in verbs(s, "heartnext")  # (3)
    s2 = build(33, P1, hands=(["HK"], ["S5"]), sets=({"HK": 29}, {}), energy=(1, 0))
    assert "attack HK" in verbs(s2, "attack")  # (4)


@pytest.mark.parametrize(("ace", "blocks_with_mod", "blocks_without"),
                         [(1, ["block CA", "block C2"], []), (14, ["block CA", "block C2"], ["block CA"])])
def test_uta_t13_ace_value_and_modified_blocks(ace: int, blocks_with_mod: list[str], blocks_without: list[str]) -> None:
    s = build(35, P1, flags={"ace_value": ace}, hands=(["H3"], ["CA", "C2", "S9"]), effects=[(35, "plus2", P2, None)])
    play(s, "attack H3 ban D")
    assert verbs(s, "block") == blocks_with_mod
    s = build(35, P1, flags={"ace_value": ace}, hands=(["H3"], ["CA", "C2", "S9"]))
    play(s, "attack H3 ban D")
    assert verbs(s, "block") == blocks_without


COSMIC_DOWN = ["H4+v", "H6+v", "S4+v", "C6+v", "C7+v", "D6+v"]  # taken earlier, played, flipped by passes
TOML_T14 = """
format = 1
name = "t14"
[[option]]
name = "three"
cost = 3
effects = [{ do = "draw", count = 1 }]
[[option]]
name = "four"
cost = 4
effects = [{ do = "draw", count = 1 }]
[[option]]
name = "five"
cost = 5
effects = [{ do = "draw", count = 1 }]
[[option]]
name = "six"
cost = 6
effects = [{ do = "draw", count = 1 }]
[[option]]
name = "seven"
cost = 7
effects = [{ do = "draw", count = 1 }]
[[option]]
name = "eight"
cost = 8
effects = [{ do = "draw", count = 1 }]
"""
T14_SETUP = {"option_set": "custom", "option_toml": TOML_T14,
             "p1_options": ["six", "six", "five", "four", "three"],  # cost 24, 5 cards
             "p2_options": ["eight", "seven", "six", "six"]}  # cost 27, 4 cards


def _t14(costs: bool, joker: bool) -> object:
    discard1 = ["H2", "H3", "H4", "H5", "H6", "H7", "H8", "H9", "H10", "HJ", "HQ", "HK",
                "S2", "S3", "S4", "S5", "S6", "S7", "S8"]  # 19 face up; the pass flips one
    discard2 = discard1[:18]
    return build(39, P1, setup=T14_SETUP if costs else None, hands=(["D2"], []),
                 discards=(discard1 + COSMIC_DOWN, discard2 + COSMIC_DOWN), jokers=(False, joker), pools=([], []))


def test_uta_t14_empty_hand_ends_the_game_and_option_cost_breaks_the_tie() -> None:
    s = _t14(costs=True, joker=False)
    play(s, "pass S8")
    out = s.outcome()
    assert out is not None and out.rule == "UTA-R55" and out.scores == (18.0, 18.0)
    assert out.winners == (P1,) and "24 < 27" in out.detail


def test_uta_t14_default_game_tie_is_a_draw() -> None:
    s = _t14(costs=False, joker=False)
    play(s, "pass S8")
    out = s.outcome()
    assert out is not None and out.is_draw and out.rule == "UTA-R55"


def test_uta_t14_alternative_joker_rescue() -> None:
    s = _t14(costs=False, joker=True)
    play(s, "pass S8")
    assert s.turn == 40 and s.attacker == P2 and strs(s.legal_actions()) == ["joker"]
    play(s, "joker")
    assert s.turn == 41 and len(s.hands[P2]) == 2 and len(s.hands[P1]) == 3


TOML_T15 = """
format = 1
name = "t15"
[[option]]
name = "four"
cost = 4
effects = [{ do = "draw", count = 1 }]
[[option]]
name = "two"
cost = 2
effects = [{ do = "draw", count = 1 }]
[[option]]
name = "three"
cost = 3
effects = [{ do = "draw", count = 1 }]
"""


def test_uta_t15a_first_player_by_cost_then_count() -> None:
    g = game()
    base = {"option_set": "custom", "option_toml": TOML_T15}
    g2 = game(option_max_copies=5)
    p1_20_5 = ["four", "four", "four", "four", "four"]  # cost 20, 5 cards
    p2_20_6 = ["four", "four", "three", "three", "three", "three"]  # cost 20, 6 cards
    p1_18 = ["four", "four", "four", "three", "three"]  # cost 18
    assert g2.new_game(seed=1, **dict(base, p1_options=p1_20_5, p2_options=p2_20_6)).first == P1  # fewer cards
    assert g2.new_game(seed=1, **dict(base, p1_options=p1_18, p2_options=p2_20_6)).first == P1  # lower cost
    assert g2.new_game(seed=1, **dict(base, p1_options=p2_20_6, p2_options=p1_18)).first == P2
    firsts = {g.new_game(seed=seed).first for seed in range(20)}
    assert firsts == {P1, P2}  # equal cost and count: random
    assert all(g.new_game(seed=seed).first == g.new_game(seed=seed).first for seed in range(5))  # reproducible


def _t15b(p2_discard: list[str], p1_pool: list[str]) -> object:
    p1_down = [c for c in COSMIC_DOWN if c[:-2] not in p1_pool]
    return build(51, P1, hands=(["SQ"], ["DK"]), sets=({"SQ": 47}, {"DK": 46}), jokers=(False, False),
                 discards=(["H2v", *p1_down], p2_discard + COSMIC_DOWN), pools=(p1_pool, []))


def test_uta_t15b_two_dead_stalls_end_the_game() -> None:
    s = _t15b([], [])
    assert strs(s.legal_actions()) == ["stall"]
    play(s, "stall")
    assert s.turn == 52 and strs(s.legal_actions()) == ["stall"]
    play(s, "stall")
    out = s.outcome()
    assert out is not None and out.rule == "UTA-R56" and s.turn == 52


def test_uta_t15b_contrast_pass_keeps_the_game_going() -> None:
    s = _t15b(["H2"], [])
    play(s, "stall")
    assert strs(s.legal_actions()) == ["pass H2"]
    play(s, "pass H2", "stall")
    assert s.turn == 54 and "attack DK" in verbs(s, "attack")


def test_uta_t15b_contrast_live_stall() -> None:
    s = _t15b([], ["H4"])
    play(s, "stall", "cosmic H4+", "stall")
    assert s.outcome() is None and s.turn == 53
    assert "attack H4+ ban H" in verbs(s, "attack")
