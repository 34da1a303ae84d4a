"""Positions that break a rule are refused, naming the rule.

``from_json`` checks what every reachable position obeys. Hypothesis takes valid positions from
random games (every conformance case, every phase), breaks one rule in each, and checks that the
``InvalidPosition`` reason names that rule's id; the unbroken positions all load.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.core import InvalidPosition
from cardtable.games.zeta import ZetaGame
from cardtable.games.zeta.cards import CARD_BY_ID, CARDS

CASES = [*ZetaGame.conformance_cases(), ({}, {"decks": ["arcana", "control"]})]
SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
Doc = dict[str, Any]


class Chooser:
    """The choices a mutation makes: drawn by hypothesis (``data``) or by a seeded RNG."""

    def __init__(self, data: st.DataObject | None = None, rng: random.Random | None = None) -> None:
        self.data = data
        self.rng = rng or random.Random(0)

    def choice(self, items: list[Any]) -> Any:
        """One of ``items``."""
        if self.data is not None:
            return self.data.draw(st.sampled_from(items))
        return self.rng.choice(items)

    def integer(self, lo: int, hi: int) -> int:
        """An integer in ``[lo, hi]``."""
        if self.data is not None:
            return int(self.data.draw(st.integers(lo, hi)))
        return self.rng.randint(lo, hi)


Draw = Chooser
"""What a mutation draws its choices from."""


@cache
def pool() -> tuple[Doc, ...]:
    """Positions of random games: every 3rd step of two games per case, then up to 6 of each rarer kind."""
    out: list[Doc] = []
    wanted = dict.fromkeys(("mulligan", "do_over", "fortune", "target", "mourn", "line", "known", "four_in_a_row",
                            "board_full", "deck_out"), 6)
    for seed in range(1, 3000):
        for flags, setup in CASES:
            state = cardtable.load_game("zeta", **flags).new_game(seed=seed, **setup)
            rng = random.Random(seed)
            step = 0
            while True:
                doc = state.to_json()
                pos = doc["position"]
                kinds = {pos["phase"], *(["known"] if any(pos["known_hands"]) else [])}
                if pos["outcome"]:
                    kinds.add(pos["outcome"]["reason"])
                rare = [k for k in kinds if wanted.get(k)]
                if (seed <= 2 and step % 3 == 0) or rare:
                    out.append(doc)
                    for k in rare:
                        wanted[k] -= 1
                if state.is_over:
                    break
                actions = state.legal_actions()
                state.apply(actions[rng.randrange(len(actions))])
                step += 1
        if seed >= 2 and not any(wanted.values()):
            break
    assert not any(wanted.values()), f"random games reached too few of {wanted}"
    return tuple(out)


def _turn_of(pos: Doc, turn: int) -> int:
    first = int(pos["first_player"])
    return first if turn % 2 else 1 - first


def _sorted_ids(ids: list[str]) -> list[str]:
    return sorted(ids, key=lambda c: CARD_BY_ID[c].index)


def _empty_squares(doc: Doc) -> list[str]:
    width, height = doc["rules"]["board_width"], doc["rules"]["board_height"]
    pos = doc["position"]
    return [f"{'abcdef'[f]}{r + 1}" for r in range(height) for f in range(width)
            if f"{'abcdef'[f]}{r + 1}" not in pos["board"] and f"{'abcdef'[f]}{r + 1}" not in pos["blocked"]]


# Each mutation breaks one rule of a valid document in place and returns that rule's id, or None
# when it does not apply to this document (then the document is left as it was).
def known_card_not_in_hand(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    p = draw.choice([0, 1])
    c = draw.choice([c.id for c in CARDS])
    if pos["known_hands"][p].count(c) < pos["hands"][p].count(c):
        return None
    pos["known_hands"][p] = _sorted_ids([*pos["known_hands"][p], c])
    return "ZETA-I-CT6"


def card_from_nowhere(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    p = draw.choice([0, 1])
    pos["decks"][p].insert(draw.integer(0, len(pos["decks"][p])), draw.choice([c.id for c in CARDS]))
    pos["deck_sizes"][p] += 1
    return "ZETA-R2"


def card_lost(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    p = draw.choice([0, 1])
    if not pos["decks"][p]:
        return None
    pos["decks"][p].pop(draw.integer(0, len(pos["decks"][p]) - 1))
    pos["deck_sizes"][p] -= 1
    return "ZETA-R2"


def marker_without_destruction(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    p = draw.choice([0, 1])
    free = [sq for sq in _empty_squares(doc) if sq not in pos["ever_destroyed"][p]]
    if not free:
        return None
    pos["markers"][draw.choice(free)] = p
    return "ZETA-R25"


def marker_under_a_card(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    if not pos["board"]:
        return None
    pos["markers"][draw.choice(sorted(pos["board"]))] = draw.choice([0, 1])
    return "ZETA-R25"


def blocked_square_with_a_card(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    if not pos["board"]:
        return None
    pos["blocked"].append(draw.choice(sorted(pos["board"])))
    return "ZETA-R50"


def effect_for_the_wrong_seat(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    key = draw.choice(sorted(pos["effects"]))
    p = draw.choice([0, 1])
    turn = pos["turn"] + draw.integer(0, 1)
    if _turn_of(pos, turn) == p:
        turn += 1 if turn == pos["turn"] else -1
    pos["effects"][key][p] = turn
    return "ZETA-R34"


def effect_too_far_ahead(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    key = draw.choice(sorted(pos["effects"]))
    p = draw.choice([0, 1])
    turn = pos["turn"] + (3 if key == "broom" else 2)
    turn += 0 if _turn_of(pos, turn) == p else 1
    pos["effects"][key][p] = turn + 2 * draw.integer(0, 3)
    return "ZETA-R34"


def wrong_turn_order(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    pos["active"] = 1 - pos["active"]
    return "ZETA-R5"


def outcome_given_to_the_loser(doc: Doc, draw: Draw) -> str | None:
    out = doc["position"]["outcome"]
    if out is None or out["reason"] not in ("four_in_a_row", "board_full", "deck_out"):
        return None
    out["winners"] = [1 - out["winners"][0]]
    return {"four_in_a_row": "ZETA-R20", "board_full": "ZETA-R22", "deck_out": "ZETA-R23"}[out["reason"]]


def board_full_on_a_board_with_room(doc: Doc, draw: Draw) -> str | None:
    out = doc["position"]["outcome"]
    if out is None or out["reason"] in ("board_full", "board_full_tie") or not _empty_squares(doc):
        return None
    out.update(reason="board_full", rule="ZETA-R22")
    return "ZETA-R22"


def deck_out_with_cards_left(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    out = pos["outcome"]
    if out is None or not out["winners"] or not pos["decks"][1 - out["winners"][0]]:
        return None
    out.update(reason=draw.choice(["deck_out", "empty_deck_draw"]), rule="ZETA-R23")
    return "ZETA-R23"


def mulligan_after_turn_one(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    if pos["phase"] != "mulligan":
        return None
    pos["turn"] += 2 * draw.integer(1, 5)
    return "ZETA-R11"


def mulligan_with_another_hand_size(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    if pos["phase"] != "mulligan":
        return None
    p = draw.choice([0, 1])
    pos["hands"][p] = _sorted_ids([*pos["hands"][p], pos["decks"][p].pop()])
    pos["hand_sizes"][p] += 1
    pos["deck_sizes"][p] -= 1
    return "ZETA-R9"


def target_left_out(doc: Doc, draw: Draw) -> str | None:
    pending = doc["position"]["pending"]
    if doc["position"]["phase"] != "target" or len(pending["targets"]) < 2:
        return None
    pending["targets"].pop(draw.integer(0, len(pending["targets"]) - 1))
    return str(CARD_BY_ID[pending["source"]].rule)


def decision_for_the_other_seat(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    if pos["pending"] is None:
        return None
    pos["decider"] = 1 - pos["decider"]
    if pos["phase"] == "fortune":
        return "ZETA-R39"  # the drawn cards are not in the other seat's hand
    if pos["phase"] == "target" and doc["rules"]["targeted_destroy_scope"] == "opponent_only":
        return "ZETA-R30"
    return "ZETA-R30"


def decision_without_its_placement(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    if pos["pending"] is None:
        return None
    pos["resolution"] = []
    return "ZETA-R18"


def mourning_with_too_few_destroyed(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    if pos["phase"] != "mourn":
        return None
    p = pos["decider"]
    if doc["rules"]["mourning_count_scope"] == "board_only":
        pos["destroyed_from_board"][p] = draw.integer(0, 4)
        return "ZETA-R57"
    while len(pos["destroyed"][p]) >= 5:
        pos["decks"][p].append(pos["destroyed"][p].pop())
        pos["deck_sizes"][p] += 1
    pos["destroyed_from_board"][p] = min(pos["destroyed_from_board"][p], len(pos["destroyed"][p]))
    return "ZETA-R57"


def line_left_out(doc: Doc, draw: Draw) -> str | None:
    pending = doc["position"]["pending"]
    if doc["position"]["phase"] != "line":
        return None
    pending["lines"].pop(draw.integer(0, len(pending["lines"]) - 1))
    return "ZETA-R59"


def fortune_drew_two_of_a_kind(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    if pos["phase"] != "fortune":
        return None
    a = pos["pending"]["drawn"][draw.integer(0, 1)]
    pos["pending"]["drawn"] = [a, a]
    return "ZETA-I-CT4" if pos["hands"][pos["decider"]].count(a) >= 2 else "ZETA-R39"


def set_aside_between_actions(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    deck = pos["decks"][pos["active"]]
    if pos["outcome"] is not None or pos["set_aside"] is not None or not deck:
        return None
    pos["set_aside"] = deck.pop(draw.integer(0, len(deck) - 1))
    pos["deck_sizes"][pos["active"]] -= 1
    return "ZETA-R45"


def more_board_destructions_than_destroyed_cards(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    p = draw.choice([0, 1])
    pos["destroyed_from_board"][p] = len(pos["destroyed"][p]) + draw.integer(1, 3)
    return "ZETA-R27"


def finished_game_still_playing(doc: Doc, draw: Draw) -> str | None:
    pos = doc["position"]
    if pos["outcome"] is None:
        return None
    pos["phase"] = "main"
    return "ZETA-R24"


MUTATIONS: tuple[Callable[[Doc, Draw], str | None], ...] = (
    known_card_not_in_hand, card_from_nowhere, card_lost, marker_without_destruction, marker_under_a_card,
    blocked_square_with_a_card, effect_for_the_wrong_seat, effect_too_far_ahead, wrong_turn_order,
    outcome_given_to_the_loser, board_full_on_a_board_with_room, deck_out_with_cards_left, mulligan_after_turn_one,
    mulligan_with_another_hand_size, target_left_out, decision_for_the_other_seat, decision_without_its_placement,
    mourning_with_too_few_destroyed, line_left_out, fortune_drew_two_of_a_kind, set_aside_between_actions,
    more_board_destructions_than_destroyed_cards, finished_game_still_playing,
)


def test_every_position_of_the_pool_loads() -> None:
    for doc in pool():
        game = cardtable.load_game("zeta", **doc["rules"])
        assert game.from_json(copy.deepcopy(doc)).to_json() == doc


@SETTINGS
@given(index=st.integers(min_value=0), mutation=st.sampled_from(MUTATIONS), data=st.data())
def test_a_position_that_breaks_a_rule_is_refused_with_the_rule_id(
        index: int, mutation: Callable[[Doc, Draw], str | None], data: st.DataObject) -> None:
    docs = pool()
    doc = copy.deepcopy(docs[index % len(docs)])
    rule = mutation(doc, Chooser(data))
    if rule is None:
        return
    game = cardtable.load_game("zeta", **doc["rules"])
    with pytest.raises(InvalidPosition) as info:
        game.from_json(doc)
    assert re.search(rf"\b{re.escape(rule)}\b", info.value.reason), (mutation.__name__, rule, str(info.value))


@pytest.mark.parametrize("mutation", MUTATIONS, ids=[m.__name__ for m in MUTATIONS])
def test_every_mutation_applies_to_some_positions(mutation: Callable[[Doc, Draw], str | None]) -> None:
    """Each broken-rule kind is exercised on every pool position it applies to (seeded choices)."""
    applied = 0
    for i, doc in enumerate(pool()):
        trial = copy.deepcopy(doc)
        rule = mutation(trial, Chooser(rng=random.Random(i)))
        if rule is None:
            continue
        applied += 1
        game = cardtable.load_game("zeta", **trial["rules"])
        with pytest.raises(InvalidPosition) as info:
            game.from_json(trial)
        assert re.search(rf"\b{re.escape(rule)}\b", info.value.reason), (i, rule, str(info.value))
    assert applied, f"no position of the pool takes {mutation.__name__}"
