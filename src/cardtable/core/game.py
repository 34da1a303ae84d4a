"""The game contract every game meets: ``Game``, ``State``, ``Action`` and ``Outcome``.

A game package subclasses ``Game`` and ``State`` and writes only its own hooks
(``_illegality``, ``_apply`` and the queries); this module guards the contract once:
game over, not your turn, malformed input, illegal actions, and the action history.
"""

from __future__ import annotations

import functools
import operator
import random
from abc import ABCMeta, abstractmethod
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, SupportsIndex, TypeVar

from mypy_extensions import mypyc_attr

from . import jsonpos
from .errors import IllegalAction, InvalidAction, InvalidPosition
from .events import Event
from .rng import clone_rng, fresh_seed, rng_from_json, rng_to_json
from .rules import RulesBase

POSITION_FORMAT = 1

_new_tuple = tuple.__new__


@mypyc_attr(allow_interpreted_subclasses=True)
class Action:
    """Base of every game's actions: small frozen values whose ``str()`` is the canonical notation."""

    __slots__ = ()

    def __str__(self) -> str:  # pragma: no cover - every action class overrides it
        raise NotImplementedError

    def __repr__(self) -> str:
        """Code that builds the action again from its notation, e.g. ``Place.parse('hexer@a1')``."""
        return f"{type(self).__name__}.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str, **flags: Any) -> Action:
        """The action of this class that ``text`` names, read by its game under ``flags`` (the defaults if none).

        A variant that changes what a notation means (Zeta's board size) needs its flags here, as it
        does in ``load_game``. An action no game owns (``Pass``, ``Decline``) is read on its own.
        """
        from . import registry  # the registry imports this module's users

        name = registry.game_of_module(getattr(cls, "__module__", ""))  # noqa: B009 - compiled classes reach it only so
        if name is None:
            try:
                plain = cls()
            except TypeError:
                raise InvalidAction(text, f"{cls.__name__} belongs to no registered game") from None
            if str(plain) != text:
                raise InvalidAction(text, f"a {cls.__name__} is written {str(plain)!r}")
            return plain
        action = registry.load_game(name, **flags).parse_action(text)
        if not isinstance(action, cls):
            raise InvalidAction(text, f"it is a {type(action).__name__}, not a {cls.__name__}", game=name)
        return action


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winners (empty for a draw), why, by which rule, and scores."""

    winners: tuple[int, ...]
    reason: str
    rule: str = ""
    scores: tuple[float, ...] | None = None
    detail: str = ""

    @property
    def is_draw(self) -> bool:
        """True when nobody won."""
        return not self.winners

    def to_json(self) -> dict[str, Any]:
        """The outcome as a JSON object."""
        return {
            "winners": list(self.winners),
            "reason": self.reason,
            "rule": self.rule,
            "scores": list(self.scores) if self.scores is not None else None,
            "detail": self.detail,
        }

    @classmethod
    def from_json(cls, data: Any, path: str = "$.outcome") -> Outcome:
        """Read an outcome written by ``to_json``."""
        d = jsonpos.obj(data, path)
        winners = tuple(jsonpos.integer(w, f"{path}.winners[{i}]", 0) for i, w in enumerate(jsonpos.array(jsonpos.get(d, "winners", path), f"{path}.winners")))
        scores_raw = d.get("scores")
        scores = None
        if scores_raw is not None:
            values = jsonpos.array(scores_raw, f"{path}.scores")
            for i, v in enumerate(values):
                if not isinstance(v, (int, float)) or isinstance(v, bool):
                    raise InvalidPosition(f"{path}.scores[{i}]", f"expected a number, got {v!r}")
            scores = tuple(float(v) for v in values)
        if len(set(winners)) != len(winners):
            raise InvalidPosition(f"{path}.winners", "a seat is listed twice")
        return cls(winners, jsonpos.string(jsonpos.get(d, "reason", path), f"{path}.reason"),
                   jsonpos.string(d.get("rule", ""), f"{path}.rule"), scores,
                   jsonpos.string(d.get("detail", ""), f"{path}.detail"))


RulesT = TypeVar("RulesT", bound=RulesBase)


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(Generic[RulesT], metaclass=ABCMeta):
    """A game with fixed rules: the factory of states, the parser of actions and positions."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    Rules: ClassVar[type[RulesBase]]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    zero_sum: ClassVar[bool] = False
    """True when the returns of every finished game add up to 0 (a win and a loss, or a draw)."""

    _index_maps_: tuple[tuple[Action, ...], dict[Action, int], dict[int, int]] | None = None
    """The action index maps, built on first use (``_index_maps``)."""

    def __init__(self, rules: RulesT) -> None:
        self.rules = rules

    def __repr__(self) -> str:
        changed = ", ".join(f"{k}={v!r}" for k, v in self.rules.changed_flags().items())
        return f"load_game({self.name!r}{', ' if changed else ''}{changed})"

    # -- states ---------------------------------------------------------------------------------
    def new_game(self, seed: int | None = None, *, record_events: bool = False, **setup: Any) -> State:
        """A new game: all randomness comes from a ``random.Random(seed)`` that the state owns.

        With ``record_events`` the state keeps its :class:`~cardtable.core.events.Event` log from the
        setup on (a table does; searches and playouts do not, and pay nothing for it).
        """
        if seed is None:
            seed = fresh_seed()
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be an integer, got {seed!r}")
        normal = self.normalize_setup(setup)
        if not record_events:
            return self._new_state(seed, normal, random.Random(seed))
        return self._new_recording_state(seed, normal, random.Random(seed))

    def _new_recording_state(self, seed: int, setup: dict[str, Any], rng: random.Random) -> State:
        """The initial state with its log on and the setup's events in it (a game may record while it deals).

        While the setup logs, ``move_base`` is 0, so its entries (turn 1's included) say ``SETUP_MOVE``.
        """
        state = self._new_state(seed, setup, rng)
        state.move_base = 0
        state.record_events()
        state._setup_events()
        state.move_base = 1
        return state

    def normalize_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """Validate setup options and return their JSON-safe, complete form (ValueError if bad)."""
        if setup:
            raise ValueError(f"{self.name} takes no setup options; got {', '.join(setup)}")
        return {}

    @abstractmethod
    def _new_state(self, seed: int, setup: dict[str, Any], rng: random.Random) -> State:
        """Build the initial state (shuffles, first player) from the normalized setup."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Parse canonical notation into an action, or raise InvalidAction (for input that is no string too)."""

    def from_json(self, data: Any) -> State:  # noqa: C901 - one validation pass over the envelope
        """Rebuild a state written by ``State.to_json``; raise InvalidPosition saying what is wrong."""
        d = jsonpos.obj(data, "$")
        if d.get("game") != self.name:
            raise InvalidPosition("$.game", f"expected {self.name!r}, got {d.get('game')!r}")
        jsonpos.integer(jsonpos.get(d, "format", "$"), "$.format", POSITION_FORMAT, POSITION_FORMAT)
        rules_raw = jsonpos.obj(jsonpos.get(d, "rules", "$"), "$.rules")
        try:
            rules = type(self.rules).from_flags(**dict(rules_raw))
        except (ValueError, TypeError) as exc:
            raise InvalidPosition("$.rules", str(exc)) from None
        if rules != self.rules:
            raise InvalidPosition("$.rules", f"position was made under other rules: {rules.changed_flags()} "
                                             f"(this game: {self.rules.changed_flags()}); load that game instead")
        seed = jsonpos.integer(jsonpos.get(d, "seed", "$"), "$.seed")
        setup = dict(jsonpos.obj(jsonpos.get(d, "setup", "$"), "$.setup"))
        try:
            setup = self.normalize_setup(setup)
        except (ValueError, TypeError) as exc:
            raise InvalidPosition("$.setup", str(exc)) from None
        history = [jsonpos.string(h, f"$.history[{i}]") for i, h in enumerate(jsonpos.array(jsonpos.get(d, "history", "$"), "$.history"))]
        for i, text in enumerate(history):
            try:
                self.parse_action(text)
            except InvalidAction as exc:
                raise InvalidPosition(f"$.history[{i}]", exc.reason) from None
        rng = rng_from_json(jsonpos.get(d, "rng", "$"))
        state = self._state_from_json(jsonpos.get(d, "position", "$"), seed, setup, rng)
        state.history = history
        return state

    @abstractmethod
    def _state_from_json(self, position: Any, seed: int, setup: dict[str, Any], rng: random.Random) -> State:
        """Rebuild the game-specific part of a state (``$.position``), validating it."""

    @abstractmethod
    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> State:
        """A full state consistent with ``view``, hidden cards drawn with ``rng`` from what the viewer cannot see."""

    def sampler(self, view: Mapping[str, Any]) -> Callable[[random.Random], State]:
        """Deals determinisations of ``view`` (a search calls it once per sample): ``sample_state`` bound to it.

        A game may read the view once here and deal each sample from a template; every sample must be
        distributed as ``sample_state(view, rng)`` would be.
        """
        return functools.partial(self.sample_state, view)

    # -- metadata -------------------------------------------------------------------------------
    def num_players_for(self, setup: Mapping[str, Any]) -> int:
        """How many players a game with this (normalized) setup has."""
        return self.min_players

    @classmethod
    def conformance_cases(cls) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """(rule flags, setup) pairs the shared conformance suite runs this game under."""
        return [({}, {})]

    @classmethod
    def bench_cases(cls) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
        """(label, rule flags, setup) triples that ``cardtable bench`` measures."""
        return [("default", {}, {})]

    termination_bound: ClassVar[int] = 10_000
    """No game of this game lasts more actions than this (checked by the conformance suite)."""

    # -- action index and observation tensors (for learning and research tools) -----------------
    def _encoding(self) -> Any:
        """The game's encoding (its kit's ``encoding``, else its package's ``encoding`` module), imported on first use."""
        import importlib

        from . import registry

        try:
            named = registry.part(self.name, "encoding", required=False)
        except ValueError:  # a Game class used without a registration: its package's module, if any
            named = None
        except registry.MissingPart as exc:
            raise NotImplementedError(f"{self.name} has no action index and observation encoding ({exc})") from None
        if named is not None:
            return named
        package = type(self).__module__.rpartition(".")[0]
        try:
            if not package:
                raise ModuleNotFoundError(name="encoding")
            return importlib.import_module(f"{package}.encoding")
        except ModuleNotFoundError as exc:
            if exc.name not in (f"{package}.encoding", "encoding"):
                raise
            raise NotImplementedError(f"{self.name} has no action index and observation encoding "
                                      f"(no module {package or '<its package>'}.encoding)") from None

    @property
    def has_encoding(self) -> bool:
        """True when the game ships an action index and an observation tensor (its ``encoding`` module)."""
        try:
            self._encoding()
        except NotImplementedError:
            return False
        return True

    def _index_maps(self) -> tuple[tuple[Action, ...], dict[Action, int], dict[int, int]]:
        """The action index, the index of each action, and of each indexed action object by identity (built once)."""
        maps = self._index_maps_
        if maps is None:
            actions = tuple(self._encoding().index_actions(self.rules))
            by_action = {a: i for i, a in enumerate(actions)}
            if len(by_action) != len(actions):
                raise ValueError(f"{self.name}'s action index names an action twice")
            # legal_actions() hands out these very objects: finding them by identity skips dataclass hashing
            maps = (actions, by_action, {id(a): i for i, a in enumerate(actions)})
            self._index_maps_ = maps
        return maps

    def encoding_problem(self, setup: Mapping[str, Any]) -> str | None:
        """Why the action index or the observation tensor cannot serve games with this setup, or None."""
        hook = getattr(self._encoding(), "encoding_problem", None)
        return None if hook is None else hook(self.rules, self.normalize_setup(setup))

    def indexed_actions(self) -> tuple[Action, ...]:
        """Every action the game can ever offer under its rules, in index order (the action index)."""
        return self._index_maps()[0]

    @property
    def num_distinct_actions(self) -> int:
        """How many actions the action index numbers (``0 .. num_distinct_actions - 1``)."""
        return len(self.indexed_actions())

    def action_from_index(self, index: object) -> Action:
        """The action with this index (ValueError for anything but an integer in ``0 .. num_distinct_actions - 1``)."""
        actions = self.indexed_actions()
        i = operator.index(index) if isinstance(index, SupportsIndex) and not isinstance(index, bool) else -1
        if not 0 <= i < len(actions):
            raise ValueError(f"{self.name} has no action index {index!r} (0 .. {len(actions) - 1})")
        return actions[i]

    def action_index(self, action: object) -> int:
        """The index of an action (or of the action its string names); ValueError if the index has none."""
        act = self.parse_action(action) if isinstance(action, str) else action
        if not isinstance(act, Action):
            raise ValueError(f"{act!r} is neither an action nor an action's notation")
        _, by_action, by_id = self._index_maps()
        found = by_id.get(id(act))
        if found is None:
            found = by_action.get(act)
        if found is None:
            raise ValueError(f"{str(act)!r} is not in {self.name}'s action index")
        return found

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of every observation tensor under these rules (``encode_view``)."""
        shape: tuple[int, ...] = self._encoding().observation_shape(self.rules)
        return shape

    def observation_layout(self) -> tuple[tuple[str, int], ...]:
        """The observation tensor's named segments in order, as (name, length) pairs."""
        layout: tuple[tuple[str, int], ...] = self._encoding().observation_layout(self.rules)
        return layout

    def encode_view(self, view: Mapping[str, Any]) -> Any:
        """The observation tensor (a ``float32`` numpy array in [0, 1]) of a view from ``state.view(seat)``."""
        return self._encoding().encode_view(self.rules, view)


