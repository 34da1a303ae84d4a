"""Seat memory (OSC-I-CT14): what a seat has seen of the hidden cards and still knows.

Each view's ``memory`` must be what an observer that reads only that seat's event log works out, and
every state ``sample_state`` deals from the view must agree with it.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable.core import load_game
from cardtable.games.oscilloscope import OscilloscopeState
from cardtable.games.oscilloscope.cards import PULSE_DECK, TOKENS, TRIGGER_DECK

from .helpers import A0, B0, load

GAME = load_game("oscilloscope")
PULSE_ONLY = frozenset({"HL", "LH", "NOISE"})
"""Kinds only the pulse deck starts with."""
TRIGGER_ONLY = frozenset({"CLEAR", "T_HL", "T_LH", "T_BOTH"})
"""Kinds only the trigger deck starts with."""
PULSE_KINDS = PULSE_ONLY | {"LOH"}


class Observer:
    """What one seat (None: a spectator) works out from its own event log, with the rulebook's deck lists."""

    def __init__(self, seat: int | None, players: int) -> None:
        self.seat = seat
        self.bottom: list[str] = []
        self.pulse_source = Counter(card.name for card in PULSE_DECK)
        self.trigger_source = Counter(card.name for card in TRIGGER_DECK)
        self.drawn_pulse: Counter[str] = Counter()
        self.drawn_trigger: Counter[str] = Counter()
        self.mixed = False
        self.known: list[Counter[str]] = [Counter() for _ in range(players)]
        self.hands: list[dict[str, int]] = [{"pulse": 0, "trigger": 0, "any": 0} for _ in range(players)]

    def read(self, event: dict[str, Any]) -> None:
        """Learn from one event of this seat's log."""
        kind = event["kind"]
        if kind == "train":
            self.pulse_source -= Counter(event["cards"]) + Counter(event["under"])
            self.bottom += event["under"]
        elif kind == "deal":
            hand = self.hands[event["player"]]
            hand["pulse"] += event["pulse"]
            hand["trigger"] += event["trigger"]
            if "pulse_cards" in event:
                self.drawn_pulse.update(event["pulse_cards"])
                self.drawn_trigger.update(event["trigger_cards"])
        elif kind == "offer":
            self.trigger_source -= Counter(event["cards"])
        elif kind == "exchange" and event["stock"] is not None:
            self.trigger_source[event["stock"]] -= 1
        elif kind == "reshuffle":
            self.pulse_source = Counter(event["cards"])
            self.drawn_pulse = Counter()
            self.mixed = not set(event["cards"]) <= PULSE_KINDS
            assert not self.bottom
        elif kind == "draw":
            hand = self.hands[event["player"]]
            if event.get("known"):
                assert self.bottom[0] == event["card"]
                self.bottom.pop(0)
                self.known[event["player"]][event["card"]] += 1
            elif event["deck"] == "pulse":
                hand["any" if self.mixed else "pulse"] += 1
                if "card" in event:
                    self.drawn_pulse[event["card"]] += 1
            else:
                hand["trigger"] += 1
                if "card" in event:
                    self.drawn_trigger[event["card"]] += 1
        elif kind in ("place", "refill", "discard"):
            self.played(event["player"], event["card"])

    def played(self, player: int, card: str) -> None:
        """A card left a hand face up: a known one of that kind first, else one whose origin allows it."""
        hand = self.hands[player]
        if self.known[player][card]:
            self.known[player][card] -= 1
        elif card in PULSE_ONLY:
            hand["pulse" if hand["pulse"] else "any"] -= 1
        elif card in TRIGGER_ONLY:
            hand["trigger" if hand["trigger"] else "any"] -= 1
        elif hand["pulse"] and hand["trigger"]:  # a Low or Hi from either deck: one of each, origin unknown
            hand["pulse"] -= 1
            hand["trigger"] -= 1
            hand["any"] += 1
        else:
            hand["pulse" if hand["pulse"] else "trigger" if hand["trigger"] else "any"] -= 1

    def memory(self) -> dict[str, Any]:
        """The memory as the view carries it."""
        def counts(c: Counter[str]) -> dict[str, int]:
            return {k: c[k] for k in TOKENS if c[k] > 0}
        return {
            "pulse_bottom": list(self.bottom),
            "pulse_may_hold": counts(self.pulse_source - self.drawn_pulse),
            "trigger_may_hold": counts(self.trigger_source - self.drawn_trigger),
            "hands": [{"known": sorted(k.elements(), key=TOKENS.index), "pulse": h["pulse"],
                       "trigger": h["trigger"], "any": h["any"]} for k, h in zip(self.known, self.hands, strict=True)],
        }


