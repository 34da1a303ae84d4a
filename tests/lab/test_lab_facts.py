"""Stored facts are the event log's: counted again by hand from a replayed game, they agree."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import cardtable
from cardtable.core import State
from cardtable.core.rng import QuickRandom
from cardtable.lab.facts import Verb
from cardtable.lab.gamefacts.utahime import utahime_card
from cardtable.lab.storage import LabStore, LoadedRun
from cardtable.lab.study import PlayedGame, agent_seed


def replay_random(run: LoadedRun, game: PlayedGame) -> State:
    """Play the game again as the lab's random agents did: same seed, the same RNG shared by the seats
    (a ``QuickRandom``: every seat is a uniformly random agent)."""
    config = run.info.config
    state = cardtable.load_game(config.game, **dict(config.rules)).new_game(seed=game.seed, record_events=True,
                                                                            **dict(config.setup))
    rng = QuickRandom(agent_seed(config.seed, game.group, game.rotation))
    while state.current_player is not None:
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])
    return state


def stored(game: PlayedGame, verb: Verb) -> Counter[tuple[int, str]]:
    """The stored counts of one verb by (seat, item), summed over turns."""
    out: Counter[tuple[int, str]] = Counter()
    for f in game.facts.facts:
        if f.verb is verb:
            out[(f.seat, f.item)] += f.count
    return out


def test_zeta_facts_match_the_event_log(tiny_runs: dict[str, LoadedRun]) -> None:
    """ZETA-R28 draws, ZETA-R14 placements and ZETA-R25 destructions, counted from the events, per seat and card."""
    run = tiny_runs["zeta"]
    for game in run.games[:10]:
        state = replay_random(run, game)
        assert len(state.history) == game.length
        assert list(state.outcome().winners) == list(game.winners)  # type: ignore[union-attr]
        events = [e.revealed() for e in state.events]
        assert stored(game, Verb.PLAYED) == Counter((e["player"], e["card"]) for e in events if e["kind"] == "place")
        assert stored(game, Verb.DRAWN) == Counter((e["player"], e["card"]) for e in events if e["kind"] == "draw"
                                                   and "card" in e)
        assert stored(game, Verb.DESTROYED) == Counter((e["owner"], e["card"]) for e in events
                                                       if e["kind"] == "destroy")
        dealt = Counter((e["player"], c) for e in events if e["kind"] == "deal" for c in e["cards"])
        assert stored(game, Verb.OPENING) == dealt  # no mulligan by default (ZETA-I7)
        first = next(e["player"] for e in events if e["kind"] == "first_player")
        assert game.facts.first_player == first  # ZETA-R8
        assert game.facts.turns == max(e["turn"] for e in events if e["kind"] == "turn")
        assert sum(n for (s, _), n in stored(game, Verb.IN_DECK).items() if s == 0) == 25  # ZETA-R6


def test_zeta_played_facts_carry_the_turn(tiny_runs: dict[str, LoadedRun]) -> None:
    """A placement is stored under the turn in which it was made (ZETA-R12)."""
    run = tiny_runs["zeta"]
    game = run.games[0]
    state = replay_random(run, game)
    turn, expected = 0, Counter()
    for e in (e.revealed() for e in state.events):
        if e["kind"] == "turn":
            turn = e["turn"]
        elif e["kind"] == "place":
            expected[(e["player"], e["card"], turn)] += 1
    got = Counter({(f.seat, f.item, f.turn): f.count for f in game.facts.facts if f.verb is Verb.PLAYED})
    assert got == expected


def test_utahime_facts_match_the_event_log(tiny_runs: dict[str, LoadedRun]) -> None:
    """Attacks (UTA-R14), blocks (UTA-R21), option cards (UTA-R46) and NEXT declarations (UTA-R48, R49)."""
    run = tiny_runs["utahime"]
    for game in run.games[:6]:
        events = [e.revealed() for e in replay_random(run, game).events]
        attacks = Counter((e["player"], utahime_card(e["card"])) for e in events if e["kind"] == "attack")
        assert stored(game, Verb.PLAYED) == attacks
        assert stored(game, Verb.BLOCKED) == Counter((e["player"], utahime_card(e["card"])) for e in events
                                                     if e["kind"] == "block")
        assert stored(game, Verb.OPTION) == Counter((e["player"], e["option"]) for e in events if e["kind"] == "option")
        nexts = Counter((e["player"], "diamond_next" if utahime_card(e["card"])[0] == "D" else "club_next")
                        for e in events if e["kind"] == "attack" and e["next"])
        special = stored(game, Verb.SPECIAL)
        assert Counter({k: v for k, v in special.items() if k[1] in ("diamond_next", "club_next")}) == nexts
        successes = sum(1 for e in events if e["kind"] == "success")
        assert sum(stored(game, Verb.SUCCEEDED).values()) == successes
        assert game.facts.context[0]["option_set"] == "designer_example"


def test_oscilloscope_facts_match_the_event_log(tiny_runs: dict[str, LoadedRun]) -> None:
    """Triggers placed (OSC-R12), captured cards and kept triggers (OSC-R29), the start player (OSC-R4)."""
    run = tiny_runs["oscilloscope"]
    for game in run.games[:4]:
        events = [e.revealed() for e in replay_random(run, game).events]
        assert stored(game, Verb.PLAYED) == Counter((e["player"], e["card"]) for e in events if e["kind"] == "place")
        captured = Counter((e["player"], c["card"]) for e in events if e["kind"] == "capture" for c in e["cards"])
        assert stored(game, Verb.CAPTURED) == captured
        kept = Counter((e["player"], e["kept"]) for e in events if e["kind"] == "capture" and e["kept"])
        assert stored(game, Verb.KEPT) == kept
        assert game.facts.first_player == next(e["player"] for e in events if e["kind"] == "start")
        score = next(e for e in events if e["kind"] == "score")
        assert [c["score"] for c in game.facts.context] == [r["score"] for r in score["scores"]]


def test_stored_games_equal_the_played_games(lab: LabStore) -> None:
    """What the store gives back is what was played (facts in their canonical order)."""
    from cardtable.lab.study import Batch, StudyConfig, plan, play_batch

    config = StudyConfig("zeta", ("heuristic", "random"), games=4, seed=3)
    played = play_batch(Batch(config, tuple(plan(config))))
    run = lab.create("x", config)
    lab.save(run.id, played)
    loaded = lab.load("x").games
    assert [(g.index, g.seed, g.specs, g.winners, g.length, g.facts) for g in loaded] == \
        [(g.index, g.seed, g.specs, g.winners, g.length, g.facts) for g in played]


def test_a_game_without_a_fact_reader_still_stores_its_outcome() -> None:
    """A game whose kit names no fact reader (a plug-in game) gets outcome-only facts."""
    import dataclasses

    from cardtable.core import registry
    from cardtable.lab.facts import game_facts

    state = cardtable.load_game("zeta").new_game(seed=1, record_events=True)
    facts = game_facts(state)
    assert facts.facts  # zeta has one: deck contents and opening hands from the setup
    saved = registry.entry("zeta")
    registry.register(dataclasses.replace(saved, facts=""))
    try:
        assert game_facts(state).facts == () and game_facts(state).first_player is None
    finally:
        registry.register(saved)


@pytest.mark.parametrize("token,card", [("H7", "H7"), ("~C10", "C10"), ("D6+", "D6")])
def test_utahime_tokens_lose_their_zone_marks(token: str, card: str) -> None:
    """A card of the other deck (``~``) and a cosmic card (``+``) count as their suit and rank (UTA-R52)."""
    assert utahime_card(token) == card


def test_random_fast_path_equals_deciding_through_the_view() -> None:
    """The lab's random agents choose exactly what ``decide`` would (same RNG draw), without building views."""
    from cardtable.agents import decide, make_agent

    game = cardtable.load_game("utahime")
    agent = make_agent("random", game)
    a, b = game.new_game(seed=4), game.new_game(seed=4)
    ra, rb = random.Random(9), random.Random(9)
    while not a.is_over:
        legal = a.legal_actions()
        a.apply(legal[ra.randrange(len(legal))])
        b.apply(decide(agent, b, rb))
    assert a.history == b.history


