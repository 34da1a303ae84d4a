"""AI players that see only their own seat's view, built from spec strings like ``ismcts:hard``.

>>> from cardtable.agents import parse_spec
>>> parse_spec("ismcts:hard,rollout=heuristic").options
{'rollout': 'heuristic'}
"""

from .base import Agent, Candidate, View, decide, hints
from .heuristics import Evaluator, Heuristic, evaluator_for, has_heuristic, heuristic_for
from .ismcts import ISMCTSAgent, SearchConfig, SearchStats
from .simple import HeuristicAgent, RandomAgent
from .specs import (
    DIFFICULTIES,
    LEVELS,
    SPEC_HELP,
    AgentSpec,
    AgentSpecError,
    game_levels,
    level_config,
    make_agent,
    parse_spec,
    search_config,
)

__all__ = [
    "DIFFICULTIES", "LEVELS", "SPEC_HELP", "Agent", "AgentSpec", "AgentSpecError", "Candidate", "Evaluator", "Heuristic",
    "HeuristicAgent", "ISMCTSAgent", "RandomAgent", "SearchConfig", "SearchStats", "View", "decide",
    "evaluator_for", "game_levels", "has_heuristic", "heuristic_for", "hints", "level_config", "make_agent", "parse_spec",
    "search_config",
]
