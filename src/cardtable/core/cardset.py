"""Card sets: a game's numbers as a data file that a designer edits, checks and plays with.

A game's ``cardset`` facet is a :class:`CardSetSpec`: every number its rulebook gives a card or a
component (a Zeta card's cost, copy limit and effect numbers; Utahime's energy and option budget;
Oscilloscope's deck composition), each with its default, its range and the rule that gives it. A
:class:`CardSet` is a value of every number plus the rule flags a designer sets beside them (seat
compensations). It becomes rule flags (:meth:`CardSet.rule_flags`): numbers that are rule flags go
there by name, the others travel in the game's ``cards`` flag as ``item.field=value;...`` (only those
that differ from the rulebook), so records, rooms and lab runs carry the set, and a record replays
only with its own set. The engine reads the numbers from tables built from that flag at run time.

>>> spec = CardSetSpec("toy", (Item("ice", "氷", "Ice"),), (Number("ice", "cost", 3, rule="TOY-R1"),))
>>> encode_changes({"ice.cost": 6})
'ice.cost=6'
>>> decode_changes(spec, "ice.cost=6")
{'ice.cost': 6}
>>> decode_changes(spec, "ice.cost=-1")
Traceback (most recent call last):
...
ValueError: card set: ice.cost (Ice, TOY-R1): -1 is below the least allowed value 0
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT = 1
"""The version of the card-set file format."""

DEFAULT_NAME = "rulebook"
"""The name of a game's own numbers (the set a game has with no card set)."""


