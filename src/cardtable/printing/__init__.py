"""Print-and-play PDF sheets for every game (``cardtable print``).

``layout`` is the sheet geometry (paper, card size, bleed, duplex mirroring, crop marks),
``sheets`` the PDF writer, ``fonts`` the embedded Japanese font, ``draw`` the shared drawing
helpers, and ``zeta``, ``oscilloscope`` and ``utahime`` the card designs. Each game's
``print_*`` function returns a ``PrintResult`` holding the PDF; ``PrintResult.write`` saves it.
"""

from .layout import CardSize, Paper, PrintError, SheetLayout, parse_card_size, parse_paper
from .sheets import Placement, PrintCard, PrintJob, PrintResult, SheetSpec, render

__all__ = [
    "CardSize", "Paper", "Placement", "PrintCard", "PrintError", "PrintJob", "PrintResult", "SheetLayout",
    "SheetSpec", "parse_card_size", "parse_paper", "render",
]
