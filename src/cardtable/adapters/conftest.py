"""Pytest only: the adapters' doctests need their frameworks (the ``rl`` and ``bench`` extras); skip the missing ones."""

from __future__ import annotations

import importlib.util

NEEDS = {"pettingzoo.py": "pettingzoo", "gymnasium.py": "gymnasium", "openspiel.py": "pyspiel"}

collect_ignore = [module for module, framework in NEEDS.items() if importlib.util.find_spec(framework) is None]
