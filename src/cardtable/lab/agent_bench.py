"""``cardtable bench agents``: ISMCTS iterations per second, next to OpenSpiel's C++ MCTS as a yardstick.

Our number: ISMCTS (random expansion and random rollouts, like OpenSpiel's bot) deciding in
positions of a real game, in iterations per second; each iteration is a determinisation
(``sample_state``), a tree walk and a rollout to the end of the game. Its guided form
(heuristic expansion and rollouts, what the ``hard`` level uses) is measured too. OpenSpiel's
number: ``pyspiel.MCTSBot`` with a one-rollout random evaluator on ``mnk(m=6,n=6,k=4)``, in
simulations per second, measured in the same process, interleaved with ours. Times are process CPU
time, so other work on the machine slows both sides alike. OpenSpiel is the optional ``bench``
extra; without it only our figures are reported.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from cardtable.agents import ISMCTSAgent, SearchConfig, has_heuristic, heuristic_for
from cardtable.core import State, load_game

MNK = "mnk(m=6,n=6,k=4)"


@dataclass(frozen=True)
class BenchLine:
    """One measured rate."""

    label: str
    work: int
    """Iterations (or simulations) done."""
    seconds: float
    """Process CPU seconds they took."""
    note: str = ""

    @property
    def rate(self) -> float:
        """Iterations (or simulations) per CPU second."""
        return self.work / self.seconds if self.seconds > 0 else 0.0


def positions(game_name: str, count: int = 6, seed: int = 0, rules: dict[str, Any] | None = None,
              setup: dict[str, Any] | None = None) -> list[State]:
    """Positions a few random moves into seeded games, each with more than one legal action."""
    game = load_game(game_name, **(rules or {}))
    rng = random.Random(seed)
    out: list[State] = []
    attempts = 0
    while len(out) < count and attempts < count * 50:
        attempts += 1
        state = game.new_game(seed=rng.getrandbits(32), **(setup or {}))
        for _ in range(rng.randrange(2, 12)):
            if state.is_over:
                break
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        if not state.is_over and len(state.legal_actions()) > 1:
            out.append(state)
    if not out:
        raise ValueError(f"found no {game_name} position with a choice to search")
    return out


class _Ours:
    """ISMCTS searches over a fixed list of positions, round robin."""

    def __init__(self, states: list[State], config: SearchConfig, seed: int) -> None:
        game = states[0].game
        heuristic = heuristic_for(game.name) if "heuristic" in (config.rollout, config.expansion) else None
        self.agent = ISMCTSAgent(game, config, heuristic=heuristic)
        self.states = states
        self.rng = random.Random(seed)
        self.turn = 0
        self.work = 0
        self.seconds = 0.0

    def step(self) -> None:
        """Search the next position once."""
        state = self.states[self.turn % len(self.states)]
        self.turn += 1
        seat = state.current_player
        assert seat is not None
        start = time.process_time()
        self.agent.search(state.view(seat), state.legal_actions(), self.rng)
        self.seconds += time.process_time() - start
        self.work += self.agent.last_stats.iterations


class _Theirs:
    """OpenSpiel's C++ MCTSBot deciding moves of mnk 6x6 k=4 games."""

    def __init__(self, simulations: int, seed: int) -> None:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]

        self.pyspiel = pyspiel
        self.game = pyspiel.load_game(MNK)
        self.bot = pyspiel.MCTSBot(self.game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, simulations, 10**9,
                                   False, seed, False)
        self.simulations = simulations
        self.state = self.game.new_initial_state()
        self.moves = 0
        self.work = 0
        self.seconds = 0.0

    def step(self) -> None:
        """Decide one move of the current mnk game."""
        if self.state.is_terminal() or self.moves >= 8:
            self.state = self.game.new_initial_state()
            self.moves = 0
        start = time.process_time()
        action = self.bot.step(self.state)
        self.seconds += time.process_time() - start
        self.state.apply_action(action)
        self.moves += 1
        self.work += self.simulations


def _openspiel_available() -> bool:
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    except ImportError:
        return False
    return True


