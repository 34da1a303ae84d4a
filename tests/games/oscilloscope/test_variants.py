"""Variant flags of §6: each non-default value plays complete games; targeted checks for the rest."""

from __future__ import annotations

import doctest
import random
from collections import Counter
from typing import Any

import pytest

from cardtable.core import load_game
from cardtable.games.oscilloscope import OscilloscopeRules, actions, cards

from .helpers import B0, legal, load, refill_pending, show

NUMERIC = {"trigger_move_range": [2, 4], "mp_noise_limit": [1, 15], "stall_limit_sets": [1, 100],
           "cards": ["noise.pulse_deck=10;lh.pulse_deck=25"]}  # OSC-I-CT15: a card set's composition


def _alternatives() -> list[tuple[str, Any]]:
    out = []
    for spec in OscilloscopeRules.flag_specs():
        if spec.choices is not None:
            values = [c for c in spec.choices if c != spec.default]
        elif spec.kind is bool:
            values = [not spec.default]
        else:
            values = NUMERIC[spec.name]
        out += [(spec.name, v) for v in values]
    return out


@pytest.mark.parametrize("name,value", _alternatives())
def test_every_variant_plays_to_the_end(name: str, value: Any) -> None:
    game = load_game("oscilloscope", **{name: value})
    for players in (1, 3):
        state = game.new_game(seed=11, players=players)
        rng = random.Random(players)
        while not state.is_over:
            state.apply(state.legal_actions()[rng.randrange(len(state.legal_actions()))])
        total: Counter[str] = Counter()
        for zone in state.zones().values():
            total.update(zone)
        assert total == state.expected_cards()


def test_doctests_of_the_package() -> None:
    for module in (cards, actions):
        assert doctest.testmod(module).failed == 0


def test_declared_level_after_a_wild_one() -> None:
    st = load(rules={"flat_after_wild": "declare"}, trains=["HL LH HL LH _", "LOH HL LH NOISE _"],
              hands=[["HL", "LH", "HL"], ["LOH", "HL", "HL"]], phase="refill", pending=refill_pending(2, 1))
    assert legal(st) == ["refill B HL", "refill B LOH H", "refill B LOH L"]
    st.apply("refill B LOH L")  # then P1 refills A in pass 2
    assert show(st, "B") == "LOH HL LH NOISE LOH" and st.levels[1][4] == 1 and st.current_player == 0


def test_transparent_noise_passes_the_level_through() -> None:
    st = load(rules={"noise_out_level": "transparent"}, trains=["HL LH HL LH _", "LOH HL LH NOISE _"],
              hands=[["NOISE", "HL", "LH"], ["HL", "LH", "HL"]], phase="refill", pending=refill_pending(2, 0))
    st.apply("refill A NOISE")
    assert st.current_player == 1 and st.levels[0][4] == 0  # the H of A4 goes through the noise


def test_trigger_cards_connect_like_their_edges() -> None:
    st = load(rules={"trigger_cards_connect": True}, trains=["HL LH HL LH _", B0],
              hands=[["T_HL", "T_BOTH", "CLEAR"], ["HL", "LH", "HL"]], phase="refill", pending=refill_pending(2, 0))
    assert legal(st) == ["refill A T_HL"]  # T_BOTH and CLEAR never connect (OSC-I-CT6)
