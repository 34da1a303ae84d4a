"""The rulebook's §5 test scenarios T1-T17, one test each (seat 0 is the rulebook's P1)."""

from __future__ import annotations

from collections import Counter

from cardtable.games.oscilloscope import Card, OscilloscopeRules, build_train
from cardtable.games.oscilloscope.state import RuleTables

from .helpers import A0, B0, EMPTY_DECKS, board, discards, hand, legal, load, pile, refill_pending, show


def test_t01_building_a_train_at_setup() -> None:
    top_down = ["LH", "LH", "LOH", "HL", "HL", "NOISE", "LH", "LOH", "LOH"]
    deck = [int(Card[t]) for t in reversed(top_down)]
    tables = RuleTables(OscilloscopeRules())
    cards, levels = build_train(deck, tables.setup_conn)
    assert [Card(c).name for c in cards] == ["LH", "LOH", "HL", "NOISE", "LH"]
    assert levels == [0, 0, 1, 2, 0]  # H, H, L, *, H
    assert [Card(c).name for c in reversed(deck)] == ["LOH", "LOH", "LH", "HL"]  # bottom reads ..., LH, HL


def test_t02_a_first_trigger_ends_the_turn() -> None:
    st = load(trains=[A0, B0], hands=[["HL", "LH", "T_HL"], ["LOH", "CLEAR", "T_LH"]],
              flags={"any_trigger_placed": False})
    assert "place T_HL A3" in legal(st)
    assert "place T_HL A1" not in legal(st)  # A is full: A1 vanishes in the next shift
    st.apply("place T_HL A3")
    assert (show(st, "A"), show(st, "B")) == (A0, B0)  # no shift, capture or refill
    assert hand(st, 0) == ["HL", "LH"]  # no top-up either
    assert st.current_player == 1 and st.phase.value == "trigger"
    assert {a[-1] for a in legal(st)} == {"2", "3", "4"}


def test_t03_legal_placements() -> None:
    st = load(trains=[A0, B0], triggers=[("T_HL", "A3", 0)], turn=1,
              hands=[["HL", "LH", "HL"], ["LOH", "CLEAR", "T_LH"]])
    expected = {f"place T_LH {s}" for s in ("A2", "A3", "A4", "B2", "B3", "B4")}
    expected |= {f"place LOH {s}" for s in ("B3", "A2", "A4", "B2", "B4")}
    expected |= {"place CLEAR B3"}
    assert set(legal(st)) == expected


def test_t03_variant_anchor_2_with_full_trains() -> None:
    st = load(trains=[A0, B0], triggers=[("T_LH", "A2", 0)], turn=1,
              hands=[["HL", "LH", "HL"], ["LOH", "CLEAR", "T_LH"]])
    assert {a[-1] for a in legal(st) if a.startswith("place")} == {"2", "3"}


def test_t03_variant_holes_make_slot_1_legal() -> None:
    st = load(trains=["HL LH HL _ LH", "LOH HL LH _ HL"], triggers=[("T_LH", "A2", 0)], turn=1,
              hands=[["HL", "LH", "HL"], ["LOH", "CLEAR", "T_LH"]])
    assert {"place T_LH A1", "place T_LH B1"} <= set(legal(st))
    st3 = load(trains=["HL LH HL _ LH", "LOH HL LH _ HL"], triggers=[("T_LH", "A3", 0)], turn=1,
               hands=[["HL", "LH", "HL"], ["LOH", "CLEAR", "T_LH"]])
    assert "place T_LH A1" not in legal(st3)  # out of range of anchor 3


def t4_position() -> dict[str, object]:
    return dict(trains=[A0, B0], triggers=[("T_LH", "A2", 1)],
                hands=[["T_HL", "HL", "LOH"], ["HL", "HL", "T_LH"]], pulse_top=["LH", "LOH", "HL"])


def test_t04_shift_and_a_matching_capture() -> None:
    st = load(**t4_position())  # type: ignore[arg-type]
    st.apply("place T_HL A3")
    assert pile(st, 0) == Counter(["HL", "LH", "T_HL"]) and st.waveform_count(0) == 3
    assert show(st, "A") == "LH _ LOH LH _"
    assert show(st, "B") == "HL _ NOISE HL _"
    assert discards(st) == ["T_LH", "HL", "LOH"]
    assert board(st) == []
    assert hand(st, 0) == ["HL", "LOH"]


