"""Oscilloscope's numbers as a card set (``cardtable cards export oscilloscope``): the decks' composition
(OSC rulebook §2.1) and the numbers of the rule flags a designer tunes.

A changed composition travels in the ``cards`` rule flag (OSC-I-CT15) as ``type.deck=copies;...``, only
the counts that differ from the rulebook's; the engine deals, checks card conservation and samples hidden
cards from :func:`composition` of that flag. A composition keeps the box's cards: each deck keeps its size
(the pulse deck 70, the trigger deck 40; copies move between the types of one deck), the trigger deck holds
only cards that can be triggers, the pulse deck only pulse cards, the trains of the setup can always be
built (OSC-I9), and there are at least as many noise cards as the noise that ends a game (OSC-I49).

>>> sum(n.default for n in SPEC.numbers if n.field in ("pulse_deck", "trigger_deck"))
110
>>> composition("noise.pulse_deck=12;lh.pulse_deck=23").totals["NOISE"]
12
>>> composition("noise.pulse_deck=12")
Traceback (most recent call last):
...
ValueError: card set: the pulse deck holds 67 cards (noise.pulse_deck 15 -> 12), not the rulebook's 70 (OSC-R1, card conservation): move copies between its types
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cardtable.core.cardset import CardSetSpec, Item, Number, decode_changes, encode_changes

from .cards import CARD_TYPES, IS_PULSE_TYPE, IS_TRIGGER_DECK_KIND, POSITIONS, Card

__all__ = ["SPEC", "TEXT_EN", "TEXT_JA", "Composition", "canonical_cards", "composition", "composition_problems"]

PULSE_SIZE = sum(t.pulse_deck for t in CARD_TYPES)
"""The pulse deck's 70 cards (OSC-R1)."""
TRIGGER_SIZE = sum(t.trigger_deck for t in CARD_TYPES)
"""The trigger deck's 40 cards (OSC-R1)."""
MOST_TRAINS = 6
"""The most trains a game builds (six players, OSC-I51): the setup takes up to 6 x 5 pulse cards."""

TEXT_JA: dict[str, str] = {
    "hl": "左上から直角に降りて右下に続く。線が左から右に繋がるように置く。",
    "lh": "左下から直角に昇り右上に続く。線が左から右に繋がるように置く。",
    "loh": "横に一直線。トリガーとして置く事もできる。同じ行であれば複数枚置く事ができる。",
    "noise": "トリガーカードが有る時点でその列のトリガー条件は満たしているものとする。"
             "(ノイズカード − クリアカード) × 1.5 点のマイナス。",
    "clear": "トリガーとして置く。取得カードの中にノイズカードがあれば一緒に得点札となる。"
             "既に置かれているトリガーカードの上に置くことはできない。",
    "t_hl": "左上から斜めに降りて右下に続く。トリガー位置のパルスカードがトリガーと同一であれば"
            "その行のパルスカードを全て取得する。",
    "t_lh": "左下から斜めに昇り右上に続く。トリガー位置のパルスカードがトリガーと同一であれば"
            "その行のパルスカードを全て取得する。",
    "t_both": "左上から斜めに降りて右下に、左下から斜めに昇り右上に続く。条件を満たせばその行のパルスカードを全て取得する。",
}
"""Each card type in the designer's own words (the seed's card table and rules), for printing and the export."""

TEXT_EN: dict[str, str] = {
    "hl": "Steps down from the upper left to the lower right. Place it so the line joins from left to right.",
    "lh": "Steps up from the lower left to the upper right. Place it so the line joins from left to right.",
    "loh": "One straight line. It may also be placed as a trigger, several in one position.",
    "noise": "Satisfies the trigger of its train as soon as a trigger is out. Minus (noise − clear) × 1.5 points.",
    "clear": "Placed as a trigger. A noise in the captured cards scores with it. Never placed on a trigger "
             "already out.",
    "t_hl": "Slopes down from the upper left to the lower right. When the pulse card at the trigger matches, "
            "take every pulse card of that position.",
    "t_lh": "Slopes up from the lower left to the upper right. When the pulse card at the trigger matches, "
            "take every pulse card of that position.",
    "t_both": "Both slopes, an X. When the pulse card at the trigger matches either, take every pulse card of "
              "that position.",
}
"""The same in English."""

ITEMS: tuple[Item, ...] = (
    *(Item(t.token.lower(), t.seed_name, t.english, "OSC-R1") for t in CARD_TYPES),
    Item("trigger", "トリガー", "Trigger", "OSC-I19", kind="component"),
    Item("noise", "ノイズ", "Noise", "OSC-I49", kind="component"),
    Item("stall", "停滞", "Stall", "OSC-I67", kind="component"),
)

