"""Cards, decks and setup: OSC-R1 to OSC-R8."""

from __future__ import annotations

from collections import Counter

import pytest

from cardtable.core import load_game
from cardtable.games.oscilloscope import CARD_TYPES, PULSE_DECK, TRIGGER_DECK, Card, Edge
from cardtable.games.oscilloscope.cards import IS_PULSE_TYPE, IS_TRIGGER_DECK_KIND

from .helpers import legal, load

GAME = load_game("oscilloscope")


def test_card_edges_are_the_drawn_waveform() -> None:
    edges = {t.card.name: (t.left, t.right) for t in CARD_TYPES}
    assert edges["HL"] == (Edge.HIGH, Edge.LOW) and edges["LH"] == (Edge.LOW, Edge.HIGH)
    assert edges["LOH"] == (Edge.FOLLOW, Edge.FOLLOW) and edges["NOISE"] == (Edge.NONE, Edge.NONE)
    assert edges["T_HL"] == (Edge.HIGH, Edge.LOW) and edges["T_BOTH"] == (Edge.BOTH, Edge.BOTH)
    assert sum(t.total for t in CARD_TYPES) == 110


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
