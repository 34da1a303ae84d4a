"""The learned agents: numpy inference without PyTorch, weights checked against the encoding, views only."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import cardtable
from cardtable.agents import AgentSpecError, decide, make_agent
from cardtable.agents.learned import (
    GuidedSearchAgent,
    LearnedAgent,
    WeightsError,
    encoding_hash,
    has_weights,
    load_network,
    random_network,
    read_network,
    save_network,
)
from cardtable.core import State

GAMES = ["zeta", "utahime", "oscilloscope"]


@pytest.fixture(scope="module")
def weights(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """An untrained network per game, saved as the trainer saves one."""
    out = {}
    for name in GAMES:
        stem = tmp_path_factory.mktemp("weights") / name
        save_network(random_network(cardtable.load_game(name), hidden=(16,), seed=3), stem)
        out[name] = stem
    return out


def _midgame(name: str, seed: int, steps: int) -> State:
    state = cardtable.load_game(name).new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def test_inference_runs_without_torch(weights: dict[str, Path]) -> None:
    """Playing the network needs numpy only: with PyTorch blocked, the agent still decides (and never imports it)."""
    code = (
        "import sys, random\n"
        "sys.modules['torch'] = None\n"
        "import cardtable\n"
        "from cardtable.agents import make_agent, decide\n"
        "game = cardtable.load_game('zeta')\n"
        "state = game.new_game(seed=4)\n"
        f"for spec in ['learned:weights={weights['zeta']}', 'ismcts:learned,iterations=10,weights={weights['zeta']}']:\n"
        "    print(decide(make_agent(spec, game), state, random.Random(1)))\n"
        "assert sys.modules['torch'] is None\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.split()) == 2


def test_saved_weights_read_back_the_same(weights: dict[str, Path]) -> None:
    net = read_network(weights["utahime"])
    game = cardtable.load_game("utahime")
    again = random_network(game, hidden=(16,), seed=3)
    x = game.encode_view(game.new_game(seed=1).view(0))
    for a, b in zip(net.forward(x), again.forward(x), strict=True):
        np.testing.assert_array_equal(a, b)
    meta = json.loads(weights["utahime"].with_suffix(".json").read_text())
    assert meta["encoding_hash"] == encoding_hash(game) and len(meta["weights_sha256"]) == 64


def test_weights_of_another_encoding_are_refused(weights: dict[str, Path], tmp_path: Path) -> None:
    """A network trained on another observation layout or action index must not play: the hash says so."""
    meta_path = weights["zeta"].with_suffix(".json")
    meta = json.loads(meta_path.read_text())
    stale = tmp_path / "stale"
    (tmp_path / "stale.npz").write_bytes(weights["zeta"].with_suffix(".npz").read_bytes())
    (tmp_path / "stale.json").write_text(json.dumps({**meta, "encoding_hash": "0" * 16}))
    game = cardtable.load_game("zeta")
    with pytest.raises(WeightsError, match="encoding"):
        load_network(game, stale)
    with pytest.raises(AgentSpecError, match="encoding"):
        make_agent(f"learned:weights={stale}", game)
    # a 4x4 board (ZETA-I3) is another observation layout and action index, so another encoding
    small = cardtable.load_game("zeta", board_width=4, board_height=4)
    assert encoding_hash(small) != encoding_hash(game)
    with pytest.raises(AgentSpecError, match="encoding"):
        make_agent(f"learned:weights={weights['zeta']}", small)


def test_damaged_or_foreign_weights_are_refused(weights: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / "bad.npz").write_bytes(weights["zeta"].with_suffix(".npz").read_bytes()[:-7] + b"garbage")
    (tmp_path / "bad.json").write_text(weights["zeta"].with_suffix(".json").read_text())
    with pytest.raises(WeightsError, match="SHA-256"):
        read_network(tmp_path / "bad")
    with pytest.raises(WeightsError, match="for zeta, not utahime"):
        load_network(cardtable.load_game("utahime"), weights["zeta"])
    with pytest.raises(AgentSpecError, match="no weights"):
        make_agent(f"learned:weights={tmp_path / 'missing'}", cardtable.load_game("zeta"))


@pytest.mark.parametrize("spec", ["learned:depth=3", "ismcts:learned,hard", "ismcts:learned,temperature=1",
                                  "learned:hard", "ismcts:learned,iterations=many"])
def test_bad_specs_name_what_is_wrong(spec: str, weights: dict[str, Path]) -> None:
    with pytest.raises(AgentSpecError):
        make_agent(spec + f",weights={weights['zeta']}" if "," in spec or ":" in spec else spec,
                   cardtable.load_game("zeta"))


def test_specs_build_the_learned_agents(weights: dict[str, Path]) -> None:
    game = cardtable.load_game("zeta")
    policy = make_agent(f"learned:weights={weights['zeta']}", game)
    search = make_agent(f"ismcts:learned,iterations=25,c=2,weights={weights['zeta']}", game)
    assert isinstance(policy, LearnedAgent) and isinstance(search, GuidedSearchAgent)
    assert search.config.iterations == 25 and search.config.c_puct == 2.0
    state = game.new_game(seed=2)
    decide(search, state, random.Random(0))
    assert search.last_stats.iterations == 25
    assert sum(c.visits for c in search.explain(top=1000)) == 25 - 1  # the first iteration evaluates the root
    mixed = make_agent(f"ismcts:learned,iterations=5,mix=0.5,weights={weights['zeta']}", game)
    assert isinstance(mixed, GuidedSearchAgent) and mixed.config.mix == 0.5 and mixed.heuristic is not None
    decide(mixed, state, random.Random(0))
    with pytest.raises(AgentSpecError, match="mix"):
        make_agent(f"ismcts:learned,mix=2,weights={weights['zeta']}", game)


@pytest.mark.parametrize("name", GAMES)
def test_sampled_twins_get_the_same_decision(name: str, weights: dict[str, Path]) -> None:
    """Both learned agents decide from the view alone: a state resampled from the seat's view, which differs in
    the hidden cards, gets the same decision."""
    specs = [f"learned:weights={weights[name]}", f"learned:temperature=1,weights={weights[name]}",
             f"ismcts:learned,iterations=30,weights={weights[name]}"]
    checked = 0
    for seed in range(1, 12):
        state = _midgame(name, seed, steps=seed + 2)
        seat = state.current_player
        if seat is None or len(state.legal_actions()) < 2:
            continue
        view = state.view(seat)
        twin = next((t for k in range(20) if (t := state.game.sample_state(view, random.Random(seed * 100 + k)))
                     .view(seat) == view and t.to_json() != state.to_json()), None)
        if twin is None:
            continue
        for spec in specs:
            a = decide(make_agent(spec, state.game), state, random.Random(seed))
            b = decide(make_agent(spec, state.game), twin, random.Random(seed))
            assert a == b, f"{name}: {spec} decided {a} on the real state but {b} on its twin"
        checked += 1
        if checked >= 2:
            break
    assert checked, f"{name}: found no position with hidden information to test"


def test_the_policy_plays_the_highest_legal_logit(weights: dict[str, Path]) -> None:
    game = cardtable.load_game("oscilloscope")
    agent = make_agent(f"learned:weights={weights['oscilloscope']}", game)
    state = game.new_game(seed=6)
    legal = state.legal_actions()
    logits, _ = load_network(game, weights["oscilloscope"]).forward(game.encode_view(state.view(state.current_player)))
    best = max(legal, key=lambda a: logits[0][game.action_index(a)])
    assert decide(agent, state, random.Random(0)) == best
    assert agent.explain(1)[0].action == str(best)


@pytest.mark.parametrize("name", [g for g in GAMES if has_weights(g)])
def test_shipped_weights_fit_the_current_encoding(name: str) -> None:
    """The network that ships for a game reads its current encoding (else: `cardtable train GAME --ship`)."""
    game = cardtable.load_game(name)
    net = load_network(game)
    assert net.meta["encoding_hash"] == encoding_hash(game)
    assert {"training", "data_version", "weights_sha256", "samples_sha256"} <= set(net.meta)
    state = game.new_game(seed=1)
    assert decide(make_agent("learned", game), state, random.Random(0)) in state.legal_actions()
