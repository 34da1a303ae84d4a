"""Setup options and rule flags as a designer writes them on the command line: lists, files, short labels.

``key=value`` items (``--setup``, and the variants of ``lab compare --a/--b``) read as follows:

- ``true``/``false`` and whole numbers are booleans and integers; other words are text;
- a value with a comma is a list (``p1_options=quick_study,scout``; a trailing comma makes a list of
  one, ``p1_options=scout,``; a lone comma, ``p1_options=,``, the empty list); a key ending in
  ``_options`` or named ``decks`` is always a list;
- ``@FILE`` reads the value from a file: ``options=@my_set.toml`` (or ``option_set=@...``,
  ``option_toml=@...``) is a whole option set, a TOML file; for another key the file holds the
  value as it would be written (names separated by commas, spaces or new lines make a list).

Labels name files, not their contents (:func:`item_label`).

>>> parse_setup_items(["p1_options=quick_study,scout", "players=4", "p2_options=scout,", "fast=true"])
{'p1_options': ['quick_study', 'scout'], 'players': 4, 'p2_options': ['scout'], 'fast': True}
>>> item_label("options=@sets/my_set.toml"), item_label("p1_options=a,b")
('options=my_set.toml', 'p1_options=a,b')
>>> suggest("gamez", ["games", "seed", "jobs"])
'games'
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

LIST_KEYS = re.compile(r"^(.*_options|decks)$")
"""Setup keys whose value is always a list."""
SET_KEYS = ("options", "option_set", "option_toml")
"""Keys whose ``@FILE`` value is a whole option set (TOML): it becomes ``option_set=custom, option_toml=TEXT``."""


def _scalar(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    return text


def parse_value(key: str, text: str) -> Any:
    """One setup value from its text (see the module's rules; ``@FILE`` already read)."""
    text = text.strip()
    if "," in text or LIST_KEYS.match(key):
        return [_scalar(w) for w in re.split(r"[,\s]+", text) if w]
    return _scalar(text)


def read_file(path_text: str) -> str:
    """The text of ``@FILE`` (ValueError naming the file when it cannot be read)."""
    path = Path(path_text).expanduser()
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ValueError(f"cannot read {path}: not a UTF-8 text file") from None


def parse_setup_items(items: Iterable[str]) -> dict[str, Any]:
    """``key=value`` items as a game's setup keywords: lists, numbers, booleans, ``@FILE`` values (ValueError)."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise ValueError(f"setup option {item!r} must be written key=value (lists: key=a,b; files: key=@FILE)")
        text = text.strip()
        if text.startswith("@"):
            content = read_file(text[1:])
            if key in SET_KEYS:
                out["option_set"] = "custom"
                out["option_toml"] = content
                continue
            text = content
        out[key] = parse_value(key, text)
    return out


def item_label(item: str) -> str:
    """A ``key=value`` item as a short label: a file by its name, a long value cut."""
    key, sep, text = item.partition("=")
    if not sep:
        return item
    text = text.strip()
    if text.startswith("@"):
        return f"{key.strip()}={Path(text[1:]).name}"
    text = " ".join(text.split())
    return f"{key.strip()}={text if len(text) <= 40 else text[:37] + '...'}"


def items_label(items: Sequence[str]) -> str:
    """A variant's label: its items' labels, or ``the default`` for none."""
    return " ".join(item_label(i) for i in items) if items else "the default"


def suggest(word: str, choices: Iterable[str]) -> str | None:
    """The choice closest to a misspelt ``word``, if one is close."""
    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return found[0] if found else None


def unique_names(names: Sequence[str]) -> list[str]:
    """The names with a ``-2``, ``-3``... added to the second and later of equal ones.

    >>> unique_names(["random", "classic", "random", "random"])
    ['random', 'classic', 'random-2', 'random-3']
    """
    seen: dict[str, int] = {}
    out = []
    taken = set(names)
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        if seen[name] == 1:
            out.append(name)
            continue
        k = seen[name]
        while f"{name}-{k}" in taken:
            k += 1
        taken.add(f"{name}-{k}")
        out.append(f"{name}-{k}")
    return out
