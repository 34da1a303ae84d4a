"""Termination under the ledger's flag combinations (UTA-R57, UTA-I75), by random playouts.

The full product of the ledger's flags has about 8 * 10**8 members, so it is covered three ways:
every pair of flag values (a covering array, fixed), the full product of the flags that change how
turns can be spent (one game each), and a fresh hypothesis sample of whole configurations per run.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from utahime_helpers import game, random_playout

from cardtable.games.utahime import UtahimeGame
from cardtable.games.utahime.rules import UtahimeRules

VALUES: dict[str, tuple[Any, ...]] = {}
for spec in UtahimeRules.flag_specs():
    if spec.choices is not None:
        VALUES[spec.name] = spec.choices
    elif spec.kind is bool:
        VALUES[spec.name] = (spec.default, not spec.default)
VALUES.update({
    "starting_energy": (0, 3), "energy_cap": (0, 4), "premium_attack_cost": (1, 0, 2), "max_turns": (1000, 60),
    "hand_limit": (10, 4, 15), "cosmic_pool": ("H4,H6,S4,C6,C7,D6", "H4,C7", ""),
    "option_cost_budget": (28, 40), "option_max_copies": (2, 3), "second_player_extra_energy": (0, 2),
    "cards": ("", "scout.cost=1;seer.uses=2;cosmic_h4.pool=0"),  # UTA-I-CT24: a card set's numbers
})
assert set(VALUES) == {s.name for s in UtahimeRules.flag_specs()}
TURN_SHAPING = ("end_on_empty_hand", "empty_hand_joker_rescue", "jqk_set_costs_action", "free_flip_for_energy",
                "option_reusable", "joker_timing", "cosmic_timing", "optional_draws")
NO_OPTIONS_TURN_BOUND = 542  # UTA-I75


def covering_array(seed: int = 0, candidates: int = 40) -> list[dict[str, Any]]:
    """A small set of configurations in which every pair of flag values occurs together."""
    rng = random.Random(seed)
    names = sorted(VALUES)
    uncovered = {((a, va), (b, vb)) for a, b in itertools.combinations(names, 2)
                 for va in VALUES[a] for vb in VALUES[b]}
    rows: list[dict[str, Any]] = []
    while uncovered:
        best: dict[str, Any] = {}
        best_gain = -1
        for _ in range(candidates):
            first = rng.choice(sorted(uncovered, key=repr))
            row = {n: rng.choice(VALUES[n]) for n in names}
            row[first[0][0]], row[first[1][0]] = first[0][1], first[1][1]
            gain = sum(1 for a, b in itertools.combinations(names, 2) if ((a, row[a]), (b, row[b])) in uncovered)
            if gain > best_gain:
                best, best_gain = row, gain
        rows.append(best)
        uncovered -= {((a, best[a]), (b, best[b])) for a, b in itertools.combinations(names, 2)}
    return rows


def playable(row: dict[str, Any]) -> dict[str, Any]:
    """Make a configuration self-consistent (starting energy within the cap)."""
    row = dict(row)
    if row["energy_cap"] and row["starting_energy"] > row["energy_cap"]:
        row["starting_energy"] = row["energy_cap"]
    return row


def check_ends(flags: dict[str, Any], setup: dict[str, Any], seed: int) -> None:
    g = game(**flags)
    s = random_playout(g.new_game(seed=seed, **setup), random.Random(seed), UtahimeGame.termination_bound)
    assert s.outcome() is not None and len(s.history) <= UtahimeGame.termination_bound
    assert s.turn <= flags.get("max_turns", 1000)
    if not setup:
        assert s.turn <= NO_OPTIONS_TURN_BOUND, (flags, seed)


COVER = covering_array()


def test_covering_array_covers_every_pair() -> None:
    names = sorted(VALUES)
    for a, b in itertools.combinations(names, 2):
        seen = {(row[a], row[b]) for row in COVER}
        assert seen == set(itertools.product(VALUES[a], VALUES[b])), (a, b)


@pytest.mark.parametrize("index", range(len(COVER)))
def test_termination_every_pair_of_flag_values(index: int) -> None:
    flags = playable(COVER[index])
    check_ends(flags, {}, seed=index)
    check_ends(flags, {"option_set": "designer_example"}, seed=index)


def test_termination_full_product_of_turn_shaping_flags() -> None:
    for i, values in enumerate(itertools.product(*(VALUES[n] for n in TURN_SHAPING))):
        flags = dict(zip(TURN_SHAPING, values, strict=True))
        check_ends(flags, {"option_set": "designer_example"} if i % 2 else {}, seed=i)


@settings(max_examples=25, deadline=None)
@given(st.fixed_dictionaries({n: st.sampled_from(v) for n, v in VALUES.items()}), st.integers(0, 10**6),
       st.booleans())
def test_termination_sampled_configurations(row: dict[str, Any], seed: int, options: bool) -> None:
    check_ends(playable(row), {"option_set": "designer_example"} if options else {}, seed)


def test_termination_bound_is_justified() -> None:
    from cardtable.games.utahime.game import ACTIONS_PER_TURN_BOUND, MAX_OPTION_CARDS
    from cardtable.games.utahime.rules import MAX_TURNS_CAP

    # per turn: 24 sets + 116 free flips + 2 seats * (40 option cards * 5 + 3 hero uses * 5) + 14 attack decisions
    assert 24 + 116 + 2 * (MAX_OPTION_CARDS * 5 + 3 * 5) + 14 <= ACTIONS_PER_TURN_BOUND
    assert UtahimeGame.termination_bound == 2 + MAX_TURNS_CAP * ACTIONS_PER_TURN_BOUND