def agrees(state: OscilloscopeState, memory: dict[str, Any]) -> list[str]:
    """What in the full state contradicts a seat's memory (empty when nothing does)."""
    pos = state.to_json()["position"]
    problems = []
    bottom = memory["pulse_bottom"]
    if bottom and pos["pulse_deck"][-len(bottom):] != bottom:
        problems.append(f"the pulse deck ends {pos['pulse_deck'][-len(bottom):]}, not {bottom}")
    rest = Counter(pos["pulse_deck"][:len(pos["pulse_deck"]) - len(bottom)])
    if rest - Counter(memory["pulse_may_hold"]):
        problems.append(f"the pulse deck holds {dict(rest - Counter(memory['pulse_may_hold']))} it cannot")
    if Counter(pos["trigger_deck"]) - Counter(memory["trigger_may_hold"]):
        problems.append("the trigger deck holds cards it cannot")
    for p, (hand, remembered) in enumerate(zip(pos["hands"], memory["hands"], strict=True)):
        cards = Counter(hand)
        known = Counter(remembered["known"])
        if known - cards:
            problems.append(f"P{p + 1} lacks the known {dict(known - cards)}")
        others = cards - known
        if sum(others.values()) != remembered["pulse"] + remembered["trigger"] + remembered["any"]:
            problems.append(f"P{p + 1}'s hand size")
        if sum(others[k] for k in PULSE_ONLY) > remembered["pulse"] + remembered["any"] or \
                sum(others[k] for k in TRIGGER_ONLY) > remembered["trigger"] + remembered["any"]:
            problems.append(f"P{p + 1}'s hand {hand} does not fit its origins {remembered}")
    return problems


def games(players: int, seeds: range, rules: dict[str, Any] | None = None,
          every: int = 1) -> Iterator[OscilloscopeState]:
    """Random recorded games, yielding the state after every ``every``-th action."""
    game = load_game("oscilloscope", **(rules or {}))
    for seed in seeds:
        state = game.new_game(seed=seed, players=players, record_events=True)
        assert isinstance(state, OscilloscopeState)
        rng = random.Random(seed)
        count = 0
        yield state
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            count += 1
            if count % every == 0 or state.is_over:
                yield state


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_osc_i_ct14_each_views_memory_is_what_its_log_tells(players: int) -> None:
    for seed in range(3):
        observers = [Observer(seat, players) for seat in [None, *range(players)]]
        read = 0
        for state in games(players, range(seed, seed + 1)):
            for obs in observers:
                for event in state.events_for(obs.seat, read):
                    obs.read(event)
            read = len(state.events)
            for obs in observers:
                assert state.view(obs.seat)["memory"] == obs.memory(), (seed, obs.seat, len(state.history))
                assert not agrees(state, obs.memory()), agrees(state, obs.memory())


def test_osc_i_ct14_memory_and_log_agree_under_variants() -> None:
    for flags, setup in GAME.conformance_cases()[3:]:
        players = setup["players"]
        observers = [Observer(seat, players) for seat in [None, *range(players)]]
        read = 0
        for state in games(players, range(1), flags):
            for obs in observers:
                for event in state.events_for(obs.seat, read):
                    obs.read(event)
            read = len(state.events)
            for obs in observers:
                assert state.view(obs.seat)["memory"] == obs.memory()


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_osc_i_ct14_every_sample_agrees_with_the_memory(players: int) -> None:
    rng = random.Random(players)
    for state in games(players, range(2), every=3):
        if state.is_over:
            continue
        for seat in [None, *range(players)]:
            view = state.view(seat)
            for _ in range(3):
                sample = GAME.sample_state(view, random.Random(rng.random()))
                assert isinstance(sample, OscilloscopeState) and sample.view(seat) == view
                assert not agrees(sample, view["memory"]), agrees(sample, view["memory"])


def test_osc_i_ct14_the_deal_is_remembered_by_deck() -> None:
    """At the start P1 knows P2 holds two pulse cards and one trigger card (OSC-R5): no sample deals
    P2 two trigger-deck cards, though samples do vary P2's hand."""
    state = GAME.new_game(seed=5, players=2)
    view = state.view(0)
    assert view["memory"]["hands"][1] == {"known": [], "pulse": 2, "trigger": 1, "any": 0}
    hands = set()
    for i in range(200):
        hand = GAME.sample_state(view, random.Random(i)).to_json()["position"]["hands"][1]
        assert sum(1 for c in hand if c in TRIGGER_ONLY) <= 1 and sum(1 for c in hand if c in PULSE_ONLY) <= 2
        hands.add(tuple(hand))
    assert len(hands) > 20


def test_osc_i_ct14_a_low_or_hi_played_from_either_deck_leaves_an_unknown_origin() -> None:
    st = load(trains=[A0, B0], hands=[["LOH", "HL", "T_HL"], ["HL", "LH", "HL"]], phase="post",
              memory={"hands": [{"known": [], "pulse": 2, "trigger": 1, "any": 0},
                                {"known": [], "pulse": 3, "trigger": 0, "any": 0}]})
    st.apply("place LOH A3")
    assert st.view(1)["memory"]["hands"][0] == {"known": [], "pulse": 1, "trigger": 0, "any": 1}
    st = load(trains=[A0, B0], hands=[["LOH", "HL", "T_HL"], ["HL", "LH", "HL"]], phase="post",
              memory={"hands": [{"known": [], "pulse": 1, "trigger": 2, "any": 0},
                                {"known": [], "pulse": 3, "trigger": 0, "any": 0}]})
    st.apply("place T_HL A3")  # a trigger-deck card: the trigger origin goes
    assert st.view(1)["memory"]["hands"][0] == {"known": [], "pulse": 1, "trigger": 1, "any": 0}


