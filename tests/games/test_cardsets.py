"""Card sets: a game's numbers as a file (ZETA-I-CT7). The default set is the rulebook's; a changed number
changes play, records and the lab with no edit of Python; bad sets are refused naming the card and the rule."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.cli.main import app
from cardtable.core import IllegalAction, cardset, record_of, replay
from cardtable.core.cardset import CardSetError
from cardtable.core.records import RecordError
from cardtable.games.zeta import state as zeta_state
from cardtable.games.zeta.cards import CARDS, COSTS, ICE
from cardtable.games.zeta.cardset import card_numbers
from cardtable.games.zeta.vocab import ZERO_COST

GAMES = ("zeta", "oscilloscope", "utahime")
runner = CliRunner()


def _set_text(game: str, old: str, new: str, section: str) -> str:
    """The exported default set of ``game`` with one line of ``section`` replaced."""
    text = cardset.default_set(game).to_toml()
    head, sep, tail = text.partition(f"[{section}]\n")
    assert sep, section
    assert old in tail, (section, old)
    return head + sep + tail.replace(old, new, 1)


@pytest.mark.parametrize("game", GAMES)
def test_the_export_reads_back_as_the_rulebook_set(game: str) -> None:
    default = cardset.default_set(game)
    again = cardset.from_toml(default.to_toml(), f"{game}.toml")
    assert again.values == default.values and again.rule_flags() == {} and again.hash == default.hash
    spec = cardset.spec_of(game)
    assert all(item.ja and item.en for item in spec.items)
    assert all(n.rule for n in spec.numbers)
    assert cardset.from_toml(default.to_toml("ja"), "ja.toml").values == default.values


def test_the_default_zeta_tables_are_the_module_constants() -> None:
    """ZETA-R14, R53, R57: the engine's tables of the rulebook set equal the compiled constants."""
    nums = card_numbers("")
    assert nums.costs == COSTS and nums.zero_cost == ZERO_COST
    top = zeta_state.MAX_COST
    assert nums.afford[:top + 1] == zeta_state.AFFORD and nums.max_cost == top
    assert set(nums.afford[top:]) == {zeta_state.AFFORD[top]} and len(nums.afford) == 37  # every cap of a 6x6 board
    assert nums.limits == tuple(c.limit for c in CARDS)
    assert (nums.broom_cap, nums.apprentice_hand, nums.mourning_needs, nums.hand_first) == (10, 4, 5, 3)


def _state_with_ice_in_hand(game: cardtable.Game) -> cardtable.State:
    for seed in range(200):
        state = game.new_game(seed=seed)
        if state.hands[state.current_player][ICE]:
            return state
    raise AssertionError("no seed dealt an Ice Mage")


def test_zeta_r14_a_cheaper_ice_mage_is_placed_on_an_empty_board() -> None:
    """ZETA-R14 with ice_mage.cost = 0: placeable at once; the rulebook's 3 refuses it, naming the cost."""
    rulebook = _state_with_ice_in_hand(cardtable.load_game("zeta"))
    cheap_set = cardset.default_set("zeta").replace({"ice_mage.cost": 0}, name="cheap-ice")
    cheap = cheap_set.load_game().new_game(seed=rulebook.seed)
    with pytest.raises(IllegalAction, match="ice_mage costs 3") as refusal:
        rulebook.apply("ice_mage@c3")
    assert refusal.value.rule == "ZETA-R14"
    assert "ice_mage@c3" in [str(a) for a in cheap.legal_actions()]
    cheap.apply("ice_mage@c3")
    record = record_of(cheap)
    assert record.rules["cards"] == "ice_mage.cost=0"
    assert replay(record).to_json() == cheap.to_json()
    record.rules["cards"] = ""  # a record replays only with its own set
    with pytest.raises((RecordError, IllegalAction, ValueError)):
        replay(record)


def test_zeta_card_set_changes_the_lab_on_paired_seeds() -> None:
    """The lab plays a set: Ice Mage at cost 17 is almost never placed, at 0 often (same seeds)."""
    from cardtable.lab.sweep import item_strength, play_games

    base = cardset.default_set("zeta")
    played = {}
    for cost in (0, 17):
        flags = base.replace({"ice_mage.cost": cost}).rule_flags()
        played[cost] = item_strength(play_games("zeta", flags, agents=["heuristic"], games=16, seed=3), "ice_mage")
    assert played[0]["played"] > played[17]["played"]


def test_zeta_effect_numbers_and_the_deal_come_from_the_set() -> None:
    """ZETA-R9: the second player's starting hand is a number of the set (hand.second)."""
    game = cardtable.load_game("zeta", cards="hand.second=5")
    state = game.new_game(seed=1)
    second = 1 - state.first
    assert state.hand_size[second] == 5 and state.hand_size[state.first] == 3 + 1  # the first player drew on turn 1


def test_copy_limits_of_a_set_apply_to_decks() -> None:
    """ZETA-R6 with the set's limits: a lower limit refuses a preset, a higher one allows more copies."""
    with pytest.raises(ValueError, match="the limit is 1"):
        cardtable.load_game("zeta", cards="do_over.limit=1").new_game(seed=1, decks=["classic", "classic"])
    deck = {"name": "fires", "fire_mage": 5, "chant_practice": 8, "do_over": 3, "blessing_mist": 2,
            "magic_circle": 3, "fortune_telling": 2, "ice_mage": 2}
    game = cardtable.load_game("zeta", cards="fire_mage.limit=5")
    assert game.new_game(seed=1, decks=[deck, deck]).legal_actions()
    with pytest.raises(ValueError, match="limit is 2"):
        cardtable.load_game("zeta").new_game(seed=1, decks=[deck, deck])


