"""Zeta's state machine: setup, turns, placement resolution (ZETA-R18), effects, legal actions and outcome.

The state is plain data: per-square lists, int bitboards per seat and per card type, hands as
per-type counts, decks as lists (top = last). Seats are 0 and 1; ``first`` is the seat that moves
first (the rulebook's role "P1", ZETA-R5, R8); engine text names seats ``P{seat+1}``. Pending
decisions inside effects are phases with their own legal actions; ``frames`` is the explicit
continuation stack of placements being resolved. Its vocabulary (phases, steps, frame fields)
is :mod:`cardtable.games.zeta.vocab`, the layouts of its compact event codes
:mod:`cardtable.games.zeta.codec`; views and position JSON are written by
:mod:`cardtable.games.zeta.view`, read and sampled by :mod:`cardtable.games.zeta.position`; the
events each step emits are in :mod:`cardtable.games.zeta.events`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final, cast

from cardtable.core import Action, Outcome, State
from cardtable.core.rng import shuffle

from .actions import (
    DECLINE,
    DESTROY,
    KEEP,
    MULLIGAN,
    PASS,
    TARGET_ROW,
    ActionTable,
    ChooseLine,
    Decline,
    DestroyFromHand,
    Mulligan,
    Pass,
    Place,
    Target,
)
from .board import FILES, Geometry
from .cards import (
    APPRENTICE,
    ARROW,
    ASTROLOGY,
    BARRIER,
    BLAZE,
    BOOST,
    BROOM,
    BURST,
    CARDS,
    COSTS,
    DARK,
    DO_OVER,
    EARTH,
    FIRE,
    FORTUNE,
    GREAT_CIRCLE,
    HEXER,
    ICE,
    LIGHT,
    MAGIC_CIRCLE,
    MIST,
    MOURNING,
    NUM_TYPES,
    POTION,
    THUNDER,
    ULTIMATE,
    WIND,
)
from .cardset import ZetaNumbers, card_numbers
from .codec import (
    CODE_CARD_NOTICE,
    CODE_DECISION,
    CODE_DESTROY,
    CODE_DRAW,
    CODE_EFFECT,
    CODE_PLACE,
    CODE_TURN,
    DECISION_MASK_AT,
    DECISION_PENDING,
    DECISION_PHASE_AT,
    DECISION_SOURCE_AT,
    DECISION_SQUARE_AT,
    DECISION_TARGETS,
    DESTROY_BY_AT,
    DESTROY_CARD_AT,
    DESTROY_CAUSE_AT,
    DESTROY_RANDOM,
    DESTROY_REMOVED,
    DESTROY_SQUARE_AT,
    DRAW_CARD_AT,
    DRAW_CAUSE_AT,
    EFFECT_CAUSE_AT,
    EFFECT_CODE,
    EFFECT_EFFECT_AT,
    EFFECT_TURN_AT,
    EFFECT_TURN_LIMIT,
    MOVE_AT,
    NOTICE_CARD_AT,
    NOTICE_NEGATED,
    NOTICE_SQUARE_AT,
    PLACE_CARD_AT,
    PLACE_SQUARE_AT,
    SEAT_AT,
    SHORT_MOVE_LIMIT,
    TURN_TURN_AT,
    cause_id,
    event_row,
)
from .events import ZetaEvent
from .rules import ZetaRules
from .view import position_json, view_json
from .vocab import (
    CHOOSE_FORTUNE,
    CHOOSE_HAND,
    CHOOSE_LINE,
    CHOOSE_MOURN,
    CHOOSE_TARGET,
    F_CARD,
    F_COVERED,
    F_POS,
    F_SEAT,
    F_SQUARE,
    F_TOP,
    FANFARE,
    FULL,
    FULL_NOW,
    LINE,
    MAIN,
    MULLIGAN_PHASE,
    NO_KNOWN,
    OVER,
    PHASE_NAMES,
    TRIGGERS,
    TURN_DRAW,
    EndReason,
    Phase,
    Step,
)

# Event kinds as module constants (an enum attribute costs a class lookup, and events are emitted in
# the hot path of every recording game).
EV_BLOCK: Final = ZetaEvent.BLOCK
EV_DEAL: Final = ZetaEvent.DEAL
EV_DECISION: Final = ZetaEvent.DECISION
EV_DECLINE: Final = ZetaEvent.DECLINE
EV_DESTROY: Final = ZetaEvent.DESTROY
EV_DRAW: Final = ZetaEvent.DRAW
EV_DRAW_SKIPPED: Final = ZetaEvent.DRAW_SKIPPED
EV_EFFECT: Final = ZetaEvent.EFFECT
EV_FIRST_PLAYER: Final = ZetaEvent.FIRST_PLAYER
EV_GAME_OVER: Final = ZetaEvent.GAME_OVER
EV_LINE: Final = ZetaEvent.LINE
EV_MULLIGAN: Final = ZetaEvent.MULLIGAN
EV_NEGATED: Final = ZetaEvent.NEGATED
EV_NO_EFFECT: Final = ZetaEvent.NO_EFFECT
EV_PASS: Final = ZetaEvent.PASS
EV_PLACE: Final = ZetaEvent.PLACE
EV_REMOVE: Final = ZetaEvent.REMOVE
EV_RETURN: Final = ZetaEvent.RETURN
EV_TURN: Final = ZetaEvent.TURN

# Event parts every recording game repeats, made once; an event's parts are read-only (core.events).




if TYPE_CHECKING:
    from .game import ZetaGame


# AFFORD[cap]: bitmask of card types whose cost is at most cap (cap is clamped to the top cost).
MAX_COST: Final = max(COSTS)
AFFORD: Final = tuple(sum(1 << c.index for c in CARDS if c.cost <= cap) for cap in range(MAX_COST + 1))
FANFARE_MASK: Final = sum(1 << c.index for c in CARDS if c.fanfare)
WIND_BIT: Final = 1 << WIND


def step_sequence(rules: ZetaRules) -> tuple[Step, ...]:
    """The order of R18's steps under the rules' timing flags (ZETA-I14, I15, I16)."""
    seq: list[Step]
    if rules.win_check_timing == "after_triggers":
        seq = [TRIGGERS, LINE, FANFARE]  # ZETA-R18 variant: 0, 1, 4, 2, 3, 5
    elif rules.trigger_order == "triggers_first":
        seq = [LINE, TRIGGERS, FANFARE]
    else:
        seq = [LINE, FANFARE, TRIGGERS]
    if rules.board_full_check == "on_placement":
        seq.insert(seq.index(LINE) + 1, FULL_NOW)
    else:
        seq.append(FULL)
    return tuple(seq)


_PASS_ONLY: Final[tuple[Action, ...]] = (PASS,)
_DECLINE_ONLY: Final[tuple[Action, ...]] = (DECLINE,)


class Placements(Sequence[Action]):
    """Legal main-phase actions over several card types, built lazily: indexing allocates nothing.

    Order: each card type of ``cards`` (ascending) on each square of ``squares``, then the Wind Mage
    on ``wind``, then ``pass``. ``len`` and indexing are O(1).
    """

    __slots__ = ("_place", "_cards", "_squares", "_wind", "_len", "_block")

    def __init__(self, place: tuple[tuple[Action, ...], ...], cards: tuple[int, ...], squares: tuple[int, ...],
                 wind: tuple[int, ...]) -> None:
        self._place = place
        self._cards = cards
        self._squares = squares
        self._wind = wind
        self._block = len(cards) * len(squares)
        self._len = self._block + len(wind) + 1

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index: Any) -> Any:
        if not isinstance(index, int):
            return list(self)[index]
        if index < 0:
            index += self._len
        if index < self._block:
            squares = self._squares
            k, i = divmod(index, len(squares))
            return self._place[self._cards[k]][squares[i]]
        index -= self._block
        if index < len(self._wind):
            return self._place[WIND][self._wind[index]]
        if index == len(self._wind):
            return PASS
        raise IndexError("legal action index out of range")

    def __iter__(self) -> Iterator[Action]:
        for c in self._cards:
            row = self._place[c]
            for s in self._squares:
                yield row[s]
        row = self._place[WIND]
        for s in self._wind:
            yield row[s]
        yield PASS

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, Sequence) else NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Placements({[str(a) for a in self]})"


_TYPES_OF: Final[dict[int, tuple[int, ...]]] = {}


def types_of(mask: int) -> tuple[int, ...]:
    """The card-type indexes of a type bitmask, ascending (cached)."""
    found = _TYPES_OF.get(mask)
    if found is None:
        found = _TYPES_OF[mask] = tuple(c for c in range(NUM_TYPES) if mask >> c & 1)
    return found


class ZetaState(State):
    """A Zeta position (see the module docstring for the representation)."""


    def __new__(cls, *args: Any, **kwargs: Any) -> ZetaState:
        """Allocate a state (``clone`` calls this alone, then sets every field itself)."""
        return object.__new__(cls)

    def __init__(self, game: ZetaGame, seed: int, setup: dict[str, Any], rng: random.Random,
                 decklists: list[list[int]]) -> None:
        rules = game.rules
        geo = game.geometry
        n = geo.size
        self.game = game
        self.rules = rules
        self.geo = geo
        self.table: ActionTable = game.table
        self.steps = game.steps
        self.seed = seed
        self.setup = setup
        self.rng = rng
        self.history = []
        self.decklists = decklists
        self.turn = 1
        self.first = 0
        self.active = 0
        self.phase = MAIN
        self.decider = 0
        self.owner = [-1] * n
        self.card = [-1] * n
        self.occ = [0, 0]
        self.tmask = [0] * NUM_TYPES
        self.blocked = 0
        self.marks = [0, 0]   # destruction markers: the last card on an empty square was this seat's
        self.ever = [0, 0]    # squares where a card of this seat was ever destroyed (wind_mage_vacant=ever)
        self.hands = [[0] * NUM_TYPES, [0] * NUM_TYPES]
        self.hand_size = [0, 0]
        self.held = [0, 0]    # bitmask of card types with at least one copy in hand
        self.decks: list[list[int]] = [[], []]
        self.destroyed: list[list[int]] = [[], []]
        self.destroyed_board = [0, 0]
        self.removed: list[list[int]] = [[], []]
        self.set_aside = -1
        self.negate = [0, 0]       # NegateFanfares(P, turn)
        self.only_zero = [0, 0]    # OnlyCostZero(P, turn)
        self.broom = [0, 0]        # BroomCap(P, turn)
        self.apprentice = [0, 0]   # deferred Apprentice Hexer test (apprentice_check_time=opponent_turn_start)
        self.frames: list[list[int]] = []
        self.pending: dict[str, Any] = {}
        self.mulligan_left: list[int] = []
        self.result: Outcome | None = None
        # ZETA-I-CT6: cards every seat knows to be in each hand (a Wind Mage's return), counts per type
        # (immutable tuples, so clone() shares them), and a bitmask (seat * NUM_TYPES + type) of the nonzero ones.
        self.known: tuple[tuple[int, ...], tuple[int, ...]] = (NO_KNOWN, NO_KNOWN)
        self.known_mask = 0
        self._events = None
        self.move_base = 1
        """What a code adds to its move: 0 while the setup deals (the code then says ``SETUP_MOVE``), else 1."""
        self._shuffled: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        """The decks as the setup shuffled them, before the deal (for ``_setup_events``)."""
        self.gravity = rules.gravity
        self.overline = rules.overline_wins
        # The card set's numbers (ZETA-I-CT7): the rulebook's unless the rules' ``cards`` flag changes some.
        nums = card_numbers(rules.cards)
        self.nums: ZetaNumbers = nums
        self.costs: tuple[int, ...] = nums.costs
        self.afford: tuple[int, ...] = nums.afford
        # Where a frame resumes after its Fanfare, when the full-board check is last (else -1: no fast path).
        self.fanfare_pos = self.steps.index(FANFARE) + 1 if self.steps[-1] == FULL else -1

    # ------------------------------------------------------------------ setup (ZETA-R7..R11)
    def _setup(self) -> None:
        rng = self.rng
        for seat in (0, 1):
            deck = list(self.decklists[seat])
            shuffle(deck, rng)  # ZETA-R7
            self.decks[seat] = deck
        self.first = rng.randrange(2) if self.rules.first_player == "random" else 0  # ZETA-R8
        self._shuffled = (tuple(self.decks[0]), tuple(self.decks[1]))
        self._deal()

    def _deal(self) -> None:
        """The setup after the shuffles and the coin toss (ZETA-R9..R11, then turn 1): no randomness."""
        rules = self.rules
        self.active = self.first
        events = self._events
        self.move_base = 0  # the setup's entries say SETUP_MOVE themselves
        if events is not None:
            self._emit(EV_FIRST_PLAYER, {"player": self.first, "coin_toss": rules.first_player == "random"})
        second = self.nums.hand_second + (1 if rules.second_player_extra_card else 0)
        for seat, n in ((self.first, self.nums.hand_first), (1 - self.first, second)):  # ZETA-R9, R10
            dealt = self._draw(seat, n, None)
            if events is not None:
                self._emit(EV_DEAL, {"player": seat, "count": len(dealt)},
                           {"cards": [CARDS[c].id for c in sorted(dealt)]}, (seat,))
        if rules.mulligan == "once":  # ZETA-R11: P1 then P2 may redraw once
            self.mulligan_left = [self.first, 1 - self.first]
            self.phase = MULLIGAN_PHASE
            self.decider = self.first
            self._emit_decision()
        else:
            self._start_turn()
        self.move_base = 1

    def _setup_events(self) -> None:
        """What the setup told each seat: who moves first, each dealt hand (to its owner), turn 1's draw.

        The setup ran before recording was switched on; past its shuffles and coin toss it is
        deterministic (ZETA-R7, I54), so a twin of the fresh state deals again from the same shuffled
        decks with recording on, and its events are taken over.
        """
        if self._events is None or self.history or self._shuffled is None:
            return
        twin = ZetaState(cast("ZetaGame", self.game), self.seed, self.setup, self.rng, self.decklists)  # the deal draws no random number
        twin.decks = [list(self._shuffled[0]), list(self._shuffled[1])]
        twin.first = self.first
        twin.record_events()
        twin._deal()
        self._events.extend(twin.event_rows())

    # ------------------------------------------------------------------ contract queries
    @property
    def current_player(self) -> int | None:
        """The seat that decides next (None once over)."""
        return None if self.result is not None else self.decider

    @property
    def num_players(self) -> int:
        """Zeta has two seats."""
        return 2

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.result is not None

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""
        return self.result

    def player_label(self, seat: int) -> str:
        """How engine text names a seat: ``P{seat+1}`` (the seat, never the role; ``first`` says who moved first)."""
        return f"P{seat + 1}"

    def summary(self) -> str:
        """One line: turn, who decides, phase, counts (seats named ``P{seat+1}``)."""
        if self.result is not None:
            return f"turn {self.turn}, game over ({self.result.reason})"
        return (f"turn {self.turn}, {self.player_label(self.decider)} to decide "
                f"[{PHASE_NAMES[self.phase]}], board {self.board_count()} cards, "
                f"hands {self.hand_size[0]}/{self.hand_size[1]}, decks {len(self.decks[0])}/{len(self.decks[1])}")

    def board_count(self) -> int:
        """BoardCount (ZETA-R4): cards on the board, both players'."""
        return (self.occ[0] | self.occ[1]).bit_count()

    def own_count(self, seat: int) -> int:
        """OwnCount(P) (ZETA-R4)."""
        return self.occ[seat].bit_count()

    def hand_cards(self, seat: int) -> list[int]:
        """A seat's hand as card-type indexes, ascending."""
        out: list[int] = []
        for c, n in enumerate(self.hands[seat]):
            if n:
                out.extend([c] * n)
        return out

    # ------------------------------------------------------------------ placement legality (R14-R17, R45)
    def cost_cap(self, seat: int) -> int:
        """CostCap(A, t) for normal placements (ZETA-R14, R17, I42)."""
        t = self.turn
        count = (self.occ[0] | self.occ[1]).bit_count()
        zero_only = self.only_zero[seat] == t
        broom = self.broom[seat] == t
        if broom and self.negate[seat] == t and self.rules.negation_scope == "include_lingering":
            broom = False  # ZETA-R35 include_lingering
        if zero_only and not (broom and self.rules.broom_vs_earth == "permission_wins"):
            return 0  # ZETA-R17(a), R17(c)
        if broom:
            return max(count, self.nums.broom_cap)  # ZETA-R17(b), R49
        return count

    def empty_targets(self) -> int:
        """Empty, unblocked squares a card may be placed on (ZETA-R15; gravity R16)."""
        filled = self.occ[0] | self.occ[1] | self.blocked
        geo = self.geo
        empty = geo.all & ~filled
        if self.rules.gravity:
            empty &= ((filled << geo.width) & geo.all) | geo.bottom
        return empty

    def wind_targets(self, seat: int) -> int:
        """Squares a Wind Mage may take (ZETA-R45(a), I39, flag wind_mage_negated=forbid_cover)."""
        rules = self.rules
        cover = self.occ[seat]
        if rules.wind_mage_negated == "forbid_cover" and self.negate[seat] == self.turn:
            cover = 0
        vacant = rules.wind_mage_vacant
        if vacant == "last_occupant":
            return cover | (self.marks[seat] & self.empty_targets())
        if vacant == "ever":
            return cover | (self.ever[seat] & self.empty_targets())
        return cover

    def legal_actions(self) -> Sequence[Action]:
        """Every legal action, in a fixed order (placements by card then square; pass/decline last)."""
        phase = self.phase
        if self.result is not None:
            return ()
        table = self.table
        if phase == MAIN:
            seat = self.active
            t = self.turn
            occ = self.occ
            filled = occ[0] | occ[1]
            if self.only_zero[seat] == t or self.broom[seat] == t:
                cap = self.cost_cap(seat)
            else:
                cap = filled.bit_count()
            avail = self.held[seat] & self.afford[cap]  # one entry for every cap a board allows (ZETA-R14)
            if not avail:
                return _PASS_ONLY
            geo = self.geo
            blocked = self.blocked
            empty = geo.all & ~(filled | blocked)
            if self.gravity:
                empty &= (((filled | blocked) << geo.width) & geo.all) | geo.bottom
            if not avail & (avail - 1):  # one card type: a plain tuple from the chunk tables
                c = avail.bit_length() - 1
                return table.on(c, self.wind_targets(seat) if c == WIND else empty) + _PASS_ONLY
            wind = geo.squares(self.wind_targets(seat)) if avail & WIND_BIT else ()
            return Placements(table.place, types_of(avail & ~WIND_BIT), geo.squares(empty), wind)
        if phase == CHOOSE_TARGET:
            return table.on(TARGET_ROW, self.pending["mask"]) + _DECLINE_ONLY
        if phase == CHOOSE_MOURN:
            empty = self.empty_targets()
            hand = self.hands[self.decider]
            out: tuple[Action, ...] = ()
            if empty:
                for c in self.nums.zero_cost:
                    if hand[c]:
                        out += table.on(c, empty)
            return out + _DECLINE_ONLY
        if phase == CHOOSE_HAND:
            hand = self.hands[self.decider]
            return tuple(DESTROY[c] for c in range(NUM_TYPES) if hand[c])
        if phase == CHOOSE_FORTUNE:
            return tuple(DESTROY[c] for c in sorted(set(self.pending["drawn"])))
        if phase == CHOOSE_LINE:
            return tuple(self._line_action(kind, i) for kind, i in self.pending["lines"])
        if phase == MULLIGAN_PHASE:
            return (MULLIGAN, KEEP)
        return ()

    def _line_action(self, kind: str, index: int) -> ChooseLine:
        return self.table.ranks[index] if kind == "rank" else self.table.files[index]

    def _can_mourn(self, seat: int) -> bool:
        """ZETA-R57: a cost-0 card in hand and an empty square to put it on."""
        hand = self.hands[seat]
        return bool(self.empty_targets()) and any(hand[c] for c in self.nums.zero_cost)

    def _illegality(self, action: Action) -> tuple[str, str] | None:
        phase = self.phase
        kind = type(action)
        if not self._is_own_action(action):
            return ("ZETA-R15", f"{action!r} is not an action of a {self.geo.width}x{self.geo.height} Zeta board")
        if phase == MAIN:
            if kind is Place:
                assert isinstance(action, Place)
                return self._placement_problem(action.card, action.square)
            if kind is Pass:
                return None  # ZETA-R13: passing is always legal
            return ("ZETA-R12", f"it is the main action step: place a card (CARD@SQUARE) or pass, not {action}")
        if phase == CHOOSE_TARGET:
            if kind is Decline:
                return None  # ZETA-R30: optional effects may be declined
            if kind is Target:
                assert isinstance(action, Target)
                if self.pending["mask"] >> action.square & 1:
                    return None
                return (CARDS[self.pending["source"]].rule,
                        f"{self.geo.names[action.square]} is not a target of {CARDS[self.pending['source']].id}; "
                        f"targets: {', '.join(self.geo.names[s] for s in self.geo.squares(self.pending['mask']))}")
            return ("ZETA-R30", f"{CARDS[self.pending['source']].id} needs target:SQUARE or decline, not {action}")
        if phase == CHOOSE_MOURN:
            if kind is Decline:
                return None
            if kind is Place:
                assert isinstance(action, Place)
                if self.costs[action.card] != 0:
                    return ("ZETA-R57", f"Mourning the Dead places only a cost-0 card, not {CARDS[action.card].id}")
                if not self.hands[self.decider][action.card]:
                    return ("ZETA-R57", f"{CARDS[action.card].id} is not in your hand")
                if not self.empty_targets() >> action.square & 1:
                    return ("ZETA-R57", f"{self.geo.names[action.square]} is not an empty, unblocked square")
                return None
            return ("ZETA-R57", f"Mourning the Dead needs CARD@SQUARE (a cost-0 card) or decline, not {action}")
        if phase in (CHOOSE_HAND, CHOOSE_FORTUNE):
            if kind is DestroyFromHand:
                assert isinstance(action, DestroyFromHand)
                if phase == CHOOSE_HAND and self.hands[self.decider][action.card]:
                    return None
                if phase == CHOOSE_FORTUNE and action.card in self.pending["drawn"]:
                    return None
                rule = "ZETA-R38" if phase == CHOOSE_HAND else "ZETA-R39"
                where = "your hand" if phase == CHOOSE_HAND else "the two cards Fortune-Telling drew"
                return (rule, f"{CARDS[action.card].id} is not among {where}")
            return ("ZETA-R38" if phase == CHOOSE_HAND else "ZETA-R39", f"choose a card to destroy (destroy:CARD), not {action}")
        if phase == CHOOSE_LINE:
            if kind is ChooseLine:
                assert isinstance(action, ChooseLine)
                if (action.kind, action.index) in self.pending["lines"]:
                    return None
                return ("ZETA-R59", f"{action} is not a full line")
            return ("ZETA-R59", f"Single-Arrow Summoning must choose a full line (rank:N or file:X), not {action}")
        if phase == MULLIGAN_PHASE:
            if kind is Mulligan:
                return None
            return ("ZETA-R11", f"decide the mulligan first (mulligan or keep), not {action}")
        return ("ZETA-R24", "the game is over")

    def _is_own_action(self, action: Action) -> bool:
        """True if ``action`` names a card and square that exist in this game (objects from elsewhere may not)."""
        if isinstance(action, Place):
            return 0 <= action.card < NUM_TYPES and 0 <= action.square < self.geo.size and \
                self.table.place[action.card][action.square] == action
        if isinstance(action, Target):
            return 0 <= action.square < self.geo.size and self.table.target[action.square] == action
        if isinstance(action, DestroyFromHand):
            return 0 <= action.card < NUM_TYPES
        if isinstance(action, ChooseLine):
            limit = self.geo.height if action.kind == "rank" else self.geo.width if action.kind == "file" else 0
            return 0 <= action.index < limit
        return True

    def can_place(self, c: int, s: int) -> bool:
        """True if the active seat may place card type ``c`` on square ``s`` now (ZETA-R2, R14-R17, R45, R50).

        The one statement of a main-phase placement's legality: ``_placement_problem`` (the checked
        door's reason) starts from it. Asked outside the main phase it answers for the active seat.
        """
        seat = self.active
        if not self.hands[seat][c]:
            return False
        t = self.turn
        occ = self.occ
        filled = occ[0] | occ[1]
        if self.only_zero[seat] == t or self.broom[seat] == t:
            cap = self.cost_cap(seat)  # ZETA-R17
        else:
            cap = filled.bit_count()  # ZETA-R14
        if self.costs[c] > cap:
            return False
        if c == WIND:
            return bool(self.wind_targets(seat) >> s & 1)  # ZETA-R45
        if (filled | self.blocked) >> s & 1:
            return False  # ZETA-R15, R50
        return not self.gravity or bool(self.empty_targets() >> s & 1)  # ZETA-R16

    def _placement_problem(self, c: int, s: int) -> tuple[str, str] | None:
        if self.can_place(c, s):
            return None
        seat = self.active
        card = CARDS[c]
        if not self.hands[seat][c]:
            return ("ZETA-R2", f"{card.id} is not in your hand")
        t = self.turn
        cap = self.cost_cap(seat)
        cost = self.costs[c]
        if cost > cap:
            if self.only_zero[seat] == t and cap == 0:
                return ("ZETA-R17", f"Earth Mage: only cost-0 cards may be placed this turn ({card.id} costs {cost})")
            return ("ZETA-R14", f"{card.id} costs {cost}, more than the {cap} card(s) on the board")
        bit = 1 << s
        if c == WIND:
            if self.blocked & bit:
                return ("ZETA-R50", f"{self.geo.names[s]} is blocked by a Light Mage")
            return ("ZETA-R45", f"a Wind Mage goes only on a square holding your own card "
                                f"(or where your destroyed card was): not {self.geo.names[s]}")
        if self.blocked & bit:
            return ("ZETA-R50", f"{self.geo.names[s]} is blocked by a Light Mage")
        if (self.occ[0] | self.occ[1]) & bit:
            return ("ZETA-R15", f"{self.geo.names[s]} is occupied")
        return ("ZETA-R16", f"gravity: {self.geo.names[s]} has no card or block beneath it")

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: object, player: int | None = None) -> Action:
        """The checked door (``State.apply``), asking a main-phase placement only ``can_place`` before ``apply_legal``."""
        if type(action) is Place and player is None and self.result is None and self.phase == MAIN:
            act: Place = action
            c = act.card
            s = act.square
            # one of this game's own action objects (``_is_own_action``), then the placement's one check
            if 0 <= c < NUM_TYPES and 0 <= s < self.geo.size and self.table.place[c][s] is act and self.can_place(c, s):
                return self.apply_legal(act)
        return State.apply(self, action, player)

    def apply_legal(self, action: Action) -> Action:
        """The unchecked door (``State.apply_legal``): a main-phase placement or pass goes straight to its step."""
        kind = type(action)
        if self.phase == MAIN:
            if kind is Place:
                act: Place = action  # type: ignore[assignment]  # checked: type(action) is Place
                c = act.card
                if c != WIND:
                    self._place_plainly(self.active, c, act.square)
                    self.history.append(act.text)  # after the action, as in State.apply: events carry its index
                    return act
            elif kind is Pass:
                if self._events is not None:
                    self._emit(EV_PASS, {"player": self.active})
                self._end_turn()  # ZETA-R13
                self.history.append("pass")
                return PASS
        self._apply(action)
        self.history.append(str(action))
        return action

    def _take_from_hand(self, seat: int, c: int) -> None:
        """A card of type ``c`` leaves ``seat``'s hand face up (to be placed)."""
        hand = self.hands[seat]
        hand[c] -= 1
        if not hand[c]:
            self.held[seat] &= ~(1 << c)
        self.hand_size[seat] -= 1
        if self.known_mask:
            self._forget(seat, c)

    def _place_plainly(self, seat: int, c: int, s: int) -> None:
        """A legal main-phase placement of a card that covers nothing (not the Wind Mage): ZETA-R18 to the turn's end.

        The only implementation of such a placement (both doors reach it): with a trigger source on
        the board, or a Fanfare that is not the last step before the full-board check, it runs the
        general resolution (``_place``, ``_advance``); otherwise R18 reduces to PUT, LINE, [FANFARE,]
        FULL and the next turn's start, done here in one pass.
        """
        self._take_from_hand(seat, c)
        t = self.turn
        bit = 1 << s
        tm = self.tmask
        fanfare = FANFARE_MASK >> c & 1
        if tm[MAGIC_CIRCLE] | tm[GREAT_CIRCLE] | tm[BURST] or (fanfare and self.fanfare_pos < 0):
            self._place(seat, c, s, True)
            self._advance()
            return
        # No trigger sources on the board: R18 reduces to PUT, LINE, [FANFARE,] FULL.
        occ = self.occ
        self.owner[s] = seat
        self.card[s] = c
        own = occ[seat] = occ[seat] | bit
        tm[c] |= bit
        marks = self.marks
        if (marks[0] | marks[1]) & bit:
            marks[0] &= ~bit
            marks[1] &= ~bit
        events = self._events
        if events is not None:
            events.append(CODE_PLACE | seat << SEAT_AT | c << PLACE_CARD_AT | s << PLACE_SQUARE_AT
                          | (len(self.history) + self.move_base) << MOVE_AT)
        if self.overline:
            for w in self.geo.windows_through[s]:
                if own & w == w:
                    self._win(seat, c, s)
                    return
        elif self._has_line(seat, s):
            self._win(seat, c, s)
            return
        if fanfare:
            fr = [seat, c, s, 1, self.fanfare_pos, -1, 0]
            frames = self.frames
            frames.append(fr)
            self._fanfare(fr)
            if self.result is not None or self.phase != MAIN:
                return  # a decision is pending: the frame resumes after it
            frames.pop()
        if occ[0] | occ[1] | self.blocked == self.geo.all:
            self._check_full()
            if self.result is not None:
                return
        # ZETA-R12: end of turn; the next turn's deck-out check and draw, inlined
        nxt = 1 - seat
        deck = self.decks[nxt]
        if not deck or self.apprentice[nxt] == t + 1:
            self._end_turn()
            return
        self.turn = t + 1
        self.active = self.decider = nxt
        d = deck.pop()
        hand = self.hands[nxt]
        hand[d] += 1
        self.held[nxt] |= 1 << d
        self.hand_size[nxt] += 1
        if events is not None:  # what ``_emit`` appends, inlined; the draw's parts are shared (read-only)
            move = (len(self.history) + self.move_base) << MOVE_AT
            events.append(CODE_TURN | nxt << SEAT_AT | (t + 1) << TURN_TURN_AT | move)
            events.append(CODE_DRAW | nxt << SEAT_AT | d << DRAW_CARD_AT | move)  # cause 0 (stored): the turn's draw

    def _win(self, seat: int, c: int, s: int) -> None:
        line: list[str] | None = None
        if self._events is not None:
            line = self._winning_squares(seat, s)
        self._finish((seat,), EndReason.FOUR_IN_A_ROW, "ZETA-R20",
                     f"{self.player_label(seat)} made four in a row with {CARDS[c].id}@{self.geo.names[s]}", line=line)

    def _winning_squares(self, seat: int, s: int) -> list[str]:
        """The squares of the seat's four (or more) in a row through ``s`` (ZETA-R20), for the game-over event."""
        own = self.occ[seat]
        run = 0
        if self.rules.overline_wins:
            for w in self.geo.windows_through[s]:
                if own & w == w:
                    run |= w
        else:
            for w, ext in self.geo.window_pairs:
                if own & w == w and not own & ext:
                    run |= w
        return [self.geo.names[q] for q in self.geo.squares(run)]

    # ------------------------------------------------------------------ seat memory (ZETA-I-CT6)
    def _forget(self, seat: int, c: int) -> None:
        """A card of type ``c`` left ``seat``'s hand in public: one remembered copy fewer, if any."""
        bit = 1 << (seat * NUM_TYPES + c)
        if self.known_mask & bit:
            counts = list(self.known[seat])
            counts[c] -= 1
            if not counts[c]:
                self.known_mask &= ~bit
            self._set_known(seat, tuple(counts))

    def _learn(self, seat: int, c: int) -> None:
        """A face-up card of type ``c`` went into ``seat``'s hand: everybody remembers it."""
        counts = list(self.known[seat])
        counts[c] += 1
        self.known_mask |= 1 << (seat * NUM_TYPES + c)
        self._set_known(seat, tuple(counts))

    def _forget_hand(self, seat: int) -> None:
        """The whole hand left (a mulligan): nothing is remembered about it any more."""
        for c in range(NUM_TYPES):
            self.known_mask &= ~(1 << (seat * NUM_TYPES + c))
        self._set_known(seat, NO_KNOWN)

    def _set_known(self, seat: int, counts: tuple[int, ...]) -> None:
        self.known = (counts, self.known[1]) if seat == 0 else (self.known[0], counts)

    def known_cards(self, seat: int) -> list[int]:
        """The cards every seat knows to be in ``seat``'s hand (ZETA-I-CT6), as type indexes, ascending."""
        out: list[int] = []
        for c, n in enumerate(self.known[seat]):
            if n:
                out.extend([c] * n)
        return out

    def _apply(self, action: Action) -> None:  # noqa: C901 - one branch per action kind
        kind = type(action)
        recording = self._events is not None
        if kind is Place:
            assert isinstance(action, Place)
            seat = self.decider
            c = action.card
            self._take_from_hand(seat, c)
            top = self.phase == MAIN  # a Mourning sub-placement is not top level (ZETA-R57)
            self.phase = MAIN
            self.pending = {}
            self._place(seat, c, action.square, top)
        elif kind is Pass:
            if recording:
                self._emit(EV_PASS, {"player": self.active})
            self._end_turn()  # ZETA-R13
            return
        elif kind is Target:
            assert isinstance(action, Target)
            source = self.pending["source"]
            self.phase = MAIN
            self.pending = {}
            self._destroy_board(1 << action.square, self.decider, source)
            if source == LIGHT:
                bit = 1 << action.square
                self.blocked |= bit  # ZETA-R50: blocked until the game ends; no longer an empty square
                self.marks[0] &= ~bit
                self.marks[1] &= ~bit
                if recording:
                    self._emit(EV_BLOCK, {"player": self.decider, "square": self.geo.names[action.square]})
        elif kind is Decline:
            if recording:
                self._emit(EV_DECLINE, {"player": self.decider, "source": CARDS[self.pending["source"]].id})
            self.phase = MAIN
            self.pending = {}
        elif kind is DestroyFromHand:
            assert isinstance(action, DestroyFromHand)
            seat = self.decider
            was = self.phase
            source = self.pending["source"]
            self.phase = MAIN
            self.pending = {}
            self._destroy_hand(seat, [action.card], cause=source)
            if was == CHOOSE_HAND:
                self._draw(seat, self.nums.do_over_draw, DO_OVER)  # ZETA-R38: then draw 1 (the set's number)
                if self.result is not None:
                    return
        elif kind is ChooseLine:
            assert isinstance(action, ChooseLine)
            self.phase = MAIN
            self.pending = {}
            self._destroy_line(action.kind, action.index, self.decider)
        elif kind is Mulligan:
            assert isinstance(action, Mulligan)
            seat = self.mulligan_left.pop(0)
            n = self.hand_size[seat]
            if action.take:  # ZETA-R11: shuffle the whole hand into the deck, draw as many
                self.decks[seat].extend(self.hand_cards(seat))
                self.hands[seat] = [0] * NUM_TYPES
                self.hand_size[seat] = 0
                self.held[seat] = 0
                self._forget_hand(seat)
                self.rng.shuffle(self.decks[seat])
                self._draw(seat, n, None)
            if recording:
                self._emit(EV_MULLIGAN, {"player": seat, "taken": action.take, "count": n},
                           {"cards": [CARDS[c].id for c in self.hand_cards(seat)]} if action.take else None, (seat,))
            if self.mulligan_left:
                self.decider = self.mulligan_left[0]
                self._emit_decision()
            else:
                self.phase = MAIN
                self._start_turn()
            return
        self._advance()

    # ------------------------------------------------------------------ turn structure (ZETA-R12)
    def _start_turn(self) -> None:
        seat = self.active
        self.decider = seat
        self.phase = MAIN
        events = self._events
        if events is not None:  # ``_emit``, inlined
            events.append(CODE_TURN | seat << SEAT_AT | self.turn << TURN_TURN_AT
                          | (len(self.history) + self.move_base) << MOVE_AT)
        if not self.decks[seat]:  # ZETA-R12 step 1 / R23: deck-out at turn start
            self._finish((1 - seat,), EndReason.DECK_OUT, "ZETA-R23",
                         f"{self.player_label(seat)}'s deck was empty at the start of turn {self.turn}")
            return
        if self.turn > 1 or self.rules.first_turn_draw:  # ZETA-R12 step 2, I9
            self._draw(seat, 1, TURN_DRAW)
        if self.apprentice[seat] == self.turn and self.hand_size[seat] >= self.nums.apprentice_hand:  # ZETA-I35 opponent_turn_start
            self.negate[seat] = self.turn
            if self._events is not None:
                self._emit_effect("negate_fanfares", seat, self.turn, APPRENTICE)

    def _end_turn(self) -> None:
        # ZETA-R12 step 4: turn-bound records simply stop matching the turn number (R34).
        self.turn += 1
        self.active = 1 - self.active
        self._start_turn()

    def _finish(self, winners: tuple[int, ...], reason: EndReason, rule: str, detail: str = "",
                scores: tuple[float, ...] | None = None, line: list[str] | None = None) -> None:
        self.result = Outcome(winners, str(reason), rule, scores, detail)
        self.phase = OVER
        self.frames = []
        self.pending = {}
        if self._events is not None:
            public: dict[str, Any] = self.result.to_json()
            public["line"] = line
            self._emit(EV_GAME_OVER, public)

    # ------------------------------------------------------------------ events
    def _emit_decision(self) -> None:
        """Tell everybody which decision is now pending, and whose (no secret: Fortune's cards were drawn)."""
        events = self._events
        if events is None:
            return
        p = self.pending
        if (not p or "lines" not in p) and len(self.history) < SHORT_MOVE_LIMIT:  # coded (the move fits its field)
            code = (CODE_DECISION | self.decider << SEAT_AT | int(self.phase) << DECISION_PHASE_AT
                    | (len(self.history) + self.move_base) << MOVE_AT)
            if p:
                code |= p["source"] << DECISION_SOURCE_AT | p["square"] << DECISION_SQUARE_AT | DECISION_PENDING
                if "mask" in p:
                    code |= DECISION_TARGETS | p["mask"] << DECISION_MASK_AT
            events.append(code)
            return
        public: dict[str, Any] = {"player": self.decider, "decision": PHASE_NAMES[self.phase]}
        if p:
            names = self.geo.names
            public["source"] = CARDS[p["source"]].id
            public["square"] = names[p["square"]]
            if "mask" in p:
                public["targets"] = [names[q] for q in self.geo.squares(p["mask"])]
            if "lines" in p:
                public["lines"] = [str(self._line_action(k, i)) for k, i in p["lines"]]
        self._emit(EV_DECISION, public)

    # Callers test ``self._events is not None`` first (hot paths pay one attribute test, not a call).
    def _emit_effect(self, effect: str, seat: int, turn: int, cause: int) -> None:
        code = EFFECT_CODE.get(effect, -1)
        if code >= 0 and turn < EFFECT_TURN_LIMIT:
            self._events.append(CODE_EFFECT | seat << SEAT_AT | code << EFFECT_EFFECT_AT  # type: ignore[union-attr]
                                | cause << EFFECT_CAUSE_AT | turn << EFFECT_TURN_AT
                                | (len(self.history) + self.move_base) << MOVE_AT)
        else:
            self._emit(EV_EFFECT, {"effect": effect, "player": seat, "turn": turn, "cause": CARDS[cause].id})

    def _emit_no_effect(self, seat: int, c: int, s: int) -> None:
        self._events.append(CODE_CARD_NOTICE | seat << SEAT_AT | c << NOTICE_CARD_AT  # type: ignore[union-attr]
                            | s << NOTICE_SQUARE_AT | (len(self.history) + self.move_base) << MOVE_AT)

    # ------------------------------------------------------------------ zones
    def _draw(self, seat: int, n: int, cause: int | None) -> list[int]:
        """ZETA-R28: draw n cards one by one; an empty deck skips the draw (R23) or loses (flag).

        ``cause`` is the card whose effect draws, ``TURN_DRAW`` for the turn's draw, or None for the
        deal and the mulligan (which emit their own events).
        """
        deck = self.decks[seat]
        hand = self.hands[seat]
        drawn: list[int] = []
        held = self.held[seat]
        events = self._events
        for _ in range(n):
            if not deck:
                if events is not None and cause is not None:
                    self._emit(EV_DRAW_SKIPPED, {"player": seat, "cause": cause_id(cause)})
                if self.rules.empty_deck_draw == "lose_immediately" and self.result is None:
                    self.held[seat] = held
                    self.hand_size[seat] += len(drawn)
                    self._finish((1 - seat,), EndReason.EMPTY_DECK_DRAW, "ZETA-R23",
                                 f"{self.player_label(seat)} had to draw from an empty deck")
                    return drawn
                break
            c = deck.pop()
            hand[c] += 1
            held |= 1 << c
            drawn.append(c)
            if events is not None and cause is not None:
                events.append(CODE_DRAW | seat << SEAT_AT | c << DRAW_CARD_AT | (cause + 1) << DRAW_CAUSE_AT
                              | (len(self.history) + self.move_base) << MOVE_AT)
        self.held[seat] = held
        self.hand_size[seat] += len(drawn)
        return drawn

    def _destroy_hand(self, seat: int, cards: list[int], disposal: str = "destroy", *, cause: int,
                      by: int | None = None, at_random: bool = False) -> None:
        """ZETA-R25: cards leave the hand for the Destroyed pile (or Removed area), revealed.

        ``cause`` is the card whose effect destroys, ``by`` its controller (default: the hand's owner).
        """
        hand = self.hands[seat]
        pile = self.destroyed[seat] if disposal == "destroy" else self.removed[seat]
        events = self._events
        for c in cards:
            hand[c] -= 1
            if not hand[c]:
                self.held[seat] &= ~(1 << c)
            pile.append(c)
            # ZETA-I-CT6: Fortune-Telling destroys one of the two cards it drew, never a remembered one.
            if self.known_mask and cause != FORTUNE:
                self._forget(seat, c)
            if events is not None:  # ``_emit`` of a destroy or remove event, coded
                events.append(CODE_DESTROY | seat << SEAT_AT | c << DESTROY_CARD_AT | cause << DESTROY_CAUSE_AT
                              | (seat if by is None else by) << DESTROY_BY_AT | (DESTROY_RANDOM if at_random else 0)
                              | (0 if disposal == "destroy" else DESTROY_REMOVED)
                              | (len(self.history) + self.move_base) << MOVE_AT)
        self.hand_size[seat] -= len(cards)

    def _destroy_random(self, seat: int, k: int, cause: int) -> None:
        """ZETA-R29: destroy min(k, hand) cards of ``seat``'s hand, every subset equally likely."""
        k = min(k, self.hand_size[seat])
        if k:
            self._destroy_hand(seat, sorted(self.rng.sample(self.hand_cards(seat), k)), cause=cause, by=1 - seat,
                               at_random=True)

    def _remove(self, s: int) -> int:
        """Take the card off square s (not a destruction); returns its type."""
        c = self.card[s]
        o = self.owner[s]
        bit = 1 << s
        self.occ[o] &= ~bit
        self.tmask[c] &= ~bit
        self.owner[s] = -1
        self.card[s] = -1
        return c

    def _destroy_board(self, mask: int, by: int, cause: int) -> None:
        """ZETA-R25: destroy the cards on these squares (callers exclude barriers, R26)."""
        events = self._events
        for s in self.geo.squares(mask):
            o = self.owner[s]
            c = self._remove(s)
            self.destroyed[o].append(c)
            self.destroyed_board[o] += 1
            bit = 1 << s
            self.marks[o] |= bit
            self.marks[1 - o] &= ~bit
            self.ever[o] |= bit
            if events is not None:  # ``_emit`` of a destroy event, coded
                events.append(CODE_DESTROY | o << SEAT_AT | c << DESTROY_CARD_AT | cause << DESTROY_CAUSE_AT
                              | by << DESTROY_BY_AT | (s + 1) << DESTROY_SQUARE_AT
                              | (len(self.history) + self.move_base) << MOVE_AT)

    def _destroyable(self, mask: int, seat: int, targeted: bool) -> int:
        """Occupied, non-barrier squares of ``mask`` (opponent's only under targeted_destroy_scope)."""
        mask &= (self.occ[0] | self.occ[1]) & ~self.tmask[BARRIER]  # ZETA-R26
        if targeted and self.rules.targeted_destroy_scope == "opponent_only":
            mask &= self.occ[1 - seat]  # ZETA-I25
        return mask

    # ------------------------------------------------------------------ placement resolution (ZETA-R18)
    def _place(self, seat: int, c: int, s: int, top: bool) -> None:
        bit = 1 << s
        covered = -1
        vacancy = 0
        if c == WIND:
            if self.occ[seat] & bit:  # step 0, COVER (ZETA-R45(c))
                covered = self._remove(s)
                self.set_aside = covered
            else:
                vacancy = 1
        self.owner[s] = seat  # step 1, PUT
        self.card[s] = c
        self.occ[seat] |= bit
        self.tmask[c] |= bit
        self.marks[0] &= ~bit
        self.marks[1] &= ~bit
        self.frames.append([seat, c, s, int(top), 0, covered, vacancy])
        if self._events is not None:
            if covered < 0 and not vacancy and top:
                self._events.append(CODE_PLACE | seat << SEAT_AT | c << PLACE_CARD_AT | s << PLACE_SQUARE_AT
                                    | (len(self.history) + self.move_base) << MOVE_AT)
            else:
                self._emit(EV_PLACE, {"player": seat, "card": CARDS[c].id, "square": self.geo.names[s],
                                      "covers": CARDS[covered].id if covered >= 0 else None,
                                      "vacancy": bool(vacancy), "extra": not top})

    def _decode_event(self, code: int) -> tuple[Any, ...]:
        """The row of a compact event (see :mod:`cardtable.games.zeta.codec`)."""
        return event_row(code, self.geo)

    def _advance(self) -> None:
        """Run the resolution stack until a decision is needed, the game ends, or the turn ends."""
        frames = self.frames
        steps = self.steps
        nsteps = len(steps)
        while frames:
            fr = frames[-1]
            pos = fr[F_POS]
            if pos == nsteps:
                frames.pop()
                continue
            fr[F_POS] = pos + 1
            step = steps[pos]
            if step == LINE:
                if self._has_line(fr[F_SEAT], fr[F_SQUARE]):  # ZETA-R21: wins before the Fanfare
                    self._win(fr[F_SEAT], fr[F_CARD], fr[F_SQUARE])
                    return
            elif step == FANFARE:
                if CARDS[fr[F_CARD]].fanfare:
                    self._fanfare(fr)
                    if self.result is not None or self.phase != MAIN:
                        return
            elif step == TRIGGERS:
                if self.tmask[MAGIC_CIRCLE] | self.tmask[GREAT_CIRCLE] | self.tmask[BURST]:
                    self._triggers(fr[F_SEAT], fr[F_SQUARE])
                    if self.result is not None:
                        return
            elif step == FULL_NOW or fr[F_TOP]:
                self._check_full()
                if self.result is not None:
                    return
        self._end_turn()

    def _has_line(self, seat: int, s: int) -> bool:
        """ZETA-R20: four (or, with overline_wins, more) of the seat's cards in a row."""
        own = self.occ[seat]
        if self.rules.overline_wins:
            for w in self.geo.windows_through[s]:
                if own & w == w:
                    return True
            return False
        # ZETA-I13 overline_wins=false: a maximal run of exactly four, anywhere on the board.
        for w, ext in self.geo.window_pairs:
            if own & w == w and not own & ext:
                return True
        return False

    def _check_full(self) -> None:
        """ZETA-R22: a full board ends the game by count (tie: draw or continue)."""
        occ0, occ1 = self.occ
        filled = occ0 | occ1
        if self.rules.blocked_counts_as_filled:
            filled |= self.blocked  # ZETA-I18
        if filled != self.geo.all:
            return
        c0, c1 = occ0.bit_count(), occ1.bit_count()
        scores = (float(c0), float(c1))
        if c0 != c1:
            winner = 0 if c0 > c1 else 1
            self._finish((winner,), EndReason.BOARD_FULL, "ZETA-R22",
                         f"the board is full, {max(c0, c1)} cards to {min(c0, c1)}",
                         scores)
        elif self.rules.board_full_tie == "draw":
            self._finish((), EndReason.BOARD_FULL_TIE, "ZETA-R22", f"the board is full with {c0} cards each", scores)

    def _triggers(self, seat: int, s: int) -> None:
        """ZETA-R19: placement triggers of continuous cards, (a) then (b) then (c)."""
        geo = self.geo
        tm = self.tmask
        if self.rules.circle_reach == "line":  # ZETA-I28
            orth, diag = geo.rook_line[s], geo.diag_line[s]
        else:
            orth, diag = geo.n4[s], geo.d4[s]
        own = self.occ[seat]
        circles = (tm[MAGIC_CIRCLE] & own & orth).bit_count()
        if circles:  # (a) ZETA-R40: one draw per qualifying circle
            self._draw(seat, circles * self.nums.circle_draw, MAGIC_CIRCLE)
            if self.result is not None:
                return
        greats = (tm[GREAT_CIRCLE] & own & diag).bit_count()
        for _ in range(greats):  # (b) ZETA-R46: min(3, hand) random cards of B, per circle
            self._destroy_random(1 - seat, self.nums.great_circle_destroy, GREAT_CIRCLE)
        bursts = tm[BURST] & diag
        if bursts:  # (c) ZETA-R56: all firing bursts at once, barriers survive
            blast = 0
            for x in geo.squares(bursts):
                blast |= (1 << x) | geo.n4[x]
            self._destroy_board(self._destroyable(blast, seat, targeted=False), seat, BURST)

    def _fanfare(self, fr: list[int]) -> None:
        """ZETA-R32: resolve the placed card's Fanfare (it may open a pending decision)."""
        seat = fr[F_SEAT]
        if self.negate[seat] == self.turn:  # ZETA-R35: the Fanfare has no effect
            events = self._events
            if events is not None:  # ``_emit`` of a negated event, coded
                events.append(CODE_CARD_NOTICE | seat << SEAT_AT | NOTICE_NEGATED | fr[F_CARD] << NOTICE_CARD_AT
                              | fr[F_SQUARE] << NOTICE_SQUARE_AT | (len(self.history) + self.move_base) << MOVE_AT)
            if fr[F_COVERED] >= 0:  # ZETA-R45(e): a negated Wind Mage's covered card
                covered = fr[F_COVERED]
                self.set_aside = -1
                removed = self.rules.wind_mage_negated == "remove_from_game"
                if removed:
                    self.removed[seat].append(covered)
                else:
                    self.destroyed[seat].append(covered)
                if events is not None:
                    self._emit(EV_REMOVE if removed else EV_DESTROY,
                               {"owner": seat, "card": CARDS[covered].id, "zone": "set_aside", "square": None,
                                "cause": CARDS[WIND].id, "by": seat, "random": False})
            return
        FANFARES[fr[F_CARD]](self, seat, fr[F_SQUARE], fr)

    # One method per Fanfare card (ZETA-R37..R60): (seat A, square of the card, its frame).
    def _mist(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R37: you draw 1, then your opponent draws 1 (the set's ``blessing_mist.draw``)."""
        n = self.nums.mist_draw
        self._draw(seat, n, MIST)
        if self.result is None:
            self._draw(1 - seat, n, MIST)

    def _do_over(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R38: destroy a card of your hand (your choice), then draw 1."""
        if self.hand_size[seat]:
            held = self.held[seat]
            if not held & (held - 1):  # one card type: nothing to choose (ZETA-I-CT4)
                self._destroy_hand(seat, [held.bit_length() - 1], cause=DO_OVER)
                self._draw(seat, self.nums.do_over_draw, DO_OVER)
            else:
                self._ask(CHOOSE_HAND, seat, {"source": DO_OVER, "square": s})
        elif self.rules.do_over_empty_hand == "draw":  # ZETA-I33
            self._draw(seat, self.nums.do_over_draw, DO_OVER)
        else:
            if self._events is not None:
                self._emit_no_effect(seat, DO_OVER, s)

    def _fortune(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R39: draw 2 (the set's ``fortune_telling.draw``), destroy one of those."""
        drawn = self._draw(seat, self.nums.fortune_draw, FORTUNE)
        if self.result is not None:
            return
        if len(drawn) >= 2:
            if min(drawn) == max(drawn):  # one card type: nothing to choose (ZETA-I-CT4)
                self._destroy_hand(seat, [drawn[0]], cause=FORTUNE)
            else:
                self._ask(CHOOSE_FORTUNE, seat, {"source": FORTUNE, "square": s, "drawn": sorted(drawn)})
        elif len(drawn) == 1 and self.rules.fortune_short_draw == "destroy":  # ZETA-I34
            self._destroy_hand(seat, drawn, cause=FORTUNE)

    def _boost(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R41: draw 1 (the set's ``magical_boost.draw``)."""
        self._draw(seat, self.nums.boost_draw, BOOST)

    def _fire(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R42: you may destroy a card directly above or below."""
        self._offer_target(seat, FIRE, s, self.geo.vertical[s])

    def _ice(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R43: you may destroy a card directly left or right."""
        self._offer_target(seat, ICE, s, self.geo.horizontal[s])

    def _apprentice(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R44: with 4+ cards in the opponent's hand, negate their next turn (ZETA-I35)."""
        other = 1 - seat
        if self.rules.apprentice_check_time == "on_resolution":
            if self.hand_size[other] >= self.nums.apprentice_hand:
                self.negate[other] = self.turn + 1
                if self._events is not None:
                    self._emit_effect("negate_fanfares", other, self.turn + 1, APPRENTICE)
            else:
                if self._events is not None:
                    self._emit_no_effect(seat, APPRENTICE, s)
        else:
            self.apprentice[other] = self.turn + 1
            if self._events is not None:
                self._emit_effect("apprentice_check", other, self.turn + 1, APPRENTICE)

    def _wind(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R45(d): the covered card returns to your hand (a vacancy placement: void)."""
        covered = fr[F_COVERED]
        if covered >= 0:
            self.hands[seat][covered] += 1
            self.held[seat] |= 1 << covered
            self.hand_size[seat] += 1
            self.set_aside = -1
            self._learn(seat, covered)  # ZETA-I-CT6: everybody saw which card went back
            if self._events is not None:
                self._emit(EV_RETURN, {"player": seat, "card": CARDS[covered].id, "square": self.geo.names[s]})
        else:
            if self._events is not None:
                self._emit_no_effect(seat, WIND, s)

    def _hexer(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R47: the opponent's Fanfares are void in their next turn."""
        self.negate[1 - seat] = self.turn + 1
        if self._events is not None:
            self._emit_effect("negate_fanfares", 1 - seat, self.turn + 1, HEXER)

    def _potion(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R48: draw 2, then destroy up to 2 random cards of the opponent's hand."""
        self._draw(seat, self.nums.potion_draw, POTION)
        if self.result is None:
            self._destroy_random(1 - seat, self.nums.potion_destroy, POTION)

    def _broom(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R49: cost cap max(board, 10) in your next turn."""
        self.broom[seat] = self.turn + 2
        if self._events is not None:
            self._emit_effect("broom", seat, self.turn + 2, BROOM)

    def _light(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R50: you may destroy a diagonal neighbour; its square is then blocked."""
        self._offer_target(seat, LIGHT, s, self.geo.d4[s])

    def _astrology(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R51: you may destroy a card on the central four squares."""
        self._offer_target(seat, ASTROLOGY, s, self.geo.center)

    def _thunder(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R52: with fewer own cards (not counting this one), destroy any card."""
        mine = self.occ[seat]
        if self.card[s] == THUNDER and self.owner[s] == seat:
            mine &= ~(1 << s)
        if mine.bit_count() < self.occ[1 - seat].bit_count():
            self._offer_target(seat, THUNDER, s, self.geo.all)
        else:
            if self._events is not None:
                self._emit_no_effect(seat, THUNDER, s)

    def _earth(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R53: the opponent may place only cost-0 cards in their next turn."""
        self.only_zero[1 - seat] = self.turn + 1
        if self._events is not None:
            self._emit_effect("only_cost_zero", 1 - seat, self.turn + 1, EARTH)

    def _blaze(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R55: you may destroy one of the 8 neighbours."""
        self._offer_target(seat, BLAZE, s, self.geo.n8[s])

    def _mourning(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R57: with 5+ destroyed cards, you may place a cost-0 card from hand (ZETA-I23, I47)."""
        if self.mourning_count(seat) >= self.nums.mourning_needs and self._can_mourn(seat):
            self._ask(CHOOSE_MOURN, seat, {"source": MOURNING, "square": s})
        else:
            if self._events is not None:
                self._emit_no_effect(seat, MOURNING, s)

    def mourning_count(self, seat: int) -> int:
        """The destroyed cards Mourning the Dead counts for ``seat`` (ZETA-R27, I23)."""
        if self.rules.mourning_count_scope == "all":
            return len(self.destroyed[seat])
        return self.destroyed_board[seat]

    def _dark(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R58: destroy every orthogonal neighbour, whoever owns it (barriers survive)."""
        mask = self._destroyable(self.geo.n4[s], seat, targeted=False)
        if mask:
            self._destroy_board(mask, seat, DARK)
        else:
            if self._events is not None:
                self._emit_no_effect(seat, DARK, s)

    def _arrow(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R59: destroy the cards of one full rank or file (your choice among several)."""
        lines = self._full_lines()
        if len(lines) == 1:
            self._destroy_line(*lines[0], seat)
        elif lines:
            self._ask(CHOOSE_LINE, seat, {"source": ARROW, "square": s, "lines": lines})
        else:
            if self._events is not None:
                self._emit_no_effect(seat, ARROW, s)

    def _ultimate(self, seat: int, s: int, fr: list[int]) -> None:
        """ZETA-R60: both hands go to their Destroyed piles (ZETA-I24)."""
        for p in (seat, 1 - seat):
            self._destroy_hand(p, self.hand_cards(p), self.rules.ultimate_zero_disposal, cause=ULTIMATE, by=seat)

    def _ask(self, phase: Phase, seat: int, pending: dict[str, Any]) -> None:
        self.phase = phase
        self.decider = seat
        self.pending = pending
        if self._events is not None:
            self._emit_decision()

    def _offer_target(self, seat: int, c: int, s: int, mask: int) -> None:
        """An optional single-target destroy (ZETA-R30): a decision if any target exists."""
        mask = self._destroyable(mask, seat, targeted=True)
        if mask:
            self._ask(CHOOSE_TARGET, seat, {"source": c, "square": s, "mask": mask})
        else:
            if self._events is not None:
                self._emit_no_effect(seat, c, s)

    def _full_lines(self) -> list[tuple[str, int]]:
        """ZETA-R59: ranks and files completely filled with cards (blocked squares per flag)."""
        filled = self.occ[0] | self.occ[1]
        if self.rules.single_arrow_blocked_filled:
            filled |= self.blocked
        geo = self.geo
        out = [("rank", r) for r, m in enumerate(geo.ranks) if filled & m == m]
        out += [("file", f) for f, m in enumerate(geo.files) if filled & m == m]
        return out

    def _destroy_line(self, kind: str, index: int, seat: int) -> None:
        mask = self.geo.ranks[index] if kind == "rank" else self.geo.files[index]
        if self._events is not None:
            self._emit(EV_LINE, {"player": seat, "line": str(self._line_action(kind, index))})
        self._destroy_board(self._destroyable(mask, 0, targeted=False), seat, ARROW)

    # ------------------------------------------------------------------ zones, views and JSON
    def zones(self) -> dict[str, list[str]]:
        """Every card by zone; tokens are ``SEAT:card_id``."""
        out: dict[str, list[str]] = {}
        for seat in (0, 1):
            out[f"deck:{seat}"] = [f"{seat}:{CARDS[c].id}" for c in self.decks[seat]]
            out[f"hand:{seat}"] = [f"{seat}:{CARDS[c].id}" for c in self.hand_cards(seat)]
            out[f"destroyed:{seat}"] = [f"{seat}:{CARDS[c].id}" for c in self.destroyed[seat]]
            out[f"removed:{seat}"] = [f"{seat}:{CARDS[c].id}" for c in self.removed[seat]]
        out["board"] = [f"{self.owner[s]}:{CARDS[self.card[s]].id}" for s in range(self.geo.size) if self.card[s] >= 0]
        # The set-aside card belongs to the placer of the frame that covered it (ZETA-R2, R45).
        out["set_aside"] = [f"{self.set_aside_owner()}:{CARDS[self.set_aside].id}"] if self.set_aside >= 0 else []
        return out

    def set_aside_owner(self) -> int:
        """The owner of the set-aside card: the seat whose Wind Mage covered it (always the active seat)."""
        for fr in self.frames:
            if fr[F_COVERED] >= 0:
                return fr[F_SEAT]
        return self.active

    def expected_cards(self) -> Counter[str]:
        """Both decklists, as ``SEAT:card_id`` tokens."""
        out: Counter[str] = Counter()
        for seat in (0, 1):
            out.update(f"{seat}:{CARDS[c].id}" for c in self.decklists[seat])
        return out

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may know (ZETA-R3) and remembers (ZETA-I-CT6); see ``position.view_json``."""
        return view_json(self, player)

    def _position_json(self) -> dict[str, Any]:
        return position_json(self)

    def clone(self) -> ZetaState:
        """An independent copy (RNG included; a recording state's clone gets its own event log)."""
        new = ZetaState.__new__(ZetaState)  # every field by name: a compiled state has no __dict__
        new.game = self.game
        new.rules = self.rules
        new.geo = self.geo
        new.table = self.table
        new.steps = self.steps
        new.nums = self.nums
        new.costs = self.costs
        new.afford = self.afford
        new.seed = self.seed
        new.setup = self.setup
        self._share_rng(new)
        new.history = list(self.history)
        new.decklists = self.decklists
        new.turn = self.turn
        new.first = self.first
        new.active = self.active
        new.phase = self.phase
        new.decider = self.decider
        new.owner = list(self.owner)
        new.card = list(self.card)
        new.occ = list(self.occ)
        new.tmask = list(self.tmask)
        new.blocked = self.blocked
        new.marks = list(self.marks)
        new.ever = list(self.ever)
        new.hands = [list(self.hands[0]), list(self.hands[1])]
        new.hand_size = list(self.hand_size)
        new.held = list(self.held)
        new.decks = [list(self.decks[0]), list(self.decks[1])]
        new.destroyed = [list(self.destroyed[0]), list(self.destroyed[1])]
        new.destroyed_board = list(self.destroyed_board)
        new.removed = [list(self.removed[0]), list(self.removed[1])]
        new.set_aside = self.set_aside
        new.negate = list(self.negate)
        new.only_zero = list(self.only_zero)
        new.broom = list(self.broom)
        new.apprentice = list(self.apprentice)
        new.frames = [list(f) for f in self.frames]
        new.pending = dict(self.pending)
        new.mulligan_left = list(self.mulligan_left)
        new.result = self.result
        new.known = self.known
        new.known_mask = self.known_mask
        new._events = None if self._events is None else list(self._events)
        new._shuffled = self._shuffled
        new.move_base = self.move_base
        new.gravity = self.gravity
        new.overline = self.overline
        new.fanfare_pos = self.fanfare_pos
        return new


def _no_fanfare(state: ZetaState, seat: int, s: int, fr: list[int]) -> None:
    """Cards without a Fanfare (ZETA-R33, R36)."""


FANFARES: tuple[Any, ...] = tuple({
    MIST: ZetaState._mist, DO_OVER: ZetaState._do_over, FORTUNE: ZetaState._fortune, BOOST: ZetaState._boost,
    FIRE: ZetaState._fire, ICE: ZetaState._ice, APPRENTICE: ZetaState._apprentice, WIND: ZetaState._wind,
    HEXER: ZetaState._hexer, POTION: ZetaState._potion, BROOM: ZetaState._broom, LIGHT: ZetaState._light,
    ASTROLOGY: ZetaState._astrology, THUNDER: ZetaState._thunder, EARTH: ZetaState._earth,
    BLAZE: ZetaState._blaze, MOURNING: ZetaState._mourning, DARK: ZetaState._dark, ARROW: ZetaState._arrow,
    ULTIMATE: ZetaState._ultimate,
}.get(c, _no_fanfare) for c in range(NUM_TYPES))
"""The Fanfare of each card type, by index (ZETA-R37..R60)."""


def square_label(geo: Geometry, s: int) -> str:
    """The notation of a square index (``a1`` .. ``f6``)."""
    return f"{FILES[s % geo.width]}{s // geo.width + 1}"
