"""A fourth game added through its kit alone plays everywhere: the terminal, the server and its pages,
the lab and the agents (the adapters' part is in ``test_kit_adapters.py``).

Tally (``tally_kit.KIT``) is registered at run time by this folder's conftest; nothing in the
package names it. Where its kit leaves a facet empty, each front end shows its generic fallback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import cardtable
from cardtable.core import Record, registry, replay


def test_the_kit_is_the_one_registration_and_every_front_end_finds_the_game() -> None:
    assert "tally" in cardtable.game_names() and registry.entry("tally").rule_prefix == "TALLY"
    assert registry.part("tally", "heuristic").__name__ == "tally_heuristic"
    assert registry.part("tally", "renderer", required=False) is None
    with pytest.raises(registry.MissingPart, match=r"the game 'tally' has no printer \(GameKit.printer\)"):
        registry.part("tally", "printer")
    assert registry.describer("tally") is registry.plain_describe_event
    from cardtable.agents import game_levels, has_heuristic
    from cardtable.agents.specs import LEVELS

    assert has_heuristic("tally") and game_levels("tally") == LEVELS


def test_nothing_in_the_package_names_the_toy() -> None:
    """The one registration is the conftest's: no file of the package knows Tally."""
    package = Path(cardtable.__file__).parent
    marks = ('"tally"', "'tally'", "toy_game", "tally_kit", "TallyGame")
    named = [p for p in package.rglob("*") if p.suffix in (".py", ".js", ".toml", ".json", ".md")
             and any(m in p.read_text(encoding="utf-8", errors="replace") for m in marks)]
    assert named == []


