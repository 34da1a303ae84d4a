"""Events and seat memory (UTA-R59, UTA-I-CT21, UTA-I-CT22): what every seat learns, and what its view remembers.

Over random games: no seat's log names a card that seat cannot know; each seat's memory in its view
equals what an observer replaying that seat's log reconstructs; and every state sampled from a view
agrees with the memory. Then the named cases of the rulebook's information rules.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from utahime_helpers import P1, P2, build, card, game, play

from cardtable.games.utahime.cards import HEARTS, SUIT
from cardtable.games.utahime.events import UtahimeEvent, describe_event
from cardtable.games.utahime.state import UtahimeState

WATCHERS = """format = 1
name = "watchers"
[[option]]
name = "peek"
timing = "any_time"
effects = [{ do = "look_at_hand" }]
[[option]]
name = "swap"
timing = "any_time"
effects = [{ do = "exchange" }]
[[option]]
name = "shed"
timing = "any_time"
effects = [{ do = "discard_from_hand", who = "self", face = "down" }, { do = "recover", optional = true }]
[[option]]
name = "grab"
effects = [{ do = "discard_from_hand", who = "opponent", face = "down" }, { do = "draw", who = "opponent" }]
"""
"""Any-time looks and hidden discards, so a seat watches a hand while its owner sets, swaps and sheds cards."""

SETUPS = [({}, {}), ({}, {"option_set": "designer_example"}),
          ({"diamond_next_pile": "self", "optional_draws": True, "heart_next_after_block": True,
            "wished_card_public": True, "free_flip_for_energy": True, "block_card_scores": False},
           {"option_set": "designer_example"}),
          ({"heart_next_source": "played_card", "cosmic_timing": "any_time_own_turn"}, {}),
          ({"jqk_set_costs_action": True, "rank_effects_on_block": True}, {
              "option_set": "custom", "option_toml": WATCHERS, "p1_options": ["peek", "swap", "shed", "grab"],
              "p2_options": ["peek", "swap", "shed", "grab"]})]
SEEDS = (1, 2, 3)
VIEWERS = (P1, P2, None)
NAMES = ("P1 (you)", "P2 (heuristic)")
CARD_FIELDS = ("card", "cards", "hand", "discarded")


def _games(flags: Mapping[str, Any], setup: Mapping[str, Any], seed: int) -> Iterator[tuple[UtahimeState, int]]:
    """A random game that records its events: the state after each action, and the log length before it."""
    s = game(**flags).new_game(seed=seed, record_events=True, **setup)
    assert isinstance(s, UtahimeState)
    rng = random.Random(seed)
    yield s, 0
    while not s.is_over:
        before = len(s.events)
        acts = s.legal_actions()
        s.apply(acts[rng.randrange(len(acts))])
        yield s, before


def _absolute(token: str, zone: int) -> tuple[int, str]:
    """A card token of ``zone``'s zones as (deck owner, name)."""
    return (1 - zone, token[1:]) if token.startswith("~") else (zone, token)


def _visible(view: Mapping[str, Any]) -> set[tuple[int, str]]:
    """Every card the view shows as lying somewhere now, memory left out."""
    out: set[tuple[int, str]] = set()
    viewer = view["viewer"]
    for p, pv in enumerate(view["players"]):
        for c in (pv["hand"] or []) + list(pv["cosmic_pool"]):
            out.add(_absolute(c, p))
        for e in pv["discard"]:
            if e["card"] is not None and (e["face_up"] or viewer == p):
                out.add(_absolute(e["card"], p))
        if pv["wished"] is not None:
            out.add(_absolute(pv["wished"], p))
    if view["heart_next"]:
        out.update(_absolute(c, view["heart_next"]["user"]) for c in view["heart_next"]["revealed"])
    attack = view["attack"]
    if attack:
        out.add(_absolute(attack["card"], view["attacker"]))
        for key in ("block", "reaction"):
            if attack[key]:
                out.add(_absolute(attack[key], 1 - view["attacker"]))
    return out


def _named(event: Mapping[str, Any]) -> set[tuple[int, str]]:
    """The cards an event names, as (deck owner, name)."""
    zone = event.get("target", event.get("player", 0)) if event["kind"] in ("take", "discard", "look", "flip") \
        else event.get("player", 0)
    out: set[tuple[int, str]] = set()
    for key in CARD_FIELDS:
        value = event.get(key)
        tokens = value if isinstance(value, list) else [value] if isinstance(value, str) else []
        out.update(_absolute(t, zone) for t in tokens)
    for s in event.get("set") or []:
        out.add(_absolute(s["card"], zone))
    if event["kind"] == "wishes_shown":
        out = {_absolute(t, p) for p, t in enumerate(event["cards"])}
    return out


