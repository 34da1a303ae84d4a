"""What every game's screen shares: the render context, seat colours, the list of choices, the outcome.

Renderers are pure functions ``(view, Context) -> rich renderable``: they read only a seat's
``state.view(seat)`` (never the hidden state) plus the context, and print nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

SEAT_STYLES: tuple[str, ...] = ("bold cyan", "bold magenta", "bold yellow", "bold green", "bold blue", "bold red")
"""The colour of each seat, everywhere on screen (owners of Zeta cards, Oscilloscope trains ...)."""

NUMBERED_LIMIT = 40
"""Up to this many legal actions are listed one by one with numbers; more are grouped."""


@dataclass(frozen=True)
class Context:
    """What a renderer may know besides the view: seat names, the viewer's legal actions, rule flags."""

    names: tuple[str, ...] = ()
    """A label per seat, e.g. ``("P1 (you)", "P2 random")``."""
    legal: tuple[str, ...] = ()
    """The legal actions of the viewer when the viewer decides now (empty otherwise)."""
    rules: Mapping[str, Any] = field(default_factory=dict)
    """The game's rule flags (``Rules.flags()``), for layouts that depend on them (board size)."""
    last: str = ""
    """A public description of the last move, shown under the title (empty for none)."""
    compact: bool = False
    """Draw the short layout that fits an 80x24 terminal (screens without one ignore it)."""
    marks: tuple[str, ...] = ()
    """Places to highlight, in the game's notation (Zeta: the squares of the winning line)."""
    par: float | None = None
    """A solo game's par score, shown on the end screen (None: none known)."""

    def name(self, seat: int | None) -> str:
        """The label of a seat (``P3`` when no name was given; ``nobody`` for None)."""
        if seat is None:
            return "nobody"
        return self.names[seat] if 0 <= seat < len(self.names) else f"P{seat + 1}"


def seat_style(seat: int | None) -> str:
    """The colour style of a seat (plain for None)."""
    return SEAT_STYLES[seat % len(SEAT_STYLES)] if seat is not None and seat >= 0 else ""


def seat_text(seat: int | None, ctx: Context) -> Text:
    """A seat's label in its colour."""
    return Text(ctx.name(seat), style=seat_style(seat))


def title_line(game_title: str, view: Mapping[str, Any], ctx: Context, extra: str = "") -> Text:
    """``Zeta · turn 7 · P2 to decide`` with the deciding seat in its colour."""
    out = Text()
    out.append(game_title, style="bold")
    if extra:
        out.append(f" · {extra}")
    decider = view.get("current_player")
    if decider is not None:
        out.append(" · ")
        out.append_text(seat_text(decider, ctx))
        out.append(" to decide")
    viewer = view.get("viewer")
    if viewer is not None and viewer != decider:
        out.append(" · seen by ")
        out.append_text(seat_text(viewer, ctx))
    return out


def last_move_line(ctx: Context) -> Text | None:
    """The last move as a dim line, or None."""
    return Text(f"last move: {ctx.last}", style="dim") if ctx.last else None


def group_key(action: str) -> tuple[str, str]:
    """An action string split into (group, item) at its last ``@``, ``:`` or space (``place T_HL`` / ``A3``)."""
    m = re.match(r"^(.*[@: ])([^@: ]+)$", action)
    return (m.group(1), m.group(2)) if m else (action, "")


COMPACT_LIMIT = 12
"""In the compact layout, up to this many legal actions are numbered; more are summarised by verb."""


def render_choices(legal: Sequence[str], numbered_limit: int = NUMBERED_LIMIT,
                   numbers: Mapping[str, int] | None = None, compact: bool = False) -> RenderableType:
    """The legal actions: numbered one by one (by ``numbers`` if given), or grouped by verb when there are many.

    The compact layout numbers at most :data:`COMPACT_LIMIT` actions and otherwise sums them up in a
    line or two (``list`` numbers them all).
    """
    if not legal:
        return Text("")
    limit = min(numbered_limit, COMPACT_LIMIT) if compact else numbered_limit
    if len(legal) <= limit:
        order = sorted(legal, key=lambda a: numbers[a]) if numbers else list(legal)
        width = len(str(len(legal)))
        cells = [Text.assemble((f"{numbers[a] if numbers else i:>{max(2, width)}}", "bold"), " ", a)
                 for i, a in enumerate(order, 1)]
        return Columns(cells, padding=(0, 3), column_first=True)
    groups: dict[str, list[tuple[int, str]]] = {}
    for i, a in enumerate(legal, 1):
        head, item = group_key(a)
        groups.setdefault(head, []).append((i, item))
    if compact:
        parts = []
        for head, items in groups.items():
            shown = " ".join(item for _, item in items) if len(items) <= 8 else f"({len(items)} places)"
            parts.append(f"{head}{shown}" if head.endswith(("@", ":", " ")) else f"{head} {shown}".strip())
        return Text(f"{len(legal)} legal actions: " + " · ".join(parts) + " (list numbers them)")
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="bold", no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column()
    for head, items in groups.items():
        nums = [n for n, _ in items]
        contiguous = nums == list(range(nums[0], nums[0] + len(nums)))
        label = f"{nums[0]}-{nums[-1]}" if contiguous and len(nums) > 1 else str(nums[0]) if len(nums) == 1 else ""
        table.add_row(label, head.rstrip() if head.endswith(" ") else head, " ".join(item for _, item in items))
    return Group(Text(f"{len(legal)} legal actions (type one, Tab completes; `list` numbers them all):"), table)


