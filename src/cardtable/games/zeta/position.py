"""Zeta positions: the position JSON reader and sampling from a view.

- :func:`read_position` reads ``$.position`` (:mod:`cardtable.games.zeta.view` writes it); it checks
  every field and every rule that a reachable position obeys, and names the broken rule in the
  ``InvalidPosition`` reason.
- :func:`sample_position` deals the cards a view does not show, never contradicting it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from cardtable.core import InvalidPosition, Outcome
from cardtable.core import jsonpos as jp
from cardtable.core.rng import shuffle

from .actions import ChooseLine
from .cards import (
    ARROW,
    ASTROLOGY,
    BLAZE,
    CARD_BY_ID,
    CARDS,
    DO_OVER,
    FIRE,
    FORTUNE,
    ICE,
    LIGHT,
    MOURNING,
    NUM_TYPES,
    THUNDER,
)
from .cardset import card_numbers
from .state import ZetaState
from .vocab import (
    CHOOSE_FORTUNE,
    CHOOSE_HAND,
    CHOOSE_LINE,
    CHOOSE_MOURN,
    CHOOSE_TARGET,
    EFFECT_KEYS,
    F_CARD,
    F_COVERED,
    F_POS,
    F_SEAT,
    F_SQUARE,
    F_TOP,
    FANFARE,
    MAIN,
    MULLIGAN_PHASE,
    NO_KNOWN,
    OVER,
    PHASE_BY_NAME,
    PHASE_NAMES,
    ZERO_COST,
    EndReason,
    Phase,
)

if TYPE_CHECKING:
    from .game import ZetaGame

PENDING_SOURCES: dict[Phase, tuple[int, ...]] = {
    CHOOSE_HAND: (DO_OVER,), CHOOSE_FORTUNE: (FORTUNE,), CHOOSE_MOURN: (MOURNING,), CHOOSE_LINE: (ARROW,),
    CHOOSE_TARGET: (FIRE, ICE, LIGHT, ASTROLOGY, THUNDER, BLAZE),
}
"""The cards whose Fanfare opens each pending phase."""
PHASE_RULES: dict[Phase, str] = {CHOOSE_HAND: "ZETA-R38", CHOOSE_FORTUNE: "ZETA-R39", CHOOSE_TARGET: "ZETA-R30",
                                 CHOOSE_MOURN: "ZETA-R57", CHOOSE_LINE: "ZETA-R59"}
END_RULES: dict[str, str] = {EndReason.FOUR_IN_A_ROW: "ZETA-R20", EndReason.BOARD_FULL: "ZETA-R22",
                             EndReason.BOARD_FULL_TIE: "ZETA-R22", EndReason.DECK_OUT: "ZETA-R23",
                             EndReason.EMPTY_DECK_DRAW: "ZETA-R23"}


CARD_INDEX: dict[str, int] = {c.id: c.index for c in CARDS}
"""Card id to type index (the reader's fast path)."""


# ---------------------------------------------------------------------------------------- reading
def read_position(game: ZetaGame, position: Any, seed: int, setup: dict[str, Any], rng: random.Random, path: str,
                  check: bool = True) -> ZetaState:  # noqa: C901 - one validation pass over the fields
    """Read ``$.position`` (validating every field); ``check=False`` skips the whole-position checks."""
    geo = game.geometry
    d = jp.obj(position, path)

    def card_id(value: Any, where: str) -> int:
        if type(value) is str:
            index = CARD_INDEX.get(value)
            if index is not None:
                return index
        jp.string(value, where)
        found = CARD_BY_ID.get(value)
        if found is None:
            raise InvalidPosition(where, f"unknown card id {value!r}")
        return found.index

    def square(value: Any, where: str) -> int:
        jp.string(value, where)
        s = geo.index.get(value)
        if s is None:
            raise InvalidPosition(where, f"no square {value!r} on a {geo.width}x{geo.height} board")
        return s

    def card_list(value: Any, where: str) -> list[int]:
        return [card_id(v, f"{where}[{i}]") for i, v in enumerate(jp.array(value, where))]

    def pair(key: str) -> list[Any]:
        return jp.array(jp.get(d, key, path), f"{path}.{key}", 2)

    decklists = [card_list(v, f"{path}.decklists[{i}]") for i, v in enumerate(pair("decklists"))]
    state = ZetaState(game, seed, setup, rng, decklists)
    state.turn = jp.integer(jp.get(d, "turn", path), f"{path}.turn", 1, 10_000)
    state.first = jp.integer(jp.get(d, "first_player", path), f"{path}.first_player", 0, 1)
    state.active = jp.integer(jp.get(d, "active", path), f"{path}.active", 0, 1)
    if state.active != active_on(state, state.turn):
        raise InvalidPosition(f"{path}.active", "the first player (first_player) moves on odd turns, the other seat "
                                                "on even turns (ZETA-R5)")
    state.phase = PHASE_BY_NAME.get(jp.string(jp.get(d, "phase", path), f"{path}.phase", PHASE_BY_NAME), MAIN)
    state.decider = jp.integer(jp.get(d, "decider", path), f"{path}.decider", 0, 1)
    for name, entry in jp.obj(jp.get(d, "board", path), f"{path}.board").items():
        where = f"{path}.board.{name}"
        s = square(name, where)
        e = jp.obj(entry, where)
        c = card_id(jp.get(e, "card", where), f"{where}.card")
        o = jp.integer(jp.get(e, "owner", where), f"{where}.owner", 0, 1)
        state.owner[s] = o
        state.card[s] = c
        state.occ[o] |= 1 << s
        state.tmask[c] |= 1 << s
    for i, name in enumerate(jp.array(jp.get(d, "blocked", path), f"{path}.blocked")):
        s = square(name, f"{path}.blocked[{i}]")
        if state.card[s] >= 0:
            raise InvalidPosition(f"{path}.blocked[{i}]", f"{name} holds a card; a blocked square holds none (ZETA-R50)")
        state.blocked |= 1 << s
    for name, seat in jp.obj(jp.get(d, "markers", path), f"{path}.markers").items():
        s = square(name, f"{path}.markers")
        if state.card[s] >= 0 or state.blocked >> s & 1:
            raise InvalidPosition(f"{path}.markers.{name}", "destruction markers lie only on empty, unblocked squares "
                                                            "(ZETA-R25, ZETA-I-CT5)")
        state.marks[jp.integer(seat, f"{path}.markers.{name}", 0, 1)] |= 1 << s
    for p, squares in enumerate(pair("ever_destroyed")):
        for i, name in enumerate(jp.array(squares, f"{path}.ever_destroyed[{p}]")):
            state.ever[p] |= 1 << square(name, f"{path}.ever_destroyed[{p}][{i}]")
    for p, hand in enumerate(pair("hands")):
        for c in card_list(hand, f"{path}.hands[{p}]"):
            state.hands[p][c] += 1
            state.hand_size[p] += 1
            state.held[p] |= 1 << c
    known = d.get("known_hands", [[], []])
    for p, cards in enumerate(jp.array(known, f"{path}.known_hands", 2)):
        counts = [0] * NUM_TYPES
        for c in card_list(cards, f"{path}.known_hands[{p}]"):
            counts[c] += 1
            if counts[c] > state.hands[p][c]:
                raise InvalidPosition(f"{path}.known_hands[{p}]", f"{CARDS[c].id} is remembered in seat {p}'s hand "
                                                                  "more often than the hand holds it (ZETA-I-CT6)")
            state.known_mask |= 1 << (p * NUM_TYPES + c)
        state._set_known(p, tuple(counts) if any(counts) else NO_KNOWN)
    state.decks = [card_list(v, f"{path}.decks[{i}]") for i, v in enumerate(pair("decks"))]
    state.destroyed = [card_list(v, f"{path}.destroyed[{i}]") for i, v in enumerate(pair("destroyed"))]
    state.removed = [card_list(v, f"{path}.removed[{i}]") for i, v in enumerate(pair("removed"))]
    state.destroyed_board = [jp.integer(v, f"{path}.destroyed_from_board[{i}]", 0)
                             for i, v in enumerate(pair("destroyed_from_board"))]
    for p in (0, 1):
        if state.destroyed_board[p] > len(state.destroyed[p]):
            raise InvalidPosition(f"{path}.destroyed_from_board[{p}]", "more cards destroyed on the board than in the "
                                                                       "Destroyed pile (ZETA-R27)")
    aside = d.get("set_aside")
    state.set_aside = -1 if aside is None else card_id(aside, f"{path}.set_aside")
    effects = jp.obj(jp.get(d, "effects", path), f"{path}.effects")
    for key, attr, _ in EFFECT_KEYS:
        values = jp.array(jp.get(effects, key, f"{path}.effects"), f"{path}.effects.{key}", 2)
        setattr(state, attr, [jp.integer(v, f"{path}.effects.{key}[{i}]", 0) for i, v in enumerate(values)])
    frames = []
    for i, f in enumerate(jp.array(jp.get(d, "resolution", path), f"{path}.resolution")):
        where = f"{path}.resolution[{i}]"
        fo = jp.obj(f, where)
        covered = fo.get("covered")
        frames.append([
            jp.integer(jp.get(fo, "seat", where), f"{where}.seat", 0, 1),
            card_id(jp.get(fo, "card", where), f"{where}.card"),
            square(jp.get(fo, "square", where), f"{where}.square"),
            int(jp.boolean(jp.get(fo, "top_level", where), f"{where}.top_level")),
            jp.integer(jp.get(fo, "step", where), f"{where}.step", 0, len(game.steps)),
            -1 if covered is None else card_id(covered, f"{where}.covered"),
            int(jp.boolean(jp.get(fo, "vacancy", where), f"{where}.vacancy")),
        ])
    state.frames = frames
    state.mulligan_left = [jp.integer(v, f"{path}.mulligan_left[{i}]", 0, 1)
                           for i, v in enumerate(jp.array(jp.get(d, "mulligan_left", path), f"{path}.mulligan_left"))]
    outcome = d.get("outcome")
    if outcome is not None:
        state.result = Outcome.from_json(outcome, f"{path}.outcome")
        if any(w > 1 for w in state.result.winners):
            raise InvalidPosition(f"{path}.outcome.winners", "Zeta's seats are 0 and 1")
    for key, values in (("hand_sizes", state.hand_size), ("deck_sizes", [len(x) for x in state.decks])):
        given = d.get(key)
        if given is not None and given != values:
            raise InvalidPosition(f"{path}.{key}", f"expected {values} to match the cards listed, got {given!r}")
    state.pending = _read_pending(game, d.get("pending"), state, f"{path}.pending", card_id, square)
    if check:
        check_position(state, path)
    return state


def active_on(state: ZetaState, turn: int) -> int:
    """The seat whose turn ``turn`` is (ZETA-R5: the first player takes the odd turns)."""
    return state.first if turn % 2 else 1 - state.first


def _read_pending(game: ZetaGame, value: Any, state: ZetaState, path: str, card_id: Callable[[Any, str], int],
                  square: Callable[[Any, str], int]) -> dict[str, Any]:
    phase = state.phase
    needs = phase not in (MAIN, MULLIGAN_PHASE, OVER)
    if value is None:
        if needs:
            raise InvalidPosition(path, f"phase {PHASE_NAMES[phase]} needs a pending decision")
        return {}
    if not needs:
        raise InvalidPosition(path, "no decision is pending in this phase")
    p = jp.obj(value, path)
    out: dict[str, Any] = {"source": card_id(jp.get(p, "source", path), f"{path}.source"),
                           "square": square(jp.get(p, "square", path), f"{path}.square")}
    if out["source"] not in PENDING_SOURCES[phase]:
        raise InvalidPosition(f"{path}.source", f"phase {PHASE_NAMES[phase]} is opened only by "
                                                f"{', '.join(CARDS[c].id for c in PENDING_SOURCES[phase])} "
                                                f"({PHASE_RULES[phase]})")
    if phase == CHOOSE_TARGET:
        mask = 0
        for i, name in enumerate(jp.array(jp.get(p, "targets", path), f"{path}.targets")):
            mask |= 1 << square(name, f"{path}.targets[{i}]")
        if not mask:
            raise InvalidPosition(f"{path}.targets", "a pending target choice needs at least one target (ZETA-R30)")
        if mask & ~state._destroyable(mask, state.decider, targeted=True):
            raise InvalidPosition(f"{path}.targets", "every target must hold a card the effect may destroy "
                                                     "(no empty squares, no barriers; ZETA-R26, ZETA-R30)")
        out["mask"] = mask
    elif phase == CHOOSE_FORTUNE:
        drawn = jp.array(jp.get(p, "drawn", path), f"{path}.drawn")
        most = card_numbers(game.rules.cards).fortune_draw if game.rules.cards else 2  # a card set's count (ZETA-I-CT7)
        if not 2 <= len(drawn) <= most:
            raise InvalidPosition(f"{path}.drawn", f"Fortune-Telling asks about 2 to {most} drawn cards (ZETA-R39); "
                                                   f"got {len(drawn)}")
        out["drawn"] = sorted(card_id(v, f"{path}.drawn[{i}]") for i, v in enumerate(drawn))
        for c in out["drawn"]:
            if state.hands[state.decider][c] < out["drawn"].count(c):
                raise InvalidPosition(f"{path}.drawn", "the drawn cards must be in the decider's hand (ZETA-R39)")
    elif phase == CHOOSE_LINE:
        lines = []
        for i, text in enumerate(jp.array(jp.get(p, "lines", path), f"{path}.lines")):
            act = game.table.by_text.get(jp.string(text, f"{path}.lines[{i}]"))
            if not isinstance(act, ChooseLine):
                raise InvalidPosition(f"{path}.lines[{i}]", "expected rank:N or file:X")
            lines.append((act.kind, act.index))
        if not lines or any(line not in state._full_lines() for line in lines):
            raise InvalidPosition(f"{path}.lines", "a pending line choice lists full ranks or files only (ZETA-R59)")
        out["lines"] = lines
    return out


def _fail(path: str, reason: str) -> InvalidPosition:
    return InvalidPosition(path, reason)


def check_position(state: ZetaState, path: str) -> None:  # noqa: C901 - one check per rule, in order
    """What every reachable position obeys; the first broken rule raises ``InvalidPosition`` naming it."""
    seen: Counter[str] = Counter()
    for cards in state.zones().values():
        seen.update(cards)
    if seen != state.expected_cards():
        missing = state.expected_cards() - seen
        extra = seen - state.expected_cards()
        raise _fail(path, f"cards do not add up to the decklists (missing {dict(missing)}, extra {dict(extra)}): "
                          "every card must be in exactly one zone (ZETA-R2)")
    for p in (0, 1):
        if state.marks[p] & ~state.ever[p]:
            raise _fail(f"{path}.markers", f"a destruction marker of seat {p} lies where none of its cards was ever "
                                           "destroyed (ZETA-R25)")
    phase = state.phase
    over = state.result is not None
    # A Wind Mage's resolution never waits for a decision, so between actions a card is set aside only
    # when the game ended during it (a full board or an empty-deck draw before its Fanfare).
    if not over and (state.set_aside >= 0 or any(f[F_COVERED] >= 0 for f in state.frames)):
        raise _fail(f"{path}.set_aside", "a card is set aside only while a Wind Mage resolves, and no decision "
                                         "is ever pending then (ZETA-R45)")
    if not over and phase == OVER:
        raise _fail(f"{path}.phase", "phase 'over' needs an outcome (ZETA-R24)")
    if over and phase != OVER:
        raise _fail(f"{path}.outcome", "a finished game has phase 'over' (ZETA-R24)")
    _check_effects(state, path)
    if phase == MAIN:
        if state.decider != state.active:
            raise _fail(f"{path}.decider", "in the main phase the active player decides (ZETA-R12)")
        if state.frames:
            raise _fail(f"{path}.resolution", "placements resolve completely before the next main action (ZETA-R18)")
    elif phase == MULLIGAN_PHASE:
        _check_mulligan(state, path)
    elif phase == OVER:
        _check_outcome(state, path)
    else:
        _check_pending(state, path)


def _check_effects(state: ZetaState, path: str) -> None:
    """ZETA-R34: a duration record is for a turn of its seat, created at most ``ahead`` turns before it."""
    for key, attr, ahead in EFFECT_KEYS:
        for p, t in enumerate(getattr(state, attr)):
            if not t:
                continue
            if active_on(state, t) != p:
                raise _fail(f"{path}.effects.{key}[{p}]", f"turn {t} is not a turn of seat {p}: a record applies to "
                                                          "its seat's own turn (ZETA-R34)")
            if t > state.turn + ahead:
                raise _fail(f"{path}.effects.{key}[{p}]", f"turn {t} is more than {ahead} turn(s) after turn "
                                                          f"{state.turn}: no effect reaches that far (ZETA-R34)")


def _check_mulligan(state: ZetaState, path: str) -> None:
    """ZETA-R11: the mulligan comes before turn 1, first player first, with the opening hands (R9, R10)."""
    rules = state.rules
    if rules.mulligan == "none":
        raise _fail(f"{path}.phase", "there is no mulligan under mulligan=none (ZETA-R11)")
    order = [state.first, 1 - state.first]
    if not state.mulligan_left or state.mulligan_left != order[len(order) - len(state.mulligan_left):]:
        raise _fail(f"{path}.mulligan_left", "the seats still to decide the mulligan are the first player, then "
                                             "the other seat (ZETA-R11)")
    if state.mulligan_left[0] != state.decider:
        raise _fail(f"{path}.mulligan_left", "the decider must be the next seat to decide the mulligan (ZETA-R11)")
    if state.turn != 1 or state.occ[0] | state.occ[1] or any(state.destroyed) or any(state.removed) or state.frames:
        raise _fail(f"{path}.phase", "the mulligan is decided before turn 1 begins: turn 1, nothing placed or "
                                     "destroyed yet (ZETA-R11)")
    for seat, size in ((state.first, 3), (1 - state.first, 4 if rules.second_player_extra_card else 3)):
        if state.hand_size[seat] != size:
            raise _fail(f"{path}.hands[{seat}]", f"at the mulligan seat {seat} holds its opening hand of {size} cards "
                                                 "(ZETA-R9, ZETA-R10)")


def has_four(state: ZetaState, seat: int) -> bool:
    """True if ``seat`` has four (or, per ``overline_wins``, more) in a row anywhere (ZETA-R20)."""
    own = state.occ[seat]
    if state.rules.overline_wins:
        return any(own & w == w for w in state.geo.windows)
    return any(own & w == w and not own & ext for w, ext in state.geo.window_pairs)


def _check_outcome(state: ZetaState, path: str) -> None:
    """The outcome agrees with the board and decks (ZETA-R20, R22, R23, R24)."""
    out = state.result
    assert out is not None
    where = f"{path}.outcome"
    rule = END_RULES.get(out.reason)
    if rule is None:
        raise _fail(f"{where}.reason", f"expected one of {', '.join(END_RULES)}; got {out.reason!r} (ZETA-R24)")
    if out.rule != rule:
        raise _fail(f"{where}.rule", f"a {out.reason} end is by {rule}, not {out.rule!r} ({rule})")
    tie = out.reason == EndReason.BOARD_FULL_TIE
    if len(out.winners) != (0 if tie else 1):
        raise _fail(f"{where}.winners", f"a {out.reason} end has {'no winner' if tie else 'one winner'} ({rule})")
    filled = state.occ[0] | state.occ[1]
    if state.rules.blocked_counts_as_filled:
        filled |= state.blocked
    counts = (state.occ[0].bit_count(), state.occ[1].bit_count())
    if out.reason == EndReason.FOUR_IN_A_ROW:
        winner = out.winners[0]
        if not has_four(state, winner):
            raise _fail(f"{where}.winners", f"seat {winner} has no four in a row on the board (ZETA-R20)")
    elif out.reason in (EndReason.BOARD_FULL, EndReason.BOARD_FULL_TIE):
        if filled != state.geo.all:
            raise _fail(f"{where}.reason", "the board is not full (ZETA-R22)")
        if out.reason == EndReason.BOARD_FULL and counts[out.winners[0]] <= counts[1 - out.winners[0]]:
            raise _fail(f"{where}.winners", f"the winner of a full board has more cards on it ({counts[0]} to "
                                            f"{counts[1]}; ZETA-R22)")
        if out.reason == EndReason.BOARD_FULL_TIE and counts[0] != counts[1]:
            raise _fail(f"{where}.reason", f"a tie needs equal counts, not {counts[0]} to {counts[1]} (ZETA-R22)")
    else:
        loser = 1 - out.winners[0]
        if state.decks[loser]:
            raise _fail(f"{where}.winners", f"seat {loser} lost by an empty deck but its deck holds "
                                            f"{len(state.decks[loser])} cards (ZETA-R23)")
        if out.reason == EndReason.DECK_OUT and loser != state.active:
            raise _fail(f"{where}.winners", "a deck-out is the active seat's, at the start of its turn (ZETA-R23)")


def _check_pending(state: ZetaState, path: str) -> None:  # noqa: C901 - one check per phase precondition
    """A decision inside an effect: its placement is resolving, its card's owner decides, and it has options."""
    phase = state.phase
    pending = state.pending
    frames = state.frames
    where = f"{path}.resolution"
    fanfare_pos = state.steps.index(FANFARE) + 1
    if not frames or len(frames) > 2:
        raise _fail(where, "a decision inside an effect pauses its placement's resolution: one placement, or a "
                           "Mourning the Dead and its placement (ZETA-R18)")
    top = frames[-1]
    if top[F_CARD] != pending["source"] or top[F_SQUARE] != pending["square"] or top[F_POS] != fanfare_pos:
        raise _fail(where, "the pending decision belongs to the Fanfare of the placement on top of the resolution "
                           "(ZETA-R18)")
    if len(frames) == 2:
        low = frames[0]
        if low[F_CARD] != MOURNING or low[F_POS] != fanfare_pos or not low[F_TOP] or top[F_TOP]:
            raise _fail(where, "only Mourning the Dead's Fanfare places a card inside a placement (ZETA-R57)")
    elif not top[F_TOP]:
        raise _fail(where, "a placement outside Mourning the Dead is a top-level placement (ZETA-R18)")
    if any(f[F_SEAT] != state.active for f in frames):
        raise _fail(where, "only the active seat places cards (ZETA-R12)")
    if state.decider != top[F_SEAT]:
        raise _fail(f"{path}.decider", "the owner of the card whose effect it is decides (ZETA-R30)")
    seat = state.decider
    source = pending["source"]
    if phase == CHOOSE_HAND:
        held = state.held[seat]
        if not held & (held - 1):
            raise _fail(f"{path}.hands[{seat}]", "Do-Over asks only when the hand holds two or more card types "
                                                 "(ZETA-I-CT4)")
    elif phase == CHOOSE_FORTUNE:
        if len(set(pending["drawn"])) < 2:
            raise _fail(f"{path}.pending.drawn", "two cards of one type resolve by themselves: Fortune-Telling asks "
                                                 "only about two different cards (ZETA-I-CT4)")
    elif phase == CHOOSE_TARGET:
        s = pending["square"]
        geo = state.geo
        reach = {FIRE: geo.vertical[s], ICE: geo.horizontal[s], LIGHT: geo.d4[s], ASTROLOGY: geo.center,
                 THUNDER: geo.all, BLAZE: geo.n8[s]}[source]
        expected = state._destroyable(reach, seat, targeted=True)
        if pending["mask"] != expected:
            names = [geo.names[q] for q in geo.squares(expected)]
            raise _fail(f"{path}.pending.targets", f"{CARDS[source].id} on {geo.names[s]} may destroy exactly "
                                                   f"{', '.join(names) or 'nothing'} ({CARDS[source].rule})")
        if source == THUNDER:
            mine = state.occ[seat] & ~(1 << s) if state.card[s] == THUNDER and state.owner[s] == seat \
                else state.occ[seat]
            if mine.bit_count() >= state.occ[1 - seat].bit_count():
                raise _fail(f"{path}.pending", "Thunder Mage destroys only with fewer own cards on the board "
                                               "(ZETA-R52)")
    elif phase == CHOOSE_MOURN:
        if state.mourning_count(seat) < 5:
            raise _fail(f"{path}.destroyed[{seat}]", "Mourning the Dead asks only with 5 or more destroyed cards "
                                                     "(ZETA-R57)")
        if not state._can_mourn(seat):
            raise _fail(f"{path}.hands[{seat}]", "Mourning the Dead asks only with a cost-0 card in hand and an empty "
                                                 "square (ZETA-R57)")
    elif phase == CHOOSE_LINE:
        full = state._full_lines()
        if sorted(pending["lines"]) != sorted(full):
            raise _fail(f"{path}.pending.lines", "a pending line choice lists every full rank and file (ZETA-R59)")
        if len(full) < 2:
            raise _fail(f"{path}.pending.lines", "a single full line resolves by itself (ZETA-I-CT4)")


# ---------------------------------------------------------------------------------------- sampling
SAMPLE_TRIES = 1000
"""Deals tried for a hidden hand that a pending decision constrains, before giving up."""


def sample_position(game: ZetaGame, view: Mapping[str, Any], rng: random.Random) -> ZetaState:
    """A full state consistent with ``view``: the unseen cards of each seat dealt at random.

    A hidden hand holds the cards remembered in it (``known_hands``, ZETA-I-CT6) plus random unseen
    cards; when it is the hand of a pending decision's decider, the deal also satisfies what that
    decision shows (Do-Over: two card types; Fortune-Telling: two different drawn cards; Mourning
    the Dead: a cost-0 card).
    """
    return ZetaSampler(game, view)(rng)


class ZetaSampler:
    """Deals determinisations of one view: the view is read once, each call deals the unseen cards anew.

    A search samples thousands of states from one view, so the public part is read (through the
    position reader) once, into a template; a call clones the template and deals each seat's unseen
    cards into its hand and deck, drawing from ``rng`` exactly as a fresh read would.
    """

    def __init__(self, game: ZetaGame, view: Mapping[str, Any]) -> None:
        self.game = game
        self.view = view
        decider = view["current_player"]
        if decider is None:
            decider = view["active"]
        self.decider = int(decider)
        self.phase = PHASE_BY_NAME.get(str(view["phase"]), MAIN)
        pending = view.get("pending")
        self.pending: dict[str, Any] | None = dict(pending) if pending else None
        # per seat: the shown hand (None when hidden), the remembered cards, the hidden hand's size and
        # the unseen cards (sorted by id, the order a fresh read shuffles)
        self.shown: list[list[str] | None] = []
        self.known: list[list[str]] = []
        self.sizes: list[int] = []
        self.pools: list[list[str]] = []
        for seat in (0, 1):
            unseen = Counter(view["decklists"][seat])
            for entry in view["board"].values():
                if entry["owner"] == seat:
                    unseen[entry["card"]] -= 1
            unseen.subtract(view["destroyed"][seat])
            unseen.subtract(view["removed"][seat])
            if view["set_aside"] is not None and seat == _set_aside_seat(view):
                unseen[view["set_aside"]] -= 1
            shown = view["hands"][seat]
            known: list[str] = []
            size = 0
            if shown is not None:
                unseen.subtract(shown)
            else:
                known = list(view["known_hands"][seat])
                unseen.subtract(known)
                size = view["hand_sizes"][seat] - len(known)
            self.shown.append(None if shown is None else list(shown))
            self.known.append(known)
            self.sizes.append(size)
            self.pools.append(sorted(unseen.elements()))
        # the fast path deals into a template; a deal that must fit a hidden decider's pending decision
        # (ZETA-I-CT4, R57) or fill in hidden drawn cards is read afresh each time
        self.fast = not (self.pending is not None and "drawn" in self.pending and self.pending["drawn"] is None) \
            and not (self.shown[self.decider] is None and self.phase in (CHOOSE_HAND, CHOOSE_FORTUNE, CHOOSE_MOURN))
        self.template: ZetaState | None = None
        # the fast path's ints: each seat's unseen cards, and its hidden hand's remembered part (counts, mask)
        self.ints: list[list[int]] = [[CARD_INDEX[c] for c in self.pools[seat]] for seat in (0, 1)]
        self.known_counts: list[list[int]] = []
        self.known_held: list[int] = []
        for seat in (0, 1):
            counts = [0] * NUM_TYPES
            held = 0
            for c in self.known[seat]:
                counts[CARD_INDEX[c]] += 1
                held |= 1 << CARD_INDEX[c]
            self.known_counts.append(counts)
            self.known_held.append(held)

    def __call__(self, rng: random.Random) -> ZetaState:
        """One determinisation, drawn with ``rng``."""
        template = self.template
        if template is None:
            state = self._read(rng)
            if self.fast:
                self.template = state.clone()
            return state
        state = template.clone()
        for seat in (0, 1):
            pool = list(self.ints[seat])
            shuffle(pool, rng)
            if self.shown[seat] is not None:
                state.decks[seat] = pool
                continue
            size = self.sizes[seat]
            counts = list(self.known_counts[seat])
            held = self.known_held[seat]
            for c in pool[:size]:
                counts[c] += 1
                held |= 1 << c
            state.hands[seat] = counts
            state.held[seat] = held
            state.decks[seat] = pool[size:]
        state.rng = random.Random(rng.getrandbits(64))
        return state

    def _read(self, rng: random.Random) -> ZetaState:
        """A determinisation read through the position reader (the first one, and every one off the fast path)."""
        view = self.view
        pos: dict[str, Any] = {k: view[k] for k in (
            "turn", "first_player", "active", "phase", "board", "blocked", "markers", "ever_destroyed",
            "known_hands", "destroyed", "destroyed_from_board", "removed", "set_aside", "effects", "resolution",
            "mulligan_left", "decklists", "outcome")}
        pos["decider"] = self.decider
        hands: list[list[str]] = [[], []]
        decks: list[list[str]] = [[], []]
        for seat in (0, 1):
            shown = self.shown[seat]
            if shown is not None:
                pool = list(self.pools[seat])
                shuffle(pool, rng)
                hands[seat], decks[seat] = list(shown), pool
                continue
            known = self.known[seat]
            size = self.sizes[seat]
            for _ in range(SAMPLE_TRIES):
                pool = list(self.pools[seat])
                shuffle(pool, rng)
                hand = known + pool[:size]
                if seat != self.decider or _deal_fits(self.phase, hand, self.game.rules.cards):
                    break
            hands[seat], decks[seat] = hand, pool[size:]
        pending = dict(self.pending) if self.pending is not None else None
        if pending is not None and "drawn" in pending and pending["drawn"] is None:
            kinds = sorted(set(hands[self.decider]), key=lambda c: CARD_BY_ID[c].index)
            shuffle(kinds, rng)
            count = card_numbers(self.game.rules.cards).fortune_draw if self.game.rules.cards else 2
            pending["drawn"] = _fortune_drawn(hands[self.decider], kinds, count, rng)
        pos["hands"] = hands
        pos["decks"] = decks
        pos["pending"] = pending
        setup = dict(view["setup"])
        # The sampled cards add up by construction: skip the whole-position checks (searches call this a lot).
        return read_position(self.game, pos, 0, setup, random.Random(rng.getrandbits(64)), "$view", check=False)


def _fortune_drawn(hand: list[str], kinds: list[str], count: int, rng: random.Random) -> list[str]:
    """Fortune-Telling's hidden drawn cards in a dealt hand: two of its kinds, then more of the hand up to ``count``."""
    drawn = kinds[:2]
    if count > 2:  # a card set's count (ZETA-I-CT7)
        rest = list(hand)
        for c in drawn:
            rest.remove(c)
        shuffle(rest, rng)
        drawn += rest[:count - 2]
    return drawn


def _set_aside_seat(view: Mapping[str, Any]) -> int:
    """The owner of the set-aside card: the seat of the covering frame, else the active seat (ZETA-R45)."""
    for f in view["resolution"]:
        if f["covered"] is not None:
            return int(f["seat"])
    return int(view["active"])


def _deal_fits(phase: Phase, hand: list[str], cards: str = "") -> bool:
    """Whether a dealt hand of the decider can be the hand its pending decision shows (ZETA-I-CT4, R57)."""
    if phase in (CHOOSE_HAND, CHOOSE_FORTUNE):
        return len(set(hand)) >= 2
    if phase == CHOOSE_MOURN:
        zero = card_numbers(cards).zero_cost if cards else ZERO_COST  # a card set's cost-0 cards (ZETA-I-CT7)
        return any(CARD_BY_ID[c].index in zero for c in hand)
    return True