@pytest.mark.parametrize(("flags", "setup"), SETUPS)
@pytest.mark.parametrize("seed", SEEDS)
def test_uta_r59_no_log_names_a_card_its_seat_cannot_know(flags: dict[str, Any], setup: dict[str, Any],
                                                          seed: int) -> None:
    """A card in seat s's log was in sight of s just before or just after the action (or revealed by it)."""
    views_before = {v: None for v in VIEWERS}
    for s, start in _games(flags, setup, seed):
        fresh = s.events[start:]
        revealed = {c for e in fresh if e.kind == UtahimeEvent.REVEAL
                    for c in _named(e.seen_by(None))}
        for viewer in VIEWERS:
            now = s.view(viewer)
            before = views_before[viewer]
            sight = _visible(now) | (_visible(before) if before is not None else set()) | revealed
            for e in fresh:
                named = _named(e.seen_by(viewer))
                assert named <= sight, (f"{e.kind} tells seat {viewer} about {named - sight} "
                                        f"(move {e.move}: {s.history[e.move] if e.move >= 0 else 'setup'})")
                if e.secret and viewer not in e.to:
                    assert e.seen_by(viewer) == e.seen_by(None)
            views_before[viewer] = now  # type: ignore[assignment]


class Observer:
    """What a seat remembers, rebuilt from its own log alone (the rules of UTA-I-CT21, read from the events)."""

    def __init__(self, me: int | None) -> None:
        self.me = me
        self.turn = 0
        self.mem: dict[tuple[int, str], tuple[str, int, int, int]] = {}

    def _other(self, zone: int) -> bool:
        return self.me != zone

    def _saw(self, token: str, zone: int, where: str, set_turn: int = 0) -> None:
        if not self._other(zone):
            return
        picture = token.lstrip("~").rstrip("+")[1:] in ("J", "Q", "K")
        since = self.turn if where == "hand" and picture and not set_turn else 0
        self.mem[_absolute(token, zone)] = (where, zone, set_turn, since)

    def _forget(self, token: str, zone: int) -> None:
        self.mem.pop(_absolute(token, zone), None)

    def _downgrade(self, zone: int) -> None:
        if not self._other(zone):
            return
        for key, (where, z, st, sn) in list(self.mem.items()):
            if where == "hand" and z == zone:
                self.mem[key] = ("hand_or_pile", z, st, sn)

    def see(self, e: Mapping[str, Any]) -> None:  # noqa: C901 - one branch per kind
        """Take in one event of the log."""
        kind, p = e["kind"], e.get("player")
        if kind == "turn":
            self.turn = e["turn"]
        elif kind == "wishes_shown":
            for q, c in enumerate(e["cards"]):
                self._saw(c, q, "hand")
        elif kind == "set" and "card" in e:
            self._saw(e["card"], p, "hand", e["turn"])
        elif kind in ("attack", "react"):
            self._forget(e["card"], p)
        elif kind == "block":
            if e["face_up"]:
                self._forget(e["card"], p)
            else:
                self._saw(e["card"], p, "discard")
        elif kind == "look" and "hand" in e:
            target = e["target"]
            held = {_absolute(c, target) for c in e["hand"]}
            for key, (where, z, _, _) in list(self.mem.items()):
                if z == target and where in ("hand", "hand_or_pile") and key not in held:
                    self.mem[key] = ("pile", z, 0, 0)
            sets = {s["card"]: s["turn"] for s in e["set"]}
            for c in e["hand"]:
                self._saw(c, target, "hand", sets.get(c, 0))
        elif kind in ("take", "discard"):
            target = e["target"]
            if e["face_up"]:
                self._forget(e["card"], target)
            elif "card" in e:
                self._saw(e["card"], target, "discard")
            else:
                self._downgrade(target)
        elif kind in ("heart_next", "exchange"):
            if "card" in e:  # the played heart (public), or seen by its owner or a seat looking at the hand
                self._saw(e["card"], p, "discard")
            else:
                self._downgrade(p)
        elif kind == "pick":
            self._saw(e["card"], p, "hand")
            for c in e["discarded"]:
                self._saw(c, p, "discard")
        elif kind in ("cosmic", "recover"):
            self._saw(e["card"], p, "hand")
        elif kind == "pass":
            self._saw(e["card"], p, "discard")
        elif kind == "flip":
            self._saw(e["card"], e["target"], "discard")

    def memory(self, zone: int) -> set[tuple[str, str, int, int]]:
        """What the observer remembers of ``zone``'s hand and pile, as the view writes it."""
        out = set()
        for (owner, name), (where, z, st, sn) in self.mem.items():
            if z == zone and where != "discard":
                out.add((name if owner == zone else "~" + name, where, st, sn))
        return out

    def face_down(self, zone: int) -> set[str]:
        """The face-down cards of ``zone``'s pile the observer knows."""
        return {name if owner == zone else "~" + name for (owner, name), (where, z, _, _) in self.mem.items()
                if z == zone and where == "discard"}


