"""ISMCTS on Tally: it finds the obvious win, beats random, explains itself, handles more players."""

from __future__ import annotations

import random

from toy_game import TallyGame, TallyState

import cardtable
from cardtable.agents import ISMCTSAgent, SearchConfig, decide, make_agent
from cardtable.lab.arena import ArenaConfig, run_arena


def _position(hands: list[list[int]], pile: list[int], deck: list[int], to_move: int = 0) -> TallyState:
    game = cardtable.load_game("tally")
    assert isinstance(game, TallyGame)
    return TallyState(game, 1, {"players": len(hands)}, random.Random(1), hands, deck, pile, to_move)


def test_finds_the_obvious_win_and_explains_it() -> None:
    """Tally 11 of 15, holding a 4: play it and win; explain() ranks it first with a win rate of 1.

    Once the win is found it is a decisive move: every later iteration plays it, so it holds all
    the visits but those spent on the moves tried before it.
    """
    state = _position([[1, 4, 6], [2, 3, 5]], [6, 5], [1, 2, 3, 4, 6, 6, 1, 2, 3, 4, 5, 5])
    agent = make_agent("ismcts:iterations=200", state.game)
    assert str(decide(agent, state, random.Random(0))) == "play 4"
    hints = agent.explain(top=3)
    assert [h.action for h in hints][0] == "play 4"
    assert hints[0].win_rate == 1.0 and hints[0].visits >= 200 - (len(hints) - 1)
    assert all(h.visits == 1 for h in hints[1:])  # each tried once, before the win was found
    assert 1 <= len(hints) <= 3 and all(0.0 <= (h.win_rate or 0.0) <= 1.0 for h in hints)
    assert sum(h.visits for h in agent.explain(top=10)) == 200
    assert hints[0].to_json() == {"action": "play 4", "visits": hints[0].visits, "win_rate": 1.0, "score": 1.0}


def test_avoids_handing_the_opponent_a_win() -> None:
    """At 3 of 15 holding 6, 1 and 2: playing 6 leaves 6 for the opponent (many 6s unseen), so avoid it."""
    state = _position([[6, 1, 2], [5, 5, 5]], [3], [1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 6, 6, 6])
    agent = make_agent("ismcts:iterations=400", state.game)
    assert str(decide(agent, state, random.Random(3))) != "play 6"


def test_beats_random_seat_swapped() -> None:
    """Over 40 seat-swapped Tally games, ISMCTS scores well above half against random."""
    result = run_arena(ArenaConfig("tally", "ismcts:iterations=150", "random", games=40, seed=11))
    assert result.score_a().value >= 0.65
    assert result.score_a().low > 0.5


def test_time_budget_and_search_stats() -> None:
    """A seconds budget stops the search in time; stats report the iterations it managed."""
    state = _position([[1, 2, 3], [4, 5, 6]], [], [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6])
    game = state.game
    agent = ISMCTSAgent(game, SearchConfig(iterations=None, seconds=0.05))
    decide(agent, state, random.Random(0))
    stats = agent.last_stats
    assert stats.iterations > 10 and 0.04 < stats.seconds < 2.0 and stats.iterations_per_second > 0


def test_single_legal_action_needs_no_search() -> None:
    """With one legal action the agent plays it at once and keeps no explanation."""
    state = _position([[2, 2, 2], [4, 5, 6]], [1], [1, 1, 3, 3, 3, 4, 4, 5, 5, 6, 6])
    agent = make_agent("ismcts:hard", state.game)
    assert str(decide(agent, state, random.Random(0))) == "play 2"
    assert agent.explain() == [] and agent.last_stats.iterations == 0  # type: ignore[attr-defined]


def test_three_players_each_seat_maximises_its_own_return() -> None:
    """In three-player Tally, the tree backs up each seat's own return: the next seat takes its exact win."""
    # seat 1 to move at 9 of 15 holding a 6: it must win, even though that makes seats 0 and 2 lose
    state = _position([[1, 1, 1], [6, 2, 3], [4, 4, 4]], [5, 4], [2, 2, 3, 3, 5, 5, 6, 6], to_move=1)
    agent = make_agent("ismcts:iterations=300", state.game)
    assert str(decide(agent, state, random.Random(1))) == "play 6"
    # and it runs whole three-player games against random without trouble
    result = run_arena(ArenaConfig("tally", "ismcts:iterations=60", "random", games=6, seed=2, setup={"players": 3}))
    assert result.players == 3 and result.games == 6


