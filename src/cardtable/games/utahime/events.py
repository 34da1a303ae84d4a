"""Utahime events: what every seat learns from each action, automatic steps included.

The state emits one :class:`~cardtable.core.events.Event` per fact while it records (see
:mod:`cardtable.core.events`). Cards are written as in positions: relative to the zone they lie in
(``H7``; ``~H7`` for a card of the other player's deck), with ``player`` the seat whose zone it is.
Public parts carry what the table sees; secret parts go to the seats that see a hidden card: the
owner, the attacker who chose it, or a seat looking at that hand (UTA-R59, UTA-I-CT21).

>>> describe_event({"kind": "draw", "move": 7, "player": 1, "count": 1}, ["P1 (you)", "P2 (random)"])
'P2 (random) draws a card'
>>> describe_event({"kind": "draw", "move": 7, "player": 0, "count": 1, "cards": ["H5"]}, ["P1 (you)", "P2"])
'P1 (you) draws ♥5'
>>> describe_event({"kind": "pass", "move": 9, "player": 1, "card": "D7"}, ["P1", "P2"])
'P2 passes, turning ♦7 face down (+1 energy)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

SUIT_SYMBOLS = {"H": "♥", "S": "♠", "C": "♣", "D": "♦"}


class UtahimeEvent(StrEnum):
    """The closed vocabulary of Utahime events (the ``kind`` of each event)."""

    SETUP = "setup"
    """Who moves first and why (UTA-R6); public."""
    WISH = "wish"
    """A player chose the wished card (UTA-R3); the card is secret to its owner."""
    WISHES_SHOWN = "wishes_shown"
    """Both wished cards are shown (flag ``wished_card_public``, UTA-I-CT12)."""
    DEAL = "deal"
    """A player's opening hand (UTA-R3); the cards to the owner only."""
    TURN = "turn"
    """A turn begins: its number, the attacker, and whether the joker must be used (UTA-R10, UTA-R55)."""
    SET = "set"
    """A J/Q/K is set face down (UTA-R37); the card to its owner (and to a seat looking at that hand)."""
    OPTION = "option"
    """An option card is turned face down and used (UTA-R46)."""
    HERO = "hero"
    """A hero card is used (UTA-R47)."""
    ATTACK = "attack"
    """The attack card with its NEXT and designated suits (UTA-R15, UTA-R16)."""
    ENERGY = "energy"
    """A player's energy changes (UTA-R40-R43)."""
    EFFECT = "effect"
    """A modifier or forbidden suit is registered for a turn (UTA-R8, UTA-R13, UTA-R33)."""
    BLOCK = "block"
    """The defender blocks with a card (UTA-R21)."""
    NO_BLOCK = "no_block"
    """The defender lets the attack through (UTA-R20(e))."""
    SUCCESS = "success"
    """The attack succeeds (UTA-R22)."""
    REACT = "react"
    """The defender answers with ♣A or ♦A (UTA-R29, UTA-R30)."""
    NO_REACT = "no_react"
    """The defender does not react (UTA-R22)."""
    LOOK = "look"
    """A seat looks at the other seat's whole hand (UTA-R24, UTA-R59); the hand to the looker only."""
    TAKE = "take"
    """A card of the defender's hand goes to a discard pile (UTA-R24, R25, R28, R48)."""
    TAKE_NOTHING = "take_nothing"
    """♦NEXT places no card (UTA-R48(b))."""
    DRAW = "draw"
    """A player draws cards from the own deck (UTA-R23, R45, R53); the cards to the drawer only."""
    HEART_NEXT = "heart_next"
    """♥NEXT: a heart goes face down as the price (UTA-R51); which heart, to its owner only."""
    REVEAL = "reveal"
    """♥NEXT turns the top cards of the deck face up (UTA-R51 step 2); public."""
    PICK = "pick"
    """♥NEXT: the card kept, and the others face down to the pile (UTA-R51 steps 3-4); public."""
    END_WINDOW = "end_window"
    """A post-attack (or blocker's) window is closed (UTA-R10 step 5)."""
    COSMIC = "cosmic"
    """A cosmic card is taken into the hand (UTA-R52)."""
    NO_COSMIC = "no_cosmic"
    """No cosmic card is taken this end step (UTA-R52)."""
    PASS = "pass"
    """A pass: a face-up discard is turned face down (UTA-R44)."""
    FLIP = "flip"
    """A face-up discard is turned face down outside a pass (free flip, an option, ♥NEXT's played card)."""
    JOKER = "joker"
    """The joker is turned face down (UTA-R45)."""
    STALL = "stall"
    """No main action was possible (UTA-R56)."""
    MILL = "mill"
    """Top cards of a deck go to the own pile (option primitive ``mill``)."""
    DISCARD = "discard"
    """A hand card goes to its owner's pile by an option effect (``discard_from_hand``)."""
    EXCHANGE = "exchange"
    """A hand card goes face down to the own pile before a draw (``exchange``, UTA-R39)."""
    RECOVER = "recover"
    """A face-up discard goes back into its owner's hand (``recover``)."""
    CHOOSE_NOTHING = "choose_nothing"
    """An optional choice of an option or hero effect is skipped."""
    GAME_END = "game_end"
    """The game is over: why, by which rule, the winners and the scores (UTA-R55-R58)."""