def _view_memory(view: Mapping[str, Any], zone: int) -> set[tuple[str, str, int, int]]:
    return {(m["card"], m["where"], m.get("set", 0), m.get("since", 0)) for m in view["players"][zone]["memory"]}


def _view_face_down(view: Mapping[str, Any], zone: int) -> set[str]:
    return {e["card"] for e in view["players"][zone]["discard"] if not e["face_up"] and e["card"] is not None}


@pytest.mark.parametrize(("flags", "setup"), SETUPS)
@pytest.mark.parametrize("seed", SEEDS)
def test_uta_i_ct21_memory_is_what_the_seats_log_tells(flags: dict[str, Any], setup: dict[str, Any],
                                                       seed: int) -> None:
    observers = {v: Observer(v) for v in VIEWERS}
    remembered = 0
    for s, start in _games(flags, setup, seed):
        for viewer, obs in observers.items():
            for e in s.events_for(viewer, start):
                obs.see(e)
            view = s.view(viewer)
            for zone in (P1, P2):
                if zone == viewer:
                    assert view["players"][zone]["memory"] is None
                    continue
                assert _view_memory(view, zone) == obs.memory(zone), (viewer, zone, s.history[-3:])
                assert _view_face_down(view, zone) == obs.face_down(zone), (viewer, zone, s.history[-3:])
                remembered += len(obs.mem)
    assert remembered > 0


@pytest.mark.parametrize(("flags", "setup"), SETUPS)
def test_uta_i_ct21_every_sample_agrees_with_the_memory(flags: dict[str, Any], setup: dict[str, Any]) -> None:
    g = game(**flags)
    rng = random.Random(4)
    checked = 0
    for i, (s, _) in enumerate(_games(flags, setup, 5)):
        if i % 3:
            continue
        for viewer in VIEWERS:
            view = s.view(viewer)
            for _ in range(3):
                sampled = g.sample_state(view, rng)
                assert sampled.view(viewer) == view
                assert not sampled.is_recording
                checked += 1
    assert checked > 100


def _trace_sample(view: Mapping[str, Any], n: int = 300, seed: int = 1) -> list[UtahimeState]:
    g = game()
    rng = random.Random(seed)
    return [g.sample_state(view, rng) for _ in range(n)]


# -- named cases ---------------------------------------------------------------------------------------
def test_uta_r44_a_pass_keeps_the_flipped_card_in_the_opponents_memory() -> None:
    s = build(3, P1, hands=(["S9"], ["H2", "C5"]), discards=(["D7", "H3"], []))
    play(s, "pass D7")
    for viewer in (P2, None):
        entry = s.view(viewer)["players"][P1]["discard"][0]
        assert entry == {"card": "D7", "face_up": False, "self_played": True, "heart_next_cost": False,
                         "foreign": False}
    data = json.loads(json.dumps(s.to_json()))
    back = game().from_json(data)
    assert back.view(P2) == s.view(P2)  # the memory survives the position JSON
    view = s.view(P2)
    for sampled in _trace_sample(view):
        assert sampled.discards[P1][0] & 127 == s.discards[P1][0] & 127  # D7 there in every sample


def test_uta_r51_the_card_kept_from_heart_next_is_remembered_in_the_hand() -> None:
    s = build(15, P1, hands=(["C5", "H2", "S2"], ["H6"]), decks=(["S3", "DJ", "H8"], None), discards=(["S4"], []))
    play(s, "attack C5", "block H6", "heartnext H2", "pick DJ", "end", "nocosmic")
    view = s.view(P2)
    assert {"card": "DJ", "where": "hand", "since": 15} in view["players"][P1]["memory"]
    pile = view["players"][P1]["discard"]
    assert [e["card"] for e in pile] == ["S4", "C5", None, "S3", "H8"]  # ♥2 unnamed, the two revealed remembered
    assert pile[2]["heart_next_cost"] is True  # but everybody knows it is a heart (UTA-I-CT22)
    for sampled in _trace_sample(view):
        assert card(P1, "DJ") in sampled.hands[P1]
        assert SUIT[sampled.discards[P1][2] & 127] == HEARTS


