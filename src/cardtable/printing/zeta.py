"""Zeta print-and-play cards: one card per copy in each deck, two owner backs and a rules summary card.

A front shows what the seed fixes (cost, the Fanfare ◯ or continuous × mark, the effect) and what
a deck may choose (its display name, ZETA-I58), with the seed's Japanese and the English name
under it. The seed tells the two players' cards apart by the pattern of their backs (rulebook
§2.2, ZETA-R1) and draws your cards red and the opponent's green, so player 1's cards are framed
red with a striped back and player 2's green with a dotted back (PRINT-I1).

>>> from cardtable.games.zeta.decks import preset
>>> job = zeta_job([preset("classic"), preset("control")])
>>> len(job.cards), sorted(job.backs)
(51, ['p1', 'p2', 'reference'])
>>> job.cards[0].label
'P1 classic: Chant Practice 1/8'
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.colors import HexColor

from cardtable.core.cardset import CardSet, CardSetError, changed_items, default_set
from cardtable.core.cardset import load as load_card_set
from cardtable.games.zeta.cards import CARD_BY_ID, CARDS, CardType
from cardtable.games.zeta.cardset import TEXT_JA
from cardtable.games.zeta.decks import (
    PRESET_NAMES,
    Deck,
    DeckError,
    deck_from_mapping,
    load_deck_file,
    preset,
    read_toml,
    validate_deck,
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
from .layout import CardSize, PrintError
from .sheets import GamePrinter, PrintCard, PrintJob, PrintOptions, PrintResult, SheetSpec, render

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

TITLE = "Zeta"
MAX_CARD = CardSize(70.0, 96.0)
"""The seed's limit for brought decks: cards within 70 x 96 mm (rulebook §2.2, seed L21)."""
DEFAULT_CARD = CardSize(63.0, 88.0)
DECK_SIZE = 25
OWNER_COLOURS = (HexColor("#C62828"), HexColor("#2E7D32"))
"""Player 1 red, player 2 green: the seed's 「赤は自分の手札、緑は相手の手札」 (PRINT-I1)."""
OWNER_PATTERNS = (Pattern.STRIPES, Pattern.DOTS)
REFERENCE_COLOUR = HexColor("#37474F")


@dataclass(frozen=True)
class Skin:
    """Display names for a deck's cards (ZETA-I58) and an optional theme title for its back."""

    names: dict[str, str] = field(default_factory=dict)
    title: str | None = None


def load_skin(path: str | Path) -> Skin:
    """Read a skin file: TOML with an optional ``title`` and a ``[names]`` table of card id -> display name."""
    p = Path(path)
    data = read_toml(p, "skin", PrintError)
    unknown = sorted(set(data) - {"title", "names"})
    if unknown:
        raise PrintError(f"skin file {p}: unknown key(s) {', '.join(unknown)}; a skin has 'title' and [names]")
    title = data.get("title")
    if title is not None and (not isinstance(title, str) or not title.strip()):
        raise PrintError(f"skin file {p}: 'title' must be a non-empty string")
    names = data.get("names", {})
    try:
        deck = deck_from_mapping({"name": p.stem, "cards": {}, "names": names}, source=p.name)
    except DeckError as exc:
        raise PrintError(str(exc)) from None
    return Skin(deck.names, title)


def load_deck(spec: str, *, limits: bool = True, cards: str = "") -> Deck:
    """A preset name or a TOML deck file, checked against ZETA-R6 (25 cards; copy limits unless ``limits`` is off).

    ``cards``: a card set's ``cards`` rule flag, whose copy limits apply.
    """
    if spec not in PRESET_NAMES and not Path(spec).exists():
        close = difflib.get_close_matches(spec, PRESET_NAMES, n=1)
        guess = f" (did you mean {close[0]!r}?)" if close else ""
        raise PrintError(f"{spec!r} is neither a preset deck nor a deck file{guess}; presets: {', '.join(PRESET_NAMES)}")
    try:
        deck = preset(spec) if spec in PRESET_NAMES else load_deck_file(spec)
        validate_deck(deck, deck_size=DECK_SIZE, limits=limits, cards=cards)
    except DeckError as exc:
        hint = ("; --no-limits prints it anyway (construction_limits=false, ZETA-I-CT1)"
                if limits and "the limit is" in str(exc) else "")
        raise PrintError(f"{exc}{hint}") from None
    return deck


def check_card_size(card: CardSize) -> None:
    """PrintError for a card larger than the seed allows (70 x 96 mm, rulebook §2.2)."""
    if card.width > MAX_CARD.width or card.height > MAX_CARD.height:
        raise PrintError(f"Zeta cards must be within {MAX_CARD} (the seed's limit for brought decks, rulebook §2.2); "
                         f"{card} is larger")


