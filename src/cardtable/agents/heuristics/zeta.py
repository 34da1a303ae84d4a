"""Zeta heuristic: the strategy of a casual four-in-a-row player who reads the cards.

In order of priority, for a placement ``card@square``:

1. complete four in a row (a win at once, before the Fanfare);
2. block a square where the opponent already has three of a window of four (their win next turn);
3. build: every window of four through the square that the opponent has not entered is worth more
   the more of your cards it holds (1, 4, 16, 64), and a window only the opponent holds is worth
   half as much to take away from them;
4. the card's effect, valued as a player would: a destroy effect is worth the best opponent card it
   can hit (a card in a strong opponent line is worth more), drawing cards is worth about one point
   per card, Dark Mage counts the opponent's neighbours minus your own, Burst Circle is risky.

Pending choices: destroy the opponent's most dangerous card (never your own unless forced), discard
the least useful card from hand, clear the rank or file with most opponent cards, mulligan only a
hand with nothing to open with. Passing is the last resort. Reads only the view JSON and the
legal action strings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

FILES = "abcdef"
WIN = 10_000.0
BLOCK = 1_000.0
BUILD = (1.0, 4.0, 16.0, 64.0)
"""Worth of an own window of four holding 0, 1, 2 or 3 of your cards."""
EFFECT_WEIGHT = 3.0
PASS = -3.0
LEVELS: dict[str, dict[str, object]] = {level: {"rollout_epsilon": 0.0} for level in ("easy", "normal", "hard")}
"""The search levels' calibration for Zeta (its kit's ``levels``): a short tactical game, so greedy
heuristic rollouts (a random move in a rollout is a missed block) at the default budgets."""
_WINDOW_WIN = float("inf")
"""A window's gain when it holds three of my cards and none of the opponent's: placing there wins."""

WORTH: dict[str, float] = {
    "chant_practice": 1.0, "blessing_mist": 1.0, "do_over": 1.0, "fortune_telling": 2.0, "magic_circle": 2.0,
    "magical_boost": 2.0, "fire_mage": 3.0, "ice_mage": 3.0, "apprentice_hexer": 2.0, "wind_mage": 2.0,
    "great_magic_circle": 2.0, "hexer": 2.0, "awakening_potion": 4.0, "magic_broom": 1.0, "light_mage": 3.0,
    "astrology": 3.0, "thunder_mage": 3.0, "earth_mage": 2.0, "barrier": 3.0, "blaze_sorcerer": 4.0,
    "burst_circle": 1.0, "mourning_the_dead": 1.0, "dark_mage": 3.0, "single_arrow_summon": 2.0,
    "ultimate_zero": 1.0,
}
"""How much a casual player wants to keep each card in hand (for discards)."""

DRAWS: dict[str, float] = {
    "blessing_mist": 0.3, "do_over": 0.5, "fortune_telling": 1.0, "magic_circle": 1.0, "magical_boost": 1.0,
    "great_magic_circle": 1.0, "hexer": 1.0, "earth_mage": 1.0, "barrier": 1.0, "magic_broom": 0.5,
    "mourning_the_dead": 0.5,
}
"""Flat worth of effects that gain cards or tempo without a target."""

OPENERS = ("chant_practice", "blessing_mist", "do_over")

Square = tuple[int, int]


@lru_cache(maxsize=8)
def _windows(width: int, height: int) -> tuple[tuple[Square, ...], ...]:
    """Every window of four consecutive squares in the four directions."""
    out = []
    for f in range(width):
        for r in range(height):
            for df, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = tuple((f + i * df, r + i * dr) for i in range(4))
                if all(0 <= x < width and 0 <= y < height for x, y in cells):
                    out.append(cells)
    return tuple(out)


@lru_cache(maxsize=8)
def _through(width: int, height: int) -> dict[Square, tuple[int, ...]]:
    """For each square, the indices of the windows that contain it."""
    out: dict[Square, list[int]] = {}
    for i, cells in enumerate(_windows(width, height)):
        for c in cells:
            out.setdefault(c, []).append(i)
    return {sq: tuple(v) for sq, v in out.items()}


_LABELS: dict[str, Square] = {f"{FILES[f]}{r + 1}": (f, r) for f in range(len(FILES)) for r in range(6)}


def _square(label: str) -> Square | None:
    return _LABELS.get(label)


class _Board:
    """The view's board as owners by square, with window statistics for one seat."""

    def __init__(self, view: Mapping[str, Any], action_squares: Sequence[Square]) -> None:
        me = view.get("current_player")
        self.me = me if isinstance(me, int) else 0
        self.owner: dict[Square, int] = {}
        self.card: dict[Square, str] = {}
        labels = _LABELS
        for label, entry in (view.get("board") or {}).items():
            sq = labels.get(label)
            if sq is not None:
                self.owner[sq] = int(entry["owner"])
                self.card[sq] = str(entry["card"])
        self.blocked = {sq for sq in map(labels.get, view.get("blocked") or []) if sq is not None}
        # the board size (4 or 6 each way) is whatever the squares in sight need
        width = height = 4
        for f, r in (*self.owner, *self.blocked, *set(action_squares)):
            if f >= width:
                width = 6
            if r >= height:
                height = 6
        self.width, self.height = width, height
        self.windows = _windows(width, height)
        self.window_ids = _through(width, height)
        count = len(self.windows)
        mine = [0] * count
        theirs = [0] * count
        dead = [False] * count
        ids = self.window_ids
        for sq, seat in self.owner.items():
            side = mine if seat == self.me else theirs
            for i in ids.get(sq, ()):
                side[i] += 1
        for sq in self.blocked:
            for i in ids.get(sq, ()):
                dead[i] = True
        self.stats = list(zip(mine, theirs, dead, strict=True))
        # what each window adds to the worth of placing on one of its empty squares (``place_value``);
        # the parts are small integers and halves, so their sums are exact in any order
        build = BUILD
        self.gain = [0.0 if d else (_WINDOW_WIN if m >= 3 else build[m]) if t == 0
                     else (BLOCK if t == 3 else build[t] / 2) if m == 0 else 0.0
                     for m, t, d in self.stats]
        self._danger: dict[Square, float] = {}

    def _windows_at(self, sq: Square) -> list[tuple[int, int, bool]]:
        stats = self.stats
        return [stats[i] for i in self.window_ids.get(sq, ())]

    def place_value(self, sq: Square) -> float:
        """Worth of putting one of my cards on ``sq`` (win, block, build)."""
        current = self.owner.get(sq)
        if current is None:  # an empty square: the windows' gains, precomputed
            gain = self.gain
            value = sum([gain[i] for i in self.window_ids.get(sq, ())])
            return WIN if value >= _WINDOW_WIN else value
        if current == self.me:
            return 0.0  # covering my own card (Wind Mage) changes no line
        value = 0.0
        for mine, theirs, dead in self._windows_at(sq):
            if dead:
                continue
            if current is not None:
                theirs -= 1  # the card I cover (never happens for normal placements)
            if theirs == 0:
                if mine == 3:
                    return WIN
                value += BUILD[mine]
            elif mine == 0:
                value += BLOCK if theirs == 3 else BUILD[theirs] / 2
        return value

    def danger(self, sq: Square) -> float:
        """How much the card on ``sq`` helps its owner's lines (the worth of destroying it)."""
        owner = self.owner.get(sq)
        if owner is None:
            return 0.0
        cached = self._danger.get(sq)
        if cached is not None:
            return cached
        value = 1.0 + WORTH.get(self.card.get(sq, ""), 1.0) / 2
        for mine, theirs, dead in self._windows_at(sq):
            if dead:
                continue
            own, other = (mine, theirs) if owner == self.me else (theirs, mine)
            if other == 0:
                value += BUILD[min(own, 3)] * (3.0 if own >= 3 else 1.0)
        self._danger[sq] = value
        return value

    def destroy_value(self, sq: Square) -> float:
        """Worth to me of destroying the card on ``sq`` (negative for my own cards)."""
        if sq not in self.owner:
            return 0.0
        return self.danger(sq) if self.owner[sq] != self.me else -self.danger(sq)

    def best_destroy(self, squares: Sequence[Square]) -> float:
        """The best destroy among ``squares`` (optional effects: never below zero)."""
        best = 0.0
        for s in squares:
            value = self.destroy_value(s)
            if value > best:
                best = value
        return best

    def neighbours(self, sq: Square, steps: tuple[tuple[int, int], ...]) -> tuple[Square, ...]:
        """On-board neighbours of ``sq`` in the given directions."""
        return _neighbours(sq, steps, self.width, self.height)

    def count(self, seat: int) -> int:
        """Cards of ``seat`` on the board."""
        return sum(1 for o in self.owner.values() if o == seat)


