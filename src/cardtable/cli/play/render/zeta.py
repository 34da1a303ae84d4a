"""Zeta's screen: the board with owners' colours, the hand with costs and what is placeable, piles, effects.

Two layouts: the full one (two-line squares, the hand with every effect) and the compact one that
fits an 80x24 terminal (one-line squares, the hand in a line). ``COMMANDS`` adds Zeta's own prompt
command (``threes``), and ``forced_reason`` says why a person's only choice is forced.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cardtable.games.zeta.board import FILES, geometry
from cardtable.games.zeta.cards import CARD_BY_ID, CardType

from .common import Context, count_line, describe_pending, last_move_line, seat_style, seat_text, title_line

PHASE_RULES = {"do_over": "ZETA-R38", "fortune": "ZETA-R39", "mourn": "ZETA-R57", "line": "ZETA-R59",
               "mulligan": "ZETA-R11", "main": "ZETA-R12"}


def _card(card_id: str) -> CardType | None:
    return CARD_BY_ID.get(card_id)


def _short(card_id: str) -> str:
    c = _card(card_id)
    return c.short if c else card_id


def kind_symbol(c: CardType | None) -> str:
    """◯ a Fanfare, × a continuous effect, · no effect (Chant Practice, ZETA-R36), for the legend and the cells."""
    if c is None:
        return "?"
    if c.fanfare:
        return "◯"
    return "·" if c.effect.lower().startswith("no effect") else "×"


LEGEND = ("◯ Fanfare  × continuous  · no effect  ◎ target  ★ resolving  ◆ winning line\n"
          "▒ blocked  Pn mark: a card of Pn was destroyed there")
"""What the board's symbols mean (ZETA-R32, R33, R36)."""

COMPACT_LEGEND = "◎ target  ★ resolving  ◆ winning line  ▒ blocked  pN: PN's card destroyed there"
"""The compact board's symbols (its squares show owner and name; ``hand`` shows costs and effects)."""


def _board_size(view: Mapping[str, Any], ctx: Context) -> tuple[int, int]:
    """Board width and height from the rule flags (6x6 unless the flags say otherwise)."""
    return int(ctx.rules.get("board_width", 6)), int(ctx.rules.get("board_height", 6))


def render_board(view: Mapping[str, Any], ctx: Context) -> Table:
    """The grid, top rank first: short name and owner/cost per card, blocked squares, targets, markers.

    In the compact layout each square is one line: ``2 Fire`` (owner, short name), the square's name
    when it is empty. ``ctx.marks`` (the winning line) are marked ◆.
    """
    width, height = _board_size(view, ctx)
    board: Mapping[str, Any] = view.get("board", {})
    blocked = set(view.get("blocked", []))
    markers: Mapping[str, int] = view.get("markers", {})
    pending = view.get("pending") or {}
    targets = set(pending.get("targets") or [])
    source_square = pending.get("square") if pending else None
    marks = set(ctx.marks)
    table = Table(box=box.SIMPLE_HEAD if ctx.compact else box.SQUARE, show_header=True, header_style="dim",
                  padding=(0, 1), show_lines=not ctx.compact, pad_edge=not ctx.compact,
                  show_edge=not ctx.compact)
    table.add_column("", justify="right", style="dim", no_wrap=True)
    for f in range(width):
        table.add_column(FILES[f], justify="left" if ctx.compact else "center", width=8, no_wrap=True)
    cell = _compact_cell if ctx.compact else _cell
    for r in range(height - 1, -1, -1):
        cells: list[Text] = []
        for f in range(width):
            sq = f"{FILES[f]}{r + 1}"
            cells.append(cell(sq, board.get(sq), sq in blocked, markers.get(sq),
                              "◎" if sq in targets else "★" if sq == source_square else "◆" if sq in marks else ""))
        table.add_row(str(r + 1), *cells)
    return table


def _cell(sq: str, item: Mapping[str, Any] | None, blocked: bool, marker: int | None, mark: str) -> Text:
    """One square as two lines of text."""
    if blocked:
        return Text("▒▒▒▒▒▒\nblocked", style="dim")
    if item is None:
        second = f"P{marker + 1} mark" if marker is not None else sq
        return Text((f"{mark} " if mark else "") + "\n" + second, style="dim")
    owner = int(item["owner"])
    c = _card(str(item["card"]))
    name = c.short if c else str(item["card"])
    cost = c.cost if c else "?"
    cell = Text()
    cell.append(f"{mark}{name}", style=seat_style(owner) + (" reverse" if mark in ("◎", "◆") else ""))
    cell.append(f"\nP{owner + 1} {kind_symbol(c)}{cost}", style=seat_style(owner).replace("bold ", ""))
    return cell


