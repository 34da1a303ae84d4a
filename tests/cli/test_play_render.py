"""The play screens on fixed positions (golden text, colours stripped), and the renderers' building blocks.

Regenerate the golden files after an intended change with ``UPDATE_GOLDEN=1 pytest tests/cli``.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any

import pytest
from play_helpers import GOLDEN, position, quiet_console, screen_text

from cardtable.cli.play.render import Context, describe_action, render_choices, render_outcome, render_view
from cardtable.cli.play.render.common import group_key
from cardtable.cli.play.render.oscilloscope import WAVES, noise_count
from cardtable.cli.play.render.utahime import card_text, effective_number2, printed_number
from cardtable.core import State
from cardtable.games.zeta.cards import card


def _phase(name: str) -> Callable[[State], bool]:
    return lambda s: s.view(None)["phase"] == name


POSITIONS: dict[str, Callable[[], State]] = {
    "zeta_main": lambda: position("zeta", 3, steps=16),
    "zeta_target": lambda: position("zeta", 2, until=_phase("target")),
    "zeta_fortune": lambda: position("zeta", 1, until=_phase("fortune")),
    "oscilloscope_2p_trigger": lambda: position(
        "oscilloscope", 1, players=2,
        until=lambda s: s.view(None)["phase"] == "trigger" and bool(s.view(None)["triggers"])
        and s.view(None)["counters"]["sets"] > 3),
    "oscilloscope_solo_exchange": lambda: position("oscilloscope", 3, players=1, until=_phase("exchange")),
    "oscilloscope_4p_refill": lambda: position(
        "oscilloscope", 1, players=4,
        until=lambda s: s.view(None)["phase"] == "refill" and s.view(None)["counters"]["sets"] > 4),
    "utahime_block": lambda: position(
        "utahime", 1, until=lambda s: s.view(None)["phase"] == "block" and s.view(None)["turn"] > 6),
    "utahime_main": lambda: position(
        "utahime", 1, until=lambda s: s.view(None)["phase"] == "main" and s.view(None)["turn"] > 10),
}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_screen_matches_golden(name: str) -> None:
    state = POSITIONS[name]()
    assert not state.is_over, "the fixed position must be reached before the game ends"
    text = screen_text(state)
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN") or not path.exists():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"screen of {name} changed; UPDATE_GOLDEN=1 rewrites it"


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_screens_depend_only_on_the_view(name: str) -> None:
    """A state sampled from the seat's view (other hidden cards) gives the same screen: nothing hidden leaks."""
    state = POSITIONS[name]()
    seat = state.current_player
    assert seat is not None
    sampled = state.game.sample_state(state.view(seat), random.Random(7))
    assert screen_text(sampled) == screen_text(state)


def test_every_phase_renders_for_every_viewer() -> None:
    """Random games of each game render at every step for the deciding seat and for a spectator."""
    console = quiet_console(80)
    cases: list[tuple[str, dict[str, Any]]] = [("zeta", {}), ("oscilloscope", {"players": 1}),
                                               ("oscilloscope", {"players": 3}), ("utahime", {})]
    for game, setup in cases:
        state = position(game, 11, steps=400, **setup)
        g = state.game
        replayed = g.new_game(seed=11, **setup)
        for step, action in enumerate(state.history):
            seat = replayed.current_player
            if step % 4:
                replayed.apply(action)
                continue
            legal = tuple(str(a) for a in replayed.legal_actions())
            ctx = Context(names=tuple(f"P{p + 1}" for p in range(replayed.num_players)), legal=legal,
                          rules=g.rules.flags(), last="x")
            console.print(render_view(game, replayed.view(seat), ctx))
            if step % 12 == 0:
                console.print(render_view(game, replayed.view(None), ctx))
            assert describe_action(game, action, seat or 0, ctx)
            replayed.apply(action)
        out = replayed.outcome()
        if out is not None:
            console.print(render_outcome(out.to_json(), Context(), replayed.num_players))


