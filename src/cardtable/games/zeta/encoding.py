"""Zeta's fixed action index and the observation tensor of a seat's view (for learning and research tools).

The **action index** numbers every action Zeta can ever offer under its rules, once, in this order
(``K`` = 25 card types in card-table order, ``S`` = the board's squares a1, b1, ... in the notation's
order, ``W`` x ``H`` the board):

| indexes | actions | rule |
|---|---|---|
| ``k * S + s`` | ``CARD@SQUARE``: card type ``k`` on square ``s`` | ZETA-R14, R45, R57 |
| ``K * S`` | ``pass`` | ZETA-R13 |
| next ``S`` | ``target:SQUARE`` | ZETA-R30 |
| next ``K`` | ``destroy:CARD`` | ZETA-R38, R39 |
| next ``H`` | ``rank:1`` ... | ZETA-R59 |
| next ``W`` | ``file:a`` ... | ZETA-R59 |
| last three | ``decline``, ``mulligan``, ``keep`` | ZETA-R30, R11 |

so the standard 6x6 board has 25 x 36 + 1 + 36 + 25 + 6 + 6 + 3 = 977 actions.

>>> from cardtable import load_game
>>> game = load_game("zeta")
>>> game.num_distinct_actions, str(game.action_from_index(0)), str(game.action_from_index(900))
(977, 'chant_practice@a1', 'pass')

The **observation** of a view is a flat ``float32`` vector in [0, 1], seen from the viewer's side
("own" is the viewer, "opp" the other seat; a spectator's view is seen from seat 0's side). Counts are
divided by ``deck_size``, so they fit whatever deck is played; ``observation_layout(rules)`` names its
segments in order. The view is what a seat may know (ZETA-R3) and remembers (``known_hands``,
ZETA-I-CT6), so the tensor never holds a hidden card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from cardtable.core import Action
from cardtable.core.actions import DECLINE, PASS
from cardtable.core.encoding import layout_offsets

from .actions import DESTROY, KEEP, MULLIGAN, action_table
from .board import FILES, geometry
from .cards import CARDS, NUM_TYPES
from .game import ZetaGame
from .rules import ZetaRules
from .state import step_sequence
from .vocab import PHASE_NAMES

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

EFFECTS = ("negate_fanfares", "only_cost_zero", "broom", "apprentice_check")
"""The duration records of ``view["effects"]`` (ZETA-R34), in the tensor's order."""
EFFECT_AHEAD = 3
"""A duration record is in force this turn, next turn or the one after (the Broom's, ZETA-R49)."""
FRAMES = 2
"""Placements the tensor shows of the resolution stack, innermost first (Mourning's placement sits on its Mourning)."""
OUTCOMES = ("own_wins", "opp_wins", "draw")
CARD_INDEX = {c.id: c.index for c in CARDS}


def _rules(rules: Any) -> ZetaRules:
    if not isinstance(rules, ZetaRules):
        raise TypeError(f"expected ZetaRules, got {rules!r}")
    return rules


@lru_cache(maxsize=16)
def index_actions(rules: ZetaRules) -> tuple[Action, ...]:
    """Every action Zeta can offer under ``rules``, in index order (see the module's table)."""
    table = action_table(rules.board_width, rules.board_height)
    return (*[a for row in table.place for a in row], PASS, *table.target, *DESTROY, *table.ranks, *table.files,
            DECLINE, MULLIGAN, KEEP)


@lru_cache(maxsize=16)
def observation_layout(rules: ZetaRules) -> tuple[tuple[str, int], ...]:
    """The observation's segments in order: (name, length)."""
    r = _rules(rules)
    k, s = NUM_TYPES, r.board_width * r.board_height
    frame = (("seat_own", 1), ("card", k), ("square", s), ("top_level", 1), ("step", len(step_sequence(r)) + 1),
             ("covered", k), ("vacancy", 1))
    return (
        ("board_own", k * s), ("board_opp", k * s), ("blocked", s), ("marker_own", s), ("marker_opp", s),
        ("ever_destroyed_own", s), ("ever_destroyed_opp", s),
        ("hand_own", k), ("known_own", k), ("known_opp", k), ("hand_sizes", 2), ("deck_sizes", 2),
        ("destroyed_own", k), ("destroyed_opp", k), ("destroyed_from_board", 2), ("removed_own", k),
        ("removed_opp", k), ("decklist_own", k), ("decklist_opp", k), ("set_aside", k),
        ("effects", len(EFFECTS) * 2 * EFFECT_AHEAD), ("phase", len(PHASE_NAMES)), ("to_move", 1),
        ("active_own", 1), ("first_own", 1), ("turn", 1), ("mulligan_left", 2),
        ("pending_source", k), ("pending_square", s), ("pending_targets", s), ("pending_drawn", k),
        ("pending_lines", r.board_height + r.board_width), ("resolution_depth", FRAMES + 1),
        *((f"frame{i}_{name}", n) for i in range(FRAMES) for name, n in frame),
        ("outcome", len(OUTCOMES)),
    )


@lru_cache(maxsize=16)
def _offsets(rules: ZetaRules) -> dict[str, int]:
    return layout_offsets(observation_layout(rules))


def observation_shape(rules: ZetaRules) -> tuple[int, ...]:
    """The shape of every observation under ``rules``: one flat vector."""
    return (_offsets(_rules(rules))[""],)


