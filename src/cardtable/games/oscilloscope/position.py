"""Reading positions (``$.position`` of the JSON) and sampling full states from a player's view.

Every check raises ``InvalidPosition(path, reason)``; the format is described by
``position.schema.json`` next to this file and in docs/games/oscilloscope.md.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from math import comb
from typing import TYPE_CHECKING, Any

from cardtable.core import InvalidPosition
from cardtable.core import jsonpos as jp

from .cards import (
    ALL_CARDS,
    CARD_BY_TOKEN,
    IS_PULSE_TYPE,
    IS_TRIGGER_CAPABLE,
    IS_TRIGGER_DECK_KIND,
    LEVEL_BY_SYMBOL,
    POSITIONS,
    TOKENS,
    TRAIN_LETTERS,
)
from .state import CLEAR, EMPTY, HL, LH, NOISE, T_BOTH, T_HL, T_LH, OscilloscopeState, Phase

if TYPE_CHECKING:
    from .game import OscilloscopeGame

POSITION_KEYS = ("players", "phase", "start_player", "turn_player", "trains", "triggers", "filters", "stock",
                 "offer", "hands", "pulse_deck", "trigger_deck", "discard", "score_piles", "kept_triggers",
                 "assigned_trains", "counters", "flags", "pending")
VIEW_ONLY_KEYS = ("viewer", "current_player", "sizes", "scores")
PHASES = {p.value: p for p in Phase}


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


def _keys(d: Mapping[str, Any], allowed: tuple[str, ...], path: str) -> None:
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
                  rng: random.Random, require_legal: bool = True) -> OscilloscopeState:
    """Build a state from ``$.position``, validating every field against the rules.

    With ``require_legal`` (always, except while sampling) a position whose decider has no legal
    action is refused.
    """
    rules = game.rules
    d = jp.obj(position, "$.position")
    _keys(d, POSITION_KEYS, "$.position")
    players = jp.integer(d["players"], "$.position.players", 1, rules.max_players)
    if players != setup["players"]:
        raise InvalidPosition("$.position.players", f"the setup says {setup['players']} players, not {players}")
    st = OscilloscopeState(game, seed, setup, rng)
    n, ntrains, solo = players, st.ntrains, st.solo
    phase = PHASES.get(jp.string(d["phase"], "$.position.phase", tuple(PHASES)))
    assert phase is not None
    st.phase = phase
    st.start_player = jp.integer(d["start_player"], "$.position.start_player", 0, n - 1)
    st.turn = jp.integer(d["turn_player"], "$.position.turn_player", 0, n - 1)

    # Trains (D1, D4): pulse-type cards with a stored out-level that fits the card.
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
            st.cards[c][s] = card
            st.levels[c][s] = int(level)

    # Board triggers (D6, OSC-R21).
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

    # Solo zones (OSC-R8, OSC-R53, OSC-R55).
    filters = jp.array(d["filters"], "$.position.filters", ntrains if solo else 0)
    for c, f in enumerate(filters):
        if f is not None:
            card = _card(f, f"$.position.filters[{c}]")
            if not IS_TRIGGER_DECK_KIND[card]:
                raise InvalidPosition(f"$.position.filters[{c}]", "filters come from the trigger deck")
            st.filters[c] = card
    if d["stock"] is not None:
        if not solo:
            raise InvalidPosition("$.position.stock", "only the solo game has an exchange stock")
        st.stock = _card(d["stock"], "$.position.stock")
    st.offer = _cards(d["offer"], "$.position.offer")
    if len(st.offer) != (3 if phase is Phase.FILTERS else 0):
        raise InvalidPosition("$.position.offer", "three cards are offered in the filters phase, none otherwise")

    # Hands, decks, piles.
    hands = jp.array(d["hands"], "$.position.hands", n)
    st.hands = [_counts(h, f"$.position.hands[{p}]") for p, h in enumerate(hands)]
    for p in range(n):
        if sum(st.hands[p]) > 3:
            raise InvalidPosition(f"$.position.hands[{p}]", "a hand holds at most 3 cards (OSC-R41)")
    st.pulse = _cards(d["pulse_deck"], "$.position.pulse_deck")[::-1]
    st.trigger_deck = _cards(d["trigger_deck"], "$.position.trigger_deck")[::-1]
    for i, k in enumerate(reversed(st.trigger_deck)):
        if not IS_TRIGGER_DECK_KIND[k]:
            raise InvalidPosition(f"$.position.trigger_deck[{i}]", f"{TOKENS[k]} never enters the trigger deck")
    st.discard = _cards(d["discard"], "$.position.discard")
    piles = jp.array(d["score_piles"], "$.position.score_piles", n)
    st.scores = [_counts(s, f"$.position.score_piles[{p}]") for p, s in enumerate(piles)]
    st.kept = _ints(d["kept_triggers"], "$.position.kept_triggers", n, 0)
    for p in range(n):
        if st.kept[p] > sum(st.scores[p][k] for k in range(8) if IS_TRIGGER_CAPABLE[k] and k != CLEAR):
            raise InvalidPosition(f"$.position.kept_triggers[{p}]", "more kept triggers than the pile holds")

    # Trains per player (OSC-R6, OSC-R52).
    assigned = jp.array(d["assigned_trains"], "$.position.assigned_trains", n)
    if solo:
        if jp.array(assigned[0], "$.position.assigned_trains[0]") != ["A", "B"]:
            raise InvalidPosition("$.position.assigned_trains[0]", "the solo player has trains A and B (OSC-R52)")
        st.assigned = [EMPTY]
    else:
        owners: set[int] = set()
        for p, a in enumerate(assigned):
            path = f"$.position.assigned_trains[{p}]"
            letters = jp.array(a, path)
            if len(letters) > 1:
                raise InvalidPosition(path, "a player has one train (OSC-R6)")
            if letters:
                train = _slot_name(f"{jp.string(letters[0], f'{path}[0]')}1", f"{path}[0]", ntrains)[0]
                if train in owners:
                    raise InvalidPosition(path, "two players hold the same train")
                owners.add(train)
                st.assigned[p] = train
        if len(owners) < n and phase is not Phase.ASSIGN:
            raise InvalidPosition("$.position.assigned_trains", "every player has a train once play starts")

    counters = jp.obj(d["counters"], "$.position.counters")
    _keys(counters, ("sets", "stall", "counted_noise"), "$.position.counters")
    st.sets = jp.integer(counters["sets"], "$.position.counters.sets", 0)
    st.stall = jp.integer(counters["stall"], "$.position.counters.stall", 0, rules.stall_limit_sets)
    st.counted_noise = jp.integer(counters["counted_noise"], "$.position.counters.counted_noise", 0, 15)
    flags = jp.obj(d["flags"], "$.position.flags")
    names = ("captured_this_set", "captured_last_set", "any_trigger_placed", "pulse_deck_mixed")
    _keys(flags, names, "$.position.flags")
    st.captured_this_set, st.captured_last_set, st.any_trigger_placed, st.pulse_mixed = (
        jp.boolean(flags[k], f"$.position.flags.{k}") for k in names)
    if not st.pulse_mixed:
        for i, k in enumerate(reversed(st.pulse)):
            if not IS_PULSE_TYPE[k]:
                raise InvalidPosition(f"$.position.pulse_deck[{i}]",
                                      f"{TOKENS[k]} in a pulse deck that was never rebuilt (pulse_deck_mixed)")

    # Card conservation (D10, §2.3).
    total: Counter[str] = Counter()
    for cards in st.zones().values():
        total.update(cards)
    if total != ALL_CARDS:
        diff = {k: total[k] - ALL_CARDS[k] for k in TOKENS if total[k] != ALL_CARDS[k]}
        raise InvalidPosition("$.position", f"the zones must hold the 110 cards of §2.3 exactly; off by {diff}")

    _read_pending(st, jp.obj(d["pending"], "$.position.pending"))
    if require_legal and st.phase is not Phase.OVER and not st.legal_actions():
        raise InvalidPosition("$.position.phase", f"no legal action in the {phase.value} phase for "
                                                  f"P{st.decider + 1}")
    return st


def _read_pending(st: OscilloscopeState, pending: Mapping[str, Any]) -> None:
    """Phase-specific data, and who decides (the contract's ``current_player``)."""
    n, phase, path = st.players, st.phase, "$.position.pending"
    solo_only = (Phase.FILTERS, Phase.EXCHANGE)
    multi_only = (Phase.ASSIGN, Phase.TRIGGER, Phase.MORE, Phase.POST)
    if (st.solo and phase in multi_only) or (not st.solo and phase in solo_only):
        raise InvalidPosition("$.position.phase", f"no {phase.value} phase in {'solo' if st.solo else 'multiplayer'}")
    if st.solo and st.turn != 0:
        raise InvalidPosition("$.position.turn_player", "the solo player is seat 0")
    if phase is Phase.MORE:
        _keys(pending, ("step", "early_end"), path)
        st.more_step = jp.integer(pending["step"], f"{path}.step", 1, 5)
        if st.more_step not in (1, 5):
            raise InvalidPosition(f"{path}.step", "the trigger sets are steps 1 and 5")
        st.more_early_end = jp.boolean(pending["early_end"], f"{path}.early_end")
        if not st.triggers:
            raise InvalidPosition("$.position.triggers", "stacking needs a trigger on the board")
    elif phase in (Phase.CAPTURE, Phase.KEEP):
        _keys(pending, ("row", "by"), path)
        st.cap_row = jp.integer(pending["row"], f"{path}.row", 1, 5) - 1
        st.cap_by = jp.integer(pending["by"], f"{path}.by", 0, n - 1)
        if st.solo and st.cap_row != 0:
            raise InvalidPosition(f"{path}.row", "solo captures time position 1 (OSC-R56)")
        if phase is Phase.CAPTURE and (st._solo_capture_row() if st.solo else st._capture_row()) != st.cap_row:
            raise InvalidPosition(f"{path}.row", "the capture condition does not hold there (OSC-R28)")
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
            raise InvalidPosition(f"{path}.index", "a top-up choice needs a hand under 3 and two decks to draw from")
    elif phase is Phase.OVER:
        _keys(pending, ("reason", "rule"), path)
        st.end_reason = jp.string(pending["reason"], f"{path}.reason")
        st.end_rule = jp.string(pending["rule"], f"{path}.rule")
    else:
        _keys(pending, (), path)
    if phase is Phase.FILTERS and (any(f != EMPTY for f in st.filters) or st.stock != EMPTY):
        raise InvalidPosition("$.position.filters", "filters are chosen from the offer in the filters phase")
    rules = st.game.rules
    if phase is Phase.CAPTURE and not rules.capture_optional:
        raise InvalidPosition("$.position.phase", "captures are compulsory under these rules (capture_optional)")
    if phase is Phase.MORE and not rules.lowhi_multi_per_set:
        raise InvalidPosition("$.position.phase", "one placement per trigger set under these rules (lowhi_multi_per_set)")
    if phase is Phase.KEEP and len(st._keepable_filters() if st.solo else st._keepable_triggers()) < 2:
        raise InvalidPosition("$.position.phase", "a keep choice needs two candidates (OSC-R30, OSC-I-CT1)")
    if phase is Phase.EXCHANGE and (st.stock == EMPTY or not st.captured_last_set):
        raise InvalidPosition("$.position.phase", "an exchange needs a stock and a capture in the last set (OSC-R55)")
    if phase is Phase.ASSIGN:
        if rules.train_assignment != "choose":
            raise InvalidPosition("$.position.phase", "trains are dealt at random under these rules")
        chosen = sum(1 for a in st.assigned if a != EMPTY)
        for i in range(n):
            if (st.assigned[(st.start_player + i) % n] != EMPTY) != (i < chosen):
                raise InvalidPosition("$.position.assigned_trains", "trains are chosen in turn order from the start player")
    st.decider = {
        Phase.ASSIGN: (st.start_player + sum(1 for a in st.assigned if a != EMPTY)) % n,
        Phase.CAPTURE: st.cap_by, Phase.KEEP: st.cap_by,
        Phase.REFILL: (st.turn + st.refill_index) % n, Phase.TOPUP: (st.turn + st.topup_index) % n,
    }.get(phase, st.turn)
    if phase is Phase.OVER:
        st.result = st._make_outcome()


# -- sampling -----------------------------------------------------------------------------------
def sample_position(game: OscilloscopeGame, view: Any, rng: random.Random) -> OscilloscopeState:
    """A full state consistent with ``view``: hidden cards are dealt with ``rng`` from the unseen ones.

    What the sample respects: the viewer's own hand and everything face up; hand and deck sizes;
    the trigger deck holds only trigger-deck kinds (it is never refilled); a pulse deck that was
    never rebuilt holds only pulse kinds. Memory of cards returned under the pulse deck at setup,
    or of a rebuilt deck's exact contents, is not modelled.
    """
    v = jp.obj(view, "$")
    for key in ("viewer", "sizes"):
        jp.get(v, key, "$")
    position = {k: jp.get(v, k, "$") for k in POSITION_KEYS}
    players = jp.integer(position["players"], "$.players", 1, game.rules.max_players)
    viewer = v["viewer"]
    if viewer is not None:
        viewer = jp.integer(viewer, "$.viewer", 0, players - 1)
    sizes = jp.obj(v["sizes"], "$.sizes")
    hand_sizes = _ints(jp.get(sizes, "hands", "$.sizes"), "$.sizes.hands", players, 0, 3)
    pulse_size = jp.integer(jp.get(sizes, "pulse_deck", "$.sizes"), "$.sizes.pulse_deck", 0, 110)
    trigger_size = jp.integer(jp.get(sizes, "trigger_deck", "$.sizes"), "$.sizes.trigger_deck", 0, 40)
    flags = jp.obj(position["flags"], "$.flags")
    mixed = jp.boolean(jp.get(flags, "pulse_deck_mixed", "$.flags"), "$.flags.pulse_deck_mixed")

    seen: Counter[int] = Counter()
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
    seen.update(_cards(position["offer"], "$.offer"))
    seen.update(_cards(position["discard"], "$.discard"))
    for p, pile in enumerate(jp.array(position["score_piles"], "$.score_piles")):
        seen.update(_cards(pile, f"$.score_piles[{p}]"))
    hands = list(jp.array(position["hands"], "$.hands", players))
    if viewer is not None:
        seen.update(_cards(hands[viewer], f"$.hands[{viewer}]"))
    unseen: list[int] = []
    for k in range(8):
        missing = ALL_CARDS[TOKENS[k]] - seen[k]
        if missing < 0:
            raise InvalidPosition("$", f"the view shows more {TOKENS[k]} than the game has")
        unseen.extend([k] * missing)
    hidden = [p for p in range(players) if p != viewer]
    need = sum(hand_sizes[p] for p in hidden)
    if need + pulse_size + trigger_size != len(unseen):
        raise InvalidPosition("$.sizes", "hand and deck sizes do not match the unseen cards")
    setup = {"players": players}

    def build(forced: list[int]) -> OscilloscopeState:
        """Deal the unseen cards (``forced`` ones first into the first hidden hand) and read the position."""
        pool = unseen[:]
        for k in forced:
            pool.remove(k)
        dealt, pulse, trigger = _deal_unseen(pool, need - len(forced), pulse_size, trigger_size, mixed, rng)
        dealt = forced + dealt
        at = 0
        for p in hidden:
            hands[p] = [TOKENS[k] for k in sorted(dealt[at:at + hand_sizes[p]])]
            at += hand_sizes[p]
        position["hands"] = hands
        position["pulse_deck"] = [TOKENS[k] for k in pulse]
        position["trigger_deck"] = [TOKENS[k] for k in trigger]
        return read_position(game, position, 0, setup, random.Random(rng.getrandbits(64)), require_legal=False)

    # The phase is public: a trigger phase means its decider holds a card with a legal target (OSC-R13).
    hidden.sort(key=lambda p: p != position["turn_player"])
    for _ in range(64):
        state = build([])
        if state.phase is Phase.OVER or state.legal_actions():
            return state
    candidates = sorted({k for k in unseen if IS_TRIGGER_CAPABLE[k]}, key=lambda k: rng.random())
    for k in candidates:
        try:
            state = build([k])
        except InvalidPosition:
            continue
        if state.legal_actions():
            return state
    raise InvalidPosition("$.phase", "no deal of the unseen cards gives the decider a legal action")


def _deal_unseen(unseen: list[int], hand_cards: int, pulse_size: int, trigger_size: int, mixed: bool,
                 rng: random.Random) -> tuple[list[int], list[int], list[int]]:
    """Split the unseen cards into hidden hands, pulse deck and trigger deck, uniformly among the
    deals that respect what each deck can hold (the trigger deck: trigger-deck kinds; an unmixed
    pulse deck: pulse kinds)."""
    must_trigger_kinds = () if mixed else (CLEAR, T_HL, T_LH, T_BOTH)
    must_pulse = [k for k in unseen if k in (HL, LH, NOISE)]  # never in the trigger deck
    must_trigger = [k for k in unseen if k in must_trigger_kinds]  # never in an unmixed pulse deck
    free = [k for k in unseen if k not in (HL, LH, NOISE) and k not in must_trigger_kinds]
    a, b, f = len(must_pulse), len(must_trigger), len(free)
    options: list[tuple[int, int, int]] = []
    weights: list[int] = []
    for x in range(max(0, a - pulse_size), min(a, hand_cards) + 1):  # pulse-only cards in hands
        for y in range(max(0, b - trigger_size), min(b, hand_cards - x) + 1):  # trigger-only in hands
            z = hand_cards - x - y
            if z > f:
                continue
            options.append((x, y, z))
            weights.append(comb(a, x) * comb(b, y) * comb(f, z) * comb(f - z, pulse_size - a + x))
    if not options:
        raise InvalidPosition("$.sizes", "no deal of the unseen cards fits the decks")
    pick = rng.randrange(sum(weights))
    chosen = 0
    while pick >= weights[chosen]:
        pick -= weights[chosen]
        chosen += 1
    x, y, z = options[chosen]
    rng.shuffle(must_pulse)
    rng.shuffle(must_trigger)
    rng.shuffle(free)
    hands = must_pulse[:x] + must_trigger[:y] + free[:z]
    fill = pulse_size - a + x
    pulse = must_pulse[x:] + free[z:z + fill]
    trigger = must_trigger[y:] + free[z + fill:]
    for cards in (hands, pulse, trigger):
        rng.shuffle(cards)
    return hands, pulse, trigger
