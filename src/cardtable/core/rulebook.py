"""The rulebooks shipped with the package, the numbered rules in them (``ZETA-R12``, ``OSC-R3``, ``UTA-I7``),
and each game's short *how to play* page for players (``howto.en.md``, ``howto.ja.md``).

A rule starts at a bold heading that opens a line (``**ZETA-R12: Sequence of a turn.**``,
``* **OSC-R1 (decks).** ...``, ``**UTA-I4 — Option card budget.**``) and runs until the next rule
heading at the same or a shallower indent, a Markdown heading or a horizontal rule. A rulebook's
definitions (``* **D9. Waveform score card.** ...``) are found the same way, as ``OSC-D9``.

The rulebooks are the designers' specifications: they cite the seed's lines (``L32``) and mark the
gaps they fill (``[FILL]``). :func:`player_text` is what a player reads instead: no seed line numbers,
no placeholders, and every cross-reference a full id that ``find_rule`` finds (``[I48]`` becomes
``[OSC-I48]``, ``D9`` becomes ``OSC-D9``).

>>> find_rule("zeta", "ZETA-R31").title
'Hand size'
>>> find_rule("oscilloscope", "r2").id
'OSC-R2'
>>> find_rule("zeta", "ZETA-R6").title      # untitled in the rulebook: named after its section
'Deck construction'
>>> player_text("oscilloscope", "W counts the waveform score cards (D9) [I48] (L57, L59).")
'W counts the waveform score cards (OSC-D9) [OSC-I48].'
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from . import registry


def prefixes() -> dict[str, str]:
    """The rule-id prefix of each game that ships a rulebook (from the game registry)."""
    return {e.name: e.rule_prefix for e in registry.entries() if e.rulebook and e.rule_prefix}


def has_rulebook(game: str) -> bool:
    """True if ``game`` ships a rulebook."""
    return game in prefixes()

_HEADING = re.compile(r"^(?P<indent>\s*)(?:[*-]\s+)?\*\*(?P<id>[A-Z]+-[A-Z]+(?:-[A-Z]+)?\d+[a-z]?)\b(?P<rest>.*)$")
_DEFINITION = re.compile(r"^(?P<indent>\s*)(?:[*-]\s+)?\*\*(?P<id>D\d+)\.(?P<rest>.*)$")
_SECTION = re.compile(r"^(#{1,6}\s|---\s*$)")
_SECTION_TITLE = re.compile(r"^#{1,6}\s+(?:[\dA-Z]+(?:\.\d+)*\.?\s+)?(?P<title>.*?)\s*$")


@dataclass(frozen=True)
class Rule:
    """One numbered rule: its id, its title (may be empty) and its Markdown text, heading included."""

    id: str
    title: str
    text: str


def rulebook_text(game: str) -> str:
    """The whole Markdown rulebook of ``game`` (ValueError naming the games if unknown)."""
    if not has_rulebook(game):
        raise ValueError(f"no rulebook for {game!r}; choose one of: {', '.join(prefixes())}")
    return resources.files(registry.entry(game).rulebook).joinpath("rulebook.md").read_text(encoding="utf-8")


def rules_section(game: str) -> str:
    """The rulebook up to its interpretation ledger: overview, components and the numbered rules."""
    text = rulebook_text(game)
    match = re.search(r"^## \d+\.\s+Interpretation ledger", text, flags=re.MULTILINE)
    return text[: match.start()].rstrip() + "\n" if match else text


def _title(rest: str) -> str:
    """The title part of a heading line: the bold text after the id, without separators."""
    title = rest.split("**", 1)[0].replace("`", "").strip().lstrip(":—-").strip().removesuffix(".")
    if title.startswith("(") and title.endswith(")"):
        title = title[1:-1]
    return title.strip()


@cache
def rules_of(game: str) -> dict[str, Rule]:
    """Every numbered rule of a game's rulebook by id, in rulebook order (untitled ones titled, see ``Rule``)."""
    return _parse(game, _HEADING)


