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
from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from typing import Any, NamedTuple

from cardtable.core import State


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
    """Facts from their stored form (``encode_facts``): a JSON array of ``[seat, verb, item, turn, count]``.

    >>> decode_facts(encode_facts((Fact(0, Verb.PLAYED, "fire_mage", 3),)))
    (Fact(seat=0, verb=<Verb.PLAYED: 'played'>, item='fire_mage', turn=3, count=1),)
    """
    verbs = _VERBS
    return tuple(_new_tuple(Fact, (s, verbs[v], i, t, n)) for s, v, i, t, n in json.loads(text))


def encode_facts(facts: Iterable[Fact]) -> str:
    """The stored form of facts: one compact JSON array (a verb is its string)."""
    return json.dumps([[s, str(v), i, t, n] for s, v, i, t, n in facts], separators=(",", ":"), ensure_ascii=False)


class GameFacts:
    """Everything the lab keeps about one finished game besides its outcome.

    The facts travel from a worker and into the store in their encoded form (one JSON text), which
    is made once, in the worker; they are decoded only when read.
    """

    __slots__ = ("first_player", "turns", "context", "_facts", "_encoded", "_context_json")

    def __init__(self, first_player: int | None, turns: int, facts: tuple[Fact, ...] | None = (),
                 context: tuple[dict[str, Any], ...] = (), *, encoded: str | None = None) -> None:
        """Facts given as tuples, or (``facts=None``) as their ``encoded`` text."""
        self.first_player = first_player
        """The seat that moved first (None if the game names none)."""
        self.turns = turns
        """The number of the last turn (a Zeta or Utahime turn, an Oscilloscope set; 0 if the game counts none)."""
        self.context = context
        """Per seat: what the setup gave it (a Zeta deck's name, Utahime option cards) and final score parts."""
        self._facts = facts
        self._encoded = encoded
        self._context_json: str | None = None
        if facts is None and encoded is None:
            raise ValueError("GameFacts needs its facts or their encoded text")

    @property
    def facts(self) -> tuple[Fact, ...]:
        """Every fact of the game, in the order each first happened (decoded when first read)."""
        if self._facts is None:
            self._facts = decode_facts(self._encoded or "[]")
        return self._facts

    def encoded(self) -> str:
        """The facts' stored form (``encode_facts``), made once."""
        if self._encoded is None:
            self._encoded = encode_facts(self._facts or ())
        return self._encoded

    def encoded_context(self) -> str:
        """The context as compact JSON text, made once (by the worker, when the facts travel)."""
        if self._context_json is None:
            self._context_json = json.dumps([dict(c) for c in self.context], separators=(",", ":"),
                                            ensure_ascii=False)
        return self._context_json

    def __reduce__(self) -> tuple[Any, ...]:
        return (_game_facts, (self.first_player, self.turns, self.encoded(), self.context, self.encoded_context()))

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
                context_json: str | None = None) -> GameFacts:
    out = GameFacts(first_player, turns, None, context, encoded=encoded)
    out._context_json = context_json
    return out


_Counts = dict[tuple[int, Verb, str, int], int]


class _JsonText(dict[Any, str]):
    """The JSON text of each string or int, made once: facts repeat a few dozen items, verbs and numbers."""

    def __missing__(self, value: Any) -> str:
        if len(self) > 20_000:
            self.clear()
        out = self[value] = json.dumps(value, ensure_ascii=False)
        return out


_JSON = _JsonText()


def _encode_counts(counts: _Counts) -> str:
    """Counted facts as their stored form's array items (no brackets), in the order each first happened.

    The same text ``json.dumps`` makes of ``[seat, verb, item, turn, count]`` rows, at a third of
    its cost: the JSON text of every value is looked up, not made again.

    >>> _encode_counts({(0, Verb.DRAWN, 'fire_mage', 3): 2})
    '[0,"drawn","fire_mage",3,2]'
    """
    j = _JSON
    return ",".join([f"[{j[s]},{j[v]},{j[i]},{j[t]},{j[n]}]" for (s, v, i, t), n in counts.items() if n])


def _game_facts_of(first: int | None, turns: int, counts: _Counts, context: tuple[dict[str, Any], ...],
                   head: str = "") -> GameFacts:
    """The game's facts from its counts, encoded at once; ``head`` is encoded facts that come first."""
    body = _encode_counts(counts)
    return GameFacts(first, turns, None, context, encoded=f"[{head}{',' if head and body else ''}{body}]")


