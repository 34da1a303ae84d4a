"""Oscilloscope's screen: channels drawn as square waves, trigger markers at their time positions, hands, scores.

Two layouts: the full one (each train three rows high) and the compact one that fits an 80x24
terminal (each train one row of wave and one of card names; one line per player).
``forced_reason`` says why a person's only choice is forced.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .common import Context, describe_pending, last_move_line, seat_style, seat_text, title_line

SEG = 8
"""Columns per time position."""
PREFIX = 9
"""Columns before time position 1 (train letter, owner, solo filter)."""
POSITIONS = 5

# Each card kind drawn as three rows (high, middle, low), SEG columns wide.
WAVES: dict[str, tuple[str, str, str]] = {
    "HL": ("───┐    ", "   │    ", "   └────"),
    "LH": ("   ┌────", "   │    ", "───┘    "),
    "LOH:H": ("────────", "        ", "        "),
    "LOH:L": ("        ", "        ", "────────"),
    "LOH:*": ("        ", "╌╌╌╌╌╌╌╌", "        "),
    "NOISE": ("        ", "╱╲╱╲╱╲╱╲", "        "),
    "": ("        ", "   ·    ", "        "),
}

PHASES: dict[str, tuple[str, str]] = {
    "assign": ("choose the train you will refill (assign TRAIN)", "OSC-R6"),
    "filters": ("choose the two filters; the third card becomes the exchange stock (filters A=CARD B=CARD)", "OSC-R8"),
    "trigger": ("trigger set: place a trigger card from your hand on a slot (place CARD SLOT); "
                "you must if you can", "OSC-R13"),
    "more": ("stack another Low or Hi at the anchor position, or pass", "OSC-I22"),
    "capture": ("the triggers are satisfied: capture the time position, or decline", "OSC-I33"),
    "keep": ("keep one trigger of the captured position as a score card (keep ...)", "OSC-R30"),
    "refill": ("refill your train at slot 5 with a card that connects (refill TRAIN CARD); "
               "discard a card only if none connects", "OSC-R37"),
    "topup": ("top up your hand to 3 cards: draw from the pulse deck or the trigger deck", "OSC-R40"),
    "post": ("you may place one more trigger (place CARD SLOT), or pass", "OSC-R42"),
    "exchange": ("put the exchange stock into a filter position (exchange TRAIN)", "OSC-R55"),
}


# Each card kind as one row (the compact layout): ▔ high, ▁ low, ╲ ╱ the edges.
FLAT_WAVES: dict[str, str] = {
    "HL": "▔▔▔╲▁▁▁▁",
    "LH": "▁▁▁╱▔▔▔▔",
    "LOH:H": "▔▔▔▔▔▔▔▔",
    "LOH:L": "▁▁▁▁▁▁▁▁",
    "LOH:*": "╌╌╌╌╌╌╌╌",
    "NOISE": "╱╲╱╲╱╲╱╲",
    "": "   ·    ",
}


def _flat_wave(slot: Mapping[str, Any] | None) -> str:
    if slot is None:
        return FLAT_WAVES[""]
    card = str(slot.get("card"))
    if card == "LOH":
        return FLAT_WAVES.get(f"LOH:{slot.get('out', '*')}", FLAT_WAVES["LOH:*"])
    return FLAT_WAVES.get(card, f"{card[:SEG]:^{SEG}}")


def _wave(slot: Mapping[str, Any] | None) -> tuple[str, str, str]:
    if slot is None:
        return WAVES[""]
    card = str(slot.get("card"))
    if card == "LOH":
        return WAVES.get(f"LOH:{slot.get('out', '*')}", WAVES["LOH:*"])
    return WAVES.get(card, ("        ", f"{card[:SEG]:^{SEG}}", "        "))


def train_owners(view: Mapping[str, Any]) -> dict[str, int]:
    """Train letter -> the seat that refills it."""
    out: dict[str, int] = {}
    for p, letters in enumerate(view.get("assigned_trains") or []):
        for letter in letters:
            out[letter] = p
    return out


def anchor_position(view: Mapping[str, Any]) -> int | None:
    """The time position (1-5) that holds the board triggers, or None when there are none."""
    for t in view.get("triggers") or []:
        return int(str(t["at"])[1:])
    return None


def render_trains(view: Mapping[str, Any], ctx: Context) -> Text:
    """Every train as a waveform with its cards named below and its triggers marked above."""
    trains: Sequence[Sequence[Mapping[str, Any] | None]] = view.get("trains") or []
    owners = train_owners(view)
    triggers: dict[str, Mapping[str, Any]] = {str(t["at"]): t for t in view.get("triggers") or []}
    filters = list(view.get("filters") or [])
    anchor = anchor_position(view)
    out = Text()
    ruler = " " * PREFIX + "".join(f"{'▼' if anchor == q else ''}{q}".center(SEG) for q in range(1, POSITIONS + 1))
    out.append(ruler + "\n", style="dim")
    for c, train in enumerate(trains):
        letter = "ABCDEF"[c]
        owner = owners.get(letter)
        style = seat_style(owner)
        marks = Text(" " * PREFIX)
        any_mark = False
        for q in range(1, POSITIONS + 1):
            t = triggers.get(f"{letter}{q}")
            if t is None:
                marks.append(" " * SEG)
            else:
                any_mark = True
                marks.append(f"▼{t['card']}"[:SEG].ljust(SEG), style=seat_style(t.get("owner")) + " reverse")
        if any_mark:
            out.append_text(marks)
            out.append("\n")
        rows = [_wave(train[q] if q < len(train) else None) for q in range(POSITIONS)]
        label = f"{letter} " + (f"P{owner + 1}" if owner is not None else "")
        filt = filters[c] if c < len(filters) else None
        for r in range(3):
            if r == 0:
                out.append(f"{label:<{PREFIX}}", style=style)
            elif r == 1 and filters:
                out.append(f"[{filt or '-'}]"[: PREFIX - 1].ljust(PREFIX), style="bold")
            else:
                out.append(" " * PREFIX)
            for q in range(POSITIONS):
                seg = rows[q][r]
                empty = train[q] is None if q < len(train) else True
                out.append(seg, style="dim" if empty else style)
            out.append("\n")
        names = " " * PREFIX + "".join(
            (str(slot["card"]) + ("" if str(slot["card"]) in ("HL", "LH") else f"·{slot.get('out')}"
                                  if str(slot["card"]) == "LOH" else "")).center(SEG)[:SEG]
            if slot is not None else " " * SEG for slot in list(train) + [None] * (POSITIONS - len(train)))
        out.append(names.rstrip() + "\n", style="dim")
    return out


def render_trains_compact(view: Mapping[str, Any], ctx: Context) -> Text:
    """Every train in two rows (wave, card names), its triggers marked above it: the 80x24 layout."""
    trains: Sequence[Sequence[Mapping[str, Any] | None]] = view.get("trains") or []
    owners = train_owners(view)
    triggers: dict[str, Mapping[str, Any]] = {str(t["at"]): t for t in view.get("triggers") or []}
    filters = list(view.get("filters") or [])
    anchor = anchor_position(view)
    out = Text()
    out.append(" " * PREFIX + "".join(f"{'▼' if anchor == q else ''}{q}".center(SEG)
                                      for q in range(1, POSITIONS + 1)).rstrip() + "\n", style="dim")
    for c, train in enumerate(trains):
        letter = "ABCDEF"[c]
        owner = owners.get(letter)
        style = seat_style(owner)
        slots = list(train) + [None] * (POSITIONS - len(train))
        if any(f"{letter}{q}" in triggers for q in range(1, POSITIONS + 1)):
            out.append(" " * PREFIX)
            for q in range(1, POSITIONS + 1):
                t = triggers.get(f"{letter}{q}")
                if t is None:
                    out.append(" " * SEG)
                else:
                    out.append(f"▼{t['card']}"[:SEG].ljust(SEG), style=seat_style(t.get("owner")) + " reverse")
            out.append("\n")
        label = f"{letter} " + (f"P{owner + 1}" if owner is not None else "")
        out.append(f"{label:<{PREFIX}}", style=style)
        for slot in slots[:POSITIONS]:
            out.append(_flat_wave(slot), style=style if slot is not None else "dim")
        out.append("\n")
        filt = filters[c] if c < len(filters) else None
        head = f"[{filt or '-'}]"[: PREFIX - 1].ljust(PREFIX) if filters else " " * PREFIX
        out.append(head, style="bold")
        names = "".join(
            (str(slot["card"]) + (f"·{slot.get('out')}" if str(slot["card"]) == "LOH" else "")).center(SEG)[:SEG]
            if slot is not None else " " * SEG for slot in slots[:POSITIONS])
        out.append(names.rstrip() + ("\n" if c < len(trains) - 1 else ""), style="dim")
    return out


def render_players_compact(view: Mapping[str, Any], ctx: Context) -> Text:
    """One line per seat: train, hand (yours; the others' sizes), score pile and score."""
    hands = view.get("hands") or []
    sizes = (view.get("sizes") or {}).get("hands") or [len(h or []) for h in hands]
    piles = view.get("score_piles") or []
    scores = view.get("scores") or []
    assigned = view.get("assigned_trains") or []
    turn_player = view.get("turn_player")
    out = Text()
    for p in range(int(view.get("players", len(hands)))):
        if p:
            out.append("\n")
        out.append_text(seat_text(p, ctx))
        out.append(" ▶" if p == turn_player else "  ", style="bold")
        if p < len(assigned) and assigned[p]:
            out.append(f" train {' '.join(assigned[p])}")
        hand = hands[p] if p < len(hands) else None
        out.append("  hand " + (" ".join(hand) if hand is not None else f"{sizes[p] if p < len(sizes) else '?'} cards"))
        pile = piles[p] if p < len(piles) else []
        out.append(f"  pile {len(pile)}" + (f" ({_pile(pile)})" if pile and len(pile) <= 6 else ""), style="dim")
        out.append(f"  score {scores[p] if p < len(scores) else '?'}", style="bold")
    return out


def _pile(cards: Sequence[str]) -> str:
    counts = Counter(cards)
    return " ".join(f"{k}×{n}" if n > 1 else k for k, n in counts.items()) or "-"


def noise_count(view: Mapping[str, Any]) -> int:
    """Captured noise that counts towards the end: all NOISE in the score piles (OSC-R34)."""
    return sum(1 for pile in view.get("score_piles") or [] for c in pile if c == "NOISE")


def render_players(view: Mapping[str, Any], ctx: Context) -> Table:
    """One row per seat: train, hand, score pile and score."""
    hands = view.get("hands") or []
    sizes = (view.get("sizes") or {}).get("hands") or [len(h or []) for h in hands]
    piles = view.get("score_piles") or []
    scores = view.get("scores") or []
    kept = view.get("kept_triggers") or []
    assigned = view.get("assigned_trains") or []
    turn_player = view.get("turn_player")
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1))
    for col in ("player", "train", "hand", "score pile", "score"):
        table.add_column(col, justify="right" if col == "score" else "left")
    for p in range(int(view.get("players", len(hands)))):
        label = seat_text(p, ctx)
        if p == turn_player:
            label.append(" ▶", style="bold")
        hand = hands[p] if p < len(hands) else None
        hand_text = " ".join(hand) if hand is not None else f"{sizes[p] if p < len(sizes) else '?'} cards"
        pile = piles[p] if p < len(piles) else []
        pile_text = f"{len(pile)}: {_pile(pile)}" if pile else "-"
        if p < len(kept) and kept[p]:
            pile_text += f" (kept triggers: {kept[p]})"
        table.add_row(label, " ".join(assigned[p]) if p < len(assigned) else "", hand_text, pile_text,
                      str(scores[p]) if p < len(scores) else "")
    return table


