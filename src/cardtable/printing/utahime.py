"""Utahime print-and-play cards: each player's six cosmic cards, joker, option and hero cards, and a reference card.

The two 52-card decks are standard playing cards, bought rather than printed (UTA-R1). What a
shop deck lacks is printed: the cosmic pool of UTA-R1 (♥4 ♥6 ♠4 ♣6 ♣7 ♦6, extra cards with
identities of their own, UTA-I9 and UTA-I13, marked ``+`` as the notation writes them), one joker
each (UTA-R4, R45), and the option and hero cards of an option set (UTA-R2, R46, R47). Turning an
option card, a hero card or the joker face down spends it, so each has its owner's back (PRINT-I3).

>>> job = utahime_job(None)
>>> len(job.cards), sorted(job.backs)
(15, ['p1', 'p2', 'reference'])
>>> [c.label for c in job.cards[:2]]
['P1 cosmic ♥4+', 'P1 cosmic ♥6+']

A legible edition (``--cards``, ``--lang``) prints the set's cosmic pool, option costs and hero uses in one
language, the designer's words with the set's hand limit, every text at 7 pt or more and the set's stamp on
every face and back; ``--only-changed`` keeps the cards whose numbers changed (UTA-I-CT24):

>>> from cardtable.core.cardset import default_set
>>> dear = default_set("utahime").replace({"seal.cost": 12, "options.budget": 40, "cosmic_h4.pool": 0})
>>> example = load_option_set("designer_example", dear)
>>> job = utahime_job(example, Edition(dear, "ja", default_set("utahime")))
>>> [c.label for c in job.cards]
['P1 option Seal']
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.colors import Color, HexColor

from cardtable.core.cardset import CardSet
from cardtable.games.utahime import UtahimeRules
from cardtable.games.utahime.cards import COSMIC_CARDS, COSMIC_NAMES, RANK_NAMES, SUIT_SYMBOLS
from cardtable.games.utahime.cardset import cosmic_item
from cardtable.games.utahime.options import (
    SHIPPED_SETS,
    CardDef,
    OptionSet,
    check_construction,
    parse_option_set,
    shipped_set_text,
    with_numbers,
)

from .draw import (
    GREY,
    INK,
    PAPER,
    Align,
    Face,
    Painter,
    Pattern,
    badge,
    fill_bleed,
    fit_line,
    fit_text,
    panel,
    pattern_back,
    pt,
    sections,
    tint,
)
from .editions import LEAST_PT, Edition, edition_of, size
from .layout import PrintError
from .sheets import GamePrinter, PrintCard, PrintJob, PrintOptions, PrintResult, SheetSpec, render

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

TITLE = "Utahime"
OWNER_COLOURS = (HexColor("#1A4C8B"), HexColor("#7B1FA2"))
OWNER_PATTERNS = (Pattern.CHECKS, Pattern.DOTS)
RED_SUIT = HexColor("#C62828")
BLACK_SUIT = HexColor("#212121")
REFERENCE_COLOUR = HexColor("#37474F")
TIMING_WORDS = {"own_turn": "your turn", "any_time": "any time"}


def load_option_set(source: str, cards: CardSet | None = None) -> OptionSet:
    """An option set: a shipped set's name (``designer_example``) or a TOML file, priced with a card set's option
    costs and hero uses (UTA-I-CT24); PrintError saying what is wrong."""
    if source in SHIPPED_SETS:
        text = shipped_set_text(source)
    else:
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise PrintError(f"cannot read option set {path}: {exc.strerror or exc} (shipped sets: "
                             f"{', '.join(SHIPPED_SETS)})") from None
    try:
        option_set = parse_option_set(text)
        rules = UtahimeRules.from_flags(**cards.rule_flags()) if cards is not None else UtahimeRules()
        option_set = with_numbers(option_set, cards.values if cards is not None else {})
        for seat in (0, 1):
            check_construction(option_set, list(option_set.loadouts[seat]), seat, rules.option_cost_budget,
                               rules.option_max_copies)
    except ValueError as exc:
        raise PrintError(str(exc)) from None
    return option_set


def seat_cards(option_set: OptionSet, seat: int) -> tuple[list[CardDef], list[CardDef]]:
    """The option and hero cards a seat gets: its loadout and hero, or one of every card if it has neither."""
    names = option_set.loadouts[seat]
    hero = option_set.hero_choices[seat]
    if not names and hero is None:
        return list(option_set.options.values()), list(option_set.heroes.values())
    return [option_set.options[n] for n in names], [option_set.heroes[hero]] if hero is not None else []


def _suit_colour(suit: int) -> Color:
    return RED_SUIT if suit in (0, 3) else BLACK_SUIT


def _frame(c: Canvas, face: Face, colour: Color) -> None:
    u, fx, fy = face.u, face.x, face.y
    fill_bleed(c, face, colour)
    panel(c, fx(2.5), fy(2.5), face.width - fx(5), face.height - fy(5), fill=PAPER, radius=u(2.5))


def _footer(c: Canvas, face: Face, left: str, owner: int, right: str) -> None:
    fx, fy = face.x, face.y
    fit_line(c, left, fx(5), fy(4.6), fx(20), pt(face, 5.2), colour=GREY)
    fit_line(c, f"P{owner + 1}", fx(25), fy(4.6), fx(13), pt(face, 5.2), align=Align.CENTER, colour=OWNER_COLOURS[owner])
    fit_line(c, right, fx(36), fy(4.6), fx(22.5), pt(face, 5.2), align=Align.RIGHT, colour=GREY)


def _cosmic_front(suit: int, rank: int, notation: str, owner: int) -> Painter:
    rank_text = RANK_NAMES[rank - 1]
    symbol = SUIT_SYMBOLS[suit]
    colour = _suit_colour(suit)

    def corner(c: Canvas, face: Face) -> None:
        fx, fy = face.x, face.y
        fit_line(c, rank_text, fx(4.5), face.height - fy(12), fx(10), pt(face, 15), align=Align.CENTER, colour=colour)
        fit_line(c, symbol, fx(4.5), face.height - fy(18.5), fx(10), pt(face, 13), align=Align.CENTER, colour=colour)
        fit_line(c, "+", fx(4.5), face.height - fy(23.5), fx(10), pt(face, 9), align=Align.CENTER, colour=GREY)

    def paint(c: Canvas, face: Face) -> None:
        fx, fy = face.x, face.y
        _frame(c, face, OWNER_COLOURS[owner])
        corner(c, face)
        c.saveState()
        c.translate(face.width, face.height)
        c.rotate(180)
        corner(c, face)
        c.restoreState()
        fit_line(c, symbol, fx(10), fy(44), fx(43), pt(face, 64), align=Align.CENTER, colour=colour)
        fit_line(c, "COSMIC · コズミック", fx(15), face.height - fy(11), fx(33), pt(face, 7.5), align=Align.CENTER,
                 colour=OWNER_COLOURS[owner])
        fit_text(c, "At the end of your turn you may take one cosmic card into your hand if it then holds 10 or "
                 "fewer (UTA-R52).", fx(15), fy(34), fx(33), fy(14), pt(face, 5.6), align=Align.CENTER, colour=INK)
        _footer(c, face, "UTA-R52", owner, f"{symbol}{rank_text}+ ({notation})")

    return paint


JOKER_TEXT = ("Once per game, as your main action: turn this card face down. You draw up to 2, then your "
              "opponent draws up to 2 (hand limit 10). Your turn then ends (UTA-R45). It never counts for score.")


def _joker_front(owner: int) -> Painter:
    colour = OWNER_COLOURS[owner]

    def paint(c: Canvas, face: Face) -> None:
        u, fx, fy = face.u, face.x, face.y
        _frame(c, face, colour)
        fit_line(c, "JOKER", fx(5), fy(72), fx(53), pt(face, 22), align=Align.CENTER, colour=colour)
        fit_line(c, "ジョーカー", fx(5), fy(65), fx(53), pt(face, 9), align=Align.CENTER, colour=GREY)
        for i in range(5):
            c.setFillColor(tint(colour, 0.3 + 0.12 * i))
            c.circle(face.width / 2, fy(48), u(10 - 1.8 * i), stroke=0, fill=1)
        fit_line(c, "★", fx(5), fy(44.5), fx(53), pt(face, 16), align=Align.CENTER, colour=PAPER)
        panel(c, fx(4.5), fy(8.5), fx(54), fy(26), fill=PAPER, stroke=tint(colour, 0.55), line_width=u(0.35),
              radius=u(1.5))
        fit_text(c, JOKER_TEXT, fx(6.5), fy(32.6), fx(50), fy(22.5), pt(face, 7), min_size=pt(face, 4.2))
        _footer(c, face, "UTA-R45", owner, "face up: unused")

    return paint


def _definition_front(card: CardDef, owner: int, set_title: str) -> Painter:
    colour = OWNER_COLOURS[owner]
    hero = card.kind == "hero"

    def paint(c: Canvas, face: Face) -> None:
        u, fx, fy = face.u, face.x, face.y
        _frame(c, face, colour)
        title_x = fx(5.5) if hero else fx(15.5)
        if not hero:
            badge(c, fx(8.8), fy(79.2), u(5.0), str(card.cost), fill=colour)
        fit_line(c, card.title, title_x, fy(79.6), fx(60.5) - title_x, pt(face, 10.5), min_size=pt(face, 5))
        kind_words = "hero · 主人公" if hero else "option · オプション"
        fit_line(c, kind_words, title_x, fy(74.6), fx(60.5) - title_x, pt(face, 6.2), colour=GREY)
        timing = TIMING_WORDS.get(card.timing, card.timing)
        panel(c, fx(4.5), fy(66.8), fx(54), fy(5.2), fill=tint(colour, 0.82), radius=u(1.2))
        fit_line(c, f"use: {timing}", fx(6), fy(68.5), fx(30), pt(face, 6.8))
        if hero:
            fit_line(c, "uses", fx(32), fy(68.5), fx(10), pt(face, 5.8), align=Align.RIGHT, colour=GREY)
            for i in range(card.uses):
                c.setStrokeColor(INK)
                c.setLineWidth(u(0.3))
                c.rect(fx(43.5 + 4.6 * i), fy(67.9), u(3.2), u(3.2), stroke=1, fill=0)
        else:
            fit_line(c, f"cost {card.cost}", fx(40), fy(68.5), fx(17), pt(face, 5.8), align=Align.RIGHT, colour=GREY)
        panel(c, fx(4.5), fy(8.5), fx(54), fy(57), fill=PAPER, stroke=tint(colour, 0.55), line_width=u(0.35),
              radius=u(1.5))
        body = card.text or "(no text)"
        fit_text(c, body, fx(6.5), fy(63), fx(50), fy(38), pt(face, 8), min_size=pt(face, 4.2))
        if hero and card.uses > 1:
            notes = [f"{card.uses} uses: tick a box at each, turn it face down after the last (UTA-R47)."]
        elif hero:
            notes = ["Turn face down to use: once per game (UTA-R47)."]
        else:
            notes = ["Turn face down to use: single use (UTA-R46)."]
        if card.ignore_hand_limit:
            notes.append("May take you past the hand limit of 10 (UTA-R53).")
        fit_text(c, " ".join(notes), fx(6.5), fy(22), fx(50), fy(12.5), pt(face, 5.6), min_size=pt(face, 3.8),
                 colour=GREY)
        _footer(c, face, card.name, owner, set_title)

    return paint


REFERENCE_FRONT = (
    ("Blocking (UTA-R18, R19)", "♥ attack: only a ♣ blocks. ♠ attack: only a ♦ blocks. ♣ or ♦ attack: any suit "
                                "blocks. The block needs an equal or higher number; A is 1, J Q K are 11 12 13."),
    ("Unblockable (UTA-R17)", "♥A, ♠A and every ♦NEXT attack."),
    ("Success (UTA-R22 to R25)", "♥ or ♣: you draw 1. ♠: a card of their hand goes face down to their discard. "
                                 "♦: the same, face up. ♣A and ♦A may cancel (UTA-R29, R30)."),
    ("Rank effects, their next turn (UTA-R32 to R35)", "2 3 4: name a suit they may not attack with. 5 6 7: "
                                                        "your cards +2. 8 9 10: your 8, 9 and 10 +1."),
)
REFERENCE_BACK = (
    ("Energy, when you attack (UTA-R41, R42)", "2 3 4: you +1 and they −1. 5 6 7: you +1. 8 9 10: no change. "
                                               "A J Q K: pay 1 to attack. Blocks cost nothing."),
    ("Pass (UTA-R44)", "turn one of your face-up discards face down: +1 energy."),
    ("J Q K (UTA-R36, R37)", "set face down in an earlier turn before playing them; they stay in your hand."),
    ("End of turn (UTA-R52)", "you may take one cosmic card if your hand then holds 10 or fewer."),
    ("Score (UTA-R58)", "most face-up cards in your discard pile wins; a tie: the lower option cost wins."),
)


def _reference(title: str, rows: tuple[tuple[str, str], ...]) -> Painter:
    def paint(c: Canvas, face: Face) -> None:
        u, fx, fy = face.u, face.x, face.y
        fill_bleed(c, face, REFERENCE_COLOUR)
        panel(c, fx(2.5), fy(2.5), face.width - fx(5), face.height - fy(5), fill=PAPER, radius=u(2.5))
        fit_line(c, title, fx(5), fy(79.5), fx(53), pt(face, 10), align=Align.CENTER, colour=REFERENCE_COLOUR)
        fit_line(c, "言歌姫", fx(5), fy(75.3), fx(53), pt(face, 6.5), align=Align.CENTER, colour=GREY)
        sections(c, face, rows, fx(5.5), fy(72.5), fx(52), fy(5), pt(face, 6.4), head_colour=REFERENCE_COLOUR)

    return paint


COSMIC_TEXT = {
    "ja": "自分のターンの終わりの度に、好きなコズミックカードを一枚選んでから自分の手札に出来ます。この時に手札上限の"
          "{n}枚より多くなる場合には、手札にする事が出来ません。",
    "en": "At the end of each of your turns you may take one cosmic card of your choice into your hand, unless your "
          "hand would then hold more than its limit of {n} (UTA-R52).",
}
JOKER_TEXTS = {
    "ja": "自分の攻撃側の時に、表になっているジョーカーを裏にすることで、自分と相手は山札の上からカードを二枚ずつ"
          "ドローできます。しかしジョーカーを使ったターンの間、自分は番を終えます。この時に、手札上限の{n}枚より多くは"
          "手札には出来ません。",
    "en": "Once per game, in your attack: turn this card face down. You draw up to 2, then your opponent draws up "
          "to 2 (hand limit {n}). Your turn then ends (UTA-R45). It never counts for score.",
}
USE_WORDS = {
    "ja": {"own_turn": "自分のターンに使う", "any_time": "いつでも使える", "option": "オプションカード",
           "hero": "主人公カード", "cost": "コスト {n}", "uses": "{n}回", "once": "裏にして使う:1回だけ (UTA-R46)",
           "hero_note": "1ゲームに{n}回まで使える (UTA-R47)"},
    "en": {"own_turn": "use: your turn", "any_time": "use: any time", "option": "option card", "hero": "hero card",
           "cost": "cost {n}", "uses": "{n} uses", "once": "Turn face down to use: single use (UTA-R46).",
           "hero_note": "{n} use(s) per game (UTA-R47)."},
}
"""The words of the legible option, hero, cosmic and joker cards."""


def _legible_frame(c: Canvas, face: Face, colour: Color, left: str, owner: int, ed: Edition) -> None:
    """The frame and the two footer lines of a legible card: its rule and owner, then the set's stamp."""
    fx, fy = face.x, face.y
    _frame(c, face, colour)
    fit_line(c, f"{left} · P{owner + 1}", fx(5), fy(8.8), fx(53), size(face, 7), min_size=LEAST_PT,
             colour=OWNER_COLOURS[owner])
    fit_line(c, ed.stamp, fx(5), fy(4.4), fx(53), size(face, 7), min_size=LEAST_PT, align=Align.CENTER)


