"""The set and the trigger set: OSC-R9 to OSC-R21."""

from __future__ import annotations

import random
import re

import pytest

from cardtable.core import IllegalAction, load_game

from .helpers import A0, B0, board, discards, hand, legal, load


def test_osc_r9_a_set_runs_trigger_shift_capture_refill_post() -> None:
    st = load(trains=[A0, B0], triggers=[("T_LH", "A2", 1)], hands=[["T_HL", "HL", "LOH"], ["HL", "LH", "T_LH"]])
    phases = []
    st.apply("place T_HL A3")  # shift and capture run at once
    while st.turn == 0 and not st.is_over:
        phases.append(st.phase.value)
        st.apply(st.legal_actions()[0])
    assert re.fullmatch(r"(refill )+(topup )*(post )?", " ".join(phases) + " ")  # steps 4 and 5, in order
    assert st.turn == 1 and st.to_json()["position"]["counters"]["sets"] == 1


def test_osc_r10_first_trigger_skips_the_rest_of_the_set() -> None:
    st = load(trains=[A0, B0], hands=[["T_HL", "HL", "LH"], ["T_LH", "HL", "LH"]])
    st.apply("place T_HL A4")
    assert st.turn == 1 and st.phase.value == "trigger" and hand(st, 0) == ["HL", "LH"]
    assert st.to_json()["position"]["counters"]["stall"] == 1  # it counts as a set without capture


def test_osc_r10_variant_game_start_only() -> None:
    kw = dict(trains=[A0, B0], hands=[["T_HL", "HL", "LH"], ["T_LH", "HL", "LH"]])
    st = load(rules={"first_trigger_early_end": "game_start_only"}, **kw)  # type: ignore[arg-type]
    st.apply("place T_HL A4")  # not the first trigger of the game: the set goes on
    assert st.phase.value == "refill" and st.turn == 0
    first = load(rules={"first_trigger_early_end": "game_start_only"}, flags={"any_trigger_placed": False},
                 **kw)  # type: ignore[arg-type]
    first.apply("place T_HL A4")
    assert first.turn == 1


def test_osc_r11_no_placement_continues_the_set() -> None:
    st = load(trains=[A0, B0], triggers=[("T_HL", "A3", 0)], phase="post",
              hands=[["HL", "LH", "HL"], ["HL", "LH", "HL"]])
    st.apply("pass")  # P2 holds nothing trigger-capable: shift, capture, refill
    assert st.turn == 1 and st.phase.value == "refill"
    assert board(st) == []  # the T_HL reached A2 (HL) and P2 captured with it


def test_osc_r12_only_trigger_capable_cards_from_hand() -> None:
    st = load(trains=[A0, B0], hands=[["T_HL", "HL", "LH"], ["HL", "LH", "HL"]])
    for text in ("place HL A3", "place NOISE A3", "place T_LH A3"):
        problem = st.illegality(text)
        assert problem is not None and problem[0] == "OSC-R12"
    with pytest.raises(IllegalAction, match="OSC-R12"):
        st.apply("place LH A3")


def test_osc_r13_the_step_1_placement_is_compulsory() -> None:
    kw = dict(trains=[A0, B0], hands=[["T_HL", "HL", "LH"], ["HL", "LH", "HL"]])
    st = load(**kw)  # type: ignore[arg-type]
    assert "pass" not in legal(st)
    assert st.illegality("pass") == ("OSC-R13", "the step-1 placement is compulsory while a legal placement "
                                                "exists (OSC-I15)")
    assert "pass" in legal(load(rules={"main_trigger_optional": True}, **kw))  # type: ignore[arg-type]


def test_osc_r14_never_on_a_card_the_shift_discards() -> None:
    st = load(trains=[A0, "LOH HL LH NOISE _"], hands=[["T_HL", "HL", "LH"], ["HL", "LH", "HL"]])
    assert "place T_HL A1" not in legal(st)  # A is full
    assert "place T_HL B1" in legal(st)  # B is not: its next shift only closes a gap
    assert "place T_HL B5" not in legal(st)  # empty slot (OSC-I25)
    assert st.illegality("place T_HL A1")[0] == "OSC-R14"  # type: ignore[index]
    strict = load(rules={"forbid_slot1_always": True}, trains=[A0, "LOH HL LH NOISE _"],
                  hands=[["T_HL", "HL", "LH"], ["HL", "LH", "HL"]])
    assert "place T_HL B1" not in legal(strict)


def test_osc_r15_empty_board_any_allowed_slot_any_card() -> None:
    st = load(trains=[A0, B0], hands=[["CLEAR", "LOH", "T_BOTH"], ["HL", "LH", "HL"]])
    for card in ("CLEAR", "LOH", "T_BOTH"):
        assert {a.split()[2] for a in legal(st) if a.split()[1] == card} == \
            {f"{t}{p}" for t in "AB" for p in "2345"}


