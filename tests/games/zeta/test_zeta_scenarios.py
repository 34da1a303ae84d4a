"""The rulebook's §5 rule scenarios (TC1-TC15), one test per scenario part."""

from __future__ import annotations

from typing import Any

import pytest
from zeta_positions import F, board, build, hand, legal, pile

from cardtable import IllegalAction
from cardtable.games.zeta import ZetaState


# TC1: cost limit, occupancy and pass (ZETA-R13, R14, R15)
def test_tc1_cost_limit_occupancy_and_pass() -> None:
    s = build(["P1:chant@a1", "P2:chant@f6"], p1_hand=["magic_circle", "magical_boost", "do_over", "wind_mage"])
    acts = legal(s)
    assert len(acts) == 69
    assert "pass" in acts
    assert sum(a.startswith("magic_circle@") for a in acts) == 34
    assert sum(a.startswith("do_over@") for a in acts) == 34
    assert not any(a.startswith(("magical_boost@", "wind_mage@")) for a in acts)
    assert not any(a.endswith(("@a1", "@f6")) for a in acts)
    for bad in ("magical_boost@c3", "wind_mage@a1", "magic_circle@a1", "do_over@f6"):
        with pytest.raises(IllegalAction):
            s.apply(bad)


# TC2: four-in-a-row beats the Fanfare; overline (ZETA-R20, R21)
def test_tc2a_four_in_a_row_wins_before_the_fanfare() -> None:
    s = build(["P1@a1", "P1@b2", "P1@c3", "P2@a2", "P2@a3", "P2@b3"], p1_hand=["blessing_mist"],
              p2_hand=["chant"] * 4)
    s.apply("blessing_mist@d4")
    out = s.outcome()
    assert out is not None and out.winners == (0,) and out.reason == "four_in_a_row"
    assert s.view(None)["deck_sizes"] == [10, 10]
    assert s.view(None)["hand_sizes"][1] == 4


@pytest.mark.parametrize(("overline", "wins"), [(True, True), (False, False)])
def test_tc2b_overline(overline: bool, wins: bool) -> None:
    s = build(["P1@a1", "P1@b2", "P1@d4", "P1@e5", "P2@a2", "P2@a3", "P2@b3"], p1_hand=["chant"],
              flags={"overline_wins": overline})
    s.apply("chant_practice@c3")
    assert (s.outcome() is not None) is wins
    if not wins:
        assert s.turn == 4


# TC3: deck-out timing and empty-deck draws (ZETA-R23, R37)
def test_tc3a_empty_deck_draw_is_skipped_and_loses_at_turn_start() -> None:
    s = build(p1_hand=["blessing_mist"], p1_deck=["chant"] * 3, p2_deck=[], p2_hand=["chant"] * 2)
    s.apply("blessing_mist@c3")
    # P1 drew 1 from the Mist; P2's draw was skipped; turn t+1 begins with P2's empty deck: P2 loses.
    v = s.view(None)
    assert v["deck_sizes"] == [2, 0]
    assert v["hand_sizes"] == [1, 2]
    out = s.outcome()
    assert out is not None and out.winners == (0,) and out.reason == "deck_out"


def test_tc3a_lose_immediately_variant() -> None:
    s = build(p1_hand=["blessing_mist"], p1_deck=["chant"] * 3, p2_deck=[], p2_hand=["chant"] * 2,
              flags={"empty_deck_draw": "lose_immediately"})
    s.apply("blessing_mist@c3")
    out = s.outcome()
    assert out is not None and out.winners == (0,) and out.reason == "empty_deck_draw"
    assert s.turn == 3


def test_tc3b_last_card_drawn_then_deck_out() -> None:
    s = build(p1_hand=["blessing_mist"], p1_deck=["chant"] * 3, p2_deck=["chant"], p2_hand=["chant"] * 2)
    s.apply("blessing_mist@c3")
    v = s.view(None)
    assert v["hand_sizes"][1] == 3 and v["deck_sizes"][1] == 0
    out = s.outcome()
    assert out is not None and out.winners == (0,) and out.reason == "deck_out"