def test_uta_r24_the_attacker_remembers_the_card_it_put_face_down_and_the_hand_it_saw() -> None:
    s = build(3, P1, hands=(["S9", "D3"], ["HQ", "C4", "D8"]), sets=({}, {"HQ": 2}))
    play(s, "attack S9", "noblock", "noreact")
    assert s.view(P1)["players"][P2]["hand"] == ["HQ", "C4", "D8"]  # the look (UTA-R59)
    play(s, "take C4", "end", "nocosmic")
    mine, spectator = s.view(P1)["players"][P2], s.view(None)["players"][P2]
    assert mine["hand"] is None  # the turn is over: the look has ended...
    assert mine["memory"] == [{"card": "HQ", "where": "hand", "set": 2}, {"card": "D8", "where": "hand"}]
    assert [e["card"] for e in mine["discard"]] == ["C4"]  # ...but P1 remembers
    assert spectator["memory"] == [] and [e["card"] for e in spectator["discard"]] == [None]
    view = s.view(P1)
    for sampled in _trace_sample(view):
        hand = sampled.hands[P2]
        assert card(P2, "HQ") in hand and card(P2, "D8") in hand and sampled.set_turn[P2].get(card(P2, "HQ")) == 2
        assert sampled.discards[P2] == s.discards[P2]


def test_uta_i_ct21_a_hidden_card_leaving_a_known_hand_leaves_hand_or_pile() -> None:
    s = build(3, P1, hands=(["S9", "D3"], ["H5", "C4", "D8"]), decks=(None, ["S2", "S3", "S4"]))
    play(s, "attack S9", "noblock", "noreact", "take C4", "end", "nocosmic")
    play(s, "attack D8", "noblock", "noreact", "take D3", "heartnext H5")  # P2's ♥NEXT: which heart is secret
    memory = s.view(P1)["players"][P2]["memory"]
    assert {"card": "H5", "where": "hand_or_pile"} in memory  # P1 cannot tell H5 went (it did)
    assert s.view(P1)["players"][P2]["discard"][-1] == {"card": None, "face_up": False, "self_played": False,
                                                        "heart_next_cost": True, "foreign": False}
    for sampled in _trace_sample(s.view(P1), n=100):
        h5 = card(P2, "H5")
        assert h5 in sampled.hands[P2] or any(e & 127 == h5 for e in sampled.discards[P2])


def test_uta_i_ct12_public_wished_cards_are_remembered_in_the_hand() -> None:
    s = game(wished_card_public=True).new_game(seed=3, record_events=True)
    play(s, "wish HK", "wish D3")
    assert {"card": "HK", "where": "hand"} in s.view(P2)["players"][P1]["memory"]
    assert {"card": "D3", "where": "hand"} in s.view(None)["players"][P2]["memory"]
    assert any(e.kind == UtahimeEvent.WISHES_SHOWN for e in s.events)


def test_uta_r3_the_deal_goes_to_each_owner_only() -> None:
    s = game().new_game(seed=3, record_events=True)
    play(s, "wish HK", "wish D3")
    mine = [e for e in s.events_for(P1) if e["kind"] == "deal"]
    assert mine[0]["player"] == P1 and len(mine[0]["cards"]) == 10 and "HK" in mine[0]["cards"]
    assert mine[1] == {"kind": "deal", "move": 1, "player": P2, "count": 10}
    wishes = [e for e in s.events_for(P2) if e["kind"] == "wish"]
    assert wishes == [{"kind": "wish", "move": 0, "player": P1}, {"kind": "wish", "move": 1, "player": P2, "card": "D3"}]
    setup = s.events_for(None)[0]
    assert setup["kind"] == "setup" and setup["move"] == -1 and setup["first_player"] == s.first


def test_uta_r23_a_draw_shows_the_card_to_its_drawer_and_a_card_to_the_other() -> None:
    s = build(3, P1, hands=(["H9"], ["S2"]), decks=(["C5"], None))
    s.record_events()
    play(s, "attack H9", "noblock", "noreact")
    mine = [e for e in s.events_for(P1) if e["kind"] == "draw"]
    theirs = [e for e in s.events_for(P2) if e["kind"] == "draw"]
    assert mine == [{"kind": "draw", "move": 2, "player": P1, "count": 1, "cards": ["C5"]}]
    assert theirs == [{"kind": "draw", "move": 2, "player": P1, "count": 1}]
    assert describe_event(mine[0], NAMES) == "P1 (you) draws ♣5"
    assert describe_event(theirs[0], NAMES) == "P1 (you) draws a card"
    assert describe_event(theirs[0], ("P1 (heuristic)", "P2 (you)")) == "P1 (heuristic) draws a card"


