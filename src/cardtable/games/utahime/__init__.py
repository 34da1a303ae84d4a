"""Utahime (言歌姫): a two-player card duel from seed 004 (rules: /work/shared/rules/utahime.md)."""

from .actions import parse_action
from .game import UtahimeGame
from .rules import UtahimeRules
from .state import Phase, UtahimeState

__all__ = ["Phase", "UtahimeGame", "UtahimeRules", "UtahimeState", "parse_action"]