def kind_of(card: CardType) -> tuple[str, str]:
    """The seed's mark and its words: ◯ Fanfare (ZETA-R32), × continuous (ZETA-R33) or × no effect (ZETA-R36)."""
    if card.fanfare:
        return "◯", "Fanfare ファンファーレ"
    if card.id == "chant_practice":
        return "×", "No effect 効果なし"
    return "×", "Continuous 常時"


def _front(card: CardType, display: str, owner: int, footer_right: str) -> Painter:
    colour = OWNER_COLOURS[owner]

    def paint(c: Canvas, face: Face) -> None:
        u, fx, fy = face.u, face.x, face.y
        fill_bleed(c, face, colour)
        panel(c, fx(2.5), fy(2.5), face.width - fx(5), face.height - fy(5), fill=PAPER, radius=u(2.5))
        badge(c, fx(8.8), fy(79.2), u(5.0), str(card.cost), fill=colour)
        fit_line(c, display, fx(15.5), fy(79.6), fx(44.5), pt(face, 10.5), min_size=pt(face, 5))
        sub = card.japanese if display == card.english else f"{card.japanese} · {card.english}"
        fit_line(c, sub, fx(15.5), fy(74.6), fx(44.5), pt(face, 6.2), min_size=pt(face, 4), colour=GREY)
        mark, words = kind_of(card)
        panel(c, fx(4.5), fy(66.8), fx(54), fy(5.2), fill=tint(colour, 0.82), radius=u(1.2))
        fit_line(c, f"{mark}  {words}", fx(6), fy(68.5), fx(36), pt(face, 6.8), colour=INK)
        fit_line(c, f"limit {card.limit}", fx(42), fy(68.5), fx(15), pt(face, 5.8), align=Align.RIGHT, colour=GREY)
        # art: the seed leaves the design free; the Japanese name over four in a row
        panel(c, fx(4.5), fy(38), fx(54), fy(27.5), fill=tint(colour, 0.9), radius=u(1.5))
        for i in range(4):
            c.setFillColor(tint(colour, 0.62))
            c.circle(fx(16.5 + 10 * i), fy(44.5), u(3.2), stroke=0, fill=1)
        fit_line(c, card.japanese, fx(6), fy(53), fx(51), pt(face, 17), min_size=pt(face, 6), align=Align.CENTER,
                 colour=tint(colour, 0.35))
        panel(c, fx(4.5), fy(8.5), fx(54), fy(28), fill=PAPER, stroke=tint(colour, 0.55), line_width=u(0.35),
              radius=u(1.5))
        fit_text(c, card.effect, fx(6.5), fy(34.6), fx(50), fy(24.5), pt(face, 7.6), min_size=pt(face, 4.2))
        fit_line(c, card.rule, fx(5), fy(4.6), fx(20), pt(face, 5.2), colour=GREY)
        fit_line(c, f"P{owner + 1}", fx(25), fy(4.6), fx(13), pt(face, 5.2), align=Align.CENTER, colour=colour)
        fit_line(c, footer_right, fx(36), fy(4.6), fx(22.5), pt(face, 5.2), align=Align.RIGHT, colour=GREY)

    return paint


SUMMARY = (
    ("Setup", "shuffle your 25-card deck and draw 3 (ZETA-R7, R9); a coin toss decides who goes first (ZETA-R8)."),
    ("Your turn", "if your deck is empty you lose; draw 1; then place 1 card from your hand on an empty square, "
                  "or pass (ZETA-R12, R13)."),
    ("Cost", "a card may be placed only if its cost is at most the number of cards on the board (ZETA-R14)."),
    ("Effects", "◯ Fanfare: resolves right after the card is placed (ZETA-R32). × continuous: works while the "
                "card is on the board (ZETA-R33). Destroyed cards never return (ZETA-R25)."),
    ("Win", "four of your cards in a row, across, up or diagonally, wins at once, before the Fanfare "
            "(ZETA-R20, R21). A full board: more cards on it wins (ZETA-R22)."),
)


def _summary_front(c: Canvas, face: Face) -> None:
    u, fx, fy = face.u, face.x, face.y
    fill_bleed(c, face, REFERENCE_COLOUR)
    panel(c, fx(2.5), fy(2.5), face.width - fx(5), face.height - fy(5), fill=PAPER, radius=u(2.5))
    fit_line(c, "Zeta ζ: how to play", fx(5), fy(79), fx(53), pt(face, 10.5), align=Align.CENTER,
             colour=REFERENCE_COLOUR)
    fit_line(c, "技術四目並べ・ゼータζ", fx(5), fy(74.5), fx(53), pt(face, 6.5), align=Align.CENTER, colour=GREY)
    sections(c, face, SUMMARY, fx(5.5), fy(71.5), fx(52), fy(8), pt(face, 6.4), head_colour=REFERENCE_COLOUR)
    fit_line(c, "cardtable rules zeta ZETA-R12", fx(5), fy(4.6), fx(53), pt(face, 5), align=Align.CENTER, colour=GREY)


