"""Zeta's part of the web surface: its card data and the deck builder's routes (``/web/decks/zeta``, ZETA-R6).

>>> sorted(r.path for r in WEB.router.routes) if WEB.router else []
['/web/decks/zeta', '/web/decks/zeta/check', '/web/decks/zeta/print', '/web/decks/zeta/random']
"""

from __future__ import annotations

import asyncio
import random
import re
import tomllib
from collections.abc import Mapping
from enum import StrEnum
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import Response
from pydantic import BaseModel, Field

from cardtable.core.errors import ErrorCode
from cardtable.server.errors import Refusal

from ..kit import TEXT_MAX, GameWeb, Strict, toml_string

SKIN_MAX = 40
"""The longest display name (skin) a deck may give a card."""


def cards() -> dict[str, Any]:
    """Zeta's 25 card types as the pages show them (``/web/cards``)."""
    from cardtable.games.zeta.cards import CARDS

    return {"zeta": [
        {"id": c.id, "index": c.index, "japanese": c.japanese, "english": c.english, "cost": c.cost,
         "fanfare": c.fanfare, "continuous": (not c.fanfare) and c.effect != "No effect.", "limit": c.limit,
         "effect": c.effect, "rule": c.rule, "short": c.short} for c in CARDS]}


# -- Zeta decks ----------------------------------------------------------------------------------------
class DeckProblemCode(StrEnum):
    """What is wrong with a deck (ZETA-R6), so a page can say it in any language."""

    TOML = "toml"
    SHAPE = "shape"
    UNKNOWN_CARD = "unknown_card"
    BAD_COUNT = "bad_count"
    BAD_NAME = "bad_name"
    SIZE = "size"
    LIMIT = "limit"


class DeckProblem(BaseModel):
    """One problem of a deck, with the engine's message and the numbers a page needs to say it."""

    code: DeckProblemCode
    message: str
    card: str | None = None
    count: int | None = None
    limit: int | None = None


class DeckIn(Strict):
    """A deck as the builder holds it: a name, card id -> count, optional display names (skins)."""

    name: str = Field("deck", max_length=64)
    cards: dict[str, Any] = Field(default_factory=dict, max_length=64)
    names: dict[str, Any] = Field(default_factory=dict, max_length=64)


class DeckRules(Strict):
    """The rule flags a deck is checked under (ZETA-I2, ZETA-I-CT1)."""

    deck_size: int = Field(25, ge=1, le=60)
    construction_limits: bool = True


class DeckCheckIn(Strict):
    """A deck to check: its TOML text (a deck file) or the builder's deck, and the rules."""

    toml: str | None = Field(None, max_length=TEXT_MAX)
    deck: DeckIn | None = None
    rules: DeckRules = Field(default_factory=lambda: DeckRules(deck_size=25, construction_limits=True))


class DeckOut(BaseModel):
    """A deck as the pages and the room setup use it (``{"name", "cards", "names"?}``)."""

    name: str
    cards: dict[str, int]
    names: dict[str, str] = Field(default_factory=dict)


class DeckCheckOut(BaseModel):
    """Whether a deck is legal, every problem, the deck read (what could be read) and its TOML."""

    ok: bool
    size: int
    problems: list[DeckProblem]
    deck: DeckOut | None
    toml: str | None


class DeckPreset(BaseModel):
    """One of the project's preset decks."""

    name: str
    deck: DeckOut
    toml: str
    needs: dict[str, Any] = Field(description="Rule flags the preset needs (plain needs construction_limits=false).")


class DeckCatalog(BaseModel):
    """The presets and the default deck size."""

    presets: list[DeckPreset]
    deck_size: int


def deck_toml(name: str, counts: Mapping[str, int], names: Mapping[str, str]) -> str:
    """A deck file (the format ``games/zeta/decks.py`` reads), card lines in card-table order.

    >>> print(deck_toml("mine", {"hexer": 1, "chant_practice": 8}, {"hexer": "Curse Weaver"}), end="")
    name = "mine"
    <BLANKLINE>
    chant_practice = 8
    hexer = 1
    <BLANKLINE>
    [names]
    hexer = "Curse Weaver"
    """
    from cardtable.games.zeta.cards import CARDS

    lines = [f"name = {toml_string(name)}", ""]
    lines += [f"{c.id} = {counts[c.id]}" for c in CARDS if counts.get(c.id)]
    if names:
        lines += ["", "[names]"] + [f"{c.id} = {toml_string(names[c.id])}" for c in CARDS if c.id in names]
    return "\n".join(lines) + "\n"