@cache
def definitions_of(game: str) -> dict[str, Rule]:
    """The rulebook's numbered definitions (``D1``, ``D2`` ...) by full id (``OSC-D1``); empty if it has none."""
    prefix = prefixes().get(game, "")
    return {f"{prefix}-{k}": Rule(f"{prefix}-{k}", r.title, r.text) for k, r in _parse(game, _DEFINITION).items()}


def _parse(game: str, heading: re.Pattern[str]) -> dict[str, Rule]:
    """The blocks that open with ``heading``, each until the next one at its indent or a section break."""
    lines = rulebook_text(game).splitlines()
    found: dict[str, tuple[str, str, str]] = {}
    sections: dict[str, int] = {}
    section = ""
    i = 0
    while i < len(lines):
        title_match = _SECTION_TITLE.match(lines[i])
        if title_match and lines[i].startswith("#"):
            section = title_match.group("title")
        m = heading.match(lines[i])
        if not m or m.group("id") in found:
            i += 1
            continue
        indent = len(m.group("indent"))
        body = [lines[i][indent:]]
        j = i + 1
        while j < len(lines):
            line = lines[j]
            nxt = heading.match(line)
            if _SECTION.match(line) or (nxt and len(nxt.group("indent")) <= indent):
                break
            if line.strip() and len(line) - len(line.lstrip()) < indent:
                break
            body.append(line[indent:] if line[:indent].strip() == "" else line)
            j += 1
        while body and not body[-1].strip():
            body.pop()
        found[m.group("id")] = (_title(m.group("rest")), "\n".join(body), section)
        sections[section] = sections.get(section, 0) + 1
        i = j
    out: dict[str, Rule] = {}
    for rule_id, (title, text, sec) in found.items():
        if not title:
            title = sec if sec and sections[sec] == 1 else _first_sentence(text)
        out[rule_id] = Rule(rule_id, title, text)
    return out


