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

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

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


@dataclass(frozen=True, slots=True)
class Fact:
    """``count`` times ``verb`` of ``item`` by (or to) ``seat`` in ``turn`` (0: the setup)."""

    seat: int
    verb: Verb
    item: str
    turn: int
    count: int = 1

    def to_json(self) -> list[Any]:
        """The fact as a compact JSON array ``[seat, verb, item, turn, count]``."""
        return [self.seat, str(self.verb), self.item, self.turn, self.count]


@dataclass(frozen=True)
class GameFacts:
    """Everything the lab keeps about one finished game besides its outcome."""

    first_player: int | None
    """The seat that moved first (None if the game names none)."""
    turns: int
    """The number of the last turn (a Zeta or Utahime turn, an Oscilloscope set; 0 if the game counts none)."""
    facts: tuple[Fact, ...]
    context: tuple[dict[str, Any], ...] = field(default_factory=tuple)
    """Per seat: what the setup gave it (a Zeta deck's name, Utahime option cards) and final score parts."""


class _Tally:
    """Counts facts while the event log is read."""

    def __init__(self) -> None:
        self.counts: Counter[tuple[int, Verb, str, int]] = Counter()
        self.turn = 0

    def add(self, seat: Any, verb: Verb, item: Any, count: int = 1, turn: int | None = None) -> None:
        if isinstance(seat, int) and count:
            self.counts[(seat, verb, str(item), self.turn if turn is None else turn)] += count

    def drop(self, seat: int, verb: Verb) -> None:
        for key in [k for k in self.counts if k[0] == seat and k[1] is verb]:
            del self.counts[key]

    def facts(self) -> tuple[Fact, ...]:
        # keys sort as (seat, verb, item, turn): a Verb compares as its string
        return tuple(Fact(s, v, i, t, n) for (s, v, i, t), n in sorted(self.counts.items()))


def _events(state: State) -> Iterable[dict[str, Any]]:
    """Every event with its secret part (``Event.revealed()`` without the seats it was for)."""
    for e in state.events:
        out = {"kind": e.kind, **e.public}
        if e.secret:
            out.update(e.secret)
        yield out


# -- Zeta ----------------------------------------------------------------------------------------
def zeta_facts(state: State) -> GameFacts:
    """Zeta: decks, opening hands (ZETA-R9-R11), draws (R28), placements (R14), destroyed cards (R25)."""
    tally = _Tally()
    first: int | None = None
    for token, copies in Counter(t for cards in state.zones().values() for t in cards).items():
        owner, _, card_id = token.partition(":")
        if owner.isdigit():
            tally.add(int(owner), Verb.IN_DECK, card_id, copies, turn=0)
    for e in _events(state):
        kind = e["kind"]
        seat = e.get("player")
        if kind == "turn":
            tally.turn = int(e["turn"])
        elif kind == "first_player":
            first = int(e["player"])
        elif kind == "deal":
            for card_id in e.get("cards", ()):
                tally.add(seat, Verb.OPENING, card_id)
        elif kind == "mulligan" and e.get("taken") and isinstance(seat, int):
            tally.drop(seat, Verb.OPENING)  # ZETA-R11: the new hand is the opening hand
            for card_id in e.get("cards", ()):
                tally.add(seat, Verb.OPENING, card_id)
        elif kind == "draw":
            tally.add(seat, Verb.DRAWN, e.get("card", "?"))
        elif kind == "place":
            tally.add(seat, Verb.PLAYED, e["card"])
        elif kind == "destroy":
            tally.add(e.get("owner"), Verb.DESTROYED, e["card"])
        elif kind == "remove":
            tally.add(e.get("owner"), Verb.REMOVED, e["card"])
        elif kind == "return":
            tally.add(seat, Verb.RETURNED, e["card"])
    decks = state.setup.get("decks", [])
    context = tuple({"deck": _deck_name(decks[s]) if s < len(decks) else "?"} for s in range(state.num_players))
    return GameFacts(first, tally.turn, tally.facts(), context)


def _deck_name(spec: Any) -> str:
    if isinstance(spec, Mapping):
        return str(spec.get("name", "custom"))
    return str(spec)


