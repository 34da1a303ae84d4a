"""Facts of one finished game, read from its event log: what each seat drew, played, lost, and used.

The lab owns the games it simulates, so it reads every event with its secret part
(``Event.revealed()``-level facts). A fact is a count of one ``(seat, verb, item, turn)``: seat 1
drew two Fire Mages in turn 4, seat 0 declared ♦NEXT once in turn 7. Each game's kit names its
fact reader (``GameKit.facts``, a function ``facts(state) -> GameFacts``; the built-in games' are in
:mod:`cardtable.lab.gamefacts`, each reading its engine's compact codes through the game's codec);
this module holds what every reader shares: the verbs, the facts, their counting and packing. A
game without a reader (a plug-in game) still gets its outcome and length stored.

>>> import random
>>> import cardtable
>>> from cardtable.core import play_random
>>> state = cardtable.load_game("zeta").new_game(seed=3, record_events=True)
>>> facts = game_facts(play_random(state, random.Random(1)))
>>> facts.first_player
0
>>> played = [f for f in facts.facts if f.verb is Verb.PLAYED]
>>> sum(f.count for f in played) == sum(1 for e in state.events if e.kind == "place")
True
"""

from __future__ import annotations

import json
import sys
from array import array
from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from typing import Any, Final, NamedTuple

from cardtable.core import State, registry


class Verb(StrEnum):
    """What a fact says happened to (or was done with) its item."""

    IN_DECK = "in_deck"
    """The seat's deck holds ``count`` copies of the card (turn 0; Zeta)."""
    OPENING = "opening"
    """The card is in the seat's opening hand (after a mulligan, if one was taken)."""
    DRAWN = "drawn"
    """The seat drew the card after its opening hand."""
    PLAYED = "played"
    """The seat played the card: a Zeta placement, a Utahime attack, an Oscilloscope trigger placement."""
    DESTROYED = "destroyed"
    """The seat's card was destroyed (Zeta: from the board, the hand or under a Wind Mage)."""
    REMOVED = "removed"
    """The seat's card left the game without counting as destroyed (Zeta)."""
    RETURNED = "returned"
    """The seat's card went back to its hand from the board (Zeta's Wind Mage)."""
    BLOCKED = "blocked"
    """The seat blocked an attack with the card (Utahime)."""
    SUCCEEDED = "succeeded"
    """The seat's attack with the card succeeded (Utahime, UTA-R22)."""
    TAKEN = "taken"
    """The opponent sent the card from the seat's hand to its discard pile (Utahime ♠/♦)."""
    SPECIAL = "special"
    """The seat made the special play the item names (a NEXT declaration, a reaction, the joker ...)."""
    OPTION = "option"
    """The seat used the option card the item names (Utahime)."""
    HERO = "hero"
    """The seat used its hero card (Utahime)."""
    REFILLED = "refilled"
    """The seat refilled a train with the pulse card (Oscilloscope)."""
    CAPTURED = "captured"
    """The seat captured the pulse card (Oscilloscope)."""
    KEPT = "kept"
    """The seat kept the trigger (or filter) of a capture as a score card (Oscilloscope)."""
    CLEARED = "cleared"
    """The seat scored the clear against noise in a capture (Oscilloscope)."""
    DISCARDED = "discarded"
    """The seat discarded the card because nothing in hand connected (Oscilloscope)."""


class Fact(NamedTuple):
    """``count`` times ``verb`` of ``item`` by (or to) ``seat`` in ``turn`` (0: the setup)."""

    seat: int
    verb: Verb
    item: str
    turn: int
    count: int = 1  # type: ignore[assignment]  # a field, shadowing tuple.count

    def to_json(self) -> list[Any]:
        """The fact as a compact JSON array ``[seat, verb, item, turn, count]``."""
        return [self.seat, str(self.verb), self.item, self.turn, self.count]


_VERBS = {str(v): v for v in Verb}
_new_tuple = tuple.__new__