def test_t05_no_match() -> None:
    st = load(**t4_position())  # type: ignore[arg-type]
    st.apply("place T_HL B3")
    assert show(st, "A") == "LH HL LOH LH _"
    assert show(st, "B") == "HL LH NOISE HL _"
    assert board(st) == ["T_HL@B2"]
    assert pile(st, 0) == Counter()
    assert st.phase.value == "refill" and st.current_player == 0


def test_t06_noise_satisfies_a_trigger_and_is_captured() -> None:
    st = load(trains=[A0, B0], triggers=[("T_LH", "A3", 1)], hands=[["T_HL", "HL", "LH"], ["HL", "LH", "HL"]])
    assert "place T_HL B4" in legal(st)
    st.apply("place T_HL B4")
    assert discards(st)[0] == "T_LH"
    assert pile(st, 0) == Counter(["LOH", "NOISE", "T_HL"])
    assert st.waveform_count(0) == 2 and pile(st, 0)["NOISE"] == 1


def test_t07a_several_low_or_hi_triggers() -> None:
    st = load(trains=[A0, B0], triggers=[("LOH", "A4", 1)], hands=[["LOH", "HL", "LH"], ["HL", "LH", "HL"]])
    st.apply("place LOH B4")
    assert pile(st, 0) == Counter({"LOH": 2, "NOISE": 1})  # the LOH card and one LOH trigger
    assert discards(st) == ["HL", "LOH", "LOH"]  # shift: A1 HL, B1 LOH; then the other LOH trigger
    assert st.waveform_count(0) == 2


def test_t07b_one_unsatisfied_trigger_blocks_the_capture() -> None:
    st = load(3, trains=[A0, B0, "HL LH LOH HL LH"], triggers=[("LOH", "A4", 1)],
              hands=[["LOH", "HL", "LH"], ["HL", "LH", "HL"], ["HL", "LH", "HL"]])
    st.apply("place LOH C4")
    assert board(st) == ["LOH@A3", "LOH@C3"]
    assert all(not pile(st, p) for p in range(3))


def test_t08a_cancelling_duplicate_xx_triggers() -> None:
    st = load(trains=[A0, B0], triggers=[("T_HL", "A3", 0)], turn=1,
              hands=[["HL", "LH", "HL"], ["T_HL", "LOH", "LH"]])
    st.apply("place T_HL A3")
    assert board(st) == []
    assert discards(st) == ["T_HL", "T_HL", "HL", "LOH"]  # the pair, then the shift
    assert st.phase.value == "refill" and st.current_player == 1  # the set goes on: refill
    st.apply("refill B LH")  # P2 keeps the LOH
    while st.phase.value != "post":
        st.apply(st.legal_actions()[0])
    assert st.current_player == 1  # P2's post-refill placement, on an empty board
    expected = {f"place LOH {t}{p}" for t in "AB" for p in "2345"}  # any slot R14 allows
    assert {a for a in legal(st) if a.startswith("place LOH")} == expected


def test_t08b_only_the_stacked_pair_cancels() -> None:
    st = load(trains=[A0, B0], triggers=[("LOH", "A4", 1), ("LOH", "B4", 1)], phase="post",
              hands=[["LOH", "HL", "LH"], ["T_HL", "HL", "HL"]])
    st.apply("place LOH A4")
    assert board(st) == ["LOH@B4"]
    assert discards(st) == ["LOH", "LOH"]
    assert st.current_player == 1 and st.phase.value == "trigger"
    assert {a[-1] for a in legal(st)} <= {"3", "4", "5"}  # the anchor is still 4


def test_t09_clear() -> None:
    a_prime = "LH HL LH HL LOH"
    st = load(trains=[a_prime, B0], triggers=[("T_BOTH", "A4", 1)], hands=[["CLEAR", "HL", "LH"], ["HL", "LH", "HL"]])
    assert legal(st) == ["place CLEAR B4"]  # (b): not on A4 (a trigger), not B3 or B5 (not the anchor)
    st.apply("place CLEAR B4")
    assert pile(st, 0) == Counter(["HL", "NOISE", "T_BOTH", "CLEAR"])
    assert st.waveform_count(0) == 2 and st.penalty(0) == 0 and st.score(0) == 2


def test_t09c_clear_without_noise_is_discarded() -> None:
    st = load(trains=["LH HL LH HL LOH", "LOH HL LH LOH HL"], triggers=[("T_BOTH", "A4", 1)],
              hands=[["CLEAR", "HL", "LH"], ["HL", "LH", "HL"]])
    st.apply("place CLEAR B4")
    assert pile(st, 0) == Counter(["HL", "LOH", "T_BOTH"]) and st.waveform_count(0) == 3
    assert discards(st) == ["LH", "LOH", "CLEAR"]