def check_deck(data: Any, *, deck_size: int = 25, limits: bool = True) -> DeckCheckOut:
    """Every problem of a deck mapping (the engine's messages), and the deck and TOML of what could be read.

    >>> out = check_deck({"name": "big", "chant_practice": 8, "do_over": 3, "blessing_mist": 2, "fire_mage": 13})
    >>> out.ok, [(p.code.value, p.message) for p in out.problems]  # doctest: +NORMALIZE_WHITESPACE
    (False, [('size', 'it has 26 cards but a deck holds exactly 25: remove 1 card(s)'),
             ('limit', 'fire_mage: 13 copies, the limit is 2: remove 11')])
    """
    from cardtable.games.zeta.cards import CARD_BY_ID
    from cardtable.games.zeta.decks import Deck, DeckError, deck_from_mapping, validate_deck

    problems: list[DeckProblem] = []
    if not isinstance(data, dict):
        problems.append(DeckProblem(code=DeckProblemCode.SHAPE, message="a deck is a table of card id -> count"))
        return DeckCheckOut(ok=False, size=0, problems=problems, deck=None, toml=None)
    body = dict(data)
    name = body.pop("name", "deck")
    if not isinstance(name, str) or not name.strip():
        problems.append(DeckProblem(code=DeckProblemCode.SHAPE, message="'name' must be a non-empty string"))
        name = "deck"
    raw_names = body.pop("names", {})
    raw_cards = body.pop("cards", None)
    if raw_cards is None:
        raw_cards = body
    elif body:
        problems.append(DeckProblem(code=DeckProblemCode.SHAPE,
                                    message=f"unexpected keys {', '.join(map(str, body))} next to [cards]"))
    if not isinstance(raw_cards, dict) or not isinstance(raw_names, dict):
        problems.append(DeckProblem(code=DeckProblemCode.SHAPE, message="'cards' and 'names' must be tables"))
        raw_cards = raw_cards if isinstance(raw_cards, dict) else {}
        raw_names = raw_names if isinstance(raw_names, dict) else {}
    counts: dict[str, int] = {}
    for cid, n in raw_cards.items():
        try:
            deck_from_mapping({"name": name, "cards": {cid: n}}, source="deck")
        except DeckError as exc:
            code = DeckProblemCode.UNKNOWN_CARD if cid not in CARD_BY_ID else DeckProblemCode.BAD_COUNT
            problems.append(DeckProblem(code=code, message=str(exc).removeprefix("deck: "), card=str(cid)[:64]))
            continue
        if n:
            counts[cid] = int(n)
    names: dict[str, str] = {}
    for cid, label in raw_names.items():
        try:
            deck_from_mapping({"name": name, "cards": {}, "names": {cid: label}}, source="deck")
        except DeckError as exc:
            problems.append(DeckProblem(code=DeckProblemCode.BAD_NAME, message=str(exc).removeprefix("deck: "),
                                        card=str(cid)[:64]))
            continue
        text = " ".join(str(label).split())
        if len(text) > SKIN_MAX:
            problems.append(DeckProblem(code=DeckProblemCode.BAD_NAME, card=str(cid),
                                        message=f"display name of {cid} has at most {SKIN_MAX} characters"))
            continue
        if any(not ch.isprintable() for ch in text):
            problems.append(DeckProblem(code=DeckProblemCode.BAD_NAME, card=str(cid),
                                        message=f"display name of {cid} must not hold control characters"))
            continue
        names[cid] = text
    deck = Deck(name, counts, names)
    try:
        validate_deck(deck, deck_size=deck_size, limits=limits)
    except DeckError as exc:
        prefix = f"deck {deck.name!r} is not legal: "
        text = str(exc)
        parts = text[len(prefix):].split("; ") if text.startswith(prefix) else [text]
        for part in parts:
            head, _, _ = part.partition(":")
            if head in CARD_BY_ID:
                problems.append(DeckProblem(code=DeckProblemCode.LIMIT, message=part, card=head, count=counts[head],
                                            limit=CARD_BY_ID[head].limit))
            else:
                problems.append(DeckProblem(code=DeckProblemCode.SIZE, message=part, count=deck.size,
                                            limit=deck_size))
    out = DeckOut(name=deck.name, cards=deck.to_json()["cards"], names=dict(names))
    return DeckCheckOut(ok=not problems, size=deck.size, problems=problems, deck=out,
                        toml=deck_toml(deck.name, deck.counts, names))


def _print_zeta_deck(toml_text: str) -> bytes:
    """The PDF of a checked deck file's text, printed for both players (each with its own back)."""
    from cardtable.games.zeta.decks import deck_from_mapping
    from cardtable.printing import PrintError
    from cardtable.printing.zeta import print_zeta

    deck = deck_from_mapping(tomllib.loads(toml_text), source="deck")
    try:
        return print_zeta([deck, deck]).pdf
    except PrintError as exc:
        raise Refusal(ErrorCode.PRINT_FAILED, str(exc)) from None


