"""Reading position JSON and sampling full states from a seat's view.

:mod:`cardtable.games.oscilloscope.view` writes views and positions. Reading a position checks what every reachable position obeys and
raises ``InvalidPosition(path, reason)`` naming the broken rule; the format is described by
``position.schema.json`` next to this file and in docs/games/oscilloscope.md.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from cardtable.core import InvalidPosition
from cardtable.core import jsonpos as jp

from .cards import (
    CARD_BY_TOKEN,
    IS_CONDITIONAL,
    IS_PULSE_TYPE,
    IS_TRIGGER_CAPABLE,
    IS_TRIGGER_DECK_KIND,
    IS_XX_TRIGGER,
    LEVEL_BY_SYMBOL,
    POSITIONS,
    TOKENS,
    TRAIN_LETTERS,
)
from .cardset import composition
from .state import OscilloscopeState
from .vocab import (
    ANY_ORIGIN,
    EMPTY,
    HL,
    LH,
    NOISE,
    ORIGIN_ALLOWS,
    ORIGIN_NAMES,
    PULSE_ORIGIN,
    T_HL,
    T_LH,
    TRIGGER_ORIGIN,
    WILD,
    Phase,
    counts_to_tokens,
)

if TYPE_CHECKING:
    from .game import OscilloscopeGame

POSITION_KEYS = ("players", "phase", "start_player", "turn_player", "trains", "triggers", "filters", "stock",
                 "offer", "hands", "pulse_deck", "trigger_deck", "discard", "score_piles", "kept_triggers",
                 "assigned_trains", "counters", "flags", "pending", "memory")
VIEW_ONLY_KEYS = ("viewer", "current_player", "sizes", "scores")
MEMORY_KEYS = ("pulse_bottom", "pulse_source", "trigger_source", "drawn", "hands")
VIEW_MEMORY_KEYS = ("pulse_bottom", "pulse_may_hold", "trigger_may_hold", "hands")
HAND_MEMORY_KEYS = ("known", "pulse", "trigger", "any")
PHASES = {p.value: p for p in Phase}
MEMORY_RULE = "OSC-I-CT14"
"""The interpretation every memory check names: what a seat remembers."""


# -- reading ------------------------------------------------------------------------------------
def _card(value: Any, path: str) -> int:
    token = jp.string(value, path)
    card = CARD_BY_TOKEN.get(token)
    if card is None:
        raise InvalidPosition(path, f"expected a card ({', '.join(TOKENS)}); got {token!r}")
    return int(card)


CARD_INDEX = {token: i for i, token in enumerate(TOKENS)}


def _cards(value: Any, path: str) -> list[int]:
    items = jp.array(value, path)
    try:
        return [CARD_INDEX[v] for v in items]  # the fast path; errors are explained below
    except (KeyError, TypeError):
        return [_card(v, f"{path}[{i}]") for i, v in enumerate(items)]


def _counts(value: Any, path: str) -> list[int]:
    counts = [0] * 8
    for k in _cards(value, path):
        counts[k] += 1
    return counts


def _count_map(value: Any, path: str) -> list[int]:
    """``{"HL": 3, ...}`` (positive counts) as counts per kind."""
    counts = [0] * 8
    if isinstance(value, dict):  # the fast path; errors are explained below
        for token, n in value.items():
            k = CARD_INDEX.get(token)
            if k is None or type(n) is not int or not 1 <= n <= 110:
                break
            counts[k] = n
        else:
            return counts
        counts = [0] * 8
    for token, n in jp.obj(value, path).items():
        card = CARD_INDEX.get(token)
        if card is None:
            raise InvalidPosition(f"{path}.{token}", f"expected a card ({', '.join(TOKENS)})")
        counts[card] = jp.integer(n, f"{path}.{token}", 1, 110)
    return counts


def _keys(d: Mapping[Any, Any], allowed: tuple[str, ...], path: str) -> None:
    for key in d:
        if key not in allowed:
            raise InvalidPosition(f"{path}.{key}", f"unknown member; expected {', '.join(allowed)}")
    for key in allowed:
        jp.get(d, key, path)


def _slot_name(value: Any, path: str, ntrains: int) -> tuple[int, int]:
    text = jp.string(value, path)
    if len(text) != 2 or text[0] not in TRAIN_LETTERS[:ntrains] or text[1] not in "12345":
        raise InvalidPosition(path, f"expected a slot A1..{TRAIN_LETTERS[ntrains - 1]}5; got {text!r}")
    return TRAIN_LETTERS.index(text[0]), int(text[1]) - 1


def _bools(value: Any, path: str, length: int) -> list[bool]:
    return [jp.boolean(v, f"{path}[{i}]") for i, v in enumerate(jp.array(value, path, length))]


def _ints(value: Any, path: str, length: int, lo: int, hi: int | None = None) -> list[int]:
    return [jp.integer(v, f"{path}[{i}]", lo, hi) for i, v in enumerate(jp.array(value, path, length))]


def read_position(game: OscilloscopeGame, position: Any, seed: int, setup: dict[str, Any],
                  rng: random.Random, require_legal: bool = True,
                  memory: Callable[[OscilloscopeState], None] | None = None) -> OscilloscopeState:
    """Build a state from ``$.position``, refusing anything no game can reach, with the rule it breaks.

    The checks run in this order: each field and the board (OSC-R12, R21, R41, D4 ...), the pending
    decision, the end conditions (OSC-R34, R60, R64), the phase's preconditions, card conservation
    (OSC-R1), the seat memory (OSC-I-CT14), and (with ``require_legal``, always except while
    sampling) that the decider has a legal action. ``memory``, used by the sampler, sets the memory
    it dealt by construction instead of reading ``$.position.memory``.
    """
    rules = game.rules
    d = jp.obj(position, "$.position")
    _keys(d, POSITION_KEYS if memory is None else POSITION_KEYS[:-1], "$.position")
    players = jp.integer(d["players"], "$.position.players", 1, rules.max_players)
    if players != setup["players"]:
        raise InvalidPosition("$.position.players", f"the setup says {setup['players']} players, not {players}")
    st = OscilloscopeState(game, seed, setup, rng)
    n = players
    phase = PHASES.get(jp.string(d["phase"], "$.position.phase", tuple(PHASES)))
    assert phase is not None
    st.phase = phase
    st.start_player = jp.integer(d["start_player"], "$.position.start_player", 0, n - 1)
    st.turn = jp.integer(d["turn_player"], "$.position.turn_player", 0, n - 1)
    _read_board(st, d)
    _read_zones(st, d)
    _read_counters(st, d)
    _read_pending(st, jp.obj(d["pending"], "$.position.pending"))
    _check_end_conditions(st)
    _check_phase(st)
    # Card conservation (D10, §2.3).
    total: Counter[str] = Counter()
    for cards in st.zones().values():
        total.update(cards)
    every = composition(st.game.rules.cards).totals  # the card set's composition (OSC-I-CT15)
    if total != every:
        diff = {k: total[k] - every[k] for k in TOKENS if total[k] != every[k]}
        raise InvalidPosition("$.position", f"the zones must hold the 110 cards of §2.3 exactly (OSC-R1); "
                                            f"off by {diff}")
    if memory is None:
        _read_memory(st, jp.obj(d["memory"], "$.position.memory"))
    else:
        memory(st)
    if phase is Phase.OVER:
        st.result = st._make_outcome()
    elif require_legal and not st.legal_actions():
        raise InvalidPosition("$.position.phase", f"no legal action in the {phase.value} phase for "
                                                  f"P{st.decider + 1} (OSC-R9)")
    return st


def _read_board(st: OscilloscopeState, d: Mapping[Any, Any]) -> None:
    """Trains (D1, D4), board triggers (D6, OSC-R21) and the solo zones (OSC-R8, OSC-R53, OSC-R55)."""
    rules = st.game.rules
    ntrains, solo, n = st.ntrains, st.solo, st.players
    in_train = [IS_PULSE_TYPE[k] or (rules.trigger_cards_connect and k in (T_HL, T_LH)) for k in range(8)]
    trains = jp.array(d["trains"], "$.position.trains", ntrains)
    for c, row in enumerate(trains):
        path = f"$.position.trains[{c}]"
        for s, slot in enumerate(jp.array(row, path, POSITIONS)):
            spath = f"{path}[{s}]"
            if slot is None:
                continue
            so = jp.obj(slot, spath)
            _keys(so, ("card", "out"), spath)
            card = _card(so["card"], f"{spath}.card")
            if not in_train[card]:
                raise InvalidPosition(f"{spath}.card", f"{TOKENS[card]} cannot sit in a train (OSC-I8)")
            level = LEVEL_BY_SYMBOL.get(jp.string(so["out"], f"{spath}.out", ("H", "L", "*")))
            assert level is not None
            fixed = {HL: 1, LH: 0, T_HL: 1, T_LH: 0}.get(card)
            if fixed is not None and level != fixed:
                raise InvalidPosition(f"{spath}.out", f"{TOKENS[card]} always leaves level {'HL'[fixed]} (D4)")
            if card == NOISE and rules.noise_out_level == "wild" and level != WILD:
                raise InvalidPosition(f"{spath}.out", "noise leaves a wild level * (D4, OSC-I6)")
            st.cards[c][s] = card
            st.levels[c][s] = int(level)

    seen: set[tuple[int, int]] = set()
    for i, t in enumerate(jp.array(d["triggers"], "$.position.triggers")):
        path = f"$.position.triggers[{i}]"
        to = jp.obj(t, path)
        _keys(to, ("card", "at", "owner"), path)
        if solo:
            raise InvalidPosition(path, "the solo game has filters, not board triggers (OSC-R53)")
        card = _card(to["card"], f"{path}.card")
        if not IS_TRIGGER_CAPABLE[card]:
            raise InvalidPosition(f"{path}.card", f"{TOKENS[card]} is not a trigger (OSC-R12)")
        train, slot = _slot_name(to["at"], f"{path}.at", ntrains)
        if (train, slot) in seen:
            raise InvalidPosition(f"{path}.at", "a slot holds at most one trigger (OSC-R21)")
        seen.add((train, slot))
        if rules.trigger_anchor == "card" and st.cards[train][slot] == EMPTY:
            raise InvalidPosition(f"{path}.at", "a trigger lies on a card; that slot is empty (OSC-I25)")
        owner = jp.integer(to["owner"], f"{path}.owner", 0, n - 1)
        st.triggers.append([train, slot, card, owner])
    if sum(1 for t in st.triggers if IS_XX_TRIGGER[t[2]]) > 1:
        raise InvalidPosition("$.position.triggers", "at most one XX trigger lies on the board (OSC-R21)")
    in_step = rules.exhaustion_ends_game and not rules.refill_all_players  # OSC-I61
    if (in_step or rules.trigger_anchor == "position") and len({t[1] for t in st.triggers}) > 1:
        raise InvalidPosition("$.position.triggers", "all board triggers share one time position (OSC-R21)")

    filters = jp.array(d["filters"], "$.position.filters", ntrains if solo else 0)
    for c, f in enumerate(filters):
        if f is not None:
            card = _card(f, f"$.position.filters[{c}]")
            if not IS_TRIGGER_DECK_KIND[card]:
                raise InvalidPosition(f"$.position.filters[{c}]", "filters come from the trigger deck (OSC-R8)")
            st.filters[c] = card
    if d["stock"] is not None:
        if not solo:
            raise InvalidPosition("$.position.stock", "only the solo game has an exchange stock (OSC-R8)")
        st.stock = _card(d["stock"], "$.position.stock")
        if not IS_TRIGGER_DECK_KIND[st.stock]:
            raise InvalidPosition("$.position.stock", "the stock comes from the trigger deck (OSC-R8, OSC-R55)")
    st.offer = _cards(d["offer"], "$.position.offer")
    if len(st.offer) != (3 if st.phase is Phase.FILTERS else 0):
        raise InvalidPosition("$.position.offer", "three cards are offered in the filters phase, none otherwise (OSC-R8)")
    if not all(IS_TRIGGER_DECK_KIND[k] for k in st.offer):
        raise InvalidPosition("$.position.offer", "the offer comes from the trigger deck (OSC-R8)")


def _read_zones(st: OscilloscopeState, d: Mapping[Any, Any]) -> None:
    """Hands (OSC-R41), decks (OSC-R43, OSC-R45), piles (OSC-R30) and assigned trains (OSC-R6, OSC-R52)."""
    n = st.players
    hands = jp.array(d["hands"], "$.position.hands", n)
    st.hands = [_counts(h, f"$.position.hands[{p}]") for p, h in enumerate(hands)]
    for p in range(n):
        if sum(st.hands[p]) > 3:
            raise InvalidPosition(f"$.position.hands[{p}]", "a hand holds at most 3 cards (OSC-R41)")
    st.pulse = _cards(d["pulse_deck"], "$.position.pulse_deck")[::-1]
    st.trigger_deck = _cards(d["trigger_deck"], "$.position.trigger_deck")[::-1]
    for i, k in enumerate(reversed(st.trigger_deck)):
        if not IS_TRIGGER_DECK_KIND[k]:
            raise InvalidPosition(f"$.position.trigger_deck[{i}]",
                                  f"{TOKENS[k]} never enters the trigger deck (OSC-R1, OSC-R45)")
    st.discard = _cards(d["discard"], "$.position.discard")
    piles = jp.array(d["score_piles"], "$.position.score_piles", n)
    st.scores = [_counts(s, f"$.position.score_piles[{p}]") for p, s in enumerate(piles)]
    st.kept = _ints(d["kept_triggers"], "$.position.kept_triggers", n, 0)
    for p in range(n):
        if st.kept[p] > sum(st.scores[p][k] for k in range(8) if IS_CONDITIONAL[k]):
            raise InvalidPosition(f"$.position.kept_triggers[{p}]", "more kept triggers than the pile holds (OSC-R30)")

    assigned = jp.array(d["assigned_trains"], "$.position.assigned_trains", n)
    if st.solo:
        if jp.array(assigned[0], "$.position.assigned_trains[0]") != ["A", "B"]:
            raise InvalidPosition("$.position.assigned_trains[0]", "the solo player has trains A and B (OSC-R52)")
        st.assigned = [EMPTY]
        return
    owners: set[int] = set()
    for p, a in enumerate(assigned):
        path = f"$.position.assigned_trains[{p}]"
        letters = jp.array(a, path)
        if len(letters) > 1:
            raise InvalidPosition(path, "a player has one train (OSC-R6)")
        if letters:
            train = _slot_name(f"{jp.string(letters[0], f'{path}[0]')}1", f"{path}[0]", st.ntrains)[0]
            if train in owners:
                raise InvalidPosition(path, "two players hold the same train (OSC-R6)")
            owners.add(train)
            st.assigned[p] = train
    if len(owners) < n and st.phase is not Phase.ASSIGN:
        raise InvalidPosition("$.position.assigned_trains", "every player has a train once play starts (OSC-R6)")


def _read_counters(st: OscilloscopeState, d: Mapping[Any, Any]) -> None:
    rules = st.game.rules
    counters = jp.obj(d["counters"], "$.position.counters")
    _keys(counters, ("sets", "stall", "counted_noise"), "$.position.counters")
    st.sets = jp.integer(counters["sets"], "$.position.counters.sets", 0)
    st.stall = jp.integer(counters["stall"], "$.position.counters.stall", 0, rules.stall_limit_sets)
    st.counted_noise = jp.integer(counters["counted_noise"], "$.position.counters.counted_noise", 0,
                                  composition(rules.cards).totals["NOISE"])
    flags = jp.obj(d["flags"], "$.position.flags")
    names = ("captured_this_set", "captured_last_set", "any_trigger_placed", "pulse_deck_mixed")
    _keys(flags, names, "$.position.flags")
    st.captured_this_set, st.captured_last_set, st.any_trigger_placed, st.pulse_mixed = (
        jp.boolean(flags[k], f"$.position.flags.{k}") for k in names)
    if not st.pulse_mixed:
        for i, k in enumerate(reversed(st.pulse)):
            if not IS_PULSE_TYPE[k]:
                raise InvalidPosition(f"$.position.pulse_deck[{i}]", f"{TOKENS[k]} in a pulse deck that was never "
                                                                    f"rebuilt (pulse_deck_mixed, OSC-R1, OSC-R43)")


def _check_end_conditions(st: OscilloscopeState) -> None:
    """A game that met an end condition is over (OSC-R34, OSC-R60, OSC-R64)."""
    if st.phase is Phase.OVER:
        return
    rules = st.game.rules
    if st.stall >= rules.stall_limit_sets:
        raise InvalidPosition("$.position.counters.stall", f"{rules.stall_limit_sets} sets in a row without a "
                                                           f"capture end the game (OSC-R64)")
    if st.solo:
        if st.counted_noise >= 3:
            raise InvalidPosition("$.position.counters.counted_noise", "the third counted noise ends the game (OSC-R60)")
    elif st.noise_towards_end() >= rules.mp_noise_limit:
        raise InvalidPosition("$.position.score_piles", f"{rules.mp_noise_limit} captured noise end the game (OSC-R34)")


def _check_phase(st: OscilloscopeState) -> None:
    """What the pending phase needs to have been reached (OSC-R5 to OSC-R8, OSC-R36, OSC-R40, OSC-R42)."""
    rules = st.game.rules
    phase, n = st.phase, st.players
    setup_phase = phase in (Phase.ASSIGN, Phase.FILTERS)
    if setup_phase:
        if st.sets or st.triggers or st.discard or any(sum(p) for p in st.scores):
            raise InvalidPosition("$.position.phase", f"the {phase.value} phase comes before the first set: no "
                                                      f"triggers, discards or captures yet (OSC-R7)")
        if any(EMPTY in row for row in st.cards):
            raise InvalidPosition("$.position.trains", "the trains are built with 5 cards each (OSC-R3)")
        dealt = rules.solo_initial_pulse_cards if st.solo else 3
        for p in range(n):
            if sum(st.hands[p]) != dealt:
                raise InvalidPosition(f"$.position.hands[{p}]", f"each hand is dealt {dealt} cards (OSC-R5, OSC-R8)")
    complete_rule = rules.exhaustion_ends_game and not rules.refill_all_players
    if phase is Phase.REFILL and not rules.refill_all_players:
        mine = st.trains_of(st.decider)
        if not any(not st.refill_stopped[c] and not st.is_complete(c) for c in mine):
            raise InvalidPosition("$.position.phase", f"P{st.decider + 1} refills only an incomplete train (OSC-R36)")
    if phase in (Phase.TOPUP, Phase.POST) and complete_rule and not all(st.is_complete(c) for c in range(st.ntrains)):
        raise InvalidPosition("$.position.phase", f"the {phase.value} phase comes after every train is complete "
                                                  f"(OSC-R40)")
    if phase is Phase.POST:
        can_draw = bool(st.trigger_deck) or st.can_draw_pulse()
        for p in range(n):
            if sum(st.hands[p]) < 3 and can_draw:
                raise InvalidPosition(f"$.position.hands[{p}]", "the top-up fills every hand to 3 cards while a deck "
                                                                "can supply one (OSC-R40)")


def _read_pending(st: OscilloscopeState, pending: Mapping[Any, Any]) -> None:
    """Phase-specific data, and who decides (the contract's ``current_player``)."""
    n, phase, path = st.players, st.phase, "$.position.pending"
    solo_only = (Phase.FILTERS, Phase.EXCHANGE)
    multi_only = (Phase.ASSIGN, Phase.TRIGGER, Phase.MORE, Phase.POST)
    if (st.solo and phase in multi_only) or (not st.solo and phase in solo_only):
        raise InvalidPosition("$.position.phase", f"no {phase.value} phase in {'solo' if st.solo else 'multiplayer'} "
                                                  f"(OSC-R9, OSC-R54)")
    if st.solo and st.turn != 0:
        raise InvalidPosition("$.position.turn_player", "the solo player is seat 0 (OSC-R52)")
    if phase is Phase.MORE:
        _keys(pending, ("step", "early_end"), path)
        st.more_step = jp.integer(pending["step"], f"{path}.step", 1, 5)
        if st.more_step not in (1, 5):
            raise InvalidPosition(f"{path}.step", "the trigger sets are steps 1 and 5 (OSC-R9)")
        st.more_early_end = jp.boolean(pending["early_end"], f"{path}.early_end")
        if not st.triggers:
            raise InvalidPosition("$.position.triggers", "stacking needs a trigger on the board (OSC-R18)")
    elif phase in (Phase.CAPTURE, Phase.KEEP):
        _keys(pending, ("row", "by"), path)
        st.cap_row = jp.integer(pending["row"], f"{path}.row", 1, 5) - 1
        st.cap_by = jp.integer(pending["by"], f"{path}.by", 0, n - 1)
        if st.solo and st.cap_row != 0:
            raise InvalidPosition(f"{path}.row", "solo captures time position 1 (OSC-R56)")
        if (st._solo_capture_row() if st.solo else st._capture_row()) != st.cap_row:
            raise InvalidPosition(f"{path}.row", "the capture condition does not hold there (OSC-R28, OSC-R56)")
    elif phase is Phase.REFILL:
        _keys(pending, ("index", "discards", "deliberate", "played", "stopped", "limit"), path)
        st.refill_index = jp.integer(pending["index"], f"{path}.index", 0, n - 1)
        st.refill_discards = _ints(pending["discards"], f"{path}.discards", n, 0)
        st.refill_deliberate = _bools(pending["deliberate"], f"{path}.deliberate", n)
        st.refill_played = _ints(pending["played"], f"{path}.played", n, 0)
        st.refill_stopped = _bools(pending["stopped"], f"{path}.stopped", st.ntrains)
        st.refill_limit = jp.integer(pending["limit"], f"{path}.limit", 0, 110)
    elif phase is Phase.TOPUP:
        _keys(pending, ("index",), path)
        st.topup_index = jp.integer(pending["index"], f"{path}.index", 0, n - 1)
        player = (st.turn + st.topup_index) % n
        if st.hand_size(player) >= 3 or not st.trigger_deck or not st.can_draw_pulse():
            raise InvalidPosition(f"{path}.index", "a top-up choice needs a hand under 3 and two decks to draw from "
                                                   "(OSC-R40)")
    elif phase is Phase.OVER:
        _keys(pending, ("reason", "rule"), path)
        st.end_reason = jp.string(pending["reason"], f"{path}.reason")
        st.end_rule = jp.string(pending["rule"], f"{path}.rule")
    else:
        _keys(pending, (), path)
    if phase is Phase.FILTERS and (any(f != EMPTY for f in st.filters) or st.stock != EMPTY):
        raise InvalidPosition("$.position.filters", "filters are chosen from the offer in the filters phase (OSC-R8)")
    rules = st.game.rules
    if phase is Phase.CAPTURE and not rules.capture_optional:
        raise InvalidPosition("$.position.phase", "captures are compulsory under these rules (capture_optional, OSC-R32)")
    if phase is Phase.MORE and not rules.lowhi_multi_per_set:
        raise InvalidPosition("$.position.phase", "one placement per trigger set under these rules "
                                                  "(lowhi_multi_per_set, OSC-R18)")
    if phase is Phase.KEEP and len(st._keepable_filters() if st.solo else st._keepable_triggers()) < 2:
        raise InvalidPosition("$.position.phase", "a keep choice needs two candidates (OSC-R30, OSC-I-CT1)")
    if phase is Phase.EXCHANGE and (st.stock == EMPTY or not st.captured_last_set):
        raise InvalidPosition("$.position.phase", "an exchange needs a stock and a capture in the last set (OSC-R55)")
    if phase is Phase.ASSIGN:
        if rules.train_assignment != "choose":
            raise InvalidPosition("$.position.phase", "trains are dealt at random under these rules (OSC-I11)")
        chosen = sum(1 for a in st.assigned if a != EMPTY)
        for i in range(n):
            if (st.assigned[(st.start_player + i) % n] != EMPTY) != (i < chosen):
                raise InvalidPosition("$.position.assigned_trains", "trains are chosen in turn order from the start "
                                                                    "player (OSC-R6)")
    st.decider = {
        Phase.ASSIGN: (st.start_player + sum(1 for a in st.assigned if a != EMPTY)) % n,
        Phase.CAPTURE: st.cap_by, Phase.KEEP: st.cap_by,
        Phase.REFILL: (st.turn + st.refill_index) % n, Phase.TOPUP: (st.turn + st.topup_index) % n,
    }.get(phase, st.turn)


def _read_memory(st: OscilloscopeState, memory: Mapping[Any, Any]) -> None:
    """The seat memory (OSC-I-CT14), checked against the cards it describes."""
    path = "$.position.memory"
    n = st.players
    _keys(memory, MEMORY_KEYS, path)
    st.bottom_known = jp.integer(memory["pulse_bottom"], f"{path}.pulse_bottom", 0, 110)
    if st.bottom_known > len(st.pulse):
        raise InvalidPosition(f"{path}.pulse_bottom", f"more known cards at the bottom than the pulse deck holds "
                                                      f"({MEMORY_RULE})")
    if st.bottom_known and st.pulse_mixed:
        raise InvalidPosition(f"{path}.pulse_bottom", f"a rebuilt pulse deck has no known bottom ({MEMORY_RULE})")
    if not all(IS_PULSE_TYPE[k] for k in st.pulse[:st.bottom_known]):
        raise InvalidPosition(f"{path}.pulse_bottom", f"only pulse cards went under the pulse deck at setup (OSC-R3, "
                                                      f"{MEMORY_RULE})")
    st.pulse_source = _count_map(memory["pulse_source"], f"{path}.pulse_source")
    st.trigger_source = _count_map(memory["trigger_source"], f"{path}.trigger_source")
    drawn = jp.array(memory["drawn"], f"{path}.drawn", n)
    for p, entry in enumerate(drawn):
        dpath = f"{path}.drawn[{p}]"
        e = jp.obj(entry, dpath)
        _keys(e, ("pulse", "trigger"), dpath)
        st.drawn_pulse[p] = _count_map(e["pulse"], f"{dpath}.pulse")
        st.drawn_trigger[p] = _count_map(e["trigger"], f"{dpath}.trigger")
    deck = [0] * 8
    for k in st.pulse[st.bottom_known:]:
        deck[k] += 1
    for k in range(8):
        if deck[k] + sum(st.drawn_pulse[p][k] for p in range(n)) != st.pulse_source[k]:
            raise InvalidPosition(f"{path}.pulse_source", f"the pulse deck's unknown cards and every seat's draws "
                                                          f"from it must make up what it was built from: {TOKENS[k]} "
                                                          f"is off ({MEMORY_RULE})")
    if not st.pulse_mixed and not all(IS_PULSE_TYPE[k] for k in range(8) if st.pulse_source[k]):
        raise InvalidPosition(f"{path}.pulse_source", f"a pulse deck never rebuilt was built from pulse cards "
                                                      f"({MEMORY_RULE})")
    deck = [0] * 8
    for k in st.trigger_deck:
        deck[k] += 1
    for k in range(8):
        if deck[k] + sum(st.drawn_trigger[p][k] for p in range(n)) != st.trigger_source[k]:
            raise InvalidPosition(f"{path}.trigger_source", f"the trigger deck and every seat's draws from it must "
                                                            f"make up its cards not yet turned face up: {TOKENS[k]} is "
                                                            f"off ({MEMORY_RULE})")
    hands = jp.array(memory["hands"], f"{path}.hands", n)
    for p, entry in enumerate(hands):
        hpath = f"{path}.hands[{p}]"
        h = jp.obj(entry, hpath)
        _keys(h, HAND_MEMORY_KEYS, hpath)
        known = _counts(h["known"], f"{hpath}.known")
        origin = [jp.integer(h[name], f"{hpath}.{name}", 0, 3) for name in ORIGIN_NAMES]
        _check_hand_memory(st.hands[p], known, origin, p, hpath)
        st.known[p] = known
        st.origin[p] = origin
    st.known_count = sum(sum(k) for k in st.known)


def _check_hand_memory(hand: list[int], known: list[int], origin: list[int], p: int, path: str) -> None:
    """A hand and what every seat remembers of it agree (OSC-I-CT14)."""
    if any(known[k] > hand[k] for k in range(8)):
        raise InvalidPosition(f"{path}.known", f"a card remembered in P{p + 1}'s hand is not there ({MEMORY_RULE})")
    if sum(known) + sum(origin) != sum(hand):
        raise InvalidPosition(path, f"the remembered cards of P{p + 1}'s hand must add up to its size ({MEMORY_RULE})")
    rest = [hand[k] - known[k] for k in range(8)]
    pulse_only = sum(rest[k] for k in range(8) if not ORIGIN_ALLOWS[TRIGGER_ORIGIN][k])
    trigger_only = sum(rest[k] for k in range(8) if not ORIGIN_ALLOWS[PULSE_ORIGIN][k])
    if pulse_only > origin[PULSE_ORIGIN] + origin[ANY_ORIGIN] or \
            trigger_only > origin[TRIGGER_ORIGIN] + origin[ANY_ORIGIN]:
        raise InvalidPosition(path, f"P{p + 1}'s hand holds cards its remembered origins cannot supply ({MEMORY_RULE})")


# -- sampling -----------------------------------------------------------------------------------
P_ONLY = (HL, LH, NOISE)
T_ONLY = (4, 5, 6, 7)
"""CLEAR, T_HL, T_LH, T_BOTH: only the trigger deck starts with them."""


def _slack(r: list[int], need: list[int], free: int, cap_p: list[int], size_t: int, cap_t: list[int]) -> int:
    """How far the cards ``r`` (counts per kind) are from failing to fill the hidden hand slots (``need`` per
    origin), ``free`` pulse-deck slots taking at most ``cap_p[k]`` of kind ``k`` and ``size_t`` trigger-deck
    slots (``cap_t``): negative when they cannot.

    Gale's condition for a transportation problem: every set of destinations gets enough cards that may go
    there; the slack is the least surplus over those sets. Sets with an ``any`` slot, or with slots of both
    origins, take every kind and never fall short. Dealing one card lowers the slack by at most one.
    """
    mp = [0] * 8
    mt = [0] * 8
    mpt = [0] * 8
    for k in range(8):
        n, a, b = r[k], cap_p[k], cap_t[k]
        mp[k] = n if n < a else a
        mt[k] = n if n < b else b
        mpt[k] = n if n < a + b else a + b
    sp, st_, spt = sum(mp), sum(mt), sum(mpt)
    slack = min(sp - free, st_ - size_t, spt - free - size_t)
    a, b = need[PULSE_ORIGIN], need[TRIGGER_ORIGIN]
    if a:
        rp = r[0] + r[1] + r[2] + r[3]
        slack = min(slack, rp - a, rp + mp[4] + mp[5] + mp[6] + mp[7] - a - free,
                    rp + mt[4] + mt[5] + mt[6] + mt[7] - a - size_t,
                    rp + mpt[4] + mpt[5] + mpt[6] + mpt[7] - a - free - size_t)
    if b:
        rt = r[2] + r[4] + r[5] + r[6] + r[7]
        slack = min(slack, rt - b, rt + mp[0] + mp[1] + mp[3] - b - free, rt + mt[0] + mt[1] + mt[3] - b - size_t,
                    rt + mpt[0] + mpt[1] + mpt[3] - b - free - size_t)
    return slack


def _pick(r: list[int], slot: int, need: list[int], free: int, cap_p: list[int], size_t: int, cap_t: list[int],
          rng: random.Random, check: bool) -> int:
    """A random card (each unseen card equally likely) for a hand slot of origin ``slot``; with ``check``, one
    that keeps the rest of the deal possible. Takes it from ``r`` and the slot from ``need``."""
    allowed = ORIGIN_ALLOWS[slot]
    need[slot] -= 1
    choices = [k for k in range(8) if allowed[k] and r[k]]
    while choices:
        x = rng.randrange(sum(r[k] for k in choices))
        for k in choices:
            x -= r[k]
            if x < 0:
                break
        r[k] -= 1
        if not check or _slack(r, need, free, cap_p, size_t, cap_t) >= 0:
            return k
        r[k] += 1
        choices.remove(k)
    raise InvalidPosition("$.memory", f"no deal of the unseen cards fits what the seat remembers ({MEMORY_RULE})")


def _deal(unseen: list[int], slots: list[tuple[int, int]], free: int, cap_p: list[int], size_t: int,
          cap_t: list[int], rng: random.Random, forced: tuple[int, int, int] | None = None
          ) -> tuple[dict[int, list[int]], list[int], list[int]]:
    """Deal the unseen cards: each hidden hand slot ``(seat, origin)`` a card its origin allows, the free part
    of the pulse deck at most ``cap_p`` of each kind, the trigger deck at most ``cap_t`` (OSC-I-CT14).

    Hand slots take random unseen cards one at a time, each kept only if the rest can still be dealt (checked
    only once the slack says a card could matter); ``forced`` = (seat, origin, card) gives that seat that card
    first. The decks then share what is left: what one cannot hold goes to the other, and the pulse deck
    takes a random choice of the rest.
    """
    r = unseen[:]
    need = [0, 0, 0]
    for _, origin in slots:
        need[origin] += 1
    hands: dict[int, list[int]] = {seat: [] for seat, _ in slots}
    order = slots[:]
    rng.shuffle(order)
    if forced is not None:
        seat, origin, card = forced
        order.remove((seat, origin))
        if not r[card] or not ORIGIN_ALLOWS[origin][card]:
            raise InvalidPosition("$.memory", "that card cannot be in that hand")
        r[card] -= 1
        need[origin] -= 1
        hands[seat].append(card)
    slack = _slack(r, need, free, cap_p, size_t, cap_t)
    if slack < 0:
        raise InvalidPosition("$.memory", f"no deal of the unseen cards fits what the seat remembers ({MEMORY_RULE})")
    for seat, origin in order:
        hands[seat].append(_pick(r, origin, need, free, cap_p, size_t, cap_t, rng, check=slack <= 0))
        slack = slack - 1 if slack > 0 else _slack(r, need, free, cap_p, size_t, cap_t)
    lo = [max(0, r[k] - cap_t[k]) for k in range(8)]
    hi = [min(r[k], cap_p[k]) for k in range(8)]
    flexible = [k for k in range(8) for _ in range(hi[k] - lo[k])]
    extra = free - sum(lo)
    if extra < 0 or extra > len(flexible) or any(lo[k] > hi[k] for k in range(8)):
        raise InvalidPosition("$.sizes", f"no deal of the unseen cards fits the decks ({MEMORY_RULE})")
    in_pulse = lo[:]
    for k in rng.sample(flexible, extra):
        in_pulse[k] += 1
    pulse = [k for k in range(8) for _ in range(in_pulse[k])]
    trigger = [k for k in range(8) for _ in range(r[k] - in_pulse[k])]
    rng.shuffle(pulse)
    rng.shuffle(trigger)
    return hands, pulse, trigger


def _spread(counts: list[int], seats: list[int], players: int) -> list[list[int]]:
    """Counts per kind shared out card by card over ``seats`` (the others get none)."""
    out = [[0] * 8 for _ in range(players)]
    i = 0
    for k in range(8):
        for _ in range(counts[k]):
            out[seats[i % len(seats)]][k] += 1
            i += 1
    return out


def sample_position(game: OscilloscopeGame, view: Any, rng: random.Random) -> OscilloscopeState:
    """A full state consistent with ``view``: the unseen cards dealt with ``rng``, never against the memory.

    What every sample keeps: the viewer's own hand and everything face up; hand and deck sizes; the
    seat's memory (OSC-I-CT14): the known bottom of the pulse deck, known cards in hands, the origin of
    every hidden hand card (a pulse card, a trigger-deck card, or any), and what each deck may still
    hold; and what the phase makes public: a ``trigger``, ``post`` or ``more`` phase means its decider
    holds a card with a legal placement (OSC-R13, OSC-I-CT2).
    """
    v = jp.obj(view, "$")
    for key in ("viewer", "sizes"):
        jp.get(v, key, "$")
    position = {k: jp.get(v, k, "$") for k in POSITION_KEYS}
    memory = jp.obj(position.pop("memory"), "$.memory")
    players = jp.integer(position["players"], "$.players", 1, game.rules.max_players)
    viewer = v["viewer"]
    if viewer is not None:
        viewer = jp.integer(viewer, "$.viewer", 0, players - 1)
    sizes = jp.obj(v["sizes"], "$.sizes")
    hand_sizes = _ints(jp.get(sizes, "hands", "$.sizes"), "$.sizes.hands", players, 0, 3)
    pulse_size = jp.integer(jp.get(sizes, "pulse_deck", "$.sizes"), "$.sizes.pulse_deck", 0, 110)
    trigger_size = jp.integer(jp.get(sizes, "trigger_deck", "$.sizes"), "$.sizes.trigger_deck", 0, 40)
    _keys(memory, VIEW_MEMORY_KEYS, "$.memory")
    bottom = _cards(memory["pulse_bottom"], "$.memory.pulse_bottom")
    cap_p = _count_map(memory["pulse_may_hold"], "$.memory.pulse_may_hold")
    cap_t = _count_map(memory["trigger_may_hold"], "$.memory.trigger_may_hold")
    hand_memory = jp.array(memory["hands"], "$.memory.hands", players)
    known: list[list[int]] = []
    origins: list[list[int]] = []
    for p, entry in enumerate(hand_memory):
        h = jp.obj(entry, f"$.memory.hands[{p}]")
        _keys(h, HAND_MEMORY_KEYS, f"$.memory.hands[{p}]")
        known.append(_counts(h["known"], f"$.memory.hands[{p}].known"))
        origins.append([jp.integer(h[name], f"$.memory.hands[{p}].{name}", 0, 3) for name in ORIGIN_NAMES])

    seen = [0] * 8
    for c, row in enumerate(jp.array(position["trains"], "$.trains")):
        for s, slot in enumerate(jp.array(row, f"$.trains[{c}]")):
            if slot is not None:
                seen[_card(jp.get(jp.obj(slot, f"$.trains[{c}][{s}]"), "card", f"$.trains[{c}][{s}]"),
                           f"$.trains[{c}][{s}].card")] += 1
    for i, t in enumerate(jp.array(position["triggers"], "$.triggers")):
        seen[_card(jp.get(jp.obj(t, f"$.triggers[{i}]"), "card", f"$.triggers[{i}]"), f"$.triggers[{i}].card")] += 1
    for f in jp.array(position["filters"], "$.filters"):
        if f is not None:
            seen[_card(f, "$.filters")] += 1
    if position["stock"] is not None:
        seen[_card(position["stock"], "$.stock")] += 1
    visible = _cards(position["offer"], "$.offer") + _cards(position["discard"], "$.discard") + bottom
    for p, pile in enumerate(jp.array(position["score_piles"], "$.score_piles")):
        visible += _cards(pile, f"$.score_piles[{p}]")
    hands = list(jp.array(position["hands"], "$.hands", players))
    if viewer is not None:
        visible += _cards(hands[viewer], f"$.hands[{viewer}]")
    hidden = [p for p in range(players) if p != viewer]
    for p in hidden:
        visible += [k for k in range(8) for _ in range(known[p][k])]
    for k in visible:
        seen[k] += 1
    every = composition(game.rules.cards).totals  # the card set's composition (OSC-I-CT15)
    unseen = [every[TOKENS[k]] - seen[k] for k in range(8)]
    if any(u < 0 for u in unseen):
        raise InvalidPosition("$", "the view shows more of a card than the game has (OSC-R1)")
    slots = [(p, o) for p in hidden for o in range(3) for _ in range(origins[p][o])]
    for p in hidden:
        if sum(known[p]) + sum(origins[p]) != hand_sizes[p]:
            raise InvalidPosition(f"$.memory.hands[{p}]", f"the remembered cards must add up to the hand ({MEMORY_RULE})")
    free = pulse_size - len(bottom)
    if free < 0 or len(slots) + free + trigger_size != sum(unseen):
        raise InvalidPosition("$.sizes", "hand and deck sizes do not match the unseen cards")
    setup = {"players": players}
    others = [p for p in range(players) if p != viewer] or [0]

    def build(forced: tuple[int, int, int] | None) -> OscilloscopeState:
        """Deal the unseen cards and read the position they make."""
        dealt, pulse, trigger = _deal(unseen, slots, free, cap_p, trigger_size, cap_t, rng, forced)
        for p in hidden:
            hand = known[p][:]
            for k in dealt.get(p, []):
                hand[k] += 1
            hands[p] = counts_to_tokens(hand)
        position["hands"] = hands
        position["pulse_deck"] = [TOKENS[k] for k in pulse] + [TOKENS[k] for k in bottom]
        position["trigger_deck"] = [TOKENS[k] for k in trigger]
        in_pulse = [0] * 8
        for k in pulse:
            in_pulse[k] += 1
        in_trigger = [0] * 8
        for k in trigger:
            in_trigger[k] += 1

        def remember(st: OscilloscopeState) -> None:
            """The sample's memory: the decks' sources are what the viewer knows they may hold, and the
            cards missing from them were drawn by the other seats."""
            st.bottom_known = len(bottom)
            st.pulse_source, st.trigger_source = cap_p[:], cap_t[:]
            st.drawn_pulse = _spread([cap_p[k] - in_pulse[k] for k in range(8)], others, players)
            st.drawn_trigger = _spread([cap_t[k] - in_trigger[k] for k in range(8)], others, players)
            st.known = [k[:] for k in known]
            st.known_count = sum(sum(k) for k in known)
            st.origin = [o[:] for o in origins]
            if viewer is not None:  # the viewer's own hand is as the view shows it
                _check_hand_memory(st.hands[viewer], known[viewer], origins[viewer], viewer,
                                   f"$.memory.hands[{viewer}]")

        return read_position(game, position, 0, setup, random.Random(rng.getrandbits(64)), require_legal=False,
                             memory=remember)

    phase = position["phase"]
    decider = v.get("current_player")
    must_place = phase in ("trigger", "post", "more") and decider is not None and decider != viewer
    for _ in range(8 if must_place else 1):
        state = build(None)
        if not must_place or _can_place(state):
            return state
    # OSC-R13 (OSC-I-CT2): the phase says its decider can place; give them a trigger-capable card first.
    assert isinstance(decider, int)
    options = [(decider, o, k) for o in range(3) if origins[decider][o] for k in range(8)
               if IS_TRIGGER_CAPABLE[k] and ORIGIN_ALLOWS[o][k] and unseen[k]]
    rng.shuffle(options)
    for forced in options:
        try:
            state = build(forced)
        except InvalidPosition:
            continue
        if _can_place(state):
            return state
    raise InvalidPosition("$.phase", "no deal of the unseen cards gives the decider a legal placement (OSC-R13)")


def _can_place(state: OscilloscopeState) -> bool:
    """Whether the decider of a trigger, post or more phase holds a card with a legal placement."""
    return bool(state._placements(state.turn, stack_only=state.phase is Phase.MORE))
