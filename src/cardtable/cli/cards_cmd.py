"""``cardtable cards``: a game's numbers as a card-set file: export, check, compare, and the flags that play it.

A designer exports a game's numbers (``cardtable cards export zeta > set.toml``), edits them, checks the
file, and plays it with ``--cards set.toml`` in ``play``, ``lab``, ``print`` and ``serve``. The other
commands call :func:`rules_with_cards` to add a set's rule flags to their ``--rules``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cardtable.cli.options import console, fail

if TYPE_CHECKING:
    from cardtable.core.cardset import CardSet

__all__ = ["cards_app", "load_set", "register", "rules_with_cards"]

cards_app = typer.Typer(
    name="cards", help="Card sets: a game's numbers as a file to edit, check and play (--cards FILE).",
    no_args_is_help=True, add_completion=False, rich_markup_mode=None, pretty_exceptions_enable=False)

LangOpt = Annotated[str, typer.Option("--lang", help="Comments and card text in en or ja.")]


def load_set(path: Path | str, game: str | None = None) -> CardSet:
    """Read and check a card-set file, or exit 2 with every problem (each naming the card and the rule)."""
    from cardtable.core.cardset import CardSetError, load

    try:
        return load(path, game)
    except CardSetError as exc:
        fail(str(exc))


def rules_with_cards(game: str, rules: Sequence[str] | None, cards: Path | str | None) -> list[str]:
    """``--rules`` strings with a card set's flags first (a ``--rules`` flag given as well wins)."""
    out = list(rules or [])
    if cards is None:
        return out
    cs = load_set(cards, game)
    return [f"{k}={_text(v)}" for k, v in cs.rule_flags().items()] + out


def _text(value: Any) -> str:
    """A flag value as ``--rules`` takes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _check_lang(lang: str) -> None:
    if lang not in ("en", "ja"):
        fail(f"--lang must be en or ja, not {lang!r}")


@cards_app.command("export")
def export(
    game: Annotated[str, typer.Argument(help="zeta, oscilloscope or utahime.")],
    start: Annotated[Path | None, typer.Option("--from", help="Start from this card-set file, not the rulebook.")] = None,
    name: Annotated[str | None, typer.Option(help="The set's name (default: rulebook, or the --from set's).")] = None,
    lang: LangOpt = "en",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the file here, not on stdout.")] = None,
) -> None:
    """Write every number the rulebook gives a card or a component, as a card-set file (TOML)."""
    from cardtable.core import cardset, registry

    _check_lang(lang)
    try:
        registry.entry(game)
        cs = load_set(start, game) if start is not None else cardset.default_set(game)
    except (ValueError, LookupError) as exc:
        fail(str(exc))
    if name:
        cs = cardset.CardSet(cs.game, name, cs.values, cs.flags)
    if output is None:
        typer.echo(cs.to_toml(lang), nl=False)
        return
    try:
        output.write_text(cs.to_toml(lang), encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {output}: {exc.strerror or exc}")
    console().print(f"wrote {output}: the {cs.game} card set {cs.name!r} #{cs.hash}; edit it, then "
                    f"cardtable cards check {output}", markup=False)


@cards_app.command("check")
def check(path: Annotated[Path, typer.Argument(help="A card-set file.")]) -> None:
    """Check a card-set file: every problem, naming the card and the rule (exit 2), or what it changes."""
    cs = load_set(path)
    _show_changes(cs)


def _show_changes(cs: CardSet) -> None:
    """The set's name, hash and changes, as a person reads them."""
    from cardtable.core.cardset import default_set, diff, spec_of

    out = console()
    spec = spec_of(cs.game)
    changes = diff(default_set(cs.game), cs)
    out.print(f"{cs.game} card set {cs.name!r} #{cs.hash}: ok", markup=False)
    if not changes and not cs.flags:
        out.print("  the rulebook's numbers", markup=False)
    for key, (old, new) in changes.items():
        out.print(f"  {spec.describe(key)}: {old} -> {new}", markup=False)
    for flag, value in cs.flags.items():
        out.print(f"  rule flag {flag} = {_text(value)}", markup=False)


@cards_app.command("diff")
def diff_cmd(
    old: Annotated[Path, typer.Argument(help="The earlier card-set file.")],
    new: Annotated[Path, typer.Argument(help="The later card-set file.")],
) -> None:
    """The numbers and rule flags two card sets of one game give differently."""
    from cardtable.core.cardset import diff, spec_of

    a, b = load_set(old), load_set(new)
    if a.game != b.game:
        fail(f"{old} is a {a.game} set and {new} a {b.game} set")
    spec = spec_of(a.game)
    out = console()
    changes = diff(a, b)
    for key, (x, y) in changes.items():
        out.print(f"{spec.describe(key)}: {x} -> {y}", markup=False)
    for flag in sorted(set(a.flags) | set(b.flags)):
        if a.flags.get(flag) != b.flags.get(flag):
            out.print(f"rule flag {flag}: {a.flags.get(flag)!r} -> {b.flags.get(flag)!r}", markup=False)
    if not changes and a.flags == b.flags:
        out.print("the two sets give the same numbers", markup=False)


@cards_app.command("flags")
def flags_cmd(
    path: Annotated[Path, typer.Argument(help="A card-set file.")],
    as_json: Annotated[bool, typer.Option("--json", help="A JSON object (for the API's rules of a room).")] = False,
) -> None:
    """The rule flags that play a card set: ``--rules`` arguments, or JSON for a room's rules."""
    cs = load_set(path)
    flags = cs.rule_flags()
    if as_json:
        typer.echo(json.dumps(flags, ensure_ascii=False))
    else:
        typer.echo(" ".join(f"--rules '{k}={_text(v)}'" for k, v in flags.items()))


def register(app: typer.Typer) -> None:
    """Add ``cards`` to the main app."""
    app.add_typer(cards_app, name="cards")
