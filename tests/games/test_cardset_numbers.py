"""Card sets hold every game's numbers, not Zeta's alone: Zeta's plain draw counts (ZETA-I-CT7), Utahime's
option costs, hero uses and cosmic cards (UTA-I-CT24), Oscilloscope's deck composition (OSC-I-CT15). Each
changed number changes play, the lab and records with no edit of Python; a bad one is refused naming the
card and the rule; the rulebook's set is the game as it was."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable.core import cardset, record_of, replay
from cardtable.core.cardset import CardSetError
from cardtable.games.zeta.cards import CARDS

# -- Zeta: the plain draw counts ---------------------------------------------------------------------------


def _zeta_after_placing(card: str, cards: str, seed: int = 1) -> Any:
    """A Zeta game whose decks hold only ``card`` (limits lifted), after the first player placed one."""
    game = cardtable.load_game("zeta", cards=cards, construction_limits=False)
    deck = {"name": card, card: 25}
    state = game.new_game(seed=seed, decks=[deck, deck])
    seat = state.current_player
    before = (state.hand_size[seat], state.hand_size[1 - seat])
    place = next(a for a in state.legal_actions() if str(a).startswith(f"{card}@"))
    state.apply(place)
    return state, seat, before


@pytest.mark.parametrize(("card", "key"), [("blessing_mist", "blessing_mist.draw"),
                                           ("magical_boost", "magical_boost.draw")])
def test_zeta_r37_r41_a_changed_draw_count_changes_what_the_fanfare_draws(card: str, key: str) -> None:
    """ZETA-R37 (each player draws), ZETA-R41 (you draw): 1 in the rulebook, 3 in the set."""
    gains = {}
    for n in (1, 3):
        state, seat, (mine, theirs) = _zeta_after_placing(card, f"{key}={n};{card}.cost=0")
        # the placed card left the hand; the opponent's turn began with its draw (ZETA-R12)
        gains[n] = (state.hand_size[seat] - (mine - 1), state.hand_size[1 - seat] - theirs - 1)
    assert gains[1][0] == 1 and gains[3][0] == 3
    if card == "blessing_mist":
        assert gains[1][1] == 1 and gains[3][1] == 3  # ZETA-R37: the opponent draws as many


def test_zeta_r40_magic_circle_draws_the_sets_count_per_circle() -> None:
    """ZETA-R40: placing your card beside your Magic Circle draws ``magic_circle.draw`` (1 in the rulebook)."""
    drawn = {}
    for n in (1, 2):
        game = cardtable.load_game("zeta", cards=f"magic_circle.draw={n};magic_circle.cost=0",
                                   construction_limits=False)
        deck = {"name": "circles", "magic_circle": 25}
        state = game.new_game(seed=3, decks=[deck, deck])
        me = state.current_player
        state.apply("magic_circle@c3")
        state.apply("pass")
        before = state.hand_size[me]
        state.apply("magic_circle@c4")  # beside c3: one circle fires
        drawn[n] = state.hand_size[me] - (before - 1)
    assert drawn == {1: 1, 2: 2}


def test_zeta_r38_do_over_draws_the_sets_count() -> None:
    game = cardtable.load_game("zeta", cards="do_over.draw=2", construction_limits=False)
    deck = {"name": "do", "do_over": 25}
    state = game.new_game(seed=2, decks=[deck, deck])
    seat = state.current_player
    before = state.hand_size[seat]
    state.apply(next(a for a in state.legal_actions() if str(a).startswith("do_over@")))
    # one placed, one destroyed (one card type: no choice, ZETA-I-CT4), then 2 drawn
    assert state.hand_size[seat] == before - 1 - 1 + 2


def test_zeta_draw_counts_travel_in_the_cards_flag_and_records_replay_only_with_them() -> None:
    cs = cardset.default_set("zeta").replace({"magical_boost.draw": 2, "blessing_mist.draw": 0})
    assert cs.rule_flags() == {"cards": "blessing_mist.draw=0;magical_boost.draw=2"}
    state = cs.load_game().new_game(seed=5)
    rng = random.Random(5)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    record = record_of(state)
    assert replay(record).to_json() == state.to_json()
    assert cardset.set_from_flags("zeta", record.rules).values == cs.values
    with pytest.raises(CardSetError, match=r"magical_boost\.draw \(Magical Boost, ZETA-R41\): 11 is above"):
        cs.replace({"magical_boost.draw": 11})
    with pytest.raises(CardSetError, match=r"fortune_telling\.draw \(Fortune-Telling, ZETA-R39\): 1 is below the "
                                           r"least allowed value 2"):
        cs.replace({"fortune_telling.draw": 1})  # "one of those": a choice needs two


def test_zeta_the_rulebook_tables_keep_the_rulebook_draws() -> None:
    from cardtable.games.zeta.cardset import card_numbers

    nums = card_numbers("")
    assert (nums.mist_draw, nums.do_over_draw, nums.fortune_draw, nums.circle_draw, nums.boost_draw) == (1, 1, 2, 1, 1)


def test_zeta_r39_fortune_telling_draws_the_sets_count_and_destroys_one_of_them() -> None:
    """ZETA-R39 with fortune_telling.draw = 3: three drawn, the choice is among their kinds, one is destroyed;
    positions and samples of the pending choice hold the three."""
    game = cardtable.load_game("zeta", cards="fortune_telling.draw=3;fortune_telling.cost=0", construction_limits=False)
    deck = {"name": "fortunes", "fortune_telling": 9, "chant_practice": 8, "blessing_mist": 8}
    asked = 0
    for seed in range(12):
        state = game.new_game(seed=seed, decks=[deck, deck])
        seat = state.current_player
        before = state.hand_size[seat]
        place = next((a for a in state.legal_actions() if str(a).startswith("fortune_telling@")), None)
        if place is None:
            continue  # no Fortune-Telling dealt to the first player
        state.apply(place)
        if state.pending and "drawn" in state.pending:
            asked += 1
            drawn = state.pending["drawn"]
            assert len(drawn) == 3 and state.hand_size[seat] == before - 1 + 3
            assert sorted(str(a) for a in state.legal_actions()) == sorted(
                f"destroy:{CARDS[c].id}" for c in set(drawn))
            assert game.from_json(state.to_json()).to_json() == state.to_json()
            sample = game.sample_state(state.view(1 - seat), random.Random(seed))
            assert len(sample.pending["drawn"]) == 3
            state.apply(state.legal_actions()[0])
            assert state.hand_size[seat] == before - 1 + 3 - 1
    assert asked


# -- Utahime: option costs, hero uses, cosmic cards ------------------------------------------------------

EXAMPLE = {"option_set": "designer_example"}


def test_uta_r6_a_changed_option_cost_changes_who_goes_first() -> None:
    """UTA-R6: the lower total option cost goes first. The example's P1 costs 23, P2 27: P1 first. With Seal
    at 12 (and a budget of 40) P1's loadout costs 29: P2 goes first, in every game."""
    cs = cardset.default_set("utahime").replace({"seal.cost": 12, "options.budget": 40}, name="dear-seal")
    assert cs.rule_flags() == {"cards": "seal.cost=12", "option_cost_budget": 40}
    for seed in range(4):
        rulebook = cardtable.load_game("utahime").new_game(seed=seed, **EXAMPLE)
        dear = cs.load_game().new_game(seed=seed, **EXAMPLE)
        assert rulebook.kit.costs == (23, 27) and rulebook.first == 0
        assert dear.kit.costs == (29, 27) and dear.first == 1


