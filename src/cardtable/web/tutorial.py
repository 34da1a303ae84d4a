"""``POST /web/tutorial/positions``: the positions of a scripted game, for the first-game guides.

A guide (``client/js/tutorial.js``) is a seeded game and the moves both seats make in it; the page asks
for the learner's view, legal moves and log before each move, and walks the learner through them one
at a time. The engine plays the script, so a guide can never show a position the rules do not reach.

>>> out = positions(TutorialIn(game="zeta", seed=3, setup={"decks": ["classic", "classic"]},
...                            rules={"first_player": "p1"}, actions=["chant_practice@c3"]))
>>> len(out.steps), "chant_practice@c3" in out.steps[0].legal, out.steps[1].view["board"]["c3"]["card"]
(2, True, 'chant_practice')
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field

from cardtable.core import game_names, load_game

from .kit import Strict

MAX_ACTIONS = 60
"""The most moves a guide may script."""


class TutorialIn(Strict):
    """A scripted game: the game, its seed, setup and rule flags, the moves in order, and the learner's seat."""

    game: str = Field(max_length=32)
    seed: int = Field(ge=0, le=2**31)
    setup: dict[str, Any] = Field(default_factory=dict, max_length=16)
    rules: dict[str, Any] = Field(default_factory=dict, max_length=32)
    actions: list[str] = Field(default_factory=list, max_length=MAX_ACTIONS)
    seat: int = Field(0, ge=0, le=7)


class TutorialStep(BaseModel):
    """The learner's view of one position: the view, the legal moves (the learner's, if they decide), the log
    from the start, who decides and the outcome once over."""

    view: dict[str, Any]
    legal: list[str]
    events: list[dict[str, Any]]
    to_move: int | None
    outcome: dict[str, Any] | None


class TutorialOut(BaseModel):
    """Every position of the script: before each move, and after the last."""

    steps: list[TutorialStep]


def positions(body: TutorialIn) -> TutorialOut:
    """Play the script and return the learner's view before each move and after the last (HTTP 400 if the
    game, its setup or a move is not right)."""
    if body.game not in game_names():
        raise HTTPException(400, f"unknown game {body.game!r}")
    try:
        state = load_game(body.game, **body.rules).new_game(seed=body.seed, record_events=True, **body.setup)
    except (TypeError, ValueError) as exc:
        raise HTTPException(400, f"the guide's game cannot be set up: {exc}") from None
    steps: list[TutorialStep] = []

    def step() -> TutorialStep:
        out = state.outcome()
        decider = state.current_player
        legal = [str(a) for a in state.legal_actions()] if decider == body.seat and out is None else []
        return TutorialStep(view=state.view(body.seat), legal=legal, events=state.events_for(body.seat),
                            to_move=decider, outcome=out.to_json() if out is not None else None)

    for k, action in enumerate(body.actions):
        steps.append(step())
        try:
            state.apply(action)
        except Exception as exc:  # an illegal or unknown move of the script
            raise HTTPException(400, f"move {k + 1} of the guide ({action!r}) is not legal: {exc}") from None
    steps.append(step())
    return TutorialOut(steps=steps)


router = APIRouter(tags=["web"])


@router.post("/web/tutorial/positions", response_model=TutorialOut)
async def tutorial_positions(body: TutorialIn) -> TutorialOut:
    """The positions of a first-game guide's scripted game, as the learner's seat sees them."""
    return await asyncio.to_thread(positions, body)
