"""One test (at least) per numbered rule ZETA-R1..R60, named with its id; read it next to the rulebook."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from zeta_positions import F, board, build, hand, legal, pile

import cardtable
from cardtable import IllegalAction
from cardtable.games.zeta import Deck, DeckError, ZetaState, preset, random_deck, validate_deck


def new(seed: int = 1, **flags: object) -> ZetaState:
    state = cardtable.load_game("zeta", **flags).new_game(seed=seed)
    assert isinstance(state, ZetaState)
    return state


# ---------------------------------------------------------------- 3.1 definitions
def test_zeta_r1_two_players_and_ownership_never_changes() -> None:
    s = build(["P2@c4"], p1_hand=["chant"])
    assert s.num_players == 2
    s.apply("chant_practice@c3")
    assert board(s) == {"c3": (0, "chant_practice"), "c4": (1, "chant_practice")}


def test_zeta_r2_every_card_is_in_exactly_one_zone() -> None:
    s = new()
    cardtable.core.play_random(s, random.Random(3), max_actions=20)
    seen: Counter[str] = Counter()
    for zone in s.zones().values():
        seen.update(zone)
    assert seen == s.expected_cards() and sum(seen.values()) == 50


def test_zeta_r3_views_hide_the_other_hand_and_deck_order() -> None:
    s = new()
    v0, spectator = s.view(0), s.view(None)
    assert v0["hands"][0] is not None and v0["hands"][1] is None
    assert spectator["hands"] == [None, None]
    assert "decks" not in v0 and v0["deck_sizes"] == [len(s.decks[0]), len(s.decks[1])]
    assert v0["hand_sizes"] == s.hand_size


def test_zeta_r4_board_count_counts_both_players() -> None:
    s = build(["P1@a1", "P2@b1", "P2@c1"], p1_hand=["magical_boost"])
    assert s.board_count() == 3 and s.own_count(0) == 1 and s.own_count(1) == 2
    assert "magical_boost@d4" in legal(s)


def test_zeta_r5_turns_alternate_p1_odd_p2_even() -> None:
    s = new(first_player="p1")
    for turn in range(1, 6):
        assert s.turn == turn and s.active == (0 if turn % 2 else 1)
        s.apply("pass")


# ---------------------------------------------------------------- 3.2 deck construction
def test_zeta_r6_deck_size_and_copy_limits() -> None:
    validate_deck(preset("classic"))
    with pytest.raises(DeckError, match="exactly 25: add 1"):
        validate_deck(Deck("short", {"chant_practice": 8, "do_over": 3, "magic_circle": 3, "barrier": 2,
                                     "blessing_mist": 2, "fire_mage": 2, "ice_mage": 2, "hexer": 2}))
    with pytest.raises(DeckError, match="chant_practice: 9 copies, the limit is 8: remove 1"):
        validate_deck(Deck("greedy", {"chant_practice": 9, "do_over": 3, "magic_circle": 3, "barrier": 2,
                                      "blessing_mist": 2, "fire_mage": 2, "ice_mage": 2, "hexer": 2}))
    # ZETA-I59: a deck with no cost-0 card is legal
    validate_deck(Deck("no-openers", {"magic_circle": 3, "magical_boost": 2, "fire_mage": 2, "ice_mage": 2,
                                      "apprentice_hexer": 2, "wind_mage": 2, "great_magic_circle": 3, "hexer": 2,
                                      "barrier": 2, "blaze_sorcerer": 2, "burst_circle": 2, "dark_mage": 1}))
    for seed in range(20):
        validate_deck(random_deck(random.Random(seed)))


def test_zeta_r6_new_game_rejects_an_illegal_deck_with_advice() -> None:
    game = cardtable.load_game("zeta")
    with pytest.raises(ValueError, match="construction_limits=false"):
        game.new_game(seed=1, decks=["plain", "classic"])


# ---------------------------------------------------------------- 3.3 setup
def test_zeta_r7_shuffles_come_from_the_seed() -> None:
    assert new(5).decks == new(5).decks
    assert new(5).decks != new(6).decks


def test_zeta_r8_first_player_is_random_or_seat_0() -> None:
    firsts = {new(seed).first for seed in range(20)}
    assert firsts == {0, 1}
    assert {new(seed, first_player="p1").first for seed in range(10)} == {0}


def test_zeta_r9_opening_hands_of_three() -> None:
    s = new(first_player="p1")
    # P1 has drawn for turn 1 as well (ZETA-I9)
    assert s.hand_size == [4, 3]
    assert new(first_player="p1", first_turn_draw=False).hand_size == [3, 3]


def test_zeta_r10_second_player_extra_card_flag() -> None:
    assert new(first_player="p1", second_player_extra_card=True).hand_size == [4, 4]


def test_zeta_r11_mulligan_once() -> None:
    s = new(first_player="p1", mulligan="once")
    assert legal(s) == ["mulligan", "keep"] and s.current_player == 0
    s.apply("mulligan")
    assert s.hand_size[0] == 3 and s.current_player == 1
    s.apply("keep")
    assert s.turn == 1 and s.current_player == 0 and s.hand_size == [4, 3]
    assert sum(s.hand_size) + len(s.decks[0]) + len(s.decks[1]) == 50


# ---------------------------------------------------------------- 3.4 turn structure
def test_zeta_r12_turn_sequence_deck_check_draw_action() -> None:
    s = build(p2_deck=["hexer"], turn=3)
    s.apply("pass")
    assert s.turn == 4 and "hexer" in hand(s, 1) and s.decks[1] == []
    s.apply("pass")
    s.apply("pass")
    out = s.outcome()
    assert out is not None and out.reason == "deck_out" and out.winners == (0,)


def test_zeta_r13_pass_is_always_legal_and_keeps_the_draw() -> None:
    s = build(p1_hand=["chant"])
    assert "pass" in legal(s)
    s.apply("pass")
    assert hand(s, 0) == ["chant_practice"]
    with pytest.raises(IllegalAction, match="ZETA-R12|not in your hand"):
        s.apply("target:a1")


# ---------------------------------------------------------------- 3.5 placement legality
def test_zeta_r14_cost_equal_to_board_count_is_allowed() -> None:
    s = build(["P1@a1", "P2@b1"], p1_hand=["magic_circle", "magical_boost"])
    assert "magic_circle@c3" in legal(s)
    with pytest.raises(IllegalAction, match=r"\[ZETA-R14\].*costs 3, more than the 2"):
        s.apply("magical_boost@c3")


def test_zeta_r15_only_empty_unblocked_squares() -> None:
    s = build(["P1@a1"], p1_hand=["chant"], blocked=["b1"])
    with pytest.raises(IllegalAction, match="ZETA-R15"):
        s.apply("chant_practice@a1")
    with pytest.raises(IllegalAction, match="ZETA-R50"):
        s.apply("chant_practice@b1")
    assert "chant_practice@f6" in legal(s)


def test_zeta_r16_gravity_variant() -> None:
    s = build(["P1@a1"], p1_hand=["chant"], flags={"gravity": True})
    squares = {a.split("@")[1] for a in legal(s) if "@" in a}
    assert squares == {"a2", "b1", "c1", "d1", "e1", "f1"}
    with pytest.raises(IllegalAction, match="ZETA-R16"):
        s.apply("chant_practice@c3")


def test_zeta_r17_earth_mage_restriction_and_broom_permission() -> None:
    s = build(F(3), p1_hand=["chant", "magical_boost"], effects={"only_cost_zero": [3, 0]})
    assert not any(a.startswith("magical_boost") for a in legal(s))
    with pytest.raises(IllegalAction, match="ZETA-R17"):
        s.apply("magical_boost@c3")
    s = build(F(1), p1_hand=["burst_circle", "mourning_the_dead"], effects={"broom": [3, 0]})
    acts = legal(s)
    assert any(a.startswith("burst_circle") for a in acts) and not any(a.startswith("mourning") for a in acts)


# ---------------------------------------------------------------- 3.6 resolution
def test_zeta_r18_fanfare_before_triggers_by_default() -> None:
    # Fortune-Telling next to its owner's Magic Circle: the Fanfare's two draws come before the circle's.
    s = build(["P1:magic_circle@c3"], p1_hand=["fortune_telling"], p1_deck=["hexer", "barrier", "magical_boost"])
    s.apply("fortune_telling@c4")
    assert legal(s) == ["destroy:hexer", "destroy:barrier"]
    s.apply("destroy:hexer")
    assert hand(s, 0) == ["barrier", "magical_boost"]


def test_zeta_r19_several_magic_circles_each_draw() -> None:
    s = build(["P1:magic_circle@c3", "P1:magic_circle@e3"], p1_hand=["chant"], p1_deck=["hexer", "barrier"])
    s.apply("chant_practice@d3")
    assert hand(s, 0) == ["barrier", "hexer"]


def test_zeta_r19_destroying_is_not_placing_so_bursts_do_not_chain() -> None:
    s = build(["P2:burst_circle@c3", "P2:burst_circle@d4", "P1@c4"], p1_hand=["chant"])
    s.apply("chant_practice@b2")  # diagonal to c3 only
    b = board(s)
    assert "c3" not in b and "c4" not in b and "d4" in b


# ---------------------------------------------------------------- 3.7 winning
def test_zeta_r20_four_in_a_row_in_every_direction() -> None:
    for line in (["a1", "b1", "c1"], ["a1", "a2", "a3"], ["a1", "b2", "c3"], ["a4", "b3", "c2"]):
        last = {"a1b1c1": "d1", "a1a2a3": "a4", "a1b2c3": "d4", "a4b3c2": "d1"}["".join(line)]
        s = build([f"P1@{sq}" for sq in line], p1_hand=["chant"])
        s.apply(f"chant_practice@{last}")
        out = s.outcome()
        assert out is not None and out.winners == (0,) and out.rule == "ZETA-R20"


def test_zeta_r20_barrier_counts_and_opponent_cards_break_lines() -> None:
    s = build(["P1:barrier@a1", "P1@b1", "P2@c1", "P1@d1", "P1@e1"], p1_hand=["chant"])
    s.apply("chant_practice@f1")
    assert s.outcome() is None
    s = build(["P1:barrier@a1", "P1@b1", "P1@c1"], p1_hand=["chant"])
    s.apply("chant_practice@d1")
    assert s.outcome() is not None


def test_zeta_r21_win_is_checked_only_for_the_placer_at_placement() -> None:
    s = build(["P2@a1", "P2@b1", "P2@c1"], p1_hand=["chant"])
    s.apply("chant_practice@a6")
    assert s.outcome() is None  # P2's three are not P1's business


def test_zeta_r22_full_board_more_cards_wins() -> None:
    squares = [f"{f}{r}" for r in range(1, 7) for f in "abcdef"]
    # a pattern without lines: P1 gets 18 + the last card
    entries = []
    for i, sq in enumerate(squares[:-1]):
        r, f = divmod(i, 6)
        who = ["P1", "P1", "P2", "P2", "P1", "P1"][f] if r % 2 == 0 else ["P2", "P2", "P1", "P1", "P2", "P2"][f]
        entries.append(f"{who}@{sq}")
    s = build(entries, p2_hand=["chant"], turn=4)
    # f6 for P2 makes 18-18: a draw; giving it to P1 instead is tested in the scenarios.
    s.apply("chant_practice@f6")
    out = s.outcome()
    assert out is not None and out.rule == "ZETA-R22"


def test_zeta_r22_tie_continue_variant() -> None:
    from test_zeta_scenarios import _pattern

    s = build(_pattern({"f6"}), p2_hand=["chant"], turn=4, flags={"board_full_tie": "continue"})
    s.apply("chant_practice@f6")
    assert s.outcome() is None and s.turn == 5


def test_zeta_r23_deck_out_only_at_own_turn_start() -> None:
    s = build(p1_hand=["blessing_mist"], p2_deck=["chant"])
    s.apply("blessing_mist@a1")  # P2 draws its last card during P1's turn, then loses at turn start
    out = s.outcome()
    assert out is not None and out.reason == "deck_out" and s.turn == 4


def test_zeta_r24_line_before_full_board() -> None:
    from test_zeta_scenarios import _pattern

    entries = [e for e in _pattern({"f6"}) if not e.endswith(("c6", "d6", "e6"))]
    entries += ["P2@c6", "P2@d6", "P2@e6"]  # P2 now has c6, d6, e6: f6 makes four and fills the board
    s = build(entries, p2_hand=["chant"], turn=4)
    s.apply("chant_practice@f6")
    out = s.outcome()
    assert out is not None and out.reason == "four_in_a_row" and out.winners == (1,)


# ---------------------------------------------------------------- 3.8 destroy, draw, random, choices
def test_zeta_r25_destroyed_cards_go_to_the_owners_pile_and_leave_a_marker() -> None:
    s = build(["P2@c4"], p1_hand=["fire_mage"], effects={"broom": [3, 0]})
    s.apply("fire_mage@c3")
    s.apply("target:c4")
    assert pile(s, 1) == ["chant_practice"] and "c4" not in board(s)
    assert s.view(None)["markers"] == {"c4": 1}
    assert "chant_practice@c4" in legal(s)  # empty and placeable again (ZETA-I21)


def test_zeta_r26_barrier_is_never_a_target() -> None:
    s = build(["P2:barrier@c4", "P2@c2"], p1_hand=["fire_mage"], effects={"broom": [3, 0]})
    s.apply("fire_mage@c3")
    assert legal(s) == ["target:c2", "decline"]


def test_zeta_r27_destroyed_count_includes_own_effects_and_hand_destroys() -> None:
    s = build(p1_hand=["do_over", "hexer"])
    s.apply("do_over@a1")
    assert pile(s, 0) == ["hexer"]


def test_zeta_r27_board_only_scope_counts_board_destructions() -> None:
    s = build(F(11), p1_hand=["mourning_the_dead", "chant"], p1_destroyed=["chant"] * 5,
              flags={"mourning_count_scope": "board_only"})
    s.apply("mourning_the_dead@c3")
    assert s.turn == 4  # 5 destroyed, but none from the board: no sub-placement


def test_zeta_r28_draw_takes_the_top_card() -> None:
    s = build(F(3), p1_hand=["magical_boost"], p1_deck=["hexer", "barrier"])
    s.apply("magical_boost@c3")
    assert hand(s, 0) == ["hexer"]


def test_zeta_r29_random_destroy_is_capped_by_hand_size() -> None:
    s = build(F(6), p1_hand=["awakening_potion"], p2_hand=["hexer"])
    s.apply("awakening_potion@c3")
    assert pile(s, 1) == ["hexer"]


def test_zeta_r30_optional_effects_may_be_declined_mandatory_ones_not() -> None:
    s = build(["P2@c4"], p1_hand=["fire_mage"], effects={"broom": [3, 0]})
    s.apply("fire_mage@c3")
    assert "decline" in legal(s)
    s = build(p1_hand=["do_over", "hexer", "barrier"])
    s.apply("do_over@a1")
    assert "decline" not in legal(s) and set(legal(s)) == {"destroy:hexer", "destroy:barrier"}


def test_zeta_r31_no_hand_limit() -> None:
    s = build(F(6), p1_hand=["awakening_potion"] + ["chant"] * 12)
    s.apply("awakening_potion@c3")
    assert s.hand_size[0] == 14


# ---------------------------------------------------------------- 3.9 fanfare, continuous, durations, negation
def test_zeta_r32_fanfare_fires_every_time_the_card_is_placed() -> None:
    s = build(["P1:magical_boost@c3", *F(4)], p1_hand=["wind_mage"], p1_deck=["chant"] * 5)
    s.apply("wind_mage@c3")
    assert "magical_boost" in hand(s, 0)
    s.apply("pass")
    before = s.hand_size[0]
    s.apply("magical_boost@d3")
    assert s.hand_size[0] == before  # -1 placed, +1 drawn again


def test_zeta_r33_continuous_effects_only_on_the_board() -> None:
    s = build(p1_hand=["chant", "magic_circle"], p1_deck=["hexer"] * 3)
    s.apply("chant_practice@c3")
    assert hand(s, 0) == ["magic_circle"]  # a circle in hand draws nothing


def test_zeta_r34_durations_outlast_their_source() -> None:
    s = build(F(6), p1_hand=["hexer"], p2_hand=["magical_boost", "chant"])
    s.apply("hexer@a1")
    s.destroyed[0].append(s._remove(s.geo.index["a1"]))  # the Hexer leaves the board
    assert s.negate[1] == 4


def test_zeta_r35_negation_voids_only_fanfares() -> None:
    s = build(["P2:magic_circle@c3", *F(6)], p2_hand=["magical_boost"], turn=4, effects={"negate_fanfares": [0, 4]})
    before = s.hand_size[1]
    s.apply("magical_boost@c4")
    assert s.hand_size[1] == before  # no Boost draw (-1), the circle's draw (+1)


def test_zeta_r35_include_lingering_suppresses_own_broom() -> None:
    s = build(F(2), p1_hand=["burst_circle"], effects={"broom": [3, 0], "negate_fanfares": [3, 0]},
              flags={"negation_scope": "include_lingering"})
    assert not any(a.startswith("burst_circle") for a in legal(s))


# ---------------------------------------------------------------- 3.10 card rules
def test_zeta_r36_chant_practice_has_no_effect() -> None:
    s = build(p1_hand=["chant"])
    s.apply("chant_practice@c3")
    assert s.hand_size == [0, 4] and s.turn == 4


def test_zeta_r37_mist_both_draw() -> None:
    s = build(p1_hand=["blessing_mist"], p1_deck=["hexer"], p2_deck=["barrier", "chant"])
    s.apply("blessing_mist@c3")
    assert hand(s, 0) == ["hexer"] and "barrier" in hand(s, 1)


@pytest.mark.parametrize(("flag", "drawn"), [("draw", 1), ("no_draw", 0)])
def test_zeta_r38_do_over_with_an_empty_hand(flag: str, drawn: int) -> None:
    s = build(p1_hand=["do_over"], flags={"do_over_empty_hand": flag})
    s.apply("do_over@c3")
    assert s.hand_size[0] == drawn


def test_zeta_r38_do_over_destroys_then_draws() -> None:
    s = build(p1_hand=["do_over", "hexer", "chant"], p1_deck=["barrier"])
    s.apply("do_over@c3")
    s.apply("destroy:hexer")
    assert pile(s, 0) == ["hexer"] and hand(s, 0) == ["barrier", "chant_practice"]


@pytest.mark.parametrize(("flag", "kept"), [("destroy", []), ("keep", ["hexer"])])
def test_zeta_r39_fortune_telling_short_draw(flag: str, kept: list[str]) -> None:
    s = build(["P1@a1"], p1_hand=["fortune_telling"], p1_deck=["hexer"], flags={"fortune_short_draw": flag})
    s.apply("fortune_telling@c3")
    assert hand(s, 0) == kept


def test_zeta_r39_only_the_two_drawn_cards_may_be_chosen() -> None:
    s = build(["P1@a1"], p1_hand=["fortune_telling", "barrier"], p1_deck=["hexer", "chant"])
    s.apply("fortune_telling@c3")
    assert legal(s) == ["destroy:chant_practice", "destroy:hexer"]
    with pytest.raises(IllegalAction, match="ZETA-R39"):
        s.apply("destroy:barrier")


def test_zeta_r40_magic_circle_owner_only_and_not_itself() -> None:
    s = build(["P2:magic_circle@c3", "P1@a1", "P1@a2"], p1_hand=["chant", "magic_circle"], p1_deck=["hexer"] * 3)
    s.apply("chant_practice@c4")
    assert hand(s, 0) == ["magic_circle"]  # the opponent's circle does nothing for P1
    s = build(["P1@a1", "P1@a2"], p1_hand=["magic_circle"], p1_deck=["hexer"])
    s.apply("magic_circle@c4")
    assert hand(s, 0) == []


def test_zeta_r41_magical_boost_draws_one() -> None:
    s = build(F(3), p1_hand=["magical_boost"], p1_deck=["hexer"])
    s.apply("magical_boost@c3")
    assert hand(s, 0) == ["hexer"]


def test_zeta_r42_fire_mage_vertical_targets() -> None:
    s = build(["P2@c4", "P2@c2", "P2@b3", "P2@d3"], p1_hand=["fire_mage"])
    s.apply("fire_mage@c3")
    assert legal(s) == ["target:c2", "target:c4", "decline"]


def test_zeta_r42_opponent_only_scope() -> None:
    s = build(["P1@c4", "P2@c2", "P1@a1"], p1_hand=["fire_mage"], flags={"targeted_destroy_scope": "opponent_only"})
    s.apply("fire_mage@c3")
    assert legal(s) == ["target:c2", "decline"]


def test_zeta_r43_ice_mage_horizontal_targets() -> None:
    s = build(["P2@c4", "P2@c2", "P2@b3", "P1@d3"], p1_hand=["ice_mage"])
    s.apply("ice_mage@c3")
    assert legal(s) == ["target:b3", "target:d3", "decline"]


def test_zeta_r44_apprentice_hexer_opponent_turn_start_variant() -> None:
    s = build(F(6), p1_hand=["apprentice_hexer"], p2_hand=["magical_boost", "chant", "chant"],
              flags={"apprentice_check_time": "opponent_turn_start"})
    s.apply("apprentice_hexer@a1")
    # P2 holds 3 + the turn draw = 4 after drawing: negated in turn 4
    assert s.negate[1] == 4


def test_zeta_r45_wind_mage_cannot_take_opponent_or_empty_unmarked_squares() -> None:
    s = build(["P2@c3", "P1@a1", *F(3)], p1_hand=["wind_mage"])
    squares = {a.split("@")[1] for a in legal(s) if a.startswith("wind_mage")}
    assert squares == {"a1", "a6"}  # P1's own cards; c3 is P2's and no square carries P1's marker
    with pytest.raises(IllegalAction, match="ZETA-R45"):
        s.apply("wind_mage@c3")


def test_zeta_r46_great_magic_circle_per_circle() -> None:
    s = build(["P1:great_magic_circle@b2", "P1:great_magic_circle@d2"], p1_hand=["chant"], p2_hand=["chant"] * 7)
    s.apply("chant_practice@c3")
    assert len(pile(s, 1)) == 6


def test_zeta_r47_hexer_negates_the_next_opponent_turn() -> None:
    s = build(F(6), p1_hand=["hexer"])
    s.apply("hexer@a1")
    assert s.negate == [0, 4]


def test_zeta_r48_awakening_potion() -> None:
    s = build(F(6), p1_hand=["awakening_potion"], p1_deck=["hexer", "barrier"], p2_hand=["chant"] * 5)
    s.apply("awakening_potion@c3")
    assert hand(s, 0) == ["barrier", "hexer"] and len(pile(s, 1)) == 2


def test_zeta_r49_broom_cap_is_max_of_board_and_ten() -> None:
    s = build(F(12), p1_hand=["single_arrow_summon", "dark_mage"], effects={"broom": [3, 0]})
    acts = legal(s)
    assert any(a.startswith("dark_mage") for a in acts)  # 12 <= max(12, 10)
    assert not any(a.startswith("single_arrow") for a in acts)  # 15 > 12


def test_zeta_r50_light_mage_block_stops_every_placement() -> None:
    s = build(["P1@d4", *F(5)], p1_hand=["light_mage", "wind_mage"], effects={"broom": [3, 0]})
    s.apply("light_mage@c3")
    s.apply("target:d4")
    assert s.view(None)["blocked"] == ["d4"]
    s.apply("pass")
    assert not any(a.endswith("@d4") for a in legal(s))


def test_zeta_r51_astrology_central_four_including_itself() -> None:
    s = build(["P2@c4", "P1@d4", *F(6)], p1_hand=["astrology"])
    s.apply("astrology@d3")
    assert legal(s) == ["target:d3", "target:c4", "target:d4", "decline"]


def test_zeta_r52_thunder_mage_condition_is_strict() -> None:
    s = build(["P1@a1", "P2@b1", *F(6)], p1_hand=["thunder_mage"])
    s.apply("thunder_mage@c3")
    assert s.turn == 4  # 4 vs 4: not fewer


def test_zeta_r53_earth_mage_restricts_the_next_opponent_turn() -> None:
    s = build(F(8), p1_hand=["earth_mage"], p2_hand=["chant", "magical_boost"])
    s.apply("earth_mage@a1")
    acts = legal(s)
    assert "pass" in acts and any(a.startswith("chant") for a in acts)
    assert not any(a.startswith("magical_boost") for a in acts)


def test_zeta_r54_barrier_survives_the_dark_mage_but_not_in_hand() -> None:
    s = build(["P2:barrier@c4", *F(12)], p1_hand=["dark_mage"])
    s.apply("dark_mage@c3")
    assert board(s)["c4"] == (1, "barrier")
    s = build(F(6), p1_hand=["awakening_potion"], p2_hand=["barrier"])
    s.apply("awakening_potion@c3")
    assert pile(s, 1) == ["barrier"]


def test_zeta_r55_blaze_sorcerer_eight_neighbours() -> None:
    s = build(["P2@b2", "P2@b4", "P2@d2", "P2@d4", "P2@c2", "P2@c4", "P2@b3", "P2@d3", "P2@a1"], p1_hand=["blaze_sorcerer"])
    s.apply("blaze_sorcerer@c3")
    assert len(legal(s)) == 9


def test_zeta_r56_burst_owner_own_placement_triggers_it() -> None:
    s = build(["P1:burst_circle@c3", "P1@c4"], p1_hand=["chant"])
    s.apply("chant_practice@d2")
    assert set(board(s)) == {"d2"} and sorted(pile(s, 0)) == ["burst_circle", "chant_practice"]


def test_zeta_r57_mourning_sub_placement_is_not_a_normal_placement() -> None:
    s = build(F(11), p1_hand=["mourning_the_dead", "do_over", "hexer"], p1_destroyed=["chant"] * 5)
    s.apply("mourning_the_dead@a1")
    s.apply("do_over@b1")  # the sub-placed Do-Over resolves its own Fanfare (one card type: no choice)
    assert board(s)["b1"] == (0, "do_over") and pile(s, 0)[-1] == "hexer"
    assert s.turn == 4  # the extra placement did not use up or repeat the turn's placement


def test_zeta_r58_dark_mage_destroys_all_orthogonal_neighbours() -> None:
    s = build(["P1@c4", "P2@c2", "P1@b3", "P2@d3", "P2@b4", *F(7)], p1_hand=["dark_mage"])
    s.apply("dark_mage@c3")
    b = board(s)
    assert not {"c4", "c2", "b3", "d3"} & set(b) and "b4" in b


def test_zeta_r59_no_full_line_does_nothing() -> None:
    s = build(F(5) + ["P1@a1", "P2@b1", "P1@c1", "P2@e2", "P1@a3", "P2@b3", "P1@e4", "P2@f4", "P1@b4", "P2@f2"],
              p1_hand=["single_arrow_summon"])
    s.apply("single_arrow_summon@d3")
    assert s.turn == 4 and s.board_count() == 16


@pytest.mark.parametrize(("disposal", "destroyed"), [("destroy", 2), ("remove_from_game", 0)])
def test_zeta_r60_ultimate_zero(disposal: str, destroyed: int) -> None:
    s = build(F(12) + ["P1@a1", "P2@b1", "P1@c1", "P2@d1", "P1@e1"], p1_hand=["ultimate_zero", "hexer"],
              p2_hand=["chant"], flags={"ultimate_zero_disposal": disposal})
    s.apply("ultimate_zero@c3")
    assert len(pile(s, 0)) + len(pile(s, 1)) == destroyed
    assert s.hand_size[0] == 0
