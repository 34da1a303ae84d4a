"""The web pages' languages: gettext catalogs read with Babel and served to the browser as JSON.

The browser client writes every string it shows as ``t("English text")`` (or ``tn(singular, plural, n)``);
those calls, plus the data strings the pages show (game titles, rule-flag meanings, card effects), are the
messages of the ``cardtable`` domain. The template ``locale/cardtable.pot`` and each language's
``locale/<lang>/LC_MESSAGES/cardtable.po`` ship in the package; English is the source language.
``python -m cardtable.web.i18n update`` re-extracts the messages and merges them into the catalogs,
``python -m cardtable.web.i18n check`` lists what a catalog still lacks.

>>> negotiate("ja-JP,ja;q=0.9,en;q=0.8")
<Language.JA: 'ja'>
>>> negotiate("fr-CH, fr;q=0.9")
<Language.EN: 'en'>
>>> catalog_json(Language.JA)["messages"]["Open rooms"]
'参加できるルーム'
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable, Iterator, Sequence
from enum import StrEnum
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from babel.core import Locale, negotiate_locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.pofile import read_po, write_po

DOMAIN = "cardtable"
"""The gettext domain of the web pages."""

KEYWORDS: dict[str, Any] = {"t": None, "tn": (1, 2)}
"""The client's translation calls: ``t(msgid, params)`` and ``tn(singular, plural, n, params)``."""


class Language(StrEnum):
    """The languages the pages are written in."""

    EN = "en"
    """English, the source language (its catalog is the identity)."""
    JA = "ja"
    """Japanese, the designers' and most players' language."""


SOURCE = Language.EN


def _web() -> Traversable:
    return resources.files("cardtable.web")


def locale_dir() -> Traversable:
    """Where the catalogs and the how-to-play texts live (inside the package)."""
    return _web() / "locale"


def client_dir() -> Traversable:
    """The browser client's static files."""
    return _web() / "client"


def negotiate(accept_language: str | None) -> Language:
    """The page language for an ``Accept-Language`` header (English when nothing matches)."""
    preferred = []
    for part in (accept_language or "").split(","):
        tag = part.split(";", 1)[0].strip().replace("-", "_")
        if tag:
            preferred.append(tag)
    found = negotiate_locale(preferred, [lang.value for lang in Language], sep="_") if preferred else None
    if found is None:
        for tag in preferred:
            base = tag.split("_", 1)[0].lower()
            if base in {lang.value for lang in Language}:
                return Language(base)
        return SOURCE
    return Language(found.split("_", 1)[0])


def _po_path(lang: Language) -> Traversable:
    return locale_dir() / lang.value / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(lang: Language) -> Catalog:
    """A language's catalog as Babel reads it (an empty one for English)."""
    if lang is SOURCE:
        return Catalog(locale=SOURCE.value, domain=DOMAIN)
    text = _po_path(lang).read_text(encoding="utf-8")
    return read_po(io.StringIO(text), locale=lang.value, domain=DOMAIN)


@cache
def catalog_json(lang: Language) -> dict[str, Any]:
    """The catalog the browser loads: ``messages`` (msgid -> text), ``plurals`` (msgid -> forms), plural rule."""
    cat = read_catalog(lang)
    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    for message in cat:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple):
            forms = [str(s) for s in message.string] if isinstance(message.string, tuple) else []
            if forms and all(forms):
                plurals[str(message.id[0])] = forms
        elif message.string:
            messages[str(message.id)] = str(message.string)
    locale = Locale.parse(lang.value)
    return {"lang": lang.value, "name": locale.get_display_name(lang.value), "messages": messages,
            "plurals": plurals, "nplurals": cat.num_plurals, "plural_expr": cat.plural_expr}


def howto_text(game: str, lang: Language) -> str:
    """The how-to-play of a game in a language (Markdown; English if that language has none).

    The pages are the game package's own (``howto.en.md``, ``howto.ja.md``), the same ones
    ``cardtable rules GAME`` shows, so the terminal and the page never disagree on the rules; the page
    puts their terminal parts in its own words (``howto.for_the_page``).
    """
    from cardtable.core import rulebook

    from .howto import for_the_page

    for choice in (lang, SOURCE):
        if rulebook.has_howto(game, choice.value):
            return for_the_page(rulebook.howto_text(game, choice.value), game, choice.value)
    raise KeyError(f"no how-to-play for {game!r}")


# -- extraction ----------------------------------------------------------------------------------------
def _client_files(root: Traversable | None = None) -> Iterator[tuple[str, Traversable]]:
    base = root or client_dir()
    stack: list[tuple[str, Traversable]] = [("", base)]
    while stack:
        prefix, folder = stack.pop()
        for item in sorted(folder.iterdir(), key=lambda p: p.name):
            name = f"{prefix}{item.name}"
            if item.is_dir():
                stack.append((name + "/", item))
            elif item.name.endswith(".js"):
                yield name, item


