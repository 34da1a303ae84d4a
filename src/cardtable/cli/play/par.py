"""Par scores of solo games: the heuristic player's mean score over seeded games, stored as data.

``par.json`` (next to this module) holds one entry per measured solo setup: the game, its changed
rule flags and setup, the number of games, the mean and its 95% interval, and the command that
made it. ``python -m cardtable.cli.play.par oscilloscope`` measures a par again (1,000 games).
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

PAR_FILE = "par.json"
"""The stored pars, a JSON list (in this package)."""

def solo_setup(game: str) -> dict[str, Any]:
    """The solo setup of ``game``: its first conformance case for one player under default rules (ValueError if none)."""
    import cardtable

    g = cardtable.load_game(game)
    for flags, setup in type(g).conformance_cases():
        if flags:
            continue
        try:
            if g.num_players_for(g.normalize_setup(setup)) == 1:
                return dict(setup)
        except ValueError:
            continue
    raise ValueError(f"{game} has no solo setup")


@cache
def stored_pars() -> tuple[dict[str, Any], ...]:
    """Every stored par entry."""
    text = resources.files("cardtable.cli.play").joinpath(PAR_FILE).read_text(encoding="utf-8")
    return tuple(json.loads(text))


def par_for(game: str, flags: Mapping[str, Any], setup: Mapping[str, Any]) -> float | None:
    """The stored par of ``game`` with these changed rule flags and this (normalized) setup, or None."""
    for entry in stored_pars():
        if entry["game"] != game or dict(entry.get("flags", {})) != dict(flags):
            continue
        wanted = entry.get("setup", {})
        if all(setup.get(k) == v for k, v in wanted.items()):
            return float(entry["mean"])
    return None


def measure_par(game: str, games: int = 1000, seed: int = 1, flags: Mapping[str, Any] | None = None,
                setup: Mapping[str, Any] | None = None, agent: str = "heuristic") -> dict[str, Any]:
    """Play ``games`` seeded solo games (seeds ``seed``..``seed + games - 1``) with ``agent``; the par entry."""
    import cardtable
    from cardtable.agents import decide, make_agent

    g = cardtable.load_game(game, **dict(flags or {}))
    solo = dict(setup if setup is not None else solo_setup(game))
    player = make_agent(agent, g)
    scores: list[float] = []
    for k in range(games):
        state = g.new_game(seed=seed + k, **solo)
        rng = random.Random(f"par:{seed + k}")
        while not state.is_over:
            state.apply(decide(player, state, rng))
        out = state.outcome()
        assert out is not None and out.scores is not None
        scores.append(float(out.scores[0]))
    mean = statistics.fmean(scores)
    half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.0
    command = f"python -m cardtable.cli.play.par {game} --games {games} --seed {seed}"
    return {"game": game, "flags": dict(flags or {}), "setup": solo, "agent": agent, "games": games,
            "seeds": f"{seed}..{seed + games - 1}", "mean": round(mean, 2),
            "ci95": [round(mean - half, 2), round(mean + half, 2)], "command": command}


def main(argv: list[str] | None = None) -> None:
    """``python -m cardtable.cli.play.par GAME [--games N] [--seed S]``: print a par entry as JSON."""
    args = list(sys.argv[1:] if argv is None else argv)
    game = args.pop(0) if args else "oscilloscope"
    games = int(args[args.index("--games") + 1]) if "--games" in args else 1000
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 1
    print(json.dumps(measure_par(game, games=games, seed=seed), indent=2))


if __name__ == "__main__":  # pragma: no cover
    main()
