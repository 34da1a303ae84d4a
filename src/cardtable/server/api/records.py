"""``/api/rooms/{room_id}/history`` and ``records/{game_no}``: the games of a room and their records."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse

from .. import access
from ..access import Bearer, Invite, RoomId
from ..errors import responses
from ..protocol import History
from ..rooms import game_out
from ..throttle import address_of
from .deps import ServicesDep

router = APIRouter(tags=["records"])


@router.get("/api/rooms/{room_id}/history", response_model=History, responses=responses(401, 403, 404, 429))
async def history(room_id: RoomId, creds: Bearer, request: Request, services: ServicesDep,
                  invite: Invite = None) -> History:
    """Every game of the room, with the outcome and the record's address of each finished one."""
    store, _ = services.parts()
    with services.throttle.invite_attempt(address_of(request.client), invite):
        await asyncio.to_thread(access.room_access, store, room_id, access.bearer_token(creds), invite)
    games = await asyncio.to_thread(store.history, room_id)
    return History(room=room_id, games=[game_out(room_id, g) for g in games])


@router.get("/api/rooms/{room_id}/records/{game_no}",
            responses={200: {"description": "The record (what `cardtable replay FILE` reads).",
                             "content": {"application/json": {"schema": {"type": "object"}}}},
                       **responses(401, 403, 404, 409, 429)})
async def record(room_id: RoomId, game_no: Annotated[int, Path(ge=1, le=1_000_000)], creds: Bearer,
                 request: Request, services: ServicesDep, invite: Invite = None) -> JSONResponse:
    """The record of a finished game, as a download (``no_such_game``, 404, for a game the room never had)."""
    store, _ = services.parts()
    with services.throttle.invite_attempt(address_of(request.client), invite):
        info, _seat = await asyncio.to_thread(access.room_access, store, room_id, access.bearer_token(creds),
                                              invite)
    data = await asyncio.to_thread(store.record, room_id, game_no)
    name = f"cardtable-{info.game}-{room_id}-{game_no}.json"
    return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="{name}"'})
