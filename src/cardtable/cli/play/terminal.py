"""Reading what people type: prompt_toolkit with Tab completion on a terminal, plain ``input()`` otherwise.

Readers raise ``EOFError`` when input ends (Ctrl-D, a closed pipe) and ``KeyboardInterrupt`` on Ctrl-C.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import Protocol


class LineReader(Protocol):
    """Something that asks for one line, offering ``words`` as completions."""

    def read(self, message: str, words: Sequence[str] = ()) -> str:
        """Show ``message`` and return the line typed (without the newline)."""
        ...


class PlainReader:
    """``input()``: for pipes, scripts and tests (no completion)."""

    def __init__(self, read_line: Callable[[str], str] = input) -> None:
        self._read_line = read_line

    def read(self, message: str, words: Sequence[str] = ()) -> str:
        """Show ``message`` and return the line typed."""
        return self._read_line(message)


class ToolkitReader:
    """A prompt_toolkit ``PromptSession`` with a completer of the legal action strings and commands."""

    def __init__(self) -> None:
        from prompt_toolkit import PromptSession

        self._session: PromptSession[str] = PromptSession()

    def read(self, message: str, words: Sequence[str] = ()) -> str:
        """Show ``message`` and return the line typed; Tab completes any of ``words``."""
        from prompt_toolkit.completion import WordCompleter

        completer = WordCompleter(list(words), sentence=True) if words else None
        return self._session.prompt(message, completer=completer, complete_while_typing=False)


class ScriptedReader:
    """Answers from a list (for tests of the loop); EOFError when the list runs out."""

    def __init__(self, lines: Sequence[str], echo: Callable[[str], None] | None = None) -> None:
        self._lines = list(lines)
        self._echo = echo
        self.prompts: list[str] = []

    def read(self, message: str, words: Sequence[str] = ()) -> str:
        """The next scripted line."""
        self.prompts.append(message)
        if not self._lines:
            raise EOFError
        line = self._lines.pop(0)
        if self._echo is not None:
            self._echo(f"{message}{line}")
        return line


def make_reader() -> LineReader:
    """prompt_toolkit when stdin and stdout are terminals (and ``CARDTABLE_PLAIN_INPUT`` is unset), else input()."""
    if os.environ.get("CARDTABLE_PLAIN_INPUT") or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return PlainReader()
    try:
        return ToolkitReader()
    except Exception:  # pragma: no cover - a terminal prompt_toolkit cannot drive
        return PlainReader()
