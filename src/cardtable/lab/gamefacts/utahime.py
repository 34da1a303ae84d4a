"""Utahime's fact reader: hands, attacks by card, blocks, special plays, option and hero cards.

It reads the engine's compact codes through :mod:`cardtable.games.utahime.codec` and its rows by kind.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Final

from cardtable.core import State
from cardtable.games.utahime.codec import (
    ATTACK_NEXT_AT,
    CODE_ATTACK,
    CODE_BLOCK,
    CODE_COSMIC,
    CODE_DRAW,
    CODE_HEART_NEXT,
    CODE_NOTICE,
    CODE_PASS,
    CODE_SET,
    CODE_TAKE,
    CODE_TURN,
    DRAW_COUNT_AT,
    DRAW_COUNT_MASK,
    DRAW_TOKENS_AT,
    KIND_MASK,
    NOTICE_AT,
    NOTICE_MASK,
    NOTICE_STALL,
    NOTICE_SUCCESS,
    SEAT_AT,
    TOKEN_AT,
    TOKEN_BITS,
    TOKEN_MASK,
    TURN_AT,
    TURN_MASK,
)
from cardtable.games.utahime.vocab import TOKENS

from ..facts import (
    ONE,
    V_BLOCKED,
    V_DRAWN,
    V_HERO,
    V_OPENING,
    V_OPTION,
    V_PLAYED,
    V_SPECIAL,
    V_SUCCEEDED,
    V_TAKEN,
    GameFacts,
    Tally,
    count_fact,
    facts_of,
    item_index,
)


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
    tally = Tally()
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
            code_kind = code & KIND_MASK
            at = turn << 24 | (code >> SEAT_AT & 1)  # the key's turn and seat
            if code_kind == CODE_TURN:
                turn = code >> TURN_AT & TURN_MASK
                continue
            if code_kind == CODE_ATTACK:
                attack_index = code >> TOKEN_AT & _ATTACK_INDEX_MASK  # the token, and NEXT above it
                attack = _UTA_ITEM_NAMES[attack_index & TOKEN_MASK]
                parts = _UTA_ATTACK_KEYS[attack_index]
            elif code_kind == CODE_NOTICE:
                notice = code >> NOTICE_AT & NOTICE_MASK
                if notice == NOTICE_SUCCESS:
                    parts = (_K_SUCCESS, V_SUCCEEDED | item_index(attack) << 8)
                elif notice == NOTICE_STALL:
                    parts = (_K_STALL,)
                else:
                    continue
            elif code_kind == CODE_PASS:
                parts = (_K_PASS,)
            elif code_kind == CODE_BLOCK:
                parts = (_K_BLOCK, V_BLOCKED | _UTA_ITEMS[code >> TOKEN_AT & TOKEN_MASK] << 8)
            elif code_kind == CODE_COSMIC:
                parts = (_K_COSMIC,)
            elif code_kind == CODE_DRAW:
                parts = tuple(V_DRAWN | _UTA_ITEMS[code >> (DRAW_TOKENS_AT + TOKEN_BITS * i) & TOKEN_MASK] << 8
                              for i in range(code >> DRAW_COUNT_AT & DRAW_COUNT_MASK))
            elif code_kind == CODE_HEART_NEXT:
                parts = (_K_HEART_NEXT,)
            elif code_kind == CODE_SET:
                parts = (_K_SET,)
            elif code_kind == CODE_TAKE:  # a fact of the seat whose card is taken
                at ^= 1
                parts = (V_TAKEN | _UTA_ITEMS[code >> TOKEN_AT & TOKEN_MASK] << 8,)
            else:
                continue  # energy, effects, reveals and picks make no facts
            for part in parts:
                keys.append(part | at | ONE)
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
                count_fact(tally, e["target"], V_TAKEN, names[e["card"]], turn)
            continue
        seat: int = who
        play = plays.get(kind)
        if play is not None:  # a special play by the event's seat, nothing more
            count_fact(tally, seat, V_SPECIAL, play, turn)
            if kind == "block":
                count_fact(tally, seat, V_BLOCKED, names[e["card"]], turn)
            elif kind == "success":
                count_fact(tally, seat, V_SUCCEEDED, attack, turn)
        elif kind == "attack":
            card = attack = names[e["card"]]
            count_fact(tally, seat, V_PLAYED, card, turn)
            if card == "HA" or card == "SA":
                count_fact(tally, seat, V_SPECIAL, UtahimePlay.HEART_ACE if card == "HA" else UtahimePlay.SPADE_ACE, turn)
            if e.get("next"):
                count_fact(tally, seat, V_SPECIAL, UtahimePlay.DIAMOND_NEXT if card[0] == "D" else UtahimePlay.CLUB_NEXT,
                       turn)
        elif kind == "draw":
            for card in e.get("cards", ()):
                count_fact(tally, seat, V_DRAWN, names[card], turn)
        elif kind == "take" or kind == "discard":
            if "card" in e:
                target = e.get("target", seat)
                if isinstance(target, int):
                    count_fact(tally, target, V_TAKEN, names[e["card"]], turn)
        elif kind == "setup":
            first = int(e["first_player"])
        elif kind == "deal":
            for card in e.get("cards", ()):
                count_fact(tally, seat, V_OPENING, names[card], turn)
        elif kind == "react":
            card = utahime_card(e.get("card"))
            count_fact(tally, seat, V_SPECIAL,
                   UtahimePlay.CLUB_ACE_REACTION if card == "CA" else UtahimePlay.DIAMOND_ACE_REACTION, turn)
        elif kind == "option":
            count_fact(tally, seat, V_OPTION, str(e.get("option")), turn)
        elif kind == "hero":
            count_fact(tally, seat, V_HERO, str(e.get("hero")), turn)
    setup = state.setup
    context = tuple({"option_set": str(setup.get("option_set", "none")),
                     "options": list(setup.get(f"p{s + 1}_options", [])),
                     "hero": setup.get(f"p{s + 1}_hero")} for s in range(state.num_players))
    return facts_of(first, turn, tally, context)


_UTA_ITEM_NAMES: Final = tuple(utahime_card(t) for t in TOKENS)
"""The item each Utahime token code names (the card without its zone marks)."""
_UTA_ITEMS: Final = tuple(item_index(name) for name in _UTA_ITEM_NAMES)
"""The item index of each Utahime token code."""
_NEXT_OFFSET: Final = ATTACK_NEXT_AT - TOKEN_AT
"""Where an attack's NEXT bit is, counted from its token's first bit."""
_ATTACK_INDEX_MASK: Final = (1 << (_NEXT_OFFSET + 1)) - 1
assert _NEXT_OFFSET == TOKEN_BITS, "an attack's NEXT bit follows its token"


def _play_key(play: UtahimePlay) -> int:
    """The verb and item part of the key of a ``special`` fact of ``play``."""
    return V_SPECIAL | item_index(play) << 8


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


_UTA_ATTACK_KEYS: Final = tuple(
    _attack_keys(i & TOKEN_MASK, bool(i >> _NEXT_OFFSET & 1)) if i & TOKEN_MASK < len(_UTA_ITEM_NAMES) else ()
    for i in range(_ATTACK_INDEX_MASK + 1))
"""The key parts of an attack's facts by token code, plus ``1 << _NEXT_OFFSET`` when it declares NEXT."""
_UTAHIME_PLAYS = {"joker": UtahimePlay.JOKER, "pass": UtahimePlay.PASS, "set": UtahimePlay.SET,
                  "cosmic": UtahimePlay.COSMIC, "stall": UtahimePlay.STALL, "heart_next": UtahimePlay.HEART_NEXT,
                  "block": UtahimePlay.BLOCK, "success": UtahimePlay.SUCCESS}
"""The events that are a special play of their seat (a block and a success say more, see ``utahime_facts``)."""
_UTAHIME_FACT_KINDS = frozenset({"attack", "block", "success", "draw", "heart_next", "take", "discard", "setup",
                                 "deal", "react", "option", "hero", *_UTAHIME_PLAYS})
"""The Utahime events that make facts (``turn`` aside): the others are skipped unread."""


