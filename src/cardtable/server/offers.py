"""Offers between the people at a table: a rematch, a draw, a takeback.

A seated person offers; every other seated *person* must accept before it happens (bots accept a
rematch at once, and decline draws and takebacks); one no, a move, the end of the game or a seat
changing hands ends it. At most one offer of each kind is pending in a room. Offers live in the
memory of the server process that holds the room (:class:`cardtable.server.hub.Hub`): what an
accepted one does (the next game, the drawn end, the game taken back) is stored like any change.

>>> from cardtable.store import SeatInfo, SeatStatus
>>> seats = (SeatInfo(0, SeatStatus.TAKEN, "human", "Aki"), SeatInfo(1, SeatStatus.TAKEN, "human", "Bo"),
...          SeatInfo(2, SeatStatus.BOT, "normal", ""))
>>> offer = Offer.make(OfferKind.REMATCH, 0, 1, 40, seats)
>>> offer.waiting, offer.bots_decline(seats)
([1], None)
>>> offer.accept(1), offer.done
(True, True)
>>> Offer.make(OfferKind.DRAW, 0, 1, 12, seats).bots_decline(seats)
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from cardtable.store import SeatInfo, SeatStatus

from .protocol import OfferClosedMsg, OfferEnd, OfferKind, OfferMsg


@dataclass
class Offer:
    """A pending offer: its kind, the seat that made it, the game and version it was made at, who agreed and who
    has still to answer; for a takeback, the version it goes back to (the offerer's last move)."""

    kind: OfferKind
    by: int
    game_no: int
    version: int
    waiting: list[int]
    accepted: list[int] = field(default_factory=list)
    target: int | None = None
    """A takeback's version to go back to (server side only; never sent)."""

    @classmethod
    def make(cls, kind: OfferKind, by: int, game_no: int, version: int, seats: Sequence[SeatInfo],
             target: int | None = None) -> Offer:
        """A new offer of seat ``by``: it waits for every other seat a person holds."""
        return cls(kind, by, game_no, version, persons(seats, but=by), [by], target)

    def bots_decline(self, seats: Sequence[SeatInfo]) -> int | None:
        """The first bot seat that declines this offer at once (bots decline draws and takebacks), or None."""
        if self.kind is OfferKind.REMATCH:
            return None
        return next((s.seat for s in seats if s.status is SeatStatus.BOT and s.seat != self.by), None)

    def accept(self, seat: int) -> bool:
        """Seat ``seat`` accepts; False if the offer did not wait for it."""
        if seat not in self.waiting:
            return False
        self.waiting.remove(seat)
        self.accepted.append(seat)
        return True

    @property
    def done(self) -> bool:
        """True once nobody has still to answer."""
        return not self.waiting

    def message(self) -> OfferMsg:
        """The ``offer`` message every socket of the room is sent (seats and numbers only)."""
        return OfferMsg(kind=self.kind, by=self.by, game_no=self.game_no, version=self.version,
                        accepted=list(self.accepted), waiting=list(self.waiting))

    def closed(self, end: OfferEnd, seat: int | None = None) -> OfferClosedMsg:
        """The ``offer_closed`` message of this offer ending so (``seat``: who declined, withdrew or left)."""
        return OfferClosedMsg(kind=self.kind, by=self.by, game_no=self.game_no, end=end, seat=seat)


def persons(seats: Sequence[SeatInfo], but: int | None = None) -> list[int]:
    """The seats a person holds (but ``but``), in order."""
    return [s.seat for s in seats if s.status is SeatStatus.TAKEN and s.seat != but]


def changed_person(before: Sequence[SeatInfo], after: Sequence[SeatInfo]) -> int | None:
    """The first seat whose person left or changed (a bot took it, it reopened, another person sat down), or
    None if every seat a person held is held by the same one."""
    for old, new in zip(before, after, strict=False):
        if old.status is SeatStatus.TAKEN and (new.status is not SeatStatus.TAKEN or new.name != old.name
                                               or new.account_id != old.account_id):
            return old.seat
    return None
