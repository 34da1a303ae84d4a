"""cardtable: three original tabletop card games as software, for players and designers."""

from cardtable.core import (
    Action,
    CardtableError,
    Game,
    IllegalAction,
    InvalidAction,
    InvalidPosition,
    Outcome,
    Record,
    RecordError,
    State,
    game_names,
    load_game,
    record_of,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "Action", "CardtableError", "Game", "IllegalAction", "InvalidAction", "InvalidPosition", "Outcome",
    "Record", "RecordError", "State", "__version__", "game_names", "load_game", "record_of", "replay",
]