def test_tc3c_deck_out_at_turn_start_even_with_a_hand() -> None:
    s = build(p1_hand=["chant"] * 5, p1_deck=[], turn=2, p2_hand=["chant"])
    s.apply("pass")  # P2 ends turn 2; P1 starts turn 3 with an empty deck
    out = s.outcome()
    assert out is not None and out.winners == (1,) and out.reason == "deck_out"
    assert s.view(None)["hand_sizes"][0] == 5


# TC4: Dark Mage, Barrier, Destroyed piles; Thunder Mage condition (R26, R52, R58)
TC4 = ["P2:barrier@c4", "P2@b3", "P1@d3", *F(9)]


def test_tc4a_dark_mage_spares_the_barrier() -> None:
    s = build(TC4, p1_hand=["dark_mage"])
    assert s.board_count() == 12
    s.apply("dark_mage@c3")
    b = board(s)
    assert "b3" not in b and "d3" not in b and b["c4"] == (1, "barrier")
    assert pile(s, 0) == ["chant_practice"] and pile(s, 1) == ["chant_practice"]
    assert s.view(None)["markers"] == {"b3": 1, "d3": 0}
    assert s.board_count() == 11 and s.outcome() is None


def test_tc4b_thunder_mage_not_fewer_offers_nothing() -> None:
    s = build(TC4, p1_hand=["thunder_mage"])
    s.apply("thunder_mage@f1")
    assert s.turn == 4 and s.current_player == 1  # no target decision; the turn passed


def test_tc4c_thunder_mage_fewer_may_destroy_any_but_the_barrier() -> None:
    s = build([e for e in TC4 if e != "P1@d3"], p1_hand=["thunder_mage"])
    s.apply("thunder_mage@f1")
    targets = legal(s)
    assert "decline" in targets and "target:c4" not in targets and "target:b3" in targets
    assert "target:f1" in targets  # the Thunder Mage itself (ZETA-I45)
    s.apply("target:b3")
    assert pile(s, 1) == ["chant_practice"]


def test_tc4c_thunder_mage_may_decline() -> None:
    s = build([e for e in TC4 if e != "P1@d3"], p1_hand=["thunder_mage"])
    s.apply("thunder_mage@f1")
    s.apply("decline")
    assert pile(s, 0) == [] and pile(s, 1) == [] and s.turn == 4


# TC5: Burst Circle and Barrier (R19(c), R56)
TC5 = ["P2:burst_circle@c3", "P1@c4", "P2@c2", "P2:barrier@b3"]


def test_tc5a_burst_blast() -> None:
    s = build(TC5, p1_hand=["chant"])
    s.apply("chant_practice@b4")
    assert set(board(s)) == {"b3", "b4"}
    assert pile(s, 0) == ["chant_practice"]
    assert sorted(pile(s, 1)) == ["burst_circle", "chant_practice"]


def test_tc5b_not_diagonal_nothing_happens() -> None:
    s = build(TC5, p1_hand=["chant"])
    s.apply("chant_practice@c5")
    assert set(board(s)) == {"c3", "c4", "c2", "b3", "c5"}


def test_tc5c_bursts_trigger_on_either_players_placement() -> None:
    s = build(TC5, p2_hand=["chant"], turn=4)
    s.apply("chant_practice@d2")
    assert set(board(s)) == {"b3", "d2"}


def test_tc5d_fanfare_destroys_the_burst_before_it_fires() -> None:
    s = build(TC5 + F(5), p1_hand=["blaze_sorcerer"])
    assert s.board_count() == 9
    s.apply("blaze_sorcerer@b4")
    s.apply("target:c3")
    b = board(s)
    assert "c4" in b and "c2" in b and "c3" not in b
    assert pile(s, 0) == [] and pile(s, 1) == ["burst_circle"]


def test_tc5d_triggers_first_variant() -> None:
    s = build(TC5 + F(5), p1_hand=["blaze_sorcerer"], flags={"trigger_order": "triggers_first"})
    s.apply("blaze_sorcerer@b4")
    # The blast came first; the Fanfare then had no legal target, so the turn ended.
    assert s.turn == 4
    assert len(pile(s, 0)) == 1 and len(pile(s, 1)) == 2


