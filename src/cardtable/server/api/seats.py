"""``/api/rooms/{room_id}/join``, ``leave``, ``me`` and ``rematch``: taking, keeping and leaving a seat, and the
rematch offer over HTTP (the socket makes and answers every offer: docs/server.md)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request

from .. import access
from ..access import Bearer, RoomId
from ..auth import CurrentAccount
from ..errors import responses
from ..protocol import Joined, JoinIn, Left, Me, OfferKind, RoomOut
from ..rooms import check_person_name, room_out
from ..throttle import address_of
from .deps import ServicesDep

router = APIRouter(tags=["seats"])


@router.post("/api/rooms/{room_id}/join", response_model=Joined, responses=responses(400, 403, 404, 409, 429))
async def join(room_id: RoomId, body: JoinIn, request: Request, services: ServicesDep,
               account: CurrentAccount) -> Joined:
    """Take an open seat; the answer holds the seat token, shown only this once (keep it to come back).
    Signed in, the seat is the account's and goes by the account's name; a rated room refuses guests
    (``needs_account``)."""
    store, hub = services.parts()
    address = address_of(request.client)
    services.throttle.join(address)
    name = account.name if account is not None else check_person_name(body.name)
    token = access.new_token()
    with services.throttle.invite_attempt(address, body.invite):
        seat, after = await asyncio.to_thread(access.join_seat, store, room_id, body.seat, body.invite, name,
                                              access.digest(token), None if account is None else account.id)
    await hub.refresh(room_id, after)
    return Joined(token=token, seat=seat, room=room_out(after))


@router.post("/api/rooms/{room_id}/leave", response_model=Left, responses=responses(401, 404))
async def leave(room_id: RoomId, creds: Bearer, services: ServicesDep) -> Left:
    """Leave the seat: the token is revoked at once; the seat reopens or the room's bot takes it."""
    store, hub = services.parts()
    token = access.required_token(creds)
    seat, after = await asyncio.to_thread(store.leave, room_id, access.digest(token))
    await hub.refresh(room_id, after)
    return Left(seat=seat, room=room_out(after))


@router.get("/api/rooms/{room_id}/me", response_model=Me, responses=responses(401, 404))
async def me(room_id: RoomId, creds: Bearer, services: ServicesDep) -> Me:
    """The seat a token holds (to come back after a reload or a restart)."""
    store, _ = services.parts()
    token = access.required_token(creds)
    info, seat = await asyncio.to_thread(access.seat_of, store, room_id, token)
    return Me(seat=seat, name=info.seats[seat].name, room=room_out(info))


@router.post("/api/rooms/{room_id}/rematch", response_model=RoomOut, responses=responses(401, 404, 409))
async def rematch(room_id: RoomId, creds: Bearer, services: ServicesDep) -> RoomOut:
    """Offer (or accept) a rematch once the game is over, as the socket's ``offer`` of kind ``rematch`` does: the
    next game (same seats, same tokens, a new deal) starts when every seated person agreed, at once when the
    others are bots. The room after it (its ``game_no`` is the next game's once it started)."""
    store, hub = services.parts()
    token = access.required_token(creds)
    info, seat = await asyncio.to_thread(access.seat_of, store, room_id, token)
    await hub.offer(await hub.live(room_id), seat, OfferKind.REMATCH, info.game_no)
    return room_out(await asyncio.to_thread(store.room, room_id))
