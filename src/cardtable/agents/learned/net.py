"""A small value and policy network in numpy: the shipped weights, checked against the game's encoding.

The network reads the observation tensor of a view (``Game.encode_view``) and answers two things:
logits over the game's action index (``Game.action_index``; the caller masks them to the legal
actions) and a value in [-1, 1], the viewer's expected return. Its shape is a multilayer perceptron:
``trunk`` layers with ReLU, then a linear policy head and a ``tanh`` value head. The weights are an
``.npz`` file (PyTorch's ``Linear`` layout: ``weight`` is ``(out, in)``) with a JSON file beside it
that names the game, the training configuration, the data version, the file's SHA-256 and the
encoding hash; a network whose encoding hash differs from the game's current one is refused, since it
would read the wrong features or play the wrong actions.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> arrays = {"trunk0.weight": rng.normal(size=(4, 3)).astype(np.float32), "trunk0.bias": np.zeros(4, np.float32),
...           "policy.weight": rng.normal(size=(5, 4)).astype(np.float32), "policy.bias": np.zeros(5, np.float32),
...           "value.weight": rng.normal(size=(1, 4)).astype(np.float32), "value.bias": np.zeros(1, np.float32)}
>>> net = Network.from_arrays(arrays)
>>> logits, value = net.forward(np.ones(3, dtype=np.float32))
>>> logits.shape, value.shape, bool(-1.0 <= float(value[0]) <= 1.0)
((1, 5), (1,), True)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.core import Game

FORMAT = 1
"""The weights format: the array names above and the JSON keys below."""

WEIGHTS_DIR = Path(__file__).with_name("weights")
"""Where the shipped weights live: ``<game>.npz`` and ``<game>.json``."""

Array = npt.NDArray[np.float32]


class WeightsError(ValueError):
    """Weights that cannot be used: missing, damaged, of another game, or of another encoding."""


def encoding_hash(game: Game[Any]) -> str:
    """A short hash of what a network depends on: the observation layout and the action index of ``game``."""
    payload = {"game": game.name, "layout": [list(p) for p in game.observation_layout()],
               "actions": [str(a) for a in game.indexed_actions()]}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass(frozen=True)
class Network:
    """The network's weights as numpy arrays, and its metadata (the JSON beside the weights)."""

    trunk: tuple[tuple[Array, Array], ...]
    policy: tuple[Array, Array]
    value: tuple[Array, Array]
    meta: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, Any], meta: Mapping[str, Any] | None = None) -> Network:
        """A network from named arrays (``trunk0.weight``, ``trunk0.bias``, ..., ``policy.*``, ``value.*``)."""
        def pair(name: str) -> tuple[Array, Array]:
            try:
                w = np.ascontiguousarray(arrays[f"{name}.weight"], dtype=np.float32)
                b = np.ascontiguousarray(arrays[f"{name}.bias"], dtype=np.float32)
            except KeyError as exc:
                raise WeightsError(f"the weights have no array {exc.args[0]!r}") from None
            if w.ndim != 2 or b.shape != (w.shape[0],):
                raise WeightsError(f"the arrays of {name} have shapes {w.shape} and {b.shape}")
            return w, b

        trunk: list[tuple[Array, Array]] = []
        while f"trunk{len(trunk)}.weight" in arrays:
            trunk.append(pair(f"trunk{len(trunk)}"))
        policy, value = pair("policy"), pair("value")
        width = trunk[-1][0].shape[0] if trunk else policy[0].shape[1]
        for i in range(1, len(trunk)):
            if trunk[i][0].shape[1] != trunk[i - 1][0].shape[0]:
                raise WeightsError(f"trunk layer {i} reads {trunk[i][0].shape[1]} values, "
                                   f"the layer before gives {trunk[i - 1][0].shape[0]}")
        if policy[0].shape[1] != width or value[0].shape != (1, width):
            raise WeightsError("the heads do not fit the trunk")
        return cls(tuple(trunk), policy, value, dict(meta or {}))

    def arrays(self) -> dict[str, Array]:
        """The named arrays (the ``.npz`` file's contents)."""
        out: dict[str, Array] = {}
        for i, (w, b) in enumerate(self.trunk):
            out[f"trunk{i}.weight"], out[f"trunk{i}.bias"] = w, b
        out["policy.weight"], out["policy.bias"] = self.policy
        out["value.weight"], out["value.bias"] = self.value
        return out

    @property
    def input_size(self) -> int:
        """How many features the network reads."""
        return int((self.trunk[0][0] if self.trunk else self.policy[0]).shape[1])

    @property
    def num_actions(self) -> int:
        """How many logits the policy head gives (the game's action index)."""
        return int(self.policy[0].shape[0])

    def forward(self, x: npt.ArrayLike) -> tuple[Array, Array]:
        """Policy logits ``(batch, actions)`` and values ``(batch,)`` in [-1, 1] for observations ``x``."""
        h = np.asarray(x, dtype=np.float32)
        if h.ndim == 1:
            h = h[None, :]
        for w, b in self.trunk:
            h = np.maximum(h @ w.T + b, 0.0)
        logits = h @ self.policy[0].T + self.policy[1]
        value = np.tanh(h @ self.value[0].T + self.value[1])[:, 0]
        return logits.astype(np.float32, copy=False), value.astype(np.float32, copy=False)

    def check_game(self, game: Game[Any]) -> None:
        """Refuse (WeightsError) unless this network was trained on ``game``'s current encoding."""
        named = self.meta.get("game")
        if named is not None and named != game.name:
            raise WeightsError(f"these weights are for {named}, not {game.name}")
        want = encoding_hash(game)
        have = self.meta.get("encoding_hash")
        if have != want:
            raise WeightsError(f"these weights were trained on encoding {have}, but {game.name}'s encoding is now "
                               f"{want} (its features or action index changed): train again with `cardtable train "
                               f"{game.name}`")
        if self.input_size != game.observation_shape[0] or self.num_actions != game.num_distinct_actions:
            raise WeightsError(f"these weights read {self.input_size} features and give {self.num_actions} logits; "
                               f"{game.name} has {game.observation_shape[0]} and {game.num_distinct_actions}")


