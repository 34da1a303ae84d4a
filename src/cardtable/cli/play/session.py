"""A game being played at the terminal, as data: seats (people or agents), the state, who did what, undo.

No input or output here: :mod:`cardtable.cli.play.loop` drives a session and talks to people.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.agents import Agent, decide, make_agent
from cardtable.core import Action, Game, Record, State, record_of, replay

HUMAN = "human"
"""The spec string of a seat played by a person."""


@dataclass
class Seat:
    """One seat: a person (``agent`` None) or an agent with its own RNG."""

    index: int
    spec: str = HUMAN
    agent: Agent | None = None
    rng: random.Random = field(default_factory=random.Random)

    @property
    def is_human(self) -> bool:
        """True for a seat played by a person."""
        return self.agent is None

    def label(self, humans: int) -> str:
        """``P1 (you)``, ``P2 (random)``; with several people, ``P1``, ``P2`` ..."""
        base = f"P{self.index + 1}"
        if self.is_human:
            return f"{base} (you)" if humans == 1 else base
        return f"{base} ({self.spec})"


def seat_specs(num_players: int, vs: Sequence[str], seat: int | None) -> list[str]:
    """The spec of every seat: the person at ``seat`` (0-based; default 0), ``vs`` filling the others in order.

    Seats left over after ``vs`` are people too (hot-seat). ValueError if ``vs`` is too long or the seat
    is out of range.
    """
    if seat is not None and not 0 <= seat < num_players:
        raise ValueError(f"--seat must be 1 to {num_players} for {num_players} players, got {seat + 1}")
    if not vs:
        return [HUMAN] * num_players
    me = 0 if seat is None else seat
    others = [p for p in range(num_players) if p != me]
    if len(vs) > len(others):
        raise ValueError(f"{len(vs)} --vs agents given but only {len(others)} other seat(s) "
                         f"in a {num_players}-player game")
    specs = [HUMAN] * num_players
    for p, spec in zip(others, vs, strict=False):
        specs[p] = spec
    return specs


class Session:
    """One game at the table: the state, the seats, and which seat made each action (for undo)."""

    def __init__(self, game: Game[Any], state: State, specs: Sequence[str], agent_seed: int | None = None) -> None:
        if len(specs) != state.num_players:
            raise ValueError(f"{len(specs)} seat specs for {state.num_players} seats")
        self.game = game
        self.state = state
        base = state.seed if agent_seed is None else agent_seed
        self.seats = [Seat(p, spec, None if spec == HUMAN else make_agent(spec, game), random.Random(f"{base}:{p}"))
                      for p, spec in enumerate(specs)]
        self.actors: list[int] = []
        """The seat that made each action of ``state.history``."""

    # -- queries -----------------------------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        """The seats played by people."""
        return [s.index for s in self.seats if s.is_human]

    @property
    def is_hot_seat(self) -> bool:
        """True when several people share the terminal (hands must be hidden between turns)."""
        return len(self.humans) > 1

    def labels(self) -> tuple[str, ...]:
        """Every seat's label, for the screens."""
        n = len(self.humans)
        return tuple(s.label(n) for s in self.seats)

    def legal_strings(self) -> list[str]:
        """The legal actions now, as canonical strings, in the game's order."""
        return [str(a) for a in self.state.legal_actions()]

    # -- moves -------------------------------------------------------------------------------------
    def apply(self, action: Action | str) -> Action:
        """Apply an action for the seat to move (the state's errors pass through, leaving it unchanged)."""
        seat = self.state.current_player
        done = self.state.apply(action)
        assert seat is not None
        self.actors.append(seat)
        return done

    def agent_move(self) -> Action:
        """Let the agent of the seat to move choose (from its view only) and apply its action."""
        seat = self.state.current_player
        if seat is None:
            raise ValueError("the game is over")
        s = self.seats[seat]
        if s.agent is None:
            raise ValueError(f"P{seat + 1} is played by a person")
        action = decide(s.agent, self.state, s.rng)
        return self.apply(action)

    # -- undo ---------------------------------------------------------------------------------------
    def undo_target(self, seat: int) -> tuple[int | None, str]:
        """Where ``undo`` would take ``seat`` back to (a history length), or None and why not."""
        mine = [i for i, a in enumerate(self.actors) if a == seat]
        if not mine:
            return None, "you have made no decision yet"
        target = mine[-1]
        others = sorted({self.actors[i] for i in range(target, len(self.actors))
                         if self.actors[i] != seat and self.seats[self.actors[i]].is_human})
        if others:
            who = ", ".join(f"P{p + 1}" for p in others)
            return None, f"undo would also take back {who}'s moves; undo is for games against the computer"
        return target, ""

    def undo(self, seat: int) -> int:
        """Go back to ``seat``'s previous decision by replaying the record without the later actions.

        Returns how many actions were taken back; ValueError saying why if it cannot.
        """
        target, why = self.undo_target(seat)
        if target is None:
            raise ValueError(why)
        taken = len(self.state.history) - target
        self.state = replay(self.record(), upto=target)
        del self.actors[target:]
        return taken

    # -- records ------------------------------------------------------------------------------------
    def record(self) -> Record:
        """The record of the game so far (finished or not)."""
        return record_of(self.state, players=[s.spec for s in self.seats], meta={"tool": "cardtable play"})