def test_choices_numbered_then_grouped() -> None:
    console = quiet_console()
    console.print(render_choices(["pass", "keep"]))
    assert " 1 pass" in console.export_text()
    many = [f"{c}@{f}{r}" for c in ("chant_practice", "do_over") for r in range(1, 7) for f in "abcdef"] + ["pass"]
    console.print(render_choices(many))
    text = console.export_text()
    assert "73 legal actions" in text
    assert "1-36" in text and "37-72" in text and "do_over@" in text and "73  pass" in text
    assert group_key("place T_HL A3") == ("place T_HL ", "A3")
    assert group_key("target:d4") == ("target:", "d4")


def test_outcome_panel_names_winner_reason_rule_and_scores() -> None:
    console = quiet_console()
    ctx = Context(names=("P1 (you)", "P2 (random)"))
    console.print(render_outcome({"winners": [1], "reason": "four_in_a_row", "rule": "ZETA-R20", "scores": [3.0, 5.0],
                                  "detail": "d"}, ctx, 2))
    console.print(render_outcome({"winners": [], "reason": "board_full", "rule": "ZETA-R22", "scores": None,
                                  "detail": ""}, ctx, 2))
    text = console.export_text()
    assert "P2 (random) wins" in text and "four in a row [ZETA-R20]" in text and "P1 (you) 3, P2 (random) 5" in text
    assert "Draw" in text and "board full [ZETA-R22]" in text


def test_zeta_hand_marks_placeable_cards_and_costs() -> None:
    state = position("zeta", 3, steps=16)
    text = screen_text(state)
    seat = state.current_player
    assert seat is not None
    hand = state.view(seat)["hands"][seat]
    placeable = {str(a).split("@")[0] for a in state.legal_actions() if "@" in str(a)}
    lines = text.split("Your hand", 1)[1].splitlines()
    for card_id in set(hand):
        row = next(line for line in lines if f" {card_id}" in line)
        assert f" {card(card_id).cost} " in row
        assert ("✓" in row) == (card_id in placeable)


def test_oscilloscope_waveforms_are_box_drawing() -> None:
    assert all(len(row) == 8 for rows in WAVES.values() for row in rows)
    assert "┐" in WAVES["HL"][0] and "└" in WAVES["HL"][2]
    assert "┌" in WAVES["LH"][0] and "┘" in WAVES["LH"][2]
    view: dict[str, Any] = {"score_piles": [["NOISE", "HL"], ["NOISE", "NOISE"]]}
    assert noise_count(view) == 3


def test_utahime_numbers_and_suits() -> None:
    assert printed_number("HA") == 1 and printed_number("HA", 14) == 14
    assert printed_number("SK") == 13 and printed_number("C7+") == 7 and printed_number("~D10") == 10
    assert card_text("H7").plain == "♥7" and card_text("~C7+").plain == "~♣7+" and card_text(None).plain == "▒▒"
    view = {"turn": 5, "attacker": 0, "effects": [
        {"turn": 5, "kind": "block_bonus", "player": 1, "half_points": 4},
        {"turn": 5, "kind": "bonus_8_10", "player": 1, "half_points": 2},
        {"turn": 6, "kind": "block_bonus", "player": 0, "half_points": 4},
        {"turn": 5, "kind": "attack_bonus", "player": 0, "half_points": 3}]}
    assert effective_number2("C9", 1, view) == 18 + 4 + 2   # defender: +2 and +1 for an 8-10
    assert effective_number2("C5", 1, view) == 10 + 4
    assert effective_number2("H5", 0, view) == 10 + 3       # attacker: +1.5 (turn 6 not yet)


def test_utahime_log_hides_secret_choices() -> None:
    ctx = Context(names=("P1", "P2"))
    assert "H9" not in describe_action("utahime", "wish H9", 0, ctx)
    assert "SQ" not in describe_action("utahime", "set SQ", 1, ctx) and "♠Q" not in describe_action("utahime", "set SQ", 1, ctx)
    assert "H3" not in describe_action("utahime", "heartnext H3", 0, ctx)
    assert "D7" not in describe_action("utahime", "pick D7", 0, ctx)
    assert describe_action("utahime", "attack C3 next ban HS", 0, ctx) == "P1 attacks with ♣3 NEXT designating ♥♠"
    assert describe_action("zeta", "fire_mage@c3", 1, ctx) == "P2 places Fire Mage (fire_mage) on c3"
    assert describe_action("oscilloscope", "place T_HL A3", 0, ctx) == "P1 places T_HL on A3"
