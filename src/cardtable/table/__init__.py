"""One table for every front end: seats (people, agents), turn flow, per-seat event logs, hints, undo,
save/resume. No input or output here; the terminal and the web server are front ends over it."""

from .seats import HUMAN, NAME_LIMIT, Seat, SeatKind, check_name, seat_name, seat_specs
from .table import Decision, EndKind, Hint, Table, TableError, UndoPolicy, agent_rng

__all__ = ["HUMAN", "NAME_LIMIT", "Decision", "EndKind", "Hint", "Seat", "SeatKind", "Table", "TableError", "UndoPolicy",
           "agent_rng", "check_name", "seat_name", "seat_specs"]