# TC6: win check precedes placement triggers (R18, R21, ZETA-I14)
TC6 = ["P1@a4", "P1@b4", "P1@c4", "P2:burst_circle@c3", "P2@a1", "P2@f1"]


def test_tc6_win_before_the_burst() -> None:
    s = build(TC6, p1_hand=["chant"])
    s.apply("chant_practice@d4")
    out = s.outcome()
    assert out is not None and out.winners == (0,)
    assert "c3" in board(s)


def test_tc6_after_triggers_variant() -> None:
    s = build(TC6, p1_hand=["chant"], flags={"win_check_timing": "after_triggers"})
    s.apply("chant_practice@d4")
    assert s.outcome() is None
    assert "c3" not in board(s) and "c4" not in board(s)
    assert len(pile(s, 0)) == 1 and len(pile(s, 1)) == 1


# TC7: Fanfare before triggers (Magic Circle + Ultimate Zero) (R18, ZETA-I15)
TC7 = [*F(12), "P1@a1", "P1@d1", "P2@b1", "P2@c1", "P1:magic_circle@c3"]


def test_tc7_fanfare_first() -> None:
    s = build(TC7, p1_hand=["ultimate_zero", "chant", "do_over"], p1_deck=["magical_boost", "chant", "chant"],
              p2_hand=["chant"] * 4)
    assert s.board_count() == 17
    s.apply("ultimate_zero@c4")
    assert hand(s, 0) == ["magical_boost"]
    assert s.view(None)["hand_sizes"][1] == 1  # emptied, then P2's draw for turn 4
    assert len(pile(s, 0)) == 2 and len(pile(s, 1)) == 4
    assert s.outcome() is None


def test_tc7_triggers_first_variant() -> None:
    s = build(TC7, p1_hand=["ultimate_zero", "chant", "do_over"], p1_deck=["magical_boost", "chant", "chant"],
              p2_hand=["chant"] * 4, flags={"trigger_order": "triggers_first"})
    s.apply("ultimate_zero@c4")
    assert hand(s, 0) == []
    assert len(pile(s, 0)) == 3 and len(pile(s, 1)) == 4


# TC8: Great Magic Circle (R19(b), R46)
TC8 = ["P1:great_magic_circle@c3", "P2@a1"]


def test_tc8a_destroys_three_random_cards() -> None:
    s = build(TC8, p1_hand=["chant"], p2_hand=["chant", "do_over", "hexer", "barrier", "magical_boost"])
    s.apply("chant_practice@d2")
    v = s.view(None)
    assert len(pile(s, 1)) == 3 and hand(s, 0) == []
    assert v["hand_sizes"][1] == 2 + 1  # P2 has since drawn for turn 4


def test_tc8b_fewer_than_three_in_hand() -> None:
    s = build(TC8, p1_hand=["chant"], p2_hand=["hexer", "barrier"])
    s.apply("chant_practice@d2")
    assert len(pile(s, 1)) == 2


def test_tc8c_orthogonal_does_nothing() -> None:
    s = build(TC8, p1_hand=["chant"], p2_hand=["chant"] * 5)
    s.apply("chant_practice@c4")
    assert pile(s, 1) == []


def test_tc8d_only_the_owners_placements_trigger() -> None:
    s = build(TC8, p2_hand=["chant"] * 5, turn=4)
    s.apply("chant_practice@b4")
    assert pile(s, 1) == []


@pytest.mark.parametrize(("reach", "destroyed"), [("adjacent", 0), ("line", 3)])
def test_tc8e_distance_two_on_the_diagonal(reach: str, destroyed: int) -> None:
    s = build(TC8, p1_hand=["chant"], p2_hand=["chant"] * 5, flags={"circle_reach": reach})
    s.apply("chant_practice@e5")
    assert len(pile(s, 1)) == destroyed


# TC9: Wind Mage (R45)
TC9 = ["P1:magic_circle@b2", "P1@a1", "P1@f1", "P2@e5", "P2@a6", "P2@f3"]
TC9_MARKERS = {"f6": 0, "c6": 1, "c5": 1}


