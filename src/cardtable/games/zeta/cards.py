"""Zeta's 25 card types as data (rulebook §2.3). Card identity is the id; names are skins (ZETA-I58)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class CardType:
    """One card type: id, seed name, English name, cost, Fanfare or continuous, copy limit, effect, rule."""

    index: int
    id: str
    japanese: str
    english: str
    cost: int
    fanfare: bool
    limit: int
    effect: str
    rule: str
    short: str


_RAW = [
    ("chant_practice", "詠唱練習", "Chant Practice", 0, False, 8, "No effect.", "ZETA-R36", "Chant"),
    ("blessing_mist", "恵みの霧", "Mist of Blessing", 0, True, 2,
     "You and your opponent each draw 1 card from your own decks.", "ZETA-R37", "Mist"),
    ("do_over", "やり直し", "Do-Over", 0, True, 3, "Choose 1 card in your hand and destroy it, then draw 1 card.",
     "ZETA-R38", "DoOver"),
    ("fortune_telling", "占い", "Fortune-Telling", 1, True, 2, "Draw 2 cards. Destroy one of those two.",
     "ZETA-R39", "Fortune"),
    ("magic_circle", "魔法陣", "Magic Circle", 2, False, 3,
     "Whenever you place one of your cards orthogonally adjacent to this card, draw 1 card.", "ZETA-R40", "Circle"),
    ("magical_boost", "マジカルブースト", "Magical Boost", 3, True, 2, "Draw 1 card.", "ZETA-R41", "Boost"),
    ("fire_mage", "炎術師", "Fire Mage", 3, True, 2,
     "You may destroy 1 of the cards directly above or below this card.", "ZETA-R42", "Fire"),
    ("ice_mage", "氷術師", "Ice Mage", 3, True, 2,
     "You may destroy 1 of the cards directly left or right of this card.", "ZETA-R43", "Ice"),
    ("apprentice_hexer", "見習い呪術師", "Apprentice Hexer", 4, True, 2,
     "If your opponent has 4 or more cards in hand, their Fanfare effects are void during their next turn.",
     "ZETA-R44", "Apprent"),
    ("wind_mage", "風術師", "Wind Mage", 5, True, 2,
     "Placed only on a square holding one of your cards (or where your destroyed card was); "
     "Fanfare: return the covered card to your hand.", "ZETA-R45", "Wind"),
    ("great_magic_circle", "大魔法陣", "Great Magic Circle", 5, False, 3,
     "Whenever you place one of your cards diagonally adjacent to this card, destroy up to 3 random cards "
     "in your opponent's hand.", "ZETA-R46", "GCircle"),
    ("hexer", "呪術師", "Hexer", 6, True, 2, "Your opponent's Fanfare effects are void during their next turn.",
     "ZETA-R47", "Hexer"),
    ("awakening_potion", "覚醒の薬", "Potion of Awakening", 6, True, 1,
     "Draw 2 cards. Destroy up to 2 random cards from your opponent's hand.", "ZETA-R48", "Potion"),
    ("magic_broom", "魔法の箒", "Magic Broom", 7, True, 1,
     "During your next turn only, you may place cards of cost 10 or less regardless of the board.",
     "ZETA-R49", "Broom"),
    ("light_mage", "光術師", "Light Mage", 7, True, 1,
     "You may destroy 1 card diagonally adjacent to this card; if you do, nothing can be placed on that square "
     "for the rest of the game.", "ZETA-R50", "Light"),
    ("astrology", "占星術", "Astrology", 8, True, 1, "You may destroy 1 card on any of the central 4 squares.",
     "ZETA-R51", "Astro"),
    ("thunder_mage", "雷術師", "Thunder Mage", 8, True, 1,
     "If you have fewer cards on the board (not counting this card) than your opponent, you may destroy any "
     "1 card on the board.", "ZETA-R52", "Thunder"),
    ("earth_mage", "土術師", "Earth Mage", 8, True, 1,
     "During your opponent's next turn only, they can place only cost-0 cards.", "ZETA-R53", "Earth"),
    ("barrier", "結界", "Barrier", 8, False, 2, "This card cannot be destroyed while on the board.",
     "ZETA-R54", "Barrier"),
    ("blaze_sorcerer", "爆炎魔道士", "Blaze Sorcerer", 9, True, 2,
     "You may destroy 1 of the cards adjacent to this card (8 neighbours).", "ZETA-R55", "Blaze"),
    ("burst_circle", "炸裂魔法陣", "Burst Circle", 10, False, 2,
     "Whenever either player places a card diagonally adjacent to this card, this card and all cards "
     "orthogonally adjacent to it are destroyed.", "ZETA-R56", "Burst"),
    ("mourning_the_dead", "死者の弔い", "Mourning the Dead", 11, True, 1,
     "If 5 or more of your cards have been destroyed, you may place 1 cost-0 card from your hand onto the "
     "board (its Fanfare resolves).", "ZETA-R57", "Mourning"),
    ("dark_mage", "闇術師", "Dark Mage", 12, True, 2,
     "Destroy all cards orthogonally adjacent to this card, yours and your opponent's alike.", "ZETA-R58", "Dark"),
    ("single_arrow_summon", "一矢召喚", "Single-Arrow Summoning", 15, True, 1,
     "If a row or column is completely filled with cards, destroy all cards in it (one such line).",
     "ZETA-R59", "Arrow"),
    ("ultimate_zero", "アルティメット・ゼロ", "Ultimate Zero", 17, True, 1, "Both players' hand sizes become 0.",
     "ZETA-R60", "UltZero"),
]

CARDS: Final[tuple[CardType, ...]] = tuple(CardType(i, *row) for i, row in enumerate(_RAW))
CARD_BY_ID: Final[dict[str, CardType]] = {c.id: c for c in CARDS}
NUM_TYPES: Final = 25
COSTS: Final[tuple[int, ...]] = tuple(c.cost for c in CARDS)

# Each card type's index (its row of _RAW), as literals: compiled code reads them as numbers.
CHANT: Final = 0
MIST: Final = 1
DO_OVER: Final = 2
FORTUNE: Final = 3
MAGIC_CIRCLE: Final = 4
BOOST: Final = 5
FIRE: Final = 6
ICE: Final = 7
APPRENTICE: Final = 8
WIND: Final = 9
GREAT_CIRCLE: Final = 10
HEXER: Final = 11
POTION: Final = 12
BROOM: Final = 13
LIGHT: Final = 14
ASTROLOGY: Final = 15
THUNDER: Final = 16
EARTH: Final = 17
BARRIER: Final = 18
BLAZE: Final = 19
BURST: Final = 20
MOURNING: Final = 21
DARK: Final = 22
ARROW: Final = 23
ULTIMATE: Final = 24


def card(card_id: str) -> CardType:
    """The card type with this id (ValueError naming close matches if unknown)."""
    try:
        return CARD_BY_ID[card_id]
    except KeyError:
        raise ValueError(f"unknown Zeta card id {card_id!r}; valid ids: {', '.join(CARD_BY_ID)}") from None
