"""Positions that break a rule are refused, and the reason names the rule.

Valid positions come from random games; each "breaker" turns one into a position no game can reach
(an 11-card hand, a cosmic card offered to a full hand, a wished card back in the deck, ...); a
hypothesis property checks that ``from_json`` refuses every one with the breaker's rule id.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from utahime_helpers import P1, P2, build, game, play

from cardtable.core import InvalidPosition
from cardtable.games.utahime.state import UtahimeState

SETUPS = [({}, {}), ({}, {"option_set": "designer_example"}), ({"hand_limit": 8}, {})]
Choose = Callable[[Sequence[Any]], Any]
"""Picks one of a breaker's options (hypothesis draws it; the applicability test picks at random)."""
Breaker = Callable[[dict[str, Any], Choose], str | None]


def _positions() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(flags, position JSON) of every few steps of random games."""
    out = []
    for flags, setup in SETUPS:
        for seed in (1, 2):
            s = game(**flags).new_game(seed=seed, **setup)
            assert isinstance(s, UtahimeState)
            rng = random.Random(seed)
            i = 0
            while not s.is_over:
                if i % 5 == 0:
                    out.append((flags, json.loads(json.dumps(s.to_json()))))
                acts = s.legal_actions()
                s.apply(acts[rng.randrange(len(acts))])
                i += 1
    return out


BASES = _positions()


def _hand_over_limit(data: dict[str, Any], choose: Choose) -> str | None:
    """UTA-R53: deal deck cards into a hand until it holds one more than the limit."""
    pos = data["position"]
    if pos["phase"] == "wish":
        return None
    p = choose([P1, P2])
    player = pos["players"][p]
    limit = data["rules"]["hand_limit"]
    need = limit + 1 - len(player["hand"])
    if need > len(player["deck"]):
        return None
    for _ in range(max(need, 0)):
        player["hand"].append(player["deck"].pop(0))
    return "UTA-R53"


def _end_step_with_full_hand(data: dict[str, Any], choose: Choose) -> str | None:
    """UTA-R52: the end step offering a cosmic card to a hand already at the limit."""
    pos = data["position"]
    if pos["phase"] not in ("main", "post", "end") or pos["heart_next"] or pos["effect"] or pos["draws"]["queue"]:
        return None
    player = pos["players"][pos["attacker"]]
    limit = data["rules"]["hand_limit"]
    need = limit - len(player["hand"])
    if need < 0 or need > len(player["deck"]) or not player["cosmic_pool"]:
        return None
    for _ in range(need):
        player["hand"].append(player["deck"].pop(0))
    pos["phase"] = "end"
    pos["turn_state"]["cosmic_taken"] = False
    return "UTA-R52"


def _wished_card_in_the_deck(data: dict[str, Any], choose: Choose) -> str | None:
    """UTA-R3: after the deal the wished card is never in the deck."""
    pos = data["position"]
    p = choose([P1, P2])
    deck = pos["players"][p]["deck"]
    if pos["phase"] == "wish" or not deck:
        return None
    pos["players"][p]["wished"] = choose(deck)
    return "UTA-R3"


def _set_in_the_opponents_turn(data: dict[str, Any], choose: Choose) -> str | None:
    """UTA-R11: a J/Q/K set in a turn of the other player."""
    pos = data["position"]
    sets = [(p, i) for p in (P1, P2) for i in range(len(pos["players"][p]["set"]))]
    if not sets:
        return None
    p, i = choose(sets)
    entry = pos["players"][p]["set"][i]
    other = [t for t in (entry["turn"] - 1, entry["turn"] + 1) if 1 <= t <= pos["turn"]]
    if not other:
        return None
    entry["turn"] = choose(other)
    return "UTA-R11"


def _main_phase_after_the_attack(data: dict[str, Any], choose: Choose) -> str | None:
    """UTA-R12: one main action per turn; phase main comes before it."""
    pos = data["position"]
    if pos["phase"] != "post":
        return None
    pos["phase"] = "main"
    return "UTA-R12"


def _first_player_against_the_option_costs(data: dict[str, Any], choose: Choose) -> str | None:
    """UTA-R6: the lower option cost goes first."""
    pos = data["position"]
    if data["setup"]["option_set"] == "none":
        return None
    pos["first_player"] = 1 - pos["first_player"]
    return "UTA-R6"


def _wrong_attacker(data: dict[str, Any], choose: Choose) -> str | None:
    """UTA-R9: the first player attacks in odd turns."""
    pos = data["position"]
    if pos["phase"] == "wish":
        return None
    pos["attacker"] = 1 - pos["attacker"]
    return "UTA-R9"


def _remembered_in_hand_but_in_the_deck(data: dict[str, Any], choose: Choose) -> str | None:
    """UTA-I-CT21: a seat remembers a card in the other hand that is in fact still in the deck."""
    pos = data["position"]
    o = choose([P1, P2, 2])
    p = choose([q for q in (P1, P2) if q != o])
    deck = pos["players"][p]["deck"]
    if not deck:
        return None
    card = choose(deck)
    pos["memory"][o].append({"card": card, "player": p, "where": choose(["hand", "hand_or_pile"]),
                             "set": 0, "since": 0})
    return "UTA-I-CT21"


def _remembered_face_down_but_in_hand(data: dict[str, Any], choose: Choose) -> str | None:
    """UTA-I-CT21: a seat remembers a face-down discard that is in fact in the hand."""
    pos = data["position"]
    o = choose([P1, P2])
    p = 1 - o
    known = {m["card"] for m in pos["memory"][o]}
    hand = [c for c in pos["players"][p]["hand"] if c not in known]
    if not hand:
        return None
    pos["memory"][o].append({"card": choose(hand), "player": p,
                             "where": choose(["pile", "discard"]), "set": 0, "since": 0})
    return "UTA-I-CT21"


def _heart_next_price_not_a_heart(data: dict[str, Any], choose: Choose) -> str | None:
    """UTA-R51: ♥NEXT's price is a heart, face down."""
    pos = data["position"]
    entries = [(p, i) for p in (P1, P2) for i, e in enumerate(pos["players"][p]["discard"])
               if e["face_up"] or not e["card"].lstrip("~").startswith("H")]
    if not entries:
        return None
    p, i = choose(entries)
    pos["players"][p]["discard"][i]["heart_next_cost"] = True
    return "UTA-R51"


