"""``ismcts:learned``: information-set MCTS guided by the network (PUCT priors, the value at the leaves).

The search is the single-observer ISMCTS of :mod:`cardtable.agents.ismcts` (one shared tree, a
fresh determinisation ``game.sampler(view)`` deals each iteration, the actions restricted to those
legal in it) with AlphaZero's selection and evaluation instead of UCT and rollouts (Silver et al.
2017): a node met for the first time is evaluated by the network from the view of the seat to move
in that determinisation (mixed with the game's evaluator if ``mix`` says so), its value is backed up, and its policy becomes the priors of its actions;
later visits choose the action maximising ``Q + c * P * sqrt(N) / (1 + n)``, where ``P`` is the
prior renormalised over the actions legal now, ``N`` the visits of those actions together and
``Q`` the mean reward of the seat choosing (an unvisited action takes the node's own value). A
finished game backs up its true returns. Rewards are in [0, 1], as in ISMCTS; for more than two
seats the mover's value ``v`` gives each other seat ``-v / (n - 1)``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardtable.core import Action, Game, State

from ..base import Agent, Candidate, View
from ..heuristics import Evaluator, Heuristic
from ..ismcts import SearchStats
from ..simple import pick_best
from .net import Network


@dataclass(frozen=True, kw_only=True)
class GuidedConfig:
    """How the guided search searches: its budget, the PUCT constant, and root noise for self-play."""

    iterations: int | None = 100
    """Iterations (network evaluations, at most) per decision (None: limited by ``seconds`` only)."""
    seconds: float | None = None
    """Wall-clock seconds per decision (None: limited by ``iterations`` only)."""
    c_puct: float = 1.5
    """The exploration constant of PUCT, for rewards in [0, 1]."""
    mix: float = 0.5
    """The weight of a second opinion in a leaf's value (AlphaGo's mixing): ``(1 - mix) * network + mix * other``,
    where the other is the game's evaluator, or else a rollout to the end with its heuristic (one move in ten random);
    it steadies a value head that has seen few positions (0: the network alone)."""
    noise: float = 0.0
    """The weight of Dirichlet noise mixed into the root's priors (self-play only; 0 for play)."""
    noise_alpha: float = 0.3
    """The Dirichlet concentration of that noise."""

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a guided search budget needs iterations or seconds (or both)")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {self.iterations}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"seconds must be positive, got {self.seconds}")
        if self.c_puct < 0:
            raise ValueError(f"the PUCT constant must not be negative, got {self.c_puct}")
        if not 0.0 <= self.mix <= 1.0:
            raise ValueError(f"mix must be between 0 and 1, got {self.mix}")
        if not 0.0 <= self.noise <= 1.0 or self.noise_alpha <= 0:
            raise ValueError(f"the root noise must be in [0, 1] with a positive alpha, got {self.noise}, "
                             f"{self.noise_alpha}")


class _Node:
    """One node of the tree: the action into it, its statistics, and the network's opinion of it."""

    __slots__ = ("action", "player", "children", "visits", "total", "logits", "value")

    def __init__(self, action: Action | None, player: int) -> None:
        self.action = action
        self.player = player
        """The seat that chose ``action`` (whose reward ``total`` sums)."""
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.logits: Any = None
        """The policy head's logits at this node's first evaluation (None until evaluated)."""
        self.value = 0.5
        """The value head's estimate for the seat to move here, in [0, 1]."""