def _summary_back(c: Canvas, face: Face) -> None:
    u, fx, fy = face.u, face.x, face.y
    fill_bleed(c, face, REFERENCE_COLOUR)
    panel(c, fx(2.5), fy(2.5), face.width - fx(5), face.height - fy(5), fill=PAPER, radius=u(2.5))
    fit_line(c, "The 25 card types: cost, name, limit", fx(5), fy(80), fx(53), pt(face, 7.5), align=Align.CENTER,
             colour=REFERENCE_COLOUR)
    row = fy(2.9)
    y = fy(75.5)
    for card in CARDS:
        mark, _ = kind_of(card)
        fit_line(c, f"{card.cost}", fx(5), y, fx(5), pt(face, 5.6), align=Align.RIGHT)
        fit_line(c, f"{mark} {card.english} {card.japanese}", fx(11.5), y, fx(40), pt(face, 5.6), min_size=pt(face, 3.5))
        fit_line(c, f"{card.limit}", fx(52.5), y, fx(5), pt(face, 5.6), align=Align.RIGHT, colour=GREY)
        y -= row
    fit_line(c, "limits add up to 50; a deck holds exactly 25 (ZETA-R6)", fx(5), fy(4.6), fx(53), pt(face, 5),
             align=Align.CENTER, colour=GREY)


LEAST_PT = 7.0
"""The smallest text of a legible card (``--lang``): nothing under 7 pt."""

# Where an effect's number stands in its text, per language: (card, number) -> (English, Japanese) with {n}.
EFFECT_NUMBERS: dict[tuple[str, str], tuple[str, str]] = {
    ("blessing_mist", "draw"): ("each draw {n} card{s} from", "カードを{n}枚ずつ引く"),
    ("do_over", "draw"): ("then draw {n} card{s}.", "破壊し、カードを{n}枚引く"),
    ("fortune_telling", "draw"): ("Draw {n} cards. Destroy one of those {those}.", "カード{n}枚引く。{which}を破壊する"),
    ("magic_circle", "draw"): ("adjacent to this card, draw {n} card{s}.", "置いたとき、カードを{n}枚引く"),
    ("magical_boost", "draw"): ("Draw {n} card{s}.", "カードを{n}枚引く"),
    ("apprentice_hexer", "hand"): ("has {n} or more cards in hand", "手札が{n}枚以上"),
    ("great_magic_circle", "destroy"): ("destroy up to {n} random cards", "ランダムに最大{n}枚破壊"),
    ("awakening_potion", "draw"): ("Draw {n} cards.", "カードを{n}枚引く"),
    ("awakening_potion", "destroy"): ("Destroy up to {n} random", "相手の手札からランダムに最大{n}枚"),
    ("magic_broom", "cap"): ("cards of cost {n} or less", "コスト{n}以下"),
    ("mourning_the_dead", "destroyed"): ("If {n} or more of your cards", "破壊された自分のカードが{n}枚以上"),
}
"""The effect numbers a card set may change, as they are written in each card's text."""

KIND_WORDS = {"en": ("Fanfare", "Continuous", "No effect"), "ja": ("ファンファーレ", "常時", "効果なし")}
LIMIT_WORDS = {"en": "limit {n}", "ja": "上限 {n}枚"}


@dataclass(frozen=True)
class Edition:
    """What a legible print shows: a card set's numbers, the language of the text and the set's stamp."""

    cards: CardSet
    lang: str = "en"
    only: frozenset[str] | None = None
    """The card ids to print (``--only-changed``); None: every card of the decks."""

    @property
    def stamp(self) -> str:
        """The set's name and hash, on every card."""
        return self.cards.stamp

    def cost(self, card: CardType) -> int:
        """The card's cost in this set."""
        return self.cards.values[f"{card.id}.cost"]

    def limit(self, card: CardType) -> int:
        """The card's copy limit in this set."""
        return self.cards.values[f"{card.id}.limit"]

    def effect(self, card: CardType) -> str:
        """The card's text in the edition's language, with this set's numbers."""
        text = TEXT_JA[card.id] if self.lang == "ja" else card.effect
        for (cid, field_), words in EFFECT_NUMBERS.items():
            if cid != card.id:
                continue
            key = f"{cid}.{field_}"
            pattern = words[1] if self.lang == "ja" else words[0]
            was, now = default_set("zeta").values[key], self.cards.values[key]
            old, new = (pattern.format(n=n, s="" if n == 1 else "s", those="two" if n == 2 else str(n),
                                       which="どちらか一方" if n == 2 else "そのうち1枚") for n in (was, now))
            if old not in text:
                raise PrintError(f"{card.id}: the text does not say {old!r}; cannot print {key}")
            text = text.replace(old, new)
        return text


