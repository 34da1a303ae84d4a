"""The rulebooks shipped with the package, and the numbered rules in them (``ZETA-R12``, ``OSC-R3``, ``UTA-I7``).

A rule starts at a bold heading that opens a line (``**ZETA-R12: Sequence of a turn.**``,
``* **OSC-R1 (decks).** ...``, ``**UTA-I4 — Option card budget.**``) and runs until the next rule
heading at the same or a shallower indent, a Markdown heading or a horizontal rule.

>>> find_rule("zeta", "ZETA-R31").title
'Hand size'
>>> find_rule("oscilloscope", "r2").id
'OSC-R2'
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
_SECTION = re.compile(r"^(#{1,6}\s|---\s*$)")


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
    title = rest.split("**", 1)[0].strip().lstrip(":—-").strip().removesuffix(".")
    if title.startswith("(") and title.endswith(")"):
        title = title[1:-1]
    return title.strip()


@cache
def rules_of(game: str) -> dict[str, Rule]:
    """Every numbered rule of a game's rulebook by id, in rulebook order."""
    lines = rulebook_text(game).splitlines()
    out: dict[str, Rule] = {}
    i = 0
    while i < len(lines):
        m = _HEADING.match(lines[i])
        if not m or m.group("id") in out:
            i += 1
            continue
        indent = len(m.group("indent"))
        body = [lines[i][indent:]]
        j = i + 1
        while j < len(lines):
            line = lines[j]
            nxt = _HEADING.match(line)
            if _SECTION.match(line) or (nxt and len(nxt.group("indent")) <= indent):
                break
            if line.strip() and len(line) - len(line.lstrip()) < indent:
                break
            body.append(line[indent:] if line[:indent].strip() == "" else line)
            j += 1
        while body and not body[-1].strip():
            body.pop()
        out[m.group("id")] = Rule(m.group("id"), _title(m.group("rest")), "\n".join(body))
        i = j
    return out


def normalize_rule_id(game: str, text: str) -> str:
    """``r12``, ``R12`` or ``zeta-r12`` as the full id ``ZETA-R12``."""
    raw = text.strip().upper()
    prefix = prefixes().get(game, "")
    if prefix and not raw.startswith(prefix + "-") and re.fullmatch(r"[A-Z]+(?:-[A-Z]+)?\d+[A-Z]?", raw):
        raw = f"{prefix}-{raw}"
    m = re.fullmatch(r"([A-Z]+-[A-Z]+(?:-[A-Z]+)?\d+)([A-Z]?)", raw)
    return m.group(1) + m.group(2).lower() if m else raw


def find_rule(game: str, rule_id: str) -> Rule:
    """The rule ``rule_id`` of ``game`` (KeyError with close matches in its message if there is none)."""
    rules = rules_of(game)
    key = normalize_rule_id(game, rule_id)
    if key in rules:
        return rules[key]
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