def decode_facts(text: str) -> tuple[Fact, ...]:
    """Facts from their JSON form (``encode_facts``): an array of ``[seat, verb, item, turn, count]``.

    >>> decode_facts(encode_facts((Fact(0, Verb.PLAYED, "fire_mage", 3),)))
    (Fact(seat=0, verb=<Verb.PLAYED: 'played'>, item='fire_mage', turn=3, count=1),)
    """
    verbs = _VERBS
    return tuple(_new_tuple(Fact, (s, verbs[v], i, t, n)) for s, v, i, t, n in json.loads(text))


def encode_facts(facts: Iterable[Fact]) -> str:
    """The JSON form of facts: one compact array (a verb is its string)."""
    return json.dumps([[s, str(v), i, t, n] for s, v, i, t, n in facts], separators=(",", ":"), ensure_ascii=False)


class Codebook(NamedTuple):
    """What the ints of packed facts name: the verbs and the items by index (a run stores its own).

    A packed fact is one int64, ``seat | verb << 3 | item << 8 | turn << 24 | count << 40``
    (``PACKED_LAYOUT``), stored little-endian.
    """

    verbs: tuple[str, ...]
    items: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The codebook as the JSON object a run keeps (with the layout, for readers outside the lab)."""
        return {"layout": PACKED_LAYOUT, "verbs": list(self.verbs), "items": list(self.items)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Codebook:
        """Read a codebook written by ``to_json`` (ValueError for another layout)."""
        if data.get("layout") != PACKED_LAYOUT:
            raise ValueError(f"packed facts in layout {data.get('layout')!r}; this version reads {PACKED_LAYOUT!r}")
        return cls(tuple(str(v) for v in data["verbs"]), tuple(str(i) for i in data["items"]))

    def extends(self, other: Codebook) -> bool:
        """True if this codebook names every code of ``other`` the same way (it may name more)."""
        return self.verbs[:len(other.verbs)] == other.verbs and self.items[:len(other.items)] == other.items


PACKED_LAYOUT: Final = "seat:0-2 verb:3-7 item:8-23 turn:24-39 count:40-62"
"""The bit fields of a packed fact, lowest bit first."""
_COUNT_SHIFT: Final = 40
_LITTLE: Final = sys.byteorder == "little"
_INT64: Final = "l" if array("l").itemsize == 8 else "q"
"""The array type code of an int64: C's ``long`` where it has 64 bits (CPython converts an int to a
``long`` in a loop, but to a ``long long`` through a byte array, ten times the work)."""


def pack_facts(facts: Iterable[Fact], codebook: Codebook | None = None) -> tuple[bytes, tuple[Fact, ...]]:
    """Facts as packed ints (``codebook``: this process's, ``CODEBOOK``), and the facts it cannot pack.

    >>> codes, rest = pack_facts([Fact(1, Verb.DRAWN, "fire_mage", 4, 2), Fact(0, Verb.OPTION, "my own card", 2)])
    >>> unpack_facts(codes), rest
    ((Fact(seat=1, verb=<Verb.DRAWN: 'drawn'>, item='fire_mage', turn=4, count=2),), (Fact(seat=0, verb=<Verb.OPTION: 'option'>, item='my own card', turn=2, count=1),))
    """
    book = codebook if codebook is not None else CODEBOOK
    verb_index = {v: i for i, v in enumerate(book.verbs)}
    item_index = {v: i for i, v in enumerate(book.items)}
    packed: list[int] = []
    rest: list[Fact] = []
    for f in facts:
        v = verb_index.get(str(f.verb))
        i = item_index.get(f.item)
        if v is None or i is None or not (0 <= f.seat < 8 and 0 <= f.turn < 1 << 16 and 0 < f.count < 1 << 23):
            rest.append(f)
        else:
            packed.append(f.seat | v << 3 | i << 8 | f.turn << 24 | f.count << _COUNT_SHIFT)
    return to_bytes(packed), tuple(rest)


def to_bytes(ints: list[int]) -> bytes:
    """Ints as little-endian int64s."""
    out = array(_INT64, ints)
    if not _LITTLE:
        out.byteswap()
    return out.tobytes()


def unpack_facts(codes: bytes, codebook: Codebook | None = None) -> tuple[Fact, ...]:
    """Facts from packed ints (``pack_facts``; ``codebook``: the one they were packed with).

    A fact may come in several ints (a reader packs each occurrence as it meets it): their counts
    add up, and the fact keeps the place of its first.

    >>> codes, _ = pack_facts([Fact(0, Verb.PLAYED, "fire_mage", 3), Fact(1, Verb.DRAWN, "wind_mage", 3)])
    >>> [(f.item, f.count) for f in unpack_facts(codes + codes[:8])]
    [('fire_mage', 2), ('wind_mage', 1)]
    """
    book = codebook if codebook is not None else CODEBOOK
    ints = array(_INT64)
    ints.frombytes(codes)
    if not _LITTLE:
        ints.byteswap()
    counts: dict[int, int] = {}
    for c in ints:
        key = c & _KEY_MASK
        counts[key] = counts.get(key, 0) + (c >> _COUNT_SHIFT)
    verbs = tuple(_VERBS[v] for v in book.verbs)
    items = book.items
    return tuple(_new_tuple(Fact, (k & 7, verbs[k >> 3 & 31], items[k >> 8 & 0xFFFF], k >> 24, n))
                 for k, n in counts.items())


_KEY_MASK: Final = (1 << 40) - 1


class GameFacts:
    """Everything the lab keeps about one finished game besides its outcome.

    The facts travel from a worker and into the store in their stored form, made once in the worker:
    packed ints (``codes``, named by a ``Codebook``) and, for the rare fact whose item the codebook
    does not name (an option card of a players' own set), a JSON text (``encoded``). They are
    decoded only when read.
    """

    __slots__ = ("first_player", "turns", "context", "_facts", "_encoded", "_codes", "_codebook", "_context_json")

    def __init__(self, first_player: int | None, turns: int, facts: tuple[Fact, ...] | None = (),
                 context: tuple[dict[str, Any], ...] = (), *, encoded: str | None = None, codes: bytes = b"",
                 codebook: Codebook | None = None) -> None:
        """Facts given as tuples, or (``facts=None``) as their stored form: ``codes`` and ``encoded`` text."""
        self.first_player = first_player
        """The seat that moved first (None if the game names none)."""
        self.turns = turns
        """The number of the last turn (a Zeta or Utahime turn, an Oscilloscope set; 0 if the game counts none)."""
        self.context = context
        """Per seat: what the setup gave it (a Zeta deck's name, Utahime option cards) and final score parts."""
        self._facts = facts
        self._encoded = encoded
        self._codes = codes
        self._codebook = codebook
        self._context_json: str | None = None
        if facts is None and encoded is None:
            raise ValueError("GameFacts needs its facts or their stored form")

    @property
    def facts(self) -> tuple[Fact, ...]:
        """Every fact of the game, in the order each first happened (decoded when first read).

        Facts the codebook could not name come last.
        """
        if self._facts is None:
            packed = unpack_facts(self._codes, self._codebook) if self._codes else ()
            rest = decode_facts(self._encoded) if self._encoded and self._encoded != "[]" else ()
            self._facts = packed + rest
        return self._facts

    def encoded(self) -> str:
        """The JSON text of the facts not packed (``encode_facts``; ``[]`` for most games), made once."""
        if self._encoded is None:
            self._encoded = encode_facts(self._facts or ())
        return self._encoded

    def packed(self) -> bytes:
        """The packed facts (``pack_facts``; empty when the facts were given as tuples)."""
        return self._codes

    def encoded_context(self) -> str:
        """The context as compact JSON text, made once (by the worker, when the facts travel)."""
        if self._context_json is None:
            self._context_json = json.dumps([dict(c) for c in self.context], separators=(",", ":"),
                                            ensure_ascii=False)
        return self._context_json

    def __reduce__(self) -> tuple[Any, ...]:
        return (_game_facts, (self.first_player, self.turns, self.encoded(), self.context, self.encoded_context(),
                              self._codes))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameFacts):
            return NotImplemented
        return (self.first_player, self.turns, sorted(self.facts), self.context) == \
            (other.first_player, other.turns, sorted(other.facts), other.context)  # facts are a set: any order

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"GameFacts(first_player={self.first_player!r}, turns={self.turns!r}, "
                f"facts=<{len(self.facts)} facts>, context={self.context!r})")


def _game_facts(first_player: int | None, turns: int, encoded: str, context: tuple[dict[str, Any], ...],
                context_json: str | None = None, codes: bytes = b"") -> GameFacts:
    out = GameFacts(first_player, turns, None, context, encoded=encoded, codes=codes)
    out._context_json = context_json
    return out


# -- counting: a fact's key is one int ----------------------------------------------------------
# ``seat | verb << 3 | item << 8 | turn << 24``: the seat (up to 8), the verb's index in ``Verb``,
# the item's index in ``_ITEMS`` (interned once per process), the turn. Counting with int keys
# makes no tuple and hashes nothing; each key's JSON text, with its count, is made once.
_VERB_LIST: Final = tuple(Verb)
VERB_KEY: Final = {v: i << 3 for i, v in enumerate(_VERB_LIST)}
"""Each verb's index, shifted into its place in a key."""
V_IN_DECK: Final = VERB_KEY[Verb.IN_DECK]
V_OPENING: Final = VERB_KEY[Verb.OPENING]
V_DRAWN: Final = VERB_KEY[Verb.DRAWN]
V_PLAYED: Final = VERB_KEY[Verb.PLAYED]
V_DESTROYED: Final = VERB_KEY[Verb.DESTROYED]
V_REMOVED: Final = VERB_KEY[Verb.REMOVED]
V_RETURNED: Final = VERB_KEY[Verb.RETURNED]
V_BLOCKED: Final = VERB_KEY[Verb.BLOCKED]
V_SUCCEEDED: Final = VERB_KEY[Verb.SUCCEEDED]
V_TAKEN: Final = VERB_KEY[Verb.TAKEN]
V_SPECIAL: Final = VERB_KEY[Verb.SPECIAL]
V_OPTION: Final = VERB_KEY[Verb.OPTION]
V_HERO: Final = VERB_KEY[Verb.HERO]
V_REFILLED: Final = VERB_KEY[Verb.REFILLED]
V_CAPTURED: Final = VERB_KEY[Verb.CAPTURED]
V_KEPT: Final = VERB_KEY[Verb.KEPT]
V_CLEARED: Final = VERB_KEY[Verb.CLEARED]
V_DISCARDED: Final = VERB_KEY[Verb.DISCARDED]

CODEBOOK_ITEMS: Final = (
    "chant_practice", "blessing_mist", "do_over", "fortune_telling", "magic_circle", "magical_boost", "fire_mage",
    "ice_mage", "apprentice_hexer", "wind_mage", "great_magic_circle", "hexer", "awakening_potion", "magic_broom",
    "light_mage", "astrology", "thunder_mage", "earth_mage", "barrier", "blaze_sorcerer", "burst_circle",
    "mourning_the_dead", "dark_mage", "single_arrow_summon", "ultimate_zero", "HL", "LH", "LOH", "NOISE", "CLEAR",
    "T_HL", "T_LH", "T_BOTH", "HA", "H2", "H3", "H4", "H5", "H6", "H7", "H8", "H9", "H10", "HJ", "HQ", "HK", "SA",
    "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "SJ", "SQ", "SK", "CA", "C2", "C3", "C4", "C5", "C6",
    "C7", "C8", "C9", "C10", "CJ", "CQ", "CK", "DA", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9", "D10", "DJ",
    "DQ", "DK", "attack_success", "stall", "pass", "block", "cosmic", "heart_next", "set_jqk", "heart_ace",
    "spade_ace", "club_next", "diamond_next", "?", "exchange", "decline_capture", "club_ace_reaction",
    "diamond_ace_reaction", "joker",
)
"""The items this version's codebook names, by index: the packed facts' stored format (a run keeps its
codebook, and a later version may only add items at the end, so every stored run still reads). The
built-in fact readers name these: Zeta's cards in their index order, Oscilloscope's, Utahime's cards
and special plays, then the rest; an item met at run time (a players' own option card) stays JSON."""
_ITEMS: list[str] = list(CODEBOOK_ITEMS)
"""Every item a fact has named in this process, by index (``CODEBOOK_ITEMS`` first)."""
_ITEM_INDEX: dict[str, int] = {item: i for i, item in enumerate(_ITEMS)}


CODEBOOK: Final = Codebook(tuple(str(v) for v in _VERB_LIST), CODEBOOK_ITEMS)
"""This version's codebook: every verb, and every item of ``CODEBOOK_ITEMS`` (the same in every
process, so a worker's packed facts read the same in the process that stores them and in any later
report)."""
_NAMED_ITEMS: Final = len(CODEBOOK.items)
"""Items with an index below this are in ``CODEBOOK``; later ones were met at run time and stay JSON."""


def item_index(name: str) -> int:
    """The index of an item (interned on first sight)."""
    i = _ITEM_INDEX.get(name)
    if i is None:
        i = _ITEM_INDEX[name] = len(_ITEMS)
        _ITEMS.append(str(name))
    return i


class Tally:
    """A game's facts as they are read: one packed int per occurrence (``keys``, counted when the
    facts are decoded), and the JSON items of the facts ``CODEBOOK`` cannot pack (``rest``)."""

    def __init__(self) -> None:
        """An empty tally."""
        self.keys: list[int] = []
        self.rest: list[str] = []


ONE: Final = 1 << 40
"""A count of one, in its place in a packed fact (``PACKED_LAYOUT``)."""
_TURN_LIMIT: Final = 1 << 16
_COUNT_LIMIT: Final = 1 << 23


def count_fact(tally: Tally, seat: int, verb: int, item: str, turn: int, n: int = 1) -> None:
    """Add ``n`` to the fact ``(seat, verb, item, turn)`` (``verb`` as shifted in ``VERB_KEY``).

    >>> tally = Tally()
    >>> count_fact(tally, 0, V_DRAWN, "fire_mage", 3, 2)
    >>> count_fact(tally, 1, V_OPTION, "my own card", 5)
    >>> unpack_facts(to_bytes(tally.keys)), tally.rest
    ((Fact(seat=0, verb=<Verb.DRAWN: 'drawn'>, item='fire_mage', turn=3, count=2),), ['[1,"option","my own card",5,1]'])
    """
    i = item_index(item)
    if i < _NAMED_ITEMS and 0 <= seat < 8 and 0 <= turn < _TURN_LIMIT and 0 < n < _COUNT_LIMIT:
        tally.keys.append(seat | verb | i << 8 | turn << 24 | n << 40)
    else:
        tally.rest.append(json.dumps([seat, str(_VERB_LIST[verb >> 3]), _ITEMS[i], turn, n], separators=(",", ":"),
                                     ensure_ascii=False))


def facts_of(first: int | None, turns: int, tally: Tally, context: tuple[dict[str, Any], ...],
             head: bytes = b"", context_json: str | None = None) -> GameFacts:
    """The game's facts from its tally, packed at once; ``head`` is packed facts that come first.

    ``context_json`` is the context's JSON text when the reader has it made already (shared by a run's games).
    """
    rest = tally.rest
    out = GameFacts(first, turns, None, context, encoded=f"[{','.join(rest)}]" if rest else "[]",
                    codes=head + to_bytes(tally.keys), codebook=CODEBOOK)
    out._context_json = context_json
    return out


def merged(public: Mapping[str, Any] | None, secret: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """An event's public and secret parts as one mapping (what ``Event.revealed()`` holds)."""
    if not secret:
        return public or {}
    return {**(public or {}), **secret}


def no_facts(state: State) -> GameFacts:
    """The facts of a game whose kit names no fact reader: none, and an empty context per seat."""
    return GameFacts(None, 0, (), tuple({} for _ in range(state.num_players)))


def fact_reader(game: str) -> Callable[[State], GameFacts]:
    """The fact reader the kit of ``game`` names (``no_facts`` if it names none)."""
    reader: Callable[[State], GameFacts] | None = registry.part(game, "facts", required=False)
    return no_facts if reader is None else reader


def game_facts(state: State) -> GameFacts:
    """The facts of a finished game whose state recorded its events (``record_events=True``)."""
    return fact_reader(state.game.name)(state)