@pytest.mark.parametrize(("game", "players"), [("zeta", 2), ("oscilloscope", 1), ("oscilloscope", 2),
                                                ("oscilloscope", 4)])
def test_compact_codes_decode_to_the_events_the_facts_count(game: str, players: int) -> None:
    """The compact codes an engine logs (Zeta's turns, draws, placements; Oscilloscope's draws, refills,
    sets) decode to full events, and the facts read from the codes count what those events say,
    turn by turn."""
    from cardtable.core import play_random
    from cardtable.lab.facts import game_facts

    setup = {"players": players} if game == "oscilloscope" else {}
    coded = 0
    for seed in range(25):
        state = cardtable.load_game(game).new_game(seed=seed, record_events=True, **setup)
        play_random(state, random.Random(seed))
        codes = sum(1 for row in state.event_rows() if type(row) is int)
        coded += codes
        facts = game_facts(state)  # read from the rows and codes as logged
        want: Counter[tuple[str, int, str, int]] = Counter()
        turn = 0
        for event in state.events:  # decodes every code into events kept beside the log
            e = event.revealed()
            if event.kind == "turn":
                turn = int(e["turn"] if game == "zeta" else e["set"])
            elif event.kind == "draw" and "card" in e:
                want[("drawn", e["player"], e["card"], turn)] += 1
            elif event.kind == "place":
                want[("played", e["player"], e["card"], turn)] += 1
            elif event.kind == "refill":
                want[("refilled", e["player"], e["card"], turn)] += 1
        assert sum(1 for row in state.event_rows() if type(row) is int) == codes  # the log is never rewritten
        got = Counter({(str(f.verb), f.seat, f.item, f.turn): f.count for f in facts.facts
                       if f.verb in (Verb.DRAWN, Verb.PLAYED, Verb.REFILLED)})
        assert got == want, seed
        assert state.events_for(0) == [e.seen_by(0) for e in state.events]
    assert coded > 25 * 20  # the codes were there to read


