"""Events: what every seat learns from each action, automatic steps included (cardtable.core.events).

The screen is open (OSC-I63): trains, triggers, filters, the stock, the discard pile and the score
piles are public; hands and decks are not, so a drawn or dealt card is secret to its seat, except a
card everybody saw go under the pulse deck at setup (OSC-R3).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable.core import load_game
from cardtable.games.oscilloscope import OscilloscopeEvent, OscilloscopeState, describe_event
from cardtable.games.oscilloscope.cards import TOKENS

from .helpers import A0, B0, load

GAME = load_game("oscilloscope")
CASES = [(players, seed) for players in (1, 2, 3, 4) for seed in range(3)]
TOKEN_SET = frozenset(TOKENS)
TEXT_KEYS = frozenset({"reason", "rule", "detail"})


def names_for(players: int, seat: int | None = None) -> list[str]:
    """Seat labels as a front end gives them."""
    return [f"P{p + 1}" + (" (you)" if p == seat else "") for p in range(players)]


def card_mentions(node: Any, key: str = "") -> Iterator[str]:
    """Every card token an event names (free text such as reasons is not a card)."""
    if key in TEXT_KEYS:
        return
    if isinstance(node, str):
        if node in TOKEN_SET:
            yield node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield from card_mentions(v, k)
    elif isinstance(node, list):
        for v in node:
            yield from card_mentions(v, key)


PUBLIC_KEYS: dict[str, set[str]] = {
    "train": {"train", "cards", "under"}, "start": {"player"}, "deal": {"player", "pulse", "trigger"},
    "offer": {"cards"}, "assign": {"player", "train", "dealt"}, "filters": {"a", "b", "stock"},
    "turn": {"player", "set"}, "no_trigger": {"player"},
    "place": {"player", "card", "at", "step", "result", "discarded"}, "pass": {"player", "step", "more"},
    "early_end": {"player"}, "shift": {"dropped", "closed"},
    "capture": {"player", "position", "cards", "kept", "clears", "discarded", "emptied"}, "decline": {"player"},
    "noise": {"count", "limit"}, "exchange": {"train", "card", "replaced", "stock"},
    "refill": {"player", "train", "card", "out"}, "make_room": {"train", "card", "trigger"},
    "discard": {"player", "card"}, "draw": {"player", "deck"}, "draw_skipped": {"player"},
    "reshuffle": {"cards", "count"}, "stopped": {"train"}, "score": {"scores"},
    "game_over": {"winners", "reason", "rule", "scores", "detail"},
}
"""What each kind may say in public (a draw adds its ``card`` only with ``known``, see below)."""
SECRET_KEYS: dict[str, set[str]] = {"deal": {"pulse_cards", "trigger_cards"}, "draw": {"card"}}
"""The only secrets: what a seat is dealt or draws, told to that seat alone."""


def counts(cards: list[int]) -> Counter[str]:
    return Counter({TOKENS[k]: n for k, n in enumerate(cards) if n})


def open_zones(state: OscilloscopeState) -> Counter[str]:
    """The cards every seat sees or remembers at this moment: the open zones (OSC-I63) and the cards every
    seat knows (the known bottom of the pulse deck, known cards in hands)."""
    out: Counter[str] = Counter()
    for row in state.cards:
        out.update(TOKENS[k] for k in row if k >= 0)
    out.update(TOKENS[t[2]] for t in state.triggers)
    out.update(TOKENS[k] for k in state.filters if k >= 0)
    if state.stock >= 0:
        out[TOKENS[state.stock]] += 1
    out.update(TOKENS[k] for k in state.offer)
    out.update(TOKENS[k] for k in state.discard)
    for pile in state.scores:
        out.update(counts(pile))
    out.update(TOKENS[k] for k in state.pulse[:state.bottom_known])
    for known in state.known:
        out.update(counts(known))
    return out


def spy_on_events(state: OscilloscopeState, problems: list[str]) -> None:
    """Check each event the moment it is emitted against the state it describes: a public part says only
    what its kind may say and names only cards in the open zones (or known to all); a secret part is a
    draw or a deal, told to that seat alone, and names only cards now in that seat's hand."""
    emit = state._emit

    def spy(kind: str, public: Any = None, secret: Any = None, to: tuple[int, ...] = ()) -> None:
        emit(kind, public, secret, to)
        event = state.events[-1]
        said = set(event.public)
        allowed = PUBLIC_KEYS[str(kind)] | ({"card", "known"} if event.public.get("known") else set())
        if not said <= allowed:
            problems.append(f"{kind} says {said - allowed} in public: {dict(event.public)}")
        if event.public.get("known") and not state.known[event.public["player"]][TOKENS.index(event.public["card"])]:
            problems.append(f"{kind} names a card as known that nobody knows: {dict(event.public)}")
        named = Counter(card_mentions(dict(event.public)))
        if named - open_zones(state):
            problems.append(f"{kind} names {dict(named - open_zones(state))} in public: {dict(event.public)}")
        if secret:
            seat = int(event.public.get("player", -1))
            if to != (seat,) or not set(secret) <= SECRET_KEYS.get(str(kind), set()):
                problems.append(f"{kind}: a secret {dict(secret)} for {to}")
            elif Counter(card_mentions(dict(secret))) - counts(state.hands[seat]):
                problems.append(f"{kind} tells {seat} of cards not in its hand: {dict(secret)}")

    state._emit = spy  # type: ignore[method-assign]