def _compact_cell(sq: str, item: Mapping[str, Any] | None, blocked: bool, marker: int | None, mark: str) -> Text:
    """One square as one line of at most 8 characters."""
    if blocked:
        return Text("▒▒▒▒▒▒", style="dim")
    if item is None:
        return Text(f"{mark}{sq}" + (f" p{marker + 1}" if marker is not None else ""), style="dim")
    owner = int(item["owner"])
    c = _card(str(item["card"]))
    name = (c.short if c else str(item["card"]))[:6]
    return Text(f"{owner + 1}{mark or ' '}{name}", style=seat_style(owner) + (" reverse" if mark in ("◎", "◆") else ""))


def placeable_cards(ctx: Context) -> set[str]:
    """Card ids the viewer may place now, read from the legal actions (``CARD@SQUARE``)."""
    return {a.split("@", 1)[0] for a in ctx.legal if "@" in a}


def render_hand(cards: list[str], ctx: Context) -> Table:
    """The viewer's hand: one row per card type with count, cost, kind, placeable mark and effect."""
    ok = placeable_cards(ctx)
    counts = Counter(cards)
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), title="Your hand", title_justify="left", title_style="bold")
    table.add_column("card", no_wrap=True)
    table.add_column("cost", justify="right")
    table.add_column("placeable", justify="center")
    table.add_column("effect")
    ordered = sorted(counts, key=lambda cid: (getattr(_card(cid), "cost", 99), cid))
    for cid in ordered:
        c = _card(cid)
        n = counts[cid]
        label = Text(f"{c.short if c else cid}", style="bold")
        label.append(f" {cid}" + (f" x{n}" if n > 1 else ""), style="")
        kind = f"{kind_symbol(c)} " if c else ""
        effect = f"{kind}{c.effect} [{c.rule}]" if c else ""
        table.add_row(label, str(c.cost) if c else "?", "✓" if cid in ok else "", effect)
    if not cards:
        table.add_row(Text("(empty)", style="dim"), "", "", "")
    return table


def render_hand_line(cards: list[str], ctx: Context, view: Mapping[str, Any] | None = None) -> Text:
    """The compact hand: ``✓Chant x5 (0) · ✓Wind (5) · Blaze (9)``; ✓ marks what may be placed now."""
    ok = placeable_cards(ctx)
    counts = Counter(cards)
    board_count = len(view.get("board", {})) if view else 0
    out = Text("Hand ", style="bold")
    out.append(f"(cost; ✓ placeable; {board_count} on the board, the most a card may cost [ZETA-R14]): ",
               style="dim")
    ordered = sorted(counts, key=lambda cid: (getattr(_card(cid), "cost", 99), cid))
    for k, cid in enumerate(ordered):
        c = _card(cid)
        if k:
            out.append(" · ")
        out.append(("✓" if cid in ok else "") + (c.short if c else cid), style="bold" if cid in ok else "")
        out.append((f" x{counts[cid]}" if counts[cid] > 1 else "") + f" {c.cost if c else '?'}")
    if not cards:
        out.append("(empty)", style="dim")
    return out


def describe_effects(view: Mapping[str, Any], ctx: Context) -> list[str]:
    """The duration effects still to come or active now, in words (ZETA-R34)."""
    turn = int(view.get("turn", 0))
    effects: Mapping[str, list[int]] = view.get("effects", {})
    out: list[str] = []

    def when(t: int) -> str:
        return "this turn" if t == turn else f"turn {t}"

    for p in range(2):
        who = ctx.name(p)
        t = effects.get("negate_fanfares", [0, 0])[p]
        if t >= turn and t:
            out.append(f"{who}'s Fanfares have no effect {when(t)} (Hexer / Apprentice Hexer, ZETA-R35)")
        t = effects.get("only_cost_zero", [0, 0])[p]
        if t >= turn and t:
            out.append(f"{who} may place only cost-0 cards {when(t)} (Earth Mage, ZETA-R53)")
        t = effects.get("broom", [0, 0])[p]
        if t >= turn and t:
            out.append(f"{who} may place cards of cost 10 or less {when(t)} (Magic Broom, ZETA-R49)")
        t = effects.get("apprentice_check", [0, 0])[p]
        if t >= turn and t:
            out.append(f"{who}'s Fanfares are void {when(t)} if they hold 4+ cards then (Apprentice Hexer, ZETA-R44)")
    return out


