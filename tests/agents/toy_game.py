"""Tally: a tiny hidden-information card game for fast agent tests (2-4 players).

Deck: cards 1..6, three copies each. Each player holds three hidden cards. On a turn, play one
card onto the public pile (the tally rises by its value), then draw one if the deck has any.
Reaching the target exactly wins; going over it loses (every other seat wins); if every hand
runs out first, the game is drawn.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from cardtable.core import Action, Game, InvalidAction, Outcome, RulesBase, State, flag, registry
from cardtable.core.registry import GameKit

VALUES = range(1, 7)
COPIES = 3
HAND = 3


@dataclass(frozen=True, kw_only=True)
class TallyRules(RulesBase):
    """Tally's rules: only the target varies."""

    GAME: ClassVar[str] = "tally"
    target: int = flag(15, doc="the tally that wins when reached exactly")


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card of this value."""

    value: int

    def __str__(self) -> str:
        return f"play {self.value}"


class TallyState(State):
    """A Tally position."""

    def __init__(self, game: TallyGame, seed: int, setup: dict[str, Any], rng: random.Random,
                 hands: list[list[int]], deck: list[int], pile: list[int], to_move: int) -> None:
        self.game = game
        self.seed = seed
        self.setup = setup
        self.rng = rng
        self.history = []
        self.hands = hands
        self.deck = deck
        self.pile = pile
        self.to_move = to_move

    @property
    def target(self) -> int:
        return int(self.game.rules.target)  # type: ignore[attr-defined]

    @property
    def current_player(self) -> int | None:
        return None if self.outcome() is not None else self.to_move

    @property
    def num_players(self) -> int:
        return len(self.hands)

    def legal_actions(self) -> Sequence[Action]:
        if self.outcome() is not None:
            return []
        return [Play(v) for v in sorted(set(self.hands[self.to_move]))]

    def _illegality(self, action: Action) -> tuple[str, str] | None:
        if not isinstance(action, Play) or action.value not in self.hands[self.to_move]:
            return ("TALLY-1", f"seat {self.to_move} holds no {action}")
        return None

    def _apply(self, action: Action) -> None:
        assert isinstance(action, Play)
        self.hands[self.to_move].remove(action.value)
        self.pile.append(action.value)
        self._emit("played", {"player": self.to_move, "value": action.value, "total": sum(self.pile)})
        if self.deck:
            drawn = self.deck.pop()
            self.hands[self.to_move].append(drawn)
            self._emit("drew", None, {"value": drawn}, (self.to_move,))
        if sum(self.pile) < self.target:
            self.to_move = (self.to_move + 1) % self.num_players

    def outcome(self) -> Outcome | None:
        total = sum(self.pile)
        last = self.to_move
        if total == self.target:
            return Outcome((last,), "exact", "TALLY-2")
        if total > self.target:
            return Outcome(tuple(p for p in range(self.num_players) if p != last), "bust", "TALLY-3")
        if not any(self.hands):
            return Outcome((), "exhausted", "TALLY-4")
        return None

    def view(self, player: int | None) -> dict[str, Any]:
        return {
            "viewer": player,
            "current_player": self.current_player,
            "target": self.target,
            "pile": list(self.pile),
            "total": sum(self.pile),
            "hand": sorted(self.hands[player]) if player is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "deck_size": len(self.deck),
            "to_move": self.to_move,
        }

    def _position_json(self) -> dict[str, Any]:
        return {"hands": [list(h) for h in self.hands], "deck": list(self.deck), "pile": list(self.pile),
                "to_move": self.to_move}

    def clone(self) -> TallyState:
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        out = TallyState(self.game, self.seed, dict(self.setup), rng, [list(h) for h in self.hands],
                         list(self.deck), list(self.pile), self.to_move)
        out.history = list(self.history)
        if self._events is not None:
            out._events = list(self.events)
        return out

    def zones(self) -> dict[str, list[str]]:
        out = {f"hand{p}": [str(c) for c in h] for p, h in enumerate(self.hands)}
        out["deck"] = [str(c) for c in self.deck]
        out["pile"] = [str(c) for c in self.pile]
        return out

    def expected_cards(self) -> Counter[str]:
        return Counter({str(v): COPIES for v in VALUES})

    def summary(self) -> str:
        return f"tally {sum(self.pile)}/{self.target}, seat {self.to_move} to move"


class TallyGame(Game[TallyRules]):
    """Tally: reach the target exactly."""

    name = "tally"
    title = "Tally"
    Rules = TallyRules
    min_players = 2
    max_players = 4
    termination_bound = 18

    def normalize_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        extra = set(setup) - {"players"}
        if extra:
            raise ValueError(f"tally takes only the setup option players; got {', '.join(sorted(extra))}")
        players = setup.get("players", 2)
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
        return {"players": players}

    def num_players_for(self, setup: Mapping[str, Any]) -> int:
        return int(setup.get("players", 2))

    def _new_state(self, seed: int, setup: dict[str, Any], rng: random.Random) -> State:
        deck = [v for v in VALUES for _ in range(COPIES)]
        rng.shuffle(deck)
        n = setup["players"]
        hands = [[deck.pop() for _ in range(HAND)] for _ in range(n)]
        return TallyState(self, seed, setup, rng, hands, deck, [], 0)

    def parse_action(self, text: str) -> Action:
        word, _, value = text.partition(" ")
        if word != "play" or not value.isdigit() or int(value) not in VALUES:
            raise InvalidAction(text, "expected 'play N' with N from 1 to 6", game=self.name)
        return Play(int(value))

    def _state_from_json(self, position: Any, seed: int, setup: dict[str, Any], rng: random.Random) -> State:
        return TallyState(self, seed, setup, rng, [list(h) for h in position["hands"]], list(position["deck"]),
                          list(position["pile"]), int(position["to_move"]))

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> State:
        viewer = view["viewer"]
        unseen = Counter({v: COPIES for v in VALUES})
        unseen.subtract(Counter(view["pile"]))
        own = list(view["hand"]) if viewer is not None else []
        unseen.subtract(Counter(own))
        pool = list(unseen.elements())
        rng.shuffle(pool)
        hands: list[list[int]] = []
        for p, size in enumerate(view["hand_sizes"]):
            if p == viewer:
                hands.append(list(own))
            else:
                hands.append([pool.pop() for _ in range(size)])
        deck = pool[: view["deck_size"]]
        state_rng = random.Random(rng.getrandbits(64))
        setup = {"players": len(hands)}
        return TallyState(self, 0, setup, state_rng, hands, deck, list(view["pile"]), int(view["to_move"]))


KIT = GameKit("tally", "toy_game:TallyGame", heuristic="toy_game:tally_heuristic")
"""Tally's kit: its engine and its heuristic."""


def register_tally() -> None:
    """Register Tally's kit (its engine and heuristic) with the game registry."""
    registry.register(KIT)


def unregister_tally() -> None:
    """Take Tally out of the registry again, so tests of other folders see only the real games."""
    registry.unregister("tally")


def tally_heuristic(view: Mapping[str, Any], actions: Sequence[str]) -> list[float]:
    """Win when you can; never bust; otherwise avoid leaving the next player within six of the target."""
    need = view["target"] - view["total"]
    scores = []
    for text in actions:
        value = int(text.split()[1])
        if value == need:
            scores.append(100.0)
        elif value > need:
            scores.append(-100.0)
        elif need - value <= 6:
            scores.append(-10.0 + value)
        else:
            scores.append(float(value))
    return scores
