"""Self-play training of the value and policy network the ``learned`` agents play (needs the ``train`` extra).

``cardtable train GAME`` runs :func:`cardtable.train.run.train`: generations of self-play guided by
search (Expert Iteration / AlphaZero), each followed by training on the last generations' positions,
a checkpoint, a match against the heuristic and a report. Only :mod:`cardtable.train.model` and
:mod:`cardtable.train.run` import PyTorch; self-play plays with the numpy network of
:mod:`cardtable.agents.learned`. See docs/learned.md.
"""

from .config import TrainConfig

__all__ = ["TrainConfig"]