def play(players: int, seed: int, rules: dict[str, Any] | None = None,
         spy: list[str] | None = None) -> OscilloscopeState:
    """A random game recorded from the setup on (its setup events checked by the spy as well)."""
    game = load_game("oscilloscope", **(rules or {}))
    state = game.new_game(seed=seed, players=players)
    assert isinstance(state, OscilloscopeState)
    state.record_events()
    if spy is not None:
        spy_on_events(state, spy)
    state._setup_events()
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.pure_python  # the spy replaces a state's _emit
@pytest.mark.parametrize("players,seed", CASES)
def test_no_seat_log_names_a_card_it_cannot_know(players: int, seed: int) -> None:
    problems: list[str] = []
    play(players, seed, spy=problems)
    assert not problems, problems[:5]


@pytest.mark.pure_python  # the spy replaces a state's _emit
def test_no_seat_log_names_a_card_it_cannot_know_under_variants() -> None:
    for flags, setup in load_game("oscilloscope").conformance_cases()[3:]:
        for seed in range(2):
            problems: list[str] = []
            play(setup["players"], seed, flags, spy=problems)
            assert not problems, problems[:5]


@pytest.mark.parametrize("players,seed", CASES[::2])
def test_every_log_has_the_same_length_and_reads_in_words(players: int, seed: int) -> None:
    state = play(players, seed)
    logs = [state.events_for(seat) for seat in [None, *range(players)]]
    assert len({len(log) for log in logs}) == 1
    kinds = {str(k) for k in OscilloscopeEvent}
    for seat, log in zip([None, *range(players)], logs, strict=True):
        names = names_for(players, seat)
        for event in log:
            assert event["kind"] in kinds
            text = describe_event(event, names)
            assert text and not text.startswith(f"{event['kind']}:"), event
    assert logs[0][-1]["kind"] == "game_over" and logs[0][-2]["kind"] == "score"


def test_the_log_covers_every_kind_of_the_vocabulary() -> None:
    seen = set()
    for players, seed in CASES:
        seen |= {e.kind for e in play(players, seed).events}
    for flags, setup in load_game("oscilloscope").conformance_cases()[3:]:
        for seed in range(3):
            seen |= {e.kind for e in play(setup["players"], seed, flags).events}
    rare = {OscilloscopeEvent.MAKE_ROOM, OscilloscopeEvent.DRAW_SKIPPED, OscilloscopeEvent.STOPPED}  # named tests
    assert {str(k) for k in OscilloscopeEvent} - rare <= {str(k) for k in seen}


def recorded(state: OscilloscopeState) -> OscilloscopeState:
    state.record_events()
    return state


