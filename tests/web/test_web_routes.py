"""The web routes without a browser: pages and their headers, catalogs, rules text, card data, Zeta deck
checks (ZETA-R6), Utahime option checks (UTA-R2), hints and replays (views only, never more)."""

from __future__ import annotations

import json
import re
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server import ServerSettings
from cardtable.web import create_app, i18n
from cardtable.web.games.utahime import setup_toml
from cardtable.web.games.zeta import check_deck, deck_toml
from cardtable.web.replays import merge_views

CLIENT = Path(str(i18n.client_dir()))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("routes") / "rooms.db"
    app = create_app(ServerSettings(db=f"sqlite:///{db}", durable=False, bot_executor="thread", bot_iterations=100))
    with TestClient(app) as c:
        yield c


def _room(client: TestClient, game: str, seats: list[dict[str, Any]], **body: Any) -> tuple[str, str]:
    made = client.post("/api/rooms", json={"game": game, "seats": seats, **body})
    assert made.status_code == 201, made.text
    room = made.json()["room"]["id"]
    joined = client.post(f"/api/rooms/{room}/join", json={"name": "Aki"}).json()
    return room, joined["token"]


def _finish(client: TestClient, room: str, token: str) -> None:
    with client.websocket_connect(f"/api/rooms/{room}/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        while True:
            m = json.loads(ws.receive_text())
            if m["type"] == "state":
                if m["outcome"]:
                    return
                if m["legal"]:
                    ws.send_text(json.dumps({"type": "action", "action": m["legal"][0], "version": m["version"]}))


# -- pages ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/room/abc", "/replay/abc/1", "/decks", "/rules", "/rules/zeta"])
def test_every_page_route_serves_the_shell_with_a_strict_policy(client: TestClient, path: str) -> None:
    page = client.get(path, headers={"Accept-Language": "ja,en;q=0.5"})
    assert page.status_code == 200
    assert '<html lang="ja">' in page.text and "/client/js/main.js" in page.text
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy


def test_the_lobby_page_is_the_clients_own(client: TestClient) -> None:
    app: Any = client.app
    routes = [r for r in app.router.routes if getattr(r, "path", None) == "/"]
    assert len(routes) == 1 and routes[0].endpoint.__module__ == "cardtable.web.pages"


def test_client_files_are_served_with_the_page_headers(client: TestClient) -> None:
    script = client.get("/client/js/main.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert script.headers["x-content-type-options"] == "nosniff"
    assert client.get("/client/js/nothing.js").status_code == 404


def test_the_client_never_puts_text_into_html() -> None:
    for path in CLIENT.rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        assert "innerHTML" not in text and "outerHTML" not in text and "insertAdjacentHTML" not in text, path
        assert "document.write" not in text and "eval(" not in text, path


# -- languages -----------------------------------------------------------------------------------------
def test_every_message_of_the_pages_has_a_japanese_translation() -> None:
    gaps = i18n.missing(i18n.Language.JA)
    assert gaps == [], ("untranslated (run `python -m cardtable.web.i18n update`, then translate them in "
                        f"locale/ja/LC_MESSAGES/cardtable.po): {gaps}")


def test_the_japanese_catalog_keeps_every_placeholder() -> None:
    catalog = i18n.catalog_json(i18n.Language.JA)
    for msgid, text in catalog["messages"].items():
        assert set(re.findall(r"\{(\w+)\}", msgid)) == set(re.findall(r"\{(\w+)\}", text)), msgid
    for msgid, forms in catalog["plurals"].items():
        for form in forms:
            assert set(re.findall(r"\{(\w+)\}", form)) <= set(re.findall(r"\{(\w+)\}", msgid)) | {"n"}, msgid


def test_catalog_route_and_language_negotiation(client: TestClient) -> None:
    ja = client.get("/web/i18n/ja").json()
    assert ja["lang"] == "ja" and ja["messages"]["Open rooms"] == "参加できるルーム"
    assert client.get("/web/i18n/en").json()["messages"] == {}
    assert client.get("/web/i18n/fr").status_code == 422
    assert i18n.negotiate("ja-JP,ja;q=0.9") is i18n.Language.JA
    assert i18n.negotiate(None) is i18n.Language.EN


@pytest.mark.parametrize("game", ["zeta", "oscilloscope", "utahime"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_game_has_a_how_to_play_in_both_languages(client: TestClient, game: str, lang: str) -> None:
    doc = client.get(f"/web/games/{game}/howto?lang={lang}").json()
    assert doc["lang"] == lang and doc["text"].startswith("# ")
    assert "## " in doc["text"], "the how-to-play has sections"
    ids = re.findall(r"\b(?:ZETA|OSC|UTA)-R\d+\b", doc["text"])
    for rule_id in set(ids):  # every rule it cites opens in the rules panel
        assert client.get(f"/web/games/{game}/rules/{rule_id}").status_code == 200, rule_id
    if lang == "ja":
        assert re.search(r"[\u3040-\u30ff]", doc["text"])


def test_rules_by_id_with_close_matches_when_unknown(client: TestClient) -> None:
    rule = client.get("/web/games/zeta/rules/r14").json()
    assert rule["id"] == "ZETA-R14" and rule["title"] == "Cost limit" and "CostCap" in rule["text"]
    index = client.get("/web/games/utahime/rules").json()["rules"]
    assert {"id": "UTA-R2", "title": index[1]["title"], "text": ""} in index
    missing = client.get("/web/games/zeta/rules/ZETA-R999")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_such_rule"
    assert client.get("/web/games/chess/rules").status_code == 404


def test_card_data_has_japanese_names_and_edge_levels(client: TestClient) -> None:
    cards = client.get("/web/cards").json()
    zeta = {c["id"]: c for c in cards["zeta"]}
    assert zeta["chant_practice"]["japanese"] == "詠唱練習" and zeta["magic_circle"]["continuous"]
    osc = {c["token"]: c for c in cards["oscilloscope"]}
    assert (osc["HL"]["left"], osc["HL"]["right"], osc["HL"]["stroke"]) == ("H", "L", "step")
    assert cards["oscilloscope_matches"]["T_BOTH"] == ["HL", "LH", "NOISE"]


# -- Zeta decks ----------------------------------------------------------------------------------------
def test_zeta_r6_a_26_card_deck_is_refused_with_the_reason() -> None:
    out = check_deck({"name": "big", "chant_practice": 8, "blessing_mist": 2, "do_over": 3, "fire_mage": 2,
                      "hexer": 2, "ice_mage": 2, "magic_circle": 3, "barrier": 2, "magical_boost": 2})
    assert not out.ok and out.size == 26
    assert [(p.code.value, p.count, p.limit) for p in out.problems] == [("size", 26, 25)]
    assert out.problems[0].message == "it has 26 cards but a deck holds exactly 25: remove 1 card(s)"


def test_zeta_r6_every_problem_of_a_deck_file_is_listed(client: TestClient) -> None:
    body = {"toml": 'name = "x"\nblesing_mist = 2\nchant_practice = "eight"\nultimate_zero = 2\n\n[names]\nhexx = "H"\n'}
    out = client.post("/web/decks/zeta/check", json=body).json()
    codes = [p["code"] for p in out["problems"]]
    assert codes == ["unknown_card", "bad_count", "bad_name", "size", "limit"]
    assert "did you mean 'blessing_mist'" in out["problems"][0]["message"]
    broken = client.post("/web/decks/zeta/check", json={"toml": "name = "}).json()
    assert broken["problems"][0]["code"] == "toml" and not broken["ok"]


def test_zeta_i_ct1_lifted_limits_and_other_sizes(client: TestClient) -> None:
    plain = {"deck": {"name": "plain", "cards": {"chant_practice": 25}}}
    assert not client.post("/web/decks/zeta/check", json=plain).json()["ok"]
    lifted = client.post("/web/decks/zeta/check", json={**plain, "rules": {"construction_limits": False}}).json()
    assert lifted["ok"]
    small = {"deck": {"name": "s", "cards": {"chant_practice": 4}}, "rules": {"deck_size": 4}}
    assert client.post("/web/decks/zeta/check", json=small).json()["ok"]


def test_zeta_i58_skins_round_trip_through_the_deck_file() -> None:
    text = deck_toml('my "deck"\\', {"hexer": 1, "chant_practice": 8}, {"hexer": 'Curse "Weaver" ✨\x7f'})
    data = tomllib.loads(text)
    assert data == {"name": 'my "deck"\\', "chant_practice": 8, "hexer": 1, "names": {"hexer": 'Curse "Weaver" ✨\x7f'}}
    assert text.index("chant_practice") < text.index("hexer =")


def test_zeta_presets_and_random_decks_are_legal(client: TestClient) -> None:
    presets = client.get("/web/decks/zeta").json()["presets"]
    assert [p["name"] for p in presets] == ["classic", "control", "arcana", "plain"]
    for p in presets[:3]:
        assert check_deck(tomllib.loads(p["toml"])).ok
    for seed in range(5):
        assert client.get(f"/web/decks/zeta/random?seed={seed}").json()["ok"]


def test_a_deck_with_too_many_keys_is_refused_by_validation(client: TestClient) -> None:
    cards = {f"c{i}": 1 for i in range(100)}
    assert client.post("/web/decks/zeta/check", json={"deck": {"cards": cards}}).status_code == 422


# -- Utahime option sets -------------------------------------------------------------------------------
def test_uta_r2_option_setups_within_the_budget(client: TestClient) -> None:
    catalog = client.get("/web/options/utahime").json()
    assert catalog["budget"] == 28 and catalog["max_copies"] == 2
    example = catalog["sets"][0]
    assert example["name"] == "designer_example" and len(example["options"]) == 10
    ok = client.post("/web/options/utahime/check", json={"setup": {"option_set": "designer_example"}}).json()
    assert ok["ok"] and ok["costs"] == [23, 27]
    over = client.post("/web/options/utahime/check",
                       json={"setup": {"option_set": "designer_example", "p1_options": ["strip"] * 2 + ["sabotage"] * 2}}).json()
    assert not over["ok"] and over["problems"] == ["UTA-R2: P1's option cards cost 30 in total; the budget is 28"]
    assert over["costs"][0] == 30
    copies = client.post("/web/options/utahime/check",
                         json={"setup": {"option_set": "designer_example", "p2_options": ["dig"] * 3}}).json()
    assert "at most 2 allowed" in copies["problems"][0]


def test_utahime_setup_files_round_trip() -> None:
    setup: dict[str, Any] = {"option_set": "custom", "option_toml": 'format = 1\nname = "x"\n', "p1_options": [], "p1_hero": None,
             "p2_options": [], "p2_hero": None}
    assert tomllib.loads(setup_toml(setup)) == {"option_set": "custom", "option_toml": 'format = 1\nname = "x"\n',
                                                 "p1_options": [], "p2_options": []}


def test_a_setup_file_is_read_and_checked(client: TestClient) -> None:
    text = 'option_set = "designer_example"\np1_options = ["scout", "seal"]\np2_options = []\np1_hero = "seer"\n'
    out = client.post("/web/options/utahime/check", json={"toml": text}).json()
    assert out["ok"] and out["setup"]["p1_options"] == ["scout", "seal"] and out["costs"] == [8, 0]
    assert tomllib.loads(out["toml"])["p1_hero"] == "seer"


# -- hints and replays ---------------------------------------------------------------------------------
def test_a_hint_is_a_legal_move_of_the_seat_to_move_only(client: TestClient) -> None:
    room, token = _room(client, "zeta", [{"kind": "open"}, {"kind": "open"}], rules={"first_player": "p1"})
    other = client.post(f"/api/rooms/{room}/join", json={"name": "Bo"}).json()["token"]
    hint = client.post(f"/web/rooms/{room}/hint", headers={"Authorization": f"Bearer {token}"})
    assert hint.status_code == 200, hint.text
    best = hint.json()["best"]
    with client.websocket_connect(f"/api/rooms/{room}/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        legal = [m for m in (json.loads(ws.receive_text()) for _ in range(2)) if m["type"] == "state"][0]["legal"]
    assert best in legal
    refused = client.post(f"/web/rooms/{room}/hint", headers={"Authorization": f"Bearer {other}"})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_your_turn"
    assert client.post(f"/web/rooms/{room}/hint").status_code == 401
    assert client.post(f"/web/rooms/{room}/hint", headers={"Authorization": "Bearer nope"}).status_code == 401


def test_a_hint_asks_the_hubs_live_room_and_leaves_no_room_loaded(client: TestClient) -> None:
    room, token = _room(client, "zeta", [{"kind": "open"}, {"kind": "open"}], rules={"first_player": "p1"})
    client.post(f"/api/rooms/{room}/join", json={"name": "Bo"})
    hub = client.app.state.services.hub  # type: ignore[attr-defined]
    with client.websocket_connect(f"/api/rooms/{room}/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        state = [m for m in (json.loads(ws.receive_text()) for _ in range(2)) if m["type"] == "state"][0]
        while state["to_move"] == 0:  # P1 plays until its turn passes (a Fanfare may ask P1 a choice, ZETA-R30, ZETA-R32)
            ws.send_text(json.dumps({"type": "action", "action": state["legal"][0], "version": state["version"]}))
            while json.loads(ws.receive_text())["type"] != "accepted":
                pass
            while (state := json.loads(ws.receive_text()))["type"] != "state":
                pass
        hint = client.post(f"/web/rooms/{room}/hint", headers={"Authorization": f"Bearer {token}"})
        assert hint.status_code == 409 and hint.json()["error"]["code"] == "not_your_turn"
        assert hub.rooms[room].table.version == state["version"] >= 1  # the live room answered
    deadline = time.monotonic() + 30  # generous: a busy 2-core machine can be slow to see the close
    while room in hub.rooms and time.monotonic() < deadline:  # the socket's room is dropped once it closes
        time.sleep(0.02)
    assert room not in hub.rooms
    refused = client.post(f"/web/rooms/{room}/hint", headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 409 and room not in hub.rooms


def test_replays_show_a_seat_only_its_own_hand_and_reveal_both(client: TestClient) -> None:
    room, token = _room(client, "zeta", [{"kind": "open"}, {"kind": "bot", "spec": "random"}])
    unfinished = client.get(f"/web/rooms/{room}/replay/1")
    assert unfinished.status_code == 409
    _finish(client, room, token)
    info = client.get(f"/web/rooms/{room}/replay/1").json()
    assert info["steps"] == len(info["actions"]) and info["outcome"] is not None
    step = min(3, info["steps"])
    seat0 = client.get(f"/web/rooms/{room}/replay/1/{step}?seat=0").json()
    assert seat0["view"]["hands"][0] is not None and seat0["view"]["hands"][1] is None
    watcher = client.get(f"/web/rooms/{room}/replay/1/{step}").json()
    assert watcher["view"]["hands"] == [None, None]
    revealed = client.get(f"/web/rooms/{room}/replay/1/{step}?reveal=true").json()
    assert all(h is not None for h in revealed["view"]["hands"]) and revealed["revealed"]
    assert len(revealed["events"]) == len(watcher["events"]) == len(revealed["log"])
    later = client.get(f"/web/rooms/{room}/replay/1/{info['steps']}?seat=0&since={len(seat0['events'])}").json()
    assert later["events_from"] == len(seat0["events"])
    assert later["outcome"]["winner_names"] is not None
    assert client.get(f"/web/rooms/{room}/replay/1/{info['steps'] + 1}").status_code == 404
    assert client.get(f"/web/rooms/{room}/replay/1/0?seat=5").status_code == 404


def test_a_private_rooms_replay_needs_its_invite(client: TestClient) -> None:
    made = client.post("/api/rooms", json={"game": "zeta", "private": True,
                                           "seats": [{"kind": "open"}, {"kind": "bot", "spec": "random"}]}).json()
    room, invite = made["room"]["id"], made["invite"]
    token = client.post(f"/api/rooms/{room}/join", json={"name": "Aki", "invite": invite}).json()["token"]
    _finish(client, room, token)
    assert client.get(f"/web/rooms/{room}/replay/1").status_code == 403
    assert client.get(f"/web/rooms/{room}/replay/1?invite={invite}").status_code == 200
    assert client.get(f"/web/rooms/{room}/replay/1", headers={"Authorization": f"Bearer {token}"}).status_code == 200


def test_merge_views_fills_only_what_a_seat_knows() -> None:
    base = {"players": [{"hand": None, "energy": 1}, {"hand": None, "energy": 0}], "deck": None}
    seat0 = {"players": [{"hand": ["H2"], "energy": 1}, {"hand": None, "energy": 0}], "deck": None}
    seat1 = {"players": [{"hand": None, "energy": 1}, {"hand": ["S3"], "energy": 0}], "deck": None}
    assert merge_views(base, [seat0, seat1]) == {"players": [{"hand": ["H2"], "energy": 1}, {"hand": ["S3"], "energy": 0}],
                                                 "deck": None}


def test_the_web_guide_examples_run() -> None:
    import doctest

    guide = Path(__file__).resolve().parents[2] / "docs" / "web.md"
    result = doctest.testfile(str(guide), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_the_guide_shows_only_screenshots_the_tests_take() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8")
    names = set(re.findall(r"images/web/([\w-]+)\.png", guide))
    tests = "\n".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_*.py"))
    taken = set(re.findall(r'"((?:lobby|room|replay|decks|rules|account|profile|leaderboard|studio)[\w-]*)"', tests))
    taken |= {f"{n}-desktop" for n in taken} | {f"{n}-phone" for n in taken}
    assert names and names <= taken, names - taken


def test_no_message_is_both_a_plain_and_a_plural_msgid() -> None:
    plain = {m for m, _ in i18n.client_messages() if isinstance(m, str)}
    plural = {m[0] for m, _ in i18n.client_messages() if isinstance(m, tuple)}
    assert not plain & plural


def test_the_deck_builder_prints_a_legal_deck_and_refuses_a_bad_one(client: TestClient) -> None:
    """Print-and-play from the deck builder: a legal deck (ZETA-R6) comes back as a PDF with both players' copies."""
    from io import BytesIO

    from pypdf import PdfReader

    from cardtable.games.zeta.decks import preset

    toml = preset("classic").to_toml()
    done = client.post("/web/decks/zeta/print", json={"toml": toml})
    assert done.status_code == 200 and done.headers["content-type"] == "application/pdf"
    assert 'filename="classic.pdf"' in done.headers["content-disposition"]
    text = "".join(page.extract_text() for page in PdfReader(BytesIO(done.content)).pages)
    assert "Chant Practice" in text and "詠唱練習" in text
    bad = client.post("/web/decks/zeta/print", json={"deck": {"name": "big", "cards": {"chant_practice": 26}}})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_deck"
