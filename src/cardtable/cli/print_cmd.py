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

if TYPE_CHECKING:
    from cardtable.printing.sheets import PrintResult

__all__ = ["print_cards", "register"]

GAMES = ("zeta", "oscilloscope", "utahime")
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
) -> None:
    """Write print-and-play sheets of a game's cards: fronts, mirrored backs for duplex, crop marks."""
    if game not in GAMES:
        _fail(f"unknown game {game!r}; choose one of: {', '.join(GAMES)}")
    if game != "zeta" and (deck or skin or no_limits):
        _fail("--deck, --skin and --no-limits apply to zeta only")
    if game != "utahime" and options is not None:
        _fail("--options applies to utahime only")
    if output.is_dir():
        _fail(f"{output} is a folder; give the PDF file to write, e.g. -o {output / (game + '.pdf')}")
    try:
        from cardtable.printing import PrintError
    except ImportError:
        _fail(REPORTLAB_HINT)
        raise  # unreachable
    try:
        result = _render(game, deck or [], skin or [], no_limits, options, paper, card, bleed)
        result.write(output)
    except PrintError as exc:
        _fail(str(exc))
        return
    _report(game, output, result)


def _render(game: str, decks: list[str], skins: list[Path], no_limits: bool, options: str | None, paper: str,
            card: str, bleed: float) -> PrintResult:
    """Check every option, then lay out and draw the game's cards (nothing is written here)."""
    from cardtable.printing import SheetSpec, parse_card_size, parse_paper
    from cardtable.printing.layout import check_bleed

    spec = SheetSpec(parse_paper(paper), parse_card_size(card), check_bleed(bleed))
    spec.layout()
    if game == "zeta":
        from cardtable.printing.zeta import check_card_size, load_deck, load_skin, print_zeta

        check_card_size(spec.card)
        loaded = [load_deck(d, limits=not no_limits) for d in (decks or ["classic"])]
        return print_zeta(loaded, spec, [load_skin(s) for s in skins])
    if game == "oscilloscope":
        from cardtable.printing.oscilloscope import print_oscilloscope

        return print_oscilloscope(spec)
    from cardtable.printing.utahime import load_option_set, print_utahime

    return print_utahime(load_option_set(options) if options is not None else None, spec)


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