class GuidedSearchAgent(Agent):
    """ISMCTS guided by a value and policy network (PUCT), over determinisations of the seat's view."""

    def __init__(self, game: Game[Any], net: Network, config: GuidedConfig | None = None, *,
                 evaluator: Evaluator | None = None, heuristic: Heuristic | None = None,
                 spec: str = "ismcts:learned") -> None:
        net.check_game(game)
        self.evaluator = evaluator
        self.heuristic = heuristic
        self.game = game
        self.net = net
        self.config = config or GuidedConfig()
        self.spec = spec
        self._root: _Node | None = None
        self.last_stats = SearchStats(0, 0.0, 0)

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The most-visited legal root action after the search."""
        if len(legal) == 1:
            self._root = None
            self.last_stats = SearchStats(0, 0.0, 0)
            return legal[0]
        counts = self.visit_counts(view, legal, rng)
        best = max(counts)
        tied = [i for i, c in enumerate(counts) if c == best]
        return legal[tied[0] if len(tied) == 1 else tied[rng.randrange(len(tied))]]

    def visit_counts(self, view: View, legal: Sequence[Action], rng: random.Random) -> list[int]:
        """Search from ``view`` and return the visits of each action of ``legal`` (the self-play policy target)."""
        root = self.search(view, legal, rng)
        return [root.children[a].visits if a in root.children else 0 for a in legal]

    def explain(self, top: int = 5) -> list[Candidate]:
        """The most-visited actions of the last search, with visits and estimated win rates."""
        if self._root is None:
            return []
        ranked = sorted(self._root.children.values(), key=lambda c: (-c.visits, -c.total))
        out = []
        for child in ranked[:top]:
            rate = child.total / child.visits if child.visits else child.value
            out.append(Candidate(str(child.action), child.visits, rate, rate))
        return out

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
            depth = self._iterate(root, sample(rng), rng, legal_set)
            max_depth = max(max_depth, depth)
            done += 1
            if deadline != math.inf and time.perf_counter() >= deadline:
                break
        self.last_stats = SearchStats(done, time.perf_counter() - start, max_depth)
        return root

    def _evaluate(self, node: _Node, det: State, player: int, rng: random.Random, at_root: bool) -> float:
        """Evaluate ``node`` with the network from ``player``'s view of ``det``; its value for ``player``."""
        logits, value = self.net.forward(self.game.encode_view(det.view(player)))
        node.logits = logits[0].astype(np.float64)
        if at_root and self.config.noise > 0:
            # Dirichlet noise over the legal actions, mixed into the priors as log-odds (self-play)
            index = self.game.action_index
            legal = [index(a) for a in det.legal_actions()]
            noise = np.random.default_rng(rng.getrandbits(63)).dirichlet([self.config.noise_alpha] * len(legal))
            picked = node.logits[legal]
            prior = np.exp(picked - picked.max())
            prior /= prior.sum()
            mixed = (1 - self.config.noise) * prior + self.config.noise * noise
            node.logits[legal] = np.log(np.maximum(mixed, 1e-12))
        estimate = float(value[0])
        if self.config.mix > 0:
            other = self.evaluator(det.view(None))[player] if self.evaluator is not None else self._rollout(det, player, rng)
            estimate = (1 - self.config.mix) * estimate + self.config.mix * other
        node.value = min(1.0, max(0.0, (estimate + 1.0) / 2.0))
        return node.value

    def _rollout(self, det: State, player: int, rng: random.Random) -> float:
        """Play ``det`` to the end with the heuristic (one move in ten random; all random without one): ``player``'s return."""
        heuristic = self.heuristic
        for _ in range(self.game.termination_bound):
            mover = det.current_player
            if mover is None:
                break
            legal = det.legal_actions()
            if heuristic is None or len(legal) == 1 or rng.random() < 0.1:
                det.apply_legal(legal[rng.randrange(len(legal))])
            else:
                det.apply_legal(legal[pick_best(heuristic(det.view(mover), [str(a) for a in legal]), rng)])
        return det.returns()[player]

    def _iterate(self, root: _Node, det: State, rng: random.Random, root_legal: set[Action]) -> int:
        """One iteration on one determinisation: select with PUCT, evaluate the leaf, back up. Returns the depth."""
        c = self.config.c_puct
        index = self.game.action_index
        node = root
        path = [root]
        n = det.num_players
        rewards: list[float] | None = None
        while True:
            player = det.current_player
            if player is None:
                rewards = [min(1.0, max(0.0, (r + 1.0) / 2.0)) for r in det.returns()]
                break
            if node.logits is None:
                mine = self._evaluate(node, det, player, rng, node is root)
                if n == 1:
                    rewards = [mine]
                else:
                    other = 0.5 - (mine - 0.5) / (n - 1)
                    rewards = [mine if p == player else other for p in range(n)]
                break
            legal = det.legal_actions()
            if node is root:
                # the determinisation must offer the real choices; ignore anything else
                legal = [a for a in legal if a in root_legal] or list(legal)
            children = node.children
            picked = node.logits[[index(a) for a in legal]]
            prior = np.exp(picked - picked.max())
            prior = (prior / prior.sum()).tolist()
            counts = [children[a].visits if a in children else 0 for a in legal]
            scale = c * math.sqrt(sum(counts) + 1)
            best_i = 0
            best_value = -math.inf
            for i, a in enumerate(legal):
                child = children.get(a)
                visits = counts[i]
                q = child.total / visits if child is not None and visits else node.value
                value = q + scale * prior[i] / (1 + visits)
                if value > best_value:
                    best_value = value
                    best_i = i
            action = legal[best_i]
            chosen = children.get(action)
            if chosen is None:
                chosen = _Node(action, player)
                children[action] = chosen
            det.apply_legal(action)
            path.append(chosen)
            node = chosen
        root.visits += 1
        for step in path[1:]:
            step.visits += 1
            step.total += rewards[step.player]
        return len(path) - 1
