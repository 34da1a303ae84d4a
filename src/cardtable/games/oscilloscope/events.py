"""What every seat learns in Oscilloscope: the event vocabulary and its plain-English log lines.

Each action, and every automatic step it sets off (the shift, a capture, refill draws, a rebuilt
pulse deck, the end), yields events through ``State._emit`` (see :mod:`cardtable.core.events`).
The screen is open (OSC-I63): trains, triggers, filters, the stock, the discard pile and the score
piles are face up, so almost everything is public. Hands and decks are face down: the card a seat
draws or is dealt is secret to that seat (``card``, ``pulse_cards``, ``trigger_cards``), except a
card everybody saw go under the pulse deck at setup (OSC-R3), whose draw is public (``known``).

Seats are named by the caller's labels (``names[seat]``); a card is named only where the event
names it, so a line never says more than the seat that received the event knows.

>>> names = ["P1 (you)", "P2 (random)"]
>>> describe_event({"kind": "draw", "move": 9, "player": 0, "deck": "pulse", "card": "HL"}, names)
'P1 (you) draws HL from the pulse deck'
>>> describe_event({"kind": "draw", "move": 9, "player": 1, "deck": "pulse"}, names)
'P2 (random) draws a card from the pulse deck'
>>> describe_event({"kind": "capture", "move": 12, "player": 1, "position": 2,
...                 "cards": [{"train": "A", "card": "HL"}, {"train": "B", "card": "NOISE"}],
...                 "kept": "T_HL", "clears": [], "discarded": [], "emptied": []}, names)
'P2 (random) captures time position 2: HL from A, NOISE from B, and keeps T_HL'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any


class OscilloscopeEvent(StrEnum):
    """The kinds of Oscilloscope events (public keys; secret keys go to the seats in ``to``)."""

    TRAIN = "train"
    """Setup: train ``train`` is built from the pulse deck with ``cards``; ``under``: the cards that did not
    connect and went under the pulse deck, in order (OSC-R3)."""
    START = "start"
    """Setup: ``player`` is the start player (OSC-R4)."""
    DEAL = "deal"
    """Setup: ``player`` is dealt ``pulse`` pulse cards and ``trigger`` trigger cards (OSC-R5, OSC-R8);
    secret ``pulse_cards`` and ``trigger_cards``."""
    OFFER = "offer"
    """Solo setup: the three trigger cards ``cards`` to choose the filters from (OSC-R8)."""
    ASSIGN = "assign"
    """``player`` takes train ``train`` (OSC-R6; ``dealt`` under ``train_assignment = random``)."""
    FILTERS = "filters"
    """Solo: the filters of A and B are ``a`` and ``b``; ``stock`` is the exchange stock (OSC-R8)."""
    TURN = "turn"
    """Set ``set`` of ``player`` begins (OSC-R9, OSC-R54)."""
    NO_TRIGGER = "no_trigger"
    """``player`` holds nothing that can be placed: the set goes on without a placement (OSC-R11)."""
    PLACE = "place"
    """``player`` lays ``card`` on ``at`` in trigger set ``step`` (1 or 5); ``result``: ``set`` (empty
    board), ``added`` (stacked or a clear), ``replaced`` or ``cancelled``; ``discarded``: the cards that
    left the board for the discard pile (OSC-R12 to OSC-R20)."""
    PASS = "pass"
    """``player`` places nothing in trigger set ``step`` (OSC-R42, OSC-I15), or no more Low or Hi cards
    (``more``, OSC-I22)."""
    EARLY_END = "early_end"
    """``player``'s first trigger on an empty board ends the turn at once (OSC-R10)."""
    SHIFT = "shift"
    """Every train scrolls left (OSC-R22 to OSC-R26): ``dropped`` lists the ``train``, ``card`` and
    ``trigger`` (or null) pushed off into the discard pile; ``closed``: the trains whose gaps closed."""
    CAPTURE = "capture"
    """``player`` captures time ``position``: ``cards`` (``train`` and ``card`` each) go to their score pile,
    with the ``kept`` trigger or filter (or null) and the ``clears`` that cancel noise; ``discarded``: the
    triggers (filters) sent to the discard pile; ``emptied``: solo filter positions left empty (OSC-R29,
    OSC-R30, OSC-R56, OSC-R57)."""
    DECLINE = "decline"
    """``player`` declines the capture (OSC-I33 variant)."""
    NOISE = "noise"
    """Captured noise that counts towards the end is now ``count`` of ``limit`` (OSC-R34, OSC-R59)."""
    EXCHANGE = "exchange"
    """Solo: the stock ``card`` becomes the filter of ``train``, ``replaced`` (or null) is discarded, and the
    trigger deck's top card ``stock`` (or null) is the new stock (OSC-R55)."""
    REFILL = "refill"
    """``player`` plays ``card`` at the refill slot of ``train``; it leaves level ``out`` (OSC-R37)."""
    MAKE_ROOM = "make_room"
    """A full train ``train`` drops ``card`` (with ``trigger``, or null) to take a refill card (OSC-R39)."""
    DISCARD = "discard"
    """``player`` discards ``card``: nothing in their hand connects (OSC-R37)."""
    DRAW = "draw"
    """``player`` draws from ``deck`` (``pulse`` or ``trigger``); secret ``card``, or a public ``card`` with
    ``known`` true when everybody saw it go under the pulse deck at setup (OSC-R3, OSC-R38, OSC-R40)."""
    DRAW_SKIPPED = "draw_skipped"
    """``player`` must draw but the pulse deck and the discard pile are empty (OSC-R44)."""
    RESHUFFLE = "reshuffle"
    """The discard pile's ``cards`` (``count`` of them) are shuffled into a new pulse deck (OSC-R43)."""
    STOPPED = "stopped"
    """Train ``train`` can no longer be completed and is left out of this refill (OSC-I44 variant)."""
    SCORE = "score"
    """The final count: per player ``waveform``, ``noise``, ``clear``, ``penalty`` and ``score``
    (OSC-R47 to OSC-R49, OSC-R61)."""
    GAME_OVER = "game_over"
    """The game ends: ``winners``, ``reason``, ``rule``, ``scores`` and ``detail`` (OSC-R50, OSC-R51)."""


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"P{seat + 1}" if isinstance(seat, int) else "?"