# -- Oscilloscope --------------------------------------------------------------------------------
def oscilloscope_facts(state: State) -> GameFacts:
    """Oscilloscope: dealt and drawn cards, triggers placed (OSC-R12), captures (R29, R30), refills (R37)."""
    tally = _Tally()
    first: int | None = 0 if state.num_players == 1 else None
    context: list[dict[str, Any]] = [{} for _ in range(state.num_players)]
    for e in _events(state):
        kind = e["kind"]
        seat = e.get("player")
        if kind == "turn":
            tally.turn = int(e.get("set", tally.turn))
        elif kind == "start":
            first = int(e["player"])
        elif kind == "deal":
            for card in [*e.get("pulse_cards", ()), *e.get("trigger_cards", ())]:
                tally.add(seat, Verb.OPENING, card)
        elif kind == "draw" and "card" in e:
            tally.add(seat, Verb.DRAWN, e["card"])
        elif kind == "place":
            tally.add(seat, Verb.PLAYED, e["card"])
        elif kind == "capture":
            for part in e.get("cards", ()):
                tally.add(seat, Verb.CAPTURED, part["card"])
            if e.get("kept"):
                tally.add(seat, Verb.KEPT, e["kept"])
            tally.add(seat, Verb.CLEARED, "CLEAR", len(e.get("clears") or ()))
        elif kind == "refill":
            tally.add(seat, Verb.REFILLED, e["card"])
        elif kind == "discard":
            tally.add(seat, Verb.DISCARDED, e["card"])
        elif kind == "exchange":
            tally.add(0, Verb.SPECIAL, "exchange")
        elif kind == "decline":
            tally.add(seat, Verb.SPECIAL, "decline_capture")
        elif kind == "score":
            for row in e.get("scores", ()):
                p = row.get("player")
                if isinstance(p, int) and 0 <= p < len(context):
                    context[p].update({k: v for k, v in row.items() if k != "player"})
    return GameFacts(first, tally.turn, tally.facts(), tuple(context))


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


def utahime_facts(state: State) -> GameFacts:
    """Utahime: hands, attacks by card (UTA-R14), blocks (R21), special plays, option and hero cards."""
    tally = _Tally()
    first: int | None = None
    attack = ""
    for e in _events(state):
        kind = e["kind"]
        seat = e.get("player")
        if kind == "turn":
            tally.turn = int(e["turn"])
        elif kind == "setup":
            first = int(e["first_player"])
        elif kind == "deal":
            for card in e.get("cards", ()):
                tally.add(seat, Verb.OPENING, utahime_card(card))
        elif kind == "draw":
            for card in e.get("cards", ()):
                tally.add(seat, Verb.DRAWN, utahime_card(card))
        elif kind == "attack":
            card = attack = utahime_card(e["card"])
            tally.add(seat, Verb.PLAYED, card)
            if card in ("HA", "SA"):
                tally.add(seat, Verb.SPECIAL, UtahimePlay.HEART_ACE if card == "HA" else UtahimePlay.SPADE_ACE)
            if e.get("next"):
                tally.add(seat, Verb.SPECIAL, UtahimePlay.DIAMOND_NEXT if card[0] == "D" else UtahimePlay.CLUB_NEXT)
        elif kind == "heart_next":
            tally.add(seat, Verb.SPECIAL, UtahimePlay.HEART_NEXT)
        elif kind == "react":
            card = utahime_card(e.get("card"))
            tally.add(seat, Verb.SPECIAL,
                      UtahimePlay.CLUB_ACE_REACTION if card == "CA" else UtahimePlay.DIAMOND_ACE_REACTION)
        elif kind == "block":
            tally.add(seat, Verb.BLOCKED, utahime_card(e["card"]))
            tally.add(seat, Verb.SPECIAL, UtahimePlay.BLOCK)
        elif kind == "success":
            tally.add(seat, Verb.SPECIAL, UtahimePlay.SUCCESS)
            tally.add(seat, Verb.SUCCEEDED, attack)
        elif kind in ("take", "discard") and "card" in e:
            tally.add(e.get("target", seat), Verb.TAKEN, utahime_card(e["card"]))
        elif kind == "option":
            tally.add(seat, Verb.OPTION, e.get("option"))
        elif kind == "hero":
            tally.add(seat, Verb.HERO, e.get("hero"))
        else:
            play = _UTAHIME_PLAYS.get(kind)
            if play is not None:
                tally.add(seat, Verb.SPECIAL, play)
    setup = state.setup
    context = tuple({"option_set": str(setup.get("option_set", "none")),
                     "options": list(setup.get(f"p{s + 1}_options", [])),
                     "hero": setup.get(f"p{s + 1}_hero")} for s in range(state.num_players))
    return GameFacts(first, tally.turn, tally.facts(), context)


_UTAHIME_PLAYS = {"joker": UtahimePlay.JOKER, "pass": UtahimePlay.PASS, "set": UtahimePlay.SET,
                  "cosmic": UtahimePlay.COSMIC, "stall": UtahimePlay.STALL}


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
