"""Agents played by a value and policy network learned by self-play: ``learned`` and ``ismcts:learned``.

Inference is numpy only (no PyTorch): the weights ship in ``weights/`` as ``<game>.npz`` with a
``<game>.json`` beside them, written by ``cardtable train GAME --ship`` (the ``cardtable.train``
package, which needs the ``train`` extra). See docs/learned.md.
"""

from .net import (
    WEIGHTS_DIR,
    Network,
    WeightsError,
    encoding_hash,
    has_weights,
    load_network,
    random_network,
    read_network,
    save_network,
    weights_paths,
)
from .policy import LearnedAgent, legal_priors
from .search import GuidedConfig, GuidedSearchAgent

__all__ = [
    "WEIGHTS_DIR", "GuidedConfig", "GuidedSearchAgent", "LearnedAgent", "Network", "WeightsError", "encoding_hash",
    "has_weights", "legal_priors", "load_network", "random_network", "read_network", "save_network", "weights_paths",
]
