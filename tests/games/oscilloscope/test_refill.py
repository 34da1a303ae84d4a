"""Refill, top-up, post-refill trigger set and the decks: OSC-R35 to OSC-R46."""

from __future__ import annotations

from collections import Counter

from .helpers import A0, B0, EMPTY_DECKS, board, discards, hand, legal, load, refill_pending, show


def refill(trains: list[str], hands: list[list[str]], index: int = 0, rules: dict[str, object] | None = None,
           **kw: object):  # type: ignore[no-untyped-def]
    """A position in the refill step, seat ``index`` (from P1) to play."""
    return load(rules=rules, trains=trains, hands=hands, phase="refill", pending=refill_pending(2, index),
                **kw)  # type: ignore[arg-type]


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


def test_osc_r42_the_post_refill_placement_is_optional() -> None:
    st = refill(["HL LH HL LH _", B0], [["HL", "T_LH", "LOH"], ["HL", "LH", "HL"]], pulse_top=["LH"])
    st.apply("refill A HL")
    assert st.phase.value == "post" and st.current_player == 0 and "pass" in legal(st)
    st.apply("pass")
    assert st.turn == 1 and board(st) == []


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
