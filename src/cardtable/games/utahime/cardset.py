"""Utahime's numbers as a card set (``cardtable cards export utahime``): energy, premium attacks, Aces,
the option budget, the hand limit, and the seat compensation designers try (the second player's extra energy).

Each number is a rule flag (the set writes it there), so records, rooms and lab runs carry it and the engine
reads it at run time; the cosmic pool is the ``cosmic_pool`` flag under the set's ``[rules]``. The energy
gains of attacks (UTA-R41) and the option cards' own costs (in their option-set file, UTA-I4) are shown
for reference and fixed in this version.

>>> SPEC.number("options.budget").flag
'option_cost_budget'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardtable.core.cardset import CardSetSpec, Item, Number

from .options import MAX_HERO_USES

ITEMS: tuple[Item, ...] = (
    Item("energy", "エネルギー", "Energy", "UTA-R40", kind="component"),
    Item("attack", "アタックのエネルギー", "Energy from attacks", "UTA-R41", kind="component"),
    Item("premium_attack", "A・J・Q・Kのアタック", "Premium attack (A, J, Q, K)", "UTA-R42", kind="component"),
    Item("ace", "エース", "Ace", "UTA-R7", kind="component"),
    Item("hand", "手札", "Hand", "UTA-R53", kind="component"),
    Item("options", "オプションカード", "Option cards", "UTA-R2", kind="component"),
    Item("hero", "ヒーローカード", "Hero cards", "UTA-R47", kind="component"),
)

NUMBERS: tuple[Number, ...] = (
    Number("energy", "start", 0, 0, 20, "UTA-R40", flag="starting_energy", doc="each player's energy at the start"),
    Number("energy", "second_player_bonus", 0, 0, 20, "UTA-R40", flag="second_player_extra_energy",
           doc="extra energy for the player who moves second (a seat compensation)"),
    Number("energy", "cap", 0, 0, 20, "UTA-I48", flag="energy_cap", doc="the most energy a player holds (0: no cap)"),
    Number("attack", "low_gain", 1, 1, 1, "UTA-R41", fixed=True, doc="attacker's energy from a 2-4 attack"),
    Number("attack", "low_drain", 1, 1, 1, "UTA-R41", fixed=True, doc="defender's energy lost to a 2-4 attack"),
    Number("attack", "mid_gain", 1, 1, 1, "UTA-R41", fixed=True, doc="attacker's energy from a 5-7 attack"),
    Number("premium_attack", "cost", 1, 0, 20, "UTA-R42", flag="premium_attack_cost",
           doc="energy paid to attack with an A, J, Q or K"),
    Number("ace", "value", 1, 1, 14, "UTA-R7", flag="ace_value", doc="an Ace's number in blocks: 1 or 14"),
    Number("hand", "limit", 10, 1, 20, "UTA-R53", flag="hand_limit", doc="the most cards in a hand"),
    Number("options", "budget", 28, 0, 200, "UTA-R2", flag="option_cost_budget",
           doc="the most total cost of one player's option cards"),
    Number("options", "copies", 2, 0, 12, "UTA-R2", flag="option_max_copies", doc="option cards of one name"),
    Number("hero", "max_uses", MAX_HERO_USES, MAX_HERO_USES, MAX_HERO_USES, "UTA-R47", fixed=True,
           doc="the most uses a hero card may have"),
)


def _check(values: Mapping[str, int], flags: Mapping[str, Any]) -> list[str]:
    """UTA-I48: a starting energy above the cap would be cut at once."""
    cap = values["energy.cap"]
    if cap and values["energy.start"] + values["energy.second_player_bonus"] > cap:
        return [f"energy.start + energy.second_player_bonus ({values['energy.start']} + "
                f"{values['energy.second_player_bonus']}) is above energy.cap {cap} (UTA-I48)"]
    return []


SPEC = CardSetSpec("utahime", ITEMS, NUMBERS, cards_flag="", check=_check)
"""Utahime's card-set spec (the ``cardset`` facet)."""