def test_uta_r24_describe_a_spade_take_as_each_seat_learns_it() -> None:
    s = build(3, P1, hands=(["S9"], ["C4", "D8"]))
    s.record_events()
    play(s, "attack S9", "noblock", "noreact", "take C4")
    names = ("P1", "P2")
    lines = {v: [describe_event(e, names) for e in s.events_for(v)] for v in VIEWERS}
    assert "P1 looks at P2's hand: ♣4 ♦8" in lines[P1]
    assert "P1 looks at P2's hand" in lines[None] and "P1 looks at P2's hand" in lines[P2]
    assert lines[P1][-1] == lines[P2][-1] == "P1 puts ♣4 of P2's hand face down on top of P2's pile"
    assert lines[None][-1] == "P1 puts a card of P2's hand face down on top of P2's pile"
    assert "P1 attacks with ♠9" in lines[None] and "P1's attack succeeds" in lines[None]


def test_uta_r59_every_event_kind_is_described_in_words() -> None:
    kinds: set[str] = set()
    for flags, setup in SETUPS:
        for seed in SEEDS:
            *_, (s, _) = _games(flags, setup, seed)
            for viewer in VIEWERS:
                for e in s.events_for(viewer):
                    text = describe_event(e, NAMES)
                    assert text and ": {" not in text and "None" not in text, (e, text)
                    kinds.add(e["kind"])
    assert kinds >= {k.value for k in UtahimeEvent} - {"take_nothing", "choose_nothing", "mill", "discard",
                                                          "exchange", "recover", "hero", "wishes_shown", "stall"}


def test_uta_r6_seats_are_named_by_seat_when_seat_1_moves_first() -> None:
    s = game(first_player="p2").new_game(seed=1, record_events=True)
    play(s, "wish HA", "wish SA")
    assert s.first == P2 and s.attacker == P2 and s.summary().startswith("turn 1, P2 attacks")
    setup = s.events_for(P1)[0]
    assert describe_event(setup, NAMES) == "P2 (heuristic) moves first (rule flag first_player, UTA-I16)"
    turn = next(e for e in s.events_for(P1) if e["kind"] == "turn")
    assert describe_event(turn, NAMES) == "turn 1: P2 (heuristic) attacks"
    rng = random.Random(2)
    while not s.is_over:
        acts = s.legal_actions()
        s.apply(acts[rng.randrange(len(acts))])
    out = s.outcome()
    assert out is not None
    for w in out.winners:
        assert f"P{w + 1}" in out.detail
    end = s.events_for(None)[-1]
    assert end["kind"] == "game_end" and end["winners"] == list(out.winners)


def test_recording_is_off_by_default_and_clones_keep_their_own_log() -> None:
    s = game().new_game(seed=2)
    assert not s.is_recording and s.events == []
    rec = game().new_game(seed=2, record_events=True)
    play(rec, "wish HA", "wish SA")
    twin = rec.clone()
    twin.apply(twin.legal_actions()[0])
    assert len(twin.events) > len(rec.events) and twin.events[:len(rec.events)] == rec.events
    assert not game().sample_state(rec.view(P1), random.Random(1)).is_recording


def test_uta_i_ct21_a_seat_watching_a_hand_sees_what_is_set_and_swapped_in_it() -> None:
    setup = {"option_set": "custom", "option_toml": WATCHERS, "p1_options": [], "p2_options": ["peek"]}
    s = build(3, P1, setup=setup, hands=(["C5", "SK", "H2"], ["D9", "C3"]))  # P1 has fewer options: first (UTA-R6)
    s.record_events()
    play(s, "attack C5", "option peek")  # P2 looks at P1's hand during P1's turn (any-time option)
    assert s.view(P2)["players"][P1]["hand"] == ["H2", "SK"]
    play(s, "block D9", "set SK")  # P1 sets the ♠K while P2 watches
    set_event = [e for e in s.events_for(P2) if e["kind"] == "set"][-1]
    assert set_event["card"] == "SK" and "card" not in [e for e in s.events_for(None) if e["kind"] == "set"][-1]
    play(s, "heartnext H2")  # ...and pays ♥NEXT with the ♥2: P2 sees which heart
    assert [e for e in s.events_for(P2) if e["kind"] == "heart_next"][-1]["card"] == "H2"
    play(s, s.legal_actions()[0], "end")
    memory = s.view(P2)["players"][P1]
    assert memory["hand"] is None  # P1's hand gained the picked card: the look is over
    assert {"card": "SK", "where": "hand", "set": 3} in memory["memory"]
    assert [e["card"] for e in memory["discard"] if not e["face_up"]][0] == "H2"
