"""``cardtable print``: print-and-play PDF sheets of a game's cards (fronts and duplex backs, crop marks, bleed).

``register(app)`` adds the command to the main typer app. The PDF is made in memory and written
only once everything checked out, so bad input never leaves a file behind.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

from cardtable.core import registry

if TYPE_CHECKING:
    from cardtable.printing.sheets import GamePrinter, PrintOptions, PrintResult

__all__ = ["print_cards", "register"]

OPTION_GROUPS: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"decks", "skins", "no_limits"}), "--deck, --skin and --no-limits apply"),
    (frozenset({"options"}), "--options applies"),
    (frozenset({"cards", "lang", "only_changed"}), "--cards, --lang and --only-changed apply"),
)
"""The game options of the command, as the printers' ``takes`` name them, and how a refusal names them."""

REPORTLAB_HINT = "reportlab is needed for printing: pip install reportlab (it comes with cardtable's dependencies)"

console = Console()
err = Console(stderr=True)


def _fail(message: str, code: int = 2) -> None:
    """Print an error the way every cardtable command does, and exit."""
    err.print(f"[bold red]error:[/] {escape(message)}")
    raise typer.Exit(code)


def print_cards(
    game: Annotated[str, typer.Argument(help="zeta, oscilloscope or utahime.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The PDF file to write.")],
    deck: Annotated[list[str] | None, typer.Option(
        help="Zeta: a preset name or a TOML deck file; the first is player 1's, a second is player 2's "
             "(default: classic for both).")] = None,
    skin: Annotated[list[Path] | None, typer.Option(
        help="Zeta: a TOML skin file (title, [names]); once for both decks or once per deck.")] = None,
    no_limits: Annotated[bool, typer.Option(
        "--no-limits", help="Zeta: allow decks over the copy limits (like construction_limits=false).")] = False,
    options: Annotated[str | None, typer.Option(
        help="Utahime: an option set, a TOML file or a shipped set (designer_example).")] = None,
    paper: Annotated[str, typer.Option(help="Paper size: a4 or letter.")] = "a4",
    card: Annotated[str, typer.Option(help="Card size WIDTHxHEIGHT in mm (Zeta: within 70x96).")] = "63x88",
    bleed: Annotated[float, typer.Option(help="Bleed around every card in mm (0 to 5).")] = 2.0,
    cards: Annotated[Path | None, typer.Option(
        help="A card-set file (cardtable cards export): its numbers, with its name and hash on every card.")] = None,
    lang: Annotated[str | None, typer.Option(
        help="ja or en: the card text in that language, the designers' words, nothing under 7 pt.")] = None,
    only_changed: Annotated[Path | None, typer.Option(
        "--only-changed", help="An earlier card-set file: print only the cards whose numbers changed.")] = None,
    png: Annotated[Path | None, typer.Option(
        help="Also write one 300 dpi picture per card face and back into this folder.")] = None,
) -> None:
    """Write print-and-play sheets of a game's cards: fronts, mirrored backs for duplex, crop marks."""
    try:
        from cardtable.printing import PrintError, PrintOptions
    except ImportError:
        _fail(REPORTLAB_HINT)
        raise  # unreachable
    printers = _printers()
    printer = printers.get(game)
    if printer is None:
        if game in registry.game_names():
            _fail(f"the game {game!r} has no printable cards; games with cards to print: {', '.join(printers)}")
        _fail(f"unknown game {game!r}; choose one of: {', '.join(printers)}")
        return
    chosen = PrintOptions(decks=tuple(deck or ()), skins=tuple(skin or ()), no_limits=no_limits, options=options,
                          cards=cards, lang=lang, only_changed=only_changed)
    given = {"decks": bool(chosen.decks), "skins": bool(chosen.skins), "no_limits": no_limits,
             "options": options is not None, "cards": cards is not None, "lang": lang is not None,
             "only_changed": only_changed is not None}
    for names, words in OPTION_GROUPS:
        if any(given[n] for n in names) and not names <= printer.takes:
            takers = [name for name, p in printers.items() if names <= p.takes]
            _fail(f"{words} to {' and '.join(takers)} only")
    if output.is_dir():
        _fail(f"{output} is a folder; give the PDF file to write, e.g. -o {output / (game + '.pdf')}")
    try:
        result = _render(printer, chosen, paper, card, bleed)
        result.write(output)
        pictures = []
        if png is not None:
            from cardtable.printing.images import write_card_images

            pictures = write_card_images(result, png)
    except PrintError as exc:
        _fail(str(exc))
        return
    _report(game, output, result)
    if png is not None:
        console.print(f"wrote {len(pictures) - 1} pictures (300 dpi, a front and a back per card) into "
                      f"{escape(str(png))}; index.txt names them")


def _printers() -> dict[str, GamePrinter]:
    """The printer of every game whose kit names one, in the order the games were registered."""
    return {name: registry.part(name, "printer") for name in registry.registered() if registry.entry(name).printer}


def _render(printer: GamePrinter, options: PrintOptions, paper: str, card: str, bleed: float) -> PrintResult:
    """Check the sheet, then let the game's printer check its options and lay out and draw its cards."""
    from cardtable.printing import SheetSpec, parse_card_size, parse_paper
    from cardtable.printing.layout import check_bleed

    spec = SheetSpec(parse_paper(paper), parse_card_size(card), check_bleed(bleed))
    spec.layout()
    return printer.print_cards(spec, options)


def _report(game: str, output: Path, result: PrintResult) -> None:
    """Say where the file went and what is in it."""
    parts = ", ".join(f"{name} {n}" for name, n in result.groups().items())
    layout = result.layout
    console.print(f"wrote {escape(str(output))}: {result.pages} pages ({result.sheets} sheets: front, then back), "
                  f"{result.cards} cards ({escape(parts)})")
    console.print(f"{layout.paper.value}, {escape(str(layout.card))} cards, {layout.bleed:g} mm bleed, "
                  f"{layout.per_page} a sheet. Print at 100% (actual size) on both sides, flipping on the long "
                  f"edge; see docs/print.md for {game}.")


def register(app: typer.Typer) -> None:
    """Add the ``print`` command to the ``cardtable`` app."""
    app.command("print")(print_cards)