def _tc9(**kw: Any) -> ZetaState:
    return build(TC9, p1_hand=["wind_mage"], markers=TC9_MARKERS, ever=(["f6", "c5"], ["c6", "c5"]), **kw)


@pytest.mark.parametrize(("vacant", "squares"), [
    ("last_occupant", {"a1", "b2", "f1", "f6"}),
    ("ever", {"a1", "b2", "f1", "f6", "c5"}),
    ("disabled", {"a1", "b2", "f1"}),
])
def test_tc9_legal_wind_mage_squares(vacant: str, squares: set[str]) -> None:
    s = _tc9(flags={"wind_mage_vacant": vacant})
    got = {a.split("@")[1] for a in legal(s) if a.startswith("wind_mage@")}
    assert got == squares


def test_tc9a_cover_returns_the_card() -> None:
    s = _tc9()
    s.apply("wind_mage@b2")
    assert hand(s, 0) == ["magic_circle"]
    assert board(s)["b2"] == (0, "wind_mage") and s.board_count() == 6
    assert pile(s, 0) == []


def test_tc9b_vacancy_returns_nothing() -> None:
    s = _tc9()
    s.apply("wind_mage@f6")
    assert s.board_count() == 7 and hand(s, 0) == []
    assert "f6" not in s.view(None)["markers"]


def test_tc9c_negated_cover_destroys_the_covered_card() -> None:
    s = _tc9(effects={"negate_fanfares": [3, 0]})
    s.apply("wind_mage@b2")
    assert pile(s, 0) == ["magic_circle"] and hand(s, 0) == []


def test_tc9c_forbid_cover_variant() -> None:
    s = _tc9(effects={"negate_fanfares": [3, 0]}, flags={"wind_mage_negated": "forbid_cover"})
    got = {a.split("@")[1] for a in legal(s) if a.startswith("wind_mage@")}
    assert got == {"f6"}


def test_tc9d_earth_mage_forbids_the_wind_mage() -> None:
    s = _tc9(effects={"only_cost_zero": [3, 0]})
    assert not any(a.startswith("wind_mage@") for a in legal(s))


# TC10: Hexer and Apprentice Hexer windows (R35, R44, R47)
def test_tc10a_hexer_window() -> None:
    s = build(F(6), p1_hand=["hexer", "chant"], p2_hand=["magical_boost", "hexer"],
              p1_deck=["chant"] * 5, p2_deck=["chant"] * 5)
    s.apply("hexer@a1")
    # turn t+1: P2's Magical Boost draws nothing
    before = s.view(None)["hand_sizes"][1]
    s.apply("magical_boost@f1")
    assert s.view(None)["hand_sizes"][1] == before - 1
    assert board(s)["f1"] == (1, "magical_boost")
    # turn t+2: P1's Fanfares work; t+3: P2's work
    assert s.negate == [0, 4]


def test_tc10a_negated_hexer_does_not_negate_back() -> None:
    s = build(F(6), p1_hand=["hexer", "chant"], p2_hand=["hexer"], p2_deck=["chant"] * 5)
    s.apply("hexer@a1")
    s.apply("hexer@f1")
    assert s.negate[0] != 5


@pytest.mark.parametrize(("p2_cards", "negated"), [(2, False), (3, True)])
def test_tc10b_apprentice_hexer_hand_size(p2_cards: int, negated: bool) -> None:
    # P2 holds p2_cards + its draw... the test is made on resolution, in turn t: hand of 3 vs 4.
    s = build(F(6), p1_hand=["apprentice_hexer"], p2_hand=["magical_boost"] + ["chant"] * p2_cards)
    s.apply("apprentice_hexer@a1")
    assert (s.negate[1] == 4) is negated


def test_tc10c_negation_spares_continuous_triggers() -> None:
    s = build([*F(6), "P2:magic_circle@c3"], p2_hand=["chant"], turn=4, effects={"negate_fanfares": [0, 4]})
    before = s.view(None)["hand_sizes"][1]
    s.apply("chant_practice@c4")
    assert s.view(None)["hand_sizes"][1] == before  # -1 placed, +1 drawn by the circle


