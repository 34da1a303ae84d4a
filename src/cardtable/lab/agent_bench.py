"""``cardtable bench agents``: ISMCTS iterations per second, next to OpenSpiel's C++ MCTS as a yardstick.

Our number: ISMCTS (random rollouts, as OpenSpiel's bot) deciding in positions of a real game,
counted in iterations per second (each one a determinisation, a tree walk and a rollout to the end).
OpenSpiel's number: ``pyspiel.MCTSBot`` with a one-rollout random evaluator on ``mnk(m=6,n=6,k=4)``,
in simulations per second, measured in the same run on the same machine. OpenSpiel is the optional
``bench`` extra; without it only our figure is reported.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from cardtable.agents import ISMCTSAgent, SearchConfig, decide
from cardtable.core import State, load_game

MNK = "mnk(m=6,n=6,k=4)"


@dataclass(frozen=True)
class BenchLine:
    """One measured rate."""

    label: str
    rate: float
    """Iterations (or simulations) per second."""
    work: int
    seconds: float
    note: str = ""


def _positions(game_name: str, count: int, seed: int, rules: dict[str, Any], setup: dict[str, Any]) -> list[State]:
    """Positions a few random moves into games, with more than one legal action."""
    game = load_game(game_name, **rules)
    rng = random.Random(seed)
    out: list[State] = []
    attempts = 0
    while len(out) < count and attempts < count * 20:
        attempts += 1
        state = game.new_game(seed=rng.getrandbits(32), **setup)
        for _ in range(rng.randrange(0, 12)):
            if state.is_over:
                break
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        if not state.is_over and len(state.legal_actions()) > 1:
            out.append(state)
    return out


def bench_ismcts(game_name: str = "zeta", *, iterations: int = 400, positions: int = 5, seed: int = 0,
                 rules: dict[str, Any] | None = None, setup: dict[str, Any] | None = None) -> BenchLine:
    """ISMCTS iterations per second with random rollouts, over a few positions of ``game_name``."""
    states = _positions(game_name, positions, seed, rules or {}, setup or {})
    if not states:
        raise ValueError(f"found no {game_name} position with a choice to search")
    total = 0
    seconds = 0.0
    for i, state in enumerate(states):
        agent = ISMCTSAgent(state.game, SearchConfig(iterations=iterations, rollout="random"))
        decide(agent, state, random.Random(seed + i))
        total += agent.last_stats.iterations
        seconds += agent.last_stats.seconds
    return BenchLine(f"cardtable ISMCTS on {game_name}", total / seconds, total, seconds,
                     f"{len(states)} positions x {iterations} iterations, random rollouts to the end")


def bench_openspiel(simulations: int = 2000, moves: int = 4, seed: int = 0) -> BenchLine | None:
    """OpenSpiel's C++ MCTSBot simulations per second on mnk 6x6 k=4 (None if OpenSpiel is missing)."""
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game(MNK)
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, simulations, 10**9, False, seed, False)
    state = game.new_initial_state()
    done = 0
    start = time.perf_counter()
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(bot.step(state))
        done += simulations
    seconds = time.perf_counter() - start
    return BenchLine(f"OpenSpiel C++ MCTSBot on {MNK}", done / seconds, done, seconds,
                     f"{moves} moves x {simulations} simulations, one random rollout each")


def bench_agents(game_name: str = "zeta", *, iterations: int = 400, positions: int = 5,
                 simulations: int = 2000, seed: int = 0) -> list[BenchLine]:
    """Both rates, measured in this run; the ratio of ours to OpenSpiel's is the figure of merit."""
    lines = [bench_ismcts(game_name, iterations=iterations, positions=positions, seed=seed)]
    theirs = bench_openspiel(simulations, seed=seed)
    if theirs is not None:
        lines.append(theirs)
    return lines


def bench_agents_main(game_name: str = "zeta", *, iterations: int = 400, positions: int = 5,
                      simulations: int = 2000, seed: int = 0) -> list[BenchLine]:
    """Run ``cardtable bench agents`` and print a table (and the ratio to OpenSpiel's rate)."""
    from rich.console import Console
    from rich.table import Table

    lines = bench_agents(game_name, iterations=iterations, positions=positions, simulations=simulations, seed=seed)
    table = Table(title="agent search speed")
    for col in ("search", "per second", "work", "seconds", "how"):
        table.add_column(col, justify="right" if col in ("per second", "work", "seconds") else "left")
    for line in lines:
        table.add_row(line.label, f"{line.rate:,.0f}", f"{line.work:,}", f"{line.seconds:.2f}", line.note)
    console = Console()
    console.print(table)
    if len(lines) == 2:
        console.print(f"ratio cardtable / OpenSpiel: {lines[0].rate / lines[1].rate:.2f}x (target >= 0.5x)")
    else:
        console.print("OpenSpiel is not installed (pip install 'cardtable[bench]'): no comparison")
    return lines