NUMBERS: tuple[Number, ...] = (
    *(n for t in CARD_TYPES for n in (
        Number(t.token.lower(), "pulse_deck", t.pulse_deck, 0, PULSE_SIZE if IS_PULSE_TYPE[t.card] else 0, "OSC-R1",
               doc="copies in the pulse deck" if IS_PULSE_TYPE[t.card] else "copies in the pulse deck (pulse cards only)"),
        Number(t.token.lower(), "trigger_deck", t.trigger_deck, 0, TRIGGER_SIZE if IS_TRIGGER_DECK_KIND[t.card] else 0,
               "OSC-R1", doc="copies in the trigger deck" if IS_TRIGGER_DECK_KIND[t.card]
               else "copies in the trigger deck (trigger cards only)"),
    )),
    Number("trigger", "move_range", 1, 1, 4, "OSC-I19", flag="trigger_move_range", doc="how far a trigger moves"),
    Number("noise", "limit", 10, 1, 15, "OSC-I49", flag="mp_noise_limit", doc="the noise count that ends a set"),
    Number("stall", "limit_sets", 20, 1, 100, "OSC-I67", flag="stall_limit_sets", doc="sets before a stall ends the game"),
)


def composition_problems(values: Mapping[str, int], noise_limit: int | None = None) -> list[str]:
    """What a composition breaks: each deck's size (card conservation), building the trains, the noise end."""
    problems: list[str] = []
    pulse = {t.card: values[f"{t.token.lower()}.pulse_deck"] for t in CARD_TYPES}
    trigger = {t.card: values[f"{t.token.lower()}.trigger_deck"] for t in CARD_TYPES}
    for name, deck, size in (("pulse", pulse, PULSE_SIZE), ("trigger", trigger, TRIGGER_SIZE)):
        held = sum(deck.values())
        if held != size:
            moved = ", ".join(f"{t.token.lower()}.{name}_deck {getattr(t, name + '_deck')} -> {deck[t.card]}"
                              for t in CARD_TYPES if deck[t.card] != getattr(t, name + "_deck"))
            problems.append(f"the {name} deck holds {held} cards ({moved}), not the rulebook's {size} (OSC-R1, card "
                            "conservation): move copies between its types")
    always = pulse[Card.LOH] + pulse[Card.NOISE]
    if always + min(pulse[Card.HL], pulse[Card.LH]) < MOST_TRAINS * POSITIONS:
        problems.append(f"the pulse deck's Low or Hi and noise cards ({always}) and the fewer of its edges "
                        f"({min(pulse[Card.HL], pulse[Card.LH])}) add up to less than {MOST_TRAINS * POSITIONS}: "
                        "the setup could not always build six trains of five (OSC-R3, OSC-I9)")
    noise = pulse[Card.NOISE] + trigger[Card.NOISE]
    limit = values.get("noise.limit", 10) if noise_limit is None else noise_limit
    if noise < limit:
        problems.append(f"noise.limit (Noise, OSC-I49): {limit} is above the {noise} noise cards of the decks: "
                        "the noise end could never come")
    return problems


def _check(values: Mapping[str, int], flags: Mapping[str, Any]) -> list[str]:
    """Card conservation (each deck keeps its size), the trains of the setup, the noise end."""
    return composition_problems(values)


SPEC = CardSetSpec("oscilloscope", ITEMS, NUMBERS, cards_flag="cards", check=_check,
                   texts={"ja": TEXT_JA, "en": TEXT_EN})
"""Oscilloscope's card-set spec (the ``cardset`` facet)."""


@dataclass(frozen=True, slots=True)
class Composition:
    """The decks a set deals, as tuples of card values in the rulebook's order, and every type's copies."""

    pulse: tuple[int, ...]
    trigger: tuple[int, ...]
    totals: Counter[str]
    """Copies of each type by token (what every position's zones add up to)."""


@lru_cache(maxsize=64)
def composition(text: str, noise_limit: int = 1) -> Composition:
    """The decks of a ``cards`` flag (ValueError naming the card and the rule, as :func:`composition_problems`)."""
    values = SPEC.defaults()
    values.update(decode_changes(SPEC, text))
    problems = composition_problems(values, noise_limit)
    if problems:
        raise ValueError(f"card set: {'; '.join(problems)}")
    pulse = tuple(int(t.card) for t in CARD_TYPES for _ in range(values[f"{t.token.lower()}.pulse_deck"]))
    trigger = tuple(int(t.card) for t in CARD_TYPES for _ in range(values[f"{t.token.lower()}.trigger_deck"]))
    totals = Counter({t.token: values[f"{t.token.lower()}.pulse_deck"] + values[f"{t.token.lower()}.trigger_deck"]
                      for t in CARD_TYPES})
    return Composition(pulse, trigger, totals)


def canonical_cards(text: str) -> str:
    """The ``cards`` flag's one spelling: the counts that differ from the rulebook's, sorted."""
    defaults = SPEC.defaults()
    return encode_changes({k: v for k, v in decode_changes(SPEC, text).items() if defaults[k] != v})
