"""Utahime actions: small frozen values whose ``str()`` is the canonical, position-free notation.

Cards are written as in ``cards.py`` (``H7``, ``SK``, ``C7+``, ``~D9``), relative to the zone the
card is taken from. Designated suits are letters in the order H S C D (``ban HS``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cardtable.core.errors import InvalidAction
from cardtable.core.game import Action

from .cards import SUIT_LETTERS, parse_card
from .options import NAME_RE


@dataclass(frozen=True, slots=True, repr=False)
class Wish(Action):
    """UTA-R3: take ``card`` from your own deck as the wished card."""

    card: str

    def __str__(self) -> str:
        """The canonical notation."""
        return f"wish {self.card}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.card) ^ 0xe3dbf7


@dataclass(frozen=True, slots=True, repr=False)
class SetCard(Action):
    """UTA-R37: set a J/Q/K of your hand face down on the field."""

    card: str

    def __str__(self) -> str:
        """The canonical notation."""
        return f"set {self.card}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.card) ^ 0x581c43


@dataclass(frozen=True, slots=True, repr=False)
class UseOption(Action):
    """UTA-R46: turn a face-up option card of this name face down and apply its effect."""

    name: str

    def __str__(self) -> str:
        """The canonical notation."""
        return f"option {self.name}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.name) ^ 0x754183


@dataclass(frozen=True, slots=True, repr=False)
class UseHero(Action):
    """UTA-R47: use your hero card's effect."""

    def __str__(self) -> str:
        """The canonical notation."""
        return "hero"

    def __hash__(self) -> int:
        """A constant: every value of this kind is equal (and search trees look actions up often)."""
        return 0x5d8098


@dataclass(frozen=True, slots=True, repr=False)
class Flip(Action):
    """UTA-I52 variant (``free_flip_for_energy``): flip a face-up discard for +1 energy, a free action."""

    card: str

    def __str__(self) -> str:
        """The canonical notation."""
        return f"flip {self.card}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.card) ^ 0xcc4b6b


@dataclass(frozen=True, slots=True, repr=False)
class Attack(Action):
    """UTA-R12/R15: attack with ``card``, optionally declaring NEXT, designating ``bans`` (suit letters)."""

    card: str
    next: bool = False
    bans: str = ""

    def __str__(self) -> str:
        """The canonical notation."""
        text = f"attack {self.card}"
        if self.next:
            text += " next"
        if self.bans:
            text += f" ban {self.bans}"
        return text

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash((self.card, self.next, self.bans)) ^ 0x6c280d


@dataclass(frozen=True, slots=True, repr=False)
class Pass(Action):
    """UTA-R44: pass by turning the face-up ``card`` of your discard pile face down (+1 energy)."""

    card: str

    def __str__(self) -> str:
        """The canonical notation."""
        return f"pass {self.card}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.card) ^ 0x427b1a


@dataclass(frozen=True, slots=True, repr=False)
class Joker(Action):
    """UTA-R45: turn your joker face down; both players draw up to 2 and your turn ends."""

    def __str__(self) -> str:
        """The canonical notation."""
        return "joker"

    def __hash__(self) -> int:
        """A constant: every value of this kind is equal (and search trees look actions up often)."""
        return 0x27fb93


@dataclass(frozen=True, slots=True, repr=False)
class Stall(Action):
    """UTA-R56: end the turn without a main action (legal only when none is available)."""

    def __str__(self) -> str:
        """The canonical notation."""
        return "stall"

    def __hash__(self) -> int:
        """A constant: every value of this kind is equal (and search trees look actions up often)."""
        return 0x95dd02


@dataclass(frozen=True, slots=True, repr=False)
class Block(Action):
    """UTA-R18-R20: block the attack with ``card`` (``bans`` only under ``rank_effects_on_block``)."""

    card: str
    bans: str = ""

    def __str__(self) -> str:
        """The canonical notation."""
        return f"block {self.card}" + (f" ban {self.bans}" if self.bans else "")

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash((self.card, self.bans)) ^ 0xdab826


@dataclass(frozen=True, slots=True, repr=False)
class NoBlock(Action):
    """UTA-R20(e): decline to block; the attack succeeds."""

    def __str__(self) -> str:
        """The canonical notation."""
        return "noblock"

    def __hash__(self) -> int:
        """A constant: every value of this kind is equal (and search trees look actions up often)."""
        return 0x223ee