@pytest.mark.parametrize(("game", "setup"), [("zeta", {}), ("oscilloscope", {"players": 1}),
                                             ("oscilloscope", {"players": 3}), ("utahime", {}),
                                             ("utahime", {"option_set": "designer_example"})])
def test_facts_read_from_compact_codes_equal_facts_read_from_the_decoded_events(game: str,
                                                                               setup: dict[str, object]) -> None:
    """The lab reads an engine's compact codes without decoding them; it counts the very facts, in the
    very order, that it counts from the same log once every code is decoded into its event."""
    from cardtable.core import play_random
    from cardtable.lab.facts import game_facts

    coded = 0
    for seed in range(20):
        state = cardtable.load_game(game).new_game(seed=seed, record_events=True, **setup)
        play_random(state, random.Random(seed))
        codes = sum(1 for row in state.event_rows() if type(row) is int)
        coded += codes
        from_codes = game_facts(state)
        state.events  # noqa: B018 - decodes every code in place
        assert sum(1 for row in state.event_rows() if type(row) is int) == codes  # the log is never rewritten
        from_events = game_facts(state)
        assert from_codes.packed() == from_events.packed(), seed
        assert from_codes.encoded() == from_events.encoded(), seed
        assert from_codes.facts and from_codes.facts == from_events.facts, seed
        assert from_codes.turns == from_events.turns and from_codes.first_player == from_events.first_player
    assert coded > 20 * 20