def bench_agents(game_name: str = "zeta", *, seconds: float = 3.0, openspiel: bool = True, iterations: int = 300,
                 simulations: int = 1000, seed: int = 0) -> list[BenchLine]:
    """Measure, interleaved for about ``seconds`` CPU seconds each: our ISMCTS (plain and guided) and OpenSpiel's."""
    states = positions(game_name, seed=seed)
    runners: list[tuple[str, str, Any]] = [
        (f"cardtable ISMCTS on {game_name} (random expansion and rollouts)",
         f"{len(states)} positions, {iterations} iterations a search",
         _Ours(states, SearchConfig(iterations=iterations), seed)),
    ]
    if has_heuristic(game_name):
        guided = SearchConfig(iterations=iterations, rollout="heuristic", expansion="heuristic")
        runners.append((f"cardtable ISMCTS on {game_name} (heuristic expansion and rollouts)",
                        f"{len(states)} positions, {iterations} iterations a search", _Ours(states, guided, seed)))
    if openspiel and _openspiel_available():
        runners.append((f"OpenSpiel C++ MCTSBot on {MNK}", f"first 8 moves of games, {simulations} simulations a move",
                        _Theirs(simulations, seed)))
    # interleave, so that a change in machine load hits every side alike
    while any(r.seconds < seconds for _, _, r in runners):
        for _, _, runner in runners:
            if runner.seconds < seconds:
                runner.step()
    return [BenchLine(label, r.work, r.seconds, note) for label, note, r in runners]


LEVEL_GAMES: dict[str, dict[str, Any]] = {"zeta": {}, "utahime": {}, "oscilloscope": {"players": 2}}
"""The games whose difficulty levels ``level_times`` times, with their setup (a two-seat room)."""


@dataclass(frozen=True)
class LevelTime:
    """CPU seconds an ISMCTS difficulty level takes per decision in one game's positions."""

    game: str
    level: str
    iterations: int | None
    mean: float
    longest: float
    positions: int


def level_times(games: dict[str, dict[str, Any]] | None = None, levels: tuple[str, ...] = ("easy", "normal", "hard"),
                count: int = 4, seed: int = 3) -> list[LevelTime]:
    """Time ``ismcts:LEVEL`` deciding in ``count`` positions of each game (process CPU seconds per decision)."""
    from cardtable.agents import level_config, make_agent

    out = []
    for name, setup in (games if games is not None else LEVEL_GAMES).items():
        game = load_game(name)
        states = positions(name, count=count, seed=seed, setup=setup)
        for level in levels:
            agent = make_agent(f"ismcts:{level}", game)
            times = []
            for state in states:
                seat = state.current_player
                assert seat is not None
                start = time.process_time()
                agent.choose(state.view(seat), state.legal_actions(), random.Random(seed))
                times.append(time.process_time() - start)
            out.append(LevelTime(name, level, level_config(level, name).iterations, sum(times) / len(times),
                                 max(times), len(states)))
    return out


def main(seconds: float = 3.0, openspiel: bool = True, console: Any = None, game_name: str = "zeta",
         levels: bool = True) -> list[BenchLine]:
    """Run ``cardtable bench agents`` and print a table with the ratio to OpenSpiel's rate."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    with console.status(f"benchmarking agent search on {game_name} ({seconds:.0f} CPU s per line)..."):
        lines = bench_agents(game_name, seconds=seconds, openspiel=openspiel)
    theirs = next((line for line in lines if line.label.startswith("OpenSpiel")), None)
    table = Table(title="agent search speed (process CPU time)", title_justify="left")
    for col in ("search", "per second", "work", "CPU s", "vs OpenSpiel", "how"):
        table.add_column(col, justify="left" if col in ("search", "how") else "right")
    for line in lines:
        ratio = f"{line.rate / theirs.rate:.2f}x" if theirs is not None and line is not theirs else "-"
        table.add_row(line.label, f"{line.rate:,.0f}", f"{line.work:,}", f"{line.seconds:.2f}", ratio, line.note)
    console.print(table)
    if theirs is None:
        console.print("OpenSpiel is not installed (pip install -e '.[bench]'): no comparison")
    else:
        console.print("target: cardtable ISMCTS >= 0.5x OpenSpiel's simulations per second")
    if levels:
        with console.status("timing the difficulty levels' decisions..."):
            rows = level_times()
        table = Table(title="decision time of the difficulty levels (ISMCTS, process CPU seconds)",
                      title_justify="left")
        for col in ("game", "level", "iterations", "mean s", "longest s", "positions"):
            table.add_column(col, justify="left" if col in ("game", "level") else "right")
        for r in rows:
            table.add_row(r.game, r.level, f"{r.iterations:,}" if r.iterations else "-", f"{r.mean:.2f}",
                          f"{r.longest:.2f}", str(r.positions))
        console.print(table)
        console.print("target: a normal decision in under 2 s")
    return lines
