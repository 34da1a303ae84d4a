"""Shift and capture: OSC-R22 to OSC-R34."""

from __future__ import annotations

from collections import Counter

from cardtable.games.oscilloscope import OscilloscopeRules
from cardtable.games.oscilloscope.state import RuleTables

from .helpers import A0, B0, board, discards, legal, load, pile, show

NO_TRIGGER_HANDS = [["HL", "LH", "HL"], ["HL", "LH", "HL"]]


def shifted(trains: list[str], triggers: list[tuple[str, str, int]] | None = None, players: int = 2,
            rules: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    """Run P2's set after P1's post phase; P2 holds nothing trigger-capable, so the shift runs."""
    st = load(players, rules=rules, trains=trains, triggers=triggers or [], phase="post",
              hands=[["HL", "LH", "HL"]] * players)
    st.apply("pass")
    return st


def test_osc_r22_all_trains_shift_together() -> None:
    st = shifted([A0, B0, "HL LH LOH HL LH"], players=3)
    assert show(st, "A") == "LH HL LOH LH _" and show(st, "B") == "HL LH NOISE HL _"
    assert show(st, "C") == "LH LOH HL LH _"


def test_osc_r23_a_full_train_drops_slot_1_with_its_trigger() -> None:
    st = shifted([A0, B0], triggers=[("T_LH", "A1", 0)], rules={"trigger_anchor": "card"})
    assert discards(st) == ["HL", "T_LH", "LOH"] and board(st) == []


def test_osc_r24_a_train_with_holes_closes_them() -> None:
    st = shifted(["HL _ LH _ LH", "_ HL _ _ HL"])
    assert show(st, "A") == "HL LH LH _ _" and show(st, "B") == "HL HL _ _ _"
    assert discards(st) == []


def test_osc_r25_triggers_ride_on_their_cards() -> None:
    st = shifted(["HL _ HL NOISE LH", B0], triggers=[("T_LH", "A3", 0)])
    assert show(st, "A") == "HL HL NOISE LH _"
    assert board(st) == ["T_LH@A2"] and not pile(st, 1)  # still on its HL: no capture


def test_osc_r25_variant_triggers_mark_a_position() -> None:
    st = shifted(["HL _ HL NOISE LH", B0], triggers=[("T_LH", "A3", 0)], rules={"trigger_anchor": "position"})
    assert pile(st, 1) == Counter({"NOISE": 2, "T_LH": 1})  # the NOISE that slid under A3 fired it


def test_osc_r26_levels_are_not_rechecked() -> None:
    st = shifted(["LH:H _ LH:H HL LH", B0])  # LH after LH never connected, and is not rechecked
    assert st.levels[0][:4] == [0, 0, 1, 0]


def test_osc_r27_satisfaction_table() -> None:
    sat = RuleTables(OscilloscopeRules()).sat
    table = {trig: {under for under in ("HL", "LH", "LOH", "NOISE") if sat[code][("HL", "LH", "LOH", "NOISE").index(under)]}
             for code, trig in ((5, "T_HL"), (6, "T_LH"), (7, "T_BOTH"), (2, "LOH"), (4, "CLEAR"))}
    assert table == {"T_HL": {"HL", "NOISE"}, "T_LH": {"LH", "NOISE"}, "T_BOTH": {"HL", "LH", "NOISE"},
                     "LOH": {"LOH", "NOISE"}, "CLEAR": {"HL", "LH", "LOH", "NOISE"}}


def test_osc_r27_a_trigger_over_an_empty_slot_never_fires() -> None:
    # Short trains at the start of a set need a train left incomplete (the OSC-I44 variant).
    st = shifted(["HL LH _ _ _", "HL LH _ _ _"], triggers=[("CLEAR", "A4", 0)],
                 rules={"trigger_anchor": "position", "exhaustion_ends_game": False})
    assert board(st) == ["CLEAR@A4"] and all(not pile(st, p) for p in range(2))


def test_osc_r28_every_trigger_must_be_satisfied() -> None:
    st = shifted([A0, B0], triggers=[("LOH", "A4", 0), ("LOH", "B4", 0)])  # after the shift: LOH, NOISE
    assert pile(st, 1) == Counter({"LOH": 2, "NOISE": 1})
    st = shifted([A0, B0], triggers=[("T_HL", "A3", 0), ("LOH", "B3", 0)])  # A2 HL yes, B2 LH no
    assert board(st) == ["T_HL@A2", "LOH@B2"] and not pile(st, 1)


def test_osc_r29_the_current_player_captures() -> None:
    st = shifted([A0, B0], triggers=[("T_HL", "A3", 0)])  # P1's trigger, P2's set
    assert pile(st, 1) == Counter(["HL", "LH", "T_HL"]) and not pile(st, 0)


def test_osc_r29_variant_the_trigger_owner_captures() -> None:
    st = shifted([A0, B0], triggers=[("T_HL", "A3", 0)], rules={"capture_by": "trigger_owner"})
    assert pile(st, 0) == Counter(["HL", "LH", "T_HL"]) and not pile(st, 1)


def test_osc_r30_keep_choice_and_clear_to_the_score_pile() -> None:
    st = load(3, trains=["HL LH HL NOISE LH", "HL LH HL NOISE LH", "LH HL LH NOISE HL"],
              triggers=[("T_BOTH", "A4", 1), ("LOH", "B4", 1), ("CLEAR", "C4", 1)], phase="post",
              hands=[["HL", "LH", "HL"], ["HL", "LH", "HL"], ["HL", "LH", "HL"]])
    st.apply("pass")  # P2's set: all three lie on NOISE after the shift
    assert st.phase.value == "keep" and st.current_player == 1 and legal(st) == ["keep LOH", "keep T_BOTH"]
    st.apply("keep T_BOTH")
    assert pile(st, 1) == Counter({"NOISE": 3, "T_BOTH": 1, "CLEAR": 1})
    assert discards(st)[-1] == "LOH" and board(st) == []


def test_osc_r31_no_capture_leaves_the_triggers() -> None:
    st = shifted([A0, B0], triggers=[("T_LH", "A3", 0)])  # A2 after the shift is HL
    assert board(st) == ["T_LH@A2"] and not pile(st, 1)


def test_osc_r32_capture_is_compulsory() -> None:
    st = shifted([A0, B0], triggers=[("T_HL", "A3", 0)])
    assert st.phase.value == "refill" and pile(st, 1)
    optional = shifted([A0, B0], triggers=[("T_HL", "A3", 0)], rules={"capture_optional": True})
    assert optional.phase.value == "capture" and legal(optional) == ["capture", "decline"]
    optional.apply("decline")
    assert board(optional) == ["T_HL@A2"] and not pile(optional, 1)


def test_osc_r33_captured_slots_stay_empty_until_the_next_shift() -> None:
    st = shifted([A0, B0], triggers=[("T_HL", "A3", 0)])
    assert show(st, "A") == "LH _ LOH LH _" and show(st, "B") == "HL _ NOISE HL _"
    closing = shifted([A0, B0], triggers=[("T_HL", "A3", 0)], rules={"close_gaps_on_capture": True})
    assert show(closing, "A") == "LH LOH LH _ _"


def test_osc_r34_ten_noise_end_the_game_at_once() -> None:
    piles = [["NOISE"] * 5, ["NOISE"] * 4]
    st = shifted_with_piles(piles, [("T_HL", "B4", 0)], {})
    out = st.outcome()
    assert out is not None and out.rule == "OSC-R34"
    assert show(st, "A") == "LH HL _ LH _"  # the rest of the set is skipped


def test_osc_r34_noise_cleared_still_counts_unless_the_variant_says_so() -> None:
    piles = [["NOISE"] * 5, ["NOISE"] * 4]
    triggers = [("T_HL", "B4", 0), ("CLEAR", "A4", 0)]
    assert shifted_with_piles(piles, triggers, {}).is_over
    assert not shifted_with_piles(piles, triggers, {"mp_end_excludes_cleared": True}).is_over


def shifted_with_piles(piles: list[list[str]], triggers: list[tuple[str, str, int]],
                       rules: dict[str, object]):  # type: ignore[no-untyped-def]
    st = load(rules=rules, trains=[A0, B0], triggers=triggers, phase="post", score_piles=piles, counters={"counted_noise": 9},
              hands=[["HL", "LH", "HL"], ["HL", "LH", "HL"]])
    st.apply("pass")
    return st
