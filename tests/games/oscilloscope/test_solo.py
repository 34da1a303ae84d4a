"""The solo game: OSC-R52 to OSC-R63."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from cardtable.core import load_game

from .helpers import discards, legal, load, pile, refill_pending, show

FLAT = "LOH LOH LOH LOH LOH"  # all wild: nothing matches an edge filter, anything connects


def solo(a: str, b: str, filters: list[str | None], hand: list[str], rules: dict[str, object] | None = None,
         **kw: Any):  # type: ignore[no-untyped-def]
    """A solo position at a refill decision (the last of its set when only one slot is empty)."""
    return load(1, rules=rules, trains=[a, b], filters=filters, hands=[hand], phase="refill",
                pending=refill_pending(1, 0, 2), **kw)


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
