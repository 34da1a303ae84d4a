"""Utahime cards as small ints, with precomputed tables and the card notation.

A card is ``owner * 64 + index``: ``index`` 0..51 is a deck card (``suit * 13 + rank - 1``),
52..57 is a cosmic card (UTA-I9, UTA-I13: extra copies with ids of their own). The owner is the
seat whose deck or cosmic pool the card came from; it never changes.

Notation (docs/games/utahime.md): suit letter ``H S C D`` (♥ ♠ ♣ ♦), then the rank
``A 2 .. 10 J Q K``; a cosmic card ends in ``+`` (``H4+``). Inside a zone, a card that came from
the *other* player's deck starts with ``~`` (only ``diamond_next_pile=self`` makes such cards).
"""

from __future__ import annotations

from typing import Final

HEARTS: Final = 0
SPADES: Final = 1
CLUBS: Final = 2
DIAMONDS: Final = 3
SUITS: Final = (HEARTS, SPADES, CLUBS, DIAMONDS)
SUIT_LETTERS: Final = "HSCD"
SUIT_SYMBOLS: Final = "♥♠♣♦"
RANK_NAMES: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

ACE: Final = 1
JACK: Final = 11
KING: Final = 13
DECK_SIZE: Final = 52
COSMIC_BASE: Final = 52
CARDS_PER_SEAT: Final = 64
#: The cosmic pool of UTA-R1 (♥4 ♥6 ♠4 ♣6 ♣7 ♦6), as (suit, rank), in pool-index order.
COSMIC_CARDS: Final = ((HEARTS, 4), (HEARTS, 6), (SPADES, 4), (CLUBS, 6), (CLUBS, 7), (DIAMONDS, 6))
COSMIC_NAMES: Final = tuple(SUIT_LETTERS[s] + RANK_NAMES[r - 1] for s, r in COSMIC_CARDS)

# -- tables, indexed by the card int (0..127; unused slots hold -1 / "") ---------------------------
SUIT: Final[list[int]] = [-1] * (2 * CARDS_PER_SEAT)
RANK: Final[list[int]] = [-1] * (2 * CARDS_PER_SEAT)
OWNER: Final[list[int]] = [i // CARDS_PER_SEAT for i in range(2 * CARDS_PER_SEAT)]
IS_COSMIC: Final[list[bool]] = [False] * (2 * CARDS_PER_SEAT)
NAME: Final[list[str]] = [""] * (2 * CARDS_PER_SEAT)
"""The card's notation without the ``~`` marker (``H7``, ``H4+``)."""

for _seat in (0, 1):
    for _i in range(DECK_SIZE):
        _c = _seat * CARDS_PER_SEAT + _i
        SUIT[_c], RANK[_c] = divmod(_i, 13)
        RANK[_c] += 1
        NAME[_c] = SUIT_LETTERS[SUIT[_c]] + RANK_NAMES[RANK[_c] - 1]
    for _j, (_s, _r) in enumerate(COSMIC_CARDS):
        _c = _seat * CARDS_PER_SEAT + COSMIC_BASE + _j
        SUIT[_c], RANK[_c], IS_COSMIC[_c] = _s, _r, True
        NAME[_c] = SUIT_LETTERS[_s] + RANK_NAMES[_r - 1] + "+"

#: card index (0..57, owner-free) by notation without ``~``.
INDEX_BY_NAME: Final[dict[str, int]] = {NAME[i]: i for i in range(COSMIC_BASE + len(COSMIC_CARDS))}

#: The card index used in canonical orderings (suit order H S C D, then rank, cosmic after deck).
SORT_KEY: Final[list[int]] = [c % CARDS_PER_SEAT + 100 * OWNER[c] for c in range(2 * CARDS_PER_SEAT)]


def card_id(owner: int, index: int) -> int:
    """The card int of a seat's deck index (0..51) or cosmic index (52..57)."""
    return owner * CARDS_PER_SEAT + index


def deck_cards(owner: int) -> list[int]:
    """The 52 deck cards of a seat in canonical order."""
    base = owner * CARDS_PER_SEAT
    return list(range(base, base + DECK_SIZE))


def cosmic_card(owner: int, name: str) -> int:
    """The cosmic card of a seat by pool name (``H4``)."""
    return owner * CARDS_PER_SEAT + COSMIC_BASE + COSMIC_NAMES.index(name)


def is_picture(card: int) -> bool:
    """True for J, Q and K (the cards that must be set first, UTA-R36)."""
    return RANK[card] >= JACK


def is_premium(card: int) -> bool:
    """True for A, J, Q and K (the cards whose attack costs energy, UTA-R42)."""
    rank = RANK[card]
    return rank == ACE or rank >= JACK


def token(card: int, zone_owner: int) -> str:
    """The card as written inside a zone of ``zone_owner`` (``~`` marks the other seat's card)."""
    return NAME[card] if OWNER[card] == zone_owner else "~" + NAME[card]


def absolute(card: int) -> str:
    """The card with its owner, as the conservation zones list it (``P1:H7``)."""
    return f"P{OWNER[card] + 1}:{NAME[card]}"


def parse_card(text: str) -> tuple[int, bool] | None:
    """Parse a card token into (index 0..57, foreign marker), or None if it is not one."""
    foreign = text.startswith("~")
    body = text[1:] if foreign else text
    index = INDEX_BY_NAME.get(body)
    if index is None:
        return None
    return index, foreign


def resolve(index: int, foreign: bool, zone_owner: int) -> int:
    """The card int named by a token read inside a zone of ``zone_owner``."""
    owner = 1 - zone_owner if foreign else zone_owner
    return owner * CARDS_PER_SEAT + index


def suit_of(letter: str) -> int | None:
    """The suit of a suit letter, or None."""
    i = SUIT_LETTERS.find(letter)
    return i if len(letter) == 1 and i >= 0 else None


def suits_text(suits: tuple[int, ...]) -> str:
    """Suits in canonical order as letters (``HS``)."""
    return "".join(SUIT_LETTERS[s] for s in sorted(suits))


def printed_value(card: int, ace_value: int) -> int:
    """The printed number of UTA-R7 (A is ``ace_value``, J/Q/K are 11/12/13)."""
    rank = RANK[card]
    return ace_value if rank == ACE else rank
