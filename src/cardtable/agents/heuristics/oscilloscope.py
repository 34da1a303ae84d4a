"""Oscilloscope heuristic: aim triggers at matching edges, and keep noise away.

For a trigger placement the player works out what the board would look like: which triggers stay
(an edge trigger or an off-line Low-or-Hi replaces them all, a Low-or-Hi or a Clear on the anchor
line joins them, a duplicate cancels), where each rides after the shift, and whether every one of
them would then sit on a card it matches (``T_HL`` on a falling edge, ``T_LH`` on a rising one,
``T_BOTH`` on either, ``LOH`` on a flat line; noise fools them all, ``CLEAR`` takes anything). If
it would, the capture is theirs in the main trigger set, worth the slice: one point per card and
for the kept trigger, minus 1.5 per noise not cancelled by a Clear. A slice full of noise is left
alone. A first trigger on an empty board ends the turn at once, so the capture would go to the
next player: there they aim *away* from matching edges (or at a noisy slice). In the optional
post-refill set a trigger would wait for the next player too, so they pass.

In refills they feed their train edges first, then flat cards, and noise last; they discard noise
first; they draw a trigger card when the hand holds nothing to trigger with; they choose the
train with the least noise. Reads only the view JSON and the legal action strings; ``evaluate``
turns the public scores into each seat's prospects for truncated search rollouts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

TRAINS = "ABCDEF"
EDGE_TRIGGERS = frozenset({"T_HL", "T_LH", "T_BOTH"})
TRIGGER_CAPABLE = frozenset({"T_HL", "T_LH", "T_BOTH", "LOH", "CLEAR"})
MATCHES: dict[str, frozenset[str]] = {
    "T_HL": frozenset({"HL", "NOISE"}),
    "T_LH": frozenset({"LH", "NOISE"}),
    "T_BOTH": frozenset({"HL", "LH", "NOISE"}),
    "LOH": frozenset({"LOH", "NOISE"}),
    "CLEAR": frozenset({"HL", "LH", "LOH", "NOISE"}),
}
"""Which train card satisfies each trigger (OSC-R27)."""
NOISE_COST = 1.5
REFILL = {"HL": 1.0, "LH": 1.0, "LOH": 0.6, "NOISE": 0.1}
DISCARD = {"NOISE": 1.0, "HL": 0.5, "LH": 0.5, "LOH": 0.3, "CLEAR": 0.2, "T_HL": 0.1, "T_LH": 0.1, "T_BOTH": 0.0}
LEVELS: dict[str, dict[str, object]] = {
    level: {"iterations": n, "max_rollout_actions": 40} for level, n in (("easy", 50), ("normal", 150), ("hard", 400))}
"""The search levels' calibration for Oscilloscope (its kit's ``levels``): a long game (about 120-170
actions), so smaller budgets and rollouts of 40 actions (a set or two), then :func:`evaluate`."""

Slot = tuple[int, int]
"""(train index, time position 0-4)."""


def _slot(text: str) -> Slot | None:
    if len(text) != 2 or text[0] not in TRAINS or text[1] not in "12345":
        return None
    return TRAINS.index(text[0]), int(text[1]) - 1


def _cards(trains: Sequence[Sequence[Any]]) -> list[list[str | None]]:
    """Each train as its five slots' card tokens (None for an empty slot)."""
    return [[(s or {}).get("card") if s else None for s in train] for train in trains]


def _after_shift(train: Sequence[str | None]) -> tuple[list[str | None], dict[int, int]]:
    """A train after the shift (OSC-R23/R24) and where each occupied position moved to."""
    if all(c is not None for c in train):
        moved = {i: i - 1 for i in range(1, len(train))}
        return [*train[1:], None], moved
    order = [i for i, c in enumerate(train) if c is not None]
    moved = {old: new for new, old in enumerate(order)}
    return [train[i] for i in order] + [None] * (len(train) - len(order)), moved


