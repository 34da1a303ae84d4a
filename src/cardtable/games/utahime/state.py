"""The Utahime state machine: phases, legal actions, apply, outcome and views.

Sections in the project's order: constants and the static kit, the state's data, queries (numbers,
modifiers), legal actions, illegality, apply (turn flow, attack, effects), seat memory, outcome,
views and conservation. Rule ids in comments mark where each rule is enforced. While the state
records, every transition emits its events (``events.py``), most as compact codes whose layouts
are declared in ``codec.py``; each hot site is guarded by ``if self._events is not None``, so
playouts pay nothing for them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, Final

from cardtable.core.game import Action, Outcome, State

from .actions import (
    Attack,
    Block,
    Choose,
    ChooseNothing,
    Cosmic,
    Draw,
    EndWindow,
    Flip,
    HeartNext,
    Joker,
    NameSuit,
    NoBlock,
    NoCosmic,
    NoReact,
    Pass,
    Pick,
    React,
    SetCard,
    Stall,
    Take,
    TakeNothing,
    UseHero,
    UseOption,
    Wish,
)
from .cards import (
    ACE,
    CARDS_PER_SEAT,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JACK,
    NAME,
    RANK,
    SORT_KEY,
    SPADES,
    SUIT,
    SUIT_LETTERS,
    SUITS,
    absolute,
    deck_cards,
    parse_card,
    resolve,
    token,
)
from .codec import (
    ATTACK_BANS_AT,
    ATTACK_NEXT,
    BLOCK_FACE_UP,
    CODE_ATTACK,
    CODE_BLOCK,
    CODE_COSMIC,
    CODE_DRAW,
    CODE_EFFECT,
    CODE_ENERGY,
    CODE_HEART_NEXT,
    CODE_NOTICE,
    CODE_PASS,
    CODE_PICK,
    CODE_REVEAL,
    CODE_SET,
    CODE_TAKE,
    CODE_TURN,
    DRAW_COUNT_AT,
    DRAW_LIMIT,
    DRAW_TOKENS_AT,
    EFFECT_BIAS,
    EFFECT_KIND_AT,
    EFFECT_TURN_AT,
    EFFECT_TURN_LIMIT,
    EFFECT_VALUE_AT,
    EFFECT_VALUE_LIMIT,
    ENERGY_AT,
    ENERGY_BIAS,
    ENERGY_CHANGE_AT,
    ENERGY_CHANGE_MASK,
    ENERGY_MASK,
    HEART_NEXT_PLAYED,
    MOVE_AT,
    NOTICE_AT,
    NOTICE_END_WINDOW,
    NOTICE_NO_BLOCK,
    NOTICE_NO_COSMIC,
    NOTICE_NO_REACT,
    NOTICE_STALL,
    NOTICE_SUCCESS,
    PICK_COUNT_AT,
    PICK_LIMIT,
    PICK_OTHERS_AT,
    SEAT_AT,
    SET_TURN_AT,
    SET_TURN_MASK,
    TAKE_FACE_UP,
    TAKE_FIRST,
    TAKE_PILE_AT,
    TOKEN_AT,
    TOKEN_BITS,
    TURN_AT,
    TURN_RESCUE,
    WATCHED,
    event_row,
)
from .events import UtahimeEvent as E
from .options import CardDef, OptionSet, Step
from .view import position_json, view_json
from .vocab import (
    _UNSET,
    ATTACK_BONUS,
    BAN,
    BAN_CODE,
    BLOCK_BONUS,
    BONUS_810,
    CARD_MASK,
    COST,
    DNEXT_EFFECT,
    DRAW_EFFECT,
    DRAWS_THEN_END,
    DRAWS_THEN_FINISH,
    EFFECT_KINDS,
    HAND,
    OUT,
    PHASE_NAMES,
    PICTURES,
    PILE,
    REMOVE_EFFECT,
    SEEN,
    SELF,
    TOKEN_CODE,
    UP,
    Known,
    MemoryEntry,
    Phase,
)

# Event kinds as module constants (an enum attribute costs a class lookup, and events are emitted in
# the hot path of every recording game).
EV_ATTACK: Final = E.ATTACK
EV_BLOCK: Final = E.BLOCK
EV_CHOOSE_NOTHING: Final = E.CHOOSE_NOTHING
EV_COSMIC: Final = E.COSMIC
EV_DEAL: Final = E.DEAL
EV_DISCARD: Final = E.DISCARD
EV_DRAW: Final = E.DRAW
EV_EFFECT: Final = E.EFFECT
EV_END_WINDOW: Final = E.END_WINDOW
EV_ENERGY: Final = E.ENERGY
EV_EXCHANGE: Final = E.EXCHANGE
EV_FLIP: Final = E.FLIP
EV_GAME_END: Final = E.GAME_END
EV_HEART_NEXT: Final = E.HEART_NEXT
EV_HERO: Final = E.HERO
EV_JOKER: Final = E.JOKER
EV_LOOK: Final = E.LOOK
EV_MILL: Final = E.MILL
EV_NO_BLOCK: Final = E.NO_BLOCK
EV_NO_COSMIC: Final = E.NO_COSMIC
EV_NO_REACT: Final = E.NO_REACT
EV_OPTION: Final = E.OPTION
EV_PASS: Final = E.PASS
EV_PICK: Final = E.PICK
EV_REACT: Final = E.REACT
EV_RECOVER: Final = E.RECOVER
EV_REVEAL: Final = E.REVEAL
EV_SET: Final = E.SET
EV_SETUP: Final = E.SETUP
EV_STALL: Final = E.STALL
EV_SUCCESS: Final = E.SUCCESS
EV_TAKE: Final = E.TAKE
EV_TAKE_NOTHING: Final = E.TAKE_NOTHING
EV_TURN: Final = E.TURN
EV_WISH: Final = E.WISH
EV_WISHES_SHOWN: Final = E.WISHES_SHOWN



if TYPE_CHECKING:
    from .game import UtahimeGame
    from .rules import UtahimeRules


_TOKENS: Final[dict[str, tuple[int, bool] | None]] = {}
_ATTACK_VARIANTS: Final[dict[tuple[str, int, int], tuple[Attack, ...]]] = {}


def _parse_token(text: str) -> tuple[int, bool] | None:
    """Cached ``parse_card``."""
    if not isinstance(text, str):
        return None
    try:
        return _TOKENS[text]
    except KeyError:
        parsed = parse_card(text)
        if len(_TOKENS) < 4096:
            _TOKENS[text] = parsed
        return parsed


def _attack_variants(tok: str, suit: int, rank: int) -> tuple[Attack, ...]:
    """UTA-R15: every declaration of an attack with this card (cached per card)."""
    key = (tok, suit, rank)
    found = _ATTACK_VARIANTS.get(key)
    if found is not None:
        return found
    two_four = 2 <= rank <= 4
    bases = [SUIT_LETTERS[s] for s in SUITS] if two_four else [""]
    out = [Attack(tok, False, b) for b in bases]
    if suit == CLUBS:  # UTA-R49: ♣NEXT designates a suit; on a 2-4 two different suits (UTA-R50)
        if two_four:
            out += [Attack(tok, True, SUIT_LETTERS[x] + SUIT_LETTERS[y]) for x, y in combinations(SUITS, 2)]
        else:
            out += [Attack(tok, True, SUIT_LETTERS[s]) for s in SUITS]
    elif suit == DIAMONDS:  # UTA-R48: ♦NEXT with any diamond
        out += [Attack(tok, True, b) for b in bases]
    result = tuple(out)
    _ATTACK_VARIANTS[key] = result
    return result


@dataclass(frozen=True)
class Kit:
    """What a game's setup fixes: option and hero cards of each seat, their costs, the cosmic pool."""

    option_set: OptionSet
    loadouts: tuple[tuple[CardDef, ...], tuple[CardDef, ...]]
    heroes: tuple[CardDef | None, CardDef | None]
    cosmic: tuple[int, ...]  # cosmic indices (52..57) each seat has

    @property
    def costs(self) -> tuple[int, int]:
        """Total option cost of each seat (UTA-R6, UTA-R58)."""
        return (sum(c.cost for c in self.loadouts[0]), sum(c.cost for c in self.loadouts[1]))

    @property
    def counts(self) -> tuple[int, int]:
        """Number of option cards of each seat (UTA-R6)."""
        return (len(self.loadouts[0]), len(self.loadouts[1]))


