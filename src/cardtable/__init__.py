"""cardtable: three original tabletop card games as software, for players and designers."""

from cardtable._build import BuildInfo, build_info, select

select()  # before any engine module loads: compiled modules only when they match their sources

from cardtable.core import (  # noqa: E402
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
    "Action", "BuildInfo", "CardtableError", "Game", "IllegalAction", "InvalidAction", "InvalidPosition", "Outcome",
    "Record", "RecordError", "State", "__version__", "build_info", "game_names", "load_game", "record_of", "replay",
]
