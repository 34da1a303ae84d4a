"""What every seat learns (events), what it remembers (ZETA-I-CT6), and how seats are named.

Over random games of every conformance case:

- no seat's log names a card that the seat cannot know (public cards are in a public zone of the
  true state; secret parts go only to the card's owner);
- an observer that replays one seat's log (``events_for(seat)``) rebuilds that seat's view: the
  board, markers, blocks, piles, hand and deck sizes, its own hand, the duration effects, the
  outcome, and the memory ``known_hands``; so every change the view shows has an event saying why;
- ``sample_state(view)`` keeps the memory in every sample.

Then the named cases of the rulebook.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from zeta_positions import F, build, hand

import cardtable
from cardtable.core import Event, InvalidPosition
from cardtable.core import actions as core_actions
from cardtable.games.zeta import ZetaGame, ZetaState
from cardtable.games.zeta.actions import DECLINE, PASS, Decline, Pass
from cardtable.games.zeta.events import ZetaEvent, describe_event

CASES = [*ZetaGame.conformance_cases(),
         ({}, {"decks": ["arcana", "control"]}),
         ({"wind_mage_negated": "remove_from_game", "ultimate_zero_disposal": "remove_from_game",
           "mourning_count_scope": "board_only", "targeted_destroy_scope": "opponent_only", "fortune_short_draw": "keep",
           "do_over_empty_hand": "no_draw", "negation_scope": "include_lingering", "broom_vs_earth": "permission_wins",
           "single_arrow_blocked_filled": True, "blocked_counts_as_filled": False, "second_player_extra_card": True,
           "first_turn_draw": False}, {"decks": ["random", "random"]})]
"""The conformance cases, plus the big-spell decks and the other flag values (Removed area, Ultimate Zero)."""
SEEDS = tuple(range(1, 11))
NAMES = ["P1 (you)", "P2 (heuristic)"]
EFFECT_KEYS = ("negate_fanfares", "only_cost_zero", "broom", "apprentice_check")


def recorded_game(case: int, seed: int) -> tuple[ZetaState, list[tuple[int, int, dict[str, Any]]]]:
    """A random game with events on; per action: (events before, events after, view of the true public state)."""
    flags, setup = CASES[case]
    state = cardtable.load_game("zeta", **flags).new_game(seed=seed, record_events=True, **setup)
    assert isinstance(state, ZetaState)
    rng = random.Random(seed * 31 + case)
    steps = [(0, len(state.events), _public_zones(state))]
    while not state.is_over:
        before = len(state.events)
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        steps.append((before, len(state.events), _public_zones(state)))
    return state, steps


def _public_zones(state: ZetaState) -> dict[str, Any]:
    """The (owner, card) pairs any seat may see after an action: board, piles, set-aside, remembered hands."""
    view = state.view(None)
    seen: set[tuple[int, str]] = {(e["owner"], e["card"]) for e in view["board"].values()}
    for p in (0, 1):
        seen |= {(p, c) for c in view["destroyed"][p] + view["removed"][p] + view["known_hands"][p]}
    if view["set_aside"] is not None:
        seen.add((state.set_aside_owner(), view["set_aside"]))
    return {"public": seen, "hands": [Counter(state.view(p)["hands"][p]) for p in (0, 1)]}


def _mentions(event: Event) -> list[tuple[str, int, str]]:
    """(part, owner, card id) for every card an event names; part is "public" or "secret"."""
    out: list[tuple[str, int, str]] = []
    for part_name, part in (("public", event.public), ("secret", event.secret or {})):
        owner = part.get("owner", event.public.get("owner", event.public.get("player")))
        for key in ("card", "covers", "source"):
            value = part.get(key)
            if isinstance(value, str):
                out.append((part_name, owner, value))
        for value in part.get("cards", []):
            out.append((part_name, owner, value))
    return out


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("case", range(len(CASES)), ids=[f"case{i}" for i in range(len(CASES))])
def test_zeta_r3_no_log_names_a_card_its_seat_cannot_know(case: int, seed: int) -> None:
    state, steps = recorded_game(case, seed)
    for before, after, zones in steps:
        for event in state.events[before:after]:
            for part, owner, card in _mentions(event):
                if part == "secret":
                    assert event.to == (owner,), f"a secret card goes to its owner only: {event}"
                    assert zones["hands"][owner][card] or (owner, card) in zones["public"], event
                else:
                    assert (owner, card) in zones["public"], f"{card} of seat {owner} named in public: {event}"
            for seat in (None, 0, 1):
                seen = event.seen_by(seat)
                if seat is None or seat not in event.to:
                    assert not any(k in seen for k in (event.secret or {})), f"seat {seat} sees a secret: {event}"


class Observer:
    """One seat at the table: it knows the decklists and the rules, and hears only its own log."""

    def __init__(self, seat: int | None, decklists: list[list[str]]) -> None:
        self.seat = seat
        self.board: dict[str, dict[str, Any]] = {}
        self.markers: dict[str, int] = {}
        self.ever: list[set[str]] = [set(), set()]
        self.blocked: set[str] = set()
        self.destroyed: list[list[str]] = [[], []]
        self.removed: list[list[str]] = [[], []]
        self.hand_sizes = [0, 0]
        self.deck_sizes = [len(decklists[0]), len(decklists[1])]
        self.hand: Counter[str] = Counter()
        self.known: list[Counter[str]] = [Counter(), Counter()]
        self.effects = {key: [0, 0] for key in EFFECT_KEYS}
        self.set_aside: str | None = None
        self.turn = 1
        self.active: int | None = None
        self.outcome: dict[str, Any] | None = None

    def _gain(self, p: int, card: str | None) -> None:
        self.hand_sizes[p] += 1
        if card is not None and p == self.seat:
            self.hand[card] += 1

    def _lose(self, p: int, card: str, remembered: bool = True) -> None:
        self.hand_sizes[p] -= 1
        if p == self.seat:
            self.hand[card] -= 1
        if remembered and self.known[p][card]:
            self.known[p][card] -= 1  # ZETA-I-CT6: one remembered copy fewer

    def see(self, e: dict[str, Any]) -> None:  # noqa: C901 - one case per kind
        """Update what this seat knows from one event of its log."""
        kind = e["kind"]
        p = e.get("player")
        if kind == ZetaEvent.FIRST_PLAYER:
            self.active = p
        elif kind == ZetaEvent.DEAL:
            self.hand_sizes[p] += e["count"]
            self.deck_sizes[p] -= e["count"]
            if "cards" in e:
                self.hand.update(e["cards"])
        elif kind == ZetaEvent.MULLIGAN and e["taken"]:
            self.known[p].clear()
            if "cards" in e:
                self.hand = Counter(e["cards"])
        elif kind == ZetaEvent.TURN:
            self.turn, self.active = e["turn"], p
        elif kind == ZetaEvent.DRAW:
            self.deck_sizes[p] -= 1
            self._gain(p, e.get("card"))
        elif kind == ZetaEvent.PLACE:
            self._lose(p, e["card"])
            sq = e["square"]
            if e["covers"]:
                self.set_aside = e["covers"]
            self.board[sq] = {"card": e["card"], "owner": p}
            self.markers.pop(sq, None)
        elif kind == ZetaEvent.RETURN:
            self._gain(p, e["card"])
            self.known[p][e["card"]] += 1
            self.set_aside = None
        elif kind in (ZetaEvent.DESTROY, ZetaEvent.REMOVE):
            owner, card, zone = e["owner"], e["card"], e["zone"]
            if zone == "board":
                sq = e["square"]
                del self.board[sq]
                self.markers[sq] = owner
                self.ever[owner].add(sq)
            elif zone == "hand":
                self._lose(owner, card, remembered=e["cause"] != "fortune_telling")
            else:
                self.set_aside = None
            (self.destroyed if kind == ZetaEvent.DESTROY else self.removed)[owner].append(card)
        elif kind == ZetaEvent.BLOCK:
            self.blocked.add(e["square"])
            self.markers.pop(e["square"], None)
        elif kind == ZetaEvent.EFFECT:
            self.effects[e["effect"]][p] = e["turn"]
        elif kind == ZetaEvent.GAME_OVER:
            self.outcome = {k: e[k] for k in ("winners", "reason", "rule", "scores", "detail")}

    def matches(self, view: dict[str, Any]) -> list[str]:
        """The fields of ``view`` this observer gets wrong."""
        wrong = []
        mine = {
            "board": self.board, "markers": dict(sorted(self.markers.items())), "blocked": sorted(self.blocked),
            "destroyed": self.destroyed, "removed": self.removed, "hand_sizes": self.hand_sizes,
            "deck_sizes": self.deck_sizes, "effects": self.effects, "set_aside": self.set_aside, "turn": self.turn,
            "active": self.active, "outcome": self.outcome,
            "known_hands": [sorted(+k) for k in self.known],
            "ever_destroyed": [sorted(x) for x in self.ever],
        }
        theirs = dict(view, blocked=sorted(view["blocked"]), known_hands=[sorted(k) for k in view["known_hands"]],
                      ever_destroyed=[sorted(x) for x in view["ever_destroyed"]])
        for key, value in mine.items():
            if value != theirs[key]:
                wrong.append(f"{key}: log says {value}, view says {theirs[key]}")
        if self.seat is not None and sorted((+self.hand).elements()) != sorted(view["hands"][self.seat]):
            wrong.append(f"own hand: log says {sorted((+self.hand).elements())}, view says {view['hands'][self.seat]}")
        return wrong


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("case", range(len(CASES)), ids=[f"case{i}" for i in range(len(CASES))])
def test_zeta_i_ct6_each_seats_memory_is_what_its_log_tells(case: int, seed: int) -> None:
    """After every action, an observer of each seat's log rebuilds that seat's view, memory included."""
    flags, setup = CASES[case]
    state = cardtable.load_game("zeta", **flags).new_game(seed=seed, record_events=True, **setup)
    rng = random.Random(seed * 17 + case)
    decklists = state.view(None)["decklists"]
    observers = {seat: Observer(seat, decklists) for seat in (None, 0, 1)}
    read = 0
    while True:
        for seat, obs in observers.items():
            for e in state.events_for(seat, read):
                obs.see(e)
            assert not obs.matches(state.view(seat)), (seat, len(state.history), obs.matches(state.view(seat)))
        read = len(state.events)
        if state.is_over:
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


def _games_with_memory() -> list[ZetaState]:
    """Positions of random games where some hand holds a remembered card (a Wind Mage returned it)."""
    out: list[ZetaState] = []
    game = cardtable.load_game("zeta")
    for seed in range(200):
        state = game.new_game(seed=seed, decks=["classic", "random"])
        rng = random.Random(seed)
        while not state.is_over:
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            assert isinstance(state, ZetaState)
            if state.known_mask and not state.is_over:
                out.append(state.clone())
        if len(out) >= 40:
            break
    assert out, "no random game returned a card with a Wind Mage"
    return out


def test_zeta_i_ct6_sample_state_keeps_the_memory_in_every_sample() -> None:
    game = cardtable.load_game("zeta")
    rng = random.Random(7)
    for state in _games_with_memory():
        for seat in (0, 1):
            view = state.view(seat)
            known = view["known_hands"]
            assert any(known)
            for _ in range(25):
                sampled = game.sample_state(view, random.Random(rng.random()))
                assert not sampled.is_recording
                assert sampled.view(seat) == view
                for p in (0, 1):
                    held = Counter(sampled.view(p)["hands"][p])
                    assert not Counter(known[p]) - held, f"sample drops a remembered card of seat {p}"


def test_zeta_i_ct6_memory_survives_json_and_is_checked() -> None:
    state = _games_with_memory()[0]
    doc = state.to_json()
    assert any(doc["position"]["known_hands"])
    again = state.game.from_json(json.loads(json.dumps(doc)))
    assert again.to_json() == doc
    p = 0 if doc["position"]["known_hands"][0] else 1
    doc["position"]["known_hands"][p].append("ultimate_zero")
    with pytest.raises(InvalidPosition, match="ZETA-I-CT6"):
        state.game.from_json(doc)


# ------------------------------------------------------------------------------------ named cases
def test_zeta_r12_turn_draw_shows_the_card_to_its_owner_and_a_card_to_the_opponent() -> None:
    state = cardtable.load_game("zeta", first_player="p1").new_game(seed=11, record_events=True)
    state.apply("pass")  # seat 0 passes; turn 2 begins: seat 1 draws
    draw = [e for e in state.events if e.kind == ZetaEvent.DRAW][-1]
    assert draw.public == {"player": 1, "cause": "turn"} and draw.to == (1,)
    card = draw.secret["card"] if draw.secret else None
    assert card in state.view(1)["hands"][1]
    own, other, spectator = draw.seen_by(1), draw.seen_by(0), draw.seen_by(None)
    assert own["card"] == card and "card" not in other and "card" not in spectator
    english = cardtable.games.zeta.card(card).english
    assert describe_event(own, ["P1 (heuristic)", "P2 (you)"]) == f"P2 (you) draws {english}"
    assert describe_event(other, NAMES) == "P2 (heuristic) draws a card"


def test_zeta_r9_setup_tells_each_seat_its_own_hand() -> None:
    state = cardtable.load_game("zeta").new_game(seed=3, record_events=True)
    setup = [e for e in state.events if e.move == -1]
    assert [e.kind for e in setup][:3] == [ZetaEvent.FIRST_PLAYER, ZetaEvent.DEAL, ZetaEvent.DEAL]
    first = setup[0].public["player"]
    assert first == state.first and describe_event(setup[0].seen_by(None), NAMES).endswith("moves first (coin toss)")
    for deal in setup[1:3]:
        seat = deal.public["player"]
        assert deal.to == (seat,) and deal.public["count"] == 3
        assert "cards" not in deal.seen_by(1 - seat)
        assert describe_event(deal.seen_by(1 - seat), NAMES) == f"{NAMES[seat]} is dealt 3 cards"
    assert [e.kind for e in setup[3:]] == [ZetaEvent.TURN, ZetaEvent.DRAW]  # turn 1's draw (ZETA-R12, I9)
    plain = cardtable.load_game("zeta").new_game(seed=3)
    assert plain.to_json() == state.to_json(), "recording changes nothing in the game"


def test_zeta_r11_mulligan_events() -> None:
    state = cardtable.load_game("zeta", mulligan="once", first_player="p1").new_game(seed=2, record_events=True)
    assert state.events[-1].kind == ZetaEvent.DECISION and state.events[-1].public["decision"] == "mulligan"
    state.apply("mulligan")
    taken = [e for e in state.events if e.kind == ZetaEvent.MULLIGAN][-1]
    assert taken.public == {"player": 0, "taken": True, "count": 3}
    assert taken.secret is not None and sorted(taken.secret["cards"]) == sorted(state.view(0)["hands"][0])
    assert describe_event(taken.seen_by(1), NAMES) == \
        "P1 (you) takes a mulligan: 3 cards shuffled back, as many drawn"
    state.apply("keep")
    assert describe_event(state.events_for(0)[-3], NAMES) == "P2 (heuristic) keeps the opening hand"


def test_zeta_r20_seat_naming_when_seat_1_moves_first() -> None:
    """Engine text names seats P{seat+1} whoever moved first: seat 1 moving first is still "P2"."""
    s = build(["P2@a1", "P2@b1", "P2@c1"], p2_hand=["chant"], turn=4)
    doc = s.to_json()
    doc["position"]["first_player"] = 1  # seat 1 moved first: turn 4 is seat 0's
    doc["position"]["active"] = doc["position"]["decider"] = 0
    s = s.game.from_json(doc)
    assert s.summary().startswith("turn 4, P1 to decide")
    s.apply("pass")  # turn 5: seat 1's
    assert s.summary().startswith("turn 5, P2 to decide")
    s.record_events()
    s.apply("chant_practice@d1")
    out = s.outcome()
    assert out is not None and out.winners == (1,) and out.detail == "P2 made four in a row with chant_practice@d1"
    end = s.events[-1]
    assert end.kind == ZetaEvent.GAME_OVER and end.public["line"] == ["a1", "b1", "c1", "d1"]
    assert describe_event(end.seen_by(0), ["P1 (you)", "P2 (random)"]) == "P2 (random) wins: four in a row on a1 b1 c1 d1"


def test_zeta_r23_deck_out_names_the_seat() -> None:
    s = build(F(2), p1_deck=["chant"] * 2, p2_deck=[], turn=3)
    s.record_events()
    s.apply("pass")
    out = s.outcome()
    assert out is not None and out.winners == (0,) and out.detail.startswith("P2's deck was empty")
    assert describe_event(s.events_for(0)[-1], NAMES) == \
        "P1 (you) wins: P2 (heuristic)'s deck was empty at the start of their turn"


def test_zeta_r45_wind_mage_return_is_remembered_by_both_seats() -> None:
    """ZETA-I-CT6: the card a Wind Mage returns was face up; the opponent remembers it until it leaves."""
    s = build(["P1:magic_circle@b2", *F(4)], p1_hand=["wind_mage", "chant"])
    s.record_events()
    s.apply("wind_mage@b2")
    ret = s.events[-1] if s.events[-1].kind == ZetaEvent.RETURN else \
        next(e for e in s.events if e.kind == ZetaEvent.RETURN)
    assert ret.public == {"player": 0, "card": "magic_circle", "square": "b2"}
    assert describe_event(ret.seen_by(1), NAMES) == \
        "The Wind Mage on b2 returns P1 (you)'s Magic Circle to their hand"
    for seat in (None, 0, 1):
        assert s.view(seat)["known_hands"] == [["magic_circle"], []]
    view = s.view(1)
    assert view["hands"][0] is None
    for i in range(50):
        sampled = s.game.sample_state(view, random.Random(i))
        assert "magic_circle" in sampled.view(0)["hands"][0]
    s.apply("chant_practice@e2")  # P2's placement: nothing leaves P1's hand
    assert s.view(1)["known_hands"] == [["magic_circle"], []]
    s.apply("magic_circle@e1")  # P1 places a Magic Circle: the remembered one, as far as anyone can tell
    assert s.view(1)["known_hands"] == [[], []]


def test_zeta_r45_covered_card_of_a_negated_wind_mage_is_destroyed_in_the_log() -> None:
    s = build(["P1:magic_circle@b2", *F(4)], p1_hand=["wind_mage"], effects={"negate_fanfares": [3, 0]})
    s.record_events()
    s.apply("wind_mage@b2")
    kinds = [e.kind for e in s.events]
    assert kinds[:3] == [ZetaEvent.PLACE, ZetaEvent.NEGATED, ZetaEvent.DESTROY]
    assert s.events[0].public["covers"] == "magic_circle"
    assert describe_event(s.events_for(1)[0], NAMES) == "P1 (you) places Wind Mage on b2, covering their Magic Circle"
    assert describe_event(s.events_for(1)[1], NAMES) == "P1 (you)'s Wind Mage on b2: its Fanfare has no effect"
    assert describe_event(s.events_for(1)[2], NAMES) == \
        "Wind Mage destroys P1 (you)'s Magic Circle from under the Wind Mage"
    assert s.view(1)["known_hands"] == [[], []]


def test_zeta_r42_destroy_names_the_card_and_r35_hexer_negation() -> None:
    s = build(["P2:ice_mage@c4", *F(3)], p1_hand=["fire_mage", "hexer"], p2_hand=["fire_mage"],
              effects={"broom": [3, 0]})
    s.record_events()
    s.apply("fire_mage@c3")
    decision = s.events[-1]
    assert decision.kind == ZetaEvent.DECISION and decision.public["targets"] == ["c4"]
    s.apply("target:c4")
    destroy = next(e for e in s.events if e.kind == ZetaEvent.DESTROY)
    assert destroy.public == {"owner": 1, "card": "ice_mage", "zone": "board", "square": "c4", "cause": "fire_mage",
                              "by": 0, "random": False}
    assert describe_event(destroy.seen_by(1), NAMES) == "Fire Mage destroys P2 (heuristic)'s Ice Mage on c4"


def test_zeta_r35_negated_fanfare_is_told() -> None:
    s = build(["P1@c3", *F(5)], p1_hand=["hexer"], p2_hand=["magical_boost"])
    s.record_events()
    s.apply("hexer@a1")
    effect = next(e for e in s.events if e.kind == ZetaEvent.EFFECT)
    assert effect.public == {"effect": "negate_fanfares", "player": 1, "turn": 4, "cause": "hexer"}
    assert describe_event(effect.seen_by(0), NAMES) == "P2 (heuristic)'s Fanfares have no effect on turn 4 (Hexer)"
    s.apply("magical_boost@a2")
    negated = [e for e in s.events if e.kind == ZetaEvent.NEGATED]
    assert len(negated) == 1 and negated[0].public == {"player": 1, "card": "magical_boost", "square": "a2"}


def test_zeta_r46_random_hand_destroys_are_revealed_and_r60_ultimate_zero_clears_memory() -> None:
    s = build(["P1:great_magic_circle@b2", *F(4)], p1_hand=["chant"], p2_hand=["hexer", "barrier", "dark_mage"])
    s.record_events()
    s.apply("chant_practice@c3")
    destroys = [e for e in s.events if e.kind == ZetaEvent.DESTROY]
    assert sorted(e.public["card"] for e in destroys) == ["barrier", "dark_mage", "hexer"]
    assert all(e.public["zone"] == "hand" and e.public["random"] and e.public["by"] == 0 for e in destroys)
    assert describe_event(destroys[0].seen_by(1), NAMES).endswith("from their hand (at random)")


def test_zeta_r39_fortune_telling_does_not_forget_a_remembered_card() -> None:
    """ZETA-I-CT6: Fortune-Telling destroys one of the two cards it drew, never the remembered one."""
    s = build(["P1:hexer@b2", *F(4)], p1_hand=["wind_mage", "fortune_telling"], p1_deck=["hexer", "chant"] * 4,
              effects={"broom": [3, 0]})
    s.apply("wind_mage@b2")  # hexer back to hand, remembered
    assert s.view(1)["known_hands"][0] == ["hexer"]
    s.apply("pass")
    s.apply("fortune_telling@e1")  # turn 5 drew a hexer; Fortune-Telling draws a chant and another hexer
    assert s.view(1)["phase"] == "fortune"
    s.apply("destroy:hexer")
    assert s.view(1)["known_hands"][0] == ["hexer"] and hand(s, 0).count("hexer") == 2


def test_zeta_r38_do_over_destroy_of_a_remembered_type_forgets_one() -> None:
    s = build(["P1:hexer@b2", *F(4)], p1_hand=["wind_mage", "do_over", "chant"])
    s.apply("wind_mage@b2")
    s.apply("pass")
    s.apply("do_over@e1")
    s.apply("destroy:hexer")
    assert s.view(1)["known_hands"][0] == []


def test_recording_clone_has_its_own_log_and_samples_do_not_record() -> None:
    state = cardtable.load_game("zeta").new_game(seed=4, record_events=True)
    twin = state.clone()
    twin.apply(twin.legal_actions()[0])
    assert len(twin.events) > len(state.events)
    sampled = state.game.sample_state(state.view(state.current_player), random.Random(1))
    assert not sampled.is_recording and sampled.events == []


def test_describe_event_covers_every_kind_in_random_games() -> None:
    """Every event of random games reads as words naming the seats, never as the raw fallback."""
    seen: set[str] = set()
    for case in range(len(CASES)):
        for seed in SEEDS:
            state, _ = recorded_game(case, seed)
            for e in state.events:
                for seat in (None, 0, 1):
                    text = describe_event(e.seen_by(seat), NAMES)
                    assert text and not text.startswith(f"{e.kind}:") and "None" not in text, (e, text)
                seen.add(str(e.kind))
    assert seen == {k.value for k in ZetaEvent}


def test_pass_and_decline_are_the_shared_actions() -> None:
    assert Pass is core_actions.Pass and Decline is core_actions.Decline
    assert PASS == core_actions.PASS and DECLINE == core_actions.DECLINE
    assert cardtable.load_game("zeta").parse_action("pass") == core_actions.PASS


def test_zeta_i_ct6_the_terminal_screen_shows_remembered_cards() -> None:
    from rich.console import Console

    from cardtable.cli.play.render.common import Context
    from cardtable.cli.play.render.zeta import render_zeta

    s = build(["P1:magic_circle@b2", *F(4)], p1_hand=["wind_mage", "chant"])
    s.apply("wind_mage@b2")
    console = Console(width=120, record=True, color_system=None)
    console.print(render_zeta(s.view(1), Context(names=("P1 (random)", "P2 (you)"))))
    assert "known to be in P1 (random)'s hand: Magic Circle" in console.export_text()