def test_osc_r29_a_capture_is_in_every_seats_log_with_the_cards_taken() -> None:
    """T4: P1 places T_HL on A3; after the shift it lies on A2's HL: P1 captures HL and LH, keeps T_HL."""
    st = recorded(load(trains=[A0, B0], triggers=[("T_LH", "A2", 1)], hands=[["T_HL", "HL", "LOH"], ["HL", "LH", "HL"]]))
    st.apply("place T_HL A3")
    for seat in (None, 0, 1):
        log = st.events_for(seat)
        captures = [e for e in log if e["kind"] == "capture"]
        assert len(captures) == 1
        capture = captures[0]
        assert capture["player"] == 0 and capture["position"] == 2 and capture["kept"] == "T_HL"
        assert capture["cards"] == [{"train": "A", "card": "HL"}, {"train": "B", "card": "LH"}]
        assert describe_event(capture, names_for(2, seat)) == \
            f"P1{' (you)' if seat == 0 else ''} captures time position 2: HL from A, LH from B, and keeps T_HL"
    kinds = [e["kind"] for e in st.events_for(None)]
    assert kinds[:3] == ["place", "shift", "capture"]
    place = st.events_for(None)[0]
    assert place["result"] == "replaced" and place["discarded"] == ["T_LH"]  # OSC-R17
    shift = st.events_for(None)[1]
    assert shift["dropped"] == [{"train": "A", "card": "HL", "trigger": None},
                                {"train": "B", "card": "LOH", "trigger": None}]  # OSC-R23


def test_osc_r38_a_refill_draw_names_the_card_to_the_drawer_only() -> None:
    st = recorded(load(trains=["HL LH HL LH _", B0], hands=[["HL", "LH", "LOH"], ["HL", "LH", "HL"]],
                       phase="refill", pending={"index": 0, "discards": [0, 0], "deliberate": [False, False],
                                                "played": [0, 0], "stopped": [False, False], "limit": 100},
                       pulse_top=["NOISE"]))
    st.apply("refill A HL")
    refill, draw = st.events_for(None)[:2]
    assert refill == {"kind": "refill", "move": 0, "player": 0, "train": "A", "card": "HL", "out": "L"}
    assert draw == {"kind": "draw", "move": 0, "player": 0, "deck": "pulse"}
    assert st.events_for(0)[1]["card"] == "NOISE" and "card" not in st.events_for(1)[1]
    assert describe_event(st.events_for(0)[1], names_for(2, 0)) == "P1 (you) draws NOISE from the pulse deck"
    assert describe_event(st.events_for(1)[1], names_for(2, 1)) == "P1 draws a card from the pulse deck"


def test_osc_r5_each_dealt_hand_is_told_to_its_owner_only() -> None:
    state = GAME.new_game(seed=4, players=3, record_events=True)
    assert isinstance(state, OscilloscopeState)
    log = state.events_for(None)
    assert [e["kind"] for e in log] == ["train"] * 3 + ["start"] + ["deal"] * 3
    assert all(e["move"] == -1 for e in log)
    assert log[3]["player"] == state.start_player
    deals = [e for e in log if e["kind"] == "deal"]
    assert [e["player"] for e in deals] == [(state.start_player + i) % 3 for i in range(3)]  # OSC-I-CT8
    for seat in range(3):
        for e in state.events_for(seat):
            if e["kind"] != "deal":
                continue
            mine = e["player"] == seat
            assert ("pulse_cards" in e) == mine and ("trigger_cards" in e) == mine
            if mine:
                assert sorted(e["pulse_cards"] + e["trigger_cards"]) == sorted(state.view(seat)["hands"][seat])
                assert len(e["pulse_cards"]) == 2 and len(e["trigger_cards"]) == 1
    assert describe_event(deals[0], names_for(3)) == f"P{deals[0]['player'] + 1} is dealt 2 pulse cards and 1 trigger card"