class CardSetError(ValueError):
    """A card set that cannot be used: every problem, each naming the card (or component) and the rule."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        lines = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"{source}: {len(problems)} problem(s):\n{lines}")


@dataclass(frozen=True)
class Item:
    """A card or a component that has numbers: its id, its names in Japanese and English, its rule."""

    id: str
    ja: str
    en: str
    rule: str = ""
    kind: str = "card"
    """``card`` (a card type) or ``component`` (a game's component or setup)."""


@dataclass(frozen=True)
class Number:
    """One number of a card set: which item and field, its rulebook value, its range and its rule."""

    item: str
    field: str
    default: int
    minimum: int = 0
    maximum: int = 99
    rule: str = ""
    flag: str = ""
    """The rule flag that holds this number; empty: it travels in the game's ``cards`` flag."""
    fixed: bool = False
    """True: exported for the designer to read, but the engine does not read it from the set yet."""
    doc: str = ""

    @property
    def key(self) -> str:
        """``item.field``, as the ``cards`` flag and the sweeps name it."""
        return f"{self.item}.{self.field}"


Checker = Callable[[Mapping[str, int], Mapping[str, Any]], list[str]]
"""A game's cross checks of a whole set: (every number by key, the set's rule flags) -> problems."""


def _no_checks(values: Mapping[str, int], flags: Mapping[str, Any]) -> list[str]:
    """No cross checks."""
    return []


@dataclass(frozen=True)
class CardSetSpec:
    """What a game's card set holds: its items, its numbers and its cross checks."""

    game: str
    items: tuple[Item, ...]
    numbers: tuple[Number, ...]
    cards_flag: str = "cards"
    """The rule flag that carries the changed numbers without a flag of their own ("" if none)."""
    check: Checker = _no_checks
    texts: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Card text by language then item id (the designers' words), for printing and the export."""

    def item(self, item_id: str) -> Item:
        """The item with this id (KeyError if none)."""
        for it in self.items:
            if it.id == item_id:
                return it
        raise KeyError(item_id)

    def number(self, key: str) -> Number:
        """The number ``item.field`` (ValueError naming the valid keys of that item if unknown)."""
        for n in self.numbers:
            if n.key == key:
                return n
        item, _, _ = key.partition(".")
        mine = [n.key for n in self.numbers if n.item == item]
        hint = f"; {item} has: {', '.join(mine)}" if mine else f"; items: {', '.join(i.id for i in self.items)}"
        raise ValueError(f"card set: no number {key!r} in {self.game}{hint}")

    def defaults(self) -> dict[str, int]:
        """Every number's rulebook value, by key."""
        return {n.key: n.default for n in self.numbers}

    def describe(self, key: str) -> str:
        """``key (English name, RULE)`` for messages."""
        n = self.number(key)
        try:
            name = self.item(n.item).en
        except KeyError:
            name = n.item
        return f"{key} ({name}, {n.rule})" if n.rule else f"{key} ({name})"


def range_problem(spec: CardSetSpec, key: str, value: object) -> str | None:
    """Why ``value`` cannot be the number ``key`` (None if it can)."""
    n = spec.number(key)
    if not isinstance(value, int) or isinstance(value, bool):
        return f"{spec.describe(key)}: {value!r} is not a whole number"
    if n.fixed and value != n.default:
        return (f"{spec.describe(key)}: {value}: this number is fixed at {n.default} in this version "
                f"(the engine does not read it from a card set yet)")
    if value < n.minimum:
        return f"{spec.describe(key)}: {value} is below the least allowed value {n.minimum}"
    if value > n.maximum:
        return f"{spec.describe(key)}: {value} is above the largest allowed value {n.maximum}"
    return None


def encode_changes(changes: Mapping[str, int]) -> str:
    """The ``cards`` flag's text of some changed numbers: ``key=value`` pairs joined by ``;``, sorted."""
    return ";".join(f"{k}={changes[k]}" for k in sorted(changes))


def decode_changes(spec: CardSetSpec, text: str) -> dict[str, int]:
    """Read a ``cards`` flag's text back to numbers, checking each (ValueError naming the card and rule)."""
    out: dict[str, int] = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        key, eq, raw = part.partition("=")
        key = key.strip()
        if not eq:
            raise ValueError(f"card set: {part!r} is not item.field=value")
        n = spec.number(key)
        if n.flag:
            raise ValueError(f"card set: {key} is the rule flag {n.flag!r}: set that flag instead")
        try:
            value = int(raw.strip())
        except ValueError:
            raise ValueError(f"card set: {spec.describe(key)}: {raw.strip()!r} is not a whole number") from None
        problem = range_problem(spec, key, value)
        if problem:
            raise ValueError(f"card set: {problem}")
        out[key] = value
    return out


@dataclass(frozen=True)
class CardSet:
    """A game's numbers (every one, by key) and the rule flags set beside them, under a name."""

    game: str
    name: str
    values: Mapping[str, int]
    flags: Mapping[str, Any] = field(default_factory=dict)

    def changed(self) -> dict[str, int]:
        """The numbers that differ from the rulebook's, by key."""
        defaults = spec_of(self.game).defaults()
        return {k: v for k, v in self.values.items() if defaults[k] != v}

    def rule_flags(self) -> dict[str, Any]:
        """The rule flags that play this set: its flags, the numbers that are flags, and the ``cards`` flag."""
        spec = spec_of(self.game)
        out = dict(self.flags)
        rest: dict[str, int] = {}
        for key, value in self.changed().items():
            n = spec.number(key)
            if n.flag:
                out[n.flag] = value
            else:
                rest[key] = value
        if rest:
            out[spec.cards_flag] = encode_changes(rest)
        return out

    @property
    def hash(self) -> str:
        """A short fingerprint of what the set changes (the same for every set that plays the same)."""
        return set_hash(self.game, self.rule_flags())

    @property
    def stamp(self) -> str:
        """The version stamp printed on cards: the set's name and hash."""
        return f"{self.name} #{self.hash}"

    def load_game(self, **more_flags: Any) -> Any:
        """The game under this set's flags (and any more flags)."""
        from .registry import load_game

        return load_game(self.game, **{**self.rule_flags(), **more_flags})

    def with_values(self, name: str | None = None, **changes: int) -> CardSet:
        """A copy with some numbers changed (keys as ``item__field`` or through :meth:`replace`)."""
        return self.replace({k.replace("__", "."): v for k, v in changes.items()}, name=name)

    def replace(self, changes: Mapping[str, int], *, name: str | None = None,
                flags: Mapping[str, Any] | None = None) -> CardSet:
        """A copy with these numbers (by key) and flags changed, checked."""
        values = dict(self.values)
        values.update(changes)
        out = CardSet(self.game, name or self.name, values, {**self.flags, **(flags or {})})
        out.check()
        return out

    def check(self, source: str = "card set") -> None:
        """Raise :class:`CardSetError` listing every problem (ranges, rule flags, the game's cross checks)."""
        problems = set_problems(self)
        if problems:
            raise CardSetError(source, problems)

    def to_toml(self, lang: str = "en") -> str:
        """The set as a card-set file (``cardtable cards export``): every item, number and rule."""
        return to_toml(self, lang)


def set_hash(game: str, flags: Mapping[str, Any]) -> str:
    """The fingerprint of a game's rule flags as far as they differ from the defaults (10 hex digits)."""
    from .registry import game_class

    rules = game_class(game).Rules.from_flags(**dict(flags))
    text = json.dumps({"game": game, "flags": rules.changed_flags()}, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def spec_of(game: str) -> CardSetSpec:
    """The card-set spec of a game (its ``cardset`` facet)."""
    from .registry import part

    spec: CardSetSpec = part(game, "cardset")
    return spec


def default_set(game: str) -> CardSet:
    """The game's own numbers, as a card set named ``rulebook``."""
    return CardSet(game, DEFAULT_NAME, spec_of(game).defaults(), {})


def set_from_flags(game: str, flags: Mapping[str, Any], name: str = "") -> CardSet:
    """The card set a game's rule flags play (a record's or a room's), with the other flags kept as they are."""
    spec = spec_of(game)
    values = spec.defaults()
    rest = dict(flags)
    text = rest.pop(spec.cards_flag, "") if spec.cards_flag else ""
    values.update(decode_changes(spec, str(text)))
    by_flag = {n.flag: n.key for n in spec.numbers if n.flag}
    for flag_name in list(rest):
        if flag_name in by_flag:
            values[by_flag[flag_name]] = rest.pop(flag_name)
    cs = CardSet(game, name or DEFAULT_NAME, values, rest)
    return CardSet(game, name or (DEFAULT_NAME if not cs.rule_flags() else f"set-{cs.hash}"), values, rest)


def set_problems(cs: CardSet) -> list[str]:
    """Every problem of a set: a number out of range or unknown, a bad rule flag, the game's cross checks."""
    spec = spec_of(cs.game)
    problems: list[str] = []
    known = spec.defaults()
    for key, value in cs.values.items():
        if key not in known:
            try:
                spec.number(key)
            except ValueError as exc:
                problems.append(str(exc).removeprefix("card set: "))
            continue
        problem = range_problem(spec, key, value)
        if problem:
            problems.append(problem)
    numbered = {n.flag for n in spec.numbers if n.flag}
    for name in cs.flags:
        if name in numbered:
            key = next(n.key for n in spec.numbers if n.flag == name)
            problems.append(f"[rules] {name}: this is the number {key}; set it there, not in [rules]")
        elif name == spec.cards_flag:
            problems.append(f"[rules] {name}: written by the set itself from its numbers; remove it")
    if problems:
        return problems
    problems += spec.check(cs.values, cs.flags)
    if problems:  # the game's own checks name the card and the rule; the rules would say it again
        return problems
    try:
        cs.load_game()
    except ValueError as exc:
        problems.append(f"rule flags: {exc}")
    return problems


def from_mapping(data: Mapping[str, Any], source: str = "card set", game: str | None = None) -> CardSet:
    """Read a parsed card-set file (every problem at once, as :class:`CardSetError`)."""
    problems: list[str] = []
    head = data.get("set", {})
    if not isinstance(head, Mapping):
        raise CardSetError(source, ["[set] must be a table: game, name"])
    game_name = head.get("game", game)
    if not isinstance(game_name, str):
        raise CardSetError(source, ["[set] game = \"zeta\" (the game the set is for) is missing"])
    if game is not None and game_name != game:
        raise CardSetError(source, [f"this set is for {game_name!r}, not {game!r}"])
    fmt = head.get("format", FORMAT)
    if fmt != FORMAT:
        raise CardSetError(source, [f"card-set format {fmt!r} is not supported (this version reads {FORMAT})"])
    try:
        spec = spec_of(game_name)
    except (ValueError, LookupError) as exc:
        raise CardSetError(source, [str(exc)]) from None
    name = head.get("name", Path(source).stem if source.endswith(".toml") else "custom")
    if not isinstance(name, str) or not name.strip():
        problems.append("[set] name must be text")
        name = "custom"
    values = spec.defaults()
    items = {i.id: i for i in spec.items}
    by_item: dict[str, dict[str, Number]] = {}
    for n in spec.numbers:
        by_item.setdefault(n.item, {})[n.field] = n
    for section in ("cards", "components"):
        table = data.get(section, {})
        if not isinstance(table, Mapping):
            problems.append(f"[{section}] must hold tables, one per item")
            continue
        for item_id, entry in table.items():
            if item_id not in items:
                problems.append(f"[{section}.{item_id}]: no such item in {game_name}; items: {', '.join(items)}")
                continue
            if not isinstance(entry, Mapping):
                problems.append(f"[{section}.{item_id}] must be a table")
                continue
            for key, value in entry.items():
                if key in ("ja", "en", "rule", "text_ja", "text_en", "kind"):
                    continue
                number = by_item.get(item_id, {}).get(key)
                if number is None:
                    fields_ = ", ".join(by_item.get(item_id, {})) or "no numbers"
                    problems.append(f"{item_id} ({items[item_id].en}): no number {key!r}; it has: {fields_}")
                    continue
                problem = range_problem(spec, number.key, value)
                if problem:
                    problems.append(problem)
                else:
                    values[number.key] = value
    flags = data.get("rules", {})
    if not isinstance(flags, Mapping):
        problems.append("[rules] must be a table of rule flags")
        flags = {}
    extra = set(data) - {"set", "cards", "components", "rules"}
    if extra:
        problems.append(f"unknown section(s) {', '.join(sorted(extra))}; a card set has [set], [rules], [cards], "
                        "[components]")
    if problems:
        raise CardSetError(source, problems)
    cs = CardSet(game_name, name.strip(), values, dict(flags))
    cs.check(source)
    return cs


def from_toml(text: str, source: str = "card set", game: str | None = None) -> CardSet:
    """Read a card-set file's text (CardSetError for bad TOML or bad numbers)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CardSetError(source, [f"not valid TOML: {exc}"]) from None
    return from_mapping(data, source, game)


def load(path: str | Path, game: str | None = None) -> CardSet:
    """Read a card-set file (``cardtable cards export GAME > set.toml``, then edited)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise CardSetError(str(path), [f"cannot read it: {exc.strerror or exc}"]) from None
    return from_toml(text, str(path), game)


def _toml_value(value: Any) -> str:
    """One TOML value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return json.dumps(str(value), ensure_ascii=False)


def to_toml(cs: CardSet, lang: str = "en") -> str:
    """Write a card set as a file: a header, [set], [rules], then one table per card and component."""
    spec = spec_of(cs.game)
    ja = lang == "ja"
    lines = [
        f"# {cs.game} の カードセット" if ja else f"# A card set of {cs.game}: every number its rulebook gives a card or a component.",
        "# 数値を書き換えて --cards FILE で使います(cardtable cards check FILE で確認)。" if ja else
        "# Edit the numbers and use it with --cards FILE (check it with: cardtable cards check FILE).",
        "# 「固定」の数値はこの版ではまだ変えられません。" if ja else
        "# Numbers marked 'fixed' are shown for reference: this version does not read them from a set yet.",
        "",
        "[set]",
        f"game = {_toml_value(cs.game)}",
        f"name = {_toml_value(cs.name)}",
        f"format = {FORMAT}",
        "",
        "[rules]",
        "# 席の補正などのルールフラグ(cardtable games で一覧)" if ja else
        "# rule flags set with the numbers: seat compensations and variants (see: cardtable games)",
    ]
    lines += [f"{k} = {_toml_value(v)}" for k, v in cs.flags.items()]
    texts = spec.texts.get(lang, {})
    for item in spec.items:
        nums = [n for n in spec.numbers if n.item == item.id]
        if not nums:
            continue
        section = "cards" if item.kind == "card" else "components"
        lines += ["", f"[{section}.{item.id}]", f"ja = {_toml_value(item.ja)}", f"en = {_toml_value(item.en)}"]
        if item.rule:
            lines.append(f"rule = {_toml_value(item.rule)}")
        if item.id in texts:
            lines.append(f"text_{lang} = {_toml_value(texts[item.id])}")
        for n in nums:
            note = [n.rule] if n.rule else []
            if n.doc:
                note.append(n.doc)
            if n.flag:
                note.append(f"flag {n.flag}")
            note.append(f"{n.minimum}-{n.maximum}")
            if n.fixed:
                note.append("固定" if ja else "fixed")
            lines.append(f"{n.field} = {cs.values[n.key]}  # {', '.join(note)}")
    return "\n".join(lines) + "\n"


def diff(old: CardSet, new: CardSet) -> dict[str, tuple[int, int]]:
    """The numbers two sets of one game give differently: key -> (old, new)."""
    return {k: (old.values[k], v) for k, v in new.values.items() if old.values.get(k) != v}


def changed_items(old: CardSet, new: CardSet) -> list[str]:
    """The ids of the items whose numbers differ between two sets, in the spec's order."""
    keys = diff(old, new)
    items = {k.partition(".")[0] for k in keys}
    return [i.id for i in spec_of(new.game).items if i.id in items]
