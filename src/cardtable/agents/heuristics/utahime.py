"""Utahime heuristic: how a casual player duels.

Every card played face up scores, so a card in hand is worth about a point later, a little more if
it is high (it blocks and is hard to block) or an Ace with a power. The player:

* **attacks** with the card whose expected gain is best: the chance the attack gets through (higher
  numbers are harder to block; hearts can only be blocked by clubs and spades only by diamonds;
  ♥A, ♠A and ♦NEXT cannot be blocked) times what its success does (♠ strips a card from the
  opponent's hand, ♥/♣ draw one, ♦ hands them a point for a card), plus the number's small effect,
  minus half the card's worth: low cards are spent first, strong ones kept;
* **blocks when the attack is worth more than the card**: a block scores a point and stops the
  effect, so block with the cheapest legal card when ``1 + effect > worth(card)``;
* reacts with ♣A/♦A whenever it can, sets J/Q/K early, takes a cosmic card when offered, strips the
  opponent's best card, wishes for the strongest card; passes (losing a point), the joker (unless the
  hand is nearly empty) and NEXT declarations only when nothing better is left.

Reads only the view JSON and the legal action strings. ``evaluate`` scores an unfinished position
for truncated search rollouts: the score difference plus a third of the hand difference.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}
SUCCESS = {"H": 0.8, "C": 0.8, "S": 1.0, "D": 0.1}
"""What an attack's success is worth to the attacker, by suit (♥/♣ draw, ♠ strips, ♦ gives them a point)."""
LEVELS: dict[str, dict[str, object]] = {
    level: {"iterations": n, "max_rollout_actions": 20} for level, n in (("easy", 50), ("normal", 150), ("hard", 400))}
"""The search levels' calibration for Utahime (its kit's ``levels``): a long game (about 120-170
actions), so smaller budgets and rollouts of 20 actions, then :func:`evaluate`."""


def _card(text: str) -> tuple[str, int]:
    """Suit letter and number of a card token (``H7``, ``~SK``, ``C7+``)."""
    token = text.lstrip("~").rstrip("+")
    if len(token) < 2 or token[0] not in "HSCD" or token[1:] not in RANKS:
        return "", 0
    return token[0], RANKS[token[1:]]


def worth(text: str) -> float:
    """How much a casual player values holding this card."""
    suit, rank = _card(text)
    if not suit:
        return 1.0
    if rank == 1:
        return 1.8  # ♥A/♠A cannot be blocked, ♣A/♦A cancel effects
    return 1.0 + rank / 13


def _attack_value(card: str, is_next: bool, bans: str) -> float:
    """Expected gain of attacking with ``card`` (before its worth is subtracted)."""
    suit, rank = _card(card)
    if not suit:
        return 0.0
    unblockable = (rank == 1 and suit in "HS") or (is_next and suit == "D")
    if unblockable:
        chance = 1.0
    else:
        chance = min(0.95, rank / 14 + (0.2 if suit in "HS" else 0.0))
    effect = SUCCESS[suit] if not (rank == 1 and suit == "S") else 0.1
    value = chance * effect
    if 2 <= rank <= 4:
        value += 0.3
    elif 5 <= rank <= 7:
        value += 0.2
    elif 8 <= rank <= 10:
        value += 0.1
    if is_next:
        value -= 0.3
    return value + 0.05 * len(bans)


def _threat(attack: Mapping[str, Any] | None) -> float:
    """What the pending attack would do to the defender if it got through."""
    if not attack or not attack.get("card"):
        return 0.5
    suit, rank = _card(str(attack["card"]))
    if not suit:
        return 0.5
    if suit == "S":
        return 0.2 if rank == 1 else 1.0
    return 0.2 if suit == "D" else 0.8


def score_actions(view: Mapping[str, Any], actions: Sequence[str]) -> list[float]:
    """Score each legal Utahime action string from the view alone (higher is better)."""
    me = view.get("current_player")
    seat = me if isinstance(me, int) else 0
    players = view.get("players") or [{}, {}]
    mine = players[seat] if seat < len(players) else {}
    hand_count = int(mine.get("hand_count") or 0)
    threat = _threat(view.get("attack"))
    scores: list[float] = []
    for text in actions:
        words = text.split()
        verb = words[0] if words else ""
        arg = words[1] if len(words) > 1 else ""
        if verb == "attack":
            bans = words[words.index("ban") + 1] if "ban" in words and words.index("ban") + 1 < len(words) else ""
            scores.append(1.0 + _attack_value(arg, "next" in words, bans) - 0.5 * worth(arg))
        elif verb == "block":
            scores.append(1.0 + threat - worth(arg))
        elif verb == "noblock":
            scores.append(0.0)
        elif verb == "react":
            scores.append(1.5)
        elif verb == "set":
            scores.append(2.0)
        elif verb == "cosmic":
            scores.append(1.0)
        elif verb in ("take", "pick", "wish"):
            scores.append(-1.0 if arg == "none" else worth(arg))
        elif verb == "draw":
            scores.append(float(arg) if arg.isdigit() else 0.0)
        elif verb == "pass":
            scores.append(-1.5)
        elif verb == "joker":
            scores.append(1.2 if hand_count <= 3 else -0.8)
        elif verb == "stall":
            scores.append(-2.0)
        elif verb == "heartnext":
            scores.append(-0.3)
        elif verb in ("option", "hero"):
            scores.append(0.5)
        elif verb == "choose":
            scores.append(-0.1 if arg == "none" else 0.0)
        elif verb == "flip":
            scores.append(-0.5)
        else:  # end, noreact, nocosmic, suit
            scores.append(0.0)
    return scores


def evaluate(view: Mapping[str, Any]) -> list[float]:
    """Each seat's prospects in [-1, 1] from the public scores and hand sizes (for truncated rollouts)."""
    scores = [float(s) for s in view.get("scores") or [0, 0]]
    players = view.get("players") or [{}, {}]
    hands = [float(p.get("hand_count") or 0) for p in players]
    diff = (scores[0] - scores[1]) + (hands[0] - hands[1]) / 3
    value = math.tanh(diff / 6)
    return [value, -value]