def test_truncated_rollouts_are_scored_by_the_evaluator() -> None:
    """With depth=0 every leaf that is not over is scored by the evaluator, here one that favours seat 0."""
    state = _position([[1, 2, 3], [4, 5, 6]], [], [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6])
    agent = ISMCTSAgent(state.game, SearchConfig(iterations=60, max_rollout_actions=0),
                        evaluator=lambda view: [1.0, -1.0])
    decide(agent, state, random.Random(0))
    assert all(c.win_rate == 1.0 for c in agent.explain(top=3))


def test_heuristic_guidance_and_its_options() -> None:
    """Guided search: heuristic expansion with widening and progressive bias; bad values are refused."""
    state = _position([[6, 1, 2], [5, 5, 5]], [4, 5], [1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 6, 6, 6])
    agent = make_agent("ismcts:iterations=200,expand=heuristic,rollout=heuristic,bias=3,widen=0.4", state.game)
    assert isinstance(agent, ISMCTSAgent) and agent.config.bias == 3.0 and agent.config.widening == 0.4
    assert str(decide(agent, state, random.Random(0))) == "play 6"  # 9 + 6 = 15
    for bad in ("bias=-1", "widen=2", "expand=smart"):
        try:
            make_agent(f"ismcts:{bad}", state.game)
        except ValueError as exc:
            assert "Valid specs" in str(exc)
        else:  # pragma: no cover
            raise AssertionError(bad)


def test_heuristic_agent_explains_its_scores() -> None:
    """The heuristic agent's explain() lists its scores, best first, without visits."""
    state = _position([[6, 1, 2], [5, 5, 5]], [4, 5], [1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 6, 6, 6])
    agent = make_agent("heuristic", state.game)
    assert str(decide(agent, state, random.Random(0))) == "play 6"
    hints = agent.explain()
    assert hints[0].action == "play 6" and hints[0].visits == 0 and hints[0].win_rate is None
    assert [h.score for h in hints] == sorted((h.score for h in hints), reverse=True)


def test_hints_for_the_seat_to_move() -> None:
    """hints() asks an agent about the seat to move and returns its top candidates (random: its one pick)."""
    from cardtable.agents import hints

    state = _position([[1, 4, 6], [2, 3, 5]], [6, 5], [1, 2, 3, 4, 6, 6, 1, 2, 3, 4, 5, 5])
    top = hints(make_agent("ismcts:iterations=100", state.game), state, random.Random(0), top=2)
    assert [c.action for c in top][0] == "play 4"  # the win (then alone, or with a move tried before it)
    quiet = _position([[6, 1, 2], [5, 5, 5]], [3], [1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 6, 6, 6])  # no win at once
    assert len(hints(make_agent("ismcts:iterations=100", quiet.game), quiet, random.Random(0), top=2)) == 2
    assert len(hints(make_agent("random", state.game), state, random.Random(0))) == 1


# A real Zeta game (seed 182187612676827, classic decks): P1 holds b3, c3 and e3, so any card P1
# places on the empty d3 makes four in a row (ZETA-R20). Each card is a move of its own, and P2
# cannot see which of them P1 holds.
_ZETA_THREAT = ["chant_practice@b2", "chant_practice@c3", "magic_circle@c2", "blessing_mist@d2",
                "magical_boost@b4", "fortune_telling@b3", "destroy:magic_circle", "blessing_mist@d3",
                "ice_mage@e3", "target:d3"]


def test_a_win_any_card_can_make_is_a_win_for_the_search_zeta_r20() -> None:
    """P2 must block d3: every move that leaves it open is a certain loss in the search's estimate.

    The opponent's win is split over every card that can make it; a decisive move (one that has
    won at once every time it was played) is played whenever it is legal, so exploration does not
    dilute it and the estimate of leaving d3 open is a loss, not a coin flip.
    """
    game = cardtable.load_game("zeta")
    state = game.new_game(seed=182187612676827, decks=["classic", "classic"])
    for action in _ZETA_THREAT:
        state.apply(action)
    assert state.current_player == 1
    agent = make_agent("ismcts:normal", game)
    assert isinstance(agent, ISMCTSAgent)
    for seed in range(3):
        root = agent.search(state.view(1), state.legal_actions(), random.Random(seed))
        open_moves = [c for a, c in root.children.items() if not str(a).endswith("@d3") and c.visits]
        blocks = [c for a, c in root.children.items() if str(a).endswith("@d3")]
        assert open_moves and blocks
        assert all(c.total == 0.0 for c in open_moves)  # P1 wins at once after each of them
        assert max(blocks, key=lambda c: c.visits).visits > max(c.visits for c in open_moves)