def test_t10_refill_connection_and_draws() -> None:
    st = load(**t4_position())  # type: ignore[arg-type]
    st.apply("place T_HL A3")  # T4
    assert legal(st) == ["refill A HL", "refill A LOH"]  # λ(A,5) = H
    st.apply("refill A HL")
    assert hand(st, 0) == ["LH", "LOH"]
    assert st.current_player == 1 and legal(st) == ["discard HL", "discard T_LH"]  # λ(B,5) = L
    st.apply("discard HL")
    assert hand(st, 1) == ["HL", "LOH", "T_LH"]
    assert st.current_player == 1 and legal(st) == ["refill B LOH"]  # pass 2: must play LOH
    st.apply("refill B LOH")
    assert hand(st, 1) == ["HL", "HL", "T_LH"]
    assert show(st, "A") == "LH _ LOH LH HL" and show(st, "B") == "HL _ NOISE HL LOH"
    assert st.phase.value == "topup" and st.current_player == 0 and legal(st) == ["draw pulse", "draw trigger"]
    st.apply("draw trigger")
    assert len(hand(st, 0)) == 3 and len(hand(st, 1)) == 3
    assert st.phase.value == "post" and {"place LOH A1", "place LOH B1"} <= set(legal(st))


def test_t11_gap_closing_shift_and_a_capture_by_a_player_who_placed_nothing() -> None:
    st = load(trains=["LH _ LOH:L LH HL", "HL _ NOISE HL LOH:L"], triggers=[("LOH", "A3", 0)], phase="post",
              hands=[["HL", "LH", "LH"], ["HL", "HL", "LH"]])
    st.apply("pass")  # P1 ends the set; P2 holds nothing trigger-capable
    assert pile(st, 1) == Counter({"LOH": 2, "NOISE": 1})
    assert show(st, "A") == "LH _ LH HL _" and show(st, "B") == "HL _ HL LOH _"
    assert discards(st) == []  # the shift only closed the gaps
    assert st.phase.value == "refill" and st.current_player == 1


def test_t12_scoring() -> None:
    piles = [["HL", "HL", "HL", "LH", "LH", "LOH", "T_HL", "NOISE", "NOISE", "NOISE", "CLEAR"],
             ["HL", "HL", "LH", "LH", "LOH", "LOH", "NOISE", "NOISE", "NOISE"],
             ["HL", "LH", "NOISE", "CLEAR", "CLEAR"]]
    kw = dict(trains=[A0, B0, "HL LH LOH HL LH"], hands=[["T_LH"], [], []], score_piles=piles, kept=[1, 0, 0])
    st = load(3, **kw)  # type: ignore[arg-type]
    assert [st.penalty(p) for p in range(3)] == [3, 5, 0]
    assert st.scores_now() == [4, 1, 2]
    variant = load(3, rules={"noise_penalty": "trains_x1_5_per_noise"}, **kw)  # type: ignore[arg-type]
    assert variant.penalty(0) == 10 and variant.score(0) == -3


def test_t13_end_of_the_multiplayer_game() -> None:
    piles = [["HL"] * 4 + ["NOISE"] * 2 + ["CLEAR"], ["HL"] + ["NOISE"] * 4, ["HL"] * 2 + ["NOISE"] * 3 + ["CLEAR"] * 2]
    st = load(3, trains=[A0, B0, "HL LH LOH HL LH"], triggers=[("T_LH", "A3", 1)], turn=2,
              hands=[["HL", "LH", "HL"], ["HL", "LH", "HL"], ["T_HL", "HL", "LH"]], score_piles=piles)
    st.apply("place T_HL B4")
    out = st.outcome()
    assert out is not None and out.rule == "OSC-R34"
    assert sum(pile(st, p)["NOISE"] for p in range(3)) == 10
    assert show(st, "A") == "LH HL _ LH _"  # no refill or top-up after the end
    assert out.scores == (2.0, -5.0, 2.0) and out.winners == (0, 2)  # tied players share the win