def random_network(game: Game[Any], hidden: tuple[int, ...] = (32,), seed: int = 0) -> Network:
    """An untrained network for ``game`` (He-initialised, fixed by ``seed``): for tests and as a starting point."""
    rng = np.random.default_rng(seed)
    widths = [game.observation_shape[0], *hidden]
    arrays: dict[str, Any] = {}

    def layer(name: str, inputs: int, outputs: int) -> None:
        arrays[f"{name}.weight"] = (rng.normal(size=(outputs, inputs)) * np.sqrt(2.0 / inputs)).astype(np.float32)
        arrays[f"{name}.bias"] = np.zeros(outputs, np.float32)

    for i, (a, b) in enumerate(zip(widths, widths[1:], strict=False)):
        layer(f"trunk{i}", a, b)
    layer("policy", widths[-1], game.num_distinct_actions)
    layer("value", widths[-1], 1)
    return Network.from_arrays(arrays, {"game": game.name, "encoding_hash": encoding_hash(game)})


def weights_paths(game: str, path: str | Path | None = None) -> tuple[Path, Path]:
    """The ``.npz`` and ``.json`` files of ``path`` (either one, or their stem), or of the game's shipped weights."""
    base = WEIGHTS_DIR / game if path is None else Path(path)
    if base.suffix in (".npz", ".json"):
        base = base.with_suffix("")
    return base.with_suffix(".npz"), base.with_suffix(".json")


def save_network(net: Network, path: str | Path) -> tuple[Path, Path]:
    """Write ``net`` as ``.npz`` plus ``.json`` (with the weights' SHA-256 filled in); returns both paths."""
    npz, meta_path = weights_paths("", path)
    npz.parent.mkdir(parents=True, exist_ok=True)
    with npz.open("wb") as fh:
        np.savez_compressed(fh, **net.arrays())  # type: ignore[arg-type]
    meta = dict(net.meta)
    meta["format"] = FORMAT
    meta["weights_sha256"] = file_sha256(npz)
    meta_path.write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return npz, meta_path


def read_network(path: str | Path) -> Network:
    """Read weights written by :func:`save_network` (WeightsError if missing or damaged); checks no game."""
    npz, meta_path = weights_paths("", path)
    if not npz.is_file() or not meta_path.is_file():
        raise WeightsError(f"no weights at {npz} (with {meta_path.name} beside it)")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise WeightsError(f"{meta_path} is not JSON: {exc}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise WeightsError(f"{meta_path} is not a weights description of format {FORMAT}")
    if meta.get("weights_sha256") != file_sha256(npz):
        raise WeightsError(f"{npz} does not match the SHA-256 in {meta_path.name}: the file was changed or damaged")
    with np.load(npz) as data:
        arrays = {k: data[k] for k in data.files}
    return Network.from_arrays(arrays, meta)


_CACHE: dict[tuple[str, str], Network] = {}


def load_network(game: Game[Any], path: str | Path | None = None) -> Network:
    """The network for ``game``: from ``path``, or its shipped weights; checked against its encoding (cached)."""
    npz, _ = weights_paths(game.name, path)
    key = (str(npz.resolve()) if npz.exists() else str(npz), encoding_hash(game))
    net = _CACHE.get(key)
    if net is None:
        if path is None and not npz.is_file():
            raise WeightsError(f"no trained network ships for {game.name}; train one with `cardtable train "
                               f"{game.name} --ship`")
        net = read_network(npz)
        net.check_game(game)
        _CACHE[key] = net
    return net


def has_weights(game: str) -> bool:
    """True if trained weights ship for ``game``."""
    npz, meta = weights_paths(game)
    return npz.is_file() and meta.is_file()
