"""Tally's kit: everything a fourth game brings, in one registration, and nothing edited in the package.

Its engine and heuristic come from ``toy_game``; its observation encoding is below. Every other
facet is left empty, so each front end shows its generic fallback: the terminal and the browser
draw the view as data, the lab reads no per-item facts, printing says there are no cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from toy_game import VALUES, Play

from cardtable.core import Action
from cardtable.core.registry import GameKit

KIT = GameKit(
    name="tally",
    game="toy_game:TallyGame",
    rule_prefix="TALLY",
    heuristic="toy_game:tally_heuristic",
    encoding="tally_kit",
)
"""Tally's one registration."""

MAX_TALLY = 40
"""The largest tally the observation scales (a target above it still plays; the tally saturates)."""


def index_actions(rules: Any) -> tuple[Action, ...]:
    """Every action Tally can offer: play one of the six values."""
    return tuple(Play(v) for v in VALUES)


def observation_layout(rules: Any) -> tuple[tuple[str, int], ...]:
    """The observation's blocks: the seat's hand by value, the tally and the target (scaled), the deck left."""
    return (("hand", len(VALUES)), ("tally", 1), ("target", 1), ("deck", 1))


def observation_shape(rules: Any) -> tuple[int, ...]:
    """One flat vector."""
    return (sum(n for _, n in observation_layout(rules)),)


def encode_view(rules: Any, view: Mapping[str, Any]) -> npt.NDArray[np.float32]:
    """A seat's view as a vector in [0, 1]."""
    out = np.zeros(observation_shape(rules), dtype=np.float32)
    for value in view.get("hand") or ():
        out[value - 1] += 1 / 3
    out[6] = min(view["total"], MAX_TALLY) / MAX_TALLY
    out[7] = min(view["target"], MAX_TALLY) / MAX_TALLY
    out[8] = view["deck_size"] / 18
    return out