@mypyc_attr(allow_interpreted_subclasses=True)
class State(metaclass=ABCMeta):
    """A position plus everything needed to continue it: rules, RNG, seed, setup and history."""

    game: Game[Any]
    seed: int
    setup: dict[str, Any]
    history: list[str]

    # -- randomness -----------------------------------------------------------------------------
    _rng: random.Random
    _rng_shared: bool = False
    """True while ``_rng`` may be shared with a clone: the first draw then copies it (copy on write)."""
    move_base: int = 1
    """What a log entry adds to the index in ``history`` of the action it belongs to: 1 in play, 0 while
    the setup logs, so an entry stores its move plus one and a setup's entry says ``SETUP_MOVE``."""

    @property
    def rng(self) -> random.Random:
        """The state's own generator (all its randomness); a clone's is copied only when first used."""
        if self._rng_shared:
            self._rng = clone_rng(self._rng)
            self._rng_shared = False
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value
        self._rng_shared = False

    def _share_rng(self, clone: State) -> None:
        """Give ``clone`` this state's generator until either of them draws (copying it costs a rollout's 15%)."""
        self._rng_shared = True
        clone._rng = self._rng
        clone._rng_shared = True

    # -- the game's hooks -----------------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat (0-based) that decides next, or None once the game is over."""

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many seats this game has."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """Every legal action now, in a deterministic order; empty once over; never raises."""

    @abstractmethod
    def _illegality(self, action: Action) -> tuple[str, str] | None:
        """None if ``action`` is legal now, else (rule id, reason). Never raises, never mutates."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Carry out an action already known to be legal."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may know (None: a spectator), JSON-safe."""

    @abstractmethod
    def _position_json(self) -> dict[str, Any]:
        """The game-specific part of ``to_json``."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (RNG included)."""

    @abstractmethod
    def zones(self) -> dict[str, list[str]]:
        """Every card of the game by zone name (for card-conservation checks and displays)."""

    @abstractmethod
    def expected_cards(self) -> Counter[str]:
        """The multiset of cards the zones must hold together, fixed by the setup."""

    @abstractmethod
    def summary(self) -> str:
        """A one-line description of the position, for error messages and logs."""

    # -- events ---------------------------------------------------------------------------------
    _events: list[Any] | None = None
    """The event log when recording (see :mod:`cardtable.core.events`); None (the default) when not.

    The log is the game's own: its entries are what its codec writes, a ``(kind, public, secret, to,
    move)`` row (``_emit``) or, for a game's most frequent events, one int (its ``codec`` module's
    layouts). Every entry stores its move plus ``move_base`` less one, so the setup's say ``SETUP_MOVE``.
    Core reads an entry only through ``_event_row``; ``events`` builds :class:`Event` objects beside
    the log, never in it.
    """
    _decoded: list[Event] | None = None
    """The events built so far from the log's entries, in order (``events``)."""

    def _setup_events(self) -> None:
        """Emit what the setup tells each seat (its dealt hand, who moves first); called once by ``new_game``."""
        return  # a game with nothing to tell at setup keeps this default

    def _emit(self, kind: str, public: Mapping[str, Any] | None = None, secret: Mapping[str, Any] | None = None,
              to: tuple[int, ...] = ()) -> None:
        """Log an event of the action being applied (no-op unless recording); see ``Event`` for the parts."""
        events = self._events
        if events is not None:
            events.append((kind, public, secret, to, len(self.history) + self.move_base - 1))

    def _decode_event(self, code: int) -> tuple[Any, ...]:
        """The ``(kind, public, secret, to, move)`` row of a compact event code (a game that logs codes says how)."""
        raise NotImplementedError(f"{type(self).__name__} logs no compact events")

    def _event_row(self, entry: Any) -> tuple[Any, ...]:
        """The ``(kind, public, secret, to, move)`` row of one log entry (a row, or a code the game decodes)."""
        return self._decode_event(entry) if type(entry) is int else entry

    def record_events(self) -> None:
        """Start keeping the event log (from this point on; a table turns it on at ``new_game``)."""
        if self._events is None:
            self._events = []

    @property
    def is_recording(self) -> bool:
        """True while the state keeps its event log."""
        return self._events is not None

    @property
    def events(self) -> list[Event]:
        """Every event so far with its secret parts (server side only; empty when not recording)."""
        log = self._events
        if log is None:
            return []
        done = self._decoded
        if done is None:
            done = self._decoded = []
        for j in range(len(done), len(log)):
            row = self._event_row(log[j])
            done.append(_new_tuple(Event, row if row[1] is not None else (row[0], {}, *row[2:])))
        return done

    def event_rows(self) -> list[Any]:
        """The log as kept, for readers of a whole log in a hot loop (the lab): its entries, unread.

        An entry is a ``(kind, public, secret, to, move)`` row (``public`` may be None for an event
        with no public fields) or the game's compact code, an int, that its codec reads
        (``_event_row`` turns either into a row).
        """
        log = self._events
        return log if log is not None else []

    def events_for(self, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
        """Events ``start`` onwards as ``seat`` learns them (None: a spectator's public log)."""
        return [e.seen_by(seat) for e in self.events[start:]]

    # -- the contract, guarded once -------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.outcome() is not None

    def to_action(self, action: object) -> Action:
        """The action itself, or the action its canonical string names (InvalidAction if neither)."""
        if isinstance(action, str):
            return self.game.parse_action(action)
        if isinstance(action, Action):
            return action
        raise InvalidAction(action, "expected an action or its canonical string", game=self.game.name)

    def illegality(self, action: object, player: int | None = None) -> tuple[str, str] | None:
        """None if legal now, else (rule id, reason); raises only InvalidAction for non-notation."""
        act = self.to_action(action)
        out = self.outcome()
        if out is not None:
            return (out.rule or "GAME-OVER", f"the game is over ({out.reason})")
        if player is not None and player != self.current_player:
            return ("TURN", f"it is seat {self.current_player}'s decision, not seat {player}'s")
        return self._illegality(act)

    def is_legal(self, action: object, player: int | None = None) -> bool:
        """True if ``action`` may be applied now; never raises."""
        try:
            return self.illegality(action, player) is None
        except InvalidAction:
            return False

    def apply(self, action: object, player: int | None = None) -> Action:
        """The checked door: apply an action (or its string); IllegalAction / InvalidAction leave the state unchanged.

        It checks what ``illegality`` checks (game over, ``player``'s turn, the rules), then goes
        through ``apply_legal``. Input from outside (a person, a client, a record) comes in here.
        """
        act = self.to_action(action)
        problem = self.illegality(act, player)
        if problem is not None:
            raise IllegalAction(act, problem[0], problem[1], self.summary())
        return self.apply_legal(act)

    def apply_legal(self, action: Action) -> Action:
        """The unchecked door: apply an action its caller knows to be legal now (one of ``legal_actions()``).

        Nothing is checked: an illegal action here leaves the state undefined. Searches, playouts and
        the table after its own check call it; a game may override it with a faster implementation
        of the same rules (never a second statement of them).
        """
        self._apply(action)
        self.history.append(str(action))
        return action

    def action_index(self, action: object) -> int:
        """The index of an action in the game's action index (``Game.action_index``)."""
        return self.game.action_index(action)

    def legal_action_indices(self) -> list[int]:
        """The indexes of the legal actions, ascending (empty once over)."""
        _, by_action, by_id = self.game._index_maps()
        out = []
        for a in self.legal_actions():
            i = by_id.get(id(a))
            if i is None:
                i = by_action.get(a)
                if i is None:
                    raise ValueError(f"the legal action {str(a)!r} is not in {self.game.name}'s action index")
            out.append(i)
        out.sort()
        return out

    def legal_action_mask(self) -> list[int]:
        """One 0/1 per index of the action index: 1 where the action is legal now."""
        mask = [0] * len(self.game.indexed_actions())
        for i in self.legal_action_indices():
            mask[i] = 1
        return mask

    def returns(self) -> list[float]:
        """One float per seat: +1 win, -1 loss, 0 draw or unfinished (winners share a win)."""
        n = self.num_players
        out = self.outcome()
        if out is None or not out.winners:
            return [0.0] * n
        if n == 1:
            return [1.0 if 0 in out.winners else -1.0]
        return [1.0 if p in out.winners else -1.0 for p in range(n)]

    def to_json(self) -> dict[str, Any]:
        """The whole state, RNG included, so a game continues identically after a round trip."""
        return {
            "format": POSITION_FORMAT,
            "game": self.game.name,
            "rules_version": self.game.rules.rules_version,
            "rules": self.game.rules.flags(),
            "seed": self.seed,
            "setup": self.setup,
            "history": list(self.history),
            "rng": rng_to_json(self.rng),
            "position": self._position_json(),
        }

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.summary()}>"


def perft(state: State, depth: int) -> int:
    """Count legal action sequences of length ``depth`` (a game that ends earlier counts once)."""
    if depth == 0 or state.is_over:
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def perft_divide(state: State, depth: int) -> dict[str, int]:
    """``perft`` broken down by first action, for diagnosing a count that changed."""
    out: dict[str, int] = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        out[str(action)] = perft(child, depth - 1)
    return out


def play_random(state: State, rng: random.Random, max_actions: int | None = None) -> State:
    """Play uniformly random legal actions until the game ends (in place); returns the state."""
    count = 0
    while not state.is_over:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        count += 1
        if max_actions is not None and count >= max_actions:
            break
    return state
