"""The lab's languages: every text of a report, a verdict, a chart and a lab message, in English or Japanese.

The messages are English text with ``{name}`` fields; the Japanese catalog is the gettext file
``locale/ja/LC_MESSAGES/lab.po`` (domain ``lab``), read with Babel as the web pages read theirs.
The lab sits below the web layer, so it keeps its own domain. A message the catalog lacks is shown
in English; ``missing()`` lists them (a test keeps the list empty).

>>> tr(Lang.JA, "first")
'先手'
>>> tr(Lang.EN, "{n} games", n=3)
'3 games'
>>> translator("ja")("second")
'後手'
"""

from __future__ import annotations

import ast
import io
from collections.abc import Callable, Iterator
from enum import StrEnum
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

DOMAIN = "lab"
"""The gettext domain of the lab's texts."""


class Lang(StrEnum):
    """The languages the lab writes in."""

    EN = "en"
    """English, the source language."""
    JA = "ja"
    """Japanese, the designers' language."""


Translate = Callable[..., str]
"""``t(msgid, **fields) -> str``: one language's translation of a message."""


def parse_lang(value: str | Lang) -> Lang:
    """A language from its code (ValueError naming the choices)."""
    try:
        return Lang(str(value).lower())
    except ValueError:
        raise ValueError(f"unknown language {value!r}; choose one of: {', '.join(lang.value for lang in Lang)}") \
            from None


@cache
def catalog(lang: Lang) -> dict[str, str]:
    """The translations of one language (empty for English)."""
    if lang is Lang.EN:
        return {}
    from babel.messages.pofile import read_po

    path = resources.files("cardtable.lab").joinpath("locale", lang.value, "LC_MESSAGES", f"{DOMAIN}.po")
    text = path.read_text(encoding="utf-8")
    read = read_po(io.StringIO(text), locale=lang.value, domain=DOMAIN)
    return {str(m.id): str(m.string) for m in read if m.id and isinstance(m.string, str) and m.string}


def tr(lang: Lang | str, msgid: str, **fields: Any) -> str:
    """``msgid`` in ``lang`` with its ``{fields}`` filled in (English where the catalog lacks it)."""
    text = catalog(parse_lang(lang)).get(msgid, msgid)
    return text.format(**fields) if fields else text


def translator(lang: Lang | str) -> Translate:
    """A function that translates into ``lang``: ``t = translator("ja"); t("first")``."""
    chosen = parse_lang(lang)

    def t(msgid: str, **fields: Any) -> str:
        """``msgid`` in the chosen language."""
        return tr(chosen, msgid, **fields)

    return t


def source_messages(paths: list[Path]) -> Iterator[str]:
    """The message ids written as ``t("...")`` (a literal first argument) in these source files."""
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "t" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                yield node.args[0].value


def missing(lang: Lang, ids: list[str]) -> list[str]:
    """The message ids of ``ids`` that the catalog of ``lang`` does not translate."""
    known = catalog(lang)
    return sorted({i for i in ids if i not in known})
