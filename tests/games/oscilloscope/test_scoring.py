"""Scores and the winner: OSC-R47 to OSC-R51."""

from __future__ import annotations

import random

import pytest

from cardtable.core import load_game

from .helpers import A0, B0, load

C0 = "HL LH LOH HL LH"


def scored(piles: list[list[str]], kept: list[int] | None = None, rules: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    return load(len(piles), rules=rules, trains=[A0, B0, C0][:max(2, len(piles))], score_piles=piles,
                kept=kept, hands=[["T_LH"]] + [[] for _ in piles[1:]])


def test_osc_r47_waveform_cards_include_kept_triggers() -> None:
    st = scored([["HL", "LH", "LOH", "T_HL", "NOISE", "CLEAR"], []], kept=[1, 0])
    assert st.waveform_count(0) == 4
    assert scored([["HL", "LH", "LOH", "T_HL"], []], kept=[1, 0],
                  rules={"trigger_score_counts": False}).waveform_count(0) == 3


@pytest.mark.parametrize("noise,clear,penalty", [(0, 0, 0), (1, 0, 2), (2, 0, 3), (3, 1, 3), (3, 0, 5), (1, 3, 0)])
def test_osc_r48_penalty_is_one_and_a_half_per_net_noise_rounded_up(noise: int, clear: int, penalty: int) -> None:
    st = scored([["NOISE"] * noise + ["CLEAR"] * clear, []])
    assert st.penalty(0) == penalty


def test_osc_r48_variants() -> None:
    pile = [["NOISE"] * 3 + ["CLEAR"], [], []]
    assert scored(pile, rules={"noise_penalty": "trains_x1_5_per_noise"}).penalty(0) == 10  # 2 x ceil(4.5)
    assert scored(pile, rules={"noise_penalty": "two_per_noise"}).penalty(0) == 4
    assert scored([["CLEAR"] * 3, []], rules={"clamp_net_noise": False}).penalty(0) == -4  # ceil(-4.5)


def test_osc_r49_score_is_waveform_minus_penalty_and_may_be_negative() -> None:
    st = scored([["HL", "NOISE", "NOISE", "NOISE"], ["HL", "LH"]])
    assert st.scores_now() == [1 - 5, 2]


def test_osc_r50_the_game_ends_only_by_r34_r46_or_r64() -> None:
    game = load_game("oscilloscope")
    for seed in range(10):
        st = game.new_game(seed=seed, players=2 + seed % 3)
        rng = random.Random(seed)
        while not st.is_over:
            st.apply(st.legal_actions()[rng.randrange(len(st.legal_actions()))])
        assert st.outcome().rule in ("OSC-R34", "OSC-R46", "OSC-R64")  # type: ignore[union-attr]


def test_osc_r51_highest_score_wins_ties_share() -> None:
    st = load(trains=[A0, B0], triggers=[("T_HL", "B4", 1)], phase="post",
              score_piles=[["HL"] * 3 + ["NOISE"] * 5, ["LH"] * 2 + ["NOISE"] * 4], hands=[["HL"] * 3, ["HL"] * 3])
    st.apply("pass")  # P2 captures LOH + NOISE + T_HL: 10 noise in all
    out = st.outcome()
    assert out is not None and out.rule == "OSC-R34"
    assert out.scores == (3 - 8, 4 - 8) and out.winners == (1,)
    assert st.returns() == [-1.0, 1.0]


def test_osc_r51_tiebreak_variant_and_shared_wins() -> None:
    piles = [["HL"] * 7 + ["NOISE"], ["HL"] * 5, []]  # 7 - 2 = 5 and 5: a tie
    tie = scored(piles)
    tie.result = tie._make_outcome()
    assert tie.result.winners == (0, 1) and tie.returns() == [1.0, 1.0, -1.0]
    broken = scored(piles, rules={"tiebreak": "fewer_net_noise"})
    broken.result = broken._make_outcome()
    assert broken.result.winners == (1,) and broken.returns() == [0.0, 1.0, -1.0]