def _capture_value(cards: list[list[str | None]], triggers: list[tuple[str, Slot]]) -> float | None:
    """What capturing right after the shift would be worth, or None if the triggers would not capture."""
    if not triggers:
        return None
    shifted = [_after_shift(train) for train in cards]
    where = set()
    for kind, (t, pos) in triggers:
        train, moved = shifted[t]
        if pos not in moved:
            return None  # the card under it leaves the screen
        new = moved[pos]
        under = train[new]
        if under is None or under not in MATCHES.get(kind, frozenset()):
            return None
        where.add(new)
    if len(where) != 1:
        return None
    q = where.pop()
    noise = sum(1 for train, _ in shifted if train[q] == "NOISE")
    taken = sum(1 for train, _ in shifted if train[q] is not None)
    clears = sum(1 for kind, _ in triggers if kind == "CLEAR")
    kept = 1.0 if any(kind != "CLEAR" for kind, _ in triggers) else 0.0
    return (taken - noise) + kept - NOISE_COST * max(0, noise - clears) + (clears if noise else 0)


def _placed(board: list[tuple[str, Slot]], card: str, slot: Slot) -> list[tuple[str, Slot]]:
    """The board's triggers after laying ``card`` on ``slot`` (replacement, stacking, cancelling)."""
    anchor = {pos for _, (_, pos) in board}
    on_anchor = bool(board) and slot[1] in anchor
    if card in EDGE_TRIGGERS or (card == "LOH" and not on_anchor):
        if any(kind == card and where == slot for kind, where in board):
            return []  # a duplicate cancels, and the rest were replaced anyway
        return [(card, slot)]
    same = [(kind, where) for kind, where in board if where == slot]
    if same and same[0][0] == card and card == "LOH":
        return [(kind, where) for kind, where in board if where != slot]
    return [*board, (card, slot)]


def score_actions(view: Mapping[str, Any], actions: Sequence[str]) -> list[float]:
    """Score each legal Oscilloscope action string from the view alone (higher is better)."""
    me = view.get("current_player")
    seat = me if isinstance(me, int) else 0
    phase = view.get("phase")
    cards = _cards(view.get("trains") or [])
    board: list[tuple[str, Slot]] = []
    for trig in view.get("triggers") or []:
        slot = _slot(str(trig.get("at", "")))
        if slot is not None:
            board.append((str(trig.get("card")), slot))
    hands = view.get("hands") or []
    hand = hands[seat] if seat < len(hands) and hands[seat] is not None else []
    scores: list[float] = []
    for text in actions:
        words = text.split()
        verb = words[0] if words else ""
        if verb == "place" and len(words) >= 3:
            slot = _slot(words[2])
            if slot is None:
                scores.append(0.0)
                continue
            if phase == "post":
                scores.append(-0.5)  # it would wait for the next player to capture
                continue
            value = _capture_value(cards, _placed(board, words[1], slot))
            if not board and phase == "trigger":
                # a first trigger ends the turn at once (OSC-R10): the next player shifts and captures
                scores.append(0.2 if value is None else -value)
            elif value is None:
                scores.append(-0.2)
            else:
                scores.append(value if value > 0 else value - 1.0)
        elif verb == "refill" and len(words) >= 3:
            scores.append(REFILL.get(words[2], 0.5))
        elif verb == "discard" and len(words) >= 2:
            scores.append(DISCARD.get(words[1], 0.3))
        elif verb == "draw" and len(words) >= 2:
            holds_trigger = any(c in TRIGGER_CAPABLE for c in hand)
            if words[1] == "trigger":
                scores.append(0.4 if holds_trigger else 1.0)
            else:
                scores.append(0.8 if holds_trigger else 0.5)
        elif verb == "assign" and len(words) >= 2 and words[1] in TRAINS:
            t = TRAINS.index(words[1])
            train = cards[t] if t < len(cards) else []
            noise = sum(1 for c in train if c == "NOISE")
            edges = sum(1 for c in train if c in ("HL", "LH"))
            scores.append(-float(noise) + 0.2 * edges)
        elif verb == "capture":
            scores.append(1.0)
        else:  # pass, decline, keep, filters, exchange
            scores.append(0.0)
    return scores


def evaluate(view: Mapping[str, Any]) -> list[float]:
    """Each seat's prospects in [-1, 1] from the public scores (for truncated rollouts)."""
    scores = [float(s) for s in view.get("scores") or []]
    if len(scores) <= 1:
        return [math.tanh((s - 15.0) / 15.0) for s in scores]
    out = []
    for p, own in enumerate(scores):
        best_other = max(s for q, s in enumerate(scores) if q != p)
        out.append(math.tanh((own - best_other) / 4.0))
    return out