def test_uta_r47_hero_uses_and_uta_r52_cosmic_cards_come_from_the_set() -> None:
    cs = cardset.default_set("utahime").replace({"seer.uses": 3, "cosmic_h4.pool": 0, "cosmic_d6.pool": 0})
    game = cs.load_game()
    assert game.rules.cosmic_names() == ("H6", "S4", "C6", "C7")  # UTA-R52: the pool the set leaves
    assert game.rules.cards == "seer.uses=3"
    state = game.new_game(seed=1, **EXAMPLE)
    assert state.hero_left[0] == 3  # P1's hero is the Seer: 1 use in the example, 3 in the set (UTA-R47)
    assert all(len(pool) == 4 for pool in state.pools)
    same = cardset.set_hash("utahime", {"cosmic_pool": "H6,S4,C6,C7", "cards": "seer.uses=3"})
    assert cs.hash == same  # two spellings of one pool are one set (UTA-I-CT24)
    rng = random.Random(1)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    record = record_of(state)
    assert replay(record).to_json() == state.to_json()
    assert cardset.set_hash("utahime", record.rules) == cs.hash


def test_uta_r2_a_budget_no_shipped_loadout_fits_is_refused_naming_the_cards() -> None:
    with pytest.raises(CardSetError, match=r"options\.budget \(Option cards, UTA-R2\).*cost 27 in total; the budget "
                                           r"is 20.*strip\.cost 8"):
        cardset.default_set("utahime").replace({"options.budget": 20})
    with pytest.raises(CardSetError, match=r"scout\.cost \(Scout, UTA-R2\): -1 is below the least allowed value 0"):
        cardset.default_set("utahime").replace({"scout.cost": -1})
    with pytest.raises(CardSetError, match=r"seer\.uses \(The Seer, UTA-R47\): 4 is above"):
        cardset.default_set("utahime").replace({"seer.uses": 4})
    with pytest.raises(ValueError, match=r"the budget is 28"):  # the engine refuses the loadout too
        cardtable.load_game("utahime", cards="seal.cost=12").new_game(seed=1, **EXAMPLE)