def effect_text(card_id: str, lang: str, cards: CardSet | None = None) -> str:
    """A card's effect as printed: the designer's words in ``lang`` with the set's numbers.

    >>> effect_text("magic_broom", "ja", default_set("zeta").replace({"magic_broom.cap": 8}))
    '自分は次のターンのみ、盤面に関わらずコスト8以下のカードを使うことができる'
    """
    return Edition(cards or default_set("zeta"), lang).effect(CARD_BY_ID[card_id])


def _legible_front(card: CardType, display: str, owner: int, footer_right: str, ed: Edition) -> Painter:
    """A front whose every text is at least 7 pt, in one language, with the set's numbers and stamp."""
    colour = OWNER_COLOURS[owner]
    ja = ed.lang == "ja"
    name = card.japanese if ja and display == card.english else display
    other = card.english if ja else card.japanese
    cost, limit, effect = ed.cost(card), ed.limit(card), ed.effect(card)
    words = KIND_WORDS[ed.lang]
    mark, _ = kind_of(card)
    kind = words[0] if card.fanfare else words[2] if card.id == "chant_practice" else words[1]

    def paint(c: Canvas, face: Face) -> None:
        u, fx, fy = face.u, face.x, face.y

        def size(points: float) -> float:
            return max(LEAST_PT, pt(face, points))

        fill_bleed(c, face, colour)
        panel(c, fx(2.5), fy(2.5), face.width - fx(5), face.height - fy(5), fill=PAPER, radius=u(2.5))
        badge(c, fx(8.8), fy(79.2), u(5.0), str(cost), fill=colour)
        fit_line(c, name, fx(15.5), fy(79.4), fx(44.5), size(11), min_size=LEAST_PT)
        fit_line(c, other, fx(15.5), fy(74.4), fx(44.5), size(7.5), min_size=LEAST_PT, colour=GREY)
        panel(c, fx(4.5), fy(65.8), fx(54), fy(6.2), fill=tint(colour, 0.82), radius=u(1.2))
        fit_line(c, f"{mark} {kind}", fx(6), fy(67.8), fx(30), size(8), min_size=LEAST_PT, colour=INK)
        fit_line(c, LIMIT_WORDS[ed.lang].format(n=limit), fx(36), fy(67.8), fx(21), size(7.5), min_size=LEAST_PT,
                 align=Align.RIGHT, colour=INK)
        panel(c, fx(4.5), fy(50.5), fx(54), fy(14), fill=tint(colour, 0.9), radius=u(1.5))
        for i in range(4):
            c.setFillColor(tint(colour, 0.62))
            c.circle(fx(16.5 + 10 * i), fy(54.5), u(2.6), stroke=0, fill=1)
        fit_line(c, card.japanese, fx(6), fy(58.5), fx(51), size(15), min_size=LEAST_PT, align=Align.CENTER,
                 colour=tint(colour, 0.35))
        panel(c, fx(4.5), fy(13), fx(54), fy(36.3), fill=PAPER, stroke=tint(colour, 0.55), line_width=u(0.35),
              radius=u(1.5))
        fit_text(c, effect, fx(6.5), fy(47.3), fx(50), fy(32.5), size(9.5), min_size=LEAST_PT)
        fit_line(c, card.rule, fx(5), fy(8.6), fx(20), size(7), min_size=LEAST_PT, colour=GREY)
        fit_line(c, f"P{owner + 1} · {footer_right}", fx(24), fy(8.6), fx(34.5), size(7), min_size=LEAST_PT,
                 align=Align.RIGHT, colour=colour)
        fit_line(c, ed.stamp, fx(5), fy(4.2), fx(53.5), size(7), min_size=LEAST_PT, align=Align.CENTER, colour=INK)

    return paint


