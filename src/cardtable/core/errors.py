"""The three errors of the game contract; all are ``ValueError`` subclasses."""

from __future__ import annotations


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