@dataclass(frozen=True, slots=True, repr=False)
class React(Action):
    """UTA-R29/R30: put ♣A (against a draw) or ♦A (against a discard effect) from hand into your discard."""

    def __str__(self) -> str:
        """The canonical notation."""
        return "react"

    def __hash__(self) -> int:
        """A constant: every value of this kind is equal (and search trees look actions up often)."""
        return 0xa440d1


@dataclass(frozen=True, slots=True, repr=False)
class NoReact(Action):
    """UTA-R22: let the success effect resolve without a reaction."""

    def __str__(self) -> str:
        """The canonical notation."""
        return "noreact"

    def __hash__(self) -> int:
        """A constant: every value of this kind is equal (and search trees look actions up often)."""
        return 0x7cdb19


@dataclass(frozen=True, slots=True, repr=False)
class Take(Action):
    """UTA-R24/R25/R28/R48: choose ``card`` of the defender's hand (``where`` is first/last for ♦NEXT)."""

    card: str
    where: str = ""

    def __str__(self) -> str:
        """The canonical notation."""
        return f"take {self.card}" + (f" {self.where}" if self.where else "")

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash((self.card, self.where)) ^ 0xefc145


@dataclass(frozen=True, slots=True, repr=False)
class TakeNothing(Action):
    """UTA-R48(b): place no card with ♦NEXT."""

    def __str__(self) -> str:
        """The canonical notation."""
        return "take none"

    def __hash__(self) -> int:
        """A constant: every value of this kind is equal (and search trees look actions up often)."""
        return 0xa997


@dataclass(frozen=True, slots=True, repr=False)
class Draw(Action):
    """UTA-I32 variant (``optional_draws``): draw ``count`` of the cards you may draw."""

    count: int

    def __str__(self) -> str:
        """The canonical notation."""
        return f"draw {self.count}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.count) ^ 0xc01231


@dataclass(frozen=True, slots=True, repr=False)
class HeartNext(Action):
    """UTA-R51: put the heart ``card`` face down in your discard and reveal the top 3 of your deck."""

    card: str

    def __str__(self) -> str:
        """The canonical notation."""
        return f"heartnext {self.card}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.card) ^ 0x68d6e4


@dataclass(frozen=True, slots=True, repr=False)
class Pick(Action):
    """UTA-R51 step 3: take ``card`` of the cards ♥NEXT revealed into your hand."""

    card: str

    def __str__(self) -> str:
        """The canonical notation."""
        return f"pick {self.card}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.card) ^ 0xffa0a5


@dataclass(frozen=True, slots=True, repr=False)
class EndWindow(Action):
    """UTA-R10 step 5: close the post-attack window (or the blocker's ♥NEXT window)."""

    def __str__(self) -> str:
        """The canonical notation."""
        return "end"

    def __hash__(self) -> int:
        """A constant: every value of this kind is equal (and search trees look actions up often)."""
        return 0x1ed5d1


@dataclass(frozen=True, slots=True, repr=False)
class Cosmic(Action):
    """UTA-R52: take the cosmic ``card`` (written with ``+``) into your hand."""

    card: str

    def __str__(self) -> str:
        """The canonical notation."""
        return f"cosmic {self.card}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.card) ^ 0x6d8ef0


@dataclass(frozen=True, slots=True, repr=False)
class NoCosmic(Action):
    """UTA-R52: take no cosmic card this end step."""

    def __str__(self) -> str:
        """The canonical notation."""
        return "nocosmic"

    def __hash__(self) -> int:
        """A constant: every value of this kind is equal (and search trees look actions up often)."""
        return 0x641ce9


@dataclass(frozen=True, slots=True, repr=False)
class Choose(Action):
    """A card chosen for the pending step of an option or hero effect."""

    card: str

    def __str__(self) -> str:
        """The canonical notation."""
        return f"choose {self.card}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.card) ^ 0x483147


@dataclass(frozen=True, slots=True, repr=False)
class ChooseNothing(Action):
    """Skip an optional choice of an option or hero effect."""

    def __str__(self) -> str:
        """The canonical notation."""
        return "choose none"

    def __hash__(self) -> int:
        """A constant: every value of this kind is equal (and search trees look actions up often)."""
        return 0x70a5e8


@dataclass(frozen=True, slots=True, repr=False)
class NameSuit(Action):
    """A suit named for the pending step of an option or hero effect (``forbid_suit``)."""

    suit: str

    def __str__(self) -> str:
        """The canonical notation."""
        return f"suit {self.suit}"

    def __hash__(self) -> int:
        """A hash of the fields in compiled code (the generated one is slow in search trees)."""
        return hash(self.suit) ^ 0x99c362


