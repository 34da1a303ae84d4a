"""Engine-level guarantees: a plain placement agrees with the general resolution, records replay, decks load."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import cardtable
from cardtable.core import game_class, play_random
from cardtable.games.zeta import DeckError, Place, ZetaState, load_deck_file, preset
from cardtable.games.zeta.cards import WIND
from cardtable.games.zeta.decks import PRESET_NAMES
from cardtable.games.zeta.vocab import MAIN


@pytest.mark.parametrize("case", range(len(game_class("zeta").conformance_cases())))
def test_plain_placement_matches_the_general_resolution(case: int) -> None:
    """``_place_plainly`` (a main-phase placement that covers nothing) ends where R18's general resolution does."""
    flags, setup = game_class("zeta").conformance_cases()[case]
    game = cardtable.load_game("zeta", **flags)
    for seed in range(15):
        state = game.new_game(seed=seed, record_events=True, **setup)
        rng = random.Random(seed)
        assert isinstance(state, ZetaState)
        while not state.is_over:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            if isinstance(action, Place) and state.phase == MAIN and action.card != WIND:
                general = state.clone()
                general._take_from_hand(general.active, action.card)
                general._place(general.active, action.card, action.square, True)
                general._advance()
                general.history.append(str(action))
                state.apply_legal(action)
                assert json.dumps(general.to_json(), sort_keys=True) == json.dumps(state.to_json(), sort_keys=True)
                assert general.events == state.events
            else:
                state.apply_legal(action)


def test_every_game_ends_within_the_bound_and_replays() -> None:
    game = cardtable.load_game("zeta")
    for seed in range(40):
        state = game.new_game(seed=seed, decks=["random", "random"])
        play_random(state, random.Random(seed))
        assert len(state.history) <= game.termination_bound
        record = cardtable.record_of(state)
        assert cardtable.replay(cardtable.Record.from_json(json.loads(json.dumps(record.to_json())))).history == state.history


def test_record_that_does_not_replay_is_reported(tmp_path: Path) -> None:
    state = cardtable.load_game("zeta").new_game(seed=3)
    play_random(state, random.Random(3))
    record = cardtable.record_of(state)
    record.actions[0] = "pass" if record.actions[0] != "pass" else "chant_practice@a1"
    with pytest.raises(cardtable.RecordError):
        cardtable.replay(record)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_presets_are_legal_decks(name: str) -> None:
    flags = {"construction_limits": False} if name == "plain" else {}
    state = cardtable.load_game("zeta", **flags).new_game(seed=1, decks=[name, name])
    assert sum(state.expected_cards().values()) == 50


def test_deck_file_errors_say_what_to_change(tmp_path: Path) -> None:
    f = tmp_path / "mine.toml"
    f.write_text('name = "Mine"\nfire_mage = 3\nchant_practice = 8\n', encoding="utf-8")
    deck = load_deck_file(f)
    game = cardtable.load_game("zeta")
    with pytest.raises(DeckError, match=r"add 14 card.*fire_mage: 3 copies, the limit is 2: remove 1"):
        game.new_game(seed=1, decks=[deck, "classic"])
    f.write_text('name = "Typo"\nfire_mag = 2\n', encoding="utf-8")
    with pytest.raises(DeckError, match="did you mean 'fire_mage'"):
        load_deck_file(f)
    f.write_text('name = "Broken\n', encoding="utf-8")
    with pytest.raises(DeckError, match="not valid TOML"):
        load_deck_file(f)


def test_names_are_skins(tmp_path: Path) -> None:
    f = tmp_path / "knights.toml"
    text = preset("classic").to_toml() + '\n[names]\nchant_practice = "Sword Drill"\n'
    f.write_text(text, encoding="utf-8")
    deck = load_deck_file(f)
    state = cardtable.load_game("zeta").new_game(seed=1, decks=[deck, "classic"])
    assert state.view(0)["setup"]["decks"][0]["names"] == {"chant_practice": "Sword Drill"}
    assert state.view(0)["decklists"][0] == state.view(1)["decklists"][0]  # ids, not names, are the rules


def test_setup_errors() -> None:
    game = cardtable.load_game("zeta")
    with pytest.raises(ValueError, match="Zeta takes: decks"):
        game.new_game(seed=1, players=3)
    with pytest.raises(ValueError, match="presets: classic"):
        game.new_game(seed=1, decks=["nope", "classic"])


def test_the_card_index_constants_name_their_cards() -> None:
    from cardtable.games.zeta import cards

    names = ["CHANT", "MIST", "DO_OVER", "FORTUNE", "MAGIC_CIRCLE", "BOOST", "FIRE", "ICE", "APPRENTICE", "WIND", "GREAT_CIRCLE", "HEXER", "POTION", "BROOM", "LIGHT", "ASTROLOGY", "THUNDER", "EARTH", "BARRIER", "BLAZE", "BURST", "MOURNING", "DARK", "ARROW", "ULTIMATE"]
    assert [getattr(cards, n) for n in names] == list(range(len(cards.CARDS))) == list(range(cards.NUM_TYPES))
    assert [cards.CARDS[getattr(cards, n)].short for n in ("WIND", "BURST", "ULTIMATE")] == ["Wind", "Burst", "UltZero"]