# TC11: Magic Broom and Earth Mage (R17, R49, R53)
def test_tc11a_broom_raises_the_cap_next_turn() -> None:
    s = build(F(7), p1_hand=["magic_broom", "burst_circle", "blaze_sorcerer", "mourning_the_dead", "dark_mage"])
    s.apply("magic_broom@a1")
    s.apply("pass")  # P2, turn t+1
    acts = legal(s)
    assert any(a.startswith("burst_circle@") for a in acts) and any(a.startswith("blaze_sorcerer@") for a in acts)
    assert not any(a.startswith(("mourning_the_dead@", "dark_mage@")) for a in acts)
    s.apply("pass")
    s.apply("pass")  # turn t+3 (P2)
    assert s.turn == 7 and s.cost_cap(0) == s.board_count()


@pytest.mark.parametrize(("rule", "cap"), [("restriction_wins", 0), ("permission_wins", 10)])
def test_tc11b_earth_mage_against_the_broom(rule: str, cap: int) -> None:
    s = build(F(7), p1_hand=["magic_broom", "burst_circle", "chant"], p2_hand=["earth_mage"],
              flags={"broom_vs_earth": rule})
    s.apply("magic_broom@a1")
    s.apply("earth_mage@f1")
    assert s.cost_cap(0) == cap
    assert any(a.startswith("burst_circle@") for a in legal(s)) is (cap == 10)


def test_tc11c_the_broom_gives_the_opponent_nothing() -> None:
    s = build(F(7), p1_hand=["magic_broom"], p2_hand=["burst_circle"])
    s.apply("magic_broom@a1")
    assert not any(a.startswith("burst_circle@") for a in legal(s))


# TC12: Light Mage block (R50)
TC12 = ["P2@d4", "P2:barrier@b2", *F(5)]


def test_tc12_light_mage_blocks_the_square() -> None:
    s = build(TC12, p1_hand=["light_mage"], p2_hand=["chant", "wind_mage"])
    s.apply("light_mage@c3")
    assert legal(s) == ["target:d4", "decline"]
    s.apply("target:d4")
    assert pile(s, 1) == ["chant_practice"] and s.view(None)["blocked"] == ["d4"]
    assert not any(a.endswith("@d4") for a in legal(s))


def test_tc12_block_breaks_lines_and_fullness() -> None:
    s = build(["P1@a4", "P1@b4", "P1@c4", "P1@e4"], p1_hand=["chant"], blocked=["d4"])
    assert "chant_practice@d4" not in legal(s)
    s.apply("chant_practice@f4")
    assert s.outcome() is None


def test_tc12b_declining_blocks_nothing() -> None:
    s = build(TC12, p1_hand=["light_mage"])
    s.apply("light_mage@c3")
    s.apply("decline")
    assert s.view(None)["blocked"] == [] and "d4" in board(s)


# TC13: Single-Arrow Summoning (R59)
TC13 = ["P1@a1", "P2@b1", "P2:barrier@c1", "P1@d1", "P2@e1", "P1@f1", "P2@f2", "P1@f3", "P2@f4", "P1@f5",
        "P1@b5", "P1@a6", "P2@a4", "P2@c6", "P2@b3"]


def test_tc13a_rank() -> None:
    s = build(TC13, p1_hand=["single_arrow_summon"])
    assert s.board_count() == 15
    s.apply("single_arrow_summon@f6")
    assert legal(s) == ["rank:1", "file:f"]
    s.apply("rank:1")
    b = board(s)
    assert {sq for sq in b if sq.endswith("1")} == {"c1"} and "f6" in b
    assert len(pile(s, 0)) == 3 and len(pile(s, 1)) == 2


def test_tc13b_file_destroys_the_summoner_too() -> None:
    s = build(TC13, p1_hand=["single_arrow_summon"])
    s.apply("single_arrow_summon@f6")
    s.apply("file:f")
    assert not any(sq.startswith("f") for sq in board(s))
    assert len(pile(s, 0)) == 4 and len(pile(s, 1)) == 2


