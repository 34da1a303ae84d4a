"""``/web/rooms/{room_id}/hint``: advice for the seat to move, from the live room's table and that seat's view only."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel

from cardtable.server import access
from cardtable.server.access import Bearer, RoomId
from cardtable.server.services import services_of

HINT_SPEC = "ismcts:iterations=300,seconds=1"
"""The agent whose advice the hint button gives (from the seat's view only)."""


class HintOut(BaseModel):
    """The hint agent's advice for the seat to move, from that seat's view only."""

    version: int
    best: str
    candidates: list[dict[str, Any]]
    spec: str


def routes() -> APIRouter:
    """The hint route of one app (one hint is computed at a time)."""
    router = APIRouter(tags=["web"])
    hints = asyncio.Semaphore(1)

    @router.post("/web/rooms/{room_id}/hint", response_model=HintOut)
    async def hint(request: Request, room_id: RoomId, creds: Bearer) -> HintOut:
        """Advice for the seat to move (its token), from its view only; one hint is computed at a time."""
        token = access.required_token(creds)
        store, hub = services_of(request).parts()
        async with hints:
            _info, seat = await asyncio.to_thread(access.seat_of, store, room_id, token)
            version, advice = await hub.hint(room_id, seat, HINT_SPEC, top=3)
        return HintOut(version=version, best=advice.best, candidates=list(advice.candidates), spec=HINT_SPEC)

    return router