def render_outcome(outcome: Mapping[str, Any], ctx: Context, num_players: int) -> RenderableType:
    """The end of a game: winners, scores, the termination reason and its rule."""
    winners = list(outcome.get("winners") or [])
    head = Text()
    scores = outcome.get("scores")
    if num_players == 1:
        head.append(f"Solo game over: score {_number(scores[0]) if scores else '?'}", style="bold")
    elif not winners:
        head.append("Draw", style="bold")
    else:
        for k, w in enumerate(winners):
            if k:
                head.append(" and ")
            head.append_text(seat_text(w, ctx))
        head.append(" win" if len(winners) > 1 else " wins", style="bold")
        if num_players > 1 and len(winners) == num_players:
            head.append(" (shared)")
    lines: list[RenderableType] = [head]
    reason = str(outcome.get("reason", "")).replace("_", " ")
    rule = str(outcome.get("rule", ""))
    lines.append(Text(f"reason: {reason}" + (f" [{rule}]" if rule else "")))
    if num_players == 1 and ctx.par is not None and scores:
        lines.append(Text(f"par {ctx.par:.1f}: the heuristic player's mean score "
                          f"({'above' if scores[0] > ctx.par else 'below' if scores[0] < ctx.par else 'on'} par)"))
    if scores is not None and num_players > 1:
        score_line = Text("scores: ")
        for p, s in enumerate(scores):
            if p:
                score_line.append(", ")
            score_line.append_text(seat_text(p, ctx))
            score_line.append(f" {_number(s)}")
        lines.append(score_line)
    detail = str(outcome.get("detail", ""))
    detail = detail_beyond_scores(detail, scores)
    if detail:
        lines.append(Text(detail, style="dim"))
    return Panel(Group(*lines), title="Game over", title_align="left", expand=False)


def detail_beyond_scores(detail: str, scores: Sequence[Any] | None) -> str:
    """An outcome's detail without the scores the box already shows: ``scores P1 10, P2 6`` -> ``""``,
    ``solo score 13 (4 counted noise)`` -> ``4 counted noise``.

    >>> detail_beyond_scores("scores P1 10, P2 10, P3 6", [10.0, 10.0, 6.0])
    ''
    >>> detail_beyond_scores("solo score 13 (4 counted noise)", [13.0])
    '4 counted noise'
    >>> detail_beyond_scores("P1 made four in a row", None)
    'P1 made four in a row'
    """
    if not scores:
        return detail
    listed = ", ".join(f"P{p + 1} {_number(s)}" for p, s in enumerate(scores))
    rest = detail.strip()
    for restated in (f"scores {listed}", f"solo score {_number(scores[0])}" if len(scores) == 1 else "\0"):
        if rest.startswith(restated):
            rest = rest[len(restated):].strip(" ;,")
            if rest.startswith("(") and rest.endswith(")"):
                rest = rest[1:-1]
    return rest


def _number(x: Any) -> str:
    """A score as a person writes it (``13`` rather than ``13.0``)."""
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x)


def count_line(label: str, value: Any) -> Text:
    """``label value`` with the label dim."""
    return Text.assemble((f"{label} ", "dim"), str(value))


def decision_line(decider: int, text: str, rule: str, ctx: Context) -> Text:
    """"SEAT decides: what [RULE]": the opening of every game's pending-decision line (no rule: no brackets)."""
    out = Text()
    out.append_text(seat_text(decider, ctx))
    out.append(" decides: ", style="bold")
    out.append(text)
    if rule:
        out.append(f" [{rule}]", style="dim")
    return out


Phrase: TypeAlias = Callable[[str, Mapping[str, Any]], tuple[str, str] | None]
"""A game's words for a pending decision: ``(phase, view) -> (what, rule)``, or None for nothing to say."""

Notes: TypeAlias = Callable[[Mapping[str, Any], int], Sequence[tuple[str, str]]]
"""What a game adds after a decision's words, for ``(view, decider)``: ``(text, style)`` pieces."""


def describe_pending(view: Mapping[str, Any], ctx: Context, phrase: Phrase, notes: Notes | None = None) -> Text | None:
    """The pending-decision line of every game: "SEAT decides: what [RULE]", notes, "(waiting)" for another seat.

    None when nobody decides or ``phrase`` has nothing to say of the phase.
    """
    decider = view.get("current_player")
    if decider is None:
        return None
    said = phrase(str(view.get("phase", "")), view)
    if said is None:
        return None
    out = decision_line(decider, *said, ctx)
    for text, style in notes(view, decider) if notes is not None else ():
        out.append(text, style=style)
    if view.get("viewer") != decider:
        out.append(" (waiting)", style="dim")
    return out
