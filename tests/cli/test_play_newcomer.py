"""Playing at the terminal as a newcomer: forced decisions, short input, stable numbers, what you drew, the
move history, open threes, the winning line, the 80x24 layout, solo hints and par, and the how-to pages'
worked examples played on the engine."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from play_helpers import REPO, position, quiet_console

import cardtable
from cardtable.cli.play.loop import PlayOptions, TableDriver, resolve_input, stable_numbers
from cardtable.cli.play.par import measure_par, par_for, stored_pars
from cardtable.cli.play.render import Context, forced_reason, render_choices, render_view
from cardtable.cli.play.render.zeta import open_threes
from cardtable.cli.play.terminal import ScriptedReader
from cardtable.table import HUMAN, Table


class FirstLegalReader:
    """Answers every prompt with its first completion word (the first legal action), then quits."""

    def __init__(self, limit: int = 2000, extra: Sequence[str] = ()) -> None:
        self.limit = limit
        self.extra = list(extra)
        self.prompts: list[str] = []

    def read(self, message: str, words: Sequence[str] = ()) -> str:
        """The next answer."""
        self.prompts.append(message)
        if self.extra:
            return self.extra.pop(0)
        if len(self.prompts) > self.limit:
            raise EOFError
        return words[0] if words else ""


def driver(game: str, specs: list[str], reader: Any, seed: int = 5, width: int = 120, height: int = 50,
           **options: Any) -> TableDriver:
    setup = options.pop("setup", {})
    flags = options.pop("flags", {})
    table = Table.create(cardtable.load_game(game, **flags), specs, seed=seed, setup=setup)
    opts = PlayOptions(delay=0, hint_spec="ismcts:iterations=20", ask_save=False, **options)
    return TableDriver(table, quiet_console(width, height), reader, opts)


# -- forced decisions ----------------------------------------------------------------------------------
def test_utahime_forced_decisions_answer_themselves_with_a_reason_uta_r18() -> None:
    auto = driver("utahime", ["random", HUMAN], FirstLegalReader(), seed=3)
    auto.run()
    text = auto.console.export_text()
    assert "» " in text and ("the attack goes through" in text or "the attack's effect happens" in text)
    assert auto.state.is_over
    manual = driver("utahime", ["random", HUMAN], FirstLegalReader(), seed=3, auto_forced=False)
    manual.run()
    # the engine and the other seat learn exactly the same: the same actions, the same logs
    assert auto.state.history == manual.state.history
    assert auto.table.events(0) == manual.table.events(0) and auto.table.events(None) == manual.table.events(None)
    assert len(auto.reader.prompts) < len(manual.reader.prompts)


def test_forced_reasons_say_why() -> None:
    view: dict[str, Any] = {"phase": "block", "current_player": 1, "attacker": 0, "turn": 4,
                            "attack": {"card": "H7", "next": False}, "effects": [],
                            "players": [{"hand": None}, {"hand": ["H10", "S9", "D8"]}]}
    ctx = Context(names=("P1", "P2"))
    assert forced_reason("utahime", view, "noblock", ctx) == (
        "no club card of 7 or more that may block: the attack goes through [UTA-R18, UTA-R19]")
    view["attack"] = {"card": "HA", "next": False}
    assert "cannot be blocked" in forced_reason("utahime", view, "noblock", ctx)
    assert "ZETA-R14" in forced_reason("zeta", {"phase": "main", "board": {}}, "pass", ctx)
    assert "OSC-R37" in forced_reason("oscilloscope", {"phase": "refill"}, "discard NOISE", ctx)


def test_hot_seat_forced_decisions_still_show_the_screen() -> None:
    d = driver("zeta", [HUMAN, HUMAN], ScriptedReader(["", "quit"]), seed=5, flags={"first_player": "p1"})
    d.run()
    text = d.console.export_text()
    assert "Pass the terminal to P1" in text and "»" not in text


# -- input ---------------------------------------------------------------------------------------------
def test_unique_prefixes_and_endings_name_actions() -> None:
    legal = ["chant_practice@c4", "fire_mage@c4", "fire_mage@e5", "target:e4", "pass"]
    assert resolve_input("PA", legal) == ("pass", "")
    assert resolve_input("fire@e5", legal) == ("fire_mage@e5", "")
    assert resolve_input("e4", legal) == ("target:e4", "")
    assert resolve_input("chant@c4", legal) == ("chant_practice@c4", "")
    action, why = resolve_input("c4", legal)
    assert action is None and "could be: 1 chant_practice@c4, 2 fire_mage@c4" in why
    assert resolve_input("3", legal, {"pass": 3, "fire_mage@e5": 1}) == ("pass", "")
    assert resolve_input("9", legal)[1] == "There is no action 9: choose 1 to 5."
    assert resolve_input("frobnicate", legal) == (None, "")
    uta = ["attack H7", "attack H7 next", "attack C3 ban H", "pass H3"]
    assert resolve_input("att h7", uta) == ("attack H7", "")
    assert resolve_input("pass", uta) == ("pass H3", "")


def test_numbers_stay_where_they_were() -> None:
    first = stable_numbers(["attack H7", "attack S9", "pass H3"])
    assert first == {"attack H7": 1, "attack S9": 2, "pass H3": 3}
    again = stable_numbers(["attack S9", "attack D2", "pass H3"], first)
    assert again["attack S9"] == 2 and again["pass H3"] == 3 and again["attack D2"] == 1
    console = quiet_console()
    console.print(render_choices(list(again), numbers=again))
    text = console.export_text()
    assert text.index(" 1 attack D2") < text.index(" 2 attack S9")


def test_a_short_form_plays_at_the_prompt() -> None:
    d = driver("zeta", [HUMAN, "random"], ScriptedReader(["pa", "quit"]), seed=2, flags={"first_player": "p1"})
    d.run()
    assert d.state.history[0] == "pass"


# -- what you drew, the history, open threes -----------------------------------------------------------
def test_you_are_told_what_you_drew_and_the_history_from_your_log() -> None:
    d = driver("zeta", [HUMAN, "random"], ScriptedReader(["pass", "history", "history all", "quit"]), seed=2,
               flags={"first_player": "p1"})
    d.run()
    text = d.console.export_text()
    drew = [e for e in d.table.events(0) if e["kind"] == "draw" and e["player"] == 0]
    names = cardtable.games.zeta.cards.CARD_BY_ID  # type: ignore[attr-defined]
    assert drew and f"You drew {names[drew[0]['card']].english}" in text
    assert "Moves (" in text and "setup" in text and "1." in text and "P2 (random)" in text


def test_open_threes_zeta_r20() -> None:
    board = {sq: {"card": "chant_practice", "owner": 1} for sq in ("c2", "d3", "e4")}
    board["b2"] = {"card": "chant_practice", "owner": 0}
    threats = open_threes({"board": board, "blocked": []}, Context())
    assert sorted(threats[1]) == ["b1", "f5"] and threats[1]["f5"] == ["c2", "d3", "e4"] and threats[0] == {}
    threats = open_threes({"board": board, "blocked": ["f5"]}, Context())
    assert sorted(threats[1]) == ["b1"]
    d = driver("zeta", [HUMAN, "random"], ScriptedReader(["threes", "hand", "quit"]), seed=2,
               flags={"first_player": "p1"}, layout="compact")
    d.run()
    text = d.console.export_text()
    assert "Open threes" in text and "cost" in text and "placeable" in text


def test_the_winning_line_is_shown_when_a_game_ends_zeta_r20() -> None:
    for seed in range(1, 30):
        d = driver("zeta", [HUMAN, "random"], FirstLegalReader(), seed=seed)
        d.run()
        out = d.state.outcome()
        assert out is not None
        if out.reason == "four_in_a_row":
            break
    text = d.console.export_text()
    assert "Winning line: " in text and "◆" in text


# -- layouts -------------------------------------------------------------------------------------------
SCREENS = {
    "zeta": lambda: position("zeta", 3, steps=16),
    "oscilloscope 2": lambda: position("oscilloscope", 1, steps=60, players=2),
    "oscilloscope 3": lambda: position("oscilloscope", 1, steps=60, players=3),
    "oscilloscope solo": lambda: position("oscilloscope", 3, steps=30, players=1),
    "utahime": lambda: position("utahime", 1, until=lambda s: s.view(None)["phase"] == "block"
                                and s.view(None)["turn"] > 6),
}


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_the_compact_screen_fits_80_by_24(name: str) -> None:
    state = SCREENS[name]()
    seat = state.current_player
    legal = tuple(str(a) for a in state.legal_actions())
    ctx = Context(names=tuple(f"P{p + 1} (heuristic)" for p in range(state.num_players)), legal=legal,
                  rules=state.game.rules.flags(), last="P2 (heuristic) places T_BOTH on B3", compact=True)
    console = quiet_console(80, 24)
    console.print(render_view(state.game.name, state.view(seat), ctx))
    console.print(render_choices(legal, compact=True))
    lines = console.export_text().rstrip("\n").splitlines()
    assert max(len(line) for line in lines) <= 80
    assert len(lines) <= 21, "\n".join(lines)  # the help line and the prompt fit below it


def test_the_driver_picks_the_compact_layout_on_a_small_terminal() -> None:
    small = driver("zeta", [HUMAN, "random"], ScriptedReader(["quit"]), seed=2, width=80, height=24,
                   flags={"first_player": "p1"})
    assert small.compact
    small.run()
    text = small.console.export_text()
    assert "help · list · board · history" in text and "┌───┬" not in text
    assert not driver("zeta", [HUMAN, "random"], ScriptedReader([]), width=120, height=50).compact


# -- solo: expected scores and par -----------------------------------------------------------------------
def test_solo_hint_shows_expected_scores_and_the_end_screen_a_par() -> None:
    d = driver("oscilloscope", [HUMAN], FirstLegalReader(extra=["hint"]), seed=3, setup={"players": 1})
    d.run()
    text = d.console.export_text()
    assert "expected score" in text and "win rate" not in text
    par = par_for("oscilloscope", {}, {"players": 1})
    assert par is not None and f"par {par:.1f}" in text


def test_the_stored_par_is_what_its_command_measures() -> None:
    (entry,) = [e for e in stored_pars() if e["game"] == "oscilloscope"]
    assert entry["command"] == "python -m cardtable.cli.play.par oscilloscope --games 1000 --seed 1"
    again = measure_par("oscilloscope", games=entry["games"], seed=1)
    assert again == entry
    stored = json.loads((REPO / "src/cardtable/cli/play/par.json").read_text(encoding="utf-8"))
    assert stored == list(stored_pars())


# -- the how-to pages' worked examples, on the engine --------------------------------------------------
def test_zeta_howto_example_fire_mage_breaks_the_open_three_zeta_r14_r42() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "zeta"))
    try:
        from zeta_positions import build
    finally:
        sys.path.pop(0)
    state = build(["P1@b2", "P1@c3", "P1@e1", "P2@c2", "P2@d3", "P2@e4"], turn=7,
                  p1_hand=["chant_practice", "fire_mage", "blaze_sorcerer"])
    legal = [str(a) for a in state.legal_actions()]
    assert "fire_mage@e5" in legal and not any(a.startswith("blaze_sorcerer@") for a in legal)
    assert sorted(open_threes(state.view(0), Context())[1]) == ["b1", "f5"]
    state.apply("fire_mage@e5")
    assert [str(a) for a in state.legal_actions()] == ["target:e4", "decline"]
    state.apply("target:e4")
    board = state.view(1)["board"]
    assert "e4" not in board and len(board) == 6 and open_threes(state.view(1), Context())[1] == {}


def test_oscilloscope_howto_example_the_first_capture_osc_r27_r29() -> None:
    table = Table.create("oscilloscope", [HUMAN, "heuristic"], seed=4, setup={"players": 2})
    table.run_agents()
    assert table.legal(0) == ["assign B"]
    table.play(0, "assign B")
    table.run_agents()
    view = table.view(0)
    assert [s["card"] for s in view["trains"][0]] == ["LH", "HL", "LOH", "NOISE", "HL"]
    assert [s["card"] for s in view["trains"][1]] == ["HL", "LH", "NOISE", "HL", "LOH"]
    assert sorted(view["hands"][0]) == ["HL", "LH", "T_HL"]
    assert table.state.history[-1] == "place LOH A2"
    assert table.legal(0) == ["place T_HL A2", "place T_HL A3", "place T_HL B2", "place T_HL B3"]
    table.play(0, "place T_HL A2")
    log = table.log_lines(0)
    assert "P1 (you) captures time position 1: HL from A, LH from B, and keeps T_HL" in log
    assert table.view(0)["scores"][0] == 3


def test_utahime_howto_example_a_club_blocks_the_heart_uta_r18_r19() -> None:
    from cardtable.agents import decide, make_agent

    game = cardtable.load_game("utahime")
    agent = make_agent("heuristic", game)
    state = game.new_game(seed=1)
    rng = random.Random(1)
    for _ in range(20):
        state.apply(decide(agent, state, rng))
    view = state.view(0)
    assert view["turn"] == 4 and view["attacker"] == 1 and view["attack"]["card"] == "H7"
    assert view["players"][0]["hand"] == ["H3", "H10", "S2", "S8", "S10", "SK", "C10", "D9", "C7+"]
    assert [str(a) for a in state.legal_actions()] == ["block C10", "block C7+", "noblock"]
    assert view["scores"][0] == 3
    state.apply("block C7+")
    after = state.view(0)
    assert after["scores"][0] == 4 and after["attack"]["success"] is False
    assert {"turn": 5, "kind": "block_bonus", "player": 1, "half_points": 4} in after["effects"]


def test_compact_screen_matches_golden() -> None:
    import os

    from play_helpers import GOLDEN

    state = position("zeta", 3, steps=16)
    legal = tuple(str(a) for a in state.legal_actions())
    ctx = Context(names=("P1", "P2"), legal=legal, rules=state.game.rules.flags(), compact=True)
    console = quiet_console(80, 24)
    console.print(render_view("zeta", state.view(state.current_player), ctx))
    console.print(render_choices(legal, compact=True))
    text = "\n".join(line.rstrip() for line in console.export_text().splitlines()) + "\n"
    path = GOLDEN / "zeta_main_compact.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_the_sample_screens_in_docs_play_are_the_golden_screens() -> None:
    from play_helpers import GOLDEN

    doc = (REPO / "docs" / "play.md").read_text(encoding="utf-8")
    blocks = doc.split("```\n")
    samples = [b for b in blocks if b.startswith(("Zeta ·", "Oscilloscope ·", "Utahime ·"))]
    goldens = {p.name: p.read_text(encoding="utf-8") for p in GOLDEN.glob("*.txt")}
    assert len(samples) >= 4
    for sample in samples:
        assert sample in goldens.values(), sample[:200]


def test_replay_screens_word_the_moves_and_mark_as_play_does() -> None:
    from cardtable.cli.play.loop import REVEAL, step_through
    from cardtable.core import record_of

    state = position("zeta", 4, steps=500)
    record = record_of(state, players=["random", "random"])
    console = quiet_console(120)
    step_through(record, console, ScriptedReader(["", "", "e", "q"]), viewer=REVEAL)
    text = console.export_text()
    assert "last move: P1 (random) " in text or "last move: P2 (random) " in text
    assert "✓" in text  # the cards the deciding seat may place, as in play
    out = state.outcome()
    assert out is not None
    if out.reason == "four_in_a_row":
        assert "◆" in text
