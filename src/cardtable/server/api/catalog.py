"""``/api/health``, ``/api/games`` and ``/api/protocol``: what the server is and what it serves."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from cardtable.agents import DIFFICULTIES, SPEC_HELP
from cardtable.core import game_class, game_names

from ..protocol import AgentsOut, BotQueueOut, Catalog, ClientMessage, FlagOut, GameInfo, Health, ServerMessage
from ..rooms import setup_example
from .deps import ServicesDep

router = APIRouter(tags=["server"])


def catalog(bot_iterations: int) -> Catalog:
    """The games, their flags and a working setup each, and the agent specs."""
    games = []
    for name in game_names():
        cls = game_class(name)
        flags = [FlagOut(name=f.name, kind=f.kind.__name__, default=f.default,
                         choices=list(f.choices) if f.choices is not None else None, ledger=f.ledger, doc=f.doc)
                 for f in cls.Rules.flag_specs()]
        games.append(GameInfo(name=name, title=cls.title, min_players=cls.min_players, max_players=cls.max_players,
                              flags=flags, setup_example=setup_example(name)))
    return Catalog(games=games, agents=AgentsOut(specs=dict(SPEC_HELP), difficulties=dict(DIFFICULTIES),
                                                 iterations_cap=bot_iterations))


def protocol_schemas() -> dict[str, Any]:
    """The JSON Schemas of every websocket message, client to server and server to client."""
    return {"client": ClientMessage.json_schema(), "server": ServerMessage.json_schema()}


@router.get("/api/health", response_model=Health)
async def health(services: ServicesDep) -> Health:
    """The server is up and its database answers."""
    store, _ = services.parts()
    await asyncio.to_thread(store.list_rooms, limit=1)
    bots = services.bots
    queue = BotQueueOut(queued=bots.queued, running=bots.running, capacity=bots.capacity, peak_queued=bots.peak_queued,
                        peak_running=bots.peak_running, decisions=bots.decisions, failures=bots.failures)
    return Health(status="ok", database=store.dialect, bots=queue)


@router.get("/api/games", response_model=Catalog)
async def games(services: ServicesDep) -> Catalog:
    """Every game with its rule flags and a working setup, and the agent specs a bot seat may take."""
    return catalog(services.settings.bot_iterations)


@router.get("/api/protocol")
async def protocol() -> dict[str, Any]:
    """The JSON Schemas of the websocket messages (``client``: what a client sends; ``server``: what it gets)."""
    return protocol_schemas()
