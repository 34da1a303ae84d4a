"""The game contract shared by every game, and the machinery around it (rules, RNG, records)."""

from .actions import DECLINE, PASS, Decline, Pass
from .errors import CardtableError, IllegalAction, InvalidAction, InvalidPosition
from .events import Event
from .game import Action, Game, Outcome, State, perft, perft_divide, play_random
from .records import Record, RecordError, record_of, replay
from .registry import game_class, game_names, load_game, register
from .rules import FlagSpec, RulesBase, flag

__all__ = [
    "DECLINE", "PASS", "Action", "CardtableError", "Decline", "Event", "FlagSpec", "Game", "IllegalAction", "InvalidAction", "InvalidPosition",
    "Outcome", "Pass", "Record", "RecordError", "RulesBase", "State", "flag", "game_class", "game_names",
    "load_game", "perft", "perft_divide", "play_random", "record_of", "register", "replay",
]