def test_osc_r16_range_is_the_anchor_and_its_neighbours() -> None:
    st = load(trains=[A0, B0], triggers=[("T_HL", "A4", 1)], hands=[["T_LH", "HL", "LH"], ["HL", "LH", "HL"]])
    assert {a[-1] for a in legal(st)} == {"3", "4", "5"}
    assert st.illegality("place T_LH B2")[0] == "OSC-R16"  # type: ignore[index]
    wide = load(rules={"trigger_move_range": 2}, trains=[A0, B0], triggers=[("T_HL", "A4", 1)],
                hands=[["T_LH", "HL", "LH"], ["HL", "LH", "HL"]])
    assert {a[-1] for a in legal(wide)} == {"2", "3", "4", "5"}


def test_osc_r17_an_xx_trigger_replaces_the_board() -> None:
    st = load(trains=[A0, B0], triggers=[("LOH", "A3", 1), ("CLEAR", "B3", 1)], phase="post",
              hands=[["T_LH", "HL", "LH"], ["T_BOTH", "HL", "LH"]])
    st.apply("place T_LH A4")
    assert board(st) == ["T_LH@A4"] and discards(st) == ["LOH", "CLEAR"]


def test_osc_r18_low_or_hi_stacks_at_the_anchor() -> None:
    st = load(trains=[A0, B0], triggers=[("T_HL", "A3", 1)], phase="post",
              hands=[["LOH", "HL", "LH"], ["T_BOTH", "HL", "LH"]])
    assert "place LOH A3" not in legal(st)  # a different trigger is there
    assert st.illegality("place LOH A3")[0] == "OSC-R18"  # type: ignore[index]
    st.apply("place LOH B3")
    assert board(st) == ["T_HL@A3", "LOH@B3"]  # the edge trigger stays


def test_osc_r18_variant_edge_trigger_does_not_survive() -> None:
    st = load(rules={"lowhi_keeps_edge_trigger": False}, trains=[A0, B0], triggers=[("T_HL", "A3", 1)],
              phase="post", hands=[["LOH", "HL", "LH"], ["T_BOTH", "HL", "LH"]])
    st.apply("place LOH B3")
    assert board(st) == ["LOH@B3"] and discards(st) == ["T_HL"]


def test_osc_r18_variant_several_low_or_hi_in_one_set() -> None:
    st = load(rules={"lowhi_multi_per_set": True}, trains=[A0, B0, "HL LH LOH HL LH"],
              triggers=[("T_HL", "A3", 1)], phase="post", players=3,
              hands=[["LOH", "LOH", "LH"], ["T_BOTH", "HL", "LH"], ["HL", "LH", "HL"]])
    st.apply("place LOH B3")
    assert st.phase.value == "more" and legal(st) == ["place LOH B3", "place LOH C3", "pass"]  # B3 would cancel
    st.apply("place LOH C3")
    assert board(st) == ["T_HL@A3", "LOH@B3", "LOH@C3"] and st.turn == 1


def test_osc_r19_clear_goes_at_the_anchor_on_a_free_slot() -> None:
    st = load(trains=[A0, B0], triggers=[("T_HL", "A3", 1)], phase="post",
              hands=[["CLEAR", "HL", "LH"], ["T_BOTH", "HL", "LH"]])
    assert [a for a in legal(st) if a != "pass"] == ["place CLEAR B3"]
    assert st.illegality("place CLEAR B4")[0] == "OSC-R19"  # type: ignore[index]
    assert st.illegality("place CLEAR A3")[0] == "OSC-R19"  # type: ignore[index]
    st.apply("place CLEAR B3")
    assert board(st) == ["T_HL@A3", "CLEAR@B3"] and discards(st) == []


def test_osc_r19_variant_replacing_clear() -> None:
    st = load(rules={"clear_mode": "replacing"}, trains=[A0, B0], triggers=[("T_HL", "A3", 1)], phase="post",
              hands=[["CLEAR", "HL", "LH"], ["T_BOTH", "HL", "LH"]])
    st.apply("place CLEAR B4")
    assert board(st) == ["CLEAR@B4"] and discards(st) == ["T_HL"]


def test_osc_r20_duplicate_cancel() -> None:
    st = load(trains=[A0, B0], triggers=[("T_BOTH", "B3", 1)], phase="post",
              hands=[["T_BOTH", "HL", "LH"], ["T_BOTH", "HL", "LH"]])
    st.apply("place T_BOTH B3")
    assert board(st) == [] and discards(st) == ["T_BOTH", "T_BOTH"]
    keep = load(rules={"duplicate_cancel": False}, trains=[A0, B0], triggers=[("T_BOTH", "B3", 1)],
                phase="post", hands=[["T_BOTH", "HL", "LH"], ["T_BOTH", "HL", "LH"]])
    keep.apply("place T_BOTH B3")
    assert board(keep) == ["T_BOTH@B3"] and discards(keep) == ["T_BOTH"]


def test_osc_r21_board_invariants_hold_in_random_games() -> None:
    game = load_game("oscilloscope")
    for seed in range(12):
        st = game.new_game(seed=seed, players=3)
        rng = random.Random(seed)
        while not st.is_over:
            st.apply(st.legal_actions()[rng.randrange(len(st.legal_actions()))])
            rows = {t[1] for t in st.triggers}
            slots = [(t[0], t[1]) for t in st.triggers]
            assert len(rows) <= 1 and len(set(slots)) == len(slots)
            assert sum(1 for t in st.triggers if t[2] >= 5) <= 1