def test_t14_solo_capture_clear_exchange_and_end() -> None:
    st = load(1, trains=["LH HL LH HL LOH", "LH NOISE NOISE HL _"], filters=["T_HL", "CLEAR"], stock="T_LH",
              hands=[["LOH", "HL", "LH"]], phase="refill", pending=refill_pending(1, 0, 2),
              counters={"counted_noise": 2}, pulse_top=["HL", "LH", "HL"], trigger_top=["T_BOTH"])
    assert legal(st) == ["refill B LH", "refill B LOH"]
    st.apply("refill B LOH")  # completes the trains; set k follows with no exchange
    pos = st.to_json()["position"]
    assert show(st, "A") == "_ LH HL LOH _" and show(st, "B") == "_ NOISE HL LOH _"
    assert pile(st, 0) == Counter(["HL", "NOISE", "CLEAR", "T_HL"]) and st.waveform_count(0) == 2
    assert pos["filters"] == [None, None] and pos["counters"]["counted_noise"] == 2
    assert legal(st) == ["refill A LH", "refill B LH"]
    st.apply("refill A LH")
    st.apply("refill B LH")
    assert st.phase.value == "exchange" and legal(st) == ["exchange A", "exchange B"]
    st.apply("exchange A")
    out = st.outcome()
    assert out is not None and out.rule == "OSC-R60" and out.scores == (4.0,)
    assert pile(st, 0) == Counter({"HL": 1, "T_HL": 1, "CLEAR": 1, "NOISE": 2, "LH": 1, "T_LH": 1})
    pos = st.to_json()["position"]
    assert pos["stock"] == "T_BOTH" and pos["filters"] == [None, None] and pos["counters"]["counted_noise"] == 3


def test_t15_exhausting_the_pulse_deck() -> None:
    st = load(trains=["LH HL LOH LH _", "HL LH NOISE HL _"], hands=[["HL", "HL", "LH"], ["LH", "HL", "HL"]],
              phase="refill", pending=refill_pending(2, 1), discard=["T_HL", "HL", "CLEAR", "LOH"],
              rest_to="score:0", rules=EMPTY_DECKS)
    st.apply("refill B LH")
    pos = st.to_json()["position"]
    assert pos["discard"] == [] and len(pos["pulse_deck"]) == 3 and pos["flags"]["pulse_deck_mixed"]
    drawn = Counter(hand(st, 1)) - Counter(["HL", "HL"])
    assert Counter(pos["pulse_deck"]) + drawn == Counter(["T_HL", "HL", "CLEAR", "LOH"])
    assert st.current_player == 0 and st.phase.value == "refill"


def test_t16a_a_connecting_card_must_be_played() -> None:
    st = load(trains=["HL LH HL LH _", "LOH HL LH NOISE HL"], hands=[["LH", "T_BOTH", "LOH"], ["HL", "LH", "HL"]],
              phase="refill", pending=refill_pending(2, 0))
    assert legal(st) == ["refill A LOH"]


def test_t16b_an_impossible_refill_ends_the_game() -> None:
    st = load(trains=["HL LH HL LH _", "LH HL LH HL _"], hands=[["HL", "LH", "LH"], ["HL", "T_HL"]],
              phase="refill", pending=refill_pending(2, 0), pulse_top=["HL"], discard=["HL", "T_LH"],
              trigger_top=["LOH"], rest_to="score:0", rules=EMPTY_DECKS)
    st.apply("refill A HL")
    out = st.outcome()
    assert out is not None and out.rule == "OSC-R46"
    assert st.to_json()["position"]["trigger_deck"][0] == "LOH"  # not looked at


def test_t17_stall_end() -> None:
    st = load(trains=[A0, B0], triggers=[("T_HL", "A2", 1)], phase="post", turn=1,
              hands=[["HL", "LH", "HL"], ["HL", "LH", "LOH"]], counters={"stall": 18})
    st.apply("pass")  # P2's set ends: 19 sets without a capture
    assert st.to_json()["position"]["counters"]["stall"] == 19
    assert board(st) == ["T_HL@A1"] and st.phase.value == "refill" and st.current_player == 0
    for _ in range(20):
        if st.is_over:
            break
        st.apply(st.legal_actions()[0])
    out = st.outcome()
    assert out is not None and out.rule == "OSC-R64"
    assert all(not pile(st, p) for p in range(2))


def test_t17_variant_a_capture_resets_the_count() -> None:
    st = load(trains=[A0, B0], triggers=[("T_HL", "A3", 1)], phase="post", turn=1,
              hands=[["HL", "LH", "HL"], ["HL", "LH", "LOH"]], counters={"stall": 18})
    st.apply("pass")
    assert pile(st, 0)  # P1 captured with P2's trigger
    while st.turn == 0 and not st.is_over:
        st.apply(st.legal_actions()[0])
    assert not st.is_over and st.to_json()["position"]["counters"]["stall"] == 0