def test_tc13c_one_full_line_is_destroyed_without_a_choice() -> None:
    s = build(TC13, p1_hand=["single_arrow_summon"], blocked=["f6"])
    s.apply("single_arrow_summon@a2")
    assert {sq for sq in board(s) if sq.endswith("1")} == {"c1"} and s.turn == 4


# TC14: Mourning the Dead (R57)
TC14 = ["P1@b2", "P1@c2", "P1@d2", *F(8)]


def _tc14(destroyed: int = 5, **kw: Any) -> ZetaState:
    return build(TC14, p1_hand=["mourning_the_dead", "blessing_mist", "magical_boost"],
                 p1_destroyed=["chant"] * destroyed, **kw)


def test_tc14a_sub_placement_with_fanfare() -> None:
    s = _tc14()
    s.apply("mourning_the_dead@a3")
    acts = legal(s)
    assert "decline" in acts and not any(a.startswith("magical_boost@") for a in acts)  # TC14(e)
    p2_before = s.view(None)["hand_sizes"][1]
    s.apply("blessing_mist@e4")
    assert s.board_count() == 13
    assert s.view(None)["hand_sizes"][1] == p2_before + 2  # Mist + turn draw


def test_tc14b_sub_placement_can_win() -> None:
    s = _tc14()
    s.apply("mourning_the_dead@a3")
    s.apply("blessing_mist@e2")
    out = s.outcome()
    assert out is not None and out.winners == (0,)
    assert s.view(None)["deck_sizes"] == [10, 10]


def test_tc14c_four_destroyed_is_not_enough() -> None:
    s = _tc14(destroyed=4)
    s.apply("mourning_the_dead@a3")
    assert s.turn == 4


def test_tc14d_decline() -> None:
    s = _tc14()
    s.apply("mourning_the_dead@a3")
    s.apply("decline")
    assert s.board_count() == 12 and s.turn == 4


def test_tc14f_negated_mourning_does_nothing() -> None:
    s = _tc14(effects={"negate_fanfares": [3, 0]})
    s.apply("mourning_the_dead@a3")
    assert s.turn == 4


# TC15: board full: tie, un-filling and blocked squares (R22)
def _pattern(skip: set[str]) -> list[str]:
    out = []
    for r in range(1, 7):
        row = ["P1", "P1", "P2", "P2", "P1", "P1"] if r % 2 else ["P2", "P2", "P1", "P1", "P2", "P2"]
        for f, who in zip("abcdef", row, strict=True):
            sq = f"{f}{r}"
            if sq not in skip:
                out.append(f"{who}@{sq}")
    return out


def test_tc15a_full_board_tie_is_a_draw() -> None:
    s = build(_pattern({"f6"}), p2_hand=["chant"], turn=4)
    s.apply("chant_practice@f6")
    out = s.outcome()
    assert out is not None and out.winners == () and out.reason == "board_full_tie"


def test_tc15b_fanfare_unfills_the_board() -> None:
    s = build(_pattern({"f6"}), p2_hand=["fire_mage"], turn=4)
    s.apply("fire_mage@f6")
    s.apply("target:f5")
    assert s.outcome() is None


def test_tc15b_declining_is_a_draw() -> None:
    s = build(_pattern({"f6"}), p2_hand=["fire_mage"], turn=4)
    s.apply("fire_mage@f6")
    s.apply("decline")
    out = s.outcome()
    assert out is not None and out.winners == ()


def test_tc15b_on_placement_variant() -> None:
    s = build(_pattern({"f6"}), p2_hand=["fire_mage"], turn=4, flags={"board_full_check": "on_placement"})
    s.apply("fire_mage@f6")
    out = s.outcome()
    assert out is not None and out.winners == ()


@pytest.mark.parametrize(("filled", "over"), [(True, True), (False, False)])
def test_tc15c_blocked_square_and_fullness(filled: bool, over: bool) -> None:
    s = build(_pattern({"d4", "a1"}), p1_hand=["chant"], blocked=["d4"], flags={"blocked_counts_as_filled": filled})
    s.apply("chant_practice@a1")
    out = s.outcome()
    assert (out is not None) is over
    if over:
        assert out is not None and out.winners == (1,) and out.scores == (17.0, 18.0)
