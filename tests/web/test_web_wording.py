"""The banner words another seat's decision about that seat: a bot refilling its train is "P2 refills their
train", never "Refill your train" (which is what the seat to move itself reads)."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.browser

PROMPTS = """async ([game, phases, seat]) => {
  const module = (await import(`/client/js/games/${game}.js`)).default;
  return phases.map((phase) => {
    const ctx = { view: { phase, current_player: 1, players: 3, active: 1, pending: {} }, seat, names: ["P1 Aki", "P2 (bot)", "P3 Emi"],
      replay: false, legal: [], rules: {}, setup: {}, cards: null };
    const p = module.prompt(ctx);
    return [phase, p ? p.text : null];
  });
}"""

PHASES = {
    "oscilloscope": ["assign", "filters", "trigger", "more", "capture", "keep", "refill", "topup", "post", "exchange"],
    "utahime": ["wish", "main", "block", "react", "target", "draw", "heart_pick", "blocker_window", "post", "end", "effect"],
}

SECOND_PERSON = re.compile(r"\b(you|your)\b", re.IGNORECASE)


@pytest.mark.parametrize("game", sorted(PHASES))
def test_a_decision_of_another_seat_is_worded_about_that_seat(server: Any, pages: Any, game: str) -> None:
    page = pages.new()
    page.goto(server.url + "/rules")
    page.wait_for_selector(".topbar")
    for seat in (0, None):  # a player who is not to move, and a spectator
        for phase, text in page.evaluate(PROMPTS, [game, PHASES[game], seat]):
            assert text and "P2 (bot)" in text and not SECOND_PERSON.search(text), (phase, text)
    # the seat to move itself is addressed in the second person
    mine = dict(page.evaluate(PROMPTS, [game, PHASES[game], 1]))
    assert SECOND_PERSON.search(mine["refill" if game == "oscilloscope" else "wish"] or "")
