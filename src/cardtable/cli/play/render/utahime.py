"""Utahime's screen: hands with suit symbols and effective numbers, set J/Q/K, discard piles, energy, modifiers.

Two layouts: the full one (a box per player) and the compact one that fits an 80x24 terminal (a few
lines per player). ``forced_reason`` says why a person's only choice is forced ("no club of 5 or
more: the attack goes through").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .common import Context, describe_pending, last_move_line, seat_text, title_line

SUITS = {"H": "♥", "S": "♠", "C": "♣", "D": "♦"}
RED = {"H", "D"}
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}

PHASES: dict[str, tuple[str, str]] = {
    "wish": ("choose your wished card: any card of your deck goes to your hand (wish CARD)", "UTA-R3"),
    "main": ("free actions (set a J/Q/K ...), then one main action: attack, pass (turn a face-up discard "
             "face down for +1 energy) or the joker", "UTA-R10"),
    "block": ("block the attack with a card (block CARD) or let it through (noblock)", "UTA-R18"),
    "react": ("the attack succeeded: react with your Ace (react) or not (noreact)", "UTA-R29"),
    "target": ("choose a card of the defender's hand (take CARD)", "UTA-R24"),
    "draw": ("choose how many cards to draw (draw N)", "UTA-I32"),
    "heart_pick": ("♥NEXT: take one of the revealed cards into your hand (pick CARD)", "UTA-R51"),
    "blocker_window": ("after blocking you may use ♥NEXT (heartnext CARD), or end", "UTA-I67"),
    "post": ("post-attack window: free actions, ♥NEXT once (heartnext CARD), or end", "UTA-R10"),
    "end": ("end step: take one cosmic card into your hand (cosmic CARD), or not (nocosmic)", "UTA-R52"),
    "effect": ("make the choice the option or hero card asks for", "UTA-R46"),
}

EFFECT_WORDS: dict[str, tuple[str, str]] = {
    "ban": ("may not attack with {suit}", "UTA-R33"),
    "block_bonus": ("cards played in defence {sign}", "UTA-R34"),
    "bonus_8_10": ("8, 9 and 10 played in defence {sign}", "UTA-R35"),
    "attack_bonus": ("attack card {sign}", "UTA-R49"),
}


def split_card(token: str) -> tuple[str, str, bool, bool]:
    """A card token as (suit letter, rank text, foreign, cosmic): ``~C7+`` -> (``C``, ``7``, True, True)."""
    foreign = token.startswith("~")
    body = token[1:] if foreign else token
    cosmic = body.endswith("+")
    body = body[:-1] if cosmic else body
    return body[:1], body[1:], foreign, cosmic


def card_text(token: str | None, hidden: str = "▒▒") -> Text:
    """A card with its suit symbol, red for ♥ and ♦; ``+`` marks a cosmic card, ``~`` one from the other deck."""
    if token is None:
        return Text(hidden, style="dim")
    suit, rank, foreign, cosmic = split_card(token)
    out = Text(("~" if foreign else "") + SUITS.get(suit, suit) + rank + ("+" if cosmic else ""),
               style="bold red" if suit in RED else "bold")
    return out


def printed_number(token: str, ace_value: int = 1) -> int:
    """UTA-R7: A is ``ace_value``, 2-10 as printed, J 11, Q 12, K 13."""
    _, rank, _, _ = split_card(token)
    if rank == "A":
        return ace_value
    return RANKS.get(rank) or int(rank)


def _half(value2: int) -> str:
    return str(value2 // 2) if value2 % 2 == 0 else f"{value2 / 2:.1f}"


def effective_number2(token: str, seat: int, view: Mapping[str, Any], ace_value: int = 1) -> int:
    """Twice the number ``token`` counts for ``seat`` this turn (UTA-R8): blocks as defender, the attack as attacker."""
    value2 = 2 * printed_number(token, ace_value)
    turn = view.get("turn")
    attacker = view.get("attacker")
    rank = printed_number(token, 1)
    for e in view.get("effects") or []:
        if e.get("turn") != turn or e.get("player") != seat:
            continue
        kind = e.get("kind")
        half = int(e.get("half_points", 0))
        attacking = seat == attacker and kind == "attack_bonus"
        defending = seat != attacker and (kind == "block_bonus" or (kind == "bonus_8_10" and 8 <= rank <= 10))
        if attacking or defending:
            value2 += half
    return value2


def forbidden_suits(view: Mapping[str, Any], seat: int) -> list[str]:
    """Suit letters ``seat`` may not attack with this turn (UTA-R33)."""
    turn = view.get("turn")
    return [str(e["suit"]) for e in view.get("effects") or []
            if e.get("kind") == "ban" and e.get("turn") == turn and e.get("player") == seat]


def describe_modifiers(view: Mapping[str, Any], ctx: Context) -> list[Text]:
    """Active and coming modifiers and forbidden suits, one line each, with their turn and rule."""
    turn = view.get("turn")
    out: list[Text] = []
    for e in view.get("effects") or []:
        kind = str(e.get("kind"))
        words, rule = EFFECT_WORDS.get(kind, (kind, ""))
        half = int(e.get("half_points", 0))
        sign = ("+" if half >= 0 else "−") + _half(abs(half))
        line = seat_text(int(e.get("player", 0)), ctx)
        line.append(" " + words.format(suit=SUITS.get(str(e.get("suit")), e.get("suit")), sign=sign))
        line.append(" this turn" if e.get("turn") == turn else f" in turn {e.get('turn')}")
        line.append(f" [{rule}]", style="dim")
        out.append(line)
    return out


def render_hand(tokens: Sequence[str], set_cards: Sequence[Mapping[str, Any]], seat: int, view: Mapping[str, Any],
                ace_value: int) -> Text:
    """A hand: each card with its effective number when a modifier changes it; set J/Q/K marked ▼."""
    set_names = {str(s["card"]) for s in set_cards if s.get("card")}
    out = Text()
    for k, token in enumerate(tokens):
        if k:
            out.append("  ")
        out.append_text(card_text(token))
        eff = effective_number2(token, seat, view, ace_value)
        if eff != 2 * printed_number(token, ace_value):
            out.append(f"({_half(eff)})", style="yellow")
        _, rank, _, _ = split_card(token)
        if rank in ("J", "Q", "K"):
            out.append("▼set" if token in set_names else "·unset", style="dim")
    if not tokens:
        out.append("(empty)", style="dim")
    return out


def render_discard(entries: Sequence[Mapping[str, Any]]) -> Text:
    """A discard pile, bottom first: face-up cards, face-down ones as ▒▒ (dim and bracketed when the viewer knows them)."""
    out = Text()
    for k, e in enumerate(entries):
        if k:
            out.append(" ")
        if e.get("face_up"):
            out.append_text(card_text(e.get("card")))
        elif e.get("card"):
            out.append(f"[{e['card']}]", style="dim")
        elif e.get("heart_next_cost"):
            out.append("▒♥", style="dim")  # ♥NEXT's price: a heart, which one unknown (UTA-I-CT22)
        else:
            out.append("▒▒", style="dim")
    if not entries:
        out.append("-", style="dim")
    return out


def render_memory(memory: Sequence[Mapping[str, Any]]) -> Text | None:
    """What the viewer remembers of a hidden hand (UTA-I-CT21): cards in it, and cards in it or face down in the pile."""
    held = [m for m in memory if m.get("where") == "hand"]
    maybe = [m for m in memory if m.get("where") == "hand_or_pile"]
    pile = [m for m in memory if m.get("where") == "pile"]
    if not (held or maybe or pile):
        return None
    out = Text()
    for label, group in (("in hand ", held), ("in hand or face down ", maybe), ("face down ", pile)):
        if not group:
            continue
        if out:
            out.append(" · ")
        out.append(label, style="dim")
        for k, m in enumerate(group):
            if k:
                out.append(" ")
            out.append_text(card_text(str(m.get("card"))))
            if m.get("set"):
                out.append(f"▼{m['set']}", style="dim")
    return out


def render_player(p: int, item: Mapping[str, Any], view: Mapping[str, Any], ctx: Context) -> Table:
    """One player's area: hand (or its size), set cards, discard pile and score, energy, joker, cosmic pool."""
    ace_value = int(ctx.rules.get("ace_value", 1))
    scores = view.get("scores") or [0, 0]
    title = seat_text(p, ctx)
    if p == view.get("attacker"):
        title.append(" ▶ attacker", style="bold")
    else:
        title.append("   defender", style="dim")
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    hand = item.get("hand")
    sets = list(item.get("set") or [])
    if hand is not None:
        grid.add_row(f"hand {item.get('hand_count', len(hand))}", render_hand(hand, sets, p, view, ace_value))
    else:
        hidden = f"{item.get('hand_count', 0)} cards"
        if sets:
            hidden += f", {len(sets)} of them J/Q/K set face down (set in turn {', '.join(str(s['turn']) for s in sets)})"
        grid.add_row("hand", Text(hidden))
        known = render_memory(item.get("memory") or [])
        if known is not None:
            grid.add_row("known", known)
    if item.get("wished"):
        grid.add_row("wished", card_text(str(item["wished"])))
    pile = list(item.get("discard") or [])
    score_line = render_discard(pile)
    score_line.append(f"   score {scores[p] if p < len(scores) else '?'} (face up)", style="bold")
    grid.add_row("discard", score_line)
    stock = Text.assemble(f"energy {item.get('energy', 0)}   ", f"deck {item.get('deck_count', 0)}   ",
                          ("joker ready" if item.get("joker_face_up") else "joker used",
                           "bold" if item.get("joker_face_up") else "dim"))
    grid.add_row("", stock)
    pool = list(item.get("cosmic_pool") or [])
    cosmic = Text()
    for k, c in enumerate(pool):
        if k:
            cosmic.append(" ")
        cosmic.append_text(card_text(c))
    if not pool:
        cosmic.append("(none left)", style="dim")
    grid.add_row("cosmic", cosmic)
    setup = view.get("setup") or {}
    options = list(item.get("options_face_up") or [])
    if options:
        names = list(setup.get(f"p{p + 1}_options") or [])
        line = Text()
        for k, up in enumerate(options):
            if k:
                line.append("  ")
            name = names[k] if k < len(names) else f"#{k + 1}"
            line.append(name if up else f"{name} (used)", style="bold" if up else "dim")
        grid.add_row("options", line)
    hero = setup.get(f"p{p + 1}_hero")
    if hero:
        grid.add_row("hero", Text(f"{hero}: {item.get('hero_uses_left', 0)} use(s) left"))
    return _boxed(title, grid)