def card_words(token: Any) -> str:
    """A card token in words with its suit symbol: ``H7`` -> ``♥7``, ``~C7+`` -> ``♣7+ (from the other deck)``."""
    text = str(token)
    foreign = text.startswith("~")
    body = text[1:] if foreign else text
    out = SUIT_SYMBOLS.get(body[:1], body[:1]) + body[1:]
    return out + (" (from the other deck)" if foreign else "")


def _cards(tokens: Any) -> str:
    return " ".join(card_words(t) for t in tokens or [])


def _name(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"P{seat + 1}" if isinstance(
        seat, int) else "?"


def _count(n: Any, what: str = "card") -> str:
    return f"a {what}" if n == 1 else f"{n} {what}s"


_EFFECT_WORDS = {
    "ban": " may not attack with {suit}",
    "block_bonus": "'s cards played in defence count {sign}",
    "bonus_8_10": "'s 8, 9 and 10 played in defence count {sign}",
    "attack_bonus": "'s attack card counts {sign}",
}


def _half(half_points: int) -> str:
    sign = "+" if half_points >= 0 else "-"
    value = abs(half_points)
    return sign + (str(value // 2) if value % 2 == 0 else f"{value / 2:.1f}")


def describe_event(event: Mapping[str, Any], names: Sequence[str]) -> str:  # noqa: C901 - one branch per kind
    """One event as a seat received it, in plain English (``names[i]`` labels seat i); uses only the dict."""
    kind = event.get("kind")
    who = _name(names, event.get("player"))
    card = event.get("card")
    if kind == UtahimeEvent.SETUP:
        return f"{_name(names, event.get('first_player'))} moves first ({event.get('reason', '')})"
    if kind == UtahimeEvent.WISH:
        return f"{who} wishes for {card_words(card)}" if card else f"{who} chooses a wished card"
    if kind == UtahimeEvent.WISHES_SHOWN:
        shown = event.get("cards") or []
        return "the wished cards are shown: " + ", ".join(
            f"{_name(names, p)} {card_words(c)}" for p, c in enumerate(shown))
    if kind == UtahimeEvent.DEAL:
        cards = event.get("cards")
        if cards:
            return f"{who} takes the wished card and draws 9: hand {_cards(cards)}"
        return f"{who} takes the wished card and draws to a hand of {event.get('count')}"
    if kind == UtahimeEvent.TURN:
        text = f"turn {event.get('turn')}: {who} attacks"
        return text + (" and must use the joker (empty hand, UTA-R55)" if event.get("rescue") else "")
    if kind == UtahimeEvent.SET:
        return f"{who} sets {card_words(card)} face down" if card else f"{who} sets a J/Q/K face down"
    if kind == UtahimeEvent.OPTION:
        return f"{who} uses the option card {event.get('option')}"
    if kind == UtahimeEvent.HERO:
        return f"{who} uses the hero {event.get('hero')}"
    if kind == UtahimeEvent.ATTACK:
        text = f"{who} attacks with {card_words(card)}"
        if event.get("next"):
            text += " declaring " + SUIT_SYMBOLS.get(str(card).lstrip("~")[:1], "") + "NEXT"
        bans = str(event.get("bans") or "")
        if bans:
            text += " designating " + "".join(SUIT_SYMBOLS.get(s, s) for s in bans)
        return text
    if kind == UtahimeEvent.ENERGY:
        change = int(event.get("change", 0))
        return f"{who}'s energy {'+' if change >= 0 else '-'}{abs(change)} (now {event.get('energy')})"
    if kind == UtahimeEvent.EFFECT:
        words = _EFFECT_WORDS.get(str(event.get("effect")), ": " + str(event.get("effect")))
        suit = SUIT_SYMBOLS.get(str(event.get("suit")), str(event.get("suit")))
        return f"{who}{words.format(suit=suit, sign=_half(int(event.get('half_points', 0))))} in turn {event.get('turn')}"
    if kind == UtahimeEvent.BLOCK:
        return f"{who} blocks with {card_words(card)}" + ("" if event.get("face_up", True) else " (face down)")
    if kind == UtahimeEvent.NO_BLOCK:
        return f"{who} does not block"
    if kind == UtahimeEvent.SUCCESS:
        return f"{who}'s attack succeeds"
    if kind == UtahimeEvent.REACT:
        return f"{who} reacts with {card_words(card)}, cancelling the effect"
    if kind == UtahimeEvent.NO_REACT:
        return f"{who} does not react"
    if kind == UtahimeEvent.LOOK:
        target = _name(names, event.get("target"))
        hand = event.get("hand")
        if hand is None:
            return f"{who} looks at {target}'s hand"
        set_cards = {str(s.get("card")) for s in event.get("set") or []}
        shown = " ".join(card_words(c) + (" (set)" if c in set_cards else "") for c in hand)
        return f"{who} looks at {target}'s hand: {shown or '(empty)'}"
    if kind in (UtahimeEvent.TAKE, UtahimeEvent.DISCARD):
        target = _name(names, event.get("target"))
        pile = _name(names, event.get("pile", event.get("target")))
        what = card_words(card) if card else "a card"
        face = "face up" if event.get("face_up") else "face down"
        where = {"first": " at the bottom of", "last": " on top of"}.get(str(event.get("where")), " on")
        return f"{who} puts {what} of {target}'s hand {face}{where} {pile}'s pile"
    if kind == UtahimeEvent.TAKE_NOTHING:
        return f"{who} places no card"
    if kind == UtahimeEvent.DRAW:
        cards = event.get("cards")
        if cards:
            return f"{who} draws {_cards(cards)}"
        count = event.get("count", 0)
        return f"{who} draws {_count(count)}" if count else f"{who} draws nothing"
    if kind == UtahimeEvent.HEART_NEXT:
        what = card_words(card) if card else "a heart"
        return f"{who} uses ♥NEXT, putting {what} face down on the pile"
    if kind == UtahimeEvent.REVEAL:
        return f"{who} reveals the top of the deck: {_cards(event.get('cards'))}"
    if kind == UtahimeEvent.PICK:
        rest = event.get("discarded") or []
        text = f"{who} keeps {card_words(card)}"
        return text + (f"; {_cards(rest)} go face down to the pile" if rest else "")
    if kind == UtahimeEvent.END_WINDOW:
        return f"{who} ends the window"
    if kind == UtahimeEvent.COSMIC:
        return f"{who} takes the cosmic {card_words(card)}"
    if kind == UtahimeEvent.NO_COSMIC:
        return f"{who} takes no cosmic card"
    if kind == UtahimeEvent.PASS:
        return f"{who} passes, turning {card_words(card)} face down (+1 energy)"
    if kind == UtahimeEvent.FLIP:
        target = _name(names, event.get("target", event.get("player")))
        return f"{who} turns {card_words(card)} of {target}'s pile face down"
    if kind == UtahimeEvent.JOKER:
        return f"{who} uses the joker: both players draw up to 2, the turn ends"
    if kind == UtahimeEvent.STALL:
        return f"{who} has no main action: a stall (UTA-R56)"
    if kind == UtahimeEvent.MILL:
        cards = event.get("cards")
        face = "face up" if event.get("face_up") else "face down"
        what = _cards(cards) if cards else _count(event.get("count", 0))
        return f"{who} puts {what} from the top of the deck {face} on the pile"
    if kind == UtahimeEvent.EXCHANGE:
        what = card_words(card) if card else "a card"
        return f"{who} puts {what} of the hand face down on the pile"
    if kind == UtahimeEvent.RECOVER:
        return f"{who} takes {card_words(card)} back from the pile into the hand"
    if kind == UtahimeEvent.CHOOSE_NOTHING:
        return f"{who} chooses nothing"
    if kind == UtahimeEvent.GAME_END:
        winners = event.get("winners") or []
        result = " and ".join(_name(names, w) for w in winners) + " wins" if winners else "a draw"
        scores = event.get("scores") or []
        score = "-".join(str(int(s)) for s in scores)
        return f"game over: {event.get('reason')} [{event.get('rule')}]; {result} ({score})"
    fields = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("kind", "move"))
    return f"{kind}: {fields}"


__all__ = ["UtahimeEvent", "card_words", "describe_event"]