def pending_phrase(phase: str, view: Mapping[str, Any]) -> tuple[str, str] | None:
    """The current decision in words, with its rule (None outside the phases that ask one)."""
    if phase not in PHASES:
        return None
    text, rule = PHASES[phase]
    pending = view.get("pending") or {}
    if phase in ("capture", "keep") and "row" in pending:
        text = text.replace("the time position", f"time position {pending['row']}")
        if int(view.get("players", 2)) == 1 and phase == "keep":
            text, rule = "keep one filter of the captured position as a score card (keep TRAIN)", "OSC-R57"
    return text, rule


def render_oscilloscope(view: Mapping[str, Any], ctx: Context) -> RenderableType:
    """The whole Oscilloscope screen for one seat's view."""
    counters = view.get("counters") or {}
    players = int(view.get("players", 2))
    mode = "solo" if players == 1 else f"{players} players"
    parts: list[RenderableType] = [title_line("Oscilloscope", view, ctx, f"{mode} · set {counters.get('sets', 0) + 1}")]
    lm = last_move_line(ctx)
    if lm is not None:
        parts.append(lm)
    parts.append(render_trains_compact(view, ctx) if ctx.compact else render_trains(view, ctx))
    if view.get("stock"):
        parts.append(Text(f"exchange stock: {view['stock']}" + (f"   offer: {' '.join(view['offer'])}"
                                                                 if view.get("offer") else "")))
    sizes = view.get("sizes") or {}
    discard = list(view.get("discard") or [])
    limit = int(ctx.rules.get("mp_noise_limit", 10))
    if players == 1:
        noise = f"counted noise {counters.get('counted_noise', 0)} / 3 (OSC-R60)"
    else:
        noise = f"noise captured {noise_count(view)} / {limit} (OSC-R34)"
    decks = Text.assemble(("pulse deck ", "dim"), str(sizes.get("pulse_deck", "?")),
                          ("   trigger deck ", "dim"), str(sizes.get("trigger_deck", "?")),
                          ("   discard ", "dim"), f"{len(discard)}" + (f" (top {discard[-1]})" if discard else ""))
    counts = Text.assemble((noise, "yellow"), ("   sets without a capture ", "dim"), str(counters.get("stall", 0)))
    if ctx.compact:
        noise_short = (f"counted noise {counters.get('counted_noise', 0)}/3 [OSC-R60]" if players == 1
                       else f"noise {noise_count(view)}/{limit} [OSC-R34]")
        parts.append(Text.assemble(("pulse ", "dim"), str(sizes.get("pulse_deck", "?")),
                                   ("  trigger ", "dim"), str(sizes.get("trigger_deck", "?")),
                                   ("  discard ", "dim"), str(len(discard)),
                                   "  ", (noise_short, "yellow"),
                                   ("  no capture for ", "dim"),
                                   f"{counters.get('stall', 0)}/{ctx.rules.get('stall_limit_sets', 20)} sets"))
        parts.append(render_players_compact(view, ctx))
    else:
        parts.append(decks)
        parts.append(counts)
        parts.append(render_players(view, ctx))
    pend = describe_pending(view, ctx, pending_phrase)
    if pend is not None:
        parts.append(pend)
    return Group(*parts)


