"""``/api/rooms``: list the public rooms, make one, read one."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Annotated

from fastapi import APIRouter, Query, Request

from .. import access
from ..access import Bearer, Invite, RoomId
from ..auth import CurrentAccount
from ..errors import responses
from ..protocol import Created, CreateRoom, RoomList, RoomOut
from ..rooms import plan_room, room_out
from ..throttle import address_of
from .deps import ServicesDep

router = APIRouter(tags=["rooms"])


@router.get("/api/rooms", response_model=RoomList)
async def list_rooms(services: ServicesDep,
                     open: Annotated[bool, Query(description="Only rooms with an open seat and a game on.")] = True,
                     limit: Annotated[int, Query(ge=1, le=100)] = 50,
                     offset: Annotated[int, Query(ge=0, le=100_000)] = 0) -> RoomList:
    """Public rooms, most recently active first (private rooms are never listed)."""
    store, _ = services.parts()
    rooms = await asyncio.to_thread(store.list_rooms, open_only=open, limit=limit, offset=offset)
    return RoomList(rooms=[room_out(r) for r in rooms])


@router.post("/api/rooms", response_model=Created, status_code=201, responses=responses(400))
async def create_room(body: CreateRoom, services: ServicesDep, account: CurrentAccount) -> Created:
    """Make a room: a game, its rule flags and setup, each seat open or a bot, private or listed, rated or not
    (a rated room has no bot seats: ``bad_seats``)."""
    store, hub = services.parts()
    card_set = services.settings.card_sets.get(body.game)
    if card_set:  # the server's card set for this game (serve --cards); the room's own flags win
        body = body.model_copy(update={"rules": {**card_set, **body.rules}})
    plan = await asyncio.to_thread(plan_room, body)
    invite = access.new_invite() if body.private else None
    info = await asyncio.to_thread(
        lambda: store.create_room(
            game=plan.game, title=plan.title, rules=plan.rules, rules_version=plan.rules_version, setup=plan.setup,
            private=body.private, invite_hash=access.digest(invite) if invite else None, on_leave=body.on_leave,
            leave_bot=plan.leave_bot, seats=plan.seats, seed=plan.seed, to_move=plan.to_move, rated=body.rated,
            social=replace(plan.social, owner_account=account.id if account is not None else None)))
    await hub.wake(info.id, info)
    return Created(room=room_out(info), invite=invite)


@router.get("/api/rooms/{room_id}", response_model=RoomOut, responses=responses(401, 403, 404, 429))
async def get_room(room_id: RoomId, creds: Bearer, request: Request, services: ServicesDep,
                   invite: Invite = None) -> RoomOut:
    """One room (a private one needs its invite code or a seat token)."""
    store, _ = services.parts()
    with services.throttle.invite_attempt(address_of(request.client), invite):
        info, _seat = await asyncio.to_thread(access.room_access, store, room_id, access.bearer_token(creds), invite)
    return room_out(info)
