"""Oscilloscope's fixed action index and the observation tensor of a seat's view (for learning and research tools).

The **action index** numbers every action Oscilloscope can ever offer under its rules, once, in this
order (``T`` = the most trains the rules allow, ``max(2, max_players)``; cards in the order ``HL LH LOH
NOISE CLEAR T_HL T_LH T_BOTH``; the five trigger-deck kinds ``LOH CLEAR T_HL T_LH T_BOTH``):

| indexes | actions | rule |
|---|---|---|
| ``T`` | ``assign A`` ... | OSC-R6 |
| 5 x 5 | ``filters A=x B=y`` for trigger-deck kinds ``x`` (major) and ``y`` | OSC-R8 |
| 5 x ``T`` x 5 | ``place CARD SLOT``: trigger-capable kind, train, time position | OSC-R12 |
| 3 | ``pass``, ``capture``, ``decline`` | OSC-R13, OSC-R42, OSC-I33 |
| 8 | ``keep CARD`` | OSC-R30 |
| 2 | ``keep A``, ``keep B`` (solo filters) | OSC-R57 |
| ``T`` x 8 | ``refill X CARD`` | OSC-R37 |
| ``T`` x 8 x 2 | ``refill X CARD H``, ``refill X CARD L`` (declared level) | OSC-R37, OSC-I5 |
| 8 | ``discard CARD`` | OSC-R37 |
| 2 | ``draw pulse``, ``draw trigger`` | OSC-R40 |
| 2 | ``exchange A``, ``exchange B`` | OSC-R55 |

so the standard rules (``max_players`` 4) have 250 actions, whatever the number of players.

>>> from cardtable import load_game
>>> game = load_game("oscilloscope")
>>> game.num_distinct_actions, str(game.action_from_index(0)), str(game.action_from_index(29))
(250, 'assign A', 'place LOH A1')

The **observation** of a view is a flat ``float32`` vector in [0, 1] with room for ``max_players``
seats, so its shape depends on the rules only. Seats are counted from the viewer (slot 0 is the
viewer, slot 1 the next seat in turn order, ...; a spectator's view is seen from seat 0); trains
keep their letters, so the tensor lines up with the action index, and ``train_owner`` says whose
each is. Card counts are divided by how many copies of that kind the game has, hand counts by 3
(OSC-R41). The view holds only what the seat may know (OSC-I63) and remembers (``memory``,
OSC-I-CT14), so the tensor never holds a hidden card. ``observation_layout(rules)`` names the
segments in order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from cardtable.core import Action
from cardtable.core.actions import DECLINE, PASS
from cardtable.core.encoding import layout_offsets

from .actions import (
    ASSIGN,
    CAPTURE,
    DISCARD,
    DRAW_PULSE,
    DRAW_TRIGGER,
    EXCHANGE,
    KEEP_FILTER,
    KEEP_TRIGGER,
    PLACE,
    REFILL,
    REFILL_DECLARED,
    ChooseFilters,
)
from .cards import CARD_BY_TOKEN, CARD_TYPES, LEVEL_SYMBOLS, POSITIONS, TRAIN_LETTERS, TRIGGER_KINDS, Card
from .rules import OscilloscopeRules
from .vocab import Phase

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

PHASES = tuple(p.value for p in Phase)
"""The phases in the tensor's order."""
C = len(Card)
HAND_LIMIT = 3
"""A hand holds at most 3 cards (OSC-R41)."""
TOTALS = tuple(c.total for c in CARD_TYPES)
"""Copies of each kind in the game (OSC-R1): what its counts are divided by."""
SOLO_TRAINS = 2
PER_COPY = tuple(1.0 / n for n in TOTALS)
ALL_COPIES = sum(TOTALS)
TRIGGER_COPIES = sum(c.trigger_deck for c in CARD_TYPES)
LEVELS = len(LEVEL_SYMBOLS)
LEVEL_INDEX = {symbol: i for i, symbol in enumerate(LEVEL_SYMBOLS)}


def _rules(rules: Any) -> OscilloscopeRules:
    if not isinstance(rules, OscilloscopeRules):
        raise TypeError(f"expected OscilloscopeRules, got {rules!r}")
    return rules


def num_trains(rules: OscilloscopeRules) -> int:
    """The most trains a game under ``rules`` has: one per player, two in solo (OSC-R2)."""
    return max(SOLO_TRAINS, _rules(rules).max_players)