def _merged(public: Mapping[str, Any] | None, secret: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """An event's public and secret parts as one mapping (what ``Event.revealed()`` holds)."""
    if not secret:
        return public or {}
    return {**(public or {}), **secret}


IN_DECK, OPENING, DRAWN, PLAYED = Verb.IN_DECK, Verb.OPENING, Verb.DRAWN, Verb.PLAYED


# -- Zeta ----------------------------------------------------------------------------------------
_ZETA_DECKS: dict[tuple[int, int], tuple[Any, str]] = {}


def _zeta_deck_facts(state: State) -> str:
    """The ``in_deck`` facts of both decklists, encoded; cached per game and setup unless a deck is drawn at random."""
    setup = state.setup
    key = (id(state.game), id(setup))
    found = _ZETA_DECKS.get(key)
    if found is not None and found[0] is setup:
        return found[1]
    counts: _Counts = {}
    for token, copies in sorted(state.expected_cards().items()):
        owner, _, card_id = token.partition(":")
        if owner.isdigit():
            counts[(int(owner), IN_DECK, card_id, 0)] = copies
    encoded = _encode_counts(counts)
    if "random" not in setup.get("decks", ()):
        if len(_ZETA_DECKS) > 256:
            _ZETA_DECKS.clear()
        _ZETA_DECKS[key] = (setup, encoded)  # the setup object is kept, so its id is not reused
    return encoded


def zeta_facts(state: State) -> GameFacts:
    """Zeta: decks, opening hands (ZETA-R9-R11), draws (R28), placements (R14), destroyed cards (R25)."""
    counts: _Counts = {}
    get = counts.get
    turn = 0
    first: int | None = None
    for kind, pub, sec, _to, _move in state.event_rows():
        if kind == "draw":
            key = (pub["player"], DRAWN, sec["card"] if sec else "?", turn)
            counts[key] = get(key, 0) + 1
        elif kind == "turn":
            turn = int(pub["turn"])
        elif kind == "place":
            key = (pub["player"], PLAYED, pub["card"], turn)
            counts[key] = get(key, 0) + 1
        elif kind in _ZETA_OTHER:
            e = _merged(pub, sec)
            seat = e.get("player")
            if kind == "first_player":
                first = int(e["player"])
            elif kind == "deal" and isinstance(seat, int):
                for card_id in e.get("cards", ()):
                    key = (seat, OPENING, card_id, turn)
                    counts[key] = get(key, 0) + 1
            elif kind == "mulligan" and e.get("taken") and isinstance(seat, int):
                for key in [k for k in counts if k[0] == seat and k[1] is OPENING]:
                    del counts[key]  # ZETA-R11: the new hand is the opening hand
                for card_id in e.get("cards", ()):
                    key = (seat, OPENING, card_id, turn)
                    counts[key] = get(key, 0) + 1
            else:
                verb, who = _ZETA_OTHER[kind]
                seat = e.get(who)
                if verb is not None and isinstance(seat, int):
                    key = (seat, verb, e["card"], turn)
                    counts[key] = get(key, 0) + 1
    decks = state.setup.get("decks", [])
    context = tuple({"deck": _deck_name(decks[s]) if s < len(decks) else "?"} for s in range(state.num_players))
    return _game_facts_of(first, turn, counts, context, _zeta_deck_facts(state))


_ZETA_OTHER: dict[str, tuple[Verb | None, str]] = {
    "first_player": (None, "player"), "deal": (None, "player"), "mulligan": (None, "player"),
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
    counts: _Counts = {}
    get = counts.get
    turn = 0
    first: int | None = 0 if state.num_players == 1 else None
    context: list[dict[str, Any]] = [{} for _ in range(state.num_players)]
    refilled, discarded = Verb.REFILLED, Verb.DISCARDED
    for kind, pub, sec, _to, _move in state.event_rows():
        if kind == "draw":
            card = sec.get("card") if sec else pub.get("card")
            if card is not None:
                key = (pub["player"], DRAWN, card, turn)
                counts[key] = get(key, 0) + 1
        elif kind == "refill":
            key = (pub["player"], refilled, pub["card"], turn)
            counts[key] = get(key, 0) + 1
        elif kind == "turn":
            turn = int(pub.get("set", turn))
        elif kind == "place":
            key = (pub["player"], PLAYED, pub["card"], turn)
            counts[key] = get(key, 0) + 1
        elif kind == "discard":
            key = (pub["player"], discarded, pub["card"], turn)
            counts[key] = get(key, 0) + 1
        elif kind in _OSC_OTHER:
            e = _merged(pub, sec)
            seat = e.get("player")
            if kind == "capture" and isinstance(seat, int):
                for part in e.get("cards", ()):
                    key = (seat, Verb.CAPTURED, part["card"], turn)
                    counts[key] = get(key, 0) + 1
                if e.get("kept"):
                    key = (seat, Verb.KEPT, e["kept"], turn)
                    counts[key] = get(key, 0) + 1
                clears = len(e.get("clears") or ())
                if clears:
                    key = (seat, Verb.CLEARED, "CLEAR", turn)
                    counts[key] = get(key, 0) + clears
            elif kind == "start":
                first = int(e["player"])
            elif kind == "deal" and isinstance(seat, int):
                for card in [*e.get("pulse_cards", ()), *e.get("trigger_cards", ())]:
                    key = (seat, OPENING, card, turn)
                    counts[key] = get(key, 0) + 1
            elif kind == "exchange":
                key = (0, Verb.SPECIAL, "exchange", turn)
                counts[key] = get(key, 0) + 1
            elif kind == "decline" and isinstance(seat, int):
                key = (seat, Verb.SPECIAL, "decline_capture", turn)
                counts[key] = get(key, 0) + 1
            elif kind == "score":
                for row in e.get("scores", ()):
                    p = row.get("player")
                    if isinstance(p, int) and 0 <= p < len(context):
                        context[p].update({k: v for k, v in row.items() if k != "player"})
    return _game_facts_of(first, turn, counts, tuple(context))


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
    counts: _Counts = {}
    get = counts.get
    names = _UTAHIME_CARDS
    turn = 0
    first: int | None = None
    attack = ""
    special = Verb.SPECIAL
    plays = _UTAHIME_PLAYS

    def add(seat: Any, verb: Verb, item: Any) -> None:
        if isinstance(seat, int):
            key = (seat, verb, str(item), turn)
            counts[key] = get(key, 0) + 1

    for kind, pub, sec, _to, _move in state.event_rows():
        if kind == "turn":
            turn = int(pub["turn"])
            continue
        if kind not in _UTAHIME_FACT_KINDS:
            continue
        e = pub if not sec else {**pub, **sec}
        seat = e.get("player")
        play = plays.get(kind)
        if play is not None:  # a special play by the event's seat, nothing more
            if isinstance(seat, int):
                key = (seat, special, play, turn)
                counts[key] = get(key, 0) + 1
            if kind == "block":
                add(seat, Verb.BLOCKED, names[e["card"]])
            elif kind == "success":
                add(seat, Verb.SUCCEEDED, attack)
        elif kind == "attack":
            card = attack = names[e["card"]]
            add(seat, PLAYED, card)
            if card in ("HA", "SA"):
                add(seat, special, UtahimePlay.HEART_ACE if card == "HA" else UtahimePlay.SPADE_ACE)
            if e.get("next"):
                add(seat, special, UtahimePlay.DIAMOND_NEXT if card[0] == "D" else UtahimePlay.CLUB_NEXT)
        elif kind == "draw":
            for card in e.get("cards", ()):
                add(seat, DRAWN, names[card])
        elif kind in ("take", "discard"):
            if "card" in e:
                add(e.get("target", seat), Verb.TAKEN, names[e["card"]])
        elif kind == "setup":
            first = int(e["first_player"])
        elif kind == "deal":
            for card in e.get("cards", ()):
                add(seat, OPENING, names[card])
        elif kind == "react":
            card = utahime_card(e.get("card"))
            add(seat, special, UtahimePlay.CLUB_ACE_REACTION if card == "CA" else UtahimePlay.DIAMOND_ACE_REACTION)
        elif kind == "option":
            add(seat, Verb.OPTION, e.get("option"))
        elif kind == "hero":
            add(seat, Verb.HERO, e.get("hero"))
    setup = state.setup
    context = tuple({"option_set": str(setup.get("option_set", "none")),
                     "options": list(setup.get(f"p{s + 1}_options", [])),
                     "hero": setup.get(f"p{s + 1}_hero")} for s in range(state.num_players))
    return _game_facts_of(first, turn, counts, context)


_UTAHIME_PLAYS = {"joker": UtahimePlay.JOKER, "pass": UtahimePlay.PASS, "set": UtahimePlay.SET,
                  "cosmic": UtahimePlay.COSMIC, "stall": UtahimePlay.STALL, "heart_next": UtahimePlay.HEART_NEXT,
                  "block": UtahimePlay.BLOCK, "success": UtahimePlay.SUCCESS}
"""The events that are a special play of their seat (a block and a success say more, see ``utahime_facts``)."""
_UTAHIME_FACT_KINDS = frozenset({"attack", "block", "success", "draw", "heart_next", "take", "discard", "setup",
                                 "deal", "react", "option", "hero", *_UTAHIME_PLAYS})
"""The Utahime events that make facts (``turn`` aside): the others are skipped unread."""


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
