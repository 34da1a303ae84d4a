"""What every seat learns in Zeta: the event vocabulary and its plain-English log lines.

Each action (and the setup) yields events through ``State._emit`` (see
:mod:`cardtable.core.events`). Everything on the board, in the Destroyed piles and in the effects
is public (ZETA-R3), so almost every event is public; what a seat draws or is dealt is secret to
that seat (its ``card`` / ``cards``). A card is named in a public part only once it is face up:
placed, destroyed (cards destroyed from a hand are revealed, R25) or returned to a hand from the
board by a Wind Mage (R45).

Every card mention carries the seat that owns the card (``player`` or ``owner``), so a log can be
checked against what that seat may know.

>>> names = ["P1 (you)", "P2 (random)"]
>>> draw = {"kind": "draw", "move": 4, "player": 0, "cause": "turn", "card": "fire_mage"}
>>> describe_event(draw, names)
'P1 (you) draws Fire Mage'
>>> describe_event({"kind": "draw", "move": 4, "player": 0, "cause": "turn"}, names)
'P1 (you) draws a card'
>>> describe_event({"kind": "place", "move": 5, "player": 1, "card": "hexer", "square": "c3",
...                 "covers": None, "vacancy": False, "extra": False}, names)
'P2 (random) places Hexer on c3'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from .cards import CARD_BY_ID


class ZetaEvent(StrEnum):
    """The kinds of Zeta events (public keys; secret keys go to the seats in ``to``)."""

    FIRST_PLAYER = "first_player"
    """Setup: ``player`` moves first (ZETA-R8); ``coin_toss`` says whether a coin decided it."""
    DEAL = "deal"
    """Setup: ``player`` is dealt ``count`` cards (ZETA-R9, R10); secret ``cards`` to that seat."""
    MULLIGAN = "mulligan"
    """``player`` keeps (``taken`` false) or redraws ``count`` cards (ZETA-R11); secret ``cards``: the new hand."""
    TURN = "turn"
    """Turn ``turn`` of ``player`` begins (ZETA-R12)."""
    DRAW = "draw"
    """``player`` draws a card because of ``cause`` (``turn`` or a card id, ZETA-R28); secret ``card``."""
    DRAW_SKIPPED = "draw_skipped"
    """``player`` had to draw from an empty deck: nothing happens (ZETA-R23) unless the game ends."""
    PLACE = "place"
    """``player`` places ``card`` on ``square``; ``covers``: the own card a Wind Mage covered, ``vacancy``:
    a Wind Mage on an empty square, ``extra``: Mourning the Dead's placement (ZETA-R18, R45, R57)."""
    PASS = "pass"
    """``player`` passes (ZETA-R13)."""
    NEGATED = "negated"
    """The Fanfare of ``player``'s ``card`` on ``square`` has no effect (Hexer, Apprentice Hexer; ZETA-R35)."""
    NO_EFFECT = "no_effect"
    """The Fanfare of ``player``'s ``card`` on ``square`` had nothing to act on (ZETA-R30)."""
    RETURN = "return"
    """A Wind Mage on ``square`` returns ``player``'s covered ``card`` to their hand (ZETA-R45(d))."""
    DESTROY = "destroy"
    """``owner``'s ``card`` is destroyed from ``zone`` (``board`` at ``square``, ``hand``, ``set_aside``) by
    ``cause`` (a card id) of seat ``by``; ``random`` for random picks (ZETA-R25, R29)."""
    REMOVE = "remove"
    """As ``destroy``, but the card leaves the game without counting as destroyed (ZETA-R2 Removed area)."""
    BLOCK = "block"
    """``square`` is blocked for the rest of the game by ``player``'s Light Mage (ZETA-R50)."""
    EFFECT = "effect"
    """A duration record (ZETA-R34): ``effect`` (a key of the position's ``effects``) for ``player`` in
    ``turn``, created by ``cause``."""
    DECISION = "decision"
    """``player`` must decide ``decision`` (a phase) for ``source`` on ``square``; ``targets`` / ``lines``."""
    DECLINE = "decline"
    """``player`` declines the optional effect of ``source`` (ZETA-R30)."""
    LINE = "line"
    """Single-Arrow Summoning of ``player`` destroys the cards of ``line`` (``rank:N`` / ``file:X``, ZETA-R59)."""
    GAME_OVER = "game_over"
    """The game ends: ``winners``, ``reason``, ``rule``, ``scores``, ``detail``, and ``line`` (the squares of
    the four in a row, ZETA-R20)."""


def _card(card_id: Any) -> str:
    found = CARD_BY_ID.get(str(card_id))
    return found.english if found is not None else str(card_id)


