"""The interpretation ledger: every variant flag (UTA-I*) and the project's own readings (UTA-I-CT*)."""

from __future__ import annotations

import pytest
from utahime_helpers import P1, P2, build, card, game, play, started, strs, verbs

from cardtable.games.utahime.rules import UtahimeRules
from cardtable.games.utahime.state import SEEN, Phase


def test_every_ledger_flag_is_a_rules_field_with_its_default() -> None:
    specs = {s.name: s for s in UtahimeRules.flag_specs()}
    assert specs["ace_value"].default == 1 and specs["ace_value"].choices == (1, 14)
    assert specs["club_next_penalty_only_on_success"].default is True
    assert specs["max_turns"].default == 1000 and specs["hand_limit"].default == 10
    assert all(s.ledger.startswith("UTA-I") and s.doc for s in specs.values())
    assert len(specs) == 39  # with cards (UTA-I-CT24)


@pytest.mark.parametrize(("flags", "message"), [
    ({"ace_value": 13}, "ace_value"), ({"joker_timing": "never"}, "joker_timing"),
    ({"max_turns": 0}, "max_turns"), ({"hand_limit": 21}, "hand_limit"), ({"cosmic_pool": "H5"}, "cosmic_pool"),
    ({"cosmic_pool": "H4,H4"}, "twice"), ({"premium_attack_cost": -1}, "premium"), ({"energy_cap": -2}, "energy_cap"),
    ({"nonsense": True}, "unknown rule flag"),
])
def test_bad_flags_raise_value_errors_that_name_the_flag(flags: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        game(**flags)


def test_uta_i17_ace_value_fourteen() -> None:
    s = build(3, P1, flags={"ace_value": 14}, hands=(["DK"], ["SA"]), sets=({"DK": 1}, {}), energy=(1, 0))
    play(s, "attack DK")
    assert verbs(s, "block") == ["block SA"]


def test_uta_i20_forced_block() -> None:
    s = build(3, P1, flags={"forced_block": True}, hands=(["D5"], ["H6", "H2"]))
    play(s, "attack D5")
    assert strs(s.legal_actions()) == ["block H6"]


def test_uta_i22_block_card_scores_false() -> None:
    s = build(3, P1, flags={"block_card_scores": False}, hands=(["D5"], ["H6"]))
    play(s, "attack D5", "block H6")
    assert s.discards[P2] == [card(P2, "H6") | 256 | SEEN] and s.score(P2) == 0  # shown, so remembered by all


def test_uta_i34_score_only_self_played() -> None:
    s = build(3, P1, flags={"score_only_self_played": True}, hands=(["D5"], ["H6", "H7"]))
    play(s, "attack D5", "noblock", "noreact", "take H6")
    assert s.score(P2) == 0 and s.score(P1) == 1


def test_uta_i27_rank_effects_on_block() -> None:
    s = build(3, P1, flags={"rank_effects_on_block": True}, hands=(["D2"], ["H3", "C6"]))
    play(s, "attack D2 ban D")
    assert verbs(s, "block") == ["block H3 ban H", "block H3 ban S", "block H3 ban C", "block H3 ban D",
                                 "block C6"]
    play(s, "block H3 ban S")
    assert (5, 0, P1, 1) in s.effects and s.energy == [1, 0]


def test_uta_i28_ban_applies_to_heart_next() -> None:
    s = build(3, P1, flags={"ban_applies_to_heart_next": True}, hands=(["S5", "H2"], ["D2"]),
              effects=[(3, "ban", P1, "H")])
    play(s, "attack S5", "noblock", "noreact", "take D2")
    assert verbs(s, "heartnext") == []


def test_uta_i32_optional_draws() -> None:
    s = build(3, P1, flags={"optional_draws": True}, hands=(["C5"], ["D2"]))
    play(s, "attack C5", "noblock", "noreact")
    assert s.phase == Phase.DRAW and strs(s.legal_actions()) == ["draw 0", "draw 1"]
    play(s, "draw 0")
    assert s.hands[P1] == [] and s.phase == Phase.POST
    s = build(3, P1, flags={"optional_draws": True}, hands=(["C5"], ["D2"]))
    play(s, "joker", "draw 2")
    assert s.current_player == P2 and strs(s.legal_actions()) == ["draw 0", "draw 1", "draw 2"]
    play(s, "draw 1")
    assert len(s.hands[P1]) == 3 and len(s.hands[P2]) == 2


def test_uta_i36_heart_ace_extra_draw() -> None:
    s = build(3, P1, flags={"heart_ace_extra_draw": True}, hands=(["HA"], ["D2"]), energy=(1, 0))
    play(s, "attack HA", "noreact")
    assert len(s.hands[P1]) == 2


def test_uta_i42_diamond_ace_vs_diamond_next() -> None:
    s = build(3, P1, flags={"diamond_ace_vs_diamond_next": True}, hands=(["D5"], ["DA", "H9"]))
    play(s, "attack D5 next", "react")
    assert s.phase == Phase.POST and s.hands[P2] == [card(P2, "H9")]


def test_uta_i45_any_set_unlocks() -> None:
    s = build(5, P1, flags={"jqk_unlock_mode": "any_set_unlocks"}, hands=(["SK", "HQ", "S2"], ["D2"]),
              energy=(1, 0))
    play(s, "set SK", "attack S2 ban H", "noblock", "noreact", "take D2", "end", "nocosmic")
    s2 = build(7, P1, flags={"jqk_unlock_mode": "any_set_unlocks"}, hands=(["HQ"], ["D2"]), energy=(1, 0))
    s2.unlock_turn[P1] = 5
    assert verbs(s2, "attack") == ["attack HQ"]  # never set itself


def test_uta_i46_same_turn_play_and_set_costs_action() -> None:
    s = build(3, P1, flags={"jqk_same_turn_play": True}, hands=(["SK"], ["D2"]), energy=(1, 0))
    play(s, "set SK")
    assert verbs(s, "attack") == ["attack SK"]
    s = build(3, P1, flags={"jqk_set_costs_action": True}, hands=(["SK", "H5"], ["D2"]))
    assert "set SK" in strs(s.legal_actions())
    play(s, "set SK")
    assert s.phase == Phase.END


def test_uta_i25_jqk_set_not_required_for_block() -> None:
    s = build(3, P1, flags={"jqk_set_required_for_block": False}, hands=(["D5"], ["HK"]))
    play(s, "attack D5")
    assert verbs(s, "block") == ["block HK"]


def test_uta_i48_starting_energy_and_cap() -> None:
    s = game(starting_energy=2, energy_cap=3).new_game(seed=1)
    assert s.energy == [2, 2]
    s = build(3, P1, flags={"energy_cap": 1}, hands=(["S5"], ["D2"]), energy=(1, 0))
    play(s, "attack S5")
    assert s.energy[P1] == 1


def test_uta_i49_premium_attack_cost_zero() -> None:
    s = build(3, P1, flags={"premium_attack_cost": 0}, hands=(["HA"], ["D2"]))
    assert verbs(s, "attack") == ["attack HA"]


def test_uta_i52_free_flip_for_energy() -> None:
    s = build(3, P1, flags={"free_flip_for_energy": True}, hands=(["HA"], ["D2"]), discards=(["S5", "S6"], []))
    play(s, "flip S5")
    assert s.phase == Phase.MAIN and s.energy[P1] == 1 and verbs(s, "attack") == ["attack HA"]


def test_uta_i56_joker_any_time_ends_turn() -> None:
    s = build(3, P1, flags={"joker_timing": "any_time_ends_turn"}, hands=(["S5"], ["D2"]))
    play(s, "attack S5", "noblock", "noreact", "take D2")
    assert "joker" in strs(s.legal_actions())
    play(s, "joker")
    assert s.phase == Phase.END and not s.joker_up[P1]


def test_uta_i60_diamond_next_pile_self() -> None:
    s = build(3, P1, flags={"diamond_next_pile": "self"}, hands=(["D5"], ["H9"]))
    play(s, "attack D5 next", "take H9 last")
    assert s.discards[P1][-1] == card(P2, "H9") | 128 and s.score(P1) == 2
    assert s.view(P1)["players"][P1]["discard"][-1]["card"] == "~H9"
    play(s, "end", "nocosmic")
    assert "~H9" not in " ".join(verbs(s, "pass"))  # P2 passes with its own pile only


def test_uta_i61_diamond_next_penalty_only_when_placed() -> None:
    s = build(3, P1, flags={"diamond_next_penalty_always": False}, hands=(["D9"], ["H9"]))
    play(s, "attack D9 next", "take none")
    assert not [e for e in s.effects if e[1] == 1 and e[3] < 0]
    s = build(3, P1, flags={"diamond_next_penalty_always": False}, hands=(["D9"], ["H9"]))
    play(s, "attack D9 next", "take H9 first")
    assert (4, 1, P1, -4) in s.effects


def test_uta_i63_club_next_extra_draw() -> None:
    s = build(3, P1, flags={"club_next_extra_draw": True}, hands=(["C9"], ["D2"]))
    play(s, "attack C9 next ban H", "noblock", "noreact")
    assert len(s.hands[P1]) == 2


def test_uta_i64_club_next_penalty_at_declaration() -> None:
    s = build(3, P1, flags={"club_next_penalty_only_on_success": False}, hands=(["C9"], ["D10"]))
    play(s, "attack C9 next ban H")
    assert (4, 3, P2, 3) in s.effects


def test_uta_i67_heart_next_per_game_and_after_block() -> None:
    s = build(3, P1, flags={"heart_next_limit": "per_game"}, hands=(["S5", "H2", "H3"], ["D2"]))
    s.hn_game[P1] = True
    play(s, "attack S5", "noblock", "noreact", "take D2")
    assert verbs(s, "heartnext") == []
    s = build(3, P1, flags={"heart_next_after_block": True}, hands=(["D5"], ["H6", "H2"]))
    play(s, "attack D5", "block H6")
    assert s.phase == Phase.BLOCKER_WINDOW and s.current_player == P2
    assert strs(s.legal_actions()) == ["heartnext H2", "end"]
    play(s, "heartnext H2")
    assert s.phase == Phase.HEART_PICK and s.current_player == P2
    play(s, strs(s.legal_actions())[0])
    assert s.phase == Phase.POST and s.current_player == P1


def test_uta_i68_heart_next_source_played_card() -> None:
    s = build(3, P1, flags={"heart_next_source": "played_card"}, hands=(["H5", "H2"], ["D2"]))
    play(s, "attack H5", "noblock", "noreact")
    assert verbs(s, "heartnext") == ["heartnext H5"]
    play(s, "heartnext H5")
    assert s.discards[P1][0] == card(P1, "H5") | 256 | SEEN and s.score(P1) == 0


def test_uta_i10_cosmic_pool_subset() -> None:
    s = game(cosmic_pool="H4,C7").new_game(seed=1)
    assert sum(1 for k in s.expected_cards() if k.endswith("+")) == 4
    assert game(cosmic_pool="").new_game(seed=1).pools == [[], []]


def test_uta_i11_cosmic_any_time_own_turn() -> None:
    s = build(3, P1, flags={"cosmic_timing": "any_time_own_turn"}, hands=(["S9"], ["D2"]))
    assert "cosmic H4+" in strs(s.legal_actions())
    play(s, "cosmic H4+")
    assert "attack H4+ ban H" in verbs(s, "attack") and verbs(s, "cosmic") == []
    play(s, "attack S9", "noblock", "noreact", "take D2", "end")
    assert s.turn == 4  # one per turn: no end-step decision


def test_uta_i14_wished_card_public() -> None:
    s = game(wished_card_public=True).new_game(seed=1)
    play(s, "wish HK")
    assert s.view(P2)["players"][P1]["wished"] is None  # not while P2 chooses
    play(s, "wish D3")
    assert s.view(P2)["players"][P1]["wished"] == "HK" and s.view(P1)["players"][P2]["wished"] == "D3"
    hidden = started()
    assert hidden.view(P2)["players"][P1]["wished"] is None


def test_uta_i16_first_player_flag() -> None:
    assert game(first_player="p1").new_game(seed=3).first == P1
    assert game(first_player="p2").new_game(seed=3).first == P2


def test_uta_i77_final_tiebreak_fewer_option_cards() -> None:
    toml = ('format = 1\nname = "x"\n[[option]]\nname = "a"\ncost = 2\neffects = [{ do = "draw" }]\n'
            '[[option]]\nname = "b"\ncost = 4\neffects = [{ do = "draw" }]\n')
    setup = {"option_set": "custom", "option_toml": toml, "p1_options": ["b"], "p2_options": ["a", "a"]}
    for flag, winners in (("draw", ()), ("fewer_option_cards_then_draw", (P1,))):
        s = build(4, P2, flags={"final_tiebreak": flag}, setup=setup, hands=([], ["S2"]), jokers=(False, True),
                  discards=(["H5"], []))
        play(s, "attack S2 ban H", "end", "nocosmic")
        out = s.outcome()
        assert out is not None and out.scores == (1.0, 1.0) and out.winners == winners


def test_uta_i74_end_flags() -> None:
    s = build(3, P1, flags={"empty_hand_joker_rescue": False}, hands=(["S2"], ["D2"]))
    play(s, "attack S2 ban H", "noblock", "noreact", "take D2", "end", "nocosmic")
    assert s.outcome() is not None  # P2's face-up joker does not rescue
    s = build(3, P1, flags={"end_on_empty_hand": False}, hands=(["S2"], ["D2"]), jokers=(True, False),
              discards=([], ["H5"]))
    play(s, "attack S2 ban H", "noblock", "noreact", "take D2", "end", "nocosmic")
    assert s.outcome() is None and strs(s.legal_actions()) == ["pass H5"]


def test_uta_i75_max_turns() -> None:
    s = game(max_turns=4).new_game(seed=2)
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    assert s.outcome().rule in ("UTA-R57", "UTA-R55", "UTA-R56") and s.turn <= 4


def test_uta_i7_hand_limit() -> None:
    s = game(hand_limit=5).new_game(seed=2)
    play(s, "wish HA", "wish HA")
    assert [len(h) for h in s.hands] == [5, 5]


def test_uta_i4_budget_and_copies_flags() -> None:
    g = game(option_cost_budget=40, option_max_copies=3)
    s = g.new_game(seed=1, option_set="designer_example", p1_options=["dig", "dig", "dig", "strip", "strip", "strip"])
    assert s.kit.costs[P1] == 27


def test_uta_i5_option_reusable() -> None:
    s = build(3, P1, flags={"option_reusable": True}, setup={"option_set": "designer_example",  # P1 first (UTA-R6)
                                                             "p1_options": ["surge"], "p2_options": ["quick_study"]},
              hands=(["S9"], ["D2"]), discards=(["H5"], ["C5"]))
    play(s, "option surge")
    assert verbs(s, "option") == []  # once per turn (UTA-I-CT7)
    play(s, "pass H5", "nocosmic", "pass C5", "nocosmic")
    assert s.turn == 5 and verbs(s, "option") == ["option surge"]


def test_uta_i_ct1_decisions_open_on_public_information() -> None:
    s = build(3, P1, hands=(["H9"], ["D2"]))
    play(s, "attack H9")
    assert s.phase == Phase.BLOCK and strs(s.legal_actions()) == ["noblock"]  # asked although no block exists
    play(s, "noblock")
    assert s.phase == Phase.REACT and strs(s.legal_actions()) == ["noreact"]  # asked although no ♣A


def test_uta_i_ct2_a_look_lasts_until_the_hand_gains_a_card() -> None:
    s = build(3, P1, hands=(["S9", "H3"], ["D2", "C4"]))
    play(s, "attack S9", "noblock", "noreact", "take D2")
    assert s.view(P1)["players"][P2]["hand"] == ["C4"]
    play(s, "end", "nocosmic")
    assert s.view(P1)["players"][P2]["hand"] is None


def test_uta_i_ct5_free_flip_makes_a_stall_live() -> None:
    s = build(3, P1, flags={"free_flip_for_energy": True}, hands=(["SQ"], ["DQ"]), sets=({"SQ": 1}, {"DQ": 2}),
              jokers=(False, False), discards=(["H2"], []), effects=[(3, "ban", P1, "S")])
    play(s, "flip H2", "stall", "nocosmic")
    assert s.prev_dead is False


def test_uta_i_ct3_effects_made_in_the_opponents_turn_wait_for_its_next_attack() -> None:
    toml = ('format = 1\nname = "x"\n[[option]]\nname = "hex"\ntiming = "any_time"\n'
            'effects = [{ do = "forbid_suit", suit = "S" }]\n')
    s = build(3, P1, setup={"option_set": "custom", "option_toml": toml, "p2_options": ["hex"]},
              hands=(["D8", "S5"], ["H9"]))
    play(s, "attack D8", "option hex")
    assert (5, 0, P1, 1) in s.effects  # P1's next attacking turn is 5


def test_uta_i_ct4_played_heart_must_still_be_face_up_and_the_hand_needs_room() -> None:
    flags = {"heart_next_source": "played_card"}
    full = ["H5"] + [f"S{r}" for r in range(2, 11)] + ["SJ"]
    s = build(3, P1, flags=flags, hands=(full[:10], ["D2"]))
    play(s, "attack H5", "noblock", "noreact")
    assert len(s.hands[P1]) == 10 and verbs(s, "heartnext") == []
    s = build(3, P1, flags=flags, hands=(["H5"], ["C9"]))
    play(s, "attack H5", "block C9")
    assert verbs(s, "heartnext") == ["heartnext H5"]


def test_uta_i_ct13_heart_next_with_one_card_left_takes_it() -> None:
    s = build(3, P1, hands=(["S9", "H2"], ["D2"]))
    s.discards[P1] = list(reversed(s.decks[P1][1:]))
    s.decks[P1] = s.decks[P1][:1]
    play(s, "attack S9", "noblock", "noreact", "take D2", "heartnext H2")
    assert s.phase == Phase.POST and len(s.hands[P1]) == 1 and s.decks[P1] == []


def test_uta_i_ct17_engine_limits() -> None:
    with pytest.raises(ValueError, match="at most 40 option cards"):
        game(option_cost_budget=1000, option_max_copies=100).new_game(
            seed=1, option_set="designer_example", p1_options=["dig"] * 41)
    assert started(hand_limit=20).hands[P1].__len__() == 20