def describe_known_hands(view: Mapping[str, Any], ctx: Context) -> list[str]:
    """What everybody remembers to be in a hand: the cards a Wind Mage returned (ZETA-I-CT6)."""
    out: list[str] = []
    for p, cards in enumerate(view.get("known_hands") or []):
        if cards:
            names = ", ".join(c.english if (c := _card(cid)) else cid for cid in cards)
            out.append(f"known to be in {ctx.name(p)}'s hand: {names} (returned by a Wind Mage, ZETA-I-CT6)")
    return out


def pending_phrase(phase: str, view: Mapping[str, Any]) -> tuple[str, str] | None:
    """What the current decision is about (effects' choices, the mulligan), with its rule; None in the main phase."""
    if phase in ("main", "over"):
        return None
    pending = view.get("pending") or {}
    src = _card(str(pending.get("source", "")))
    src_name = f"{src.english} on {pending.get('square')}" if src else ""
    rule = src.rule if src else PHASE_RULES.get(phase, "")
    if phase == "do_over":
        return f"{src_name}: destroy one card of the hand, then draw (destroy:CARD)", rule
    if phase == "fortune":
        drawn = pending.get("drawn")
        seen = f" of the two drawn: {', '.join(drawn)}" if drawn else " of the two cards drawn"
        return f"{src_name}: destroy one{seen} (destroy:CARD)", rule
    if phase == "target":
        return (f"{src_name}: destroy a card on {', '.join(pending.get('targets') or [])} "
                f"(target:SQUARE) or decline"), rule
    if phase == "mourn":
        return f"{src_name}: place a cost-0 card from the hand (CARD@SQUARE) or decline", rule
    if phase == "line":
        return f"{src_name}: destroy every card of a full line: {', '.join(pending.get('lines') or [])}", rule
    if phase == "mulligan":
        return "keep the opening hand, or shuffle it back and draw a new one (keep / mulligan)", rule
    return phase, rule


def render_zeta(view: Mapping[str, Any], ctx: Context) -> RenderableType:
    """The whole Zeta screen for one seat's view."""
    turn = view.get("turn", 0)
    active = view.get("active")
    parts: list[RenderableType] = [title_line("Zeta", view, ctx, f"turn {turn}")]
    lm = last_move_line(ctx)
    if lm is not None:
        parts.append(lm)
    parts.append(render_board(view, ctx))
    parts.append(Text(COMPACT_LEGEND if ctx.compact else LEGEND, style="dim"))
    board_count = len(view.get("board", {}))
    status = Table.grid(padding=(0, 3))
    for _ in range(4):
        status.add_column(no_wrap=True)
    hand_sizes = view.get("hand_sizes", [0, 0])
    deck_sizes = view.get("deck_sizes", [0, 0])
    destroyed = view.get("destroyed", [[], []])
    if ctx.compact:
        counts = Text()
        for p in range(2):
            counts.append_text(seat_text(p, ctx))
            counts.append(" ▶ " if p == active else "   ", style="bold")
            counts.append(f"hand {hand_sizes[p]} deck {deck_sizes[p]} destroyed {len(destroyed[p])}   ")
        parts.append(counts)
    else:
        for p in range(2):
            label = seat_text(p, ctx)
            if p == active:
                label.append(" ▶", style="bold")
            status.add_row(label, count_line("hand", hand_sizes[p]), count_line("deck", deck_sizes[p]),
                           count_line("destroyed", len(destroyed[p])))
        parts.append(status)
        parts.append(Text(f"cards on the board: {board_count} (a card may cost at most that, ZETA-R14)",
                          style="dim"))
    for line in describe_effects(view, ctx):
        parts.append(Text(f"• {line}", style="yellow"))
    if view.get("set_aside"):
        parts.append(Text(f"set aside under a Wind Mage: {view['set_aside']}", style="dim"))
    for line in describe_known_hands(view, ctx):
        parts.append(Text(line, style="dim"))
    pend = describe_pending(view, ctx, pending_phrase)
    if pend is not None:
        parts.append(pend)
    viewer = view.get("viewer")
    hands = view.get("hands") or []
    if viewer is not None and viewer < len(hands) and hands[viewer] is not None:
        hand = list(hands[viewer])
        parts.append(render_hand_line(hand, ctx, view) if ctx.compact else render_hand(hand, ctx))
    return Group(*parts)