VERTICAL = ((0, 1), (0, -1))
HORIZONTAL = ((1, 0), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ORTHOGONAL = VERTICAL + HORIZONTAL
AROUND = VERTICAL + HORIZONTAL + DIAGONAL


@lru_cache(maxsize=4096)
def _neighbours(sq: Square, steps: tuple[tuple[int, int], ...], width: int, height: int) -> tuple[Square, ...]:
    """On-board neighbours of ``sq`` in the given directions (made once per square, directions and size)."""
    f, r = sq
    return tuple((f + df, r + dr) for df, dr in steps if 0 <= f + df < width and 0 <= r + dr < height)


def _effect(board: _Board, card: str, sq: Square, view: Mapping[str, Any]) -> float:
    """Worth of the card's effect when placed on ``sq``."""
    me, opp = board.me, 1 - board.me
    hands = view.get("hand_sizes") or [0, 0]
    if card in DRAWS:
        return DRAWS[card]
    if card == "fire_mage":
        return board.best_destroy(board.neighbours(sq, VERTICAL))
    if card == "ice_mage":
        return board.best_destroy(board.neighbours(sq, HORIZONTAL))
    if card == "light_mage":
        return board.best_destroy(board.neighbours(sq, DIAGONAL))
    if card == "blaze_sorcerer":
        return board.best_destroy(board.neighbours(sq, AROUND))
    if card == "astrology":
        cf, cr = board.width // 2, board.height // 2
        return board.best_destroy([(cf - 1, cr - 1), (cf, cr - 1), (cf - 1, cr), (cf, cr)])
    if card == "thunder_mage":
        if board.count(me) < board.count(opp):
            return board.best_destroy(list(board.owner))
        return 0.0
    if card == "dark_mage":
        return sum(board.destroy_value(s) for s in board.neighbours(sq, ORTHOGONAL))
    if card == "awakening_potion":
        return 2.0 + 0.7 * min(2, int(hands[opp]))
    if card == "apprentice_hexer":
        return 1.0 if int(hands[opp]) >= 4 else 0.0
    if card == "wind_mage":
        return 1.0  # the covered card returns to hand
    if card == "ultimate_zero":
        return 0.5 * (int(hands[opp]) - (int(hands[me]) - 1))
    if card == "burst_circle":
        return -1.0
    return 0.0


def _line_value(board: _Board, text: str) -> float:
    kind, _, label = text.partition(":")
    if kind == "rank" and label.isdigit():
        squares = [(f, int(label) - 1) for f in range(board.width)]
    elif kind == "file" and label and label in FILES:
        squares = [(FILES.index(label), r) for r in range(board.height)]
    else:
        return 0.0
    return sum(board.destroy_value(s) for s in squares)


PLACE, TARGET, DESTROY, LINE, MULLIGAN, PASS_KIND, OTHER = range(7)
BY_SQUARE = frozenset({"fire_mage", "ice_mage", "light_mage", "blaze_sorcerer", "dark_mage"})
"""Cards whose effect depends on the square they go to."""


@lru_cache(maxsize=4096)
def _parse(text: str) -> tuple[int, str, Square | None, Any]:
    """An action string as (kind, card or argument, square, the key of a placement's effect)."""
    if "@" in text:
        card, _, label = text.partition("@")
        sq = _square(label)
        return PLACE, card, sq, (card, sq) if card in BY_SQUARE else card
    if text.startswith("target:"):
        return TARGET, "", _square(text[len("target:"):]), None
    if text.startswith("destroy:"):
        return DESTROY, text[len("destroy:"):], None, None
    if text.startswith(("rank:", "file:")):
        return LINE, text, None, None
    if text == "mulligan":
        return MULLIGAN, "", None, None
    if text == "pass":
        return PASS_KIND, "", None, None
    return OTHER, "", None, None


def score_actions(view: Mapping[str, Any], actions: Sequence[str]) -> list[float]:
    """Score each legal Zeta action string from the view alone (higher is better)."""
    parsed = [_parse(t) for t in actions]
    board = _Board(view, [p[2] for p in parsed if p[2] is not None])
    scores: list[float] = []
    square_cache: dict[Square, float] = {}
    card_cache: dict[Any, float] = {}
    for (kind, arg, sq, key), text in zip(parsed, actions, strict=True):
        if kind == PLACE:
            if sq is None:
                scores.append(0.0)
                continue
            value = square_cache.get(sq)
            if value is None:
                value = square_cache[sq] = board.place_value(sq)
            if value >= WIN:
                scores.append(value)
                continue
            effect = card_cache.get(key)
            if effect is None:
                # the effect, plus a small tie-breaker: spend the cards you care least about
                effect = card_cache[key] = EFFECT_WEIGHT * _effect(board, arg, sq, view) - 0.1 * WORTH.get(arg, 1.0)
            scores.append(value + effect)
        elif kind == TARGET:
            scores.append(board.destroy_value(sq) if sq is not None else 0.0)
        elif kind == DESTROY:
            scores.append(-WORTH.get(arg, 1.0))
        elif kind == LINE:
            scores.append(_line_value(board, text))
        elif kind == MULLIGAN:
            hand = (view.get("hands") or [None, None])[board.me] or []
            scores.append(1.0 if not any(c in OPENERS for c in hand) else -1.0)
        elif kind == PASS_KIND:
            scores.append(PASS)
        else:  # decline, keep
            scores.append(0.0)
    return scores