def test_osc_r3_the_cards_put_under_the_pulse_deck_are_public() -> None:
    for seed in range(40):
        state = GAME.new_game(seed=seed, players=2, record_events=True)
        assert isinstance(state, OscilloscopeState)
        under = [c for e in state.events_for(1) if e["kind"] == "train" for c in e["under"]]
        if under:
            bottom = state.to_json()["position"]["pulse_deck"][-len(under):]
            assert sorted(bottom) == sorted(under)
            assert state.view(1)["memory"]["pulse_bottom"] == under
            text = describe_event(next(e for e in state.events_for(1) if e["kind"] == "train" and e["under"]), [])
            assert "went under the pulse deck" in text
            return
    raise AssertionError("no seed put a card under the pulse deck")


def test_osc_r3_drawing_a_card_everybody_saw_go_under_is_public() -> None:
    st = recorded(load(trains=["HL LH HL LH _", B0], hands=[["HL", "LH", "LOH"], ["HL", "LH", "HL"]],
                       phase="refill", pending={"index": 0, "discards": [0, 0], "deliberate": [False, False],
                                                "played": [0, 0], "stopped": [False, False], "limit": 100},
                       pulse_top=["LH", "NOISE"], rest_to="score:1", rules={"mp_end_excludes_cleared": True},
                       memory={"pulse_bottom": 2, "pulse_source": {}}))
    st.apply("refill A HL")
    draw = st.events_for(1)[1]
    assert draw == {"kind": "draw", "move": 0, "player": 0, "deck": "pulse", "card": "LH", "known": True}
    assert describe_event(draw, names_for(2, 1)) == \
        "P1 draws LH from the pulse deck (everybody saw it go under the deck at setup)"


def test_osc_r43_a_rebuilt_pulse_deck_shows_the_discard_pile_that_went_in() -> None:
    st = recorded(load(trains=["HL LH HL LH _", "LOH HL LH NOISE _"], hands=[["HL", "LH", "HL"], ["LH", "HL", "HL"]],
                       phase="refill", pending={"index": 0, "discards": [0, 0], "deliberate": [False, False],
                                                "played": [0, 0], "stopped": [False, False], "limit": 100},
                       discard=["CLEAR", "T_BOTH"], rest_to="score:0", rules={"mp_end_excludes_cleared": True}))
    st.apply("refill A HL")
    kinds = [e["kind"] for e in st.events_for(1)]
    assert kinds[:3] == ["refill", "reshuffle", "draw"]
    reshuffle = st.events_for(1)[1]
    assert reshuffle["cards"] == ["CLEAR", "T_BOTH"] and reshuffle["count"] == 2
    assert describe_event(reshuffle, []) == "The discard pile (2 cards) is shuffled into a new pulse deck"


def test_osc_r44_a_draw_with_nothing_to_draw_is_told() -> None:
    st = recorded(load(trains=["HL LH HL LH _", "LOH HL LH NOISE _"], hands=[["HL", "LH", "HL"], ["LH", "HL", "HL"]],
                       phase="refill", pending={"index": 0, "discards": [0, 0], "deliberate": [False, False],
                                                "played": [0, 0], "stopped": [False, False], "limit": 100},
                       rest_to="score:0", rules={"mp_end_excludes_cleared": True}))
    st.apply("refill A HL")
    skipped = st.events_for(0)[1]
    assert skipped == {"kind": "draw_skipped", "move": 0, "player": 0}
    assert "cannot draw" in describe_event(skipped, names_for(2))


def test_osc_r39_a_full_train_making_room_is_told() -> None:
    st = recorded(load(trains=[A0, B0], hands=[["HL", "LH", "LOH"], ["HL", "LH", "HL"]], phase="refill",
                       pending={"index": 0, "discards": [0, 0], "deliberate": [False, False], "played": [0, 0],
                                "stopped": [False, False], "limit": 100},
                       rules={"refill_all_players": True}))
    st.apply("refill A HL")
    room, refill = st.events_for(None)[:2]
    assert room == {"kind": "make_room", "move": 0, "train": "A", "card": "HL", "trigger": None}
    assert refill["kind"] == "refill" and refill["train"] == "A"
    assert describe_event(room, names_for(2)) == "Train A is full: HL falls off to make room"