def _legible_cosmic(suit: int, rank: int, owner: int, ed: Edition) -> Painter:
    rank_text = RANK_NAMES[rank - 1]
    symbol = SUIT_SYMBOLS[suit]
    colour = _suit_colour(suit)
    text = COSMIC_TEXT[ed.lang].format(n=ed.value("hand.limit"))

    def paint(c: Canvas, face: Face) -> None:
        fx, fy, u = face.x, face.y, face.u
        _legible_frame(c, face, OWNER_COLOURS[owner], "UTA-R52", owner, ed)
        fit_line(c, f"{symbol}{rank_text}+", fx(5), fy(78.5), fx(20), size(face, 16), colour=colour)
        fit_line(c, "コズミックカード" if ed.ja else "COSMIC CARD", fx(25), fy(79.5), fx(33), size(face, 8),
                 min_size=LEAST_PT, align=Align.RIGHT, colour=OWNER_COLOURS[owner])
        fit_line(c, symbol, fx(10), fy(52), fx(43), pt(face, 48), align=Align.CENTER, colour=colour)
        panel(c, fx(4.5), fy(12.5), fx(54), fy(32), fill=PAPER, stroke=tint(OWNER_COLOURS[owner], 0.55),
              line_width=u(0.35), radius=u(1.5))
        fit_text(c, text, fx(6.5), fy(42.5), fx(50), fy(28.5), size(face, 8.5), min_size=LEAST_PT)

    return paint


