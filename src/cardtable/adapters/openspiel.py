"""OpenSpiel: every game registered as an OpenSpiel Python game, ``cardtable_<name>``.

Importing this module registers every game that has an action index and an observation encoding
(``pyspiel.register_game``); ``load(name, **params)`` (or ``pyspiel.load_game("cardtable_zeta",
{...})``) loads one. Parameters are the game's rule flags, the setup options whose default is a
plain value (``players`` for Oscilloscope), ``setup`` (the whole setup as a JSON object, for the
others such as Zeta's ``decks``) and ``rng_seed``.

- **Actions** are the game's action index (``game.num_distinct_actions``); legal actions are the
  sorted indexes of ``state.legal_actions()``, and ``action_to_string`` is the canonical notation.
- **Chance** is the engine's own (``GameType.ChanceMode.SAMPLED_STOCHASTIC``): a cardtable state owns
  its random generator and shuffles and draws inside ``apply``, so the OpenSpiel state has no chance
  nodes and ``clone()`` copies the generator (a clone continues exactly like the original). Each
  ``new_initial_state()`` is ``new_game(seed)`` with the next seed of a stream seeded by ``rng_seed``
  (0 by default), so a game object deals the same sequence of games every run.
- **Information** is imperfect: the information-state and observation strings of a player are its
  seat's view (``state.view(seat)``, JSON with sorted keys), which holds what the seat sees and
  remembers; the tensors are the game's encoding of that view (``game.encode_view``), so both are
  the same for the two kinds (a view is already the seat's memory). A public observer
  (``private_info=NONE``) sees a spectator's view. ``resample_from_infostate`` deals a state from the
  view with ``game.sample_state``, which is what OpenSpiel's ISMCTS needs.
- **Returns** are ``state.returns()``, in [-1, 1]; Zeta and Utahime are zero-sum, Oscilloscope is
  general-sum (rank-based returns, OSC-I-CT7). ``max_game_length`` is the game's ``termination_bound``.

>>> from cardtable.adapters.openspiel import load
>>> game = load("zeta", gravity=True)
>>> game.num_distinct_actions(), game.num_players(), game.get_type().short_name
(977, 2, 'cardtable_zeta')
>>> state = game.new_initial_state()
>>> state.action_to_string(state.legal_actions()[0])
'chant_practice@a1'
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from cardtable.core import Game, State, game_class, game_names, load_game

__all__ = ["CardtableSpielGame", "CardtableSpielState", "load", "register", "short_name"]

PREFIX = "cardtable_"
_registered: dict[str, pyspiel.GameType] = {}
_defaults: dict[str, dict[str, Any]] = {}


def short_name(name: str) -> str:
    """OpenSpiel's name of a cardtable game: ``cardtable_zeta``."""
    return f"{PREFIX}{name}"


