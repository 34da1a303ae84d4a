"""Facts of one finished game, read from its event log: what each seat drew, played, lost, and used.

The lab owns the games it simulates, so it reads every event with its secret part
(``Event.revealed()``-level facts). A fact is a count of one ``(seat, verb, item, turn)``: seat 1
drew two Fire Mages in turn 4, seat 0 declared ♦NEXT once in turn 7. Each game has its own
extractor; a game without one (a plug-in game) still gets its outcome and length stored.

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

from cardtable.core import State
from cardtable.games.oscilloscope.cards import TOKENS as OSC_TOKENS
from cardtable.games.oscilloscope.vocab import CODE_CAPTURE as OSC_CODE_CAPTURE
from cardtable.games.oscilloscope.vocab import CODE_DISCARD as OSC_CODE_DISCARD
from cardtable.games.oscilloscope.vocab import CODE_DRAW_PULSE as OSC_CODE_DRAW_PULSE
from cardtable.games.oscilloscope.vocab import CODE_DRAW_TRIGGER as OSC_CODE_DRAW_TRIGGER
from cardtable.games.oscilloscope.vocab import CODE_PLACE as OSC_CODE_PLACE
from cardtable.games.oscilloscope.vocab import CODE_REFILL as OSC_CODE_REFILL
from cardtable.games.oscilloscope.vocab import CODE_TURN as OSC_CODE_TURN
from cardtable.games.utahime.vocab import CODE_ATTACK as UTA_CODE_ATTACK
from cardtable.games.utahime.vocab import CODE_BLOCK as UTA_CODE_BLOCK
from cardtable.games.utahime.vocab import CODE_COSMIC as UTA_CODE_COSMIC
from cardtable.games.utahime.vocab import CODE_DRAW as UTA_CODE_DRAW
from cardtable.games.utahime.vocab import CODE_HEART_NEXT as UTA_CODE_HEART_NEXT
from cardtable.games.utahime.vocab import CODE_MOVE as UTA_CODE_MOVE
from cardtable.games.utahime.vocab import CODE_NOTICE as UTA_CODE_NOTICE
from cardtable.games.utahime.vocab import CODE_PASS as UTA_CODE_PASS
from cardtable.games.utahime.vocab import CODE_SET as UTA_CODE_SET
from cardtable.games.utahime.vocab import CODE_TAKE as UTA_CODE_TAKE
from cardtable.games.utahime.vocab import CODE_TURN as UTA_CODE_TURN
from cardtable.games.utahime.vocab import NOTICE_STALL as UTA_NOTICE_STALL
from cardtable.games.utahime.vocab import NOTICE_SUCCESS as UTA_NOTICE_SUCCESS
from cardtable.games.utahime.vocab import TOKENS as UTA_TOKENS
from cardtable.games.zeta.cards import CARDS as ZETA_CARDS
from cardtable.games.zeta.vocab import CODE_DESTROY, CODE_DRAW, CODE_PLACE


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
    return _to_bytes(packed), tuple(rest)


def _to_bytes(ints: list[int]) -> bytes:
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
_V: Final = {v: i << 3 for i, v in enumerate(_VERB_LIST)}
"""Each verb's index, shifted into its place in a key."""
V_IN_DECK: Final = _V[Verb.IN_DECK]
V_OPENING: Final = _V[Verb.OPENING]
V_DRAWN: Final = _V[Verb.DRAWN]
V_PLAYED: Final = _V[Verb.PLAYED]
V_DESTROYED: Final = _V[Verb.DESTROYED]
V_REMOVED: Final = _V[Verb.REMOVED]
V_RETURNED: Final = _V[Verb.RETURNED]
V_BLOCKED: Final = _V[Verb.BLOCKED]
V_SUCCEEDED: Final = _V[Verb.SUCCEEDED]
V_TAKEN: Final = _V[Verb.TAKEN]
V_SPECIAL: Final = _V[Verb.SPECIAL]
V_OPTION: Final = _V[Verb.OPTION]
V_HERO: Final = _V[Verb.HERO]
V_REFILLED: Final = _V[Verb.REFILLED]
V_CAPTURED: Final = _V[Verb.CAPTURED]
V_KEPT: Final = _V[Verb.KEPT]
V_CLEARED: Final = _V[Verb.CLEARED]
V_DISCARDED: Final = _V[Verb.DISCARDED]