def render_player_compact(p: int, item: Mapping[str, Any], view: Mapping[str, Any], ctx: Context) -> Text:
    """One player's area in two to four lines (the 80x24 layout)."""
    ace_value = int(ctx.rules.get("ace_value", 1))
    scores = view.get("scores") or [0, 0]
    out = seat_text(p, ctx)
    attacking = p == view.get("attacker")
    out.append(" ▶ attacker" if attacking else "   defender", style="bold" if attacking else "dim")
    hand = item.get("hand")
    sets = list(item.get("set") or [])
    out.append(f"  score {scores[p] if p < len(scores) else '?'}", style="bold")
    out.append(f"  energy {item.get('energy', 0)}  ")
    out.append("joker ready" if item.get("joker_face_up") else "joker used", style="bold" if item.get("joker_face_up")
               else "dim")
    out.append(f"  deck {item.get('deck_count', 0)}")
    if item.get("wished"):
        out.append(" · wished ")
        out.append_text(card_text(str(item["wished"])))
    if hand is not None:
        out.append(f"\n  hand {item.get('hand_count', len(hand))}: ", style="dim")
        out.append_text(render_hand(hand, sets, p, view, ace_value))
    else:
        out.append(f"\n  hand {item.get('hand_count', 0)}" + (f" ({len(sets)} J/Q/K set)" if sets else ""), style="dim")
        known = render_memory(item.get("memory") or [])
        if known is not None:
            out.append(" · known: ", style="dim")
            out.append_text(known)
    out.append("\n  discard: ", style="dim")
    out.append_text(render_discard(list(item.get("discard") or [])))
    out.append(" · cosmic ", style="dim")
    pool = list(item.get("cosmic_pool") or [])
    for k, c in enumerate(pool):
        if k:
            out.append(" ")
        out.append_text(card_text(c))
    if not pool:
        out.append("none", style="dim")
    setup = view.get("setup") or {}
    options = list(item.get("options_face_up") or [])
    hero = setup.get(f"p{p + 1}_hero")
    if options or hero:
        names = list(setup.get(f"p{p + 1}_options") or [])
        out.append("\n  ", style="dim")
        for k, up in enumerate(options):
            name = names[k] if k < len(names) else f"#{k + 1}"
            out.append((" " if k else "") + (name if up else f"{name} (used)"), style="bold" if up else "dim")
        if hero:
            out.append(f"{' · ' if options else ''}hero {hero}: {item.get('hero_uses_left', 0)} use(s) left")
    return out