@lru_cache(maxsize=16)
def index_actions(rules: OscilloscopeRules) -> tuple[Action, ...]:
    """Every action Oscilloscope can offer under ``rules``, in index order (see the module's table)."""
    t = num_trains(rules)
    return (
        *ASSIGN[:t],
        *(ChooseFilters(a, b) for a in TRIGGER_KINDS for b in TRIGGER_KINDS),
        *(PLACE[card][train][p] for card in TRIGGER_KINDS for train in range(t) for p in range(POSITIONS)),
        PASS, CAPTURE, DECLINE,
        *KEEP_TRIGGER,
        *KEEP_FILTER[:SOLO_TRAINS],
        *(REFILL[train][card] for train in range(t) for card in Card),
        *(REFILL_DECLARED[train][card][level] for train in range(t) for card in Card for level in (0, 1)),
        *DISCARD,
        DRAW_PULSE, DRAW_TRIGGER,
        *EXCHANGE[:SOLO_TRAINS],
    )


@lru_cache(maxsize=16)
def observation_layout(rules: OscilloscopeRules) -> tuple[tuple[str, int], ...]:
    """The observation's segments in order: (name, length)."""
    r = _rules(rules)
    t, p, slots = num_trains(r), r.max_players, num_trains(r) * POSITIONS
    return (
        ("players", p), ("train_present", t), ("train_cards", slots * C), ("train_levels", slots * len(LEVEL_SYMBOLS)),
        ("train_owner", t * p), ("triggers", slots * C), ("trigger_owner", slots * p),
        ("filters", SOLO_TRAINS * C), ("stock", C), ("offer", C),
        ("hand_own", C), ("hand_sizes", p), ("known", p * C), ("origin_pulse", p), ("origin_trigger", p),
        ("origin_any", p), ("pulse_bottom", C), ("pulse_may_hold", C), ("trigger_may_hold", C),
        ("deck_sizes", 2), ("discard", C), ("score_piles", p * C), ("kept_triggers", p),
        ("score_plus", p), ("score_minus", p),
        ("start_player", p), ("turn_player", p), ("current_player", p), ("to_move", 1),
        ("phase", len(PHASES)), ("sets", 1), ("stall", 1), ("counted_noise", 1), ("flags", 4),
        ("more_step", POSITIONS), ("more_early_end", 1), ("capture_row", POSITIONS), ("capture_by", p),
        ("refill_index", p + 1), ("refill_discards", p), ("refill_deliberate", p), ("refill_played", p),
        ("refill_stopped", t), ("refill_limit", 1), ("topup_index", p + 1),
    )


@lru_cache(maxsize=16)
def _offsets(rules: OscilloscopeRules) -> dict[str, int]:
    return layout_offsets(observation_layout(rules))


def observation_shape(rules: OscilloscopeRules) -> tuple[int, ...]:
    """The shape of every observation under ``rules``: one flat vector."""
    return (_offsets(_rules(rules))[""],)


FLAGS = ("captured_this_set", "captured_last_set", "any_trigger_placed", "pulse_deck_mixed")
SETS_SCALE = 100
"""``sets`` is divided by 100 and saturates there (a random game lasts about 20 sets)."""
MOST_SCORE = 110
"""No score's size exceeds the 110 cards."""