_ITEMS: list[str] = [card.id for card in ZETA_CARDS]
"""Every item a fact has named in this process, by index; Zeta's cards first, in their index order
(the engine's compact codes name a card by its index)."""
_ITEM_INDEX: dict[str, int] = {item: i for i, item in enumerate(_ITEMS)}


def _item(name: str) -> int:
    """The index of an item (interned on first sight)."""
    i = _ITEM_INDEX.get(name)
    if i is None:
        i = _ITEM_INDEX[name] = len(_ITEMS)
        _ITEMS.append(str(name))
    return i


class _Tally:
    """A game's facts as they are read: one packed int per occurrence (``keys``, counted when the
    facts are decoded), and the JSON items of the facts ``CODEBOOK`` cannot pack (``rest``)."""

    def __init__(self) -> None:
        self.keys: list[int] = []
        self.rest: list[str] = []


_ONE: Final = 1 << 40
"""A count of one, in its place in a packed fact (``PACKED_LAYOUT``)."""
_TURN_LIMIT: Final = 1 << 16
_COUNT_LIMIT: Final = 1 << 23


def _count(tally: _Tally, seat: int, verb: int, item: str, turn: int, n: int = 1) -> None:
    """Add ``n`` to the fact ``(seat, verb, item, turn)`` (``verb`` as shifted in ``_V``).

    >>> tally = _Tally()
    >>> _count(tally, 0, V_DRAWN, "fire_mage", 3, 2)
    >>> _count(tally, 1, V_OPTION, "my own card", 5)
    >>> unpack_facts(_to_bytes(tally.keys)), tally.rest
    ((Fact(seat=0, verb=<Verb.DRAWN: 'drawn'>, item='fire_mage', turn=3, count=2),), ['[1,"option","my own card",5,1]'])
    """
    i = _item(item)
    if i < _NAMED_ITEMS and 0 <= seat < 8 and 0 <= turn < _TURN_LIMIT and 0 < n < _COUNT_LIMIT:
        tally.keys.append(seat | verb | i << 8 | turn << 24 | n << 40)
    else:
        tally.rest.append(json.dumps([seat, str(_VERB_LIST[verb >> 3]), _ITEMS[i], turn, n], separators=(",", ":"),
                                     ensure_ascii=False))


def _game_facts_of(first: int | None, turns: int, tally: _Tally, context: tuple[dict[str, Any], ...],
                   head: bytes = b"") -> GameFacts:
    """The game's facts from its tally, packed at once; ``head`` is packed facts that come first."""
    rest = tally.rest
    return GameFacts(first, turns, None, context, encoded=f"[{','.join(rest)}]" if rest else "[]",
                     codes=head + _to_bytes(tally.keys), codebook=CODEBOOK)