def test_played_to_the_end_in_the_terminal(tmp_path: Path) -> None:
    """``cardtable play tally``: the plain screen of the view, the move list, the record saved and replayed."""
    from cardtable.cli.main import app

    saved = tmp_path / "tally.json"
    result = CliRunner().invoke(app, ["play", "tally", "--vs", "random", "--seed", "1", "--no-pause", "--save", str(saved)],
                                input="1\n" * 20, env={"COLUMNS": "80", "LINES": "24", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    assert "Tally (seed 1): P1 (you), P2 (random)" in result.output
    assert '"target": 15' in result.output and "1 play" in result.output  # the view as data, the moves as written
    assert "Game over" in result.output and "[TALLY-" in result.output
    record = Record.from_json(json.loads(saved.read_text(encoding="utf-8")))
    assert record.game == "tally" and replay(record).outcome() is not None


def test_printing_says_it_has_no_printable_cards(tmp_path: Path) -> None:
    from cardtable.cli.main import app

    result = CliRunner().invoke(app, ["print", "tally", "-o", str(tmp_path / "tally.pdf")], env={"COLUMNS": "200"})
    assert result.exit_code == 2 and not (tmp_path / "tally.pdf").exists()
    assert "the game 'tally' has no printable cards; games with cards to print: zeta, oscilloscope, utahime" in \
        " ".join(result.output.split())


@pytest.fixture
def client(tmp_path: Path) -> Any:
    """The browser client's app (server and pages) over a fresh SQLite file; bots think in threads."""
    from cardtable.server import ServerSettings
    from cardtable.web import create_app

    settings = ServerSettings(db=f"sqlite:///{tmp_path / 'rooms.db'}", durable=False, bot_executor="thread",
                              bot_workers=1, bot_iterations=100)
    with TestClient(create_app(settings)) as c:
        yield c


def test_the_server_and_the_pages_serve_it(client: TestClient) -> None:
    """The catalog lists it, the pages get its title and the plain page module, which is served."""
    catalog = client.get("/api/games").json()
    assert "tally" in [g["name"] for g in catalog["games"]]
    pages = {g["name"]: g for g in client.get("/web/games").json()["games"]}
    assert pages["tally"] == {"name": "tally", "title": "Tally", "tagline": "", "rule_prefix": "TALLY",
                              "module": "/client/js/games/plain.js"}
    assert list(pages)[-1] == "tally"  # after the built-in games, in the order of registration
    module = client.get(pages["tally"]["module"])
    assert module.status_code == 200 and "export default" in module.text
    assert client.get("/web/cards").json()["titles"]["tally"] == "Tally"


def test_two_people_play_it_to_the_end_on_the_server_and_the_record_replays(client: TestClient) -> None:
    room = client.post("/api/rooms", json={"game": "tally", "seats": [{}, {}], "setup": {}}).json()["room"]["id"]
    tokens = [client.post(f"/api/rooms/{room}/join", json={"name": name}).json()["token"] for name in ("Ann", "Bo")]
    sockets = [client.websocket_connect(f"/api/rooms/{room}/ws").__enter__() for _ in tokens]
    states = []
    for ws, token in zip(sockets, tokens, strict=True):
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["type"] == "welcome"
        states.append(ws.receive_json())
    try:
        mover = states[0]["to_move"]
        hint = client.post(f"/web/rooms/{room}/hint", headers={"Authorization": f"Bearer {tokens[mover]}"})
        assert hint.status_code == 200 and hint.json()["best"] in states[mover]["legal"]
        while states[0]["outcome"] is None:
            mover = states[0]["to_move"]
            own = states[mover]
            assert own["view"]["viewer"] == mover and own["legal"]  # each socket sees its own seat's view
            sockets[mover].send_json({"type": "action", "action": own["legal"][0], "version": own["version"]})
            assert sockets[mover].receive_json()["type"] == "accepted"
            states = [ws.receive_json() for ws in sockets]
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)
    assert states[0]["outcome"]["rule"].startswith("TALLY-")
    assert "played: player" in " ".join(states[0]["log"])  # the plain words of its events (its kit names no describer)
    record = Record.from_json(client.get(f"/api/rooms/{room}/records/1").json())
    assert record.meta["names"] == ["Ann", "Bo"]
    assert list(replay(record).outcome().winners) == states[0]["outcome"]["winners"]  # type: ignore[union-attr]
    info = client.get(f"/web/rooms/{room}/replay/1").json()
    last = client.get(f"/web/rooms/{room}/replay/1/{info['steps']}?seat=0").json()
    assert last["view"]["viewer"] == 0 and last["outcome"] is not None  # the pages' replay, seat by seat


def test_a_room_of_bots_plays_itself_to_the_end(client: TestClient) -> None:
    import time

    made = client.post("/api/rooms", json={"game": "tally", "seats": [{"kind": "bot", "spec": "heuristic"},
                                                                       {"kind": "bot", "spec": "easy"}]}).json()
    room = made["room"]["id"]
    for _ in range(200):
        if client.get(f"/api/rooms/{room}").json()["status"] == "finished":
            break
        time.sleep(0.05)
    record = Record.from_json(client.get(f"/api/rooms/{room}/records/1").json())
    assert record.players == ["heuristic", "easy"] and replay(record).outcome() is not None


def test_a_lab_run_of_random_agents_and_its_report(tmp_path: Path) -> None:
    """A small study, stored and reported: the generic numbers, and no game tables (its kit names none)."""
    from cardtable.lab.execute import run_study
    from cardtable.lab.report import build_report
    from cardtable.lab.storage import LabStore
    from cardtable.lab.study import StudyConfig

    store = LabStore.open(f"sqlite:///{tmp_path / 'lab.db'}")
    try:
        run_study(store, "tally", StudyConfig("tally", ("random", "heuristic"), games=8, seed=3), batch=4)
        loaded = store.load("tally")
    finally:
        store.close()
    assert len(loaded.games) == 8 and loaded.complete
    report = build_report(loaded)
    assert report.numbers["run"]["game"] == "tally" and report.numbers["strength"] == {}
    assert report.numbers["seats"] and report.numbers["lengths"]


def test_the_agents_play_it_by_name() -> None:
    import random

    from cardtable.agents import decide, make_agent

    game = cardtable.load_game("tally")
    state = game.new_game(seed=2)
    agents = [make_agent("ismcts:easy", game), make_agent("heuristic", game)]
    rng = random.Random(2)
    while state.current_player is not None:
        state.apply(decide(agents[state.current_player], state, rng))
    assert state.outcome() is not None
