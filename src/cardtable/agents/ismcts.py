"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012).

Every iteration determinises: it asks the game for a full state consistent with the deciding
seat's view (``game.sampler(view)``, which reads the view once and deals each sample anew), then walks one shared tree restricted to the actions
legal in that determinisation. Selection is UCT with availability counts (an action's exploration
term counts the iterations in which it was available, not its parent's visits). The tree stores, at
each node, the reward of the seat that chose the action leading to it, so any number of players
works: every seat maximises its own return. Rollouts play to the end with a random or heuristic
policy; the result is ``state.returns()`` mapped from [-1, 1] to [0, 1] for each seat. A move that
has won the game at once every time it was played is played whenever it is legal (a decisive move),
so a win that many different actions can make is not diluted by exploring the others. Every action
the search plays is one of its determinisation's legal actions, so it goes through the unchecked
door, ``State.apply_legal``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from cardtable.core import Action, Game, State

from .base import Agent, Candidate, View
from .heuristics import Evaluator, Heuristic
from .simple import pick_best

Policy = Literal["random", "heuristic"]


@dataclass(frozen=True, kw_only=True)
class SearchConfig:
    """How an ISMCTS agent searches: its budget, exploration constant and rollout policy."""

    iterations: int | None = 1000
    """Iterations per decision (None: limited by ``seconds`` only)."""
    seconds: float | None = None
    """Wall-clock seconds per decision (None: limited by ``iterations`` only)."""
    exploration: float = 0.7
    """UCT exploration constant ``c`` in ``mean + c * sqrt(ln(available) / visits)``, rewards in [0, 1]."""
    rollout: Policy = "random"
    """The rollout policy: uniformly random, or the game's heuristic."""
    expansion: Policy = "random"
    """Which untried action a node tries next: a random one, or the heuristic's favourite.

    With ``heuristic``, nodes also widen progressively: a node visited ``n`` times considers at most
    ``widening_base * n ** widening`` of its actions (Chaslot et al. 2008, progressive unpruning),
    so the search spends its budget on the moves the heuristic likes, yet reaches every move in time.
    """
    widening: float = 0.5
    """Progressive-widening exponent (with heuristic expansion)."""
    widening_base: float = 2.0
    """Progressive-widening base (with heuristic expansion)."""
    bias: float = 0.0
    """Progressive bias (with heuristic expansion): ``bias * prior / (visits + 1)`` is added to an
    action's UCT value, where the prior is its heuristic score scaled to [0, 1] among the actions
    legal when it was first tried; the heuristic's advice fades as evidence accumulates."""
    rollout_epsilon: float = 0.1
    """With the heuristic rollout policy, the probability of a random action instead of the best one."""
    max_rollout_actions: int | None = None
    """Stop a rollout after this many actions (None: play to the end) and score it with the game's
    evaluator (the heuristic module's ``evaluate``), or as a draw if it has none."""

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("an ISMCTS budget needs iterations or seconds (or both)")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {self.iterations}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"seconds must be positive, got {self.seconds}")
        if self.exploration < 0:
            raise ValueError(f"the exploration constant must not be negative, got {self.exploration}")
        if self.rollout not in ("random", "heuristic"):
            raise ValueError(f"rollout must be random or heuristic, got {self.rollout!r}")
        if self.expansion not in ("random", "heuristic"):
            raise ValueError(f"expansion must be random or heuristic, got {self.expansion!r}")
        if self.bias < 0:
            raise ValueError(f"the progressive bias must not be negative, got {self.bias}")
        if not 0.0 <= self.widening <= 1.0 or self.widening_base < 1.0:
            raise ValueError(f"widening must be in [0, 1] with a base of at least 1, got {self.widening}, "
                             f"{self.widening_base}")
        if not 0.0 <= self.rollout_epsilon <= 1.0:
            raise ValueError(f"rollout epsilon must be between 0 and 1, got {self.rollout_epsilon}")
        if self.max_rollout_actions is not None and self.max_rollout_actions < 0:
            raise ValueError(f"max rollout actions must not be negative, got {self.max_rollout_actions}")