def _boxed(title: Text, body: RenderableType) -> Table:
    table = Table(box=box.ROUNDED, padding=(0, 1), show_header=True, header_style="")
    table.add_column(title)
    table.add_row(body)
    return table


def describe_attack(view: Mapping[str, Any], ctx: Context) -> Text | None:
    """The attack of this turn, if any: card, NEXT, designated suits, block, reaction, success."""
    attack = view.get("attack")
    if not attack:
        return None
    out = Text()
    out.append_text(seat_text(view.get("attacker"), ctx))
    out.append(" attacks with ")
    out.append_text(card_text(str(attack["card"])))
    suit = split_card(str(attack["card"]))[0]
    if attack.get("next"):
        out.append(f" {SUITS.get(suit, suit)}NEXT", style="bold")
    if attack.get("bans"):
        out.append(" · designates " + "".join(SUITS.get(s, s) for s in str(attack["bans"])))
    if attack.get("block"):
        out.append(" · blocked by ")
        out.append_text(card_text(str(attack["block"])))
    if attack.get("reaction"):
        out.append(" · reaction ")
        out.append_text(card_text(str(attack["reaction"])))
    if attack.get("success"):
        out.append(" · succeeds", style="bold")
    return out


def pending_phrase(phase: str, view: Mapping[str, Any]) -> tuple[str, str] | None:
    """The current decision in words, with its rule (None outside the phases that ask one)."""
    return PHASES.get(phase)


