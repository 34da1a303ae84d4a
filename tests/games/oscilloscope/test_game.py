"""The game object: registration, setup options, conformance and bench cases, conservation."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardtable.core import game_names, load_game
from cardtable.games.oscilloscope import OscilloscopeGame, OscilloscopeRules


def test_registered_and_loadable() -> None:
    assert "oscilloscope" in game_names()
    game = load_game("oscilloscope", noise_penalty="two_per_noise")
    assert isinstance(game, OscilloscopeGame) and game.rules.noise_penalty == "two_per_noise"


def test_setup_defaults_to_two_players_and_rejects_others() -> None:
    game = load_game("oscilloscope")
    assert game.normalize_setup({}) == {"players": 2}
    assert game.num_players_for({"players": 3}) == 3
    with pytest.raises(ValueError, match="only the setup option 'players'"):
        game.normalize_setup({"seats": 2})


def test_every_flag_has_a_ledger_entry_and_bad_values_are_refused() -> None:
    specs = OscilloscopeRules.flag_specs()
    assert len(specs) == 35 and all(s.ledger.startswith("OSC-I") and s.doc for s in specs)  # with cards (OSC-I-CT15)
    for bad in ({"trigger_move_range": 0}, {"mp_noise_limit": 16}, {"stall_limit_sets": 0},
                {"noise_penalty": "none"}, {"max_players": 7}):
        with pytest.raises(ValueError):
            load_game("oscilloscope", **bad)


def test_conformance_and_bench_cases() -> None:
    cases = OscilloscopeGame.conformance_cases()
    assert {setup["players"] for _, setup in cases} >= {1, 2, 4}
    assert any(flags for flags, _ in cases)
    assert [label for label, _, _ in OscilloscopeGame.bench_cases()] == ["solo", "4 players"]
    for flags, setup in cases:
        load_game("oscilloscope", **flags).new_game(seed=1, **setup)


@pytest.mark.parametrize("case", range(len(OscilloscopeGame.conformance_cases())))
def test_card_conservation_at_every_step(case: int) -> None:
    flags, setup = OscilloscopeGame.conformance_cases()[case]
    game = load_game("oscilloscope", **flags)
    for seed in range(2):
        state = game.new_game(seed=seed, **setup)
        rng = random.Random(seed)
        while True:
            total: Counter[str] = Counter()
            for zone in state.zones().values():
                total.update(zone)
            assert total == state.expected_cards()
            assert all(sum(h) <= 3 for h in state.hands)  # OSC-R41
            if state.is_over:
                break
            state.apply(state.legal_actions()[rng.randrange(len(state.legal_actions()))])
        returns = state.returns()
        assert len(returns) == state.num_players and all(-1.0 <= r <= 1.0 for r in returns)


def test_engine_does_no_io() -> None:
    import pathlib

    import cardtable.games.oscilloscope as package
    for path in pathlib.Path(package.__file__).parent.glob("*.py"):
        text = path.read_text()
        for word in ("print(", "open(", "input(", "import os", "import sys", "subprocess", "time.sleep"):
            assert word not in text, f"{path.name} uses {word}"
