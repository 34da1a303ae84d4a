"""The server's storage: rooms, seats, games, append-only actions and finished records (SQLAlchemy 2,
Alembic migrations shipped in this package and applied when a store opens).

Extension point: another part of the project (the lab) adds its tables with a migration of its own in
``cardtable/store/migrations/versions`` whose ``down_revision`` is the newest one here; the
``lab_runs``/``lab_games`` pair is there for it to start from.
"""

from .models import LeavePolicy, SeatStatus
from .store import (
    CHANNEL,
    DEFAULT_URL,
    BadToken,
    Change,
    GameFinished,
    GameNotFinished,
    GameSummary,
    Listener,
    NewAction,
    NoSuchGame,
    NoSuchRoom,
    RoomInfo,
    SeatInfo,
    SeatUnavailable,
    Sitting,
    Store,
    StoredAction,
    StoreError,
    VersionConflict,
)

__all__ = ["CHANNEL", "DEFAULT_URL", "BadToken", "Change", "GameFinished", "GameNotFinished", "GameSummary",
           "LeavePolicy", "Listener", "NewAction", "NoSuchGame", "NoSuchRoom", "RoomInfo", "SeatInfo", "SeatStatus", "SeatUnavailable",
           "Sitting", "Store",
           "StoreError", "StoredAction", "VersionConflict"]