_SIMPLE: Final[dict[str, Action]] = {
    "hero": UseHero(), "joker": Joker(), "stall": Stall(), "noblock": NoBlock(), "react": React(),
    "noreact": NoReact(), "end": EndWindow(), "nocosmic": NoCosmic(),
}
_CARD_VERBS: Final = {"wish": Wish, "set": SetCard, "flip": Flip, "pass": Pass, "heartnext": HeartNext,
               "pick": Pick, "choose": Choose}


def _card(text: str, raw: str, *, cosmic: bool | None = None) -> str:
    parsed = parse_card(text)
    if parsed is None:
        raise InvalidAction(raw, f"{text!r} is not a card (suit H/S/C/D, rank A 2..10 J Q K, '+' for cosmic)",
                            game="utahime")
    if cosmic is not None and text.endswith("+") != cosmic:
        raise InvalidAction(raw, "cosmic cards are written with a trailing '+'" if cosmic
                            else "expected a card, not a cosmic card", game="utahime")
    return text


def _suits(text: str, raw: str) -> str:
    """Suit letters in canonical order (a repeated letter is kept, so the rules can explain UTA-R50)."""
    if not text or len(text) > 4 or any(ch not in SUIT_LETTERS for ch in text):
        raise InvalidAction(raw, f"{text!r} is not a list of suit letters (H S C D)", game="utahime")
    return "".join(sorted(text, key=SUIT_LETTERS.index))


def parse_action(text: object) -> Action:
    """Parse canonical Utahime notation (InvalidAction for anything else)."""
    if not isinstance(text, str):
        raise InvalidAction(text, "expected a string", game="utahime")
    words = text.split()
    if not words:
        raise InvalidAction(text, "empty action", game="utahime")
    verb, args = words[0], words[1:]
    if verb in _SIMPLE:
        if args:
            raise InvalidAction(text, f"{verb!r} takes no arguments", game="utahime")
        return _SIMPLE[verb]
    if verb == "choose" and args == ["none"]:
        return ChooseNothing()
    if verb == "take" and args == ["none"]:
        return TakeNothing()
    if verb in _CARD_VERBS:
        if len(args) != 1:
            raise InvalidAction(text, f"{verb!r} takes exactly one card", game="utahime")
        return _CARD_VERBS[verb](_card(args[0], text))
    if verb == "cosmic":
        if len(args) != 1:
            raise InvalidAction(text, "'cosmic' takes exactly one cosmic card", game="utahime")
        return Cosmic(_card(args[0], text, cosmic=True))
    if verb == "option":
        if len(args) != 1 or not NAME_RE.match(args[0]):
            raise InvalidAction(text, "'option' takes one option card name (lower-case, digits, _)", game="utahime")
        return UseOption(args[0])
    if verb == "suit":
        if len(args) != 1 or len(args[0]) != 1:
            raise InvalidAction(text, "'suit' takes one suit letter", game="utahime")
        return NameSuit(_suits(args[0], text))
    if verb == "draw":
        if len(args) != 1 or args[0] not in ("0", "1", "2", "3", "4", "5"):
            raise InvalidAction(text, "'draw' takes a count 0..5", game="utahime")
        return Draw(int(args[0]))
    if verb == "take":
        if len(args) not in (1, 2) or (len(args) == 2 and args[1] not in ("first", "last")):
            raise InvalidAction(text, "'take' takes a card and optionally 'first' or 'last'", game="utahime")
        return Take(_card(args[0], text), args[1] if len(args) == 2 else "")
    if verb in ("attack", "block"):
        if not args:
            raise InvalidAction(text, f"{verb!r} needs a card", game="utahime")
        card = _card(args[0], text)
        rest = args[1:]
        nxt = False
        if verb == "attack" and rest and rest[0] == "next":
            nxt = True
            rest = rest[1:]
        bans = ""
        if rest:
            if len(rest) != 2 or rest[0] != "ban":
                raise InvalidAction(text, f"expected '{verb} CARD{' [next]' if verb == 'attack' else ''} [ban SUITS]'",
                                    game="utahime")
            bans = _suits(rest[1], text)
        return Attack(card, nxt, bans) if verb == "attack" else Block(card, bans)
    raise InvalidAction(text, f"unknown verb {verb!r}", game="utahime")

