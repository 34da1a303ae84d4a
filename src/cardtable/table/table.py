"""The table: one game, its seats, whose turn it is, the per-seat event log, hints, undo and save/resume.

The front ends that seat people (the terminal and the web server) drive a :class:`Table` and only
render and read input. A front end never decides what a seat may see: it asks the table for that
seat's :meth:`Table.view` and :meth:`Table.events`, which come from the engine's views and event log.
The lab drives no table: it plays engine states directly (``cardtable.lab.study``), since it needs
no seats, log, undo or saves. The table checks each action once (:meth:`Table.check`) and then
applies it through the engine's unchecked door, ``State.apply_legal``.

>>> table = Table.create("zeta", ["human", "random"], seed=3)
>>> table.names
('P1 (you)', 'P2 (random)')
>>> seat = table.current_seat
>>> _ = table.run_agents()       # the agent moves if it is its turn
>>> table.current_seat
0
>>> table.play(0, table.legal(0)[0], version=table.version).__class__.__name__
'Place'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from cardtable.core import Action, Game, Record, RecordError, State, load_game, record_of, replay
from cardtable.core.errors import CardtableError

from .seats import HUMAN, Seat, seat_name

RECORD_TOOL = "cardtable"


class TableError(CardtableError):
    """A request the table refuses: not this seat's turn, a stale version, nothing to undo, ..."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        """A stable machine-readable reason (``not_your_turn``, ``stale_version``, ``game_over``, ...)."""
        super().__init__(message)


class EndKind(Enum):
    """A game end that is no engine action: the table records it (``meta["end"]``) and replays to it."""

    TIMEOUT = "timeout"
    """The seat's clock or move deadline ran out."""
    RESIGN = "resign"
    """The seat gave up."""
    DRAW = "draw"
    """Every seat agreed to a draw (the seat offered it): nobody wins."""


END_WORDS = {EndKind.TIMEOUT: "ran out of time", EndKind.RESIGN: "resigned", EndKind.DRAW: "offered a draw"}
"""How an outcome's reason words each kind of end."""


class UndoPolicy(Enum):
    """When a seat may take back its decisions."""

    NEVER = "never"
    """Never (online rooms between people)."""
    AGAINST_AGENTS = "against_agents"
    """Only when it takes back no other person's move (the terminal's default)."""
    ALWAYS = "always"
    """Always (a designer's sandbox, hot-seat by agreement)."""


@dataclass(frozen=True)
class Decision:
    """An agent's chosen action for ``seat`` at ``version`` (computed off the table, applied with ``play``)."""

    seat: int
    version: int
    action: str


@dataclass(frozen=True)
class Hint:
    """A hint for a seat: the hint agent's choice and its best candidates (dicts of ``Candidate.to_json``)."""

    best: str
    candidates: tuple[dict[str, Any], ...] = field(default_factory=tuple)


def agent_rng(seed: int, seat: int, version: int) -> random.Random:
    """The RNG of an agent's decision: fixed by the game's seed, the seat and the version, so a resumed
    table makes the same decisions as one that never stopped."""
    return random.Random(f"agent:{seed}:{seat}:{version}")