def zeta_job(decks: Sequence[Deck], skins: Sequence[Skin] = (), edition: Edition | None = None) -> PrintJob:
    """The cards of a print run: player 1's deck, player 2's (the first again if only one) and the summary card.

    ``skins`` gives display names: one skin for every deck, or one per deck; a deck's own
    ``[names]`` apply where the skin names nothing. With an ``edition`` (``--lang``, ``--cards``) the
    cards are the legible ones (one language, 7 pt or more, the set's numbers and stamp) and the rules
    summary is left out; ``edition.only`` keeps the cards whose numbers changed.
    """
    if not decks:
        raise PrintError("no deck to print")
    if len(decks) > 2:
        raise PrintError(f"Zeta has two players: give one or two decks, not {len(decks)}")
    pair = [decks[0], decks[1] if len(decks) > 1 else decks[0]]
    if len(skins) > 2:
        raise PrintError(f"give one skin for both decks or one per deck, not {len(skins)}")
    skin_for = [skins[0] if skins else Skin(), skins[-1] if skins else Skin()]
    cards: list[PrintCard] = []
    backs: dict[str, Painter] = {}
    for owner, deck in enumerate(pair):
        skin = skin_for[owner]
        names = {**deck.names, **skin.names}
        total = deck.size
        index = 0
        for cid in (c.id for c in CARDS):
            card = CARD_BY_ID[cid]
            display = names.get(cid, card.english)
            count = deck.counts.get(cid, 0)
            for copy in range(count):
                index += 1
                if edition is not None and edition.only is not None and cid not in edition.only:
                    continue
                label = f"P{owner + 1} {deck.name}: {display} {copy + 1}/{count}"
                footer = f"{deck.name} · {index}/{total}"
                front = (_front(card, display, owner, footer) if edition is None
                         else _legible_front(card, display, owner, footer, edition))
                shown = tuple(dict.fromkeys((display, card.japanese, card.english)))
                first = not any(p.group == f"P{owner + 1} {deck.name}" for p in cards)
                cards.append(PrintCard(label, f"P{owner + 1} {deck.name}", front, f"p{owner + 1}", names=shown,
                                       new_sheet=first))
        theme = skin.title or deck.name
        backs[f"p{owner + 1}"] = pattern_back(
            OWNER_PATTERNS[owner], OWNER_COLOURS[owner], tint(OWNER_COLOURS[owner], 0.35), "ζ",
            f"ZETA · player {owner + 1}", f"技術四目並べ・ゼータζ · {theme}",
            least_pt=LEAST_PT if edition is not None else 0.0, stamp=edition.stamp if edition is not None else "")
    if edition is None:
        cards.append(PrintCard("rules summary", "rules summary", _summary_front, "reference",
                               names=("Zeta ζ: how to play",)))
        backs["reference"] = _summary_back
    if not cards:
        raise PrintError("no card of these decks changed: nothing to print")
    return PrintJob(TITLE, tuple(cards), backs)


def print_zeta(decks: Sequence[Deck], spec: SheetSpec | None = None, skins: Sequence[Skin] = (),
               edition: Edition | None = None) -> PrintResult:
    """Render Zeta's cards (card size within the seed's 70 x 96 mm); the PDF is in the result, not yet written."""
    spec = spec or SheetSpec(card=DEFAULT_CARD)
    check_card_size(spec.card)
    return render(zeta_job(decks, skins, edition), spec)


def _read_set(path: Path) -> CardSet:
    try:
        return load_card_set(path, "zeta")
    except CardSetError as exc:
        raise PrintError(str(exc)) from None


def edition_of(options: PrintOptions) -> Edition | None:
    """The legible edition the options ask for (``--cards``, ``--lang``, ``--only-changed``), or None."""
    if options.cards is None and options.lang is None and options.only_changed is None:
        return None
    lang = options.lang or "en"
    if lang not in KIND_WORDS:
        raise PrintError(f"--lang must be en or ja, not {lang!r}")
    cards = _read_set(options.cards) if options.cards is not None else default_set("zeta")
    only = None
    if options.only_changed is not None:
        only = frozenset(changed_items(_read_set(options.only_changed), cards)) & {c.id for c in CARDS}
    return Edition(cards, lang, only)


def print_cards(spec: SheetSpec, options: PrintOptions) -> PrintResult:
    """``cardtable print zeta``: the card size, then the decks (classic for both by default) and skins, then the PDF."""
    check_card_size(spec.card)
    edition = edition_of(options)
    flags = edition.cards.rule_flags().get("cards", "") if edition is not None else ""
    decks = [load_deck(d, limits=not options.no_limits, cards=flags) for d in (options.decks or ("classic",))]
    return print_zeta(decks, spec, [load_skin(s) for s in options.skins], edition)


PRINTER = GamePrinter(print_cards, frozenset({"decks", "skins", "no_limits", "cards", "lang", "only_changed"}))
"""Zeta's printer (its kit's ``printer``)."""

