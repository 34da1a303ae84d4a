"""A refused move and the end screen read in the page's language: every refusal and every end each game's
page module words (its REFUSALS and ENDINGS tables, held to the engine's ids by test_web_refusal_words.py)
is shown in Japanese with no Latin words but notation, and a move refused at a real table reads so too."""

from __future__ import annotations

from typing import Any

import pytest

from .play import hold_seat, wait_turn
from .test_web_japanese import critical_text, latin_words, where
from .test_web_refusal_words import GAMES, page_text, table

pytestmark = pytest.mark.browser

SAMPLE_MOVES = {"zeta": ["hexer@a1", "target:c3", "destroy:hexer", "pass"], "utahime": ["attack S9", "noblock", "pass HA"],
                "oscilloscope": ["assign B", "refill A LH", "pass"]}
"""Moves typed as a player types them, to word each refusal with (besides a move with no card or square)."""

WORDS = """async ([game, refusals, endings, moves]) => {
  const page = (await import(`/client/js/games/${game}.js`)).default;
  const cards = await (await fetch("/web/cards")).json();
  const ctx = { game, cards, names: ["亜紀", "美緒"], seat: 0, rules: {}, setup: {}, events: [], legal: [],
    view: { board: {}, hands: [[], []], turn: 5, players: 2, counters: {} } };
  const out = [];
  for (const rule of refusals) {
    for (const move of ["x", ...moves]) {
      out.push([`refusal ${rule} (${move})`, page.refusal({ code: "illegal_action", rule, message: "English" }, move, ctx)]);
    }
  }
  out.push(["not a move", page.refusal({ code: "invalid_action", message: "English" }, "zzz", ctx)]);
  for (const key of endings) {
    const o = { winners: [0], scores: [3, 1], reason: key, rule: key, detail: "the engine's English detail" };
    out.push([`reason ${key}`, page.reason(o, { ...ctx, outcome: o })]);
    out.push([`detail ${key}`, page.detail(o, { ...ctx, outcome: o }) || ""]);
  }
  const resigned = { winners: [0], scores: null, reason: "P2 resigned", rule: "", detail: "", end: "resign", loser: 1 };
  out.push(["reason resign", page.reason(resigned, ctx) || ""]);
  out.push(["detail resign", page.detail(resigned, ctx) || ""]);
  return out;
}"""


@pytest.mark.parametrize("game", GAMES)
def test_every_refusal_and_end_a_game_page_words_reads_in_japanese(server: Any, pages: Any, game: str) -> None:
    text = page_text(game)
    refusals, endings = sorted(table(text, "REFUSALS")), sorted(table(text, "ENDINGS"))
    page = pages.new(locale="ja-JP")
    page.goto(server.url + "/rules")
    page.wait_for_selector("html[lang=ja]", state="attached")
    words = page.evaluate(WORDS, [game, refusals, endings, SAMPLE_MOVES[game]])
    assert len(words) == len(refusals) * (1 + len(SAMPLE_MOVES[game])) + 1 + 2 * len(endings) + 2
    for what, said in words:
        assert isinstance(said, str), what
        if what.startswith(("refusal", "reason ", "not a move")) and what != "reason resign":
            assert said.strip(), f"{game} {what}: no words"
        found = latin_words(said)
        assert found == [], f"{game} {what}: {said} ({found})"
        assert "{" not in said and "undefined" not in said and "null" not in said, f"{game} {what}: {said}"
    # the end of a resigned game is the room's to word (its end line): the page adds no English of its own
    assert dict(words)["reason resign"] == "" and dict(words)["detail resign"] == ""


REFUSED = {
    # Utahime starts with each player's wished card (UTA-R3): a stall is refused (UTA-R56)
    "utahime": (([{"kind": "open"}, {"kind": "bot", "spec": "normal"}], {}, {"first_player": "p1"}), "stall", "UTA-R56"),
    # Oscilloscope solo starts with the choice of filters (OSC-R8): a pass is refused with that rule
    "oscilloscope": (([{"kind": "open"}], {"players": 1}, {}), "pass", "OSC-R8"),
    # Zeta's main step takes a placement or a pass: a target is refused (ZETA-R12)
    "zeta": (([{"kind": "open"}, {"kind": "bot", "spec": "normal"}], {}, {"first_player": "p1"}), "target:c3", "ZETA-R12"),
}


@pytest.mark.parametrize("game", sorted(REFUSED))
def test_a_move_refused_at_a_japanese_table_reads_in_japanese(server: Any, pages: Any, api: Any, game: str) -> None:
    (seats, setup, rules), move, rule = REFUSED[game]
    assert rule in table(page_text(game), "REFUSALS")
    room, token, seat = api.room(game, seats, setup=setup, rules=rules, join="亜紀")
    page = pages.new(locale="ja-JP")
    hold_seat(page, server.url, room, token, seat, game)
    assert wait_turn(page) == "mine"
    page.fill("#command", move)
    page.press("#command", "Enter")
    page.wait_for_selector(".alert")
    alert = page.inner_text(".alert")
    assert "受け付けられませんでした" in alert, alert
    assert rule in alert, alert
    text = critical_text(page)
    found = latin_words(text)
    assert found == [], where(text, found)