def _legible_joker(owner: int, ed: Edition) -> Painter:
    colour = OWNER_COLOURS[owner]
    text = JOKER_TEXTS[ed.lang].format(n=ed.value("hand.limit"))

    def paint(c: Canvas, face: Face) -> None:
        fx, fy, u = face.x, face.y, face.u
        _legible_frame(c, face, colour, "UTA-R45", owner, ed)
        fit_line(c, "ジョーカー" if ed.ja else "JOKER", fx(5), fy(74), fx(53), size(face, 20), align=Align.CENTER,
                 colour=colour)
        panel(c, fx(4.5), fy(12.5), fx(54), fy(52), fill=PAPER, stroke=tint(colour, 0.55), line_width=u(0.35),
              radius=u(1.5))
        fit_text(c, text, fx(6.5), fy(62.5), fx(50), fy(48.5), size(face, 9), min_size=LEAST_PT)

    return paint


def _legible_definition(card: CardDef, owner: int, set_name: str, ed: Edition) -> Painter:
    colour = OWNER_COLOURS[owner]
    hero = card.kind == "hero"
    words = USE_WORDS[ed.lang]
    title = (card.title_ja or card.title) if ed.ja else card.title
    other = card.title if ed.ja else card.title_ja
    body = ((card.text_ja or card.text) if ed.ja else card.text) or "-"
    note = words["hero_note"].format(n=card.uses) if hero else words["once"]

    def paint(c: Canvas, face: Face) -> None:
        fx, fy, u = face.x, face.y, face.u
        _legible_frame(c, face, colour, f"{card.name} · {set_name}", owner, ed)
        title_x = fx(5.5) if hero else fx(15.5)
        if not hero:
            badge(c, fx(8.8), fy(79.2), u(5.0), str(card.cost), fill=colour)
        fit_line(c, title, title_x, fy(79.4), fx(60.5) - title_x, size(face, 11), min_size=LEAST_PT)
        fit_line(c, other or words["hero" if hero else "option"], title_x, fy(74.4), fx(60.5) - title_x,
                 size(face, 7.5), min_size=LEAST_PT, colour=GREY)
        panel(c, fx(4.5), fy(65.8), fx(54), fy(6.2), fill=tint(colour, 0.82), radius=u(1.2))
        fit_line(c, words.get(card.timing, card.timing), fx(6), fy(67.8), fx(30),
                 size(face, 8), min_size=LEAST_PT)
        right = words["uses"].format(n=card.uses) if hero else words["cost"].format(n=card.cost)
        fit_line(c, right, fx(36), fy(67.8), fx(21), size(face, 7.5), min_size=LEAST_PT, align=Align.RIGHT)
        panel(c, fx(4.5), fy(12.5), fx(54), fy(52), fill=PAPER, stroke=tint(colour, 0.55), line_width=u(0.35),
              radius=u(1.5))
        fit_text(c, body, fx(6.5), fy(62.5), fx(50), fy(36), size(face, 9.5), min_size=LEAST_PT)
        fit_text(c, note, fx(6.5), fy(24.5), fx(50), fy(11), size(face, 7.2), min_size=LEAST_PT, colour=GREY)

    return paint