def test_uta_a_utahime_set_changes_the_lab() -> None:
    """The lab plays the set: with the dear Seal P2 goes first in every game of the run."""
    from cardtable.lab.sweep import play_games

    flags = cardset.default_set("utahime").replace({"seal.cost": 12, "options.budget": 40}).rule_flags()
    for rules, first in (({}, 0), (flags, 1)):
        played = play_games("utahime", rules, agents=["random"], games=2, seed=4, setup=EXAMPLE, max_actions=40)
        assert {g.facts.first_player for g in played} == {first}


# -- Oscilloscope: the decks' composition -------------------------------------------------------------

FEWER_NOISE = {"noise.pulse_deck": 10, "lh.pulse_deck": 25}


def _counts(cards: list[int]) -> dict[str, int]:
    from cardtable.games.oscilloscope.cards import TOKENS

    out: dict[str, int] = {}
    for c in cards:
        out[TOKENS[c]] = out.get(TOKENS[c], 0) + 1
    return out


def test_osc_r1_a_changed_composition_is_what_the_game_deals_and_conserves() -> None:
    """OSC-R1 with noise 15 -> 10 and rising edges 20 -> 25: every zone of every position adds up to the set's
    110 cards, positions and samples keep it, records replay only with it."""
    cs = cardset.default_set("oscilloscope").replace(FEWER_NOISE, name="quiet")
    assert cs.rule_flags() == {"cards": "lh.pulse_deck=25;noise.pulse_deck=10"}
    game = cs.load_game()
    state = game.new_game(seed=2, players=2)
    assert state.expected_cards()["NOISE"] == 10 and state.expected_cards()["LH"] == 25
    rng = random.Random(2)
    steps = 0
    while not state.is_over:
        zones: dict[str, int] = {}
        for cards in state.zones().values():
            for card in cards:
                zones[card] = zones.get(card, 0) + 1
        assert zones == dict(state.expected_cards())
        if steps % 5 == 0:
            assert game.from_json(state.to_json()).to_json() == state.to_json()
            game.sample_state(state.view(state.current_player), random.Random(steps))
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
    record = record_of(state)
    assert replay(record).to_json() == state.to_json()
    record.rules["cards"] = ""
    with pytest.raises(ValueError):  # a record replays only with its own set
        replay(record)


def test_osc_r1_the_rulebook_decks_are_dealt_unchanged() -> None:
    from cardtable.games.oscilloscope.cards import PULSE_DECK, TRIGGER_DECK
    from cardtable.games.oscilloscope.cardset import composition

    decks = composition("")
    assert decks.pulse == tuple(int(c) for c in PULSE_DECK) and decks.trigger == tuple(int(c) for c in TRIGGER_DECK)
    assert _counts(list(composition("noise.pulse_deck=10;lh.pulse_deck=25").pulse))["NOISE"] == 10


@pytest.mark.parametrize(("changes", "message"), [
    ({"hl.pulse_deck": 21}, r"the pulse deck holds 71 cards \(hl\.pulse_deck 20 -> 21\), not the rulebook's 70 "
                            r"\(OSC-R1, card conservation\)"),
    ({"clear.trigger_deck": 4}, r"the trigger deck holds 39 cards \(clear\.trigger_deck 5 -> 4\)"),
    ({"noise.trigger_deck": 1}, r"noise\.trigger_deck \(noise, OSC-R1\): 1 is above the largest allowed value 0"),
    ({"noise.pulse_deck": 5, "hl.pulse_deck": 30}, r"noise\.limit \(Noise, OSC-I49\): 10 is above the 5 noise cards"),
    ({"noise.pulse_deck": 10, "loh.pulse_deck": 5, "hl.pulse_deck": 0, "lh.pulse_deck": 55, "noise.limit": 5},
     r"could not always build six trains of five \(OSC-R3, OSC-I9\)"),
])
def test_osc_compositions_that_break_the_box_are_refused(changes: dict[str, int], message: str) -> None:
    with pytest.raises(CardSetError, match=message):
        cardset.default_set("oscilloscope").replace(changes)


def test_osc_a_composition_changes_the_lab() -> None:
    """The lab plays the set's decks: the same seeds deal other games."""
    from cardtable.lab.sweep import play_games

    flags = cardset.default_set("oscilloscope").replace(FEWER_NOISE).rule_flags()
    base = play_games("oscilloscope", {}, agents=["random"], games=4, seed=1, max_actions=60)
    quiet = play_games("oscilloscope", flags, agents=["random"], games=4, seed=1, max_actions=60)
    assert [g.facts for g in base] != [g.facts for g in quiet]


@pytest.mark.parametrize("game", ["zeta", "oscilloscope", "utahime"])
def test_no_exported_number_but_utahimes_attack_energy_is_fixed(game: str) -> None:
    fixed = {n.key for n in cardset.spec_of(game).numbers if n.fixed}
    assert fixed <= {"attack.low_gain", "attack.low_drain", "attack.mid_gain"}