def _target_without_a_look(data: dict[str, Any], choose: Choose) -> str | None:
    """UTA-R24: the attacker chooses from a hand it sees."""
    pos = data["position"]
    if pos["phase"] != "target":
        return None
    pos["turn_state"]["look"] = None
    return "UTA-R24"


def _a_card_twice(data: dict[str, Any], choose: Choose) -> str | None:
    """UTA-R1: each card exists once."""
    pos = data["position"]
    p = choose([P1, P2])
    player = pos["players"][p]
    if not player["deck"] or not player["hand"]:
        return None
    player["deck"][0] = choose(player["hand"])
    return "UTA-R1"


def _cosmic_card_in_a_deck(data: dict[str, Any], choose: Choose) -> str | None:
    """UTA-I9: cosmic cards are extra copies outside the deck."""
    pos = data["position"]
    p = choose([P1, P2])
    player = pos["players"][p]
    if not player["cosmic_pool"]:
        return None
    player["deck"].insert(choose(range(len(player["deck"]) + 1)), player["cosmic_pool"].pop())
    return "UTA-I9"


def _negative_energy(data: dict[str, Any], choose: Choose) -> str | None:
    """UTA-R40: energy never goes below 0."""
    p = choose([P1, P2])
    data["position"]["players"][p]["energy"] = choose(range(-5, 0))
    return "UTA-R40"


BREAKERS: list[Breaker] = [
    _hand_over_limit, _end_step_with_full_hand, _wished_card_in_the_deck, _set_in_the_opponents_turn,
    _main_phase_after_the_attack, _first_player_against_the_option_costs, _wrong_attacker,
    _remembered_in_hand_but_in_the_deck, _remembered_face_down_but_in_hand, _heart_next_price_not_a_heart,
    _target_without_a_look, _a_card_twice, _cosmic_card_in_a_deck, _negative_energy,
]


def test_every_base_position_is_valid() -> None:
    for flags, data in BASES:
        game(**flags).from_json(copy.deepcopy(data))
    phases = {data["position"]["phase"] for _, data in BASES}
    assert {"main", "post", "target", "end", "block"} <= phases


@pytest.mark.parametrize("breaker", BREAKERS, ids=lambda b: b.__name__.strip("_"))
def test_each_breaker_applies_to_some_random_position(breaker: Breaker) -> None:
    rng = random.Random(0)
    hits = 0
    for _, base in BASES:
        broken = copy.deepcopy(base)
        hits += breaker(broken, rng.choice) is not None
    assert hits > 0, f"{breaker.__name__} never applies; the property below would not test it"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.data())
def test_positions_that_break_a_rule_are_refused_with_its_rule_id(data: st.DataObject) -> None:
    breaker = data.draw(st.sampled_from(BREAKERS))
    flags, base = BASES[data.draw(st.integers(0, len(BASES) - 1))]
    broken = copy.deepcopy(base)
    rule = breaker(broken, lambda options: data.draw(st.sampled_from(list(options))))
    if rule is None:
        return
    with pytest.raises(InvalidPosition) as refused:
        game(**flags).from_json(broken)
    assert refused.value.reason.startswith(rule + ":"), (breaker.__name__, refused.value.reason)


def test_uta_r53_an_eleven_card_hand_is_refused() -> None:
    s = build(3, P1, hands=(["S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "SJ"], ["D2"]))
    data = s.to_json()
    data["position"]["players"][P1]["hand"].append(data["position"]["players"][P1]["deck"].pop(0))
    with pytest.raises(InvalidPosition, match="UTA-R53: P1's hand holds 11 cards; the hand limit is 10"):
        game().from_json(data)


def test_uta_r52_an_end_step_whose_cosmic_card_would_make_eleven_is_refused() -> None:
    s = build(3, P1, hands=(["S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "SJ"], ["D2"]),
              discards=(["H2"], []))
    data = s.to_json()
    data["position"]["phase"] = "end"
    with pytest.raises(InvalidPosition, match="UTA-R52"):
        game().from_json(data)
    play(s, "pass H2")  # a real pass with a full hand skips the end step (UTA-R52)
    assert s.turn == 4


def test_uta_i_ct21_memory_survives_the_position_json_and_is_checked() -> None:
    s = build(3, P1, hands=(["S9"], ["C4", "D8"]))
    play(s, "attack S9", "noblock", "noreact", "take C4")
    data = json.loads(json.dumps(s.to_json()))
    assert {"card": "C4", "player": P2, "where": "discard", "set": 0, "since": 0} in data["position"]["memory"][P1]
    assert game().from_json(data).view(P1) == s.view(P1)
    data["position"]["memory"][P1][0]["player"] = P1
    with pytest.raises(InvalidPosition, match="UTA-I-CT21"):
        game().from_json(data)