@pytest.mark.parametrize(("game", "section", "old", "new", "message"), [
    ("zeta", "cards.ice_mage", "cost = 3", "cost = -1", r"ice_mage\.cost \(Ice Mage, ZETA-R14\): -1 is below"),
    ("zeta", "cards.fortune_telling", "draw = 2", "draw = 11", r"fortune_telling\.draw \(Fortune-Telling, ZETA-R39\): 11 "
                                                              r"is above"),
    ("zeta", "cards.hexer", "cost = 6", "power = 6", r"hexer \(Hexer\): no number 'power'"),
    ("oscilloscope", "cards.hl", "pulse_deck = 20", "pulse_deck = 21", r"hl\.pulse_deck .*OSC-R1"),
    ("utahime", "components.energy", "cap = 0", "cap = 1", None),
])
def test_bad_sets_name_the_card_and_the_rule(game: str, section: str, old: str, new: str, message: str | None) -> None:
    text = _set_text(game, old, new, section)
    if message is None:  # a valid change
        assert cardset.from_toml(text, "ok.toml").changed()
        return
    with pytest.raises(CardSetError, match=message):
        cardset.from_toml(text, "bad.toml")


def test_zeta_r6_copy_limits_that_leave_no_deck_are_refused() -> None:
    cs = cardset.default_set("zeta")
    with pytest.raises(CardSetError, match=r"allow 24 cards in all, fewer than a deck's 25 \(ZETA-R6\)"):
        cs.replace({f"{c.id}.limit": 1 for c in CARDS[1:]} | {"chant_practice.limit": 0})


def test_utahime_second_player_extra_energy_is_a_seat_compensation() -> None:
    """UTA-I48: the player who moves second starts with the bonus; the first with the starting energy."""
    cs = cardset.default_set("utahime").replace({"energy.second_player_bonus": 2})
    assert cs.rule_flags() == {"second_player_extra_energy": 2}
    state = cs.load_game().new_game(seed=4)
    assert state.energy[1 - state.first] == 2 and state.energy[state.first] == 0
    assert cardset.set_from_flags("utahime", record_of(state).rules).values == cs.values


def test_cards_command_exports_checks_and_refuses(tmp_path: Path) -> None:
    out = runner.invoke(app, ["cards", "export", "zeta", "--lang", "ja"])
    assert out.exit_code == 0 and "氷術師" in out.output
    good = tmp_path / "ice.toml"
    good.write_text(_set_text("zeta", "cost = 3", "cost = 6", "cards.ice_mage"), encoding="utf-8")
    checked = runner.invoke(app, ["cards", "check", str(good)])
    assert checked.exit_code == 0 and "ice_mage.cost (Ice Mage, ZETA-R14): 3 -> 6" in checked.output
    bad = tmp_path / "bad.toml"
    bad.write_text(_set_text("zeta", "cost = 3", "cost = 99", "cards.ice_mage"), encoding="utf-8")
    refused = runner.invoke(app, ["cards", "check", str(bad)])
    assert refused.exit_code == 2 and "ZETA-R14" in refused.output and "Traceback" not in refused.output
    flags = runner.invoke(app, ["cards", "flags", str(good), "--json"])
    assert flags.exit_code == 0 and '"cards": "ice_mage.cost=6"' in flags.output


def test_the_set_hash_is_what_the_rules_change() -> None:
    base = cardset.default_set("zeta")
    moved = base.replace({"ice_mage.cost": 6}, name="other name")
    assert moved.hash != base.hash
    assert moved.hash == cardset.set_hash("zeta", {"cards": "ice_mage.cost=6"})
    assert moved.stamp == f"other name #{moved.hash}"
    state = moved.load_game().new_game(seed=2)
    rng = random.Random(2)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert cardset.set_hash("zeta", record_of(state).rules) == moved.hash


def test_a_card_set_keeps_the_contract_views_samples_clones_and_positions() -> None:
    """Under changed costs (a cost-0 Ice Mage, a cost-2 Do-Over) a seat's samples allow what it may do (ZETA-R57),
    clones and positions carry the set, and every card stays in one zone."""
    game = cardtable.load_game("zeta", cards="ice_mage.cost=0;do_over.cost=2;magic_broom.cap=4;mourning_the_dead.cost=1"
                               ";mourning_the_dead.destroyed=1")
    for seed in range(6):
        state = game.new_game(seed=seed, decks=["random", "random"])
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.current_player
            sample = game.sample_state(state.view(seat), random.Random(rng.random()))
            assert [str(a) for a in sample.legal_actions()] == [str(a) for a in state.legal_actions()]
            twin = state.clone()
            assert twin.costs == state.costs and twin.to_json() == state.to_json()
            state.apply(rng.choice(state.legal_actions()))
        assert game.from_json(state.to_json()).to_json() == state.to_json()
        total: dict[str, int] = {}
        for zone in state.zones().values():
            for card in zone:
                total[card] = total.get(card, 0) + 1
        assert total == dict(state.expected_cards())