def test_osc_r46_variant_a_train_left_out_is_told() -> None:
    st = recorded(load(trains=["HL LH HL LH _", "LH HL LH HL _"], hands=[["HL", "LH", "LH"], ["HL", "T_HL"]],
                       phase="refill", pending={"index": 0, "discards": [0, 0], "deliberate": [False, False],
                                                "played": [0, 0], "stopped": [False, False], "limit": 100},
                       pulse_top=["HL"], discard=["HL", "T_LH"], rest_to="score:0",
                       rules={"exhaustion_ends_game": False, "mp_end_excludes_cleared": True}))
    st.apply("refill A HL")
    stopped = [e for e in st.events_for(0) if e["kind"] == "stopped"]
    assert stopped == [{"kind": "stopped", "move": 0, "train": "B"}]
    assert describe_event(stopped[0], names_for(2)) == \
        "Train B can no longer be completed and is left out of this refill"


def test_osc_i11_variant_trains_dealt_at_random_are_told_at_setup() -> None:
    game = load_game("oscilloscope", train_assignment="random")
    state = game.new_game(seed=3, players=3, record_events=True)
    log = state.events_for(None)
    assigned = [e for e in log if e["kind"] == "assign"]
    assert [e["player"] for e in assigned] == [0, 1, 2] and all(e["dealt"] for e in assigned)
    assert log[-1]["kind"] == "turn" and log[-1]["player"] == state.current_player
    assert describe_event(assigned[0], names_for(3)) == f"P1 is dealt train {assigned[0]['train']}"


def test_osc_r55_the_solo_exchange_turns_the_new_stock_face_up() -> None:
    st = recorded(load(1, trains=["LH HL LH HL LOH", "LH NOISE NOISE HL LOH"], hands=[["HL", "LH"]],
                       phase="exchange", filters=[None, None], stock="T_LH", trigger_top=["T_BOTH"],
                       flags={"captured_last_set": True}))
    st.apply("exchange A")
    exchange = st.events_for(0)[0]
    assert exchange == {"kind": "exchange", "move": 0, "train": "A", "card": "T_LH", "replaced": None,
                        "stock": "T_BOTH"}
    assert describe_event(exchange, ["P1 (you)"]) == "The stock T_LH becomes the filter of A; new stock T_BOTH"


def test_osc_r34_the_game_end_reports_the_scores_and_the_winners() -> None:
    st = recorded(load(trains=[A0, B0], triggers=[("T_HL", "B4", 1)], phase="post",
                       score_piles=[["HL"] * 3 + ["NOISE"] * 5, ["LH"] * 2 + ["NOISE"] * 4],
                       hands=[["HL"] * 3, ["HL"] * 3]))
    st.apply("pass")
    log = st.events_for(None)
    assert [e["kind"] for e in log] == ["pass", "turn", "no_trigger", "shift", "capture", "noise", "score", "game_over"]
    noise, score, over = log[-3:]
    assert noise["count"] == 10 and noise["limit"] == 10
    assert score["scores"][1] == {"player": 1, "waveform": 4, "noise": 5, "clear": 0, "penalty": 8, "score": -4}
    assert over["winners"] == [1] and over["rule"] == "OSC-R34"
    assert describe_event(over, names_for(2, 0)) == "Game over: P2 wins (10 noise captured, OSC-R34)"
    assert describe_event(score, names_for(2)) == \
        "Scores: P1 -5 (3 waveform, 5 noise, 0 clear: -8); P2 -4 (4 waveform, 5 noise, 0 clear: -8)"


def test_recording_is_per_state_and_samples_do_not_record() -> None:
    state = GAME.new_game(seed=2, players=2, record_events=True)
    twin = state.clone()
    assert twin.events == state.events and twin.events is not state.events
    twin.apply(twin.legal_actions()[0])
    assert len(twin.events) > len(state.events)
    assert not GAME.sample_state(state.view(0), random.Random(1)).is_recording
    assert not GAME.new_game(seed=2, players=2).is_recording