def describe_action(action: str, actor: int, ctx: Context) -> str:
    """A move in words for the log (every Zeta action is public: destroyed cards are face up)."""
    who = ctx.name(actor)
    if "@" in action:
        cid, _, sq = action.partition("@")
        c = _card(cid)
        return f"{who} places {c.english if c else cid} ({cid}) on {sq}"
    if action.startswith("target:"):
        return f"{who} destroys the card on {action[7:]}"
    if action.startswith("destroy:"):
        return f"{who} destroys {action[8:]} from their hand"
    if action.startswith(("rank:", "file:")):
        return f"{who} destroys the {action.replace(':', ' ')}"
    if action == "pass":
        return f"{who} passes"
    if action == "decline":
        return f"{who} declines"
    if action in ("mulligan", "keep"):
        return f"{who} {'takes a mulligan' if action == 'mulligan' else 'keeps the hand'}"
    return f"{who}: {action}"


# -- the prompt's Zeta command and forced decisions ----------------------------------------------------
def open_threes(view: Mapping[str, Any], ctx: Context) -> dict[int, dict[str, list[str]]]:
    """For each seat, every empty square that would complete four in a row, with the three cards it joins.

    A window of four consecutive squares (ZETA-R20) holding three cards of one owner and an empty,
    unblocked fourth square is an open three; the fourth square is the threat.
    """
    width, height = _board_size(view, ctx)
    geo = geometry(width, height)
    board: Mapping[str, Any] = view.get("board", {})
    blocked = set(view.get("blocked", []))
    out: dict[int, dict[str, list[str]]] = {0: {}, 1: {}}
    for window in geo.windows:
        squares = [geo.names[s] for s in range(geo.size) if window >> s & 1]
        owners = [board[sq]["owner"] if sq in board else None for sq in squares]
        empty = [sq for sq, o in zip(squares, owners, strict=True) if o is None]
        if len(empty) != 1 or empty[0] in blocked:
            continue
        held = {o for o in owners if o is not None}
        if len(held) == 1:
            seat = int(held.pop())
            three = [sq for sq in squares if sq != empty[0]]
            out[seat].setdefault(empty[0], [])
            for sq in three:
                if sq not in out[seat][empty[0]]:
                    out[seat][empty[0]].append(sq)
    return out


def render_threes(view: Mapping[str, Any], ctx: Context) -> RenderableType:
    """``threes``: each seat's squares that would make four in a row now (ZETA-R20)."""
    threats = open_threes(view, ctx)
    lines: list[RenderableType] = [Text("Open threes: the squares that would make four in a row [ZETA-R20]",
                                        style="bold")]
    for seat in (0, 1):
        line = Text("  ")
        line.append_text(seat_text(seat, ctx))
        line.append(": ")
        squares = threats[seat]
        if not squares:
            line.append("none", style="dim")
        for k, (sq, three) in enumerate(sorted(squares.items())):
            if k:
                line.append(", ")
            line.append(sq, style="bold")
            line.append(f" (with {' '.join(three)})", style="dim")
        lines.append(line)
    return Group(*lines)


def render_own_hand(view: Mapping[str, Any], ctx: Context) -> RenderableType:
    """``hand``: the viewer's hand with costs, what is placeable and every effect."""
    viewer = view.get("viewer")
    hands = view.get("hands") or []
    if viewer is None or viewer >= len(hands) or hands[viewer] is None:
        return Text("A spectator sees no hand.", style="dim")
    return render_hand(list(hands[viewer]), ctx)


COMMANDS: dict[str, tuple[str, Callable[[Mapping[str, Any], Context], RenderableType]]] = {
    "threes": ("the squares where either player would make four in a row", render_threes),
    "hand": ("your hand with costs and effects", render_own_hand),
}
"""Zeta's own prompt commands: name -> (help, function of the seat's view)."""


def forced_reason(view: Mapping[str, Any], action: str, ctx: Context) -> str:
    """Why ``action`` is a person's only choice, in one line (the terminal plays it for them)."""
    phase = str(view.get("phase", ""))
    if action == "pass" and phase == "main":
        count = len(view.get("board", {}))
        return f"no card in your hand can be placed now (the most a card may cost is {count}, ZETA-R14): you pass"
    if action == "decline":
        return "the effect has nothing to act on: it is declined"
    if action.startswith("target:"):
        return f"the only card the effect can destroy is on {action[7:]}"
    if action.startswith("destroy:"):
        return f"you must destroy a card and {describe_card(action[8:])} is the only choice"
    return f"it is the only choice: {action}"


def describe_card(card_id: str) -> str:
    """A card's English name (its id if unknown)."""
    c = _card(card_id)
    return c.english if c else card_id


def card_names(cards: Sequence[str]) -> str:
    """Several cards by English name, comma-separated."""
    return ", ".join(describe_card(c) for c in cards)