def read_deck_toml(text: str) -> tuple[Any, DeckProblem | None]:
    """The mapping of a deck file's text, or the problem that stops it being read."""
    try:
        return tomllib.loads(text), None
    except tomllib.TOMLDecodeError as exc:
        return None, DeckProblem(code=DeckProblemCode.TOML, message=f"not valid TOML: {exc}")


def deck_catalog() -> DeckCatalog:
    """The preset decks with their TOML."""
    from cardtable.games.zeta.decks import PRESET_NAMES, preset

    out = []
    for name in PRESET_NAMES:
        deck = preset(name)
        needs = {"construction_limits": False} if name == "plain" else {}
        out.append(DeckPreset(name=name, deck=DeckOut(name=deck.name, cards=deck.to_json()["cards"],
                                                      names=dict(deck.names)),
                              toml=deck_toml(deck.name, deck.counts, deck.names), needs=needs))
    return DeckCatalog(presets=out, deck_size=25)



router = APIRouter(tags=["web"])


@router.get("/web/decks/zeta", response_model=DeckCatalog)
async def decks() -> DeckCatalog:
    """Zeta's preset decks, with their deck files."""
    return deck_catalog()


@router.post("/web/decks/zeta/check", response_model=DeckCheckOut)
async def deck_check(body: DeckCheckIn) -> DeckCheckOut:
    """Check a Zeta deck (a deck file's text, or the builder's deck): every problem, and its deck file."""
    if body.toml is not None:
        data, problem = read_deck_toml(body.toml)
        if problem is not None:
            return DeckCheckOut(ok=False, size=0, problems=[problem], deck=None, toml=None)
    elif body.deck is not None:
        data = {"name": body.deck.name, "cards": body.deck.cards, "names": body.deck.names}
    else:
        raise Refusal(ErrorCode.BAD_REQUEST, "send a deck file's text (toml) or a deck")
    return check_deck(data, deck_size=body.rules.deck_size, limits=body.rules.construction_limits)


@router.post("/web/decks/zeta/print", response_class=Response,
             responses={200: {"content": {"application/pdf": {}}, "description": "print-and-play sheets"}})
async def deck_print(body: DeckCheckIn) -> Response:
    """Print-and-play PDF sheets of a legal Zeta deck: one copy per player, two backs (see docs/print.md)."""
    check = await deck_check(body)
    if not check.ok or check.toml is None:
        first = check.problems[0].message if check.problems else "the deck is not legal"
        raise Refusal(ErrorCode.BAD_DECK, f"cannot print this deck: {first}")
    pdf = await asyncio.to_thread(_print_zeta_deck, check.toml)
    name = re.sub(r"[^\w.-]+", "_", check.deck.name if check.deck else "deck") or "deck"
    return Response(pdf, media_type="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{name}.pdf"'})


@router.get("/web/decks/zeta/random", response_model=DeckCheckOut)
async def deck_random(seed: Annotated[int | None, Query(ge=0, le=2**53)] = None,
                      deck_size: Annotated[int, Query(ge=1, le=50)] = 25) -> DeckCheckOut:
    """A uniformly random legal deck (ZETA-R6)."""
    from cardtable.games.zeta.decks import random_deck

    rng = random.Random(seed)
    deck = random_deck(rng, deck_size=deck_size, name="random")
    return check_deck(deck.to_json(), deck_size=deck_size)


def messages() -> list[tuple[str, str]]:
    """The card effects the pages translate."""
    from cardtable.games.zeta.cards import CARDS

    return [(card.effect, f"zeta card {card.id} effect") for card in CARDS]


BROWSER_HOWTO: dict[str, str] = {
    "en": "Click (or tap) a card of your hand that says *placeable*: the squares it may go to light up; click a "
          "lit square to place it. An effect's choices appear under the board as buttons; **Pass** is there "
          "too. The move box takes any move by its notation (`fire_mage@e5`), and **Hint** asks a searching "
          "player for a move.",
    "ja": "手札の「置ける」と書かれたカードをクリック(タップ)すると、置けるマスが光ります。光ったマスをクリックすると置けます。"
          "効果の選択は盤の下にボタンで出ます(**パス**もそこにあります)。手の入力欄には表記(`fire_mage@e5`)でどの手も入力でき、"
          "**ヒント**で探索するプレイヤーに手を聞けます。",
}
"""The how-to-play page's section on playing in the browser, by language."""


WEB = GameWeb(browser_howto=BROWSER_HOWTO, router=router, cards=cards, messages=messages,
              tagline="Four in a row with a 25-card deck of spells: costs grow with the board.")
"""Zeta's web part (its kit's ``web_routes``)."""
