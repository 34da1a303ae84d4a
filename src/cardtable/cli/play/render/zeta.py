"""Zeta's screen: the board with owners' colours, the hand with costs and what is placeable, piles, effects."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cardtable.games.zeta.board import FILES
from cardtable.games.zeta.cards import CARD_BY_ID, CardType

from .common import Context, count_line, last_move_line, seat_style, seat_text, title_line

PHASE_RULES = {"do_over": "ZETA-R38", "fortune": "ZETA-R39", "mourn": "ZETA-R57", "line": "ZETA-R59",
               "mulligan": "ZETA-R11", "main": "ZETA-R12"}


def _card(card_id: str) -> CardType | None:
    return CARD_BY_ID.get(card_id)


def _short(card_id: str) -> str:
    c = _card(card_id)
    return c.short if c else card_id


def _board_size(view: Mapping[str, Any], ctx: Context) -> tuple[int, int]:
    """Board width and height from the rule flags (6x6 unless the flags say otherwise)."""
    return int(ctx.rules.get("board_width", 6)), int(ctx.rules.get("board_height", 6))


def render_board(view: Mapping[str, Any], ctx: Context) -> Table:
    """The grid, top rank first: short name and owner/cost per card, blocked squares, targets, markers."""
    width, height = _board_size(view, ctx)
    board: Mapping[str, Any] = view.get("board", {})
    blocked = set(view.get("blocked", []))
    markers: Mapping[str, int] = view.get("markers", {})
    pending = view.get("pending") or {}
    targets = set(pending.get("targets") or [])
    source_square = pending.get("square") if pending else None
    table = Table(box=box.SQUARE, show_header=True, header_style="dim", padding=(0, 1), show_lines=True)
    table.add_column("", justify="right", style="dim", no_wrap=True)
    for f in range(width):
        table.add_column(FILES[f], justify="center", width=8, no_wrap=True)
    for r in range(height - 1, -1, -1):
        cells: list[Text] = []
        for f in range(width):
            sq = f"{FILES[f]}{r + 1}"
            cells.append(_cell(sq, board.get(sq), sq in blocked, markers.get(sq), sq in targets,
                               sq == source_square))
        table.add_row(str(r + 1), *cells)
    return table


def _cell(sq: str, item: Mapping[str, Any] | None, blocked: bool, marker: int | None, target: bool,
          source: bool) -> Text:
    """One square as two lines of text."""
    if blocked:
        return Text("▒▒▒▒▒▒\nblocked", style="dim")
    if item is None:
        second = f"P{marker + 1} mark" if marker is not None else sq
        cell = Text(("◎ " if target else "") + "\n" + second, style="dim")
        return cell
    owner = int(item["owner"])
    c = _card(str(item["card"]))
    name = c.short if c else str(item["card"])
    cost = c.cost if c else "?"
    mark = "◎" if target else "★" if source else ""
    cell = Text()
    cell.append(f"{mark}{name}", style=seat_style(owner) + (" reverse" if target else ""))
    cell.append(f"\nP{owner + 1} {'◯' if c and c.fanfare else '×'}{cost}", style=seat_style(owner).replace("bold ", ""))
    return cell


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
        kind = ("◯ " if c.fanfare else "× ") if c else ""
        effect = f"{kind}{c.effect} [{c.rule}]" if c else ""
        table.add_row(label, str(c.cost) if c else "?", "✓" if cid in ok else "", effect)
    if not cards:
        table.add_row(Text("(empty)", style="dim"), "", "", "")
    return table


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


def describe_pending(view: Mapping[str, Any], ctx: Context) -> Text | None:
    """What the current decision is about (effects' choices, the mulligan), or None in the main phase."""
    phase = str(view.get("phase", ""))
    decider = view.get("current_player")
    pending = view.get("pending") or {}
    if phase in ("main", "over") or decider is None:
        return None
    you = view.get("viewer") == decider
    src = _card(str(pending.get("source", "")))
    src_name = f"{src.english} on {pending.get('square')}" if src else ""
    rule = src.rule if src else PHASE_RULES.get(phase, "")
    out = Text()
    out.append_text(seat_text(decider, ctx))
    out.append(" decides: ", style="bold")
    if phase == "do_over":
        out.append(f"{src_name}: destroy one card of the hand, then draw (destroy:CARD)")
    elif phase == "fortune":
        drawn = pending.get("drawn")
        seen = f" of the two drawn: {', '.join(drawn)}" if drawn else " of the two cards drawn"
        out.append(f"{src_name}: destroy one{seen} (destroy:CARD)")
    elif phase == "target":
        out.append(f"{src_name}: destroy a card on {', '.join(pending.get('targets') or [])} "
                   f"(target:SQUARE) or decline")
    elif phase == "mourn":
        out.append(f"{src_name}: place a cost-0 card from the hand (CARD@SQUARE) or decline")
    elif phase == "line":
        out.append(f"{src_name}: destroy every card of a full line: {', '.join(pending.get('lines') or [])}")
    elif phase == "mulligan":
        out.append("keep the opening hand, or shuffle it back and draw a new one (keep / mulligan)")
    else:
        out.append(phase)
    if rule:
        out.append(f" [{rule}]", style="dim")
    if not you:
        out.append(" (waiting)", style="dim")
    return out


def render_zeta(view: Mapping[str, Any], ctx: Context) -> RenderableType:
    """The whole Zeta screen for one seat's view."""
    turn = view.get("turn", 0)
    active = view.get("active")
    parts: list[RenderableType] = [title_line("Zeta", view, ctx, f"turn {turn}")]
    lm = last_move_line(ctx)
    if lm is not None:
        parts.append(lm)
    parts.append(render_board(view, ctx))
    parts.append(Text("◯ Fanfare  × continuous  ◎ target  ★ resolving  ▒ blocked  Pn mark: a destroyed card's square",
                      style="dim"))
    board_count = len(view.get("board", {}))
    status = Table.grid(padding=(0, 3))
    for _ in range(4):
        status.add_column(no_wrap=True)
    hand_sizes = view.get("hand_sizes", [0, 0])
    deck_sizes = view.get("deck_sizes", [0, 0])
    destroyed = view.get("destroyed", [[], []])
    for p in range(2):
        label = seat_text(p, ctx)
        if p == active:
            label.append(" ▶", style="bold")
        status.add_row(label, count_line("hand", hand_sizes[p]), count_line("deck", deck_sizes[p]),
                       count_line("destroyed", len(destroyed[p])))
    parts.append(status)
    parts.append(Text(f"cards on the board: {board_count} (a card may cost at most that, ZETA-R14)", style="dim"))
    for line in describe_effects(view, ctx):
        parts.append(Text(f"• {line}", style="yellow"))
    if view.get("set_aside"):
        parts.append(Text(f"set aside under a Wind Mage: {view['set_aside']}", style="dim"))
    for line in describe_known_hands(view, ctx):
        parts.append(Text(line, style="dim"))
    pend = describe_pending(view, ctx)
    if pend is not None:
        parts.append(pend)
    viewer = view.get("viewer")
    hands = view.get("hands") or []
    if viewer is not None and viewer < len(hands) and hands[viewer] is not None:
        parts.append(render_hand(list(hands[viewer]), ctx))
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
