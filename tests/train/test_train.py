"""Self-play training: numpy plays exactly what PyTorch trained, a tiny run beats random play, runs resume."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
import torch

import cardtable
from cardtable.agents import decide, make_agent
from cardtable.agents.learned import encoding_hash, read_network
from cardtable.train.config import TrainConfig
from cardtable.train.model import PolicyValueNet, losses, to_network
from cardtable.train.run import RunError, train
from cardtable.train.selfplay import play_game

TINY = {"generations": 1, "games": 3, "expert": "ismcts", "expert_iterations": 12, "expert_depth": 4,
        "hidden": (32,), "epochs": 2, "eval_games": 0}


@pytest.mark.parametrize("name", ["zeta", "utahime", "oscilloscope"])
def test_numpy_inference_equals_torch(name: str) -> None:
    """The shipped numpy network gives PyTorch's logits and values on the same observations (1e-5)."""
    game = cardtable.load_game(name)
    torch.manual_seed(0)
    model = PolicyValueNet(game.observation_shape[0], game.num_distinct_actions, (48, 24))
    net = to_network(model, {"game": name, "encoding_hash": encoding_hash(game)})
    rng = random.Random(1)
    views = []
    state = game.new_game(seed=3)
    while not state.is_over and len(views) < 12:
        views.append(game.encode_view(state.view(state.current_player)))
        actions = state.legal_actions()
        state.apply_legal(actions[rng.randrange(len(actions))])
    x = np.stack(views + [np.random.default_rng(2).random(game.observation_shape[0], dtype=np.float32)])
    with torch.no_grad():
        logits, value = model(torch.from_numpy(x))
    np_logits, np_value = net.forward(x)
    np.testing.assert_allclose(np_logits, logits.numpy(), atol=1e-5, rtol=0)
    np.testing.assert_allclose(np_value, value.numpy(), atol=1e-5, rtol=0)


def test_the_policy_loss_is_a_softmax_over_the_legal_actions_only() -> None:
    torch.manual_seed(0)
    model = PolicyValueNet(4, 6, (5,))
    obs = torch.rand(2, 4)
    legal = torch.tensor([[1, 3, -1], [0, 2, 5]])
    target = torch.tensor([[1.0, 0.0, 0.0], [0.2, 0.3, 0.5]])
    p_loss, v_loss = losses(model, obs, legal, target, torch.tensor([1.0, -1.0]))
    logits, v = model(obs)
    first = -torch.log_softmax(logits[0, [1, 3]], 0)[0]
    second = -(target[1] * torch.log_softmax(logits[1, [0, 2, 5]], 0)).sum()
    assert p_loss.item() == pytest.approx(((first + second) / 2).item(), abs=1e-6)
    assert v_loss.item() == pytest.approx(((v - torch.tensor([1.0, -1.0])) ** 2).mean().item(), abs=1e-6)


def test_self_play_records_searched_decisions_with_their_results() -> None:
    cfg = TrainConfig(game="zeta", **TINY)
    result = play_game(cfg, 5, None)
    s = result.samples
    assert len(s) > 0 and s.obs.shape[1] == cardtable.load_game("zeta").observation_shape[0]
    assert np.allclose(s.target.sum(axis=1), 1.0)
    assert ((s.legal >= 0) | (s.target == 0)).all()  # padding never carries a target
    assert set(np.unique(s.value)) <= {-1.0, 0.0, 1.0}
    assert play_game(cfg, 5, None).samples.obs.tobytes() == s.obs.tobytes()  # fixed by the seed


def _score_vs_random(spec: str, games: int) -> float:
    game = cardtable.load_game("zeta")
    mine, theirs = make_agent(spec, game), make_agent("random", game)
    total = 0.0
    for i in range(games):
        seat = i % 2
        state = game.new_game(seed=1000 + i // 2)
        rng = random.Random(i)
        while not state.is_over:
            state.apply_legal(decide(mine if state.current_player == seat else theirs, state, rng))
        winners = state.outcome().winners
        total += 1.0 if seat in winners else 0.5 if not winners else 0.0
    return total / games


def test_a_tiny_training_run_beats_random_play(tmp_path: Path) -> None:
    """A run of seconds learns something: the trained policy beats the random agent on fixed seeds by a margin a
    policy no better than random reaches with probability below 0.1% (30 of 40 games, seats swapped)."""
    cfg = TrainConfig(game="zeta", seed=3, **{**TINY, "games": 6, "epochs": 20})
    result = train(cfg, tmp_path / "run")
    assert _score_vs_random(f"learned:weights={result.weights}", 40) >= 0.75


def test_a_resumed_run_gives_the_same_network(tmp_path: Path) -> None:
    """Stopping after a generation and resuming gives the network of a run never stopped (a fixed seed
    reproduces a run); the checkpoints, report and weights' description are written."""
    two = TrainConfig(game="zeta", seed=4, **{**TINY, "generations": 2, "games": 2, "expert": "auto",
                                                         "search_iterations": 8, "eval_games": 2})
    straight = train(two, tmp_path / "straight")
    one = TrainConfig.from_json({**two.to_json(), "generations": 1})
    train(one, tmp_path / "resumed")
    with pytest.raises(RunError, match="--resume"):
        train(two, tmp_path / "resumed")
    resumed = train(two, tmp_path / "resumed", resume=True)
    a, b = read_network(straight.weights), read_network(resumed.weights)
    for key, value in a.arrays().items():
        np.testing.assert_array_equal(value, b.arrays()[key])
    run = tmp_path / "resumed"
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == ["gen-0001.pt", "gen-0002.pt"]
    assert (run / "report.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| 2 |" in (run / "report.md").read_text()
    meta = json.loads((run / "model.json").read_text())
    assert meta["training"]["seed"] == 4 and meta["generation"] == 2 and meta["data_version"] == 1
    assert len(meta["samples_sha256"]) == 64
    with pytest.raises(RunError, match="other settings"):
        train(TrainConfig.from_json({**two.to_json(), "lr": 0.5}), run, resume=True)


def test_the_train_command_refuses_bad_input_clearly(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardtable.cli.main import app

    runner = CliRunner()
    for args, words in ((["train", "nosuchgame"], "nosuchgame"), (["train", "zeta", "--hidden", "wide"], "--hidden"),
                        (["train", "zeta", "--expert", "oracle"], "expert"),
                        (["train", "zeta", "--generations", "0"], "generations")):
        result = runner.invoke(app, [*args, "--out", str(tmp_path / "x")])
        assert result.exit_code == 2, result.output
        assert words in result.output and "Traceback" not in result.output


def test_warm_up_games_teach_the_heuristics_choice() -> None:
    """In a warm-up game the policy target is the heuristic's favourite (ties shared), never a searched guess."""
    from cardtable.agents import heuristic_for

    cfg = TrainConfig(game="zeta", **{**TINY, "warmup_games": 1})
    samples = play_game(cfg, 8, None, warmup=True).samples
    assert len(samples) > 3
    assert all(np.allclose(row[row > 0], 1.0 / np.count_nonzero(row)) for row in samples.target)
    game = cardtable.load_game("zeta")
    state = game.new_game(seed=8)
    legal = state.legal_actions()
    scores = heuristic_for("zeta")(state.view(state.current_player), [str(a) for a in legal])
    first = samples.target[0][: len(legal)]
    assert [i for i, p in enumerate(first) if p > 0] == [i for i, s in enumerate(scores) if s == max(scores)]
