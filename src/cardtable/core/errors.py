"""The three errors of the game contract (all ``ValueError`` subclasses), and the closed set of refusal codes.

>>> ErrorCode("stale_version") is ErrorCode.STALE_VERSION, ErrorCode.NO_SUCH_STEP == "no_such_step"
(True, True)
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Every stable ``code`` of a refusal: the table's, the store's, and what the server and its pages send."""

    BAD_REQUEST = "bad_request"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    HTTP_ERROR = "http_error"
    TOO_LARGE = "too_large"
    UNAVAILABLE = "unavailable"
    UNKNOWN_GAME = "unknown_game"
    BAD_RULES = "bad_rules"
    BAD_SETUP = "bad_setup"
    BAD_SEATS = "bad_seats"
    BAD_AGENT = "bad_agent"
    BAD_TITLE = "bad_title"
    BAD_NAME = "bad_name"
    BAD_TOKEN = "bad_token"
    NO_ACCESS = "no_access"
    NO_SUCH_ROOM = "no_such_room"
    SEAT_TAKEN = "seat_taken"
    GAME_OVER = "game_over"
    NOT_FINISHED = "not_finished"
    STALE_VERSION = "stale_version"
    CANNOT_RESUME = "cannot_resume"
    STORE_ERROR = "store_error"
    STORAGE_ERROR = "storage_error"
    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    HELLO_TIMEOUT = "hello_timeout"
    ROOM_FULL = "room_full"
    NOT_STARTED = "not_started"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_AN_AGENT = "not_an_agent"
    CANNOT_UNDO = "cannot_undo"
    NO_SUCH_SEAT = "no_such_seat"
    WRONG_SEAT = "wrong_seat"
    SPECTATOR = "spectator"
    ILLEGAL_ACTION = "illegal_action"
    INVALID_ACTION = "invalid_action"
    REVOKED = "revoked"
    INTERNAL_ERROR = "internal_error"
    NO_HOWTO = "no_howto"
    NO_RULEBOOK = "no_rulebook"
    NO_SUCH_RULE = "no_such_rule"
    NO_SUCH_STEP = "no_such_step"
    BAD_DECK = "bad_deck"
    PRINT_FAILED = "print_failed"
    RATE_LIMITED = "rate_limited"
    NO_SUCH_GAME = "no_such_game"
    NOT_SIGNED_IN = "not_signed_in"
    BAD_CREDENTIALS = "bad_credentials"
    NAME_TAKEN = "name_taken"
    WEAK_PASSWORD = "weak_password"
    CSRF = "csrf"
    PASSKEY_FAILED = "passkey_failed"
    NEEDS_ACCOUNT = "needs_account"
    NO_SUCH_PLAYER = "no_such_player"
    BAD_STUDY = "bad_study"
    TOO_MANY_STUDIES = "too_many_studies"
    NO_SUCH_STUDY = "no_such_study"
    BAD_CHAT = "bad_chat"
    CHAT_OFF = "chat_off"
    BLOCKED = "blocked"
    NOT_OWNER = "not_owner"
    BAD_CLOCK = "bad_clock"
    NO_SUCH_MESSAGE = "no_such_message"
    NOT_QUEUED = "not_queued"
    NO_OFFER = "no_offer"
    OFFER_PENDING = "offer_pending"


class CardtableError(ValueError):
    """Base class of every error the game contract raises."""


class InvalidAction(CardtableError):
    """The input is not an action of this game at all (not notation)."""

    def __init__(self, text: object, reason: str, *, game: str = "") -> None:
        self.text = text
        self.reason = reason
        where = f" in {game}" if game else ""
        super().__init__(f"not an action{where}: {text!r}: {reason}")


class IllegalAction(CardtableError):
    """A well-formed action that the rules forbid in the current position."""

    def __init__(self, action: object, rule: str, reason: str, position: str) -> None:
        self.action = action
        self.rule = rule
        self.reason = reason
        self.position = position
        super().__init__(f"illegal action {str(action)!r} [{rule}]: {reason} (position: {position})")


class InvalidPosition(CardtableError):
    """Input to ``Game.from_json`` that does not describe a valid position."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"invalid position at {path}: {reason}")
