"""Print-and-play PDF sheets for every game (``cardtable print``).

``layout`` is the sheet geometry (paper, card size, bleed, duplex mirroring, crop marks),
``sheets`` the PDF writer, ``fonts`` the embedded Japanese font, ``draw`` the shared drawing
helpers, and ``zeta``, ``oscilloscope`` and ``utahime`` the card designs. Each game's design
module holds its ``PRINTER``, a :class:`GamePrinter` its kit names (``GameKit.printer``): the
print options it takes and a function that returns a ``PrintResult`` holding the PDF;
``PrintResult.write`` saves it. ``cardtable print`` finds the printer through the kit and never
names a game.
"""

from .layout import CardSize, Paper, PrintError, SheetLayout, parse_card_size, parse_paper
from .sheets import GamePrinter, Placement, PrintCard, PrintJob, PrintOptions, PrintResult, SheetSpec, render

__all__ = [
    "CardSize", "GamePrinter", "Paper", "Placement", "PrintCard", "PrintError", "PrintJob", "PrintOptions",
    "PrintResult", "SheetLayout", "SheetSpec", "parse_card_size", "parse_paper", "render",
]
