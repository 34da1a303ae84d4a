"""The Oscilloscope state machine: legal actions, apply (the set's steps), outcome, and seat memory.

Sections in the order of the style guide: rule tables, state, legal actions, apply (the set's
steps), outcome. The vocabulary (kinds, levels, phases, steps) is :mod:`.vocab`, the layouts of the
compact event codes :mod:`.codec`; views and position JSON are written by :mod:`.view`, read and
sampled by :mod:`.position`; the events each step emits are described in :mod:`.events`. Rule ids
(OSC-R*, OSC-I*) mark where each rule is enforced; interpretations this engine adds are OSC-I-CT*,
documented in docs/games/oscilloscope.md.

Internally a card is its ``Card`` value (an int), a level its ``Level`` value, slots are 0-based
(time position ``p`` is slot ``p - 1``) and ``EMPTY`` (-1) marks an empty slot or filter position.
Hands and score piles are counts per card kind; decks are lists with the top card last.
Engine text names seats ``P{seat+1}``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from cardtable.core import Action, Outcome, State

from .actions import (
    ASSIGN,
    CAPTURE,
    DECLINE,
    DISCARD,
    DRAW_PULSE,
    DRAW_TRIGGER,
    EXCHANGE,
    KEEP_FILTER,
    KEEP_TRIGGER,
    PASS,
    PLACE,
    REFILL,
    REFILL_DECLARED,
    AssignTrain,
    Capture,
    ChooseFilters,
    Deck,
    Decline,
    Discard,
    Draw,
    Exchange,
    KeepFilter,
    KeepTrigger,
    Pass,
    PlaceTrigger,
    Refill,
)
from .cards import (
    ALL_CARDS,
    IS_CONDITIONAL,
    IS_PULSE_TYPE,
    IS_TRIGGER_CAPABLE,
    IS_WAVEFORM,
    IS_XX_TRIGGER,
    LEVEL_SYMBOLS,
    POSITIONS,
    TOKENS,
    TRAIN_LETTERS,
    TRIGGER_KINDS,
    Card,
)
from .cardset import composition
from .codec import (
    CAPTURE_CARD_BITS,
    CAPTURE_CARDS_AT,
    CAPTURE_CLEARS_AT,
    CAPTURE_CLEARS_LIMIT,
    CAPTURE_DISCARDED_AT,
    CAPTURE_DISCARDED_BITS,
    CAPTURE_DISCARDS_AT,
    CAPTURE_DISCARDS_LIMIT,
    CAPTURE_EMPTIED_AT,
    CAPTURE_KEPT_AT,
    CAPTURE_MOVE_LIMIT,
    CAPTURE_POSITION_AT,
    CARD_AT,
    CODE_CAPTURE,
    CODE_DISCARD,
    CODE_DRAW_PULSE,
    CODE_DRAW_TRIGGER,
    CODE_EARLY_END,
    CODE_NO_TRIGGER,
    CODE_NOISE,
    CODE_PLACE,
    CODE_REFILL,
    CODE_SHIFT,
    CODE_TURN,
    MOVE_AT,
    NOISE_COUNT_AT,
    NOISE_LIMIT_AT,
    NOISE_VALUE_LIMIT,
    OUT_AT,
    PLACE_DISCARDED_AT,
    PLACE_DISCARDED_BITS,
    PLACE_DISCARDS_AT,
    PLACE_DISCARDS_LIMIT,
    PLACE_RESULT_AT,
    PLACE_SLOT_AT,
    PLACE_STEP_AT,
    PLACE_STEP_LIMIT,
    PLACE_TRAIN_AT,
    PLAYER_AT,
    SET_AT,
    SET_LIMIT,
    SHIFT_CLOSES,
    SHIFT_TRAIN_BITS,
    SHIFT_TRAINS_AT,
    TRAIN_AT,
    event_row,
)
from .events import OscilloscopeEvent as E
from .rules import OscilloscopeRules
from .view import position_json, view_json
from .vocab import (
    ANY_ORIGIN,
    CLEAR,
    DECLARE,
    EMPTY,
    HIGH,
    HL,
    KIND_GROUP,
    LH,
    LOH,
    LOW,
    NO,
    NOISE,
    PLACE_RESULTS,
    PULSE_ORIGIN,
    STEP_CAPTURE_KEEP,
    STEP_POST_BEGIN,
    STEP_REFILL_BEGIN,
    STEP_REFILL_NEXT,
    STEP_SET_BEGIN,
    STEP_SET_END,
    STEP_SHIFT,
    STEP_TOPUP_NEXT,
    STEP_WAIT,
    T_BOTH,
    T_HL,
    T_LH,
    TRIGGER_ORIGIN,
    WILD,
    Phase,
    counts_to_tokens,
)

# Event kinds as module constants (an enum attribute costs a class lookup, and events are emitted in
# the hot path of every recording game).
EV_ASSIGN: Final = E.ASSIGN
EV_CAPTURE: Final = E.CAPTURE
EV_DEAL: Final = E.DEAL
EV_DECLINE: Final = E.DECLINE
EV_DISCARD: Final = E.DISCARD
EV_DRAW: Final = E.DRAW
EV_DRAW_SKIPPED: Final = E.DRAW_SKIPPED
EV_EARLY_END: Final = E.EARLY_END
EV_EXCHANGE: Final = E.EXCHANGE
EV_FILTERS: Final = E.FILTERS
EV_GAME_OVER: Final = E.GAME_OVER
EV_MAKE_ROOM: Final = E.MAKE_ROOM
EV_NOISE: Final = E.NOISE
EV_NO_TRIGGER: Final = E.NO_TRIGGER
EV_OFFER: Final = E.OFFER
EV_PASS: Final = E.PASS
EV_PLACE: Final = E.PLACE
EV_REFILL: Final = E.REFILL
EV_RESHUFFLE: Final = E.RESHUFFLE
EV_SCORE: Final = E.SCORE
EV_SHIFT: Final = E.SHIFT
EV_START: Final = E.START
EV_STOPPED: Final = E.STOPPED
EV_TRAIN: Final = E.TRAIN
EV_TURN: Final = E.TURN

# Event parts every recording game repeats, made once; an event's parts are read-only (core.events).

if TYPE_CHECKING:
    from .game import OscilloscopeGame

def _gap_closes(row: list[int]) -> bool:
    """A train with a gap closes it in the coming shift when a card follows the first gap."""
    return row.count(EMPTY) != POSITIONS - row.index(EMPTY)


# -- rule tables --------------------------------------------------------------------------------
class RuleTables:
    """Connection (D4) and satisfaction (OSC-R27) tables for one rules config, built once per game."""

    def __init__(self, rules: OscilloscopeRules) -> None:
        wild_flat = DECLARE if rules.flat_after_wild == "declare" else WILD  # OSC-I5
        noise = (WILD, WILD, WILD) if rules.noise_out_level == "wild" else (HIGH, LOW, WILD)  # OSC-I6
        falling = (LOW, NO, LOW)
        rising = (NO, HIGH, HIGH)
        never = (NO, NO, NO)
        edge_cards = rules.trigger_cards_connect  # OSC-I8 (OSC-I-CT6: T_BOTH and CLEAR never connect)
        conn = [falling, rising, (HIGH, LOW, wild_flat), noise, never,
                falling if edge_cards else never, rising if edge_cards else never, never]
        self.conn: tuple[tuple[int, ...], ...] = tuple(conn)
        """``conn[card][incoming level]``: the stored out-level, ``NO`` or ``DECLARE`` (D4)."""
        self.setup_conn: tuple[tuple[int, ...], ...] = tuple(
            tuple(WILD if out == DECLARE else out for out in row) for row in conn)
        """Setup builds trains with nobody to declare: a flat card after a wild level stays wild (OSC-I-CT5)."""
        self.connects: tuple[tuple[bool, ...], ...] = tuple(tuple(out != NO for out in row) for row in conn)
        self.connecting: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((card, conn[card][level]) for card in range(8) if conn[card][level] != NO) for level in range(3))
        """``connecting[incoming level]``: the (card, out-level or DECLARE) pairs that connect there (D4)."""
        # OSC-R27: what each trigger is satisfied by; a T_HL/T_LH card sitting in a train (only under
        # trigger_cards_connect) counts as the edge it draws (OSC-I-CT6).
        under_edge = {HL: (HL, T_HL), LH: (LH, T_LH)}
        sat = [[False] * 8 for _ in range(8)]
        for under in (HL, LH, LOH, NOISE, T_HL, T_LH):
            sat[CLEAR][under] = True  # OSC-I27: no condition
            sat[T_HL][under] = under in under_edge[HL] or under == NOISE
            sat[T_LH][under] = under in under_edge[LH] or under == NOISE
            sat[T_BOTH][under] = under in under_edge[HL] + under_edge[LH] or under == NOISE
            sat[LOH][under] = under in (LOH, NOISE)  # OSC-I29, OSC-I30
        self.sat: tuple[tuple[bool, ...], ...] = tuple(tuple(row) for row in sat)
        """``sat[trigger][card under it]`` (OSC-R27, OSC-I29, OSC-I30)."""


def ceil_half(value: int) -> int:
    """``ceil(1.5 * value)`` in exact integer arithmetic (OSC-R48, OSC-I47)."""
    return -((-3 * value) // 2)


# -- state --------------------------------------------------------------------------------------
class OscilloscopeState(State):
    """An Oscilloscope position: the screen of trains, triggers, hands, decks, piles and the phase."""

    def __new__(cls, *args: Any, **kwargs: Any) -> OscilloscopeState:
        """Allocate a state (``clone`` calls this alone, then sets every field itself)."""
        return object.__new__(cls)

    def __init__(self, game: OscilloscopeGame, seed: int, setup: dict[str, Any], rng: random.Random) -> None:
        self.game = game
        self.rules = game.rules
        self.tables = game.tables
        self.close_gaps = game.rules.close_gaps_on_capture
        self.seed = seed
        self.setup = setup
        self.rng = rng
        self.history = []
        self.players = int(setup["players"])
        self.solo = self.players == 1
        self.ntrains = 2 if self.solo else self.players  # OSC-R2
        self.cards: list[list[int]] = [[EMPTY] * POSITIONS for _ in range(self.ntrains)]
        self.levels: list[list[int]] = [[EMPTY] * POSITIONS for _ in range(self.ntrains)]
        self.triggers: list[list[int]] = []  # OSC-R7: no trigger at the start
        """Board triggers in placement order, each ``[train, slot, card, owner]`` (D6, OSC-R21)."""
        self.filters: list[int] = [EMPTY] * self.ntrains if self.solo else []
        self.stock = EMPTY
        self.offer: list[int] = []
        self.hands: list[list[int]] = [[0] * 8 for _ in range(self.players)]
        self.pulse: list[int] = []
        self.trigger_deck: list[int] = []
        self.discard: list[int] = []
        self.scores: list[list[int]] = [[0] * 8 for _ in range(self.players)]
        self.kept: list[int] = [0] * self.players
        """Trigger cards each player kept as score cards (OSC-R30, OSC-R57; for ``trigger_score_counts``)."""
        self.assigned: list[int] = [EMPTY] * self.players
        """Each player's train (OSC-R6); unused in solo, where the player refills both (OSC-R52)."""
        self.start_player = 0
        self.turn = 0
        self.phase = Phase.OVER
        self.decider = 0
        self.sets = 0
        self.stall = 0
        self.counted_noise = 0
        self.captured_this_set = False
        self.captured_last_set = False
        self.any_trigger_placed = False
        self.pulse_mixed = False
        """True once the pulse deck may hold trigger-deck cards (after a rebuild, OSC-R43)."""
        self.more_step = 1
        self.more_early_end = False
        self.cap_row = 0
        self.cap_by = 0
        self.refill_index = 0
        self.refill_discards: list[int] = [0] * self.players
        self.refill_deliberate: list[bool] = [False] * self.players
        self.refill_played: list[int] = [0] * self.players
        self.refill_stopped: list[bool] = [False] * self.ntrains
        self.refill_limit = 0
        self.topup_index = 0
        self.end_reason = ""
        self.end_rule = ""
        self.result: Outcome | None = None
        self._legal: list[Action] | None = None
        # Seat memory (OSC-I-CT14): what every seat saw of the hidden cards, kept as counts per kind.
        self.bottom_known = 0
        """The bottom ``bottom_known`` cards of the pulse deck (``pulse[:bottom_known]``) are known to every
        seat: they went under it face up while the trains were built (OSC-R3)."""
        self.pulse_source: list[int] = [0] * 8
        """The cards the rest of the pulse deck was built from (after the setup, or the discard pile of the
        last rebuild, OSC-R43), less the known bottom; public. Replaced, never changed in place."""
        self.trigger_source: list[int] = [0] * 8
        """The 40 trigger-deck cards less those turned face up from it (the solo offer and stocks); public.
        Replaced, never changed in place."""
        self.drawn_pulse: list[list[int]] = [[0] * 8 for _ in range(self.players)]
        """Each seat's own draws of unknown cards from the pulse deck since it was built: what that seat
        knows has left it (the deck holds exactly ``pulse_source`` less every seat's draws)."""
        self.drawn_trigger: list[list[int]] = [[0] * 8 for _ in range(self.players)]
        """Each seat's own draws from the trigger deck (it holds ``trigger_source`` less all of them)."""
        self.known: list[list[int]] = [[0] * 8 for _ in range(self.players)]
        """Cards every seat knows to be in each hand: a known bottom card drawn (counts per kind)."""
        self.known_count = 0
        """How many cards ``known`` holds in all (0 lets the hot path skip it)."""
        self.origin: list[list[int]] = [[0, 0, 0] for _ in range(self.players)]
        """Each hand's other cards by origin (``PULSE_ORIGIN``, ``TRIGGER_ORIGIN``, ``ANY_ORIGIN``), public."""
        self.setup_under: list[list[int]] = []
        """The cards each train's building put under the pulse deck (for the setup events only)."""

    # -- the contract's queries ---------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """The seat that decides next (None once the game is over)."""
        return None if self.phase is Phase.OVER else self.decider

    @property
    def num_players(self) -> int:
        """How many seats this game has (1 for the solo game)."""
        return self.players

    def outcome(self) -> Outcome | None:
        """The result once the game is over (OSC-R47 to OSC-R51, OSC-R61), else None."""
        return self.result

    def clone(self) -> OscilloscopeState:
        """An independent copy, RNG included."""
        new = OscilloscopeState.__new__(OscilloscopeState)  # every field by name: a compiled state has no __dict__
        new.game = self.game
        new.rules = self.rules
        new.tables = self.tables
        new.close_gaps = self.close_gaps
        new.seed = self.seed
        new.setup = self.setup
        self._share_rng(new)
        new.history = list(self.history)
        new.players = self.players
        new.solo = self.solo
        new.ntrains = self.ntrains
        new.cards = [row[:] for row in self.cards]
        new.levels = [row[:] for row in self.levels]
        new.triggers = [t[:] for t in self.triggers]
        new.filters = self.filters[:]
        new.stock = self.stock
        new.offer = self.offer[:]
        new.hands = [h[:] for h in self.hands]
        new.pulse = self.pulse[:]
        new.trigger_deck = self.trigger_deck[:]
        new.discard = self.discard[:]
        new.scores = [s[:] for s in self.scores]
        new.kept = self.kept[:]
        new.assigned = self.assigned[:]
        new.start_player = self.start_player
        new.turn = self.turn
        new.phase = self.phase
        new.decider = self.decider
        new.sets = self.sets
        new.stall = self.stall
        new.counted_noise = self.counted_noise
        new.captured_this_set = self.captured_this_set
        new.captured_last_set = self.captured_last_set
        new.any_trigger_placed = self.any_trigger_placed
        new.pulse_mixed = self.pulse_mixed
        new.more_step = self.more_step
        new.more_early_end = self.more_early_end
        new.cap_row = self.cap_row
        new.cap_by = self.cap_by
        new.refill_index = self.refill_index
        new.refill_discards = self.refill_discards[:]
        new.refill_deliberate = self.refill_deliberate[:]
        new.refill_played = self.refill_played[:]
        new.refill_stopped = self.refill_stopped[:]
        new.refill_limit = self.refill_limit
        new.topup_index = self.topup_index
        new.end_reason = self.end_reason
        new.end_rule = self.end_rule
        new.result = self.result
        new._legal = None
        new.bottom_known = self.bottom_known
        new.pulse_source = self.pulse_source
        new.trigger_source = self.trigger_source
        new.drawn_pulse = [d[:] for d in self.drawn_pulse]
        new.drawn_trigger = [d[:] for d in self.drawn_trigger]
        new.known = [k[:] for k in self.known]
        new.known_count = self.known_count
        new.origin = [o[:] for o in self.origin]
        new.setup_under = self.setup_under
        if self._events is not None:  # a silent state keeps the class default (no log)
            new._events = list(self._events)
        return new

    def zones(self) -> dict[str, list[str]]:
        """Every card by zone (D10): decks, discard, hands, trains, board triggers, score piles, solo zones."""
        out: dict[str, list[str]] = {
            "pulse_deck": [TOKENS[c] for c in reversed(self.pulse)],
            "trigger_deck": [TOKENS[c] for c in reversed(self.trigger_deck)],
            "discard": [TOKENS[c] for c in self.discard],
        }
        for c in range(self.ntrains):
            out[f"train:{TRAIN_LETTERS[c]}"] = [TOKENS[k] for k in self.cards[c] if k != EMPTY]
        out["triggers"] = [TOKENS[t[2]] for t in self.triggers]
        if self.solo:
            out["filters"] = [TOKENS[k] for k in self.filters if k != EMPTY]
            out["stock"] = [TOKENS[self.stock]] if self.stock != EMPTY else []
            out["offer"] = [TOKENS[k] for k in self.offer]
        for p in range(self.players):
            out[f"hand:{p}"] = counts_to_tokens(self.hands[p])
            out[f"score:{p}"] = counts_to_tokens(self.scores[p])
        return out

    def expected_cards(self) -> Counter[str]:
        """The 110 cards of §2.3 by token, in the card set's composition (OSC-I-CT15)."""
        return Counter(composition(self.rules.cards).totals) if self.rules.cards else Counter(ALL_CARDS)

    def summary(self) -> str:
        """One line: phase, decider, trains with triggers, hands, noise count and scores."""
        parts = [f"oscilloscope {'solo' if self.solo else f'{self.players}p'} set {self.sets + 1}",
                 f"phase {self.phase.value}" + ("" if self.phase is Phase.OVER else f" P{self.decider + 1}")]
        trig = {(t[0], t[1]): TOKENS[t[2]] for t in self.triggers}
        for c in range(self.ntrains):
            slots = []
            for s in range(POSITIONS):
                k = self.cards[c][s]
                text = "_" if k == EMPTY else TOKENS[k]
                if (c, s) in trig:
                    text += f"^{trig[(c, s)]}"
                slots.append(text)
            head = f"[{TOKENS[self.filters[c]] if self.filters[c] != EMPTY else '_'}]" if self.solo else ""
            parts.append(f"{TRAIN_LETTERS[c]}={head}{' '.join(slots)}")
        parts.append("hands " + " | ".join(" ".join(counts_to_tokens(h)) or "-" for h in self.hands))
        parts.append(f"noise {self.counted_noise}" if self.solo else f"noise {self.noise_towards_end()}")
        parts.append("scores " + " ".join(str(s) for s in self.scores_now()))
        return "; ".join(parts)

    # -- helpers over the screen ------------------------------------------------------------------
    def trains_of(self, player: int) -> list[int]:
        """The trains a player refills: both in solo, the assigned one otherwise (OSC-R6, OSC-R52)."""
        if self.solo:
            return [0, 1]
        return [self.assigned[player]] if self.assigned[player] != EMPTY else []

    def is_full(self, train: int) -> bool:
        """D5: all five slots occupied."""
        return EMPTY not in self.cards[train]

    def is_complete(self, train: int) -> bool:
        """D5 / OSC-R35: slot 5 occupied (five cards under ``close_gaps_on_capture``, OSC-I34)."""
        if self.close_gaps:
            return EMPTY not in self.cards[train]
        return self.cards[train][4] != EMPTY

    def reference_level(self, train: int) -> int:
        """D3 at the refill slot: the out-level of the train's last card, wild if it has none (OSC-I7)."""
        row = self.cards[train]
        for s in range(POSITIONS - 1, -1, -1):
            if row[s] != EMPTY:
                return self.levels[train][s]
        return WILD

    def refill_slot(self, train: int) -> int:
        """OSC-R35 (OSC-I36): slot 5, or the first slot after the last card under ``close_gaps_on_capture``."""
        if not self.rules.close_gaps_on_capture:
            return POSITIONS - 1
        row = self.cards[train]
        for s in range(POSITIONS - 1, -1, -1):
            if row[s] != EMPTY:
                return s + 1
        return 0

    def trigger_at(self, train: int, slot: int) -> list[int] | None:
        """The board trigger on a slot, if any."""
        for t in self.triggers:
            if t[0] == train and t[1] == slot:
                return t
        return None

    def can_draw_pulse(self) -> bool:
        """A pulse draw can find a card: the deck, or a discard pile to rebuild it from (OSC-R43, OSC-R44)."""
        return bool(self.pulse) or bool(self.discard)

    def hand_size(self, player: int) -> int:
        """Cards in a player's hand."""
        return sum(self.hands[player])

    def noise_towards_end(self) -> int:
        """Multiplayer: the noise that counts towards the end (OSC-R34, OSC-I49)."""
        if self.rules.mp_end_excludes_cleared:
            return self.counted_noise
        return sum(s[NOISE] for s in self.scores)

    # -- seat memory (OSC-I-CT14) --------------------------------------------------------------------
    def _from_hand(self, player: int, card: int) -> None:
        """A card leaves ``player``'s hand face up (placed, played or discarded): what every seat remembers
        of that hand follows (OSC-I-CT14).

        A known card of that kind goes first. Otherwise the card came from an origin that allows it; a Low or
        Hi from a hand holding cards of both decks could have come from either, so one of each becomes a card
        of unknown origin (the remaining one is the other).
        """
        self.hands[player][card] -= 1
        if self.known_count:
            known = self.known[player]
            if known[card]:
                known[card] -= 1
                self.known_count -= 1
                return
        origin = self.origin[player]
        group = KIND_GROUP[card]
        if group == 2:
            if origin[0] and origin[1]:
                origin[0] -= 1
                origin[1] -= 1
                origin[2] += 1
                return
            group = 0 if origin[0] else 1
        if origin[group]:
            origin[group] -= 1
        else:
            origin[2] -= 1

    # -- legal actions ----------------------------------------------------------------------------
    def legal_actions(self) -> Sequence[Action]:
        """Every legal action of the pending decision, in a fixed order; empty once over."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> list[Action]:
        phase = self.phase
        if phase is Phase.REFILL:
            return self._refill_options(self.decider)
        if phase is Phase.TRIGGER:
            out = self._placements(self.turn, stack_only=False)
            if self.rules.main_trigger_optional:  # OSC-I15
                out.append(PASS)
            return out
        if phase is Phase.POST:
            out = self._placements(self.turn, stack_only=False)
            out.append(PASS)  # OSC-R42: optional
            return out
        if phase is Phase.MORE:
            out = self._placements(self.turn, stack_only=True)
            out.append(PASS)
            return out
        if phase is Phase.TOPUP:
            return [DRAW_PULSE, DRAW_TRIGGER]
        if phase is Phase.KEEP:
            if self.solo:
                return [KEEP_FILTER[c] for c in self._keepable_filters()]
            return [KEEP_TRIGGER[k] for k in self._keepable_triggers()]
        if phase is Phase.CAPTURE:
            return [CAPTURE, DECLINE]
        if phase is Phase.EXCHANGE:
            return [EXCHANGE[c] for c in range(self.ntrains)]
        if phase is Phase.ASSIGN:
            taken = set(self.assigned)
            return [ASSIGN[c] for c in range(self.ntrains) if c not in taken]
        if phase is Phase.FILTERS:
            return [ChooseFilters(Card(a), Card(b)) for a, b in self._filter_choices()]
        return []

    def _illegality(self, action: Action) -> tuple[str, str] | None:
        """None if legal now, else (rule id, reason): the legal list decides, ``_diagnose`` explains."""
        if action in self.legal_actions():
            return None
        return self._diagnose(action)

    # Trigger placement (OSC-R12 to OSC-R21) ------------------------------------------------------
    def placement_problem(self, player: int, card: int, train: int, slot: int) -> tuple[str, str] | None:
        """Why ``player`` may not place ``card`` on (train, slot) now, or None if the rules allow it."""
        if not IS_TRIGGER_CAPABLE[card]:
            return ("OSC-R12", f"{TOKENS[card]} cannot be placed as a trigger (only LOH, CLEAR and the XX triggers)")
        if self.hands[player][card] == 0:
            return ("OSC-R12", f"{TOKENS[card]} is not in the player's hand")
        if train >= self.ntrains:
            return ("OSC-R12", f"there is no train {TRAIN_LETTERS[train]}")
        return self._target_problem(card, train, slot)

    def _target_problem(self, card: int, train: int, slot: int) -> tuple[str, str] | None:
        """OSC-R14 to OSC-R19 for a trigger-capable card in hand: may it go on (train, slot)?"""
        return self._slot_problem(train, slot) or self._card_problem(card, train, slot)

    def _slot_problem(self, train: int, slot: int) -> tuple[str, str] | None:
        """OSC-R14, the part that holds for every card: the slot is occupied and will not vanish."""
        rules = self.rules
        if self.cards[train][slot] == EMPTY:
            return ("OSC-R14", "the target slot is empty; a trigger must lie on a card (OSC-I25)")
        if rules.forbid_slot1_always and slot == 0:
            return ("OSC-R14", "no trigger at time position 1 (forbid_slot1_always, OSC-I24)")
        if slot == 0 and rules.trigger_anchor == "card" and EMPTY not in self.cards[train]:
            return ("OSC-R14", "the next shift discards this card (slot 1 of a full train, OSC-I24)")
        return None

    def _card_problem(self, card: int, train: int, slot: int) -> tuple[str, str] | None:
        """OSC-R15 to OSC-R19 for a slot that passes ``_slot_problem``: what the board allows this card."""
        triggers = self.triggers
        if not triggers:
            return None  # OSC-R15: empty board, any card, any allowed slot
        rules = self.rules
        anchor = triggers[0][1]
        here = self.trigger_at(train, slot)
        if card == CLEAR and rules.clear_mode == "addon":
            if slot != anchor:  # OSC-R19
                return ("OSC-R19", f"a clear must go at the anchor time position {anchor + 1}")
            if here is not None:
                return ("OSC-R19", "a clear may not lie on a trigger")
            return None
        if abs(slot - anchor) > rules.trigger_move_range:  # OSC-R16
            return ("OSC-R16", f"out of range of the anchor time position {anchor + 1}")
        if card == CLEAR:  # clear_mode = replacing (OSC-I26)
            return ("OSC-R19", "a clear may not lie on a trigger") if here is not None else None
        if card == LOH and slot == anchor and here is not None:  # OSC-R18 stacking needs a free slot
            if here[2] == LOH and rules.duplicate_cancel:
                return None  # OSC-R20: the pair cancels
            if IS_XX_TRIGGER[here[2]] and not rules.lowhi_keeps_edge_trigger:
                return None  # OSC-I22 variant: the edge trigger is discarded first, freeing the slot
            return ("OSC-R18", "a Low or Hi stacked at the anchor needs a slot with no trigger")
        return None  # OSC-R17: XX trigger in range, or LOH off the anchor, replaces the board

    def _placements(self, player: int, stack_only: bool) -> list[Action]:
        """Legal placements in card, train, slot order (OSC-R13 to OSC-R21).

        The checks are those of ``placement_problem``: the slot part once per slot, the card part per card.
        """
        hand = self.hands[player]
        out: list[Action] = []
        cards = [card for card in TRIGGER_KINDS if hand[card] and (not stack_only or card == LOH)]
        if not cards:
            return out
        triggers = self.triggers
        lo, hi = 0, POSITIONS - 1
        if triggers:
            anchor = triggers[0][1]
            reach = self.rules.trigger_move_range
            lo, hi = max(0, anchor - reach), min(POSITIONS - 1, anchor + reach)
            if stack_only:
                lo = hi = anchor
        slot_problem = self._slot_problem
        open_slots = [(train, slot) for train in range(self.ntrains) for slot in range(lo, hi + 1)
                      if slot_problem(train, slot) is None]
        if not triggers:  # OSC-R15: every card may go on every open slot
            for card in cards:
                table = PLACE[card]
                out.extend(table[train][slot] for train, slot in open_slots)
            return out
        card_problem = self._card_problem
        for card in cards:
            table = PLACE[card]
            for train, slot in open_slots:
                if card_problem(card, train, slot) is None:
                    out.append(table[train][slot])
        return out

    # Refill (OSC-R35 to OSC-R39) ---------------------------------------------------------------------
    def _refill_targets(self, player: int) -> list[int]:
        """Trains the player plays into now: incomplete ones, or (OSC-I41 variant) a complete one."""
        mine = [c for c in self.trains_of(player) if not self.refill_stopped[c]]
        targets = [c for c in mine if not self.is_complete(c)]
        return targets if targets else mine

    def _refill_options(self, player: int) -> list[Action]:
        """OSC-R37 / OSC-R62 (OSC-I60): connecting cards if any (must-connect), else a discard of any card.

        A Low or Hi is a pulse card here whichever deck it came from (OSC-I65).
        """
        hand = self.hands[player]
        placements: list[Action] = []
        connecting = self.tables.connecting
        for train in self._refill_targets(player):
            for card, out in connecting[self.reference_level(train)]:
                if hand[card]:
                    if out >= 0:
                        placements.append(REFILL[train][card])
                    else:  # DECLARE, OSC-I5 variant: declare the level
                        placements.extend(REFILL_DECLARED[train][card])
        discards: list[Action] = [DISCARD[card] for card in range(8) if hand[card]]
        if not placements:
            return discards  # nothing connects: discard a card of the player's choice
        if self.rules.refill_must_connect or self.refill_deliberate[player]:
            return placements  # OSC-I38: must connect (variant: one deliberate discard per step)
        return placements + discards

    # Capture (OSC-R30, OSC-R57) -----------------------------------------------------------------------
    def _keepable_triggers(self) -> list[int]:
        """Kinds of conditional trigger the capturer may keep (OSC-R30, OSC-I32, OSC-I-CT1)."""
        at_row = [t[2] for t in self.triggers if t[1] == self.cap_row]
        if not self.rules.single_trigger_scores and len(at_row) < 2:
            return []
        return sorted({k for k in at_row if IS_CONDITIONAL[k]})

    def _keepable_filters(self) -> list[int]:
        """Trains whose conditional filter the solo player may keep (OSC-R57, OSC-I-CT1)."""
        present = [c for c in range(self.ntrains) if self.filters[c] != EMPTY]
        if not self.rules.single_trigger_scores and len(present) < 2:
            return []
        return [c for c in present if IS_CONDITIONAL[self.filters[c]]]

    def _filter_choices(self) -> list[tuple[int, int]]:
        """OSC-R8: (filter of A, filter of B) pairs from the three offered cards, distinct by kind."""
        out: set[tuple[int, int]] = set()
        offer = self.offer
        for i, a in enumerate(offer):
            for j, b in enumerate(offer):
                if i != j:
                    out.add((a, b))
        return sorted(out)

    def _diagnose(self, action: Action) -> tuple[str, str]:
        """The rule an action breaks now (only called for actions that are not legal)."""
        phase = self.phase
        expected = {
            Phase.ASSIGN: "assign", Phase.FILTERS: "filters", Phase.TRIGGER: "place", Phase.MORE: "place or pass",
            Phase.POST: "place or pass", Phase.CAPTURE: "capture or decline", Phase.KEEP: "keep",
            Phase.REFILL: "refill or discard", Phase.TOPUP: "draw", Phase.EXCHANGE: "exchange",
        }.get(phase, "nothing")
        rule = {
            Phase.ASSIGN: "OSC-R6", Phase.FILTERS: "OSC-R8", Phase.TRIGGER: "OSC-R13", Phase.MORE: "OSC-R18",
            Phase.POST: "OSC-R42", Phase.CAPTURE: "OSC-R32", Phase.KEEP: "OSC-R30", Phase.REFILL: "OSC-R37",
            Phase.TOPUP: "OSC-R40", Phase.EXCHANGE: "OSC-R55",
        }.get(phase, "OSC-R9")
        player = self.decider
        if isinstance(action, PlaceTrigger) and phase in (Phase.TRIGGER, Phase.POST, Phase.MORE):
            problem = self.placement_problem(player, action.card, action.train, action.position - 1)
            if problem is not None:
                return problem
            if phase is Phase.MORE:
                return ("OSC-R18", f"only another Low or Hi at the anchor time position "
                                   f"{self.triggers[0][1] + 1 if self.triggers else '?'} may follow")
        if isinstance(action, Pass) and phase is Phase.TRIGGER:
            return ("OSC-R13", "the step-1 placement is compulsory while a legal placement exists (OSC-I15)")
        if isinstance(action, Refill | Discard) and phase is Phase.REFILL:
            return self._diagnose_refill(action, player)
        if isinstance(action, Draw) and phase is Phase.TOPUP:
            return ("OSC-R40", "that deck is empty")
        if isinstance(action, AssignTrain) and phase is Phase.ASSIGN:
            return ("OSC-R6", f"train {TRAIN_LETTERS[action.train]} does not exist or is taken")
        if isinstance(action, ChooseFilters) and phase is Phase.FILTERS:
            return ("OSC-R8", "the filters must be two of the three cards drawn: "
                              + " ".join(TOKENS[k] for k in self.offer))
        if isinstance(action, KeepTrigger | KeepFilter) and phase is Phase.KEEP:
            return ("OSC-R30", "only a conditional trigger of the captured position may be kept")
        if isinstance(action, Exchange) and phase is Phase.EXCHANGE:
            return ("OSC-R55", f"there is no train {TRAIN_LETTERS[action.train]}")
        return (rule, f"{self.phase.value} phase: expected {expected}")

    def _diagnose_refill(self, action: Refill | Discard, player: int) -> tuple[str, str]:
        hand = self.hands[player]
        if hand[action.card] == 0:
            return ("OSC-R37", f"{TOKENS[action.card]} is not in the player's hand")
        if isinstance(action, Discard):
            if self.refill_deliberate[player]:
                return ("OSC-R37", "a connecting card must be played (one deliberate discard per refill, OSC-I38)")
            return ("OSC-R37", "a card in hand connects, so it must be played (OSC-I38)")
        if action.train not in self._refill_targets(player):
            return ("OSC-R35", f"train {TRAIN_LETTERS[action.train]} is not one this player refills now")
        out = self.tables.conn[action.card][self.reference_level(action.train)]
        if out == NO:
            return ("OSC-R37", f"{TOKENS[action.card]} does not connect at level "
                               f"{LEVEL_SYMBOLS[self.reference_level(action.train)]} (D4)")
        if out == DECLARE:
            return ("OSC-I5", "a Low or Hi after a wild level needs a declared level H or L")
        return ("OSC-I5", "a level may only be declared for a Low or Hi after a wild level")

    # -- apply ------------------------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        """Carry out a legal decision, then run the set's automatic steps up to the next decision (OSC-I12)."""
        self._legal = None
        player = self.decider
        nxt: int = STEP_WAIT
        if isinstance(action, Refill):
            nxt = self._do_refill(player, action)
        elif isinstance(action, Discard):
            nxt = self._do_discard(player, action.card)
        elif isinstance(action, PlaceTrigger):
            nxt = self._do_place(player, action.card, action.train, action.position - 1)
        elif isinstance(action, Pass):
            nxt = self._do_pass()
        elif isinstance(action, Draw):
            self._draw_one(player, action.deck)
            nxt = STEP_TOPUP_NEXT
        elif isinstance(action, KeepTrigger):
            nxt = self._capture(action.card)
        elif isinstance(action, KeepFilter):
            nxt = self._capture(action.train)
        elif isinstance(action, Capture):
            nxt = STEP_CAPTURE_KEEP  # OSC-I33 variant
        elif isinstance(action, Decline):
            if self._events is not None:
                self._emit(EV_DECLINE, {"player": player})
            nxt = STEP_REFILL_BEGIN  # OSC-I33 variant: the triggers stay
        elif isinstance(action, Exchange):
            nxt = self._do_exchange(action.train)
        elif isinstance(action, AssignTrain):
            nxt = self._do_assign(player, action.train)
        elif isinstance(action, ChooseFilters):
            nxt = self._do_filters(action.a, action.b)
        self._run(nxt)

    def _run(self, step: int) -> None:
        """Run automatic steps (shift, capture, draws, set ends) until a decision or the end."""
        while step != STEP_WAIT:
            if step == STEP_SET_BEGIN:
                step = self._set_begin()
            elif step == STEP_SHIFT:
                step = self._shift_and_check()
            elif step == STEP_CAPTURE_KEEP:
                step = self._capture_keep()
            elif step == STEP_REFILL_BEGIN:
                step = self._refill_begin()
            elif step == STEP_REFILL_NEXT:
                step = self._refill_next()
            elif step == STEP_TOPUP_NEXT:
                step = self._topup_next()
            elif step == STEP_POST_BEGIN:
                step = self._post_begin()
            else:
                step = self._set_end()

    def start_play(self) -> None:
        """Begin the first set once setup choices are made (trains assigned, filters chosen)."""
        self._run(STEP_SET_BEGIN)

    def _wait(self, phase: Phase, player: int) -> int:
        self.phase = phase
        self.decider = player
        self._legal = None
        return STEP_WAIT

    def _end(self, reason: str, rule: str) -> int:
        """End the game now and score it (OSC-R50: by OSC-R34, R46, R60, R63 or R64; scored by R47-R51, R61)."""
        self.end_reason = reason
        self.end_rule = rule
        self.phase = Phase.OVER
        self._legal = None
        self.result = result = self._make_outcome()
        if self._events is not None:
            self._emit(EV_SCORE, {"scores": [self.score_detail(p) for p in range(self.players)]})
            self._emit(EV_GAME_OVER, result.to_json())
        return STEP_WAIT

    # Setup choices -----------------------------------------------------------------------------------
    def _do_assign(self, player: int, train: int) -> int:
        """OSC-R6: the decider takes a train; the next player in turn order chooses next."""
        self.assigned[player] = train
        if self._events is not None:
            self._emit(EV_ASSIGN, {"player": player, "train": TRAIN_LETTERS[train], "dealt": False})
        chosen = sum(1 for a in self.assigned if a != EMPTY)
        if chosen < self.players:
            return self._wait(Phase.ASSIGN, (self.start_player + chosen) % self.players)
        return STEP_SET_BEGIN

    def _do_filters(self, a: int, b: int) -> int:
        """OSC-R8: two offered cards become the filters of A and B, the third the face-up stock."""
        rest = self.offer[:]
        rest.remove(a)
        rest.remove(b)
        self.filters[0], self.filters[1] = a, b  # OSC-R58 (OSC-I56): the same kind twice is fine, no cancelling
        self.stock = rest[0]
        self.offer = []
        if self._events is not None:
            self._emit(EV_FILTERS, {"a": TOKENS[a], "b": TOKENS[b], "stock": TOKENS[self.stock]})
        return STEP_SET_BEGIN

    # The set (OSC-R9, OSC-R54) -------------------------------------------------------------------------
    def _set_begin(self) -> int:
        if self._events is not None:
            if self.sets < SET_LIMIT:
                self._events.append(CODE_TURN | self.turn << PLAYER_AT | (self.sets + 1) << SET_AT
                                    | (len(self.history) + self.move_base) << MOVE_AT)
            else:
                self._emit(EV_TURN, {"player": self.turn, "set": self.sets + 1})
        if self.solo:  # OSC-R54: exchange, shift, capture, end check, refill
            return self._solo_exchange_step()
        # OSC-R13: the placement is compulsory when one exists; OSC-R11 (OSC-I16): otherwise the set goes on.
        placements = self._placements(self.turn, stack_only=False)
        if placements:
            if self.rules.main_trigger_optional:  # OSC-I15
                placements.append(PASS)
            self._wait(Phase.TRIGGER, self.turn)
            self._legal = placements
            return STEP_WAIT
        if self._events is not None:
            self._events.append(CODE_NO_TRIGGER | self.turn << PLAYER_AT | (len(self.history) + self.move_base) << MOVE_AT)
        return STEP_SHIFT

    def _early_end_applies(self) -> bool:
        """OSC-R10: a trigger placed on an empty board in step 1 ends the turn (OSC-I17 flag)."""
        if self.triggers:
            return False
        return self.rules.first_trigger_early_end == "always" or not self.any_trigger_placed

    def _do_place(self, player: int, card: int, train: int, slot: int) -> int:
        phase = self.phase
        early = self.more_early_end if phase is Phase.MORE else (phase is Phase.TRIGGER and self._early_end_applies())
        step = self.more_step if phase is Phase.MORE else (1 if phase is Phase.TRIGGER else 5)
        if self._events is None:
            placed = self._place(player, card, train, slot)
        else:
            before, gone = len(self.triggers), len(self.discard)
            placed = self._place(player, card, train, slot)
            result = 0 if not before else 1 if not placed else 2 if len(self.triggers) == 1 else 3
            discarded = self.discard[gone:]
            if len(discarded) <= PLACE_DISCARDS_LIMIT and 0 <= step < PLACE_STEP_LIMIT:
                code = CODE_PLACE | player << PLAYER_AT | card << CARD_AT | train << PLACE_TRAIN_AT \
                    | len(discarded) << PLACE_DISCARDS_AT | slot << PLACE_SLOT_AT | step << PLACE_STEP_AT \
                    | result << PLACE_RESULT_AT | (len(self.history) + self.move_base) << MOVE_AT
                for i, k in enumerate(discarded):
                    code |= k << (PLACE_DISCARDED_AT + PLACE_DISCARDED_BITS * i)
                self._events.append(code)
            else:
                self._emit(EV_PLACE, {"player": player, "card": TOKENS[card],
                                     "at": f"{TRAIN_LETTERS[train]}{slot + 1}", "step": step,
                                     "result": PLACE_RESULTS[result],
                                     "discarded": [TOKENS[k] for k in self.discard[gone:]]})
        if (self.rules.lowhi_multi_per_set and card == LOH and placed and self.hands[player][LOH]
                and self._placements(player, stack_only=True)):  # OSC-I22 variant
            self.more_step = step
            self.more_early_end = early
            return self._wait(Phase.MORE, player)
        return self._after_trigger_set(step, early)

    def _do_pass(self) -> int:
        if self._events is not None:
            step = self.more_step if self.phase is Phase.MORE else 5 if self.phase is Phase.POST else 1
            self._emit(EV_PASS, {"player": self.decider, "step": step, "more": self.phase is Phase.MORE})
        if self.phase is Phase.MORE:
            return self._after_trigger_set(self.more_step, self.more_early_end)
        if self.phase is Phase.POST:
            return STEP_SET_END
        return STEP_SHIFT  # OSC-I15 variant: the step-1 placement was skipped

    def _after_trigger_set(self, step: int, early: bool) -> int:
        if step == 5:
            return STEP_SET_END
        if early:
            if self._events is not None:
                self._events.append(CODE_EARLY_END | self.turn << PLAYER_AT | (len(self.history) + self.move_base) << MOVE_AT)
            return STEP_SET_END  # OSC-R10: steps 2-5 are skipped, top-up included (OSC-I66)
        return STEP_SHIFT

    def _place(self, player: int, card: int, train: int, slot: int) -> bool:
        """Lay a trigger (OSC-R15 to OSC-R20, OSC-I20); True if the new card stays on the board.

        The board keeps the OSC-R21 invariants (OSC-I21) by construction: one position, one trigger
        per slot, at most one XX trigger.
        """
        self._from_hand(player, card)
        self.any_trigger_placed = True
        triggers = self.triggers
        new = [train, slot, card, player]
        if not triggers:  # OSC-R15
            triggers.append(new)
            return True
        rules = self.rules
        anchor = triggers[0][1]
        here = self.trigger_at(train, slot)
        if card == CLEAR and rules.clear_mode == "addon":  # OSC-R19: added, discards nothing
            triggers.append(new)
            return True
        if card == LOH and slot == anchor:  # OSC-R18: stacking at the anchor
            if here is not None and here[2] == LOH:  # OSC-R20: only this pair cancels
                triggers.remove(here)
                self.discard.append(LOH)
                self.discard.append(LOH)
                return False
            if not rules.lowhi_keeps_edge_trigger:  # OSC-I22 variant
                for t in [t for t in triggers if IS_XX_TRIGGER[t[2]]]:
                    triggers.remove(t)
                    self.discard.append(t[2])
            triggers.append(new)
            return True
        # OSC-R17: an XX trigger (or an LOH off the anchor, or a replacing clear) discards the board.
        duplicate = here is not None and here[2] == card and rules.duplicate_cancel and card != CLEAR
        for t in triggers:
            self.discard.append(t[2])
        triggers.clear()
        if duplicate:  # OSC-R20: the new card goes too, the board is empty
            self.discard.append(card)
            return False
        triggers.append(new)
        return True

    def _shift(self) -> None:
        """OSC-R22 to OSC-R26 (OSC-I35): every train scrolls left; a full train drops slot 1, others close gaps.

        Levels are moved, never recomputed (OSC-R26, OSC-I62).
        """
        ride = self.rules.trigger_anchor == "card"  # OSC-R25 (OSC-I18)
        for c in range(self.ntrains):
            row = self.cards[c]
            lv = self.levels[c]
            if EMPTY not in row:  # OSC-R23
                self.discard.append(row[0])
                new_slot = [-1, 0, 1, 2, 3]
                self.cards[c] = row[1:] + [EMPTY]
                self.levels[c] = lv[1:] + [EMPTY]
            else:  # OSC-R24: close every gap, keep the order
                new_slot = [-1] * POSITIONS
                cards: list[int] = []
                levels: list[int] = []
                for s in range(POSITIONS):
                    if row[s] != EMPTY:
                        new_slot[s] = len(cards)
                        cards.append(row[s])
                        levels.append(lv[s])
                pad = POSITIONS - len(cards)
                self.cards[c] = cards + [EMPTY] * pad
                self.levels[c] = levels + [EMPTY] * pad
            if ride and self.triggers:
                for t in [t for t in self.triggers if t[0] == c]:
                    moved = new_slot[t[1]]
                    if moved < 0:  # OSC-R23: the trigger goes with its card
                        self.triggers.remove(t)
                        self.discard.append(t[2])
                    else:
                        t[1] = moved

    def _shift_facts(self) -> dict[str, Any]:
        """What the coming shift does, for its event: the cards (and riding triggers) pushed off, the gaps closed."""
        dropped: list[dict[str, str | None]] = []
        closed: list[str] = []
        ride = self.rules.trigger_anchor == "card"
        for c in range(self.ntrains):
            row = self.cards[c]
            if EMPTY not in row:
                t = self.trigger_at(c, 0) if ride else None
                dropped.append({"train": TRAIN_LETTERS[c], "card": TOKENS[row[0]],
                                "trigger": TOKENS[t[2]] if t is not None else None})
            elif _gap_closes(row):
                closed.append(TRAIN_LETTERS[c])
        return {"dropped": dropped, "closed": closed}

    def _shift_code(self) -> int:
        """The coming shift's event as a compact code (``CODE_SHIFT``), or 0 if a trigger rides off with a card."""
        ride = self.rules.trigger_anchor == "card"
        code = CODE_SHIFT | (len(self.history) + self.move_base) << MOVE_AT
        for c in range(self.ntrains):
            row = self.cards[c]
            if EMPTY not in row:
                if ride and self.trigger_at(c, 0) is not None:
                    return 0
                code |= (1 + row[0]) << (SHIFT_TRAINS_AT + SHIFT_TRAIN_BITS * c)
            elif _gap_closes(row):
                code |= SHIFT_CLOSES << (SHIFT_TRAINS_AT + SHIFT_TRAIN_BITS * c)
        return code

    def _shift_and_check(self) -> int:
        """Shift, then test the capture condition (OSC-R28 / OSC-R56)."""
        if self._events is not None:
            code = self._shift_code()
            if code:
                self._events.append(code)
            else:
                self._emit(EV_SHIFT, self._shift_facts())
        self._shift()
        row = self._solo_capture_row() if self.solo else self._capture_row()
        if row < 0:  # OSC-R31: nothing captured, triggers stay
            return STEP_REFILL_BEGIN
        self.cap_row = row
        if self.solo:
            self.cap_by = 0
        elif self.rules.capture_by == "trigger_owner":  # OSC-I13 variant (OSC-I-CT3: the last placer)
            self.cap_by = self.triggers[-1][3]
        else:
            self.cap_by = self.turn  # OSC-R29
        if self.rules.capture_optional:  # OSC-I33 variant
            return self._wait(Phase.CAPTURE, self.cap_by)
        return STEP_CAPTURE_KEEP

    def _capture_row(self) -> int:
        """OSC-R28: the time position captured now, or -1 (all triggers at one position, all satisfied, OSC-I31)."""
        triggers = self.triggers
        if not triggers:
            return -1
        row = triggers[0][1]
        sat = self.tables.sat
        conditional = False
        for t in triggers:
            if t[1] != row:  # OSC-I61
                return -1
            under = self.cards[t[0]][row]
            if under == EMPTY or not sat[t[2]][under]:  # OSC-R27
                return -1
            conditional = conditional or t[2] != CLEAR
        if not conditional and not self.rules.clear_alone_captures:  # OSC-I27 variant
            return -1
        return row

    def _solo_capture_row(self) -> int:
        """OSC-R56 (OSC-I54): every present filter satisfied by slot 1 of its own train; returns 0 or -1."""
        sat = self.tables.sat
        present = False
        conditional = False
        for c in range(self.ntrains):
            f = self.filters[c]
            if f == EMPTY:
                continue
            present = True
            under = self.cards[c][0]
            if under == EMPTY or not sat[f][under]:
                return -1
            conditional = conditional or f != CLEAR
        if not present or (not conditional and not self.rules.clear_alone_captures):
            return -1
        return 0

    def _capture_keep(self) -> int:
        """OSC-R30 / OSC-R57: ask which trigger to keep when there is a choice, else capture at once."""
        options = self._keepable_filters() if self.solo else self._keepable_triggers()
        if len(options) > 1:
            return self._wait(Phase.KEEP, self.cap_by)
        return self._capture(options[0] if options else -1)

    def _capture_code(self, player: int, row: int, cards: int, kept: int, clears: int, emptied: int,
                      discarded: list[int]) -> int:
        """A capture's event as a compact code (``CODE_CAPTURE``), or -1 if it needs a row.

        ``cards`` holds the captured cards as the code does, ``kept`` is the kept card or -1, ``emptied``
        the mask of the trains whose filters left.
        """
        move = len(self.history) + self.move_base
        if move >= CAPTURE_MOVE_LIMIT or clears > CAPTURE_CLEARS_LIMIT or len(discarded) > CAPTURE_DISCARDS_LIMIT:
            return -1
        tail = len(discarded)
        for i, k in enumerate(discarded):
            tail |= k << (CAPTURE_DISCARDED_AT + CAPTURE_DISCARDED_BITS * i)
        return (CODE_CAPTURE | player << PLAYER_AT | (row + 1) << CAPTURE_POSITION_AT | (kept + 1) << CAPTURE_KEPT_AT
                | clears << CAPTURE_CLEARS_AT | emptied << CAPTURE_EMPTIED_AT | move << MOVE_AT
                | cards << CAPTURE_CARDS_AT | tail << CAPTURE_DISCARDS_AT)

    def _capture(self, keep: int) -> int:
        """OSC-R29 to OSC-R34 and OSC-R56 to OSC-R60: take the position, settle the triggers, check the end.

        ``keep`` is the kind of trigger kept (multiplayer) or the train of the filter kept (solo),
        -1 for none.
        """
        player = self.cap_by
        row = self.cap_row
        pile = self.scores[player]
        recording = self._events is not None
        if recording:
            taken = [{"train": TRAIN_LETTERS[c], "card": TOKENS[self.cards[c][row]]}
                     for c in range(self.ntrains) if self.cards[c][row] != EMPTY]
            taken_code = 0
            for c in range(self.ntrains):
                if self.cards[c][row] != EMPTY:
                    taken_code |= (1 + self.cards[c][row]) << (CAPTURE_CARD_BITS * c)
            kept_index = -1 if keep < 0 else self.filters[keep] if self.solo else keep
            gone, before, clears_before = len(self.discard), self._noise_count(), pile[CLEAR]
            filters_before = self.filters[:]
            kept_card = None if keep < 0 else TOKENS[self.filters[keep] if self.solo else keep]
        noise = 0
        for c in range(self.ntrains):  # OSC-R29 / OSC-R56: one card from every train that has one
            k = self.cards[c][row]
            if k != EMPTY:
                pile[k] += 1
                noise += k == NOISE
                self.cards[c][row] = EMPTY
                self.levels[c][row] = EMPTY
        clears = 0
        if self.solo:
            for c in range(self.ntrains):  # OSC-R57: clear filters leave; the others stay
                if self.filters[c] == CLEAR:
                    clears += 1
                    if noise:
                        pile[CLEAR] += 1
                    else:
                        self.discard.append(CLEAR)
                    self.filters[c] = EMPTY
            if keep >= 0:
                pile[self.filters[keep]] += 1
                self.kept[player] += 1
                self.filters[keep] = EMPTY
            if self.rules.solo_clear_covers == "one":  # OSC-R59 (OSC-I57)
                self.counted_noise += max(0, noise - clears)
            else:
                self.counted_noise += 0 if clears else noise
        else:
            kept = False
            for t in self.triggers:  # OSC-R30
                k = t[2]
                if k == CLEAR:
                    clears += 1
                    if noise:
                        pile[CLEAR] += 1
                    else:
                        self.discard.append(CLEAR)
                elif k == keep and not kept:
                    kept = True
                    pile[k] += 1
                    self.kept[player] += 1
                else:
                    self.discard.append(k)
            self.triggers.clear()
            if self.rules.mp_end_excludes_cleared:  # OSC-I49 variant
                self.counted_noise += max(0, noise - clears)
            else:
                self.counted_noise += noise
        self.captured_this_set = True
        if recording:
            emptied = [TRAIN_LETTERS[c] for c in range(len(self.filters))
                       if filters_before[c] != EMPTY and self.filters[c] == EMPTY]
            emptied_mask = 0
            for c in range(len(self.filters)):
                if filters_before[c] != EMPTY and self.filters[c] == EMPTY:
                    emptied_mask |= 1 << c
            code = -1 if keep >= 0 and kept_index == EMPTY else \
                self._capture_code(player, row, taken_code, kept_index, pile[CLEAR] - clears_before, emptied_mask,
                                   self.discard[gone:])
            events = self._events
            if code >= 0 and events is not None:
                events.append(code)
            else:
                self._emit(EV_CAPTURE, {"player": player, "position": row + 1, "cards": taken, "kept": kept_card,
                                       "clears": ["CLEAR"] * (pile[CLEAR] - clears_before),
                                       "discarded": [TOKENS[k] for k in self.discard[gone:]], "emptied": emptied})
            after = self._noise_count()
            if after != before:
                limit = 3 if self.solo else self.rules.mp_noise_limit
                events = self._events
                if events is not None and 0 <= after < NOISE_VALUE_LIMIT and 0 <= limit < NOISE_VALUE_LIMIT:
                    events.append(CODE_NOISE | after << NOISE_COUNT_AT | limit << NOISE_LIMIT_AT
                                  | (len(self.history) + self.move_base) << MOVE_AT)
                else:
                    self._emit(EV_NOISE, {"count": after, "limit": limit})
        # OSC-R33 (OSC-I34): captured slots stay empty until the next shift closes them, unless:
        if self.rules.close_gaps_on_capture:  # OSC-I34 variant
            self._close_gaps()
        if self.solo:
            if self.counted_noise >= 3:  # OSC-R60 (OSC-I59: this capture still counts)
                return self._end("third counted noise captured", "OSC-R60")
        elif self.noise_towards_end() >= self.rules.mp_noise_limit:  # OSC-R34
            return self._end(f"{self.rules.mp_noise_limit} noise captured", "OSC-R34")
        return STEP_REFILL_BEGIN

    def _noise_count(self) -> int:
        """The captured noise that counts towards the end: solo OSC-R59, multiplayer OSC-R34."""
        return self.counted_noise if self.solo else self.noise_towards_end()

    def _close_gaps(self) -> None:
        for c in range(self.ntrains):
            row = self.cards[c]
            if EMPTY in row:
                keep = [s for s in range(POSITIONS) if row[s] != EMPTY]
                pad = [EMPTY] * (POSITIONS - len(keep))
                self.cards[c] = [row[s] for s in keep] + pad
                self.levels[c] = [self.levels[c][s] for s in keep] + pad

    # Solo exchange (OSC-R55, OSC-R63) ------------------------------------------------------------------
    def _solo_exchange_step(self) -> int:
        if self.captured_last_set and self.stock != EMPTY:
            empty = [c for c in range(self.ntrains) if self.filters[c] == EMPTY]
            if len(empty) == 1:  # OSC-I55: the stock fills the empty position
                return self._do_exchange(empty[0])
            return self._wait(Phase.EXCHANGE, 0)  # both empty, or none: the player chooses
        return self._after_exchange()

    def _do_exchange(self, train: int) -> int:
        """OSC-R55: the stock goes to this filter position (its filter, if any, is discarded)."""
        replaced = self.filters[train]
        if replaced != EMPTY:
            self.discard.append(replaced)
        self.filters[train] = card = self.stock
        self.stock = self.trigger_deck.pop() if self.trigger_deck else EMPTY  # OSC-R45: no new stock
        if self.stock != EMPTY:  # turned face up: every seat now knows it is no longer in the deck
            source = self.trigger_source[:]
            source[self.stock] -= 1
            self.trigger_source = source
        if self._events is not None:
            self._emit(EV_EXCHANGE, {"train": TRAIN_LETTERS[train], "card": TOKENS[card],
                                    "replaced": TOKENS[replaced] if replaced != EMPTY else None,
                                    "stock": TOKENS[self.stock] if self.stock != EMPTY else None})
        return self._after_exchange()

    def _after_exchange(self) -> int:
        if all(f == EMPTY for f in self.filters):  # OSC-R63
            return self._end("no filter left, so nothing can be captured again", "OSC-R63")
        return STEP_SHIFT

    # Refill (OSC-R35 to OSC-R39, OSC-R46) ---------------------------------------------------------------
    def _refill_begin(self) -> int:
        n = self.players
        self.refill_discards = [0] * n
        self.refill_deliberate = [False] * n
        self.refill_played = [0] * n
        self.refill_stopped = [False] * self.ntrains
        # OSC-R46 backstop: the cards in the pulse deck, the discard pile and all hands now.
        self.refill_limit = len(self.pulse) + len(self.discard) + sum(sum(h) for h in self.hands)
        self.refill_index = n if self.rules.refill_order == "interleaved" else 0
        return STEP_REFILL_NEXT

    def _needs_refill(self, train: int) -> bool:
        """An incomplete train not left out of this refill (OSC-R36; ``is_complete`` inlined)."""
        if self.refill_stopped[train]:
            return False
        row = self.cards[train]
        return EMPTY in row if self.close_gaps else row[4] == EMPTY

    def _must_play(self, player: int) -> bool:
        """Whether the player plays (again) in this refill step (OSC-R36; OSC-I41 variant)."""
        mine = self.trains_of(player)
        needs = self._needs_refill
        for c in mine:
            if needs(c):
                return True
        return (self.rules.refill_all_players and self.refill_played[player] == 0
                and any(not self.refill_stopped[c] for c in mine))

    def _refill_next(self) -> int:
        """Find the next player to play in the refill (OSC-R36), checking OSC-R46 before each play."""
        n = self.players
        interleaved = self.rules.refill_order == "interleaved"
        while True:
            if self.refill_index >= n:
                if not interleaved or not self._any_needs_refill():
                    self.topup_index = 0
                    return STEP_TOPUP_NEXT
                self.refill_index = 0  # a new pass (OSC-I37)
                self.refill_played = [0] * n
            player = (self.turn + self.refill_index) % n
            if not self._must_play(player):
                self.refill_index += 1
                continue
            if self._exhausted(player):
                if self.phase is Phase.OVER:
                    return STEP_WAIT
                continue  # exhaustion_ends_game = false: its trains were left out; look again
            if self.hand_size(player) == 0:
                if not self.can_draw_pulse():  # only a complete train can get here (OSC-I41 variant)
                    self.refill_played[player] = 1
                    self.refill_index += 1
                    continue
                self._draw_pulse(player)  # OSC-R37: an empty hand draws before playing
            return self._wait(Phase.REFILL, player)

    def _any_needs_refill(self) -> bool:
        needs = self._needs_refill
        for c in range(self.ntrains):
            if needs(c):
                return True
        return False

    def _exhausted(self, player: int) -> bool:
        """OSC-R46: True if the player's incomplete trains cannot be completed (the game ends or they stop)."""
        trains = [c for c in self.trains_of(player) if self._needs_refill(c)]
        if not trains:
            return False
        hand = self.hands[player]
        if (self.hand_size(player) == 0 and not self.can_draw_pulse()) or \
                self.refill_discards[player] > self.refill_limit:
            failing = trains
        else:
            connecting = self.tables.connecting
            pulse, discard = self.pulse, self.discard
            failing = []
            for c in trains:
                kinds = connecting[self.reference_level(c)]
                for k, _ in kinds:
                    if hand[k]:
                        break
                else:
                    if not any(k in pulse or k in discard for k, _ in kinds):
                        failing.append(c)
        if not failing:
            return False
        if self.rules.exhaustion_ends_game:
            self._end(f"train {TRAIN_LETTERS[failing[0]]} can no longer be completed", "OSC-R46")
            return True
        for c in failing:  # OSC-I44 variant: left incomplete for this set
            self.refill_stopped[c] = True
            if self._events is not None:
                self._emit(EV_STOPPED, {"train": TRAIN_LETTERS[c]})
        return True

    def _after_refill_play(self, player: int) -> int:
        self.refill_played[player] += 1
        if self.rules.refill_draw == "one":  # OSC-R38 (OSC-I39)
            self._draw_pulse(player)
        else:
            while self.hand_size(player) < 3 and self._draw_pulse(player):
                pass
        if self.rules.refill_order == "interleaved":
            self.refill_index += 1
        return STEP_REFILL_NEXT

    def _do_refill(self, player: int, action: Refill) -> int:
        train, card = action.train, action.card
        self._from_hand(player, card)
        if self.is_complete(train):  # OSC-R39 (OSC-I41 variant, OSC-I-CT4)
            self._make_room(train)
        ref = self.reference_level(train)
        out = self.tables.conn[card][ref]
        if out == DECLARE:
            assert action.level is not None
            out = int(action.level)
        slot = self.refill_slot(train)
        self.cards[train][slot] = card
        self.levels[train][slot] = out
        if self._events is not None:
            if 0 <= out < 3:
                self._events.append(CODE_REFILL | player << PLAYER_AT | card << CARD_AT | train << TRAIN_AT
                                    | out << OUT_AT | (len(self.history) + self.move_base) << MOVE_AT)
            else:
                self._emit(EV_REFILL, {"player": player, "train": TRAIN_LETTERS[train], "card": TOKENS[card],
                                      "out": LEVEL_SYMBOLS[out]})
        return self._after_refill_play(player)

    def _make_room(self, train: int) -> None:
        """OSC-R39: a full train drops slot 1 (with its trigger); a complete one with holes closes them."""
        if self.is_full(train):
            row = self.cards[train]
            if self._events is not None:
                t = self.trigger_at(train, 0) if self.rules.trigger_anchor == "card" else None
                self._emit(EV_MAKE_ROOM, {"train": TRAIN_LETTERS[train], "card": TOKENS[row[0]],
                                         "trigger": TOKENS[t[2]] if t is not None else None})
            self.discard.append(row[0])
            self.cards[train] = row[1:] + [EMPTY]
            self.levels[train] = self.levels[train][1:] + [EMPTY]
            if self.rules.trigger_anchor == "card":
                for t in [t for t in self.triggers if t[0] == train]:
                    if t[1] == 0:
                        self.triggers.remove(t)
                        self.discard.append(t[2])
                    else:
                        t[1] -= 1
            return
        row = self.cards[train]
        keep = [s for s in range(POSITIONS) if row[s] != EMPTY]
        moved = {s: i for i, s in enumerate(keep)}
        pad = [EMPTY] * (POSITIONS - len(keep))
        self.cards[train] = [row[s] for s in keep] + pad
        self.levels[train] = [self.levels[train][s] for s in keep] + pad
        if self.rules.trigger_anchor == "card":
            for t in self.triggers:
                if t[0] == train:
                    t[1] = moved[t[1]]

    def _holds_connecting(self, player: int) -> bool:
        """Whether a card in hand connects at one of the player's refill targets (D4)."""
        hand = self.hands[player]
        connecting = self.tables.connecting
        return any(hand[k] for c in self._refill_targets(player) for k, _ in connecting[self.reference_level(c)])

    def _do_discard(self, player: int, card: int) -> int:
        """OSC-R37: a card that does not connect (or a deliberate discard, OSC-I38 variant) is discarded."""
        deliberate = self._holds_connecting(player)
        self._from_hand(player, card)
        self.discard.append(card)
        if self._events is not None:
            self._events.append(CODE_DISCARD | player << PLAYER_AT | card << CARD_AT | (len(self.history) + self.move_base) << MOVE_AT)
        self.refill_discards[player] += 1
        if deliberate:
            self.refill_deliberate[player] = True
        return self._after_refill_play(player)

    # Draws (OSC-R38, OSC-R40, OSC-R43 to OSC-R45) ------------------------------------------------------
    def _draw_pulse(self, player: int) -> bool:
        """Draw the top pulse card, rebuilding the deck from the discard pile if needed; False if none."""
        pulse = self.pulse
        if not pulse:
            if not self.discard:  # OSC-R44: the draw is skipped
                if self._events is not None:
                    self._emit(EV_DRAW_SKIPPED, {"player": player})
                return False
            self._rebuild()
            pulse = self.pulse
        card = pulse.pop()
        self.hands[player][card] += 1
        if len(pulse) < self.bottom_known:  # everybody saw it go under the deck (OSC-R3, OSC-I-CT14)
            self.bottom_known -= 1
            self.known[player][card] += 1
            self.known_count += 1
            if self._events is not None:
                self._emit(EV_DRAW, {"player": player, "deck": "pulse", "card": TOKENS[card], "known": True})
        else:
            self.drawn_pulse[player][card] += 1
            self.origin[player][ANY_ORIGIN if self.pulse_mixed else PULSE_ORIGIN] += 1
            if self._events is not None:
                self._events.append(CODE_DRAW_PULSE | player << PLAYER_AT | card << CARD_AT
                                    | (len(self.history) + self.move_base) << MOVE_AT)
        return True

    def _rebuild(self) -> None:
        """OSC-R43 (OSC-I43): shuffle the whole discard pile, trigger cards included, into a new pulse deck.

        Every seat saw the discard pile face up: the new deck's cards are known, not their order (OSC-I-CT14).
        """
        deck = self.discard
        if self._events is not None:
            self._emit(EV_RESHUFFLE, {"cards": counts_to_tokens(counts_of(deck)), "count": len(deck)})
        self.discard = []
        self.rng.shuffle(deck)
        self.pulse = deck
        self.pulse_mixed = not all(IS_PULSE_TYPE[k] for k in deck)
        self.pulse_source = counts_of(deck)
        self.bottom_known = 0
        self.drawn_pulse = [[0] * 8 for _ in range(self.players)]

    def _draw_trigger(self, player: int) -> None:
        """Draw the top card of the trigger deck (it is never empty here, OSC-R45)."""
        card = self.trigger_deck.pop()
        self.hands[player][card] += 1
        self.drawn_trigger[player][card] += 1
        self.origin[player][TRIGGER_ORIGIN] += 1
        if self._events is not None:
            self._events.append(CODE_DRAW_TRIGGER | player << PLAYER_AT | card << CARD_AT
                                | (len(self.history) + self.move_base) << MOVE_AT)

    def _decode_event(self, code: int) -> tuple[Any, ...]:
        """The row of a compact event (see :mod:`cardtable.games.oscilloscope.codec`)."""
        return event_row(code, self.ntrains, len(self.filters))

    def _draw_one(self, player: int, deck: Deck) -> None:
        if deck is Deck.TRIGGER:
            self._draw_trigger(player)
        else:
            self._draw_pulse(player)

    def _topup_next(self) -> int:
        """OSC-R40 (OSC-I40): in turn order from the current player, each hand under 3 draws one card at a time."""
        n = self.players
        while self.topup_index < n:
            player = (self.turn + self.topup_index) % n
            if self.hand_size(player) >= 3:  # OSC-R41
                self.topup_index += 1
                continue
            pulse_ok = self.can_draw_pulse()
            trigger_ok = bool(self.trigger_deck)  # OSC-R45 (OSC-I45): an empty trigger deck is never rebuilt
            if pulse_ok and trigger_ok:
                return self._wait(Phase.TOPUP, player)
            if pulse_ok:
                self._draw_pulse(player)
            elif trigger_ok:  # only the trigger deck can supply a card
                self._draw_one(player, Deck.TRIGGER)
            else:
                self.topup_index += 1  # neither deck can supply a card: stop drawing
        return STEP_SET_END if self.solo else STEP_POST_BEGIN

    def _post_begin(self) -> int:
        """OSC-R42 (OSC-I42): the optional post-refill placement, offered when a legal one exists."""
        placements = self._placements(self.turn, stack_only=False)
        if placements:
            placements.append(PASS)
            self._wait(Phase.POST, self.turn)
            self._legal = placements
            return STEP_WAIT
        return STEP_SET_END

    def _set_end(self) -> int:
        """The set is over: count stalls (OSC-R64) and pass the turn (OSC-R9)."""
        self.sets += 1
        self.stall = 0 if self.captured_this_set else self.stall + 1
        self.captured_last_set = self.captured_this_set
        self.captured_this_set = False
        if self.stall >= self.rules.stall_limit_sets:  # OSC-R64
            return self._end(f"{self.rules.stall_limit_sets} sets in a row without a capture", "OSC-R64")
        self.turn = (self.turn + 1) % self.players
        return STEP_SET_BEGIN

    # -- outcome ----------------------------------------------------------------------------------------
    def waveform_count(self, player: int) -> int:
        """OSC-R47: waveform score cards (D9), less kept triggers if they do not count (OSC-I48)."""
        w = sum(map(self.scores[player].__getitem__, _WAVEFORM_KINDS))
        return w if self.rules.trigger_score_counts else w - self.kept[player]

    def net_noise(self, player: int) -> int:
        """Noise less clear in a score pile, floored at 0 unless ``clamp_net_noise`` is off (OSC-I28)."""
        net = self.scores[player][NOISE] - self.scores[player][CLEAR]
        return max(0, net) if self.rules.clamp_net_noise else net

    def penalty(self, player: int) -> int:
        """OSC-R48: the noise penalty (OSC-I46 flag)."""
        net = self.net_noise(player)
        how = self.rules.noise_penalty
        if how == "net_x1_5_ceil":
            return ceil_half(net)
        if how == "trains_x1_5_per_noise":
            return net * ceil_half(self.ntrains)
        return 2 * net

    def score(self, player: int) -> int:
        """OSC-R49 (multiplayer) and OSC-R61 (solo) score of a player's pile as it stands."""
        if self.solo and self.rules.solo_scoring == "waveform":
            return self.waveform_count(player)
        return self.waveform_count(player) - self.penalty(player)

    def score_detail(self, player: int) -> dict[str, int]:
        """A player's score and its parts (OSC-R47 to OSC-R49, OSC-R61), as the score event reports them."""
        solo_waveform = self.solo and self.rules.solo_scoring == "waveform"
        return {"player": player, "waveform": self.waveform_count(player), "noise": self.scores[player][NOISE],
                "clear": self.scores[player][CLEAR], "penalty": 0 if solo_waveform else self.penalty(player),
                "score": self.score(player)}

    def scores_now(self) -> list[int]:
        """Every player's score as the piles stand."""
        return [self.score(p) for p in range(self.players)]

    def _make_outcome(self) -> Outcome:
        """OSC-R51: the highest score wins, ties share the win (OSC-I50 flag); solo is a score attack."""
        scores = self.scores_now()
        if self.solo:
            return Outcome((0,), self.end_reason, self.end_rule, (float(scores[0]),),
                           f"solo score {scores[0]} ({self.counted_noise} counted noise)")
        keys = self._rank_keys(scores)
        best = max(keys)
        winners = tuple(p for p in range(self.players) if keys[p] == best)
        detail = "scores " + ", ".join(f"P{p + 1} {s}" for p, s in enumerate(scores))
        return Outcome(winners, self.end_reason, self.end_rule, tuple(float(s) for s in scores), detail)

    def _rank_keys(self, scores: list[int]) -> list[tuple[int, int]]:
        if self.rules.tiebreak == "fewer_net_noise":
            return [(scores[p], -self.net_noise(p)) for p in range(self.players)]
        return [(scores[p], 0) for p in range(self.players)]

    def returns(self) -> list[float]:
        """Rewards in [-1, 1] (OSC-I-CT7): by rank in multiplayer, by score in solo.

        Multiplayer: ``1 - 2 * (players ranked above) / (players - 1)``, so winners (tied ones too)
        get +1 and the last -1, as the contract's default does for two players. Solo:
        ``clamp((score - 15) / 15, -1, 1)``, 0 for a score of 15 and +1 from 30 up.
        """
        out = self.result
        if out is None:
            return [0.0] * self.players
        scores = self.scores_now()
        if self.solo:
            return [max(-1.0, min(1.0, (scores[0] - SOLO_PAR) / SOLO_PAR))]
        keys = self._rank_keys(scores)
        n = self.players
        return [1.0 - 2.0 * sum(1 for q in range(n) if keys[q] > keys[p]) / (n - 1) for p in range(n)]

    # -- events of the setup, view and position JSON -------------------------------------------------------
    def _setup_events(self) -> None:
        """What the setup tells (OSC-R1 to OSC-R8): the trains and the cards put under the pulse deck,
        the start player, each dealt hand to its owner only, the solo offer, trains dealt at random."""
        for c in range(self.ntrains):
            under = self.setup_under[c] if c < len(self.setup_under) else []
            self._emit(EV_TRAIN, {"train": TRAIN_LETTERS[c], "cards": [TOKENS[k] for k in self.cards[c] if k != EMPTY],
                                 "under": [TOKENS[k] for k in under]})
        n = self.players
        if not self.solo:
            self._emit(EV_START, {"player": self.start_player})
        for i in range(n):
            p = (self.start_player + i) % n
            pulse, trigger = self.drawn_pulse[p], self.drawn_trigger[p]
            self._emit(EV_DEAL, {"player": p, "pulse": sum(pulse), "trigger": sum(trigger)},
                       {"pulse_cards": counts_to_tokens(pulse), "trigger_cards": counts_to_tokens(trigger)}, (p,))
        if self.solo:
            self._emit(EV_OFFER, {"cards": [TOKENS[k] for k in self.offer]})
        elif self.phase is not Phase.ASSIGN:  # train_assignment = random (OSC-I11)
            for p in range(n):
                self._emit(EV_ASSIGN, {"player": p, "train": TRAIN_LETTERS[self.assigned[p]], "dealt": True})
            if self.phase is Phase.TRIGGER:
                self._emit(EV_TURN, {"player": self.turn, "set": self.sets + 1})

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may know (OSC-I63) and remembers (OSC-I-CT14); None is a spectator."""
        return view_json(self, player)

    def _position_json(self) -> dict[str, Any]:
        """The whole position (see position.schema.json)."""
        return position_json(self)


SOLO_PAR: Final = 15
"""The solo score that ``returns()`` maps to 0 (OSC-I-CT7)."""


_WAVEFORM_KINDS: Final = tuple(k for k in range(8) if IS_WAVEFORM[k])


def counts_of(cards: Sequence[int]) -> list[int]:
    """Counts per kind of a list of cards."""
    counts = [0] * 8
    for k in cards:
        counts[k] += 1
    return counts

