"""One test (at least) per numbered rule OSC-R1..R64, named with its id and in the rulebook's order.

Read it next to the rulebook (section 3, one block per subsection); the rulebook's worked scenarios
(section 5) are ``test_scenarios.py``, and what each seat's log and view tell, ``test_events.py``,
``test_memory.py`` and ``test_views.py``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

from cardtable.core import IllegalAction, load_game
from cardtable.games.oscilloscope import (
    CARD_TYPES,
    PULSE_DECK,
    TRIGGER_DECK,
    Card,
    Edge,
    OscilloscopeGame,
    OscilloscopeRules,
)
from cardtable.games.oscilloscope.cards import IS_PULSE_TYPE, IS_TRIGGER_DECK_KIND
from cardtable.games.oscilloscope.game import action_bound
from cardtable.games.oscilloscope.state import RuleTables

from .helpers import A0, B0, EMPTY_DECKS, board, discards, hand, legal, load, pile, refill_pending, show

# -------------------------------------------------- positions
GAME = load_game("oscilloscope")
NO_TRIGGER_HANDS = [["HL", "LH", "HL"], ["HL", "LH", "HL"]]
C0 = "HL LH LOH HL LH"
"""A third player's train."""
FLAT = "LOH LOH LOH LOH LOH"  # all wild: nothing matches an edge filter, anything connects


