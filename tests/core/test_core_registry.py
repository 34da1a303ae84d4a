"""The registry: built-in games stay available after a game is registered at run time."""

from __future__ import annotations

import pytest

from cardtable.core import registry


def test_register_before_first_lookup_keeps_the_builtin_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_ENTRIES", {})
    monkeypatch.setattr(registry, "_BUILTIN_LOADED", False)
    registry.register("toy", "somewhere:Toy")
    assert {"zeta", "oscilloscope", "utahime", "toy"} <= set(registry.game_names())