def refill_position(**kw: Any) -> OscilloscopeState:
    return load(trains=["HL LH HL LH _", B0], phase="refill",
                pending={"index": 0, "discards": [0, 0], "deliberate": [False, False], "played": [0, 0],
                         "stopped": [False, False], "limit": 100}, **kw)


def test_osc_i_ct14_a_card_seen_going_under_the_deck_stays_known_in_the_hand_that_draws_it() -> None:
    st = refill_position(hands=[["HL", "LH", "LOH"], ["HL", "LH", "HL"]], pulse_top=["LH", "NOISE"],
                         rest_to="score:1", rules={"mp_end_excludes_cleared": True},
                         memory={"pulse_bottom": 2, "pulse_source": {}})
    assert st.view(1)["memory"]["pulse_bottom"] == ["LH", "NOISE"]
    st.apply("refill A HL")  # P1 draws the LH everybody saw go under the deck
    memory = st.view(1)["memory"]
    assert memory["pulse_bottom"] == ["NOISE"] and memory["hands"][0]["known"] == ["LH"]
    for i in range(30):
        sample = st.game.sample_state(st.view(1), random.Random(i)).to_json()["position"]
        assert "LH" in sample["hands"][0] and sample["pulse_deck"] == ["NOISE"]
    st = load(trains=["HL LH HL LH LH", B0], hands=[["LH", "LOH", "T_HL"], ["HL", "LH", "HL"]], phase="post",
              memory={"hands": [{"known": ["LH"], "pulse": 1, "trigger": 1, "any": 0},
                                {"known": [], "pulse": 3, "trigger": 0, "any": 0}]})
    st.apply("place T_HL A3")  # a known card stays known until a card of its kind leaves the hand
    assert st.view(1)["memory"]["hands"][0]["known"] == ["LH"]


def test_osc_i_ct14_a_rebuilt_deck_holds_only_what_the_discard_pile_held() -> None:
    st = refill_position(hands=[["HL", "LH", "HL"], ["LH", "HL", "HL"]], discard=["CLEAR", "T_BOTH", "HL"],
                         rest_to="score:0", rules={"mp_end_excludes_cleared": True})
    st.apply("refill A HL")  # the discard pile becomes the pulse deck; P1 draws one of its three cards
    drawn = (Counter(st.to_json()["position"]["hands"][0]) - Counter(["LH", "HL"])).most_common(1)[0][0]
    others = st.view(1)["memory"]
    assert others["pulse_may_hold"] == {"HL": 1, "CLEAR": 1, "T_BOTH": 1}  # P2 does not know which one P1 drew
    assert others["hands"][0] == {"known": [], "pulse": 0, "trigger": 0, "any": 3}  # a mixed deck: any kind
    mine = st.view(0)["memory"]
    assert Counter(mine["pulse_may_hold"]) == Counter({"HL": 1, "CLEAR": 1, "T_BOTH": 1}) - Counter([drawn])
    for i in range(30):
        deck = st.game.sample_state(st.view(1), random.Random(i)).to_json()["position"]["pulse_deck"]
        assert not Counter(deck) - Counter({"HL": 1, "CLEAR": 1, "T_BOTH": 1})
        assert Counter(st.game.sample_state(st.view(0), random.Random(i)).to_json()["position"]["pulse_deck"]) == \
            Counter(mine["pulse_may_hold"])  # P1 knows the two cards left exactly


def test_osc_i_ct14_own_draws_narrow_what_a_deck_may_hold() -> None:
    state = GAME.new_game(seed=8, players=2, record_events=True)
    deals = {e["player"]: e for seat in (0, 1) for e in state.events_for(seat) if e["kind"] == "deal" and
             e["player"] == seat}
    spectators = Counter(state.view(None)["memory"]["trigger_may_hold"])
    assert sum(spectators.values()) == 40  # nobody else knows which trigger cards were dealt
    for seat in (0, 1):
        mine = Counter(state.view(seat)["memory"]["trigger_may_hold"])
        assert spectators - mine == Counter(deals[seat]["trigger_cards"])
        pulse = Counter(state.view(seat)["memory"]["pulse_may_hold"])
        assert Counter(state.view(None)["memory"]["pulse_may_hold"]) - pulse == Counter(deals[seat]["pulse_cards"])


def test_osc_i_ct14_memory_survives_the_position_json() -> None:
    for state in games(3, range(1), every=17):
        data = json.loads(json.dumps(state.to_json()))
        again = GAME.from_json(data)
        assert again.to_json() == data
        for seat in (None, 0, 1, 2):
            assert again.view(seat)["memory"] == state.view(seat)["memory"]