def _first_sentence(text: str, limit: int = 70) -> str:
    """A title made from a rule's first sentence: no markup, citations or cross-references, at most ``limit``."""
    body = text.split("**", 2)[-1] if text.count("**") >= 2 else text
    body = re.sub(r"\((?:[^()]*\b(?:L\d+|[A-Z]+-?[RID]\d+|R\d+|D\d+)\b[^()]*)\)|\[[^\]]*\]|[*`]", "", body)
    body = " ".join(line.strip().lstrip("-* ").strip() for line in body.splitlines() if line.strip())
    sentence = re.split(r"(?<=[.:;])\s", body.strip(), maxsplit=1)[0].strip().rstrip(".:;").strip()
    sentence = re.sub(r"\s+([,.;:])", r"\1", re.sub(r"\s{2,}", " ", sentence))
    if len(sentence) <= limit:
        return sentence
    cut = sentence[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def normalize_rule_id(game: str, text: str) -> str:
    """``r12``, ``R12`` or ``zeta-r12`` as the full id ``ZETA-R12``."""
    raw = text.strip().upper()
    prefix = prefixes().get(game, "")
    if prefix and not raw.startswith(prefix + "-") and re.fullmatch(r"[A-Z]+(?:-[A-Z]+)?\d+[A-Z]?", raw):
        raw = f"{prefix}-{raw}"
    m = re.fullmatch(r"([A-Z]+-[A-Z]+(?:-[A-Z]+)?\d+)([A-Z]?)", raw)
    return m.group(1) + m.group(2).lower() if m else raw


def find_rule(game: str, rule_id: str) -> Rule:
    """The rule (or definition) ``rule_id`` of ``game`` (KeyError with close matches in its message if none)."""
    rules = rules_of(game)
    key = normalize_rule_id(game, rule_id)
    if key in rules:
        return rules[key]
    definitions = definitions_of(game)
    if key in definitions:
        return definitions[key]
    close = difflib.get_close_matches(key, list(rules), n=4, cutoff=0.6)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise KeyError(f"the {game} rulebook has no rule {rule_id!r}{hint} (ids look like {next(iter(rules))})")


def game_of_rule(rule_id: str) -> str | None:
    """The game whose rulebook a rule id belongs to, by prefix (``OSC-R3`` -> ``oscilloscope``)."""
    head = rule_id.strip().upper().split("-", 1)[0]
    for game, prefix in prefixes().items():
        if head == prefix:
            return game
    return None


# -- for players ------------------------------------------------------------------------------------
_LINE_REF = re.compile(r"(?<![\w`])L(?:\d+|##)(?:\s*[–-]\s*L?\d+)?(?![\w`])")
_FILL = re.compile(r"\s*(?:\*\*)?\[FILL\](?:\*\*)?")


def player_text(game: str, text: str) -> str:
    """Rulebook text as a player reads it: seed line numbers and ``[FILL]`` marks removed, short ledger and
    definition references (``[I48]``, ``D9``) written as full ids (``[OSC-I48]``, ``OSC-D9``)."""
    prefix = prefixes().get(game, "")
    out = _FILL.sub("", text)
    out = _LINE_REF.sub("", out)
    if prefix:
        out = re.sub(r"\[I(\d+[a-z]?)\]", rf"[{prefix}-I\1]", out)
        out = re.sub(r"\[I#\]", f"[{prefix}-I…]", out)
        if definitions_of(game):
            out = re.sub(r"(?<![\w-])D(\d+)\b(?!\()", rf"{prefix}-D\1", out)
    return _tidy(out)


def _tidy(text: str) -> str:
    """Punctuation left behind by removed citations: ``(, x)`` -> ``(x)``, ``()`` gone, ``a .`` -> ``a.``."""
    out = text
    for _ in range(3):
        out = re.sub(r"\(\s*[,;:]?\s*", "(", out)
        out = re.sub(r"\s*[,;:]\s*\)", ")", out)
        out = re.sub(r"[ \t]*\(\s*\)", "", out)
        out = re.sub(r"\[\s*[,;:]?\s*\]", "", out)
        out = re.sub(r"\(\s*(\[[^\]]+\](?:,\s*\[[^\]]+\])*)\s*\)", r"\1", out)
        out = re.sub(r"([,;:])\s*([,;:])", r"\2", out)
    out = re.sub(r"(?<=\S)[ \t]+([.,;:])(?=\s|$)", r"\1", out)
    return re.sub(r"(?<=\S)[ \t]{2,}", " ", out)


def player_rules(game: str) -> str:
    """The numbered rules for players: the rules section from its first chapter on, as :func:`player_text`."""
    text = rules_section(game)
    first = re.search(r"^## ", text, flags=re.MULTILINE)
    title = text.splitlines()[0] if text.startswith("# ") else ""
    body = text[first.start():] if first else text
    return player_text(game, (title + "\n\n" if title else "") + body)


HOWTO_LANGUAGES = ("en", "ja")
"""The languages of the how-to-play pages (the terminal and the web page offer both)."""


def has_howto(game: str, lang: str = "en") -> bool:
    """True if ``game`` ships a how-to-play page in ``lang``."""
    if lang not in HOWTO_LANGUAGES or not has_rulebook(game):
        return False
    return resources.files(registry.entry(game).rulebook).joinpath(f"howto.{lang}.md").is_file()


def howto_text(game: str, lang: str = "en") -> str:
    """The how-to-play page of ``game`` in ``lang`` (``en`` or ``ja``; ValueError if there is none)."""
    if not has_howto(game, lang):
        langs = [x for x in HOWTO_LANGUAGES if has_howto(game, x)]
        raise ValueError(f"no how-to-play page for {game!r} in {lang!r}"
                         + (f"; there is one in: {', '.join(langs)}" if langs else ""))
    return resources.files(registry.entry(game).rulebook).joinpath(f"howto.{lang}.md").read_text(encoding="utf-8")