def encode_view(rules: ZetaRules, view: Mapping[str, Any]) -> npt.NDArray[np.float32]:
    """The observation tensor of ``view`` (a dict from ``state.view(seat)``), see ``observation_layout``."""
    import numpy as np

    r = _rules(rules)
    at = _offsets(r)
    geo = geometry(r.board_width, r.board_height)
    square, size, scale = geo.index, geo.size, 1.0 / r.deck_size
    me = view["viewer"] if view["viewer"] is not None else 0
    opp = 1 - me
    hot: dict[int, float] = {}  # index -> value; what is not here is 0

    def counts(name: str, cards: Sequence[str] | None) -> None:
        base = at[name]
        for c in cards or ():
            i = base + CARD_INDEX[c]
            hot[i] = hot.get(i, 0.0) + scale

    own_board, opp_board = at["board_own"], at["board_opp"]
    for sq, cell in view["board"].items():
        hot[(own_board if cell["owner"] == me else opp_board) + CARD_INDEX[cell["card"]] * size + square[sq]] = 1.0
    base = at["blocked"]
    for sq in view["blocked"]:
        hot[base + square[sq]] = 1.0
    own_marker, opp_marker = at["marker_own"], at["marker_opp"]
    for sq, owner in view["markers"].items():
        hot[(own_marker if owner == me else opp_marker) + square[sq]] = 1.0
    for p, name in ((me, "ever_destroyed_own"), (opp, "ever_destroyed_opp")):
        base = at[name]
        for sq in view["ever_destroyed"][p]:
            hot[base + square[sq]] = 1.0
    counts("hand_own", view["hands"][me])
    counts("known_own", view["known_hands"][me])
    counts("known_opp", view["known_hands"][opp])
    for i, p in enumerate((me, opp)):
        hot[at["hand_sizes"] + i] = view["hand_sizes"][p] * scale
        hot[at["deck_sizes"] + i] = view["deck_sizes"][p] * scale
        hot[at["destroyed_from_board"] + i] = view["destroyed_from_board"][p] * scale
    counts("destroyed_own", view["destroyed"][me])
    counts("destroyed_opp", view["destroyed"][opp])
    counts("removed_own", view["removed"][me])
    counts("removed_opp", view["removed"][opp])
    counts("decklist_own", view["decklists"][me])
    counts("decklist_opp", view["decklists"][opp])
    if view["set_aside"] is not None:
        hot[at["set_aside"] + CARD_INDEX[view["set_aside"]]] = 1.0
    turn = view["turn"]
    base = at["effects"]
    for e, key in enumerate(EFFECTS):
        for i, p in enumerate((me, opp)):
            record = view["effects"][key][p]
            if record and 0 <= record - turn < EFFECT_AHEAD:
                hot[base + (e * 2 + i) * EFFECT_AHEAD + record - turn] = 1.0
    hot[at["phase"] + PHASE_NAMES.index(view["phase"])] = 1.0
    if view["current_player"] is not None and view["current_player"] == view["viewer"]:
        hot[at["to_move"]] = 1.0
    if view["active"] == me:
        hot[at["active_own"]] = 1.0
    if view["first_player"] == me:
        hot[at["first_own"]] = 1.0
    hot[at["turn"]] = min(1.0, turn / ZetaGame.termination_bound)
    for i, p in enumerate((me, opp)):
        if p in view["mulligan_left"]:
            hot[at["mulligan_left"] + i] = 1.0
    pending = view["pending"]
    if pending:
        hot[at["pending_source"] + CARD_INDEX[pending["source"]]] = 1.0
        hot[at["pending_square"] + square[pending["square"]]] = 1.0
        for sq in pending.get("targets") or ():
            hot[at["pending_targets"] + square[sq]] = 1.0
        for c in pending.get("drawn") or ():
            i = at["pending_drawn"] + CARD_INDEX[c]
            hot[i] = hot.get(i, 0.0) + 0.5  # two drawn cards of one type add up to 1
        for line in pending.get("lines") or ():
            kind, _, label = line.partition(":")
            offset = int(label) - 1 if kind == "rank" else r.board_height + FILES.index(label)
            hot[at["pending_lines"] + offset] = 1.0
    frames = view["resolution"]
    hot[at["resolution_depth"] + min(len(frames), FRAMES)] = 1.0
    for i, f in enumerate(reversed(frames[-FRAMES:])):
        pre = f"frame{i}_"
        if f["seat"] == me:
            hot[at[pre + "seat_own"]] = 1.0
        hot[at[pre + "card"] + CARD_INDEX[f["card"]]] = 1.0
        hot[at[pre + "square"] + square[f["square"]]] = 1.0
        if f["top_level"]:
            hot[at[pre + "top_level"]] = 1.0
        hot[at[pre + "step"] + f["step"]] = 1.0
        if f["covered"] is not None:
            hot[at[pre + "covered"] + CARD_INDEX[f["covered"]]] = 1.0
        if f["vacancy"]:
            hot[at[pre + "vacancy"]] = 1.0
    outcome = view["outcome"]
    if outcome is not None:
        winners = outcome["winners"]
        hot[at["outcome"] + (2 if not winners else (0 if me in winners else 1))] = 1.0
    out = np.zeros(at[""], dtype=np.float32)
    out[list(hot)] = list(hot.values())
    return out