def _merged(public: Mapping[str, Any] | None, secret: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """An event's public and secret parts as one mapping (what ``Event.revealed()`` holds)."""
    if not secret:
        return public or {}
    return {**(public or {}), **secret}


# -- Zeta ----------------------------------------------------------------------------------------
_ZETA_DECKS: dict[tuple[int, int], tuple[Any, bytes, tuple[dict[str, Any], ...], str]] = {}


def _zeta_decks(state: State) -> tuple[Any, bytes, tuple[dict[str, Any], ...], str]:
    """The setup, the packed ``in_deck`` facts of both decklists, the context (each seat's deck) and its JSON.

    Cached per game and setup unless a deck is drawn at random: every game of a run shares them (the
    context's dicts too; nothing writes to a game's context).
    """
    setup = state.setup
    key = (id(state.game), id(setup))
    found = _ZETA_DECKS.get(key)
    if found is not None and found[0] is setup:
        return found
    decks = setup.get("decks", [])
    context = tuple({"deck": _deck_name(decks[s]) if s < len(decks) else "?"} for s in range(state.num_players))
    tally = _Tally()
    for token, copies in sorted(state.expected_cards().items()):
        owner, _, card_id = token.partition(":")
        if owner.isdigit():
            _count(tally, int(owner), V_IN_DECK, card_id, 0, copies)
    encoded = _to_bytes(tally.keys)  # every Zeta card is in the codebook: ``tally.rest`` is empty
    out = (setup, encoded, context, json.dumps(list(context), separators=(",", ":"), ensure_ascii=False))
    if "random" not in decks:
        if len(_ZETA_DECKS) > 256:
            _ZETA_DECKS.clear()
        _ZETA_DECKS[key] = out  # the setup object is kept, so its id is not reused
    return out


def zeta_facts(state: State) -> GameFacts:
    """Zeta: decks, opening hands (ZETA-R9-R11), draws (R28), placements (R14), destroyed cards (R25).

    The turn starts, draws, plain placements and destroyed cards come as the engine's compact codes
    (ints) and are counted without unpacking a row: a code's card index is the card's item index.
    """
    tally = _Tally()
    keys = tally.keys
    turn = 0
    first: int | None = None
    for row in state.event_rows():
        if type(row) is int:
            code: int = row
            kind = code & 3
            if kind == CODE_DRAW:
                key = (code >> 2 & 1) | V_DRAWN | (code >> 3 & 1023) << 8 | turn << 24
            elif kind == CODE_PLACE:
                key = (code >> 2 & 1) | V_PLAYED | (code >> 3 & 1023) << 8 | turn << 24
            elif kind == CODE_DESTROY:  # the owner's card, destroyed or removed (bit 15)
                if code >> 22 & 3:
                    continue  # a decision, a Fanfare's notice or a lasting effect (kind 0's other codes)
                key = ((code >> 2 & 1) | (V_REMOVED if code >> 15 & 1 else V_DESTROYED) | (code >> 3 & 31) << 8
                       | turn << 24)
            else:  # CODE_TURN
                turn = code >> 3 & 1023
                continue
            keys.append(key | _ONE)
            continue
        kind_name: str = row[0]
        pub = row[1]
        sec = row[2]
        if kind_name == "draw":
            _count(tally, pub["player"], V_DRAWN, sec["card"] if sec else "?", turn)
        elif kind_name == "turn":
            turn = int(pub["turn"])
        elif kind_name == "place":
            _count(tally, pub["player"], V_PLAYED, pub["card"], turn)
        elif kind_name == "deal":  # the seat is public, the cards are its secret
            if sec:
                seat = pub["player"]
                for card_id in sec.get("cards", ()):
                    _count(tally, seat, V_OPENING, card_id, turn)
        elif kind_name == "first_player":
            first = int(pub["player"])
        elif kind_name in _ZETA_OTHER:
            e = _merged(pub, sec)
            seat = e.get("player")
            if kind_name == "mulligan" and e.get("taken") and isinstance(seat, int):
                # ZETA-R11: the new hand is the opening hand
                tally.keys = keys = [k for k in keys if not (k & 7 == seat and k & 0xF8 == V_OPENING)]
                for card_id in e.get("cards", ()):
                    _count(tally, seat, V_OPENING, card_id, turn)
            else:
                verb, who = _ZETA_OTHER[kind_name]
                seat = e.get(who)
                if verb is not None and isinstance(seat, int):
                    _count(tally, seat, _V[verb], e["card"], turn)
    _, head, context, context_json = _zeta_decks(state)
    out = _game_facts_of(first, turn, tally, context, head)
    out._context_json = context_json
    return out


_ZETA_OTHER: dict[str, tuple[Verb | None, str]] = {
    "mulligan": (None, "player"),
    "destroy": (Verb.DESTROYED, "owner"), "remove": (Verb.REMOVED, "owner"), "return": (Verb.RETURNED, "player"),
}
"""The rarer Zeta events that make facts: (verb, the field naming the seat); the frequent ones are inlined."""


def _deck_name(spec: Any) -> str:
    if isinstance(spec, Mapping):
        return str(spec.get("name", "custom"))
    return str(spec)


# -- Oscilloscope --------------------------------------------------------------------------------
def oscilloscope_facts(state: State) -> GameFacts:
    """Oscilloscope: dealt and drawn cards, triggers placed (OSC-R12), captures (R29, R30), refills (R37)."""
    tally = _Tally()
    keys = tally.keys
    turn = 0
    first: int | None = 0 if state.num_players == 1 else None
    context: list[dict[str, Any]] = [{} for _ in range(state.num_players)]
    items = _OSC_ITEMS
    for row in state.event_rows():
        if type(row) is int:  # the engine's compact codes: draws, refills, placements, discards, notices ...
            code: int = row
            kind_code = code & 7
            if kind_code == OSC_CODE_TURN:
                turn = code >> 6 & 1023
                continue
            if kind_code == OSC_CODE_CAPTURE:  # the captured cards, the kept trigger, the clears scored
                capturer = code >> 3 & 7
                train_cards = code >> 48 & 0xFFFFFF  # four bits a train
                while train_cards:
                    nibble = train_cards & 15
                    if nibble:
                        key = capturer | V_CAPTURED | items[nibble - 1] << 8 | turn << 24
                        keys.append(key | _ONE)
                    train_cards >>= 4
                kept = code >> 9 & 15
                if kept:
                    key = capturer | V_KEPT | items[kept - 1] << 8 | turn << 24
                    keys.append(key | _ONE)
                clears = code >> 13 & 7
                if clears:
                    _count(tally, capturer, V_CLEARED, "CLEAR", turn, clears)
                continue
            verb_item = _OSC_CODE_KEYS[kind_code | (code >> 3 & 56)]  # by the kind and the card (bits 6-8)
            if verb_item < 0:
                continue  # a notice makes no fact
            key = (code >> 3 & 7) | verb_item | turn << 24
            keys.append(key | _ONE)
            continue
        kind: str = row[0]
        pub = row[1]
        if kind == "draw":
            sec = row[2]
            card = sec.get("card") if sec else pub.get("card")
            if card is not None:
                _count(tally, pub["player"], V_DRAWN, card, turn)
        elif kind == "refill":
            _count(tally, pub["player"], V_REFILLED, pub["card"], turn)
        elif kind == "turn":
            turn = int(pub.get("set", turn))
        elif kind == "place":
            _count(tally, pub["player"], V_PLAYED, pub["card"], turn)
        elif kind == "discard":
            _count(tally, pub["player"], V_DISCARDED, pub["card"], turn)
        elif kind in _OSC_OTHER:
            e = _merged(pub, row[2])
            seat = e.get("player")
            if kind == "capture" and isinstance(seat, int):
                for part in e.get("cards", ()):
                    _count(tally, seat, V_CAPTURED, part["card"], turn)
                if e.get("kept"):
                    _count(tally, seat, V_KEPT, e["kept"], turn)
                clears = len(e.get("clears") or ())
                if clears:
                    _count(tally, seat, V_CLEARED, "CLEAR", turn, clears)
            elif kind == "start":
                first = int(e["player"])
            elif kind == "deal" and isinstance(seat, int):
                for card in [*e.get("pulse_cards", ()), *e.get("trigger_cards", ())]:
                    _count(tally, seat, V_OPENING, card, turn)
            elif kind == "exchange":
                _count(tally, 0, V_SPECIAL, "exchange", turn)
            elif kind == "decline" and isinstance(seat, int):
                _count(tally, seat, V_SPECIAL, "decline_capture", turn)
            elif kind == "score":
                for score_row in e.get("scores", ()):
                    p = score_row.get("player")
                    if isinstance(p, int) and 0 <= p < len(context):
                        context[p].update({k: v for k, v in score_row.items() if k != "player"})
    return _game_facts_of(first, turn, tally, tuple(context))


_OSC_ITEMS: Final = tuple(_item(token) for token in OSC_TOKENS)
"""The item index of each Oscilloscope card (a compact code names a card by its index in ``TOKENS``)."""
_OSC_CODE_VERBS: Final = tuple({OSC_CODE_DRAW_PULSE: V_DRAWN, OSC_CODE_DRAW_TRIGGER: V_DRAWN, OSC_CODE_REFILL: V_REFILLED,
                                 OSC_CODE_PLACE: V_PLAYED, OSC_CODE_DISCARD: V_DISCARDED}.get(k, -1) for k in range(8))
"""The verb of each Oscilloscope code's fact (-1: the code makes none)."""
_OSC_CODE_KEYS: Final = tuple(-1 if _OSC_CODE_VERBS[i & 7] < 0 else _OSC_CODE_VERBS[i & 7] | _OSC_ITEMS[i >> 3] << 8
                              for i in range(64))
"""The verb and item part of a code's fact key by ``kind | card << 3`` (-1: the code makes none)."""
_OSC_OTHER = frozenset({"capture", "start", "deal", "exchange", "decline", "score"})
"""The rarer Oscilloscope events that make facts (the frequent ones are inlined)."""


# -- Utahime -------------------------------------------------------------------------------------
class UtahimePlay(StrEnum):
    """The special plays of Utahime the lab counts (the ``item`` of a ``special`` fact)."""

    DIAMOND_NEXT = "diamond_next"
    """An attack declaring ♦NEXT (UTA-R48)."""
    CLUB_NEXT = "club_next"
    """An attack declaring ♣NEXT (UTA-R49)."""
    HEART_NEXT = "heart_next"
    """♥NEXT after the own attack (UTA-R51)."""
    HEART_ACE = "heart_ace"
    """An attack with ♥A (UTA-R27)."""
    SPADE_ACE = "spade_ace"
    """An attack with ♠A (UTA-R28)."""
    CLUB_ACE_REACTION = "club_ace_reaction"
    """♣A cancelling the attacker's draw (UTA-R29)."""
    DIAMOND_ACE_REACTION = "diamond_ace_reaction"
    """♦A cancelling a ♠/♦ effect (UTA-R30)."""
    JOKER = "joker"
    """The joker (UTA-R45)."""
    PASS = "pass"
    """A pass (UTA-R44)."""
    SET = "set_jqk"
    """A J/Q/K set face down (UTA-R37)."""
    COSMIC = "cosmic"
    """A cosmic card taken into the hand (UTA-R52)."""
    BLOCK = "block"
    """A block (UTA-R21)."""
    SUCCESS = "attack_success"
    """An attack that succeeded (UTA-R22)."""
    STALL = "stall"
    """A turn with no main action (UTA-R56)."""


def utahime_card(token: Any) -> str:
    """A Utahime card token without its zone marks: ``~H7`` -> ``H7``, ``D6+`` (a cosmic card) -> ``D6``.

    >>> utahime_card("~C10+")
    'C10'
    """
    return str(token).lstrip("~").rstrip("+")


class _CardNames(dict[Any, str]):
    """``utahime_card`` of each token, made once (a game names a few dozen tokens hundreds of times)."""

    def __missing__(self, token: Any) -> str:
        if len(self) > 10_000:
            self.clear()
        out = self[token] = utahime_card(token)
        return out


_UTAHIME_CARDS = _CardNames()


def utahime_facts(state: State) -> GameFacts:
    """Utahime: hands, attacks by card (UTA-R14), blocks (R21), special plays, option and hero cards."""
    tally = _Tally()
    keys = tally.keys
    names = _UTAHIME_CARDS
    turn = 0
    first: int | None = None
    attack = ""
    plays = _UTAHIME_PLAYS
    kinds = _UTAHIME_FACT_KINDS
    for row in state.event_rows():
        if type(row) is int:  # the engine's compact codes: turns, energy, notices, passes, attacks ...
            code: int = row
            code_kind = code & 15
            at = turn << 24 | (code >> 4 & 1)  # the key's turn and seat
            if code_kind == UTA_CODE_TURN:
                turn = code >> 6 & _UTA_TURN_MASK
                continue
            if code_kind == UTA_CODE_ATTACK:
                card_index = code >> 6 & 127
                attack = _UTA_ITEM_NAMES[card_index]
                parts = _UTA_ATTACK_KEYS[card_index | (code >> 6 & 128)]
            elif code_kind == UTA_CODE_NOTICE:
                notice = code >> 6 & 7
                if notice == UTA_NOTICE_SUCCESS:
                    parts = (_K_SUCCESS, V_SUCCEEDED | _item(attack) << 8)
                elif notice == UTA_NOTICE_STALL:
                    parts = (_K_STALL,)
                else:
                    continue
            elif code_kind == UTA_CODE_PASS:
                parts = (_K_PASS,)
            elif code_kind == UTA_CODE_BLOCK:
                parts = (_K_BLOCK, V_BLOCKED | _UTA_ITEMS[code >> 6 & 127] << 8)
            elif code_kind == UTA_CODE_COSMIC:
                parts = (_K_COSMIC,)
            elif code_kind == UTA_CODE_DRAW:
                parts = tuple(V_DRAWN | _UTA_ITEMS[code >> (9 + 7 * i) & 127] << 8 for i in range(code >> 6 & 7))
            elif code_kind == UTA_CODE_HEART_NEXT:
                parts = (_K_HEART_NEXT,)
            elif code_kind == UTA_CODE_SET:
                parts = (_K_SET,)
            elif code_kind == UTA_CODE_TAKE:  # a fact of the seat whose card is taken
                at ^= 1
                parts = (V_TAKEN | _UTA_ITEMS[code >> 6 & 127] << 8,)
            else:
                continue  # energy, effects, reveals and picks make no facts
            for part in parts:
                keys.append(part | at | _ONE)
            continue
        kind: str = row[0]
        if kind == "turn":
            turn = int(row[1]["turn"])
            continue
        if kind not in kinds:
            continue
        pub = row[1]
        sec = row[2]
        e = pub if not sec else {**pub, **sec}
        who = e.get("player")
        if not isinstance(who, int):
            if kind == "setup":
                first = int(e["first_player"])
            elif kind in ("take", "discard") and "card" in e and isinstance(e.get("target"), int):
                _count(tally, e["target"], V_TAKEN, names[e["card"]], turn)
            continue
        seat: int = who
        play = plays.get(kind)
        if play is not None:  # a special play by the event's seat, nothing more
            _count(tally, seat, V_SPECIAL, play, turn)
            if kind == "block":
                _count(tally, seat, V_BLOCKED, names[e["card"]], turn)
            elif kind == "success":
                _count(tally, seat, V_SUCCEEDED, attack, turn)
        elif kind == "attack":
            card = attack = names[e["card"]]
            _count(tally, seat, V_PLAYED, card, turn)
            if card == "HA" or card == "SA":
                _count(tally, seat, V_SPECIAL, UtahimePlay.HEART_ACE if card == "HA" else UtahimePlay.SPADE_ACE, turn)
            if e.get("next"):
                _count(tally, seat, V_SPECIAL, UtahimePlay.DIAMOND_NEXT if card[0] == "D" else UtahimePlay.CLUB_NEXT,
                       turn)
        elif kind == "draw":
            for card in e.get("cards", ()):
                _count(tally, seat, V_DRAWN, names[card], turn)
        elif kind == "take" or kind == "discard":
            if "card" in e:
                target = e.get("target", seat)
                if isinstance(target, int):
                    _count(tally, target, V_TAKEN, names[e["card"]], turn)
        elif kind == "setup":
            first = int(e["first_player"])
        elif kind == "deal":
            for card in e.get("cards", ()):
                _count(tally, seat, V_OPENING, names[card], turn)
        elif kind == "react":
            card = utahime_card(e.get("card"))
            _count(tally, seat, V_SPECIAL,
                   UtahimePlay.CLUB_ACE_REACTION if card == "CA" else UtahimePlay.DIAMOND_ACE_REACTION, turn)
        elif kind == "option":
            _count(tally, seat, V_OPTION, str(e.get("option")), turn)
        elif kind == "hero":
            _count(tally, seat, V_HERO, str(e.get("hero")), turn)
    setup = state.setup
    context = tuple({"option_set": str(setup.get("option_set", "none")),
                     "options": list(setup.get(f"p{s + 1}_options", [])),
                     "hero": setup.get(f"p{s + 1}_hero")} for s in range(state.num_players))
    return _game_facts_of(first, turn, tally, context)


_UTA_ITEM_NAMES: Final = tuple(utahime_card(t) for t in UTA_TOKENS)
"""The item each Utahime token code names (the card without its zone marks)."""
_UTA_ITEMS: Final = tuple(_item(name) for name in _UTA_ITEM_NAMES)
"""The item index of each Utahime token code."""
_UTA_TURN_MASK: Final = (1 << (UTA_CODE_MOVE - 6)) - 1


def _play_key(play: UtahimePlay) -> int:
    """The verb and item part of the key of a ``special`` fact of ``play``."""
    return V_SPECIAL | _item(play) << 8


_K_SUCCESS: Final = _play_key(UtahimePlay.SUCCESS)
_K_STALL: Final = _play_key(UtahimePlay.STALL)
_K_PASS: Final = _play_key(UtahimePlay.PASS)
_K_BLOCK: Final = _play_key(UtahimePlay.BLOCK)
_K_COSMIC: Final = _play_key(UtahimePlay.COSMIC)
_K_HEART_NEXT: Final = _play_key(UtahimePlay.HEART_NEXT)
_K_SET: Final = _play_key(UtahimePlay.SET)


def _attack_keys(index: int, declares_next: bool) -> tuple[int, ...]:
    """The key parts of the facts of an attack with the token ``index``: played, then ♥A/♠A, then NEXT."""
    name = _UTA_ITEM_NAMES[index]
    keys = [V_PLAYED | _UTA_ITEMS[index] << 8]
    if name == "HA" or name == "SA":
        keys.append(_play_key(UtahimePlay.HEART_ACE if name == "HA" else UtahimePlay.SPADE_ACE))
    if declares_next:
        keys.append(_play_key(UtahimePlay.DIAMOND_NEXT if name[0] == "D" else UtahimePlay.CLUB_NEXT))
    return tuple(keys)


_UTA_ATTACK_KEYS: Final = tuple(_attack_keys(i & 127, bool(i & 128)) if i & 127 < len(_UTA_ITEM_NAMES) else ()
                                for i in range(256))
"""The key parts of an attack's facts by token code, plus 128 when it declares NEXT."""
_UTAHIME_PLAYS = {"joker": UtahimePlay.JOKER, "pass": UtahimePlay.PASS, "set": UtahimePlay.SET,
                  "cosmic": UtahimePlay.COSMIC, "stall": UtahimePlay.STALL, "heart_next": UtahimePlay.HEART_NEXT,
                  "block": UtahimePlay.BLOCK, "success": UtahimePlay.SUCCESS}
"""The events that are a special play of their seat (a block and a success say more, see ``utahime_facts``)."""
_UTAHIME_FACT_KINDS = frozenset({"attack", "block", "success", "draw", "heart_next", "take", "discard", "setup",
                                 "deal", "react", "option", "hero", *_UTAHIME_PLAYS})
"""The Utahime events that make facts (``turn`` aside): the others are skipped unread."""


# -- the codebook ----------------------------------------------------------------------------------
for _name in ("?", "CLEAR", "exchange", "decline_capture", *UtahimePlay):
    _item(str(_name))
CODEBOOK: Final = Codebook(tuple(str(v) for v in _VERB_LIST), tuple(_ITEMS))
"""This version's codebook: every verb, and every item the fact readers can name but a players' own
option card (interned in the same order in every process, so a worker's packed facts read the same
in the process that stores them and in any later report)."""
_NAMED_ITEMS: Final = len(CODEBOOK.items)
"""Items with an index below this are in ``CODEBOOK``; later ones were met at run time and stay JSON."""


# -- dispatch ------------------------------------------------------------------------------------
EXTRACTORS: dict[str, Callable[[State], GameFacts]] = {
    "zeta": zeta_facts,
    "oscilloscope": oscilloscope_facts,
    "utahime": utahime_facts,
}
"""The fact extractor of each game (a game missing here gets outcome-only facts)."""


def game_facts(state: State) -> GameFacts:
    """The facts of a finished game whose state recorded its events (``record_events=True``)."""
    extract = EXTRACTORS.get(state.game.name)
    if extract is None:
        return GameFacts(None, 0, (), tuple({} for _ in range(state.num_players)))
    return extract(state)