class UtahimeState(State):
    """A Utahime position plus its rules, RNG, seed, setup and history."""

    def __new__(cls, *args: Any, **kwargs: Any) -> UtahimeState:
        """Allocate a state (``clone`` calls this alone, then sets every field itself)."""
        return object.__new__(cls)

    def __init__(self, game: UtahimeGame, seed: int, setup: dict[str, Any], rng: random.Random, kit: Kit) -> None:
        self.game = game
        self.rules: UtahimeRules = game.rules
        self.seed = seed
        self.setup = setup
        self.rng = rng
        self.history = []
        self.kit = kit
        r = self.rules
        self.phase = Phase.WISH
        self.turn = 0
        self.first = 0
        self.attacker = 0
        self.decks: list[list[int]] = [list(reversed(deck_cards(0))), list(reversed(deck_cards(1)))]  # top = last
        self.hands: list[list[int]] = [[], []]
        self.set_turn: list[dict[int, int]] = [{}, {}]
        self.discards: list[list[int]] = [[], []]
        self.energy = [r.starting_energy, r.starting_energy]
        self.joker_up = [True, True]
        self.pools: list[list[int]] = [[p * CARDS_PER_SEAT + i for i in kit.cosmic] for p in (0, 1)]
        self.wished = [-1, -1]
        self.opt_up: list[list[bool]] = [[True] * len(kit.loadouts[0]), [True] * len(kit.loadouts[1])]
        self.hero_left = [hero.uses if (hero := kit.heroes[p]) is not None else 0 for p in (0, 1)]
        self.unlock_turn = [0, 0]  # any_set_unlocks: turn of the first set (0: none)
        self.hn_game = [False, False]
        self.effects: list[tuple[int, int, int, int]] = []  # (turn, kind, player, value)
        # turn scope
        self.rescue = False
        self.free_used = False
        self.cosmic_taken = False
        self.stalled = False
        self.hn_turn = [False, False]
        self.prev_dead = False
        self.look = -1  # seat that currently sees the other seat's hand (UTA-R59)
        # the attack being resolved
        self.atk = -1
        self.atk_next = False
        self.atk_bans = ""
        self.blk = -1
        self.reacted = -1
        self.success = False
        self.success_kind = 0
        # pending decisions
        self.draw_queue: list[list[int]] = []  # [player, cards allowed]
        self.draw_then = DRAWS_THEN_FINISH
        self.revealed: list[int] = []
        self.hn_user = -1
        self.hn_resume = Phase.POST
        self.eff: list[int] | None = None  # [user, source (0 option, 1 hero), slot, step, resume phase]
        self.result: tuple[str, str, str] | None = None
        # what everybody, and what each seat alone, remembers of cards it cannot see now (UTA-I-CT21)
        self.pub_hand: list[dict[int, Known]] = [{}, {}]
        self.pub_out: list[dict[int, Known]] = [{}, {}]
        self.priv_hand: list[dict[int, Known]] = [{}, {}]
        self.priv_out: list[dict[int, Known]] = [{}, {}]
        self.priv_pile: list[set[int]] = [set(), set()]
        self.priv_down: list[set[int]] = [set(), set()]
        self._events = None

    # -- copying --------------------------------------------------------------------------------
    def clone(self) -> UtahimeState:
        """An independent copy (RNG included)."""
        new = UtahimeState.__new__(UtahimeState)  # every field by name: a compiled state has no __dict__
        new.game = self.game
        new.rules = self.rules
        new.seed = self.seed
        new.setup = self.setup
        self._share_rng(new)
        new.history = list(self.history)
        new.kit = self.kit
        new.phase = self.phase
        new.turn = self.turn
        new.first = self.first
        new.attacker = self.attacker
        new.decks = [list(self.decks[0]), list(self.decks[1])]
        new.hands = [list(self.hands[0]), list(self.hands[1])]
        new.set_turn = [dict(self.set_turn[0]), dict(self.set_turn[1])]
        new.discards = [list(self.discards[0]), list(self.discards[1])]
        new.energy = list(self.energy)
        new.joker_up = list(self.joker_up)
        new.pools = [list(self.pools[0]), list(self.pools[1])]
        new.wished = list(self.wished)
        new.opt_up = [list(self.opt_up[0]), list(self.opt_up[1])]
        new.hero_left = list(self.hero_left)
        new.unlock_turn = list(self.unlock_turn)
        new.hn_game = list(self.hn_game)
        new.effects = list(self.effects)
        new.rescue = self.rescue
        new.free_used = self.free_used
        new.cosmic_taken = self.cosmic_taken
        new.stalled = self.stalled
        new.hn_turn = list(self.hn_turn)
        new.prev_dead = self.prev_dead
        new.look = self.look
        new.atk = self.atk
        new.atk_next = self.atk_next
        new.atk_bans = self.atk_bans
        new.blk = self.blk
        new.reacted = self.reacted
        new.success = self.success
        new.success_kind = self.success_kind
        new.draw_queue = [list(q) for q in self.draw_queue]
        new.draw_then = self.draw_then
        new.revealed = list(self.revealed)
        new.hn_user = self.hn_user
        new.hn_resume = self.hn_resume
        new.eff = list(self.eff) if self.eff is not None else None
        new.result = self.result
        new.pub_hand = [self.pub_hand[0].copy(), self.pub_hand[1].copy()]
        new.pub_out = [self.pub_out[0].copy(), self.pub_out[1].copy()]
        new.priv_hand = [self.priv_hand[0].copy(), self.priv_hand[1].copy()]
        new.priv_out = [self.priv_out[0].copy(), self.priv_out[1].copy()]
        new.priv_pile = [self.priv_pile[0].copy(), self.priv_pile[1].copy()]
        new.priv_down = [self.priv_down[0].copy(), self.priv_down[1].copy()]
        new._events = None if self._events is None else list(self._events)
        return new

    # -- the contract's queries -------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        """Utahime is a duel (UTA-R1)."""
        return 2

    @property
    def current_player(self) -> int | None:
        """The seat that decides next (pending decisions included), None once over."""
        phase = self.phase
        if phase == Phase.MAIN or phase == Phase.POST or phase == Phase.TARGET or phase == Phase.END:
            return self.attacker
        if phase == Phase.BLOCK or phase == Phase.REACT or phase == Phase.BLOCKER_WINDOW:
            return 1 - self.attacker
        if phase == Phase.DRAW:
            return self.draw_queue[0][0]
        if phase == Phase.HEART_PICK:
            return self.hn_user
        if phase == Phase.EFFECT:
            assert self.eff is not None
            return self.eff[0]
        if phase == Phase.WISH:
            return 0 if self.wished[0] < 0 else 1
        return None

    @property
    def defender(self) -> int:
        """The seat defending this turn."""
        return 1 - self.attacker

    def score(self, seat: int) -> int:
        """UTA-R58: face-up cards in the seat's own discard (only self-played ones under the I34 variant)."""
        if self.rules.score_only_self_played:
            need = UP | SELF
            return sum(1 for e in self.discards[seat] if e & need == need)
        return sum(1 for e in self.discards[seat] if e & UP)

    # -- numbers and modifiers (UTA-R7, UTA-R8, UTA-R13) ---------------------------------------------
    def _value2(self, card: int) -> int:
        """Twice the printed number (UTA-R7), so that +1.5 stays exact (UTA-R8)."""
        rank = RANK[card]
        return 2 * (self.rules.ace_value if rank == ACE else rank)

    def _banned(self, seat: int) -> int:
        """Bitmask of suits the seat may not attack with this turn (UTA-R33, UTA-R49(a))."""
        mask = 0
        turn = self.turn
        for t, kind, player, value in self.effects:
            if t == turn and kind == BAN and player == seat:
                mask |= 1 << value
        return mask

    def attack_number2(self) -> int:
        """Twice the effective number of the attack card (UTA-R8: ♣NEXT's +1.5)."""
        total = self._value2(self.atk)
        turn, a = self.turn, self.attacker
        for t, kind, player, value in self.effects:
            if t == turn and kind == ATTACK_BONUS and player == a:
                total += value
        return total

    def block_number2(self, card: int) -> int:
        """Twice the effective number of a defender's card (UTA-R34, R35, R48(c) modifiers)."""
        total = self._value2(card)
        turn, d = self.turn, 1 - self.attacker
        is_810 = 8 <= RANK[card] <= 10
        for t, kind, player, value in self.effects:
            if t == turn and player == d and (kind == BLOCK_BONUS or (kind == BONUS_810 and is_810)):
                total += value
        return total

    def _next_turn_of(self, seat: int) -> int:
        """The number of the next turn in which ``seat`` attacks (UTA-R13, UTA-I-CT3)."""
        return self.turn + 1 if self.attacker != seat else self.turn + 2

    def _room(self, seat: int) -> int:
        """How many cards the hand may still take (UTA-R53)."""
        return self.rules.hand_limit - len(self.hands[seat])

    # -- legality helpers shared by legal_actions and _illegality ------------------------------------
    def _hand_card(self, seat: int, tok: str) -> int:
        """The card of ``seat``'s hand named by ``tok``, or -1."""
        parsed = _parse_token(tok)
        if parsed is None:
            return -1
        card = resolve(parsed[0], parsed[1], seat)
        return card if card in self.hands[seat] else -1

    def _discard_index(self, seat: int, tok: str, face_up: bool) -> int:
        """Index in ``seat``'s discard of the card named by ``tok`` with that face, or -1."""
        parsed = _parse_token(tok)
        if parsed is None:
            return -1
        card = resolve(parsed[0], parsed[1], seat)
        for i, entry in enumerate(self.discards[seat]):
            if entry & CARD_MASK == card:
                return i if bool(entry & UP) == face_up else -1
        return -1

    def _picture_playable(self, seat: int, card: int) -> bool:
        """UTA-R36 / R14(c) / R20(c): a J/Q/K was set in an earlier turn (flags I45, I46)."""
        rules = self.rules
        if rules.jqk_unlock_mode == "per_card":
            set_at = self.set_turn[seat].get(card)
            if set_at is None:
                return False
        else:
            set_at = self.unlock_turn[seat]
            if not set_at:
                return False
        return set_at < self.turn or rules.jqk_same_turn_play

    def _attack_card_problem(self, card: int) -> tuple[str, str] | None:
        """UTA-R14: why ``card`` (in the attacker's hand) is not a legal attack, or None."""
        a = self.attacker
        if self.rescue:
            return ("UTA-R55", "an empty-handed player with a face-up joker must use the joker")
        if self._banned(a) >> SUIT[card] & 1:
            return ("UTA-R33", f"{SUIT_LETTERS[SUIT[card]]} is a forbidden suit for P{a + 1} this turn")
        rank = RANK[card]
        if rank >= 11 and not self._picture_playable(a, card):
            return ("UTA-R36", f"{NAME[card]} must be set face down in an earlier turn before it is played")
        if (rank == ACE or rank >= 11) and self.energy[a] < self.rules.premium_attack_cost:
            return ("UTA-R42", f"attacking with {NAME[card]} costs {self.rules.premium_attack_cost} energy; "
                               f"P{a + 1} has {self.energy[a]}")
        return None

    def _declaration_problem(self, card: int, nxt: bool, bans: str) -> tuple[str, str] | None:
        """UTA-R15, R48-R50: why the declared NEXT and designations do not fit the card, or None."""
        suit, rank = SUIT[card], RANK[card]
        if nxt and suit not in (CLUBS, DIAMONDS):
            return ("UTA-R15", "NEXT may be declared only with a club (♣NEXT) or a diamond (♦NEXT); there is no ♠NEXT")
        need = (1 if 2 <= rank <= 4 else 0) + (1 if nxt and suit == CLUBS else 0)
        if len(bans) != need or len(set(bans)) != len(bans) or any(ch not in SUIT_LETTERS for ch in bans):
            if need == 2 and len(bans) == 2 and bans[0] == bans[1]:
                return ("UTA-R50", "♣NEXT on a 2-4 designates two different suits")
            what = {0: "no suit", 1: "exactly one suit", 2: "two different suits"}[need]
            return ("UTA-R15", f"this attack designates {what}")
        if bans != "".join(ch for ch in SUIT_LETTERS if ch in bans):
            return ("UTA-R15", "write the designated suits in the order H S C D")
        return None

    def _has_main_action(self) -> bool:
        """UTA-R12/R56: does the attacker have any main action (attack, pass, joker, set-as-action)?"""
        a = self.attacker
        if self.joker_up[a]:
            return True
        if self.rescue:
            return False
        if any(e & UP for e in self.discards[a]):
            return True
        if self.rules.jqk_set_costs_action and any(RANK[c] >= 11 and c not in self.set_turn[a] for c in self.hands[a]):
            return True
        return any(self._attack_card_problem(c) is None for c in self.hands[a])

    def _block_problem(self, card: int) -> tuple[str, str] | None:
        """UTA-R18-R20: why the defender's ``card`` cannot block the attack, or None."""
        a_suit = SUIT[self.atk]
        suit = SUIT[card]
        if a_suit == HEARTS and suit != CLUBS:
            return ("UTA-R18", "only a club may block a heart attack")
        if a_suit == SPADES and suit != DIAMONDS:
            return ("UTA-R18", "only a diamond may block a spade attack")
        d = 1 - self.attacker
        if RANK[card] >= 11 and self.rules.jqk_set_required_for_block and not self._picture_playable(d, card):
            return ("UTA-R20", f"{NAME[card]} must be set face down in an earlier turn before it blocks")
        need, have = self.attack_number2(), self.block_number2(card)
        if have < need:
            return ("UTA-R19", f"{NAME[card]} counts {_half(have)}, less than the attack's {_half(need)}")
        return None

    def _is_unblockable(self) -> bool:
        """UTA-R17: ♥A, ♠A and every ♦NEXT attack cannot be blocked."""
        card = self.atk
        if RANK[card] == ACE and SUIT[card] in (HEARTS, SPADES):
            return True
        return self.atk_next and SUIT[card] == DIAMONDS

    def _heart_next_cards(self, seat: int) -> list[int]:
        """UTA-R51: the heart cards ``seat`` may use for ♥NEXT now (I67, I68 and I28 flags)."""
        rules = self.rules
        if not self.decks[seat] or self.hn_turn[seat] or (rules.heart_next_limit == "per_game" and self.hn_game[seat]):
            return []
        if rules.ban_applies_to_heart_next and seat == self.attacker and self._banned(seat) >> HEARTS & 1:
            return []
        if rules.heart_next_source == "hand":
            return sorted((c for c in self.hands[seat] if SUIT[c] == HEARTS), key=SORT_KEY.__getitem__)
        played = self.atk if seat == self.attacker else self.blk
        if played < 0 or SUIT[played] != HEARTS or self._room(seat) <= 0:  # UTA-I-CT4
            return []
        if (played | UP) not in self.discards[seat] and (played | UP | SELF) not in self.discards[seat]:
            return []
        return [played]

    def _option_slots(self, seat: int, own_turn: bool) -> list[int]:
        """Slots of face-up option cards whose timing allows use now (UTA-R46)."""
        out = []
        seen: set[str] = set()
        for slot, card in enumerate(self.kit.loadouts[seat]):
            if self.opt_up[seat][slot] and card.name not in seen and (own_turn or card.timing == "any_time"):
                seen.add(card.name)
                out.append(slot)
        return out

    def _hero_usable(self, seat: int, own_turn: bool) -> bool:
        """UTA-R47: the hero has uses left and its timing allows use now."""
        hero = self.kit.heroes[seat]
        return hero is not None and self.hero_left[seat] > 0 and (own_turn or hero.timing == "any_time")

    def _react_card(self) -> int:
        """The Ace the defender would react with (♣A against draws, ♦A against discards), or -1."""
        want = CLUBS if self.success_kind == DRAW_EFFECT else DIAMONDS
        for c in self.hands[1 - self.attacker]:
            if RANK[c] == ACE and SUIT[c] == want:
                return c
        return -1

    def _draw_allowed(self, seat: int, requested: int) -> int:
        """How many of ``requested`` cards the seat can draw (UTA-R53, UTA-R54)."""
        return max(0, min(requested, self._room(seat), len(self.decks[seat])))

    # -- legal actions ----------------------------------------------------------------------------
    def legal_actions(self) -> Sequence[Action]:
        """Every legal action now, in a deterministic order; empty once over."""
        phase = self.phase
        if phase == Phase.MAIN:
            return self._main_actions()
        if phase == Phase.BLOCK:
            return self._block_actions()
        if phase == Phase.POST:
            return self._post_actions()
        if phase == Phase.END:
            a = self.attacker
            return [Cosmic(NAME[c]) for c in self.pools[a]] + [NoCosmic()]
        if phase == Phase.REACT:
            d = 1 - self.attacker
            out: list[Action] = [React()] if self._react_card() >= 0 else []
            out.append(NoReact())
            out.extend(self._defender_free_actions(d))
            return out
        if phase == Phase.TARGET:
            return self._target_actions()
        if phase == Phase.DRAW:
            seat, requested = self.draw_queue[0]
            return [Draw(n) for n in range(self._draw_allowed(seat, requested) + 1)]
        if phase == Phase.HEART_PICK:
            return [Pick(token(c, self.hn_user)) for c in self.revealed]
        if phase == Phase.BLOCKER_WINDOW:
            d = 1 - self.attacker
            acts: list[Action] = [HeartNext(token(c, d)) for c in self._heart_next_cards(d)]
            acts.append(EndWindow())
            return acts
        if phase == Phase.EFFECT:
            return self._effect_actions()
        if phase == Phase.WISH:
            seat = 0 if self.wished[0] < 0 else 1
            return [Wish(NAME[c]) for c in deck_cards(seat)]
        return []

    def _main_actions(self) -> list[Action]:
        a = self.attacker
        rules = self.rules
        hand = sorted(self.hands[a], key=SORT_KEY.__getitem__)
        out: list[Action] = []
        if not self.rescue:
            for c in hand:  # UTA-R14
                if self._attack_card_problem(c) is None:
                    out.extend(_attack_variants(token(c, a), SUIT[c], RANK[c]))
            out.extend(Pass(token(e & CARD_MASK, a)) for e in self.discards[a] if e & UP)  # UTA-R44
        if self.joker_up[a]:  # UTA-R45
            out.append(Joker())
        if rules.jqk_set_costs_action and not self.rescue:  # UTA-I46 variant: setting is the action
            st = self.set_turn[a]
            out.extend(SetCard(token(c, a)) for c in hand if RANK[c] >= 11 and c not in st)
        has_main = bool(out)
        out.extend(self._own_free_actions(a, hand, main=True))
        if not has_main:  # UTA-R56
            out.append(Stall())
        return out

    def _own_free_actions(self, a: int, hand: list[int], main: bool) -> list[Action]:
        """UTA-R11: set J/Q/K, option cards, hero, and the flag-given free actions."""
        rules = self.rules
        out: list[Action] = []
        if not rules.jqk_set_costs_action:  # UTA-R37
            st = self.set_turn[a]
            out.extend(SetCard(token(c, a)) for c in hand if RANK[c] >= 11 and c not in st)
        if self.kit.loadouts[a]:
            out.extend(UseOption(self.kit.loadouts[a][s].name) for s in self._option_slots(a, True))
        if self._hero_usable(a, True):
            out.append(UseHero())
        if main and rules.free_flip_for_energy:  # UTA-I52 variant
            out.extend(Flip(token(e & CARD_MASK, a)) for e in self.discards[a] if e & UP)
        if rules.cosmic_timing == "any_time_own_turn" and not self.cosmic_taken and self._room(a) > 0:
            out.extend(Cosmic(NAME[c]) for c in self.pools[a])  # UTA-I11 variant (UTA-I-CT11)
        return out

    def _defender_free_actions(self, d: int) -> list[Action]:
        """UTA-I81, UTA-I-CT10: in the opponent's turn only cards with ``timing = "any_time"``."""
        out: list[Action] = []
        if self.kit.loadouts[d]:
            out.extend(UseOption(self.kit.loadouts[d][s].name) for s in self._option_slots(d, False))
        if self._hero_usable(d, False):
            out.append(UseHero())
        return out

    def _block_actions(self) -> list[Action]:
        d = 1 - self.attacker
        out: list[Action] = []
        with_bans = self.rules.rank_effects_on_block
        for c in sorted(self.hands[d], key=SORT_KEY.__getitem__):
            if self._block_problem(c) is None:
                tok = token(c, d)
                if with_bans and 2 <= RANK[c] <= 4:
                    out.extend(Block(tok, s) for s in SUIT_LETTERS)
                else:
                    out.append(Block(tok))
        if not (out and self.rules.forced_block):  # UTA-R20(e), flag forced_block
            out.append(NoBlock())
        out.extend(self._defender_free_actions(d))
        return out

    def _post_actions(self) -> list[Action]:
        a = self.attacker
        hand = sorted(self.hands[a], key=SORT_KEY.__getitem__)
        out: list[Action] = [HeartNext(token(c, a)) for c in self._heart_next_cards(a)]
        out.extend(self._own_free_actions(a, hand, main=False))
        if self.rules.joker_timing == "any_time_ends_turn" and self.joker_up[a]:
            out.append(Joker())
        out.append(EndWindow())
        return out

    def _target_actions(self) -> list[Action]:
        d = 1 - self.attacker
        hand = sorted(self.hands[d], key=SORT_KEY.__getitem__)
        if self.success_kind == DNEXT_EFFECT:  # UTA-R48(b): optional, first or last
            out: list[Action] = []
            for c in hand:
                tok = token(c, d)
                out.append(Take(tok, "first"))
                out.append(Take(tok, "last"))
            out.append(TakeNothing())
            return out
        return [Take(token(c, d)) for c in hand]

    def _effect_step(self) -> tuple[int, CardDef, Step]:
        assert self.eff is not None
        user, source, slot, step_i, _ = self.eff
        card = self.kit.loadouts[user][slot] if source == 0 else self.kit.heroes[user]
        assert card is not None
        return user, card, card.steps[step_i]

    def _effect_candidates(self, user: int, step: Step, card: CardDef) -> tuple[int, list[int]]:
        """(zone owner, cards) a choice step may pick from."""
        do = step.do
        if do == "discard_from_hand":
            owner = user if step.who == "self" else 1 - user
            return owner, sorted(self.hands[owner], key=SORT_KEY.__getitem__)
        if do == "exchange":
            return user, sorted(self.hands[user], key=SORT_KEY.__getitem__)
        if do == "recover":
            if self._room(user) <= 0 and not card.ignore_hand_limit:
                return user, []
            return user, [e & CARD_MASK for e in self.discards[user] if e & UP]
        if do == "flip_discard":
            owner = user if step.who == "self" else 1 - user
            return owner, [e & CARD_MASK for e in self.discards[owner] if e & UP]
        return user, []

    def _effect_actions(self) -> list[Action]:
        user, card, step = self._effect_step()
        if step.do == "forbid_suit":
            return [NameSuit(s) for s in SUIT_LETTERS]
        owner, cands = self._effect_candidates(user, step, card)
        out: list[Action] = [Choose(token(c, owner)) for c in cands]
        if step.optional:
            out.append(ChooseNothing())
        return out

    # -- illegality (the same checks as legal_actions) ---------------------------------------------
    def _illegality(self, action: Action) -> tuple[str, str] | None:
        """None if ``action`` is legal now, else (rule id, reason)."""
        phase = self.phase
        kind = type(action)
        if phase == Phase.MAIN:
            if kind is Attack:
                assert isinstance(action, Attack)
                return self._attack_illegality(action)
            if kind is Pass:
                assert isinstance(action, Pass)
                if self.rescue:
                    return ("UTA-R55", "an empty-handed player with a face-up joker must use the joker")
                if self._discard_index(self.attacker, action.card, True) < 0:
                    return ("UTA-R44", f"a pass flips a face-up card of your own discard pile; {action.card} is not one")
                return None
        elif phase == Phase.BLOCK and kind is Block:
            assert isinstance(action, Block)
            d = 1 - self.attacker
            card = self._hand_card(d, action.card)
            if card < 0:
                return ("UTA-R20", f"{action.card} is not in the defender's hand")
            problem = self._block_problem(card)
            if problem is not None:
                return problem
            need = 1 if self.rules.rank_effects_on_block and 2 <= RANK[card] <= 4 else 0
            if not isinstance(action.bans, str) or len(action.bans) != need or (need and action.bans not in SUIT_LETTERS):
                return ("UTA-I27", "a block designates one suit only with a 2-4 under rank_effects_on_block")
            return None
        elif (kind is EndWindow and phase in (Phase.POST, Phase.BLOCKER_WINDOW)) \
                or (kind is NoCosmic and phase == Phase.END) or (kind is NoReact and phase == Phase.REACT):
            return None
        elif kind is Take and phase == Phase.TARGET:
            assert isinstance(action, Take)
            if self._hand_card(1 - self.attacker, action.card) < 0:
                return ("UTA-R24", f"{action.card} is not in the defender's hand")
            if action.where not in (("first", "last") if self.success_kind == DNEXT_EFFECT else ("",)):
                return ("UTA-R48", "♦NEXT places the card first or last; other effects take no position")
            return None
        if action in self.legal_actions():
            return None
        return self._explain(action)

    def _attack_illegality(self, action: Attack) -> tuple[str, str] | None:
        a = self.attacker
        if not isinstance(action.next, bool) or not isinstance(action.bans, str):
            return ("UTA-R15", "a declaration is a NEXT flag and a string of suit letters")
        card = self._hand_card(a, action.card)
        if card < 0:
            return ("UTA-R14", f"{action.card} is not in P{a + 1}'s hand")
        return self._attack_card_problem(card) or self._declaration_problem(card, action.next, action.bans)

    def _explain(self, action: Action) -> tuple[str, str]:
        """A rule id and reason for an action not in the legal list."""
        phase_name = PHASE_NAMES[self.phase]
        kind = type(action)
        a = self.attacker
        if kind is SetCard:
            return ("UTA-R37", "only an unset J, Q or K of your own hand may be set, in your own turn's free-action windows")
        if kind is Stall:
            return ("UTA-R56", "a stall is allowed only when no attack, pass or joker is possible")
        if kind is Joker:
            if not self.joker_up[self.current_player or 0]:
                return ("UTA-R45", "the joker is face down; it is used once per game")
            return ("UTA-I56", "the joker is used as the main action (or after the attack under joker_timing)")
        if kind is HeartNext:
            return ("UTA-R51", "♥NEXT needs a heart (per heart_next_source), a non-empty deck, and is used at most once "
                               "per turn, after your card was played")
        if kind is Cosmic:
            return ("UTA-R52", "one cosmic card from your own pool per turn, at the end step, only if the hand holds "
                               f"at most {self.rules.hand_limit - 1}")
        if kind in (UseOption, UseHero):
            return ("UTA-R46", "no face-up card of that name whose timing allows it now")
        if kind is Flip:
            return ("UTA-I52", "free flips need free_flip_for_energy and a face-up discard, in the main phase")
        if kind is React:
            return ("UTA-R29", "a reaction needs ♣A (against a draw) or ♦A (against a discard effect) in hand, "
                               "only after an unblocked attack")
        if kind in (Take, TakeNothing):
            return ("UTA-R24", "choose one card of the defender's hand (♦NEXT: with first/last, or none)")
        if kind is Draw:
            return ("UTA-R53", "draw at most what the hand limit and deck allow")
        if kind is Wish:
            return ("UTA-R3", "the wished card is chosen once, from your own deck, before the game")
        if kind is NoBlock and self.phase == Phase.BLOCK:
            return ("UTA-R20", "forced_block: a defender with a legal block must block")
        return ("UTA-R10", f"{action} is not an action of the {phase_name} step (P{a + 1}'s turn {self.turn})")

    # -- apply --------------------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        """Carry out an action already known to be legal."""
        kind = type(action)
        if kind is Attack:
            assert isinstance(action, Attack)
            self._do_attack(action)
        elif kind is Block:
            assert isinstance(action, Block)
            self._do_block(action)
        elif kind is NoBlock:
            if self._events is not None:
                self._events.append(CODE_NOTICE | (1 - self.attacker) << SEAT_AT | NOTICE_NO_BLOCK << NOTICE_AT
                                    | (len(self.history) + self.move_base) << MOVE_AT)
            self._succeed()
        elif kind is Pass:
            assert isinstance(action, Pass)
            a = self.attacker
            i = self._discard_index(a, action.card, True)
            pile = self.discards[a]
            pile[i] = pile[i] & ~UP | SEEN  # UTA-R44; everybody saw it go face down (UTA-I-CT21)
            if self._events is not None:
                code = TOKEN_CODE.get(action.card)
                if code is None:
                    self._emit(EV_PASS, {"player": a, "card": action.card})
                else:
                    self._events.append(CODE_PASS | a << SEAT_AT | code << TOKEN_AT | (len(self.history) + self.move_base) << MOVE_AT)
                before = list(self.energy)
                self._gain(a, 1)  # UTA-R43
                self._say_energy(before)
            else:
                self._gain(a, 1)
            self._end_step()
        elif kind is Flip:
            assert isinstance(action, Flip)
            a = self.attacker
            i = self._discard_index(a, action.card, True)
            pile = self.discards[a]
            pile[i] = pile[i] & ~UP | SEEN
            before = list(self.energy)
            self._gain(a, 1)
            if self._events is not None:
                self._emit(EV_FLIP, {"player": a, "target": a, "card": action.card})
                self._say_energy(before)
            self.free_used = True  # a free flip makes a stall live (UTA-I-CT5)
        elif kind is SetCard:
            assert isinstance(action, SetCard)
            a = self.attacker
            card = self._hand_card(a, action.card)
            self.set_turn[a][card] = self.turn  # UTA-R37
            if self.look == 1 - a:  # a seat looking at this hand sees which card is set (UTA-I-CT21)
                self.priv_hand[1 - a][card] = (self.turn, 0)
            if self._events is not None:
                code = TOKEN_CODE.get(action.card)
                if code is None or not 0 <= self.turn <= SET_TURN_MASK:
                    self._emit(EV_SET, {"player": a, "turn": self.turn}, {"card": action.card}, self._watchers(a))
                else:
                    self._events.append(CODE_SET | a << SEAT_AT | code << TOKEN_AT | (WATCHED if self.look == 1 - a else 0)
                                        | self.turn << SET_TURN_AT | (len(self.history) + self.move_base) << MOVE_AT)
            if not self.unlock_turn[a]:
                self.unlock_turn[a] = self.turn
            if self.rules.jqk_set_costs_action:  # UTA-I-CT6
                self._end_step()
            else:
                self.free_used = True
        elif kind is Joker:
            self._do_joker()
        elif kind is Stall:
            self.stalled = True  # UTA-R56
            if self._events is not None:
                self._events.append(CODE_NOTICE | self.attacker << SEAT_AT | NOTICE_STALL << NOTICE_AT
                                    | (len(self.history) + self.move_base) << MOVE_AT)
            self._end_step()
        elif kind is React:
            self._do_react()
        elif kind is NoReact:
            if self._events is not None:
                self._events.append(CODE_NOTICE | (1 - self.attacker) << SEAT_AT | NOTICE_NO_REACT << NOTICE_AT
                                    | (len(self.history) + self.move_base) << MOVE_AT)
            self._resolve_success(reacted=False)
        elif kind is Take:
            assert isinstance(action, Take)
            self._do_take(action)
        elif kind is TakeNothing:
            if self._events is not None:
                self._emit(EV_TAKE_NOTHING, {"player": self.attacker, "target": 1 - self.attacker})
            self._finish_success()
        elif kind is Draw:
            assert isinstance(action, Draw)
            seat = self.draw_queue.pop(0)[0]
            self._draw(seat, action.count)
            self._advance_draws()
        elif kind is HeartNext:
            assert isinstance(action, HeartNext)
            self._do_heart_next(action)
        elif kind is Pick:
            assert isinstance(action, Pick)
            self._do_pick(action)
        elif kind is EndWindow:
            events = self._events
            if events is not None:
                decider = self.current_player
                assert decider is not None  # an action is applied by the seat that decides
                events.append(CODE_NOTICE | decider << SEAT_AT | NOTICE_END_WINDOW << NOTICE_AT
                              | (len(self.history) + self.move_base) << MOVE_AT)
            if self.phase == Phase.BLOCKER_WINDOW:
                self.phase = Phase.POST
            else:
                self._end_step()
        elif kind is Cosmic:
            assert isinstance(action, Cosmic)
            self._do_cosmic(action)
        elif kind is NoCosmic:
            if self._events is not None:
                self._events.append(CODE_NOTICE | self.attacker << SEAT_AT | NOTICE_NO_COSMIC << NOTICE_AT
                                    | (len(self.history) + self.move_base) << MOVE_AT)
            self._cleanup()
        elif kind is UseOption:
            assert isinstance(action, UseOption)
            self._do_option(action)
        elif kind is UseHero:
            self._do_hero()
        elif kind is Choose:
            assert isinstance(action, Choose)
            self._do_choose(action)
        elif kind is ChooseNothing:
            assert self.eff is not None
            if self._events is not None:
                self._emit(EV_CHOOSE_NOTHING, {"player": self.eff[0]})
            self.eff[3] += 1
            self._run_effect()
        elif kind is NameSuit:
            assert isinstance(action, NameSuit)
            user, _, _ = self._effect_step()
            self._forbid(1 - user, SUIT_LETTERS.index(action.suit))
            assert self.eff is not None
            self.eff[3] += 1
            self._run_effect()
        elif kind is Wish:
            assert isinstance(action, Wish)
            self._do_wish(action)

    # turn flow -------------------------------------------------------------------------------------
    def _do_wish(self, action: Wish) -> None:
        """UTA-R3: both wishes are secret and simultaneous; then shuffle and deal."""
        seat = 0 if self.wished[0] < 0 else 1
        parsed = _parse_token(action.card)
        assert parsed is not None
        self.wished[seat] = resolve(parsed[0], False, seat)
        recording = self._events is not None
        if recording:
            self._emit(EV_WISH, {"player": seat}, {"card": action.card}, (seat,))
        if seat == 0:
            return
        for p in (0, 1):
            deck = self.decks[p]
            deck.remove(self.wished[p])
            self.rng.shuffle(deck)
            self.hands[p] = [self.wished[p]]
            for _ in range(self.rules.hand_limit - 1):  # UTA-I-CT16
                if deck:
                    self.hands[p].append(deck.pop())
            if recording:
                self._emit(EV_DEAL, {"player": p, "count": len(self.hands[p])},
                           {"cards": [token(c, p) for c in self.hands[p]]}, (p,))
        if self.rules.wished_card_public:  # UTA-I14 variant: both wished cards are shown (UTA-I-CT12)
            for p in (0, 1):
                self._seen_in_hand(self.wished[p], p)
            if recording:
                self._emit(EV_WISHES_SHOWN, {"cards": [token(self.wished[p], p) for p in (0, 1)]})
        self._start_turn()

    def _start_turn(self) -> None:
        """UTA-R10 step 1: next turn, roles swap, expired modifiers go, E1 is checked (UTA-R55)."""
        self.turn += 1
        self.attacker = self.first if self.turn == 1 else 1 - self.attacker
        turn = self.turn
        if self.effects:
            self.effects = [e for e in self.effects if e[0] >= turn]  # UTA-R13
        self.rescue = self.free_used = self.cosmic_taken = self.stalled = False
        self.hn_turn = [False, False]
        self.look = -1
        self.atk = self.blk = self.reacted = -1
        self.atk_next = self.success = False
        self.atk_bans = ""
        self.success_kind = 0
        a = self.attacker
        if self.rules.option_reusable:  # UTA-I5 variant (UTA-I-CT7)
            self.opt_up[a] = [True] * len(self.opt_up[a])
        self.phase = Phase.MAIN
        if not self.hands[a]:  # UTA-R55 (flags: UTA-I-CT8)
            if self.rules.empty_hand_joker_rescue and self.joker_up[a]:
                self.rescue = True
            elif self.rules.end_on_empty_hand:
                if self._events is not None:
                    self._events.append(CODE_TURN | a << SEAT_AT | turn << TURN_AT | (len(self.history) + self.move_base) << MOVE_AT)
                self._finish(f"P{a + 1} starts turn {turn} with no cards in hand", "UTA-R55")
                return
        if self._events is not None:
            self._events.append(CODE_TURN | a << SEAT_AT | (TURN_RESCUE if self.rescue else 0) | turn << TURN_AT
                                | (len(self.history) + self.move_base) << MOVE_AT)

    def _end_step(self) -> None:
        """UTA-R10 step 6: the cosmic card decision, if one could be taken (UTA-R52)."""
        a = self.attacker
        self.phase = Phase.END
        if self.cosmic_taken or not self.pools[a] or self._room(a) <= 0:
            self._cleanup()

    def _cleanup(self) -> None:
        """UTA-R10 step 7: E2 (UTA-R56), the max_turns guard (UTA-R57), then the next turn."""
        dead = self.stalled and not self.free_used and not self.cosmic_taken
        if dead and self.prev_dead:
            self._finish(f"turns {self.turn - 1} and {self.turn} were both dead stalls", "UTA-R56")
            return
        self.prev_dead = dead
        if self.turn >= self.rules.max_turns:
            self._finish(f"the max_turns guard ({self.rules.max_turns}) was reached", "UTA-R57", "ended_by_guard")
            return
        self._start_turn()

    def _finish(self, reason: str, rule: str, detail: str = "") -> None:
        self.phase = Phase.OVER
        self.result = (reason, rule, detail)
        if self._events is not None:
            out = self.outcome()
            assert out is not None
            self._emit(EV_GAME_END, {"reason": reason, "rule": rule, "detail": out.detail,
                                    "winners": list(out.winners), "scores": list(out.scores or ())})

    # energy, drawing, moving -----------------------------------------------------------------------
    def _gain(self, seat: int, amount: int) -> None:
        """UTA-R40: change energy, never below 0 (and not above ``energy_cap`` when set, UTA-I-CT14)."""
        energy = self.energy
        value = energy[seat] + amount
        cap = self.rules.energy_cap
        if cap and value > cap:
            value = cap
        if value < 0:
            value = 0
        energy[seat] = value

    def _say_energy(self, before: list[int]) -> None:
        """Emit the energy changes since ``before`` (callers guard: only while recording)."""
        events = self._events
        assert events is not None
        for seat in (0, 1):
            now = self.energy[seat]
            if now != before[seat]:
                change = now - before[seat] + ENERGY_BIAS
                if 0 <= change <= ENERGY_CHANGE_MASK and 0 <= now <= ENERGY_MASK:
                    events.append(CODE_ENERGY | seat << SEAT_AT | change << ENERGY_CHANGE_AT | now << ENERGY_AT
                                  | (len(self.history) + self.move_base) << MOVE_AT)
                else:
                    self._emit(EV_ENERGY, {"player": seat, "change": now - before[seat], "energy": now})

    def _draw(self, seat: int, count: int, ignore_limit: bool = False) -> int:
        """UTA-R53/R54: draw from the top of the own deck while the hand has room."""
        deck, hand = self.decks[seat], self.hands[seat]
        limit = self.rules.hand_limit
        drawn = 0
        while drawn < count and deck and (ignore_limit or len(hand) < limit):
            hand.append(deck.pop())
            drawn += 1
        if drawn and self.look == 1 - seat:  # a look ends when the hand gains a card (UTA-I-CT2)
            self.look = -1
        events = self._events
        if events is not None:
            if drawn <= DRAW_LIMIT:
                code = CODE_DRAW | seat << SEAT_AT | drawn << DRAW_COUNT_AT | (len(self.history) + self.move_base) << MOVE_AT
                shift = DRAW_TOKENS_AT
                for c in hand[len(hand) - drawn:]:
                    code |= TOKEN_CODE[token(c, seat)] << shift
                    shift += TOKEN_BITS
                events.append(code)
            else:
                self._emit(EV_DRAW, {"player": seat, "count": drawn},
                           {"cards": [token(c, seat) for c in hand[len(hand) - drawn:]]}, (seat,))
        return drawn

    def _to_hand(self, seat: int, card: int) -> None:
        """A card everybody saw goes into ``seat``'s hand (♥NEXT's pick, a cosmic card, a recovered discard)."""
        self.hands[seat].append(card)
        if self.look == 1 - seat:
            self.look = -1
        self.pub_hand[seat][card] = (0, self.turn) if RANK[card] >= JACK else _UNSET  # everybody remembers it

    def _from_hand(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.set_turn[seat].pop(card, None)

    def _forbid(self, seat: int, suit: int) -> None:
        """Register a forbidden suit for ``seat``'s next attacking turn (UTA-R33, UTA-R49(a))."""
        self._add_effect((self._next_turn_of(seat), BAN, seat, suit))

    def _add_effect(self, effect: tuple[int, int, int, int]) -> None:
        """Register a modifier or forbidden suit (turn, kind, player, value) and say so."""
        self.effects.append(effect)
        if self._events is not None:
            self._emit_effect(effect)

    def _decode_event(self, code: int) -> tuple[Any, ...]:
        """The row of a compact event (see :mod:`cardtable.games.utahime.codec`)."""
        return event_row(code)

    def _emit_effect(self, effect: tuple[int, int, int, int]) -> None:
        turn, kind, player, value = effect
        events = self._events
        if events is not None and 0 <= value + EFFECT_BIAS < EFFECT_VALUE_LIMIT and 0 <= turn < EFFECT_TURN_LIMIT:
            events.append(CODE_EFFECT | player << SEAT_AT | kind << EFFECT_KIND_AT | (value + EFFECT_BIAS) << EFFECT_VALUE_AT
                          | turn << EFFECT_TURN_AT | (len(self.history) + self.move_base) << MOVE_AT)
            return
        public: dict[str, Any] = {"player": player, "turn": turn, "effect": EFFECT_KINDS[kind]}
        if kind == BAN:
            public["suit"] = SUIT_LETTERS[value]
        else:
            public["half_points"] = value
        self._emit(EV_EFFECT, public)

    # the attack ----------------------------------------------------------------------------------
    def _do_attack(self, action: Attack) -> None:
        """UTA-R16: pay, discard face up, energy, then next-turn effects; then block or success."""
        a = self.attacker
        d = 1 - a
        rules = self.rules
        card = self._hand_card(a, action.card)
        rank, suit = RANK[card], SUIT[card]
        events = self._events
        recording = events is not None
        if events is not None:
            code = TOKEN_CODE.get(action.card)
            bans = BAN_CODE.get(action.bans)
            if code is None or bans is None:
                self._emit(EV_ATTACK, {"player": a, "card": action.card, "next": action.next, "bans": action.bans})
            else:
                events.append(CODE_ATTACK | a << SEAT_AT | code << TOKEN_AT | (ATTACK_NEXT if action.next else 0)
                              | bans << ATTACK_BANS_AT | (len(self.history) + self.move_base) << MOVE_AT)
            registered = len(self.effects)
            before = list(self.energy)
        if rank == ACE or rank >= 11:
            self._gain(a, -rules.premium_attack_cost)  # UTA-R42
        self._from_hand(a, card)
        m = self.pub_hand[a]  # face up now: nobody needs to remember it (UTA-I-CT21; ``_forget`` inlined)
        if card in m:
            del m[card]
        elif card in self.pub_out[a]:
            del self.pub_out[a][card]
        m = self.priv_hand[d]
        if card in m:
            del m[card]
        elif card in self.priv_out[d]:
            del self.priv_out[d][card]
        self.discards[a].append(card | UP | SELF)  # UTA-R16 step 2 (UTA-I22)
        if 2 <= rank <= 4:  # UTA-R41
            self._gain(a, 1)
            self._gain(d, -1)
        elif 5 <= rank <= 7:
            self._gain(a, 1)
        nxt = self.turn + 1
        effects = self.effects
        for ch in action.bans:  # UTA-R33, UTA-R49(a), UTA-R50
            effects.append((nxt, BAN, d, SUIT_LETTERS.index(ch)))
        if 5 <= rank <= 7:  # UTA-R34
            effects.append((nxt, BLOCK_BONUS, a, 4))
        elif 8 <= rank <= 10:  # UTA-R35
            effects.append((nxt, BONUS_810, a, 2))
        if action.next and suit == DIAMONDS and rules.diamond_next_penalty_always:  # UTA-R48(c)
            effects.append((nxt, BLOCK_BONUS, a, -4))
        if action.next and suit == CLUBS and not rules.club_next_penalty_only_on_success:  # UTA-I64 variant
            effects.append((nxt, ATTACK_BONUS, d, 3))
        if recording:
            self._say_energy(before)
            for effect in effects[registered:]:
                self._emit_effect(effect)
        self.atk, self.atk_next, self.atk_bans = card, action.next, action.bans
        if self._is_unblockable() or (not self.hands[d] and not self._defender_free_actions(d)):  # R17, R22, CT1
            self._succeed()
        else:
            self.phase = Phase.BLOCK

    def _do_block(self, action: Block) -> None:
        """UTA-R21: the block goes to the defender's discard and the attack fails."""
        a = self.attacker
        d = 1 - a
        rules = self.rules
        card = self._hand_card(d, action.card)
        self._from_hand(d, card)
        face_up = rules.block_card_scores
        # UTA-I22; a block put face down was shown first: everybody remembers it (UTA-I-CT21)
        self.discards[d].append(card | (UP if face_up else SEEN) | SELF)
        self._forget(card, d)
        if self._events is not None:
            code = TOKEN_CODE.get(action.card)
            if code is None:
                self._emit(EV_BLOCK, {"player": d, "card": action.card, "face_up": face_up})
            else:
                self._events.append(CODE_BLOCK | d << SEAT_AT | code << TOKEN_AT | (BLOCK_FACE_UP if face_up else 0)
                                    | (len(self.history) + self.move_base) << MOVE_AT)
        self.blk = card
        rank = RANK[card]
        if rules.rank_effects_on_block and 2 <= rank <= 10:  # UTA-I27 variant: for turn t+2 (UTA-I-CT19)
            later = self.turn + 2
            for ch in action.bans:
                self._add_effect((later, BAN, a, SUIT_LETTERS.index(ch)))
            if 5 <= rank <= 7:
                self._add_effect((later, BLOCK_BONUS, d, 4))
            elif 8 <= rank <= 10:
                self._add_effect((later, BONUS_810, d, 2))
        if rules.heart_next_after_block and self.decks[d] and not self.hn_turn[d] and not (
                rules.heart_next_limit == "per_game" and self.hn_game[d]):
            self.phase = Phase.BLOCKER_WINDOW  # UTA-I67 variant, opened on public information (UTA-I-CT1)
        else:
            self.phase = Phase.POST

    def _succeed(self) -> None:
        """UTA-R22: the attack succeeds; open the reaction window when a reaction could matter."""
        self.success = True
        card, a = self.atk, self.attacker
        d = 1 - a
        if self._events is not None:
            self._events.append(CODE_NOTICE | a << SEAT_AT | NOTICE_SUCCESS << NOTICE_AT | (len(self.history) + self.move_base) << MOVE_AT)
        suit = SUIT[card]
        if suit in (HEARTS, CLUBS):
            self.success_kind = DRAW_EFFECT
            if self._draw_allowed(a, self._success_draws()) > 0 and self.hands[d]:
                self.phase = Phase.REACT  # UTA-R29; opened on public information (UTA-I-CT1)
                return
            self._resolve_success(reacted=False)
            return
        self.success_kind = DNEXT_EFFECT if self.atk_next else REMOVE_EFFECT
        if not self.hands[d]:  # UTA-R26
            self._finish_success()
        elif self.success_kind == REMOVE_EFFECT or self.rules.diamond_ace_vs_diamond_next:
            self.phase = Phase.REACT  # UTA-R30 (UTA-I42 for ♦NEXT)
        else:
            self._resolve_success(reacted=False)

    def _success_draws(self) -> int:
        """UTA-R23, R27, R49(c): cards a successful ♥/♣ attack draws (flags I36, I63)."""
        card = self.atk
        n = 1
        if self.rules.heart_ace_extra_draw and SUIT[card] == HEARTS and RANK[card] == ACE:
            n += 1
        if self.rules.club_next_extra_draw and self.atk_next and SUIT[card] == CLUBS:
            n += 1
        return n

    def _do_react(self) -> None:
        """UTA-R29/R30: the Ace goes face up to the defender's discard and cancels the effect."""
        d = 1 - self.attacker
        ace = self._react_card()
        self._from_hand(d, ace)
        self._forget(ace, d)
        if self._events is not None:
            self._emit(EV_REACT, {"player": d, "card": token(ace, d)})
        self.discards[d].append(ace | UP | SELF)
        self.reacted = ace
        self._resolve_success(reacted=True)

    def _resolve_success(self, reacted: bool) -> None:
        """UTA-R22 step 2: the success effect, minus what a reaction cancelled."""
        a = self.attacker
        if self.success_kind == DRAW_EFFECT:
            if reacted:
                self._finish_success()
                return
            n = self._success_draws()
            if self.rules.optional_draws:  # UTA-I-CT9
                self.draw_queue = [[a, n]]
                self.draw_then = DRAWS_THEN_FINISH
                self._advance_draws()
            else:
                self._draw(a, n)
                self._finish_success()
            return
        if reacted:  # ♦A: the attacker does not look, nothing leaves the hand
            self._finish_success()
            return
        self._start_look(a)  # UTA-R24: the attacker sees the whole hand (UTA-R59)
        self.phase = Phase.TARGET

    def _do_take(self, action: Take) -> None:
        """UTA-R24 (♠ face down), R25 (♦ face up), R28 (♠A face up), R48 (♦NEXT first/last)."""
        a = self.attacker
        d = 1 - a
        card = self._hand_card(d, action.card)
        self._from_hand(d, card)
        if SUIT[self.atk] == SPADES and RANK[self.atk] != ACE and self.success_kind != DNEXT_EFFECT:
            self.discards[d].append(card)  # UTA-R24: face down; the attacker chose it, so knows it
            self._hidden_exit(d, card, (a,))
            if self._events is not None:
                code = TOKEN_CODE.get(action.card)
                if code is None:
                    self._emit(EV_TAKE, {"player": a, "target": d, "face_up": False, "pile": d, "where": "last"},
                               {"card": action.card}, (a, d))
                else:
                    self._events.append(CODE_TAKE | a << SEAT_AT | code << TOKEN_AT | d << TAKE_PILE_AT
                                        | (len(self.history) + self.move_base) << MOVE_AT)
            self._finish_success()
            return
        self._forget(card, d)
        owner = d
        where = "last"
        if self.success_kind == DNEXT_EFFECT:
            owner = a if self.rules.diamond_next_pile == "self" else d  # UTA-I60 (UTA-I-CT18)
            pile = self.discards[owner]
            if action.where == "first":
                where = "first"
                pile.insert(0, card | UP)
            else:
                pile.append(card | UP)
        else:
            self.discards[d].append(card | UP)
        if self._events is not None:
            code = TOKEN_CODE.get(action.card)
            if code is None:
                self._emit(EV_TAKE, {"player": a, "target": d, "face_up": True, "pile": owner, "where": where,
                                    "card": action.card})
            else:
                self._events.append(CODE_TAKE | a << SEAT_AT | TAKE_FACE_UP | code << TOKEN_AT | owner << TAKE_PILE_AT
                                    | (TAKE_FIRST if where == "first" else 0) | (len(self.history) + self.move_base) << MOVE_AT)
        if self.success_kind == DNEXT_EFFECT and not self.rules.diamond_next_penalty_always:
            self._add_effect((self.turn + 1, BLOCK_BONUS, a, -4))  # UTA-I61 variant (UTA-I-CT20)
        self._finish_success()

    def _finish_success(self) -> None:
        """UTA-R22 step 3: the ♣NEXT price, then the post-attack window."""
        if self.atk_next and SUIT[self.atk] == CLUBS and self.rules.club_next_penalty_only_on_success:
            self._add_effect((self.turn + 1, ATTACK_BONUS, 1 - self.attacker, 3))  # UTA-R49(d)
        self.phase = Phase.POST

    def _advance_draws(self) -> None:
        """Skip queued optional draws that cannot draw anything, then continue."""
        queue = self.draw_queue
        while queue and self._draw_allowed(queue[0][0], queue[0][1]) == 0:
            queue.pop(0)
        if queue:
            self.phase = Phase.DRAW
        elif self.draw_then == DRAWS_THEN_FINISH:
            self._finish_success()
        else:
            self._end_step()

    def _do_joker(self) -> None:
        """UTA-R45: joker face down; attacker then defender draw up to 2; the turn ends."""
        a = self.attacker
        self.joker_up[a] = False
        if self._events is not None:
            self._emit(EV_JOKER, {"player": a})
        if self.rules.optional_draws:
            self.draw_queue = [[a, 2], [1 - a, 2]]
            self.draw_then = DRAWS_THEN_END
            self._advance_draws()
            return
        self._draw(a, 2)
        self._draw(1 - a, 2)
        self._end_step()

    def _do_heart_next(self, action: HeartNext) -> None:
        """UTA-R51: heart face down to the discard, reveal the top 3, pick one, the rest face down."""
        seat = self.current_player
        assert seat is not None
        parsed = _parse_token(action.card)
        assert parsed is not None
        card = resolve(parsed[0], parsed[1], seat)
        pile = self.discards[seat]
        if self.rules.heart_next_source == "hand":
            watchers = self._watchers(seat)
            self._from_hand(seat, card)
            pile.append(card | COST)  # face down; everybody knows it is a heart (UTA-I-CT22)
            self._hidden_exit(seat, card, watchers[1:])
            events = self._events
            if events is not None:
                code = TOKEN_CODE.get(action.card)
                if code is None:
                    self._emit(EV_HEART_NEXT, {"player": seat, "suit": "H"}, {"card": action.card}, watchers)
                else:
                    events.append(CODE_HEART_NEXT | seat << SEAT_AT | code << TOKEN_AT
                                  | (WATCHED if len(watchers) > 1 else 0) | (len(self.history) + self.move_base) << MOVE_AT)
        else:
            for i, e in enumerate(pile):
                if e & CARD_MASK == card:
                    pile[i] = e & ~UP
                    break
            pile[i] |= SEEN
            events = self._events
            if events is not None:
                code = TOKEN_CODE.get(action.card)
                if code is None:
                    self._emit(EV_HEART_NEXT, {"player": seat, "suit": "H", "card": action.card,
                                               "source": "played_card"})
                else:
                    events.append(CODE_HEART_NEXT | seat << SEAT_AT | HEART_NEXT_PLAYED | code << TOKEN_AT
                                  | (len(self.history) + self.move_base) << MOVE_AT)
        self.hn_turn[seat] = True
        self.hn_game[seat] = True
        deck = self.decks[seat]
        self.revealed = [deck.pop() for _ in range(min(3, len(deck)))]
        events = self._events
        if events is not None:
            if len(self.revealed) <= DRAW_LIMIT:
                code = CODE_REVEAL | seat << SEAT_AT | len(self.revealed) << DRAW_COUNT_AT | (len(self.history) + self.move_base) << MOVE_AT
                for i, c in enumerate(self.revealed):
                    code |= TOKEN_CODE[token(c, seat)] << (DRAW_TOKENS_AT + TOKEN_BITS * i)
                events.append(code)
            else:
                self._emit(EV_REVEAL, {"player": seat, "cards": [token(c, seat) for c in self.revealed]})
        self.hn_user = seat
        self.hn_resume = Phase.POST
        if len(self.revealed) == 1:  # UTA-I-CT13
            self._pick(self.revealed[0])
        else:
            self.phase = Phase.HEART_PICK

    def _do_pick(self, action: Pick) -> None:
        parsed = _parse_token(action.card)
        assert parsed is not None
        self._pick(resolve(parsed[0], parsed[1], self.hn_user))

    def _pick(self, card: int) -> None:
        seat = self.hn_user
        self._to_hand(seat, card)  # everybody saw which card was kept (UTA-I-CT21)
        pile = self.discards[seat]
        for c in self.revealed:
            if c != card:
                pile.append(c | SEEN)  # UTA-I69: face down, but everybody saw them (UTA-I-CT21)
        events = self._events
        if events is not None:
            others = [c for c in self.revealed if c != card]
            if len(others) <= PICK_LIMIT:
                code = CODE_PICK | seat << SEAT_AT | TOKEN_CODE[token(card, seat)] << TOKEN_AT \
                    | len(others) << PICK_COUNT_AT | (len(self.history) + self.move_base) << MOVE_AT
                for i, c in enumerate(others):
                    code |= TOKEN_CODE[token(c, seat)] << (PICK_OTHERS_AT + TOKEN_BITS * i)
                events.append(code)
            else:
                self._emit(EV_PICK, {"player": seat, "card": token(card, seat),
                                    "discarded": [token(c, seat) for c in others]})
        self.revealed = []
        self.hn_user = -1
        self.phase = self.hn_resume

    def _do_cosmic(self, action: Cosmic) -> None:
        """UTA-R52: one cosmic card per turn into a hand of at most hand_limit - 1."""
        a = self.attacker
        parsed = _parse_token(action.card)
        assert parsed is not None
        card = resolve(parsed[0], False, a)
        self.pools[a].remove(card)
        self._to_hand(a, card)
        if self._events is not None:
            code = TOKEN_CODE.get(action.card)
            if code is None:
                self._emit(EV_COSMIC, {"player": a, "card": action.card})
            else:
                self._events.append(CODE_COSMIC | a << SEAT_AT | code << TOKEN_AT | (len(self.history) + self.move_base) << MOVE_AT)
        self.cosmic_taken = True
        if self.phase == Phase.END:
            self._cleanup()

    # option and hero effects (UTA-R46, UTA-R47) -----------------------------------------------------
    def _do_option(self, action: UseOption) -> None:
        seat = self.current_player
        assert seat is not None
        for slot, card in enumerate(self.kit.loadouts[seat]):
            if card.name == action.name and self.opt_up[seat][slot]:
                self.opt_up[seat][slot] = False  # UTA-R46: turned face down, spent
                if self._events is not None:
                    self._emit(EV_OPTION, {"player": seat, "option": action.name, "slot": slot})
                self._start_effect(seat, 0, slot)
                return

    def _do_hero(self) -> None:
        seat = self.current_player
        assert seat is not None
        self.hero_left[seat] -= 1
        if self._events is not None:
            hero = self.kit.heroes[seat]
            self._emit(EV_HERO, {"player": seat, "hero": hero.name if hero is not None else ""})
        self._start_effect(seat, 1, 0)

    def _start_effect(self, seat: int, source: int, slot: int) -> None:
        if seat == self.attacker:
            self.free_used = True
        self.eff = [seat, source, slot, 0, int(self.phase)]
        self._run_effect()

    def _run_effect(self) -> None:
        """Run the steps of the current effect until one needs a choice, then wait for it."""
        eff = self.eff
        assert eff is not None
        user, source, slot = eff[0], eff[1], eff[2]
        card = self.kit.loadouts[user][slot] if source == 0 else self.kit.heroes[user]
        assert card is not None
        while eff[3] < len(card.steps):
            step = card.steps[eff[3]]
            if step.needs_choice:
                if step.do == "forbid_suit" or self._effect_candidates(user, step, card)[1]:
                    if step.do == "discard_from_hand" and step.who == "opponent":
                        self._start_look(user)  # looking at the hand is part of choosing from it
                    self.phase = Phase.EFFECT
                    return
            else:
                self._auto_step(user, step, card)
            eff[3] += 1
        self.phase = Phase(eff[4])
        self.eff = None

    def _auto_step(self, user: int, step: Step, card: CardDef) -> None:
        """The primitives that need no decision."""
        do = step.do
        opp = 1 - user
        if do == "draw":
            seats = (user,) if step.who == "self" else (opp,) if step.who == "opponent" else (user, opp)
            for s in seats:
                self._draw(s, step.count, card.ignore_hand_limit)
        elif do == "look_at_hand":
            self._start_look(user)
        elif do == "mill":
            deck, pile = self.decks[user], self.discards[user]
            face_up = step.face == "up"
            milled = [deck.pop() for _ in range(min(step.count, len(deck)))]
            pile.extend(c | (UP if face_up else 0) for c in milled)
            if self._events is not None:
                tokens = [token(c, user) for c in milled]
                public: dict[str, Any] = {"player": user, "count": len(milled), "face_up": face_up}
                if face_up:
                    public["cards"] = tokens
                self._emit(EV_MILL, public, None if face_up else {"cards": tokens}, (user,))
        elif do == "forbid_suit":
            self._forbid(opp, step.suit)
        elif do == "change_energy":
            before = list(self.energy)
            self._gain(user if step.who == "self" else opp, step.amount)
            if self._events is not None:
                self._say_energy(before)
        elif do == "add_modifier":
            when = self.turn if step.duration == "this_turn" else self._next_turn_of(opp)
            if step.target == "my_blocks":
                self._add_effect((when, BLOCK_BONUS, user, step.amount))
            else:
                self._add_effect((when, ATTACK_BONUS, opp, step.amount))

    def _do_choose(self, action: Choose) -> None:
        user, card_def, step = self._effect_step()
        owner, _ = self._effect_candidates(user, step, card_def)
        parsed = _parse_token(action.card)
        assert parsed is not None and self.eff is not None
        card = resolve(parsed[0], parsed[1], owner)
        do = step.do
        recording = self._events is not None
        if do == "discard_from_hand":
            face_up = step.face == "up"
            watchers = self._watchers(owner) if owner == user else (owner, user)
            self._from_hand(owner, card)
            self.discards[owner].append(card | (UP if face_up else 0))
            if face_up:
                self._forget(card, owner)
            else:
                self._hidden_exit(owner, card, watchers[1:])
            if recording:
                public: dict[str, Any] = {"player": user, "target": owner, "face_up": face_up, "pile": owner}
                if face_up:
                    public["card"] = action.card
                self._emit(EV_DISCARD, public, None if face_up else {"card": action.card}, watchers)
        elif do == "exchange":  # UTA-R39: J/Q/K may be chosen, set or not; face down, then draw (UTA-I-CT15)
            watchers = self._watchers(owner)
            self._from_hand(owner, card)
            self.discards[owner].append(card)
            self._hidden_exit(owner, card, watchers[1:])
            if recording:
                self._emit(EV_EXCHANGE, {"player": owner}, {"card": action.card}, watchers)
            self._draw(owner, 1, card_def.ignore_hand_limit)
        elif do == "recover":
            pile = self.discards[owner]
            for i, e in enumerate(pile):
                if e & CARD_MASK == card:
                    del pile[i]
                    break
            self._to_hand(owner, card)
            if recording:
                self._emit(EV_RECOVER, {"player": owner, "card": action.card})
        elif do == "flip_discard":
            pile = self.discards[owner]
            for i, e in enumerate(pile):
                if e & CARD_MASK == card:
                    pile[i] = e & ~UP | SEEN
                    break
            if recording:
                self._emit(EV_FLIP, {"player": user, "target": owner, "card": action.card})
        self.eff[3] += 1
        self._run_effect()

    # -- seat memory (UTA-I-CT21) ------------------------------------------------------------------------
    def _seen_in_hand(self, card: int, player: int) -> None:
        """Everybody saw ``card`` go into ``player``'s hand (a shown wished card; ``_to_hand`` does the same)."""
        self.pub_hand[player][card] = (0, self.turn) if RANK[card] >= JACK else _UNSET

    def _forget(self, card: int, player: int) -> None:
        """``card`` left ``player``'s hand face up: nobody needs to remember it."""
        m = self.pub_hand[player]
        if card in m:
            del m[card]
        else:
            m = self.pub_out[player]
            if card in m:
                del m[card]
        m = self.priv_hand[1 - player]
        if card in m:
            del m[card]
        else:
            m = self.priv_out[1 - player]
            if card in m:
                del m[card]

    def _hidden_exit(self, player: int, card: int, seers: tuple[int, ...]) -> None:
        """A card of ``player``'s hand went face down to the pile: ``seers`` know which; the others only that one did."""
        other = 1 - player
        if other in seers:
            self.priv_down[other].add(card)
            self.priv_hand[other].pop(card, None)
            self.priv_out[other].pop(card, None)
        else:
            held = self.priv_hand[other]
            if held:  # what it knew in the hand may now be face down in the pile instead
                self.priv_out[other].update(held)
                held.clear()
        held = self.pub_hand[player]
        if held:
            self.pub_out[player].update(held)
            held.clear()

    def remembered(self, observer: int | None, player: int) -> dict[int, MemoryEntry]:
        """What ``observer`` (None: a spectator) remembers of ``player``'s hand side: the public memory, then its own."""
        out: dict[int, MemoryEntry] = {c: (OUT, *k) for c, k in self.pub_out[player].items()}
        out.update((c, (HAND, *k)) for c, k in self.pub_hand[player].items())
        if observer is not None and observer != player:
            out.update((c, (OUT, *k)) for c, k in self.priv_out[observer].items())
            out.update((c, (HAND, *k)) for c, k in self.priv_hand[observer].items())
            out.update((c, (PILE, 0, 0)) for c in self.priv_pile[observer])
            for c in self.priv_down[observer]:
                out.pop(c, None)
        return out

    def remembers(self, observer: int | None, player: int) -> bool:
        """False when ``remembered(observer, player)`` is sure to be empty (views skip building it)."""
        if self.pub_out[player] or self.pub_hand[player]:
            return True
        if observer is None or observer == player:
            return False
        return bool(self.priv_out[observer] or self.priv_hand[observer] or self.priv_pile[observer])

    def known_face_down(self, observer: int | None, player: int) -> set[int]:
        """The face-down cards of ``player``'s pile that ``observer`` (None: a spectator) knows."""
        out = {e & CARD_MASK for e in self.discards[player] if e & SEEN}
        if observer is not None and observer != player:
            out |= self.priv_down[observer]
        return out

    def _watchers(self, player: int) -> tuple[int, ...]:
        """The seats that see ``player``'s hand now: the owner, then the other seat while it looks (UTA-R59)."""
        return (player, 1 - player) if self.look == 1 - player else (player,)

    def _start_look(self, looker: int) -> None:
        """``looker`` sees the other seat's whole hand, set cards included (UTA-R24, UTA-I33), and remembers it."""
        target = 1 - looker
        self.look = looker
        hand = self.hands[target]
        maybe = self.priv_out[looker]
        if maybe:  # cards it knew in the hand or the pile: those not in the hand are in the pile
            self.priv_pile[looker].update(c for c in maybe if c not in hand)
            maybe.clear()
        maybe = self.pub_out[target]
        if maybe:
            self.priv_pile[looker].update(c for c in maybe if c not in hand)
        known = self.priv_hand[looker]
        known.update(dict.fromkeys(hand, _UNSET))
        pictures = PICTURES.intersection(hand)
        if pictures:
            sets = self.set_turn[target]
            for c in pictures:
                t = sets.get(c, 0)
                known[c] = (t, 0) if t else (0, self.turn)
        if self._events is not None:
            sets = self.set_turn[target]
            ordered = sorted(hand, key=SORT_KEY.__getitem__)
            self._emit(EV_LOOK, {"player": looker, "target": target},
                       {"hand": [token(c, target) for c in ordered],
                        "set": [{"card": token(c, target), "turn": sets[c]} for c in ordered if c in sets]},
                       (looker,))

    def _setup_events(self) -> None:
        """What the setup tells everybody: who moves first and why (UTA-R6, UTA-I15, UTA-I16)."""
        costs, counts = self.kit.costs, self.kit.counts
        if costs[0] != costs[1]:
            reason = "lower option cost, UTA-R6"
        elif counts[0] != counts[1]:
            reason = "fewer option cards, UTA-I15"
        elif self.rules.first_player == "random":
            reason = "chosen at random, UTA-I16"
        else:
            reason = "rule flag first_player, UTA-I16"
        self._emit(EV_SETUP, {"first_player": self.first, "reason": reason})

    # -- outcome (UTA-R55-R58) ------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        """The result once the game is over: scores compared under UTA-R58."""
        if self.result is None:
            return None
        reason, rule, detail = self.result
        s0, s1 = self.score(0), self.score(1)
        costs, counts = self.kit.costs, self.kit.counts
        if s0 != s1:
            winner = 0 if s0 > s1 else 1
            how = f"P{winner + 1} has more face-up discards ({max(s0, s1)} to {min(s0, s1)})"
            winners: tuple[int, ...] = (winner,)
        elif costs[0] != costs[1]:  # UTA-R58 (UTA-I76)
            winner = 0 if costs[0] < costs[1] else 1
            winners = (winner,)
            how = f"scores tie {s0}-{s1}; P{winner + 1} wins on lower option cost ({costs[winner]} < {costs[1 - winner]})"
        elif self.rules.final_tiebreak == "fewer_option_cards_then_draw" and counts[0] != counts[1]:  # UTA-I77
            winner = 0 if counts[0] < counts[1] else 1
            winners = (winner,)
            how = f"scores and option costs tie; P{winner + 1} has fewer option cards"
        else:
            winners = ()
            how = f"scores tie {s0}-{s1} and option costs tie ({costs[0]}): a draw (UTA-I77)"
        text = f"{detail}; {how}" if detail else how
        return Outcome(winners, reason, rule, (float(s0), float(s1)), text)

    # -- conservation --------------------------------------------------------------------------------
    def zones(self) -> dict[str, list[str]]:
        """Every card by zone: decks, hands (set cards included), discards, cosmic pools, jokers, reveals."""
        out: dict[str, list[str]] = {}
        for p in (0, 1):
            name = f"p{p + 1}"
            out[f"{name}.deck"] = [absolute(c) for c in reversed(self.decks[p])]
            out[f"{name}.hand"] = [absolute(c) for c in self.hands[p]]
            out[f"{name}.discard"] = [absolute(e & CARD_MASK) for e in self.discards[p]]
            out[f"{name}.cosmic"] = [absolute(c) for c in self.pools[p]]
            out[f"{name}.joker"] = [f"P{p + 1}:JOKER"]
        out["table.revealed"] = [absolute(c) for c in self.revealed]
        return out

    def expected_cards(self) -> Counter[str]:
        """Both 52-card decks, both cosmic pools (per the cosmic_pool flag) and both jokers."""
        total: Counter[str] = Counter()
        for p in (0, 1):
            total.update(absolute(c) for c in deck_cards(p))
            total.update(absolute(p * CARDS_PER_SEAT + i) for i in self.kit.cosmic)
            total[f"P{p + 1}:JOKER"] += 1
        return total

    def summary(self) -> str:
        """One line: turn, attacker, phase, energy, hands, decks, scores."""
        if self.phase == Phase.WISH:
            return f"setup: P{(self.current_player or 0) + 1} picks the wished card"
        state = "over" if self.phase == Phase.OVER else f"P{self.attacker + 1} attacks, {PHASE_NAMES[self.phase]}"
        return (f"turn {self.turn}, {state}; energy {self.energy[0]}/{self.energy[1]}; "
                f"hands {len(self.hands[0])}/{len(self.hands[1])}; decks {len(self.decks[0])}/{len(self.decks[1])}; "
                f"score {self.score(0)}-{self.score(1)}")

    # -- JSON and views (the formats live in position.py) ---------------------------------------------
    def _position_json(self) -> dict[str, Any]:
        """The whole position (see position.schema.json)."""
        return position_json(self)

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may know (UTA-R59), JSON-safe; None is a spectator."""
        return view_json(self, player)


def _half(value2: int) -> str:
    """A half-point number as a person writes it (``8.5``)."""
    return str(value2 // 2) if value2 % 2 == 0 else f"{value2 / 2:.1f}"


__all__ = ["Kit", "Phase", "UtahimeState"]