def _printed_items(ed: Edition) -> frozenset[str] | None:
    """What ``--only-changed`` keeps: the changed items, and the cosmic cards and jokers if the hand limit changed."""
    items = ed.changed_items()
    if items is None:
        return None
    if "hand" in items:
        items = items | {"joker"} | {cosmic_item(n) for n in COSMIC_NAMES}
    return items


def utahime_job(option_set: OptionSet | None, edition: Edition | None = None) -> PrintJob:
    """Each player's cosmic cards, joker and option/hero cards (each player on their own sheets), then the reference.

    With an ``edition`` the cards are the legible ones: the set's cosmic pool (UTA-R52), its hand limit in
    the texts, its costs and uses (priced into ``option_set`` by :func:`load_option_set`), no reference card;
    ``--only-changed`` keeps the cards whose numbers changed.
    """
    cards: list[PrintCard] = []
    backs: dict[str, Painter] = {}
    keep = _printed_items(edition) if edition is not None else None
    for owner in (0, 1):
        back = f"p{owner + 1}"

        def add(label: str, front: Painter, names: tuple[str, ...], item: str, owner: int = owner,
                back: str = back) -> None:
            if keep is not None and item not in keep:
                return
            first = not any(p.group == f"P{owner + 1}" for p in cards)
            cards.append(PrintCard(label, f"P{owner + 1}", front, back, names=names, new_sheet=first))

        for (suit, rank), name in zip(COSMIC_CARDS, COSMIC_NAMES, strict=True):
            shown = f"{SUIT_SYMBOLS[suit]}{RANK_NAMES[rank - 1]}+"
            if edition is not None and not edition.value(f"{cosmic_item(name)}.pool"):
                continue  # UTA-R52: a cosmic card the set leaves out of the pool
            front = (_cosmic_front(suit, rank, f"{name}+", owner) if edition is None
                     else _legible_cosmic(suit, rank, owner, edition))
            add(f"P{owner + 1} cosmic {shown}", front, (shown, f"{name}+"), cosmic_item(name))
        add(f"P{owner + 1} joker", _joker_front(owner) if edition is None else _legible_joker(owner, edition),
            ("JOKER",), "joker")
        if option_set is not None:
            options, heroes = seat_cards(option_set, owner)
            for card in options + heroes:
                front = (_definition_front(card, owner, option_set.name) if edition is None
                         else _legible_definition(card, owner, option_set.name, edition))
                add(f"P{owner + 1} {card.kind} {card.title}", front, (card.title,), card.name)
        backs[back] = pattern_back(OWNER_PATTERNS[owner], OWNER_COLOURS[owner], tint(OWNER_COLOURS[owner], 0.4),
                                   "言歌姫", f"UTAHIME · player {owner + 1}",
                                   option_set.name if option_set is not None else "cosmic · joker",
                                   least_pt=LEAST_PT if edition is not None else 0.0,
                                   stamp=edition.stamp if edition is not None else "")
    if edition is None:
        cards.append(PrintCard("reference", "reference", _reference("Utahime: attack and block", REFERENCE_FRONT),
                               "reference", names=("Utahime: attack and block",)))
        backs["reference"] = _reference("Utahime: energy and score", REFERENCE_BACK)
    if not cards:
        hint = "" if option_set is not None else "; changed option cards print with --options"
        raise PrintError(f"no card of this print changed: nothing to print{hint}")
    return PrintJob(TITLE, tuple(cards), backs)


def print_utahime(option_set: OptionSet | None = None, spec: SheetSpec | None = None,
                  edition: Edition | None = None) -> PrintResult:
    """Render Utahime's printed cards; the PDF is in the result, not yet written."""
    return render(utahime_job(option_set, edition), spec or SheetSpec())


def print_cards(spec: SheetSpec, options: PrintOptions) -> PrintResult:
    """``cardtable print utahime``: the option set's cards if one is given (priced by ``--cards``), then the PDF."""
    edition = edition_of("utahime", options)
    cards = edition.cards if edition is not None else None
    option_set = load_option_set(options.options, cards) if options.options is not None else None
    return print_utahime(option_set, spec, edition)


PRINTER = GamePrinter(print_cards, frozenset({"options", "cards", "lang", "only_changed"}))
"""Utahime's printer (its kit's ``printer``)."""
