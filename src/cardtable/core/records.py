"""Game records: rules, seed, setup and actions, which replay to the same final state."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import jsonpos
from .errors import CardtableError, InvalidPosition
from .game import State
from .registry import load_game

RECORD_FORMAT = 1


class RecordError(CardtableError):
    """A record that cannot be read, or that does not replay to what it says."""


@dataclass
class Record:
    """One game as data: replaying ``actions`` from ``new_game(seed, **setup)`` reproduces it."""

    game: str
    rules_version: int
    rules: dict[str, Any]
    seed: int
    setup: dict[str, Any]
    actions: list[str]
    outcome: dict[str, Any] | None = None
    players: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    format: int = RECORD_FORMAT

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object."""
        return {
            "format": self.format,
            "game": self.game,
            "rules_version": self.rules_version,
            "rules": self.rules,
            "seed": self.seed,
            "setup": self.setup,
            "players": self.players,
            "actions": self.actions,
            "outcome": self.outcome,
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Read a record, raising RecordError that says what is wrong."""
        try:
            d = jsonpos.obj(data, "$")
            fmt = jsonpos.integer(jsonpos.get(d, "format", "$"), "$.format")
            if fmt != RECORD_FORMAT:
                raise InvalidPosition("$.format", f"record format {fmt} is not supported (this version reads {RECORD_FORMAT})")
            actions = [jsonpos.string(a, f"$.actions[{i}]") for i, a in enumerate(jsonpos.array(jsonpos.get(d, "actions", "$"), "$.actions"))]
            outcome = d.get("outcome")
            if outcome is not None:
                jsonpos.obj(outcome, "$.outcome")
            return cls(
                game=jsonpos.string(jsonpos.get(d, "game", "$"), "$.game"),
                rules_version=jsonpos.integer(jsonpos.get(d, "rules_version", "$"), "$.rules_version"),
                rules=dict(jsonpos.obj(jsonpos.get(d, "rules", "$"), "$.rules")),
                seed=jsonpos.integer(jsonpos.get(d, "seed", "$"), "$.seed"),
                setup=dict(jsonpos.obj(jsonpos.get(d, "setup", "$"), "$.setup")),
                actions=actions,
                outcome=dict(outcome) if outcome is not None else None,
                players=[str(p) for p in jsonpos.array(d.get("players", []), "$.players")],
                meta=dict(jsonpos.obj(d.get("meta", {}), "$.meta")),
                format=fmt,
            )
        except InvalidPosition as exc:
            raise RecordError(f"not a valid record: {exc}") from None

    def save(self, path: str | Path) -> None:
        """Write the record as pretty JSON."""
        Path(path).write_text(json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise RecordError(f"cannot read record {path}: {exc}") from None
        return cls.from_json(data)


def record_of(state: State, players: list[str] | None = None, meta: dict[str, Any] | None = None) -> Record:
    """The record of a game so far (finished or not)."""
    out = state.outcome()
    return Record(
        game=state.game.name,
        rules_version=state.game.rules.rules_version,
        rules=state.game.rules.flags(),
        seed=state.seed,
        setup=state.setup,
        actions=list(state.history),
        outcome=out.to_json() if out is not None else None,
        players=list(players or []),
        meta=dict(meta or {}),
    )


def replay(record: Record, upto: int | None = None, *, events: bool = False,
           actors: list[int] | None = None) -> State:
    """Replay a record (its first ``upto`` actions) and check it reaches the recorded outcome.

    With ``events`` the replayed state keeps its event log (for a replay as a seat, or the lab);
    a list passed as ``actors`` receives the seat that made each action, in the same pass.
    """
    try:
        game = load_game(record.game, **record.rules)
    except ValueError as exc:
        raise RecordError(f"record names rules this version cannot load: {exc}") from None
    if record.rules_version != game.rules.rules_version:
        raise RecordError(f"record was made with {record.game} rules version {record.rules_version}; "
                          f"this version implements {game.rules.rules_version}")
    try:
        state = game.new_game(seed=record.seed, record_events=events, **record.setup)
    except ValueError as exc:
        raise RecordError(f"record has a setup this version cannot start: {exc}") from None
    actions = record.actions if upto is None else record.actions[:upto]
    for i, text in enumerate(actions):
        if actors is not None:
            seat = state.current_player
            actors.append(-1 if seat is None else seat)
        try:
            state.apply(text)
        except ValueError as exc:
            raise RecordError(f"record does not replay at action {i + 1} ({text!r}): {exc}") from None
    if upto is None and record.outcome is not None:
        got = state.outcome()
        if got is None or got.to_json() != record.outcome:
            raise RecordError(f"record replays to {got.to_json() if got else 'an unfinished game'}, "
                              f"not the recorded outcome {record.outcome}")
    return state