def _cards(cards: Any) -> str:
    items = [str(c) for c in cards or []]
    return ", ".join(items) if items else "nothing"


def _count(n: Any, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _capture(event: Mapping[str, Any], who: str) -> str:
    cards = [f"{c['card']} from {c['train']}" for c in event.get("cards") or []]
    text = f"{who} captures time position {event.get('position')}: {', '.join(cards) or 'nothing'}"
    extras = []
    if event.get("kept"):
        extras.append(f"keeps {event['kept']}")
    if event.get("clears"):
        extras.append(f"scores {_cards(event['clears'])} against the noise")
    if extras:
        text += ", and " + " and ".join(extras)
    if event.get("discarded"):
        text += f"; {_cards(event['discarded'])} to the discard pile"
    return text


def _place(event: Mapping[str, Any], who: str) -> str:
    text = f"{who} places {event.get('card')} on {event.get('at')}"
    result = event.get("result")
    gone = event.get("discarded") or []
    if result == "cancelled":
        return f"{text}: the same trigger was there, both go to the discard pile"
    if result == "added":
        return f"{text} beside the triggers there"
    if result == "replaced" and gone:
        return f"{text}, replacing {_cards(gone)}"
    return text


def _shift(event: Mapping[str, Any]) -> str:
    dropped = event.get("dropped") or []
    closed = event.get("closed") or []
    parts = []
    for d in dropped:
        part = f"{d['card']} falls off {d['train']}"
        if d.get("trigger"):
            part += f" with the trigger {d['trigger']}"
        parts.append(part)
    if closed:
        parts.append(f"the gaps close in {', '.join(closed)}")
    return "The trains shift left" + (": " + "; ".join(parts) if parts else "")


def _score(event: Mapping[str, Any], names: Sequence[str]) -> str:
    rows = []
    for s in event.get("scores") or []:
        row = f"{_name(names, s.get('player'))} {s.get('score')} ({s.get('waveform')} waveform"
        if s.get("penalty"):
            row += f", {s.get('noise')} noise, {s.get('clear')} clear: -{s.get('penalty')}"
        rows.append(row + ")")
    return "Scores: " + "; ".join(rows)


def _draw(event: Mapping[str, Any], who: str) -> str:
    deck = f"the {event.get('deck')} deck"
    if "card" not in event:
        return f"{who} draws a card from {deck}"
    text = f"{who} draws {event['card']} from {deck}"
    return text + " (everybody saw it go under the deck at setup)" if event.get("known") else text


def _deal(event: Mapping[str, Any], who: str) -> str:
    if "pulse_cards" in event or "trigger_cards" in event:
        parts = [f"{_cards(event.get('pulse_cards'))} from the pulse deck"]
        if event.get("trigger"):
            parts.append(f"{_cards(event.get('trigger_cards'))} from the trigger deck")
        return f"{who} is dealt " + " and ".join(parts)
    parts = [_count(event.get("pulse"), "pulse card")]
    if event.get("trigger"):
        parts.append(_count(event.get("trigger"), "trigger card"))
    return f"{who} is dealt " + " and ".join(parts)


def _game_over(event: Mapping[str, Any], names: Sequence[str]) -> str:
    winners = [_name(names, w) for w in event.get("winners") or []]
    head = "Game over"
    if len(names) == 1:
        head += f": {event.get('detail')}"
    elif winners:
        head += f": {' and '.join(winners)} win" + ("s" if len(winners) == 1 else "")
    reason = f" ({event.get('reason')}, {event.get('rule')})" if event.get("reason") else ""
    return head + reason


def describe_event(event: Mapping[str, Any], names: Sequence[str]) -> str:  # noqa: C901 - one line per kind
    """One event as a seat received it (``Event.seen_by``), in words; ``names[seat]`` labels each seat."""
    kind = event.get("kind")
    who = _name(names, event.get("player"))
    E = OscilloscopeEvent
    if kind == E.TRAIN:
        text = f"Train {event.get('train')} is built: {_cards(event.get('cards'))}"
        under = event.get("under") or []
        return text + (f" ({_cards(under)} did not connect and went under the pulse deck)" if under else "")
    if kind == E.START:
        return f"{who} is the start player"
    if kind == E.DEAL:
        return _deal(event, who)
    if kind == E.OFFER:
        return f"The trigger deck offers {_cards(event.get('cards'))} for the filters"
    if kind == E.ASSIGN:
        return f"{who} {'is dealt' if event.get('dealt') else 'takes'} train {event.get('train')}"
    if kind == E.FILTERS:
        return f"Filters: A {event.get('a')}, B {event.get('b')}; exchange stock {event.get('stock')}"
    if kind == E.TURN:
        return f"Set {event.get('set')}" + ("" if len(names) == 1 else f": {who}'s turn")
    if kind == E.NO_TRIGGER:
        return f"{who} has no trigger to place"
    if kind == E.PLACE:
        return _place(event, who)
    if kind == E.PASS:
        return f"{who} places no {'more triggers' if event.get('more') else 'trigger'}"
    if kind == E.EARLY_END:
        return f"{who} set the first trigger on an empty board: the turn ends at once"
    if kind == E.SHIFT:
        return _shift(event)
    if kind == E.CAPTURE:
        return _capture(event, who)
    if kind == E.DECLINE:
        return f"{who} declines the capture"
    if kind == E.NOISE:
        return f"Noise captured: {event.get('count')} of {event.get('limit')}"
    if kind == E.EXCHANGE:
        text = f"The stock {event.get('card')} becomes the filter of {event.get('train')}"
        if event.get("replaced"):
            text += f", {event['replaced']} is discarded"
        return text + (f"; new stock {event['stock']}" if event.get("stock") else "; no new stock")
    if kind == E.REFILL:
        return f"{who} refills train {event.get('train')} with {event.get('card')}"
    if kind == E.MAKE_ROOM:
        return f"Train {event.get('train')} is full: {event.get('card')} falls off to make room"
    if kind == E.DISCARD:
        return f"{who} discards {event.get('card')}: nothing in hand connects"
    if kind == E.DRAW:
        return _draw(event, who)
    if kind == E.DRAW_SKIPPED:
        return f"{who} cannot draw: the pulse deck and the discard pile are empty"
    if kind == E.RESHUFFLE:
        return f"The discard pile ({_count(event.get('count'), 'card')}) is shuffled into a new pulse deck"
    if kind == E.STOPPED:
        return f"Train {event.get('train')} can no longer be completed and is left out of this refill"
    if kind == E.SCORE:
        return _score(event, names)
    if kind == E.GAME_OVER:
        return _game_over(event, names)
    return f"{kind}: " + ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("kind", "move"))
