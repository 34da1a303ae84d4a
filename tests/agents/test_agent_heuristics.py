"""The per-game heuristics: fed synthetic views (they read nothing else), they play like a casual player."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable.agents import decide, evaluator_for, heuristic_for, make_agent
from cardtable.agents.heuristics import oscilloscope, utahime, zeta


def _best(scores: list[float], actions: list[str]) -> str:
    return actions[max(range(len(actions)), key=lambda i: scores[i])]


def _zeta_view(board: dict[str, tuple[str, int]], me: int = 0) -> dict[str, Any]:
    return {"current_player": me, "viewer": me, "board": {sq: {"card": c, "owner": o} for sq, (c, o) in board.items()},
            "blocked": [], "hand_sizes": [4, 4], "hands": [["chant_practice", "fire_mage"], None]}


def test_zeta_completes_four_then_blocks_three() -> None:
    """Zeta: four in a row beats everything; otherwise block the opponent's three; pass comes last."""
    win = _zeta_view({"a1": ("chant_practice", 0), "b1": ("chant_practice", 0), "c1": ("chant_practice", 0),
                      "a3": ("chant_practice", 1), "b3": ("chant_practice", 1), "c3": ("chant_practice", 1)})
    actions = ["pass", "chant_practice@d3", "chant_practice@d1", "chant_practice@f6"]
    assert _best(zeta.score_actions(win, actions), actions) == "chant_practice@d1"
    block = _zeta_view({"a3": ("chant_practice", 1), "b3": ("chant_practice", 1), "c3": ("chant_practice", 1),
                        "a1": ("chant_practice", 0)})
    scores = zeta.score_actions(block, actions)
    assert _best(scores, actions) == "chant_practice@d3" and scores[0] == min(scores)


def test_zeta_destroys_the_dangerous_card_and_never_its_own() -> None:
    """Zeta: a Fire Mage goes where it can break the opponent's line; targets are the opponent's cards."""
    view = _zeta_view({"c2": ("chant_practice", 1), "c3": ("chant_practice", 1), "c4": ("chant_practice", 1),
                       "e5": ("chant_practice", 0)})
    actions = ["fire_mage@c5", "fire_mage@a6", "target:c4", "target:e5", "decline"]
    scores = zeta.score_actions(view, actions)
    assert scores[0] > scores[1]
    assert scores[2] > scores[4] > scores[3]


def test_utahime_blocks_when_the_attack_is_worth_more_than_the_card() -> None:
    """Utahime: a spade attack is blocked with a cheap diamond, not with the ace; the cheapest attack is spent."""
    view = {"current_player": 1, "attack": {"card": "S6"}, "players": [{"hand_count": 8}, {"hand_count": 8}]}
    actions = ["noblock", "block D7", "block DK"]
    scores = utahime.score_actions(view, actions)
    assert _best(scores, actions) == "block D7"
    weak = {"current_player": 1, "attack": {"card": "D9"}, "players": [{}, {"hand_count": 8}]}
    assert _best(utahime.score_actions(weak, ["noblock", "block DK"]), ["noblock", "block DK"]) == "noblock"
    main = {"current_player": 0, "players": [{"hand_count": 8}, {"hand_count": 8}]}
    acts = ["attack SK", "attack S3 ban H", "pass H5", "joker", "set CQ"]
    scores = utahime.score_actions(main, acts)
    assert _best(scores, acts) == "set CQ"
    assert scores[1] > scores[0] > scores[2] and scores[3] < scores[0]


def test_oscilloscope_aims_triggers_at_matching_edges_and_avoids_noise() -> None:
    """Oscilloscope: with a trigger on the board, lay one that captures a clean slice, never a noisy one."""
    def card(c: str) -> dict[str, str]:
        return {"card": c, "out": "*"}
    trains = [[card("HL"), card("LH"), card("NOISE"), card("HL"), None],
              [card("LH"), card("HL"), card("NOISE"), card("LH"), None]]
    view = {"current_player": 0, "phase": "trigger", "trains": trains, "hands": [["T_HL"], None],
            "triggers": [{"card": "T_LH", "at": "B4", "owner": 1}]}
    actions = ["place T_HL A4", "place T_HL A3", "place T_HL B2"]
    scores = oscilloscope.score_actions(view, actions)
    assert _best(scores, actions) == "place T_HL A4"  # replaces the T_LH and captures slice 4: HL and LH
    assert scores[1] < 0  # a noise slice is left alone
    refill = ["refill A NOISE", "refill A LOH", "refill A HL"]
    assert _best(oscilloscope.score_actions({"current_player": 0, "phase": "refill"}, refill), refill) == "refill A HL"
    draws = ["draw pulse", "draw trigger"]
    assert _best(oscilloscope.score_actions({"current_player": 0, "hands": [["HL"]]}, draws), draws) == "draw trigger"


@pytest.mark.parametrize(("name", "setup"), [("zeta", {}), ("utahime", {}), ("oscilloscope", {"players": 3})])
def test_heuristics_play_whole_games_from_views(name: str, setup: dict[str, Any]) -> None:
    """Every game's heuristic scores every legal action of a real game, to the end, and its evaluator is sane."""
    game = cardtable.load_game(name)
    state = game.new_game(seed=4, **setup)
    heuristic = heuristic_for(name)
    agent = make_agent("heuristic", game)
    rng = random.Random(4)
    steps = 0
    while not state.is_over and steps < 400:
        seat = state.current_player
        assert seat is not None
        actions = [str(a) for a in state.legal_actions()]
        assert len(heuristic(state.view(seat), actions)) == len(actions)
        state.apply(decide(agent, state, rng))
        steps += 1
    evaluate = evaluator_for(name)
    if evaluate is not None:
        values = evaluate(state.view(None))
        assert len(values) == state.num_players and all(-1.0 <= v <= 1.0 for v in values)