class Table:
    """One game at a table: the state (recording events), the seats, the actors of every action, undo."""

    def __init__(self, state: State, seats: Sequence[Seat], *, undo: UndoPolicy = UndoPolicy.AGAINST_AGENTS,
                 meta: Mapping[str, Any] | None = None, actors: Sequence[int] | None = None) -> None:
        if len(seats) != state.num_players:
            raise ValueError(f"{len(seats)} seats for a {state.num_players}-player game")
        if [s.index for s in seats] != list(range(len(seats))):
            raise ValueError("seats must be numbered 0, 1, ... in order")
        if not state.is_recording:
            raise ValueError("a table's state must record its events (new_game(record_events=True))")
        self.game: Game[Any] = state.game
        self._state = state
        self.seats: tuple[Seat, ...] = tuple(seats)
        self.undo_policy = undo
        self.meta: dict[str, Any] = dict(meta or {})
        self.actors: list[int] = list(actors) if actors is not None else _actors_of(state)
        """The seat that made each action of the history."""
        self._agents: dict[int, Any] = {}
        self._end: dict[str, Any] | None = None
        """A recorded end that is no engine action (``{"kind", "seat", "version"}``), or None."""
        end = self.meta.get("end")
        if isinstance(end, dict) and end.get("version") == self.version and not state.is_over:
            self.end(EndKind(end["kind"]), int(end["seat"]))

    # -- building -----------------------------------------------------------------------------------
    @classmethod
    def create(cls, game: str | Game[Any], seats: Sequence[str | Seat], *, seed: int | None = None,
               setup: Mapping[str, Any] | None = None, rules: Mapping[str, Any] | None = None,
               undo: UndoPolicy = UndoPolicy.AGAINST_AGENTS, meta: Mapping[str, Any] | None = None) -> Table:
        """A new game of ``game`` (a name or a loaded game) with one spec or Seat per seat (ValueError if bad)."""
        g = load_game(game, **dict(rules or {})) if isinstance(game, str) else game
        if rules and not isinstance(game, str):
            raise ValueError("pass rules with a game name, not with a loaded game")
        state = g.new_game(seed=seed, record_events=True, **dict(setup or {}))
        table = cls(state, _seats(seats, state.num_players), undo=undo, meta=meta)
        table._check_agents()
        return table

    @classmethod
    def resume(cls, record: Record, seats: Sequence[str | Seat] | None = None, *,
               undo: UndoPolicy = UndoPolicy.AGAINST_AGENTS) -> Table:
        """The table of a saved record, finished or not (seats from the record unless given); RecordError if bad."""
        actors: list[int] = []
        state = replay(record, events=True, actors=actors)
        specs: Sequence[str | Seat]
        if seats is not None:
            specs = seats
        else:
            names = record.meta.get("names", [])
            specs = [Seat(p, record.players[p] if p < len(record.players) else HUMAN,
                          str(names[p]) if isinstance(names, list) and p < len(names) and
                          (p >= len(record.players) or record.players[p] == HUMAN) else "")
                     for p in range(state.num_players)]
        try:
            table = cls(state, _seats(specs, state.num_players), undo=undo, meta=record.meta, actors=actors)
            table._check_agents()
        except ValueError as exc:
            raise RecordError(f"cannot resume this record: {exc}") from None
        return table

    @classmethod
    def load(cls, path: str | Path, seats: Sequence[str | Seat] | None = None) -> Table:
        """``resume`` from a record file."""
        return cls.resume(Record.load(path), seats)

    def _check_agents(self) -> None:
        for seat in self.seats:
            if not seat.is_human:
                self._agent(seat.index)

    # -- queries ------------------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The true state (server side only: front ends show a seat ``view`` and ``events``)."""
        return self._state

    @property
    def version(self) -> int:
        """How many actions have been applied: a client sends the version it saw with its action."""
        return len(self._state.history)

    @property
    def current_seat(self) -> int | None:
        """The seat that decides next (None once the game is over)."""
        return None if self._end is not None else self._state.current_player

    @property
    def is_over(self) -> bool:
        """True once the game has ended (by the rules, or by a recorded :meth:`end`)."""
        return self._end is not None or self._state.is_over

    @property
    def ended(self) -> dict[str, Any] | None:
        """The recorded end that is no engine action (``kind``, ``seat``, ``version``), or None."""
        return None if self._end is None else dict(self._end)

    def end(self, kind: EndKind, seat: int) -> dict[str, Any]:
        """End the game now because ``seat`` timed out or resigned (every other seat wins), or offered a draw that
        every seat accepted (nobody wins); the engine's state is untouched; the record keeps the end in
        ``meta["end"]`` and resumes to it; the outcome.

        >>> table = Table.create("zeta", ["human", "human"], seed=3)
        >>> table.end(EndKind.TIMEOUT, 0)["reason"], table.is_over, table.current_seat
        ('P1 ran out of time', True, None)
        >>> Table.resume(table.record()).outcome()["loser"]
        0
        """
        if self.is_over:
            raise TableError("game_over", "the game is over")
        if not 0 <= seat < len(self.seats):
            raise TableError("no_such_seat", f"there is no seat {seat_name(seat)} at this table")
        self._end = {"kind": kind.value, "seat": seat, "version": self.version}
        out = self.outcome()
        assert out is not None
        return out

    @property
    def humans(self) -> list[int]:
        """The seats played by people."""
        return [s.index for s in self.seats if s.is_human]

    @property
    def is_hot_seat(self) -> bool:
        """True when several people share one screen."""
        return len(self.humans) > 1

    @property
    def names(self) -> tuple[str, ...]:
        """Every seat's label, the one form every screen, log, record and message uses."""
        n = len(self.humans)
        return tuple(s.label(n) for s in self.seats)

    def name(self, seat: int | None) -> str:
        """One seat's label (``nobody`` for None)."""
        return "nobody" if seat is None else self.names[seat]

    def agent_to_move(self) -> bool:
        """True when the seat to move is played by an agent."""
        seat = self.current_seat
        return seat is not None and not self.seats[seat].is_human

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know now (None: a spectator)."""
        return self._state.view(seat)

    def events(self, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
        """``seat``'s event log from index ``start`` (None: the spectators' public log)."""
        return self._state.events_for(seat, start)

    @property
    def event_count(self) -> int:
        """How many events the log holds (the same for every seat)."""
        return len(self._state.events)

    def log_lines(self, seat: int | None, start: int = 0) -> list[str]:
        """``seat``'s event log from ``start`` in words (the game's ``describe_event``)."""
        from cardtable.core.registry import describer

        describe = describer(self.game.name)
        names = self.names
        return [describe(e, names) for e in self.events(seat, start)]

    def legal(self, seat: int | None) -> list[str]:
        """The legal actions of ``seat`` as canonical strings (empty unless it decides now)."""
        if seat is None or seat != self.current_seat:
            return []
        return [str(a) for a in self._state.legal_actions()]

    def outcome(self) -> dict[str, Any] | None:
        """The outcome as JSON with the winners' labels (None while the game goes on)."""
        if self._end is not None and self._end["kind"] == EndKind.DRAW.value:
            return {"winners": [], "reason": "drawn by agreement", "rule": "", "scores": None, "detail": "",
                    "end": EndKind.DRAW.value, "offered_by": int(self._end["seat"]), "winner_names": []}
        if self._end is not None:
            loser = int(self._end["seat"])
            winners = [p for p in range(len(self.seats)) if p != loser]
            return {"winners": winners, "reason": f"{seat_name(loser)} {END_WORDS[EndKind(self._end['kind'])]}",
                    "rule": "", "scores": None, "detail": "", "end": self._end["kind"], "loser": loser,
                    "winner_names": [self.names[w] for w in winners]}
        out = self._state.outcome()
        if out is None:
            return None
        data = out.to_json()
        data["winner_names"] = [self.names[w] for w in out.winners]
        return data

    # -- moves --------------------------------------------------------------------------------------
    def check(self, seat: int, action: Action | str, version: int | None = None) -> Action:
        """The action ``seat`` may play now, parsed; TableError / IllegalAction / InvalidAction if not."""
        if not 0 <= seat < len(self.seats):
            raise TableError("no_such_seat", f"there is no seat {seat_name(seat)} at this table")
        if self.is_over:
            raise TableError("game_over", "the game is over")
        if version is not None and version != self.version:
            raise TableError("stale_version", f"the game has moved on: you saw version {version}, "
                                              f"it is now {self.version}")
        if seat != self.current_seat:
            raise TableError("not_your_turn", f"it is {self.name(self.current_seat)}'s decision, "
                                              f"not {self.name(seat)}'s")
        act = self._state.to_action(action)
        problem = self._state.illegality(act, seat)
        if problem is not None:
            from cardtable.core import IllegalAction

            raise IllegalAction(act, problem[0], problem[1], self._state.summary())
        return act

    def play(self, seat: int, action: Action | str, version: int | None = None) -> Action:
        """Apply ``seat``'s action (checked against ``version`` if given); the state is unchanged on any error."""
        act = self.check(seat, action, version)
        self._state.apply_legal(act)  # checked just now, once
        self.actors.append(seat)
        return act

    def _agent(self, seat: int) -> Any:
        agent = self._agents.get(seat)
        if agent is None:
            from cardtable.agents import make_agent

            agent = make_agent(self.seats[seat].spec, self.game)
            self._agents[seat] = agent
        return agent

    def think(self, state: State | None = None) -> Decision:
        """The agent's decision for the seat to move, from that seat's view only; nothing is applied.

        Pass a ``state.clone()`` snapshot to think in a worker while the table serves others; the
        decision carries the version it was made at, so ``play`` refuses it if the table moved on.
        """
        st = self._state if state is None else state
        seat = st.current_player
        if seat is None:
            raise TableError("game_over", "the game is over")
        if self.seats[seat].is_human:
            raise TableError("not_an_agent", f"{self.name(seat)} is played by a person")
        from cardtable.agents import decide

        action = decide(self._agent(seat), st, agent_rng(st.seed, seat, len(st.history)))
        return Decision(seat, len(st.history), str(action))

    def step_agent(self) -> Action:
        """Let the agent of the seat to move decide and play."""
        d = self.think()
        return self.play(d.seat, d.action, d.version)

    def run_agents(self, limit: int | None = None) -> list[Action]:
        """Let agents play until a person must decide or the game ends (at most ``limit`` moves)."""
        done: list[Action] = []
        while self.agent_to_move() and (limit is None or len(done) < limit):
            done.append(self.step_agent())
        return done

    def hint(self, seat: int, spec: str = "ismcts:normal", top: int = 5) -> Hint:
        """The ``spec`` agent's advice for ``seat`` (from its view only); TableError if it does not decide now."""
        if seat != self.current_seat:
            raise TableError("not_your_turn", f"{self.name(seat)} does not decide now")
        from cardtable.agents import make_agent

        agent = make_agent(spec, self.game)
        rng = random.Random(f"hint:{self._state.seed}:{self.version}")
        best = agent.choose(self.view(seat), self._state.legal_actions(), rng)
        return Hint(str(best), tuple(c.to_json() for c in agent.explain(top)))

    # -- undo ---------------------------------------------------------------------------------------
    def undo_target(self, seat: int) -> tuple[int | None, str]:
        """The version ``undo`` would take ``seat`` back to, or None and why not."""
        if self.undo_policy is UndoPolicy.NEVER:
            return None, "undo is off at this table"
        mine = [i for i, a in enumerate(self.actors) if a == seat]
        if not mine:
            return None, "you have made no decision yet"
        target = mine[-1]
        if self.undo_policy is UndoPolicy.AGAINST_AGENTS:
            others = sorted({self.actors[i] for i in range(target, len(self.actors))
                             if self.actors[i] != seat and self.seats[self.actors[i]].is_human})
            if others:
                who = ", ".join(self.name(p) for p in others)
                return None, f"undo would also take back {who}'s moves; undo is for games against the computer"
        return target, ""

    def undo(self, seat: int) -> int:
        """Take ``seat`` back to its previous decision (replaying the record); how many actions; TableError if not."""
        target, why = self.undo_target(seat)
        if target is None:
            raise TableError("cannot_undo", why)
        taken = self.version - target
        self._end = None
        self._state = replay(self.record(), upto=target, events=True)
        del self.actors[target:]
        return taken

    # -- records ------------------------------------------------------------------------------------
    def record(self) -> Record:
        """The record of the game so far (finished or not): rules, seed, setup, actions, seats and names."""
        meta = {**self.meta, "tool": self.meta.get("tool", RECORD_TOOL),
                "names": [s.name for s in self.seats]}
        meta.pop("end", None)
        if self._end is not None:
            meta["end"] = dict(self._end)
        return record_of(self._state, players=[s.spec for s in self.seats], meta=meta)

    def save(self, path: str | Path) -> None:
        """Write the record so far (``cardtable play --resume FILE`` continues it)."""
        self.record().save(path)


def _seats(specs: Sequence[str | Seat], n: int) -> list[Seat]:
    if len(specs) != n:
        raise ValueError(f"{len(specs)} seats given for a {n}-player game")
    out: list[Seat] = []
    for p, s in enumerate(specs):
        if isinstance(s, Seat):
            out.append(Seat(p, s.spec, s.name))
        else:
            out.append(Seat(p, s))
    return out


def _actors_of(state: State) -> list[int]:
    """Who made each action of ``state``'s history (by replaying it; cheap next to a game)."""
    if not state.history:
        return []
    probe = state.game.new_game(seed=state.seed, **state.setup)
    actors: list[int] = []
    for text in state.history:
        p = probe.current_player
        actors.append(-1 if p is None else p)
        probe.apply(text)
    return actors