def _seat(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"P{seat + 1}" if isinstance(seat, int) else str(seat)


def _cards(ids: Sequence[Any]) -> str:
    return ", ".join(_card(c) for c in ids)


def _cause(cause: Any) -> str:
    return "" if cause in (None, "turn") else f" ({_card(cause)})"


_EFFECT_TEXT = {
    "negate_fanfares": "{who}'s Fanfares have no effect on turn {turn}",
    "only_cost_zero": "{who} may place only cost-0 cards on turn {turn}",
    "broom": "{who} may place cards of cost 10 or less on turn {turn}",
    "apprentice_check": "{who}'s Fanfares have no effect on turn {turn} if they then hold 4 or more cards",
}


def describe_event(event: Mapping[str, Any], names: Sequence[str]) -> str:  # noqa: C901 - one case per kind
    """One event as a seat received it (``Event.seen_by``), in words; ``names[i]`` labels seat i."""
    kind = event.get("kind")
    who = _seat(names, event.get("player"))
    if kind == ZetaEvent.FIRST_PLAYER:
        return f"{who} moves first" + (" (coin toss)" if event.get("coin_toss") else "")
    if kind == ZetaEvent.DEAL:
        if "cards" in event:
            return f"{who} is dealt {_cards(event['cards'])}"
        return f"{who} is dealt {event.get('count')} cards"
    if kind == ZetaEvent.MULLIGAN:
        if not event.get("taken"):
            return f"{who} keeps the opening hand"
        text = f"{who} takes a mulligan: {event.get('count')} cards shuffled back, as many drawn"
        return text + (f": {_cards(event['cards'])}" if "cards" in event else "")
    if kind == ZetaEvent.TURN:
        return f"Turn {event.get('turn')}: {who}"
    if kind == ZetaEvent.DRAW:
        card = _card(event["card"]) if "card" in event else "a card"
        return f"{who} draws {card}{_cause(event.get('cause'))}"
    if kind == ZetaEvent.DRAW_SKIPPED:
        return f"{who}'s deck is empty: no card drawn{_cause(event.get('cause'))}"
    if kind == ZetaEvent.PLACE:
        text = f"{who} places {_card(event.get('card'))} on {event.get('square')}"
        if event.get("covers"):
            text += f", covering their {_card(event['covers'])}"
        elif event.get("vacancy"):
            text += " (where their destroyed card was)"
        if event.get("extra"):
            text += " (Mourning the Dead)"
        return text
    if kind == ZetaEvent.PASS:
        return f"{who} passes"
    if kind == ZetaEvent.NEGATED:
        return f"{who}'s {_card(event.get('card'))} on {event.get('square')}: its Fanfare has no effect"
    if kind == ZetaEvent.NO_EFFECT:
        return f"{who}'s {_card(event.get('card'))} on {event.get('square')} has nothing to act on"
    if kind == ZetaEvent.RETURN:
        return f"The Wind Mage on {event.get('square')} returns {who}'s {_card(event.get('card'))} to their hand"
    if kind in (ZetaEvent.DESTROY, ZetaEvent.REMOVE):
        owner = _seat(names, event.get("owner"))
        zone = event.get("zone")
        where = {"board": f" on {event.get('square')}", "hand": " from their hand",
                 "set_aside": " from under the Wind Mage"}.get(str(zone), "")
        verb = "destroys" if kind == ZetaEvent.DESTROY else "removes from the game"
        random_pick = " (at random)" if event.get("random") else ""
        return f"{_card(event.get('cause'))} {verb} {owner}'s {_card(event.get('card'))}{where}{random_pick}"
    if kind == ZetaEvent.BLOCK:
        return f"{event.get('square')} is blocked for the rest of the game ({who}'s Light Mage)"
    if kind == ZetaEvent.EFFECT:
        template = _EFFECT_TEXT.get(str(event.get("effect")), "{who}: {effect} on turn {turn}")
        return template.format(who=who, turn=event.get("turn"), effect=event.get("effect")) + _cause(event.get("cause"))
    if kind == ZetaEvent.DECISION:
        return _decision(event, who)
    if kind == ZetaEvent.DECLINE:
        return f"{who} declines the effect of {_card(event.get('source'))}"
    if kind == ZetaEvent.LINE:
        line = str(event.get("line", "")).replace(":", " ")
        return f"{who}'s Single-Arrow Summoning destroys the cards of {line}"
    if kind == ZetaEvent.GAME_OVER:
        return _game_over(event, names)
    return f"{kind}: {', '.join(f'{k}={v}' for k, v in event.items() if k not in ('kind', 'move'))}"


_DECISION_TEXT = {
    "mulligan": "{who} decides whether to take a mulligan",
    "do_over": "{who} chooses the card of their hand that {source} destroys",
    "fortune": "{who} chooses which of the two cards {source} drew to destroy",
    "target": "{who} may destroy a card with {source}",
    "mourn": "{who} may place a cost-0 card from their hand with {source}",
    "line": "{who} chooses the full line that {source} destroys",
}


def _decision(event: Mapping[str, Any], who: str) -> str:
    source = f"{_card(event.get('source'))} on {event.get('square')}" if event.get("source") else ""
    template = _DECISION_TEXT.get(str(event.get("decision")), "{who} decides: " + str(event.get("decision")))
    options = event.get("targets") or event.get("lines")
    return template.format(who=who, source=source) + (f": {', '.join(options)}" if options else "")


def _game_over(event: Mapping[str, Any], names: Sequence[str]) -> str:
    winners = list(event.get("winners") or [])
    reason = event.get("reason")
    scores = event.get("scores") or []
    if not winners:
        if reason == "board_full_tie" and scores:
            return f"Draw: the board is full with {int(scores[0])} cards each"
        return "Draw"
    winner = _seat(names, winners[0])
    loser = _seat(names, 1 - winners[0]) if winners[0] in (0, 1) else "the other seat"
    if reason == "four_in_a_row":
        return f"{winner} wins: four in a row on {' '.join(event.get('line') or [])}"
    if reason == "board_full" and len(scores) == 2:
        return f"{winner} wins: the board is full, {int(max(scores))} cards to {int(min(scores))}"
    if reason == "deck_out":
        return f"{winner} wins: {loser}'s deck was empty at the start of their turn"
    if reason == "empty_deck_draw":
        return f"{winner} wins: {loser} had to draw from an empty deck"
    return f"{winner} wins ({reason})"