def pending_notes(view: Mapping[str, Any], decider: int) -> list[tuple[str, str]]:
    """The suits the decider may not attack with now, if any."""
    banned = forbidden_suits(view, decider) if view.get("phase") == "main" else []
    return [(" · forbidden suits: " + " ".join(SUITS.get(s, s) for s in banned), "yellow")] if banned else []


def render_utahime(view: Mapping[str, Any], ctx: Context) -> RenderableType:
    """The whole Utahime screen for one seat's view: the other player on top, the viewer below."""
    viewer = view.get("viewer")
    players: Sequence[Mapping[str, Any]] = view.get("players") or []
    parts: list[RenderableType] = [title_line("Utahime", view, ctx, f"turn {view.get('turn', 0)}")]
    lm = last_move_line(ctx)
    if lm is not None:
        parts.append(lm)
    order = [1 - viewer, viewer] if viewer in (0, 1) else [0, 1]
    for p in order:
        if p < len(players):
            area = render_player_compact if ctx.compact else render_player
            parts.append(area(p, players[p], view, ctx))
    attack = describe_attack(view, ctx)
    if attack is not None:
        parts.append(attack)
    heart = view.get("heart_next")
    if heart:
        line = Text.assemble(seat_text(int(heart.get("user", 0)), ctx), " ♥NEXT revealed: ")
        for k, c in enumerate(heart.get("revealed") or []):
            if k:
                line.append(" ")
            line.append_text(card_text(c))
        parts.append(line)
    for m in describe_modifiers(view, ctx):
        parts.append(Text("• ").append_text(m))
    if ctx.compact:
        parts.append(Text("(n) counts n now · ▼set face down · ▒▒ face down · [X] remembered · + cosmic · ~ theirs",
                          style="dim"))
    else:
        parts.append(Text("(n) counts n this turn · ▼set J/Q/K set face down · ▒▒ face down · + cosmic · "
                          "~ other deck", style="dim"))
        parts.append(Text("[X] face down, remembered · ▒♥ face down, a heart (♥NEXT's price)", style="dim"))
    pend = describe_pending(view, ctx, pending_phrase, pending_notes)
    if pend is not None:
        parts.append(pend)
    return Group(*parts)


def _pretty(token: str) -> str:
    suit, rank, foreign, cosmic = split_card(token)
    if suit not in SUITS:
        return token
    return ("~" if foreign else "") + SUITS[suit] + rank + ("+" if cosmic else "")