def describe_action(action: str, actor: int, ctx: Context) -> str:
    """A move in words for the log (every Oscilloscope action is public)."""
    who = ctx.name(actor)
    words = action.split(" ")
    verb = words[0]
    if verb == "place" and len(words) == 3:
        return f"{who} places {words[1]} on {words[2]}"
    if verb == "refill" and len(words) >= 3:
        return f"{who} refills train {words[1]} with {' '.join(words[2:])}"
    if verb == "draw":
        return f"{who} draws from the {words[1]} deck"
    if verb == "discard":
        return f"{who} discards {words[1]}"
    if verb == "keep":
        return f"{who} keeps {words[1]}"
    if verb == "assign":
        return f"{who} takes train {words[1]}"
    if action == "pass":
        return f"{who} passes"
    return f"{who}: {action}"


def forced_reason(view: Mapping[str, Any], action: str, ctx: Context) -> str:
    """Why ``action`` is a person's only choice, in one line (the terminal plays it for them)."""
    words = action.split()
    verb = words[0] if words else ""
    phase = str(view.get("phase", ""))
    if verb == "assign":
        return f"train {words[1]} is the only train left: it is yours [OSC-R6]"
    if verb == "refill":
        return f"{words[2]} is the only card in your hand that connects at slot 5 of train {words[1]}: it goes there [OSC-R37]"
    if verb == "discard":
        return f"nothing in your hand connects at slot 5: {words[1]} goes to the discard pile [OSC-R37]"
    if verb == "draw":
        other = "trigger" if words[1] == "pulse" else "pulse"
        return f"the {other} deck cannot be drawn from: you draw from the {words[1]} deck [OSC-R40, OSC-R45]"
    if verb == "keep":
        return f"you keep {words[1]}, the only trigger you may keep from this capture [OSC-R30]"
    if verb == "exchange":
        return f"the stock can go to train {words[1]} only [OSC-R55]"
    if verb == "place":
        return f"you must place a trigger if you can, and {words[1]} on {words[2]} is the only placement [OSC-R13]"
    if verb == "capture":
        return "the triggers are satisfied: you capture [OSC-R32]"
    if action == "pass":
        if phase == "post":
            return "no trigger in your hand can be placed now: you place none [OSC-R42]"
        return "nothing can be placed: you pass [OSC-R13]"
    return f"it is the only choice: {action}"