class _Node:
    """One node of the information-set tree: the action into it and its statistics."""

    __slots__ = ("action", "player", "children", "visits", "available", "total", "prior", "wins_at_once",
                 "has_decisive")

    def __init__(self, action: Action | None, player: int) -> None:
        self.action = action
        self.player = player
        """The seat that chose ``action`` (whose reward ``total`` sums)."""
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.available = 1
        self.total = 0.0
        self.prior = 0.0
        """The heuristic's opinion of ``action`` in [0, 1] (progressive bias)."""
        self.wins_at_once = 0
        """Iterations in which ``action`` ended the game at once with the best reward for ``player``."""
        self.has_decisive = False
        """Some child has won at once every time it was played (see ``_decisive``)."""


@dataclass(frozen=True)
class SearchStats:
    """What the last search did: iterations, seconds, and the deepest tree level reached."""

    iterations: int
    seconds: float
    max_depth: int

    @property
    def iterations_per_second(self) -> float:
        """Search speed."""
        return self.iterations / self.seconds if self.seconds > 0 else 0.0


class ISMCTSAgent(Agent):
    """Information-set MCTS over determinisations sampled from the seat's view."""

    def __init__(self, game: Game[Any], config: SearchConfig | None = None, *,
                 heuristic: Heuristic | None = None, evaluator: Evaluator | None = None, spec: str = "ismcts") -> None:
        self.game = game
        self.config = config or SearchConfig()
        if "heuristic" in (self.config.rollout, self.config.expansion) and heuristic is None:
            raise ValueError(f"heuristic rollouts and expansion need a heuristic for {game.name}")
        self.heuristic = heuristic
        self.evaluator = evaluator
        self.spec = spec
        self._root: _Node | None = None
        self.last_stats = SearchStats(0, 0.0, 0)

    # -- deciding ---------------------------------------------------------------------------------
    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The most-visited root action after searching within the budget."""
        if len(legal) == 1:
            self._root = None
            self.last_stats = SearchStats(0, 0.0, 0)
            return legal[0]
        root = self.search(view, legal, rng)
        by_key = {a: a for a in legal}
        best = max((c for a, c in root.children.items() if a in by_key),
                   key=lambda c: (c.visits, c.total), default=None)
        if best is None or best.action is None:
            return legal[rng.randrange(len(legal))]
        return by_key[best.action]

    def explain(self, top: int = 5) -> list[Candidate]:
        """The most-visited actions of the last search, with visits and estimated win rates."""
        if self._root is None:
            return []
        ranked = sorted(self._root.children.values(), key=lambda c: (-c.visits, -c.total))
        out = []
        for child in ranked[:top]:
            rate = child.total / child.visits if child.visits else 0.0
            out.append(Candidate(str(child.action), child.visits, rate, rate))
        return out

    # -- the search -------------------------------------------------------------------------------
    def search(self, view: View, legal: Sequence[Action], rng: random.Random) -> _Node:
        """Run the search from ``view`` and return the root (kept for ``explain``)."""
        seat = view.get("current_player")
        if not isinstance(seat, int):
            raise ValueError(f"the view does not say whose decision it is: current_player={seat!r}")
        cfg = self.config
        root = _Node(None, -1)
        self._root = root
        legal_set = set(legal)
        start = time.perf_counter()
        deadline = start + cfg.seconds if cfg.seconds is not None else math.inf
        limit = cfg.iterations if cfg.iterations is not None else math.inf
        done = 0
        max_depth = 0
        sample = self.game.sampler(view)
        while done < limit:
            det = sample(rng)
            depth = self._iterate(root, det, rng, legal_set)
            max_depth = max(max_depth, depth)
            done += 1
            if deadline != math.inf and time.perf_counter() >= deadline:
                break
        self.last_stats = SearchStats(done, time.perf_counter() - start, max_depth)
        return root

    def _iterate(self, root: _Node, det: State, rng: random.Random, root_legal: set[Action]) -> int:
        """One iteration on one determinisation: select, expand, roll out, back up. Returns the depth."""
        cfg = self.config
        c = cfg.exploration
        log = math.log
        sqrt = math.sqrt
        guide = self.heuristic if cfg.expansion == "heuristic" else None
        bias = cfg.bias
        prior = 0.0
        node = root
        path = [root]
        while True:
            player = det.current_player
            if player is None:
                break
            legal = det.legal_actions()
            if node is root:
                # the determinisation must offer the real choices; ignore anything else
                legal = [a for a in legal if a in root_legal] or list(legal)
            children = node.children
            if node.has_decisive:
                # a decisive move (one that has won at once every time it was tried) is played
                # whenever it is legal: otherwise the win, split over every card that can make it,
                # would be diluted by exploration and the search would not see it must be stopped
                won = _decisive(children, legal)
                if won is not None and won.action is not None:
                    won.available += 1
                    det.apply_legal(won.action)
                    path.append(won)
                    node = won
                    continue
            if guide is None:
                untried = [a for a in legal if a not in children]
                expand: Action | None = None
                if untried:
                    expand = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                available = None
            else:
                available = [children[a] for a in legal if a in children]
                expand = None
                allowed = cfg.widening_base * (node.visits + 1) ** cfg.widening
                if len(available) < len(legal) and len(available) < allowed:
                    scores = guide(det.view(player), [str(a) for a in legal])
                    fresh = [i for i, a in enumerate(legal) if a not in children]
                    pick = fresh[pick_best([scores[i] for i in fresh], rng)]
                    expand = legal[pick]
                    lo, hi = min(scores), max(scores)
                    prior = (scores[pick] - lo) / (hi - lo) if hi > lo else 1.0
            if expand is not None:
                child = _Node(expand, player)
                child.prior = prior
                children[expand] = child
                det.apply_legal(expand)
                path.append(child)
                break
            best: _Node | None = None
            best_value = -math.inf
            for child in available if available is not None else (children[a] for a in legal):
                child.available += 1
                value = child.total / child.visits + c * sqrt(log(child.available) / child.visits)
                if bias:
                    value += bias * child.prior / (child.visits + 1)
                if value > best_value:
                    best_value = value
                    best = child
            assert best is not None and best.action is not None
            det.apply_legal(best.action)
            path.append(best)
            node = best
        at_once = det.current_player is None
        finished = at_once or self._rollout(det, rng)
        if finished or self.evaluator is None:
            returns = det.returns()
        else:
            returns = self.evaluator(det.view(None))
        rewards = [min(1.0, max(0.0, (r + 1.0) / 2.0)) for r in returns]
        root.visits += 1
        for step in path[1:]:
            step.visits += 1
            step.total += rewards[step.player]
        if at_once and len(path) > 1:
            last = path[-1]
            if rewards[last.player] >= 1.0:
                last.wins_at_once += 1
                if last.wins_at_once == last.visits:
                    path[-2].has_decisive = True
        return len(path) - 1

    def _rollout(self, det: State, rng: random.Random) -> bool:
        """Play ``det`` forward with the rollout policy until it ends (True) or the cap is reached (False)."""
        cap = self.config.max_rollout_actions
        if cap is None:
            cap = self.game.termination_bound
        heuristic = self.heuristic if self.config.rollout == "heuristic" else None
        epsilon = self.config.rollout_epsilon
        steps = 0
        while steps < cap:
            player = det.current_player
            if player is None:
                return True
            legal = det.legal_actions()
            if heuristic is None or len(legal) == 1 or rng.random() < epsilon:
                action = legal[rng.randrange(len(legal))]
            else:
                action = legal[pick_best(heuristic(det.view(player), [str(a) for a in legal]), rng)]
            det.apply_legal(action)
            steps += 1
        return det.current_player is None


def _decisive(children: dict[Action, _Node], legal: Sequence[Action]) -> _Node | None:
    """The first legal child that has won the game at once every time it was played (MCTS-Solver's
    proven win, Winands et al. 2008, kept per determinisation: one failure and it is a move like any other)."""
    for a in legal:
        child = children.get(a)
        if child is not None and child.visits > 0 and child.wins_at_once == child.visits:
            return child
    return None