def shifted(trains: list[str], triggers: list[tuple[str, str, int]] | None = None, players: int = 2,
            rules: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    """Run P2's set after P1's post phase; P2 holds nothing trigger-capable, so the shift runs."""
    st = load(players, rules=rules, trains=trains, triggers=triggers or [], phase="post",
              hands=[["HL", "LH", "HL"]] * players)
    st.apply("pass")
    return st


def shifted_with_piles(piles: list[list[str]], triggers: list[tuple[str, str, int]],
                       rules: dict[str, object]):  # type: ignore[no-untyped-def]
    """Run P2's set after P1's post phase with these score piles and nine noise counted (OSC-R34)."""
    st = load(rules=rules, trains=[A0, B0], triggers=triggers, phase="post", score_piles=piles, counters={"counted_noise": 9},
              hands=[["HL", "LH", "HL"], ["HL", "LH", "HL"]])
    st.apply("pass")
    return st


def refill(trains: list[str], hands: list[list[str]], index: int = 0, rules: dict[str, object] | None = None,
           **kw: object):  # type: ignore[no-untyped-def]
    """A position in the refill step, seat ``index`` (from P1) to play."""
    return load(rules=rules, trains=trains, hands=hands, phase="refill", pending=refill_pending(2, index),
                **kw)  # type: ignore[arg-type]


def scored(piles: list[list[str]], kept: list[int] | None = None, rules: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    """A position with these score piles (``kept``: the triggers each seat kept), to read the scores of."""
    return load(len(piles), rules=rules, trains=[A0, B0, C0][:max(2, len(piles))], score_piles=piles,
                kept=kept, hands=[["T_LH"]] + [[] for _ in piles[1:]])


def solo(a: str, b: str, filters: list[str | None], hand: list[str], rules: dict[str, object] | None = None,
         **kw: Any):  # type: ignore[no-untyped-def]
    """A solo position at a refill decision (the last of its set when only one slot is empty)."""
    return load(1, rules=rules, trains=[a, b], filters=filters, hands=[hand], phase="refill",
                pending=refill_pending(1, 0, 2), **kw)


# ----------------------------------------------- 2.1 card types
def test_card_edges_are_the_drawn_waveform() -> None:
    edges = {t.card.name: (t.left, t.right) for t in CARD_TYPES}
    assert edges["HL"] == (Edge.HIGH, Edge.LOW) and edges["LH"] == (Edge.LOW, Edge.HIGH)
    assert edges["LOH"] == (Edge.FOLLOW, Edge.FOLLOW) and edges["NOISE"] == (Edge.NONE, Edge.NONE)
    assert edges["T_HL"] == (Edge.HIGH, Edge.LOW) and edges["T_BOTH"] == (Edge.BOTH, Edge.BOTH)
    assert sum(t.total for t in CARD_TYPES) == 110


# --------------------------------------------------- 3.1 setup
def test_osc_r1_the_two_decks() -> None:
    assert Counter(c.name for c in PULSE_DECK) == {"HL": 20, "LH": 20, "LOH": 15, "NOISE": 15}
    assert Counter(c.name for c in TRIGGER_DECK) == {"LOH": 5, "CLEAR": 5, "T_HL": 10, "T_LH": 10, "T_BOTH": 10}
    st = GAME.new_game(seed=3, players=2)
    zones = st.zones()
    assert all(IS_PULSE_TYPE[Card[k]] for k in zones["pulse_deck"])
    assert all(IS_TRIGGER_DECK_KIND[Card[k]] for k in zones["trigger_deck"])
    assert len(zones["trigger_deck"]) == 40 - 2  # one card dealt to each hand


@pytest.mark.parametrize("players,trains", [(1, 2), (2, 2), (3, 3), (4, 4)])
def test_osc_r2_number_of_trains(players: int, trains: int) -> None:
    st = GAME.new_game(seed=1, players=players)
    assert len(st.to_json()["position"]["trains"]) == trains


def test_osc_r2_other_player_counts_are_refused() -> None:
    for bad in (0, 5, -1, "2", True):
        with pytest.raises(ValueError, match="1 to 4 players"):
            GAME.new_game(seed=1, players=bad)
    assert load_game("oscilloscope", max_players=6).new_game(seed=1, players=6).num_players == 6


def test_osc_r3_setup_trains_are_full_and_connected() -> None:
    tables = GAME.tables  # type: ignore[attr-defined]
    for seed in range(20):
        st = GAME.new_game(seed=seed, players=4)
        for c in range(4):
            assert -1 not in st.cards[c]
            level = 2
            for card, out in zip(st.cards[c], st.levels[c], strict=True):
                assert tables.setup_conn[card][level] == out
                level = out


def test_osc_r4_start_player_is_random_and_plays_first() -> None:
    starts = set()
    for seed in range(30):
        st = GAME.new_game(seed=seed, players=3)
        starts.add(st.start_player)
        assert st.current_player == st.start_player  # the start player chooses a train first
    assert starts == {0, 1, 2}


def test_osc_r5_initial_hands_are_two_pulse_and_one_trigger_card() -> None:
    st = GAME.new_game(seed=5, players=4)
    for p in range(4):
        cards = st.zones()[f"hand:{p}"]
        assert len(cards) == 3 and sum(not IS_PULSE_TYPE[Card[k]] for k in cards) <= 1
        assert st.view((p + 1) % 4)["hands"][p] is None  # hidden from the others


def test_osc_r6_trains_are_chosen_in_turn_order() -> None:
    st = GAME.new_game(seed=2, players=3)
    order = []
    while st.phase.value == "assign":
        order.append(st.current_player)
        st.apply(legal(st)[-1])
    assert order == [(st.start_player + i) % 3 for i in range(3)]
    assert sorted(st.assigned) == [0, 1, 2]


def test_osc_r6_random_assignment_variant() -> None:
    st = load_game("oscilloscope", train_assignment="random").new_game(seed=2, players=3)
    assert st.phase.value != "assign" and sorted(st.assigned) == [0, 1, 2]


def test_osc_r7_no_trigger_at_the_start() -> None:
    st = GAME.new_game(seed=4, players=2)
    while st.phase.value == "assign":
        st.apply(legal(st)[0])
    assert st.triggers == [] and st.phase.value == "trigger"
    assert all(a.startswith("place") for a in legal(st))


def test_osc_r8_solo_setup_filters_and_stock() -> None:
    st = GAME.new_game(seed=7, players=1)
    pos = st.to_json()["position"]
    assert st.phase.value == "filters" and len(pos["offer"]) == 3 and len(pos["hands"][0]) == 2
    assert len(pos["trigger_deck"]) == 37 and pos["filters"] == [None, None]
    st = load(1, phase="filters", offer=["T_HL", "T_LH", "CLEAR"], trains=[
        "LOH LOH LOH LOH LOH", "LOH LOH LOH LOH LOH"], hands=[["HL", "LH"]], flags={"any_trigger_placed": False})
    assert len(legal(st)) == 6
    st.apply("filters A=T_HL B=T_LH")
    pos = st.to_json()["position"]
    assert pos["filters"] == ["T_HL", "T_LH"] and pos["stock"] == "CLEAR" and pos["offer"] == []
    twins = load(1, phase="filters", offer=["T_HL", "T_HL", "CLEAR"], trains=[
        "LOH LOH LOH LOH LOH", "LOH LOH LOH LOH LOH"], hands=[["HL", "LH"]])
    assert legal(twins) == ["filters A=CLEAR B=T_HL", "filters A=T_HL B=CLEAR", "filters A=T_HL B=T_HL"]


# ---------------------------- 3.2 turn structure (multiplayer)
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


# --------------------------------------------- 3.3 trigger set
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


# --------------------------------------------------- 3.4 shift
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


# ------------------------------------------------- 3.5 capture
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


# ---------------------------------- 3.6 refill and hand top-up
def test_osc_r35_refill_goes_to_slot_5_against_the_card_left_of_it() -> None:
    st = refill(["LH _ LOH:L LH _", "HL _ NOISE HL _"], [["HL", "LH", "LOH"], ["HL", "LH", "HL"]])
    assert legal(st) == ["refill A HL", "refill A LOH"]  # λ(A,5) = H from A4, across no hole
    st.apply("refill A LOH")
    assert show(st, "A") == "LH _ LOH LH LOH" and st.levels[0][4] == 0


def test_osc_r36_passes_in_turn_order_until_every_train_is_complete() -> None:
    st = refill(["HL LH HL LOH _", "LOH HL LH NOISE _"], [["HL", "HL", "HL"], ["LH", "HL", "HL"]],
                pulse_top=["LH", "HL", "LH"])
    seats = []
    for _ in range(2):
        seats.append(st.current_player)
        st.apply(legal(st)[0])
    seats.append(st.current_player)
    assert seats == [0, 1, 0]  # P1 discards (λ = L, all HL), P2 completes, P1 again
    assert show(st, "B") == "LOH HL LH NOISE HL" and legal(st) == ["refill A LH"]


def test_osc_r37_must_play_a_connecting_card_else_discard_any() -> None:
    st = refill(["HL LH HL LH _", B0], [["LH", "T_BOTH", "LOH"], ["HL", "LH", "HL"]])
    assert legal(st) == ["refill A LOH"]
    assert st.illegality("discard LH")[0] == "OSC-R37"  # type: ignore[index]
    none = refill(["HL LH HL LH _", B0], [["LH", "T_BOTH", "LH"], ["HL", "LH", "HL"]])
    assert legal(none) == ["discard LH", "discard T_BOTH"]


def test_osc_r37_variant_one_deliberate_discard() -> None:
    st = refill(["HL LH HL LH _", B0], [["LH", "HL", "LOH"], ["HL", "LH", "HL"]], rules={"refill_must_connect": False},
                pulse_top=["LOH", "HL"])
    assert legal(st) == ["refill A HL", "refill A LOH", "discard HL", "discard LH", "discard LOH"]
    st.apply("discard LOH")
    assert st.current_player == 0 and legal(st) == ["refill A HL", "refill A LOH"]  # only one on purpose


def test_osc_r37_empty_hand_draws_before_playing() -> None:
    st = refill(["HL LH HL LH _", "LOH HL LH NOISE _"], [["HL", "LH", "LOH"], []], index=0, pulse_top=["LH", "LOH"])
    st.apply("refill A LOH")  # P1 draws LH; P2 has no card and draws LOH first
    assert st.current_player == 1 and hand(st, 1) == ["LOH"] and legal(st) == ["refill B LOH"]


def test_osc_r38_draw_exactly_one_after_each_play() -> None:
    st = refill(["HL LH HL LH _", B0], [["HL", "HL", "LOH"], ["HL", "LH", "HL"]], pulse_top=["NOISE", "LH"])
    st.apply("refill A HL")
    assert hand(st, 0) == ["HL", "LOH", "NOISE"]
    two = refill(["HL LH HL LH _", B0], [["HL"], ["HL", "LH", "HL"]], pulse_top=["NOISE", "LH", "LH"],
                 rules={"refill_draw": "to_three"})
    two.apply("refill A HL")
    assert hand(two, 0) == ["LH", "LH", "NOISE"]


def test_osc_r39_a_full_train_drops_slot_1_before_a_refill() -> None:
    st = refill([A0, "LOH HL LH NOISE _"], [["HL", "LH", "LOH"], ["LH", "HL", "HL"]],
                rules={"refill_all_players": True}, triggers=[("T_HL", "A1", 1)])
    assert legal(st) == ["refill A HL", "refill A LOH"]  # A is complete, yet P1 plays (OSC-I41 variant)
    st.apply("refill A HL")
    assert show(st, "A") == "LH HL LOH LH HL" and discards(st) == ["HL", "T_HL"] and board(st) == []


def test_osc_r40_top_up_to_three_choosing_the_deck_per_card() -> None:
    st = refill(["HL LH HL LH _", B0], [["LOH"], ["HL", "LH"]], pulse_top=["LH", "NOISE"], trigger_top=["CLEAR"])
    st.apply("refill A LOH")  # P1 draws LH; every train is complete
    assert st.phase.value == "topup" and st.current_player == 0 and len(hand(st, 0)) == 1
    st.apply("draw trigger")
    st.apply("draw pulse")
    assert hand(st, 0) == ["LH", "NOISE", "CLEAR"]
    assert st.phase.value == "topup" and st.current_player == 1  # then P2, in turn order


def test_osc_r40_top_up_stops_when_no_deck_can_supply() -> None:
    st = refill(["HL LH HL LH _", B0], [["LOH"], ["HL", "LH", "LOH"]], pulse_top=["LH"], rest_to="score:1",
                trigger_rest_to="score:1", rules=EMPTY_DECKS)
    st.apply("refill A LOH")  # draws the last LH; nothing left to top up from
    assert hand(st, 0) == ["LH"] and st.phase.value in ("post", "trigger")


def test_osc_r41_hands_never_exceed_three() -> None:
    st = refill(["HL LH HL LH _", B0], [["HL", "HL", "LOH"], ["HL", "LH", "HL"]])
    st.apply("refill A HL")
    assert len(hand(st, 0)) == 3 and st.phase.value != "topup"


# --------------------------------- 3.7 post-refill trigger set
def test_osc_r42_the_post_refill_placement_is_optional() -> None:
    st = refill(["HL LH HL LH _", B0], [["HL", "T_LH", "LOH"], ["HL", "LH", "HL"]], pulse_top=["LH"])
    st.apply("refill A HL")
    assert st.phase.value == "post" and st.current_player == 0 and "pass" in legal(st)
    st.apply("pass")
    assert st.turn == 1 and board(st) == []


# ------------------------------------ 3.8 decks and exhaustion
def test_osc_r43_an_empty_pulse_deck_is_rebuilt_from_the_discard_pile() -> None:
    st = refill(["HL LH HL LH _", "LOH HL LH NOISE _"], [["HL", "LH", "HL"], ["LH", "HL", "HL"]],
                discard=["CLEAR", "T_BOTH"], rest_to="score:0", rules=EMPTY_DECKS)
    st.apply("refill A HL")
    pos = st.to_json()["position"]
    assert pos["flags"]["pulse_deck_mixed"] and pos["discard"] == [] and len(pos["pulse_deck"]) == 1
    assert Counter(hand(st, 0)) - Counter(["HL", "LH"]) in (Counter(["CLEAR"]), Counter(["T_BOTH"]))


def test_osc_r44_with_no_cards_anywhere_the_draw_is_skipped() -> None:
    st = refill(["HL LH HL LH _", "LOH HL LH NOISE _"], [["HL", "LH", "HL"], ["LH", "HL", "HL"]], rest_to="score:0",
                rules=EMPTY_DECKS)
    st.apply("refill A HL")
    assert hand(st, 0) == ["HL", "LH"] and st.current_player == 1


def test_osc_r45_an_empty_trigger_deck_leaves_only_the_pulse_deck() -> None:
    st = refill(["HL LH HL LH _", B0], [["LOH"], ["HL", "LH", "HL"]], pulse_top=["LH", "NOISE", "HL"],
                trigger_rest_to="score:1")
    st.apply("refill A LOH")  # draws LH, then tops up from the pulse deck without a choice
    assert hand(st, 0) == ["HL", "LH", "NOISE"]


def test_osc_r46_empty_hand_and_nothing_to_draw_ends_the_game() -> None:
    st = refill(["HL LH HL LH _", "LOH HL LH NOISE _"], [["HL", "LH", "HL"], []], pulse_top=["HL"], rest_to="score:0",
                rules=EMPTY_DECKS)
    st.apply("refill A HL")  # P1 draws the last card; P2 holds nothing and cannot draw
    out = st.outcome()
    assert out is not None and out.rule == "OSC-R46"


def test_osc_r46_backstop_on_discards() -> None:
    st = load(trains=["HL LH HL LH _", "LOH HL LH HL _"], hands=[["LH", "LH", "HL"], ["HL", "HL", "HL"]],
              phase="refill", pending={**refill_pending(2, 0), "discards": [0, 5], "limit": 4})
    st.apply("refill A HL")
    out = st.outcome()
    assert out is not None and out.rule == "OSC-R46"  # P2 already discarded more than the limit


def test_osc_r46_variant_the_train_is_left_incomplete() -> None:
    st = refill(["HL LH HL LH _", "LH HL LH HL _"], [["HL", "LH", "LH"], ["HL", "T_HL"]], pulse_top=["HL"],
                discard=["HL", "T_LH"], rest_to="score:0",
                rules={"exhaustion_ends_game": False, **EMPTY_DECKS})
    st.apply("refill A HL")
    assert not st.is_over and show(st, "B") == "LH HL LH HL _"


# ------------------------------------------------- 3.9 scoring
def test_osc_r47_waveform_cards_include_kept_triggers() -> None:
    st = scored([["HL", "LH", "LOH", "T_HL", "NOISE", "CLEAR"], []], kept=[1, 0])
    assert st.waveform_count(0) == 4
    assert scored([["HL", "LH", "LOH", "T_HL"], []], kept=[1, 0],
                  rules={"trigger_score_counts": False}).waveform_count(0) == 3


@pytest.mark.parametrize("noise,clear,penalty", [(0, 0, 0), (1, 0, 2), (2, 0, 3), (3, 1, 3), (3, 0, 5), (1, 3, 0)])
def test_osc_r48_penalty_is_one_and_a_half_per_net_noise_rounded_up(noise: int, clear: int, penalty: int) -> None:
    st = scored([["NOISE"] * noise + ["CLEAR"] * clear, []])
    assert st.penalty(0) == penalty


def test_osc_r48_variants() -> None:
    pile = [["NOISE"] * 3 + ["CLEAR"], [], []]
    assert scored(pile, rules={"noise_penalty": "trains_x1_5_per_noise"}).penalty(0) == 10  # 2 x ceil(4.5)
    assert scored(pile, rules={"noise_penalty": "two_per_noise"}).penalty(0) == 4
    assert scored([["CLEAR"] * 3, []], rules={"clamp_net_noise": False}).penalty(0) == -4  # ceil(-4.5)


def test_osc_r49_score_is_waveform_minus_penalty_and_may_be_negative() -> None:
    st = scored([["HL", "NOISE", "NOISE", "NOISE"], ["HL", "LH"]])
    assert st.scores_now() == [1 - 5, 2]


# --------------------------- 3.10 end and winner (multiplayer)
def test_osc_r50_the_game_ends_only_by_r34_r46_or_r64() -> None:
    game = load_game("oscilloscope")
    for seed in range(10):
        st = game.new_game(seed=seed, players=2 + seed % 3)
        rng = random.Random(seed)
        while not st.is_over:
            st.apply(st.legal_actions()[rng.randrange(len(st.legal_actions()))])
        assert st.outcome().rule in ("OSC-R34", "OSC-R46", "OSC-R64")  # type: ignore[union-attr]


def test_osc_r51_highest_score_wins_ties_share() -> None:
    st = load(trains=[A0, B0], triggers=[("T_HL", "B4", 1)], phase="post",
              score_piles=[["HL"] * 3 + ["NOISE"] * 5, ["LH"] * 2 + ["NOISE"] * 4], hands=[["HL"] * 3, ["HL"] * 3])
    st.apply("pass")  # P2 captures LOH + NOISE + T_HL: 10 noise in all
    out = st.outcome()
    assert out is not None and out.rule == "OSC-R34"
    assert out.scores == (3 - 8, 4 - 8) and out.winners == (1,)
    assert st.returns() == [-1.0, 1.0]


def test_osc_r51_tiebreak_variant_and_shared_wins() -> None:
    piles = [["HL"] * 7 + ["NOISE"], ["HL"] * 5, []]  # 7 - 2 = 5 and 5: a tie
    tie = scored(piles)
    tie.result = tie._make_outcome()
    assert tie.result.winners == (0, 1) and tie.returns() == [1.0, 1.0, -1.0]
    broken = scored(piles, rules={"tiebreak": "fewer_net_noise"})
    broken.result = broken._make_outcome()
    assert broken.result.winners == (1,) and broken.returns() == [0.0, 1.0, -1.0]


# ---------------------------------------------- 3.11 solo game
def test_osc_r52_the_solo_player_refills_both_trains() -> None:
    st = load_game("oscilloscope").new_game(seed=1, players=1)
    assert st.trains_of(0) == [0, 1] and st.to_json()["position"]["assigned_trains"] == [["A", "B"]]


def test_osc_r53_filters_stay_at_the_left_end_and_hands_never_place_triggers() -> None:
    st = solo(FLAT, "LOH LOH LOH LOH _", ["T_HL", "T_LH"], ["HL", "T_BOTH", "CLEAR"])
    st.apply("refill B HL")
    assert st.to_json()["position"]["filters"] == ["T_HL", "T_LH"]
    game = load_game("oscilloscope")
    for seed in range(10):
        st = game.new_game(seed=seed, players=1)
        rng = random.Random(seed)
        while not st.is_over:
            assert not any(a.startswith(("place", "pass")) for a in legal(st))
            st.apply(st.legal_actions()[rng.randrange(len(st.legal_actions()))])


def test_osc_r54_solo_set_is_exchange_shift_capture_refill() -> None:
    st = solo(FLAT, "LOH LOH LOH LOH _", ["T_HL", None], ["HL", "LH", "LH"], stock="CLEAR",
              flags={"captured_this_set": True})
    st.apply("refill B HL")  # set ends; next set: exchange (automatic), shift, no capture, refill
    pos = st.to_json()["position"]
    assert pos["filters"] == ["T_HL", "CLEAR"] and st.phase.value == "refill"
    assert show(st, "A") == "LOH LOH LOH LOH _" and show(st, "B") == "LOH LOH LOH HL _"


def test_osc_r55_exchange_replaces_a_chosen_filter() -> None:
    st = solo(FLAT, "LOH LOH LOH LOH _", ["T_HL", "T_LH"], ["HL", "LH", "LH"], stock="CLEAR",
              trigger_top=["T_BOTH"], flags={"captured_this_set": True})
    st.apply("refill B HL")
    assert st.phase.value == "exchange" and legal(st) == ["exchange A", "exchange B"]
    st.apply("exchange B")
    pos = st.to_json()["position"]
    assert pos["filters"] == ["T_HL", "CLEAR"] and pos["stock"] == "T_BOTH"
    assert discards(st) == ["T_LH", "LOH", "LOH"]  # the replaced filter, then the shift


def test_osc_r55_no_exchange_without_a_capture_or_a_stock() -> None:
    st = solo(FLAT, "LOH LOH LOH LOH _", ["T_HL", None], ["HL", "LH", "LH"], stock="CLEAR")
    st.apply("refill B HL")
    assert st.to_json()["position"]["filters"] == ["T_HL", None]  # no capture last set
    st = solo(FLAT, "LOH LOH LOH LOH _", ["T_HL", None], ["HL", "LH", "LH"], flags={"captured_this_set": True})
    st.apply("refill B HL")
    assert st.to_json()["position"]["filters"] == ["T_HL", None]  # no stock


def test_osc_r56_every_present_filter_must_match_its_own_train() -> None:
    a, b = "LOH HL LH HL LH", "LOH LH HL LOH _"  # after the shift A1 = HL, B1 = LH
    miss = solo(a, b, ["T_HL", "T_HL"], ["LH", "LH", "LH"])
    miss.apply("refill B LH")
    assert not pile(miss, 0)
    hit = solo(a, b, ["T_HL", None], ["LH", "LH", "LH"])
    hit.apply("refill B LH")
    assert pile(hit, 0) == Counter(["HL", "LH", "T_HL"])  # both slot-1 cards, and the filter


def test_osc_r57_keep_one_conditional_filter_the_other_stays() -> None:
    st = solo("LOH HL LH HL LH", "LOH LH HL LOH _", ["T_HL", "T_LH"], ["LH", "LH", "LH"])
    st.apply("refill B LH")
    assert st.phase.value == "keep" and legal(st) == ["keep A", "keep B"]
    st.apply("keep B")
    assert pile(st, 0) == Counter(["HL", "LH", "T_LH"])
    assert st.to_json()["position"]["filters"] == ["T_HL", None]


def test_osc_r58_solo_filters_may_repeat_and_never_cancel() -> None:
    st = solo("LOH HL LH HL LH", "LOH HL LH HL _", ["T_HL", "T_HL"], ["HL", "LH", "LH"])
    st.apply("refill B LH")
    assert legal(st) == ["keep A", "keep B"]  # both fired; same kind, different positions


def test_osc_r59_a_clear_cancels_one_noise_of_its_capture() -> None:
    a, b = "LOH NOISE LH HL LH", "LOH NOISE HL LOH _"
    st = solo(a, b, ["T_HL", "CLEAR"], ["LH", "LH", "LH"])
    st.apply("refill B LH")
    assert st.to_json()["position"]["counters"]["counted_noise"] == 1  # 2 noise - 1 clear
    assert pile(st, 0) == Counter({"NOISE": 2, "CLEAR": 1, "T_HL": 1})
    voided = solo(a, b, ["T_HL", "CLEAR"], ["LH", "LH", "LH"], rules={"solo_clear_covers": "all_in_capture"})
    voided.apply("refill B LH")
    assert voided.to_json()["position"]["counters"]["counted_noise"] == 0


def test_osc_r60_the_third_counted_noise_ends_the_game() -> None:
    st = solo("LOH NOISE LH HL LH", "LOH HL HL LOH _", ["T_HL", None], ["LH", "LH", "LH"],
              counters={"counted_noise": 2})
    st.apply("refill B LH")
    out = st.outcome()
    assert out is not None and out.rule == "OSC-R60"
    assert pile(st, 0) == Counter(["NOISE", "HL", "T_HL"]) and out.scores == (2.0,)  # that capture counts


def test_osc_r61_solo_score_is_the_waveform_count() -> None:
    piles = [["HL", "LH", "T_HL", "NOISE", "NOISE"]]
    st = load(1, trains=[FLAT, "LOH LOH LOH LOH _"], filters=["T_HL", None], hands=[["HL"]], score_piles=piles,
              phase="refill", pending=refill_pending(1, 0, 2))
    assert st.score(0) == 3
    formula = load(1, rules={"solo_scoring": "general_formula"}, trains=[FLAT, "LOH LOH LOH LOH _"],
                   filters=["T_HL", None], hands=[["HL"]], score_piles=piles, phase="refill",
                   pending=refill_pending(1, 0, 2))
    assert formula.score(0) == 3 - 3


def test_osc_r62_solo_refill_to_either_train_and_must_connect_covers_both() -> None:
    both = load(1, trains=["HL LH HL LH _", "LH HL LH HL _"],
                filters=["T_HL", None], hands=[["HL", "LH", "LOH"]], phase="refill",
                pending=refill_pending(1, 0, 2))
    assert legal(both) == ["refill A HL", "refill A LOH", "refill B LH", "refill B LOH"]
    st = load(1, trains=["HL LH HL LH _", "LH HL LH HL _"], filters=["T_HL", None],
              hands=[["HL", "T_HL", "T_LH"]], phase="refill", pending=refill_pending(1, 0, 2))
    assert legal(st) == ["refill A HL"]  # B cannot take it, but A can: it must be played


def test_osc_r63_no_filter_left_ends_the_game() -> None:
    st = solo(FLAT, "LOH LOH LOH LOH _", [None, None], ["HL", "LH", "LH"])
    st.apply("refill B HL")
    out = st.outcome()
    assert out is not None and out.rule == "OSC-R63"


# ---------------------------------- 3.12 termination guarantee
def test_osc_r64_stall_limit_ends_the_game_after_the_set() -> None:
    st = load(rules={"stall_limit_sets": 3}, trains=[A0, B0], hands=[["T_HL", "HL", "LH"], ["T_LH", "HL", "LH"]],
              counters={"stall": 2})
    st.apply("place T_HL A3")  # a set cut short by OSC-R10 counts
    out = st.outcome()
    assert out is not None and out.rule == "OSC-R64" and out.winners == (0, 1)


def test_osc_r64_one_set_limit_in_random_games() -> None:
    game = load_game("oscilloscope", stall_limit_sets=1)
    for seed in range(5):
        st = game.new_game(seed=seed, players=2)
        rng = random.Random(seed)
        while not st.is_over:
            st.apply(st.legal_actions()[rng.randrange(len(st.legal_actions()))])
        assert st.outcome().rule in ("OSC-R64", "OSC-R34")  # type: ignore[union-attr]


def test_osc_r64_the_termination_bound_is_the_proved_bound() -> None:
    assert OscilloscopeGame.termination_bound == action_bound(6, 6, 100)
    assert action_bound(2, 2, 20) < OscilloscopeGame.termination_bound


def test_osc_r64_random_games_stay_far_below_the_bound() -> None:
    game = load_game("oscilloscope")
    for players in (1, 2, 4):
        for seed in range(4):
            st = game.new_game(seed=seed, players=players)
            rng = random.Random(seed)
            count = 0
            while not st.is_over:
                st.apply(st.legal_actions()[rng.randrange(len(st.legal_actions()))])
                count += 1
            assert count < action_bound(players, max(players, 2), 20)
