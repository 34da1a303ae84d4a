"""Utahime (言歌姫): a two-player card duel from seed 004 (its rules: ``rulebook.md`` in this package)."""

from .actions import parse_action
from .events import UtahimeEvent, describe_event
from .game import UtahimeGame
from .rules import UtahimeRules
from .state import Phase, UtahimeState

__all__ = ["Phase", "UtahimeEvent", "UtahimeGame", "UtahimeRules", "UtahimeState", "describe_event", "parse_action"]