def encode_view(rules: OscilloscopeRules, view: Mapping[str, Any]) -> npt.NDArray[np.float32]:
    """The observation tensor of ``view`` (a dict from ``state.view(seat)``), see ``observation_layout``."""
    import numpy as np

    r = _rules(rules)
    at = _offsets(r)
    p_max = r.max_players
    n: int = view["players"]
    me: int = view["viewer"] if view["viewer"] is not None else 0
    hot: dict[int, float] = {}  # index -> value; what is not here is 0

    def tally(base: int, cards: Sequence[str], per_kind: bool) -> None:
        for c in cards:
            k = CARD_BY_TOKEN[c]
            i = base + k
            hot[i] = hot.get(i, 0.0) + (PER_COPY[k] if per_kind else 1.0 / HAND_LIMIT)

    def rel(seat: int) -> int:
        return (seat - me) % n

    hot[at["players"] + n - 1] = 1.0
    cards_at, levels_at = at["train_cards"], at["train_levels"]
    for train, slots in enumerate(view["trains"]):
        hot[at["train_present"] + train] = 1.0
        for pos, cell in enumerate(slots):
            if cell is not None:
                slot = train * POSITIONS + pos
                hot[cards_at + slot * C + CARD_BY_TOKEN[cell["card"]]] = 1.0
                hot[levels_at + slot * LEVELS + LEVEL_INDEX[cell["out"]]] = 1.0
    for seat, letters in enumerate(view["assigned_trains"]):
        for letter in letters:
            hot[at["train_owner"] + TRAIN_LETTERS.index(letter) * p_max + rel(seat)] = 1.0
    owner: dict[int, int] = {}
    for trig in view["triggers"]:
        slot = TRAIN_LETTERS.index(trig["at"][0]) * POSITIONS + int(trig["at"][1]) - 1
        i = at["triggers"] + slot * C + CARD_BY_TOKEN[trig["card"]]
        hot[i] = min(1.0, hot.get(i, 0.0) + 0.5)  # one trigger of a kind is 0.5, two or more 1
        owner[slot] = trig["owner"]  # the latest placement at the slot
    for slot, seat in owner.items():
        hot[at["trigger_owner"] + slot * p_max + rel(seat)] = 1.0
    for train, card in enumerate(view["filters"]):
        if card is not None:
            hot[at["filters"] + train * C + CARD_BY_TOKEN[card]] = 1.0
    if view["stock"] is not None:
        hot[at["stock"] + CARD_BY_TOKEN[view["stock"]]] = 1.0
    tally(at["offer"], view["offer"], False)
    own = view["hands"][me] if me < len(view["hands"]) else None
    tally(at["hand_own"], own or (), False)
    memory = view["memory"]
    for seat in range(n):
        s = rel(seat)
        hot[at["hand_sizes"] + s] = view["sizes"]["hands"][seat] / HAND_LIMIT
        hand = memory["hands"][seat]
        tally(at["known"] + s * C, hand["known"], False)
        hot[at["origin_pulse"] + s] = hand["pulse"] / HAND_LIMIT
        hot[at["origin_trigger"] + s] = hand["trigger"] / HAND_LIMIT
        hot[at["origin_any"] + s] = hand["any"] / HAND_LIMIT
    tally(at["pulse_bottom"], memory["pulse_bottom"], True)
    for name in ("pulse_may_hold", "trigger_may_hold"):
        for token, m in memory[name].items():
            k = CARD_BY_TOKEN[token]
            hot[at[name] + k] = m * PER_COPY[k]
    hot[at["deck_sizes"]] = view["sizes"]["pulse_deck"] / ALL_COPIES
    hot[at["deck_sizes"] + 1] = view["sizes"]["trigger_deck"] / TRIGGER_COPIES
    tally(at["discard"], view["discard"], True)
    for seat in range(n):
        s = rel(seat)
        tally(at["score_piles"] + s * C, view["score_piles"][seat], True)
        hot[at["kept_triggers"] + s] = view["kept_triggers"][seat] / TRIGGER_COPIES
        score = view["scores"][seat]
        hot[at["score_plus" if score >= 0 else "score_minus"] + s] = min(1.0, abs(score) / MOST_SCORE)
    hot[at["start_player"] + rel(view["start_player"])] = 1.0
    hot[at["turn_player"] + rel(view["turn_player"])] = 1.0
    current = view["current_player"]
    if current is not None:
        hot[at["current_player"] + rel(current)] = 1.0
        if current == view["viewer"]:
            hot[at["to_move"]] = 1.0
    phase = view["phase"]
    hot[at["phase"] + PHASES.index(phase)] = 1.0
    counters = view["counters"]
    hot[at["sets"]] = min(1.0, counters["sets"] / SETS_SCALE)
    hot[at["stall"]] = min(1.0, counters["stall"] / r.stall_limit_sets)
    hot[at["counted_noise"]] = min(1.0, counters["counted_noise"] / TOTALS[Card.NOISE])
    for i, key in enumerate(FLAGS):
        if view["flags"][key]:
            hot[at["flags"] + i] = 1.0
    pending = view["pending"]
    if phase == Phase.MORE.value:
        hot[at["more_step"] + pending["step"] - 1] = 1.0
        if pending["early_end"]:
            hot[at["more_early_end"]] = 1.0
    elif phase in (Phase.CAPTURE.value, Phase.KEEP.value):
        hot[at["capture_row"] + pending["row"] - 1] = 1.0
        hot[at["capture_by"] + rel(pending["by"])] = 1.0
    elif phase == Phase.REFILL.value:
        hot[at["refill_index"] + min(pending["index"], p_max)] = 1.0
        for seat in range(n):
            s = rel(seat)
            hot[at["refill_discards"] + s] = min(1.0, pending["discards"][seat] / (MOST_SCORE + 1))
            if pending["deliberate"][seat]:
                hot[at["refill_deliberate"] + s] = 1.0
            hot[at["refill_played"] + s] = min(1.0, pending["played"][seat] / POSITIONS)
        for train, stopped in enumerate(pending["stopped"]):
            if stopped:
                hot[at["refill_stopped"] + train] = 1.0
        hot[at["refill_limit"]] = min(1.0, pending["limit"] / MOST_SCORE)
    elif phase == Phase.TOPUP.value:
        hot[at["topup_index"] + min(pending["index"], p_max)] = 1.0
    out = np.zeros(at[""], dtype=np.float32)
    out[list(hot)] = list(hot.values())
    return out