def describe_action(action: str, actor: int, ctx: Context) -> str:
    """A move in words for the log; hidden choices (wished card, set card, ♥NEXT card and pick) stay hidden."""
    who = ctx.name(actor)
    words = action.split()
    verb = words[0] if words else ""
    if verb == "wish":
        return f"{who} chooses a wished card"
    if verb == "set":
        return f"{who} sets a J/Q/K face down"
    if verb == "heartnext":
        return f"{who} uses ♥NEXT (a heart goes face down)"
    if verb == "pick":
        return f"{who} takes one of the revealed cards"  # public (UTA-I-CT21); the event log names it
    if verb == "choose":
        return f"{who} makes a choice for an option effect"
    if verb == "attack":
        text = f"{who} attacks with {_pretty(words[1])}"
        if "next" in words:
            text += " NEXT"
        if "ban" in words:
            text += " designating " + "".join(SUITS.get(s, s) for s in words[words.index("ban") + 1])
        return text
    if verb == "block":
        return f"{who} blocks with {_pretty(words[1])}"
    if verb == "noblock":
        return f"{who} does not block"
    if verb == "pass":
        return f"{who} passes, turning {_pretty(words[1])} face down (+1 energy)"
    if verb == "take":
        return f"{who} takes {_pretty(words[1])}" + (f" ({words[2]})" if len(words) > 2 else "")
    if verb == "cosmic":
        return f"{who} takes the cosmic {_pretty(words[1])}"
    if verb == "nocosmic":
        return f"{who} takes no cosmic card"
    if verb == "end":
        return f"{who} ends the window"
    if verb == "joker":
        return f"{who} plays the joker"
    if verb == "react":
        return f"{who} reacts with an Ace"
    if verb == "noreact":
        return f"{who} does not react"
    return f"{who}: {action}"


SUIT_WORDS = {"H": "heart", "S": "spade", "C": "club", "D": "diamond"}


def forced_reason(view: Mapping[str, Any], action: str, ctx: Context) -> str:
    """Why ``action`` is a person's only choice, in one line (the terminal plays it for them)."""
    words = action.split()
    verb = words[0] if words else ""
    seat = view.get("current_player")
    attack = view.get("attack") or {}
    card = str(attack.get("card", ""))
    suit = split_card(card)[0] if card else ""
    if verb == "noblock":
        if (card.lstrip("~").startswith(("HA", "SA")) and split_card(card)[1] == "A") or attack.get("next") and suit == "D":
            return "this attack cannot be blocked: it goes through [UTA-R17]"
        players = view.get("players") or []
        hand = players[seat].get("hand") if isinstance(seat, int) and seat < len(players) else None
        if not hand:
            return "your hand is empty: the attack goes through [UTA-R22]"
        attacker = view.get("attacker")
        need = _half(effective_number2(card, int(attacker), view, int(ctx.rules.get("ace_value", 1)))) \
            if isinstance(attacker, int) else "?"
        allowed = {"H": "club", "S": "diamond"}.get(suit, "")
        what = f"{allowed} " if allowed else ""
        return f"no {what}card of {need} or more that may block: the attack goes through [UTA-R18, UTA-R19]"
    if verb == "noreact":
        if suit in ("H", "C"):
            return "no ♣A in your hand to cancel the draw: the attack's effect happens [UTA-R29]"
        if attack.get("next") and suit == "D":
            return "♦A cannot react to ♦NEXT: the attack's effect happens [UTA-R30]"
        return "no ♦A in your hand to stop it: the attack's effect happens [UTA-R30]"
    if verb == "nocosmic":
        return "no cosmic card can be taken now [UTA-R52]"
    if verb == "end":
        return "nothing else can be done now: the window ends"
    if verb == "take":
        return f"{_pretty(words[1])} is the only card you may take"
    if verb == "pick":
        return f"{_pretty(words[1])} is the only revealed card you may take [UTA-R51]"
    if verb == "draw":
        return f"you draw {words[1]}"
    if verb == "pass":
        return (f"no card may attack and the joker is used: you pass, turning {_pretty(words[1])} face down "
                "for +1 energy [UTA-R44]")
    if verb == "joker":
        return "no card may attack and there is nothing to pass with: you play the joker [UTA-R45]"
    if verb == "attack":
        return f"{_pretty(words[1])} is the only card that may attack [UTA-R14]"
    if verb == "block":
        return f"you must block, and {_pretty(words[1])} is the only card that may [UTA-I20]"
    if verb == "react":
        return "you must react [UTA-R29, UTA-R30]"
    return f"it is the only choice: {action}"
