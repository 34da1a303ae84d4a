"""Zeta's numbers as a card set (``cardtable cards export zeta``): every card's cost, copy limit and effect numbers.

The engine reads them at run time from :func:`card_numbers` of the rules' ``cards`` flag (the numbers
that differ from the rulebook's, ``item.field=value;...``), so a card set changes play with no edit of
the compiled modules. The default set is the rulebook's (``ZETA-R36``..``R60``, deck rules ``R6``, the
deal ``R9``), and with it every table below equals the module constants of :mod:`.cards`.

>>> card_numbers("").costs == tuple(c.cost for c in CARDS)
True
>>> card_numbers("ice_mage.cost=6").costs[7]  # Ice Mage
6
>>> card_numbers("ice_mage.cost=99")
Traceback (most recent call last):
...
ValueError: card set: ice_mage.cost (Ice Mage, ZETA-R14): 99 is above the largest allowed value 36
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cardtable.core.cardset import CardSetSpec, Item, Number, decode_changes, encode_changes

from .cards import CARDS, NUM_TYPES

__all__ = ["SPEC", "ZetaNumbers", "canonical_cards", "card_numbers"]

MAX_COST_ALLOWED = 36
"""No cost above the squares of the largest board (a cost is compared with the cards on the board, ZETA-R14)."""

TEXT_JA: dict[str, str] = {
    "chant_practice": "効果なし",
    "blessing_mist": "自分と相手はそれぞれのデッキからカードを1枚ずつ引く",
    "do_over": "手札の1枚を選んで破壊し、カードを1枚引く",
    "fortune_telling": "カード2枚引く。どちらか一方を破壊する",
    "magic_circle": "自分のカードをこのカードの上下左右に置いたとき、カードを1枚引く",
    "magical_boost": "カードを1枚引く",
    "fire_mage": "上下に隣接するカードのうち1枚を破壊できる",
    "ice_mage": "左右に隣接するカードのうち1枚を破壊できる",
    "apprentice_hexer": "相手の手札が4枚以上なら、相手のファンファーレ効果が1ターンだけ無効になる",
    "wind_mage": "すでに自分のカードが置かれたマス(または破壊された自分のカードがあった空きマス)にのみ置ける。"
                 "ファンファーレ:置かれていた元のカードを手札に戻す",
    "great_magic_circle": "自分のカードをこのカードの「斜め」に置いたとき、相手の手札にあるカードをランダムに最大3枚破壊する",
    "hexer": "相手のファンファーレ効果が1ターンだけ無効になる",
    "awakening_potion": "カードを2枚引く。相手の手札からランダムに最大2枚を破壊する",
    "magic_broom": "自分は次のターンのみ、盤面に関わらずコスト10以下のカードを使うことができる",
    "light_mage": "斜めに隣接するカードのうち1枚を破壊できる。破壊した場合、バトル終了時までそのマスにはどちら側のカードも置けない",
    "astrology": "中央4マスのいずれか1枚を破壊できる",
    "thunder_mage": "盤面にある自分のカード(このカードを含まない)が相手のそれより少ないなら、盤上の任意のカード1枚を破壊できる",
    "earth_mage": "相手は次のターンのみ、コスト0のカードしか置けない",
    "barrier": "このカードは盤上で破壊されない",
    "blaze_sorcerer": "上下左右・斜めに隣接するカードのうち1枚を破壊できる",
    "burst_circle": "このカードの「斜め」にどちらかがカードを置いたとき、このカードおよびそれに隣接する上下左右のカードすべては破壊される",
    "mourning_the_dead": "破壊された自分のカードが5枚以上なら、手札にあるコスト0のカードを1枚盤におくことができる(ファンファーレ効果あり)",
    "dark_mage": "自他問わず、上下左右に隣接するすべてのカードを破壊する",
    "single_arrow_summon": "すべてのマスがカードで埋まっている行または列があるなら、それ(らのうち1行/1列)にあるカードをすべて破壊する",
    "ultimate_zero": "お互いの手札の枚数を0にする",
}
"""Each card's effect in the designer's own words (the seed's card list)."""

# The effect numbers the engine reads from the set: (card, field, rulebook value, least, most, rule, meaning).
_EFFECTS: tuple[tuple[str, str, int, int, int, str, str, bool], ...] = (
    ("blessing_mist", "draw", 1, 0, 10, "ZETA-R37", "cards each player draws", False),
    ("do_over", "draw", 1, 0, 10, "ZETA-R38", "cards drawn after the destroy", False),
    ("fortune_telling", "draw", 2, 2, 10, "ZETA-R39", "cards drawn (one of them is destroyed)", False),
    ("magic_circle", "draw", 1, 0, 10, "ZETA-R40", "cards drawn per circle and placement", False),
    ("magical_boost", "draw", 1, 0, 10, "ZETA-R41", "cards drawn", False),
    ("apprentice_hexer", "hand", 4, 0, 60, "ZETA-R44", "the opponent's hand size that triggers it", False),
    ("great_magic_circle", "destroy", 3, 0, 60, "ZETA-R46", "random cards destroyed from the opponent's hand", False),
    ("awakening_potion", "draw", 2, 0, 10, "ZETA-R48", "cards drawn", False),
    ("awakening_potion", "destroy", 2, 0, 60, "ZETA-R48", "random cards destroyed from the opponent's hand", False),
    ("magic_broom", "cap", 10, 0, 36, "ZETA-R49", "the cost cap of your next turn", False),
    ("mourning_the_dead", "destroyed", 5, 0, 60, "ZETA-R57", "your destroyed cards it needs", False),
)

ITEMS: tuple[Item, ...] = (
    *(Item(c.id, c.japanese, c.english, c.rule) for c in CARDS),
    Item("deck", "デッキ", "Deck", "ZETA-R6", kind="component"),
    Item("hand", "初期手札", "Starting hand", "ZETA-R9", kind="component"),
)

NUMBERS: tuple[Number, ...] = (
    *(n for c in CARDS for n in (
        Number(c.id, "cost", c.cost, 0, MAX_COST_ALLOWED, "ZETA-R14", doc="placed when the board holds this many cards"),
        Number(c.id, "limit", c.limit, 0, 25, "ZETA-R6", doc="copies a deck may hold"),
    )),
    *(Number(card_id, name, value, low, high, rule, doc=doc, fixed=fixed)
      for card_id, name, value, low, high, rule, doc, fixed in _EFFECTS),
    Number("deck", "size", 25, 4, 60, "ZETA-R6", flag="deck_size", doc="cards in a deck"),
    Number("hand", "first", 3, 0, 10, "ZETA-R9", doc="cards the first player draws at the start"),
    Number("hand", "second", 3, 0, 10, "ZETA-R9",
           doc="cards the second player draws at the start (one more with second_player_extra_card)"),
)


def _check(values: Mapping[str, int], flags: Mapping[str, Any]) -> list[str]:
    """ZETA-R6: the copy limits must leave a whole deck possible."""
    problems: list[str] = []
    if flags.get("construction_limits", True):
        total = sum(values[f"{c.id}.limit"] for c in CARDS)
        size = values["deck.size"]
        if total < size:
            problems.append(f"the copy limits allow {total} cards in all, fewer than a deck's {size} "
                            "(ZETA-R6): raise some limits")
    return problems


SPEC = CardSetSpec("zeta", ITEMS, NUMBERS, cards_flag="cards", check=_check,
                   texts={"ja": TEXT_JA, "en": {c.id: c.effect for c in CARDS}})
"""Zeta's card-set spec (the ``cardset`` facet)."""


@dataclass(frozen=True, slots=True)
class ZetaNumbers:
    """The numbers a Zeta engine reads, as plain tuples and ints (one object per card set, shared)."""

    costs: tuple[int, ...]
    limits: tuple[int, ...]
    afford: tuple[int, ...]
    """``afford[cap]``: bitmask of the card types whose cost is at most ``cap``, for every cap 0-36 (no clamping)."""
    max_cost: int
    zero_cost: tuple[int, ...]
    """The card types of cost 0 (Earth Mage ZETA-R53, Mourning the Dead ZETA-R57)."""
    mist_draw: int
    do_over_draw: int
    fortune_draw: int
    circle_draw: int
    boost_draw: int
    apprentice_hand: int
    great_circle_destroy: int
    potion_draw: int
    potion_destroy: int
    broom_cap: int
    mourning_needs: int
    hand_first: int
    hand_second: int


@lru_cache(maxsize=256)
def card_numbers(text: str) -> ZetaNumbers:
    """The engine's tables of the rules' ``cards`` flag (ValueError naming the card and the rule)."""
    values = SPEC.defaults()
    values.update(decode_changes(SPEC, text))
    costs = tuple(values[f"{c.id}.cost"] for c in CARDS)
    top = max(costs)
    afford = tuple(sum(1 << i for i in range(NUM_TYPES) if costs[i] <= cap) for cap in range(MAX_COST_ALLOWED + 1))
    return ZetaNumbers(
        costs=costs,
        limits=tuple(values[f"{c.id}.limit"] for c in CARDS),
        afford=afford,
        max_cost=top,
        zero_cost=tuple(i for i in range(NUM_TYPES) if costs[i] == 0),
        mist_draw=values["blessing_mist.draw"],
        do_over_draw=values["do_over.draw"],
        fortune_draw=values["fortune_telling.draw"],
        circle_draw=values["magic_circle.draw"],
        boost_draw=values["magical_boost.draw"],
        apprentice_hand=values["apprentice_hexer.hand"],
        great_circle_destroy=values["great_magic_circle.destroy"],
        potion_draw=values["awakening_potion.draw"],
        potion_destroy=values["awakening_potion.destroy"],
        broom_cap=values["magic_broom.cap"],
        mourning_needs=values["mourning_the_dead.destroyed"],
        hand_first=values["hand.first"],
        hand_second=values["hand.second"],
    )



def canonical_cards(text: str) -> str:
    """The ``cards`` flag's one spelling of a set: sorted, without the numbers equal to the rulebook's."""
    defaults = SPEC.defaults()
    return encode_changes({k: v for k, v in decode_changes(SPEC, text).items() if defaults[k] != v})