def client_messages() -> list[tuple[str | tuple[str, str], str]]:
    """Every ``t``/``tn`` message of the client's scripts, with ``file:line`` (a tuple for plural messages)."""
    found: list[tuple[str | tuple[str, str], str]] = []
    for name, item in _client_files():
        data = item.read_bytes()
        for lineno, message, _comments, _context in extract("javascript", io.BytesIO(data), keywords=KEYWORDS,
                                                           options={"encoding": "utf-8"}):
            if isinstance(message, tuple):
                if len(message) >= 2 and message[0] and message[1]:
                    found.append(((str(message[0]), str(message[1])), f"client/{name}:{lineno}"))
            elif message:
                found.append((str(message), f"client/{name}:{lineno}"))
    return found


def choice_words(choice: str) -> str:
    """A rule flag's value in words, as the lobby shows it (the client's ``choiceWords``): ``p1`` is P1,
    underscores are spaces.

    >>> choice_words("after_resolution"), choice_words("p2")
    ('after resolution', 'P2')
    """
    if len(choice) == 2 and choice[0] == "p" and choice[1].isdigit():
        return choice.upper()
    return choice.replace("_", " ")


def data_messages() -> list[tuple[str, str]]:
    """The data strings the pages translate: game titles, rule-flag meanings, and each game's own (its lobby
    line, card names and effects, from its web part)."""
    from cardtable.core import game_class, game_names

    from .kit import game_webs

    out: list[tuple[str, str]] = []
    for name in game_names():
        cls = game_class(name)
        out.append((cls.title, f"game {name}"))
        for spec in cls.Rules.flag_specs():
            if spec.doc:
                out.append((spec.doc, f"{name} flag {spec.name}"))
            for choice in spec.choices or ():
                if isinstance(choice, str):
                    out.append((choice_words(choice), f"{name} flag {spec.name} choice {choice}"))
    for name, web in game_webs().items():
        if web.tagline:
            out.append((web.tagline, f"game {name} tagline"))
        if web.messages is not None:
            out.extend(web.messages())
    return out


def template() -> Catalog:
    """The message template: every client and data message, with where it comes from."""
    cat = Catalog(domain=DOMAIN, project="cardtable", version="1", msgid_bugs_address="",
                  copyright_holder="", charset="utf-8")
    for message, where in [*client_messages(), *data_messages()]:
        path, _, line = where.partition(":")
        cat.add(message, locations=[(path, int(line) if line.isdigit() else 0)])
    return cat


def missing(lang: Language) -> list[str]:
    """The template's messages that ``lang``'s catalog does not translate (empty, fuzzy or absent)."""
    if lang is SOURCE:
        return []
    cat = read_catalog(lang)
    out = []
    for message in template():
        if not message.id:
            continue
        found = cat.get(message.id)
        strings = found.string if found is not None else None
        empty = not strings or (isinstance(strings, tuple) and not all(strings))
        if found is None or found.fuzzy or empty:
            out.append(str(message.id[0] if isinstance(message.id, tuple) else message.id))
    return out


def unused(lang: Language) -> list[str]:
    """Messages in ``lang``'s catalog that the template no longer has."""
    keys = {m.id for m in template() if m.id}
    return [str(m.id) for m in read_catalog(lang) if m.id and m.id not in keys]


def _write(cat: Catalog, path: Traversable) -> None:
    buffer = io.BytesIO()
    write_po(buffer, cat, width=120, sort_output=False, omit_header=False)
    with open(str(path), "wb") as handle:
        handle.write(buffer.getvalue())


def update() -> list[str]:
    """Write the template and merge it into every catalog (new messages untranslated); the files written."""
    written = []
    pot = template()
    pot_path = locale_dir() / f"{DOMAIN}.pot"
    _write(pot, pot_path)
    written.append(str(pot_path))
    for lang in Language:
        if lang is SOURCE:
            continue
        cat = read_catalog(lang)
        cat.update(pot, no_fuzzy_matching=True)
        cat.obsolete.clear()
        _write(cat, _po_path(lang))
        written.append(str(_po_path(lang)))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m cardtable.web.i18n update|check``."""
    args = list(sys.argv[1:] if argv is None else argv)
    command = args[0] if args else "check"
    if command == "update":
        for path in update():
            print(path)
        return 0
    if command == "check":
        status = 0
        for lang in Language:
            gaps = missing(lang)
            if gaps:
                status = 1
                print(f"{lang.value}: {len(gaps)} untranslated")
                for text in gaps:
                    print(f"  {text}")
        return status
    print("usage: python -m cardtable.web.i18n update|check", file=sys.stderr)
    return 2


def languages() -> Iterable[Language]:
    """Every page language, the source first."""
    return list(Language)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