def _view_text(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


class _Engine:
    """The cardtable state inside an OpenSpiel state, made on first use (OpenSpiel's clone starts from a fresh state)."""

    __slots__ = ("_make", "_state")

    def __init__(self, make: Callable[[], State] | None, state: State | None = None) -> None:
        self._make = make
        self._state = state

    @property
    def state(self) -> State:
        """The cardtable state (dealt now if it was not yet)."""
        if self._state is None:
            assert self._make is not None
            self._state = self._make()
            self._make = None
        return self._state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(None, self.state.clone())

    def __getstate__(self) -> dict[str, Any]:
        s = self.state
        return {"game": s.game.name, "flags": s.game.rules.flags(), "position": s.to_json()}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self._make = None
        self._state = load_game(data["game"], **data["flags"]).from_json(data["position"])


class CardtableSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a cardtable state (``self.engine``)."""

    def __init__(self, game: CardtableSpielGame, engine: State | None = None) -> None:
        super().__init__(game)
        self._engine = _Engine(game._deal if engine is None else None, engine)

    @property
    def engine(self) -> State:
        """The cardtable state: the true position, for analysis (agents get views)."""
        return self._engine.state

    def current_player(self) -> int:
        """The seat to decide, or ``TERMINAL``."""
        seat = self.engine.current_player
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        """The sorted indexes of the legal actions (none for a player not to move)."""
        state = self.engine
        return state.legal_action_indices() if player == state.current_player else []

    def _apply_action(self, action: int) -> None:
        """Apply the action with this index (the engine's checked ``apply``)."""
        state = self.engine
        state.apply(state.game.action_from_index(action))

    def _action_to_string(self, player: int, action: int) -> str:
        """The canonical notation of an index."""
        return str(self.engine.game.action_from_index(action))

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.engine.is_over

    def returns(self) -> list[float]:
        """``state.returns()``: one value per seat, 0 until the end."""
        return self.engine.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> CardtableSpielState:
        """A state the player cannot tell from this one: ``game.sample_state`` of its view."""
        state = self.engine
        rng = random.Random(probability_sampler())
        return CardtableSpielState(self.get_game(), state.game.sample_state(state.view(player_id), rng))

    # Python callers get the observations straight from the view; C++ callers (OpenSpiel's tests and
    # bots) go through the observer below, and the tests check that both agree.
    def _seat(self, player: int | None) -> int:
        seat = self.current_player() if player is None else player
        if not 0 <= seat < self.num_players():
            raise ValueError(f"no player {seat} in this {self.engine.game.name} game")
        return seat

    def observation_string(self, player: int | None = None) -> str:
        """The player's view as JSON with sorted keys (the player to move by default)."""
        return _view_text(self.engine.view(self._seat(player)))

    def information_state_string(self, player: int | None = None) -> str:
        """The player's view as JSON with sorted keys: a view holds what its seat remembers."""
        return _view_text(self.engine.view(self._seat(player)))

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The game's tensor of the player's view, as a list (the player to move by default)."""
        state = self.engine
        return state.game.encode_view(state.view(self._seat(player))).tolist()  # type: ignore[no-any-return]

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The same tensor as ``observation_tensor``: a view holds what its seat remembers."""
        return self.observation_tensor(player)

    def __str__(self) -> str:
        """The whole position (``to_json``, RNG included) as JSON with sorted keys."""
        return json.dumps(self.engine.to_json(), sort_keys=True, separators=(",", ":"))


class CardtableObserver:
    """A player's view as a string and the game's tensor of it (OpenSpiel's Python observer interface)."""

    def __init__(self, game: Game[Any], iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        private = iig_obs_type.private_info if iig_obs_type is not None else pyspiel.PrivateInfoType.SINGLE_PLAYER
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("a cardtable observer shows one seat's view (or a spectator's), not every seat's")
        self._public = private == pyspiel.PrivateInfoType.NONE
        self._game = game
        self.tensor = np.zeros(game.observation_shape, dtype=np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, size in game.observation_layout():
            self.dict[name] = self.tensor[at:at + size]
            at += size

    def _view(self, state: CardtableSpielState, player: int) -> dict[str, Any]:
        return state.engine.view(None if self._public else player)

    def set_from(self, state: CardtableSpielState, player: int) -> None:
        """Write the tensor of ``player``'s view of ``state``."""
        self.tensor[:] = self._game.encode_view(self._view(state, player))

    def string_from(self, state: CardtableSpielState, player: int) -> str:
        """``player``'s view of ``state`` as JSON with sorted keys."""
        return _view_text(self._view(state, player))


class CardtableSpielGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game over a cardtable game (``self.cardtable``) with a fixed setup."""

    cardtable_name: str = ""
    """The cardtable game's name (each registered game is a subclass that sets it)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        game, setup, info, seed = _prepare(self.cardtable_name, given)  # raises before the C++ side exists
        self.cardtable: Game[Any] = game
        """The cardtable game (its rules fixed by the parameters)."""
        self.setup = setup
        """The setup every initial state is dealt with."""
        super().__init__(_registered[self.cardtable_name], info, given)
        self._seeds = random.Random(seed)

    def _deal(self) -> State:
        return self.cardtable.new_game(seed=self._seeds.getrandbits(63), **self.setup)

    def new_initial_state(self, position: Any = None) -> CardtableSpielState:
        """A new game with the next seed; or the position given (a cardtable ``to_json`` object or its text)."""
        if position is None:
            return CardtableSpielState(self)
        data = json.loads(position) if isinstance(position, str) else position
        return CardtableSpielState(self, self.cardtable.from_json(data))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CardtableObserver:
        """The observer of a seat's view (or a spectator's, for a public observer)."""
        return CardtableObserver(self.cardtable, iig_obs_type, params)


def _prepare(name: str, given: dict[str, Any]) -> tuple[Game[Any], dict[str, Any], Any, int]:
    """The cardtable game, its setup, OpenSpiel's game info and the seed of the parameters (ValueError if bad)."""
    flags, raw_setup, seed = _split_params(name, {**_defaults[name], **given})
    game = load_game(name, **flags)
    setup = game.normalize_setup(raw_setup)
    problem = game.encoding_problem(setup)
    if problem is not None:
        raise ValueError(f"{name}: {problem}")
    info = pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions, max_chance_outcomes=0,
        num_players=game.num_players_for(setup), min_utility=-1.0, max_utility=1.0,
        utility_sum=0.0 if game.zero_sum else None, max_game_length=int(game.termination_bound))
    return game, setup, info, seed


def _scalar_setup(name: str) -> dict[str, Any]:
    cls = game_class(name)
    defaults = cls(cls.Rules()).normalize_setup({})
    return {k: v for k, v in defaults.items() if isinstance(v, (bool, int, float, str))}


def _split_params(name: str, params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], int]:
    flag_names = {spec.name for spec in game_class(name).Rules.flag_specs()}
    flags = {k: v for k, v in params.items() if k in flag_names}
    raw = params.get("setup", "{}")
    setup = json.loads(raw) if isinstance(raw, str) else dict(raw)
    if not isinstance(setup, dict):
        raise ValueError(f"the setup parameter must be a JSON object, got {raw!r}")
    for key in _scalar_setup(name):
        if key in params:
            setup.setdefault(key, params[key])
    return flags, setup, int(params.get("rng_seed", 0))


def register(name: str) -> str:
    """Register a cardtable game with OpenSpiel (once) and return its OpenSpiel name."""
    if name in _registered:
        return short_name(name)
    cls = game_class(name)
    probe = cls(cls.Rules())
    if not probe.has_encoding:
        raise ValueError(f"{name} has no action index and observation encoding yet")
    spec: dict[str, Any] = {s.name: s.default for s in cls.Rules.flag_specs()}
    spec.update(_scalar_setup(name))
    spec.update({"setup": "{}", "rng_seed": 0})
    game_type = pyspiel.GameType(
        short_name=short_name(name), long_name=f"cardtable {cls.title or name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if cls.zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players, min_num_players=cls.min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=spec)
    _registered[name] = game_type
    _defaults[name] = spec
    # a class, not a closure: OpenSpiel keeps the factory until the interpreter's very end
    factory = type(f"CardtableSpielGame_{name}", (CardtableSpielGame,), {"cardtable_name": name})
    pyspiel.register_game(game_type, factory)
    return short_name(name)


def load(name: str, **params: Any) -> Any:
    """The OpenSpiel game of a cardtable game (registered if needed) with these parameters."""
    return pyspiel.load_game(register(name), params)


def _register_all() -> None:
    for name in game_names():
        cls = game_class(name)
        if cls(cls.Rules()).has_encoding:
            register(name)


_register_all()
