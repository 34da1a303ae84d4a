"""Every event a seeded game logs, pinned: a change to how an engine logs (compact codes, shared parts)
must leave each seat's log, and the whole log, exactly as it was.

The pinned digests are of the full log (every event's kind, public and secret parts, recipients and
move) of random games in each game and setup; ``python tests/games/test_event_logs_pinned.py`` rewrites
them after a change that means to alter the log.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import cardtable

GOLDEN = Path(__file__).parent / "golden" / "event_logs.json"
CASES: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "zeta": ("zeta", {}, {}),
    "zeta-first-p1-extra": ("zeta", {"first_player": "p1", "second_player_extra_card": True}, {}),
    "oscilloscope-1": ("oscilloscope", {}, {"players": 1}),
    "oscilloscope-2": ("oscilloscope", {}, {"players": 2}),
    "oscilloscope-4": ("oscilloscope", {}, {"players": 4}),
    "utahime": ("utahime", {}, {}),
    "utahime-options": ("utahime", {}, {"option_set": "designer_example"}),
    "oscilloscope-3-variants": ("oscilloscope", {"trigger_anchor": "position", "lowhi_multi_per_set": True,
                                                 "main_trigger_optional": True, "close_gaps_on_capture": True},
                                {"players": 3}),
    "utahime-variants": ("utahime", {"optional_draws": True, "heart_ace_extra_draw": True, "club_next_extra_draw": True,
                                     "energy_cap": 6, "starting_energy": 3, "option_reusable": True,
                                     "jqk_set_costs_action": True}, {"option_set": "designer_example"}),
}
SEEDS = range(12)


def log_digest(name: str, seed: int) -> str:
    """The SHA-256 of one seeded random game's whole event log (and of every seat's view of it)."""
    game_name, flags, setup = CASES[name]
    state = cardtable.load_game(game_name, **flags).new_game(seed=seed, record_events=True, **setup)
    rng = random.Random(seed)
    while not state.is_over and len(state.history) < 2000:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    whole = [[str(e.kind), e.public, e.secret, list(e.to), e.move] for e in state.events]
    seats = [state.events_for(s) for s in (None, *range(state.num_players))]
    text = json.dumps([whole, seats], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def digests() -> dict[str, list[str]]:
    """Every case's digests, seed by seed."""
    return {name: [log_digest(name, seed) for seed in SEEDS] for name in CASES}


@pytest.mark.parametrize("name", list(CASES))
def test_a_seeded_game_logs_the_events_it_always_logged(name: str) -> None:
    """Each seeded game's log is the pinned one, event for event."""
    pinned = json.loads(GOLDEN.read_text())[name]
    for seed in SEEDS:
        assert log_digest(name, seed) == pinned[seed], f"{name} seed {seed}: the event log changed"


if __name__ == "__main__":  # pragma: no cover - rewrites the pins
    GOLDEN.write_text(json.dumps(digests(), indent=1) + "\n")
    sys.exit(0)
