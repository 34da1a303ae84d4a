"""What the pages read about the games: message catalogs, how-to-play, the rulebooks' rules and the card data."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, Field

from cardtable.core import game_class, game_names
from cardtable.core.errors import ErrorCode
from cardtable.core.registry import entry, registered
from cardtable.core.rulebook import find_rule, has_rulebook, rules_of
from cardtable.server.errors import Refusal

from . import i18n
from .i18n import Language
from .kit import game_webs, page_module

GAME_NAME = r"^[a-z][a-z0-9_]{0,31}$"
"""What a game name looks like in an address."""
RULE_ID = r"^[A-Za-z0-9-]{1,24}$"
"""What a rule id looks like in an address (``ZETA-R14``, ``r14``)."""

GameName = Annotated[str, Path(pattern=GAME_NAME)]


class RuleOut(BaseModel):
    """One numbered rule (or ledger entry) of a rulebook."""

    id: str
    title: str
    text: str = Field("", description="Markdown; empty in the index.")


class RulesIndex(BaseModel):
    """A game's rules by id, in rulebook order."""

    game: str
    rules: list[RuleOut]


class GamePage(BaseModel):
    """What the pages need to show a game: its title, lobby line, rule-id prefix and page module."""

    name: str
    title: str
    tagline: str = Field("", description="The lobby's one-line description (English; the pages translate it).")
    rule_prefix: str = Field("", description="The prefix of the rulebook's rule ids (``ZETA`` for ``ZETA-R14``).")
    module: str = Field(description="The address of the ES module that draws the game's page.")


class GamePages(BaseModel):
    """Every game the pages can show, by name."""

    games: list[GamePage]


class HowTo(BaseModel):
    """A game's how-to-play in a language (Markdown)."""

    game: str
    lang: Language
    text: str


def known_game(name: str) -> str:
    """``name`` if it is a registered game; Refusal ``unknown_game`` (404) if not."""
    if name not in game_names():
        raise Refusal(ErrorCode.UNKNOWN_GAME, f"unknown game {name!r}; choose one of: {', '.join(game_names())}",
                      status=404)
    return name


def card_data() -> dict[str, Any]:
    """The card data of every game that draws its cards from it, and every game's title."""
    out: dict[str, Any] = {}
    for web in game_webs().values():
        if web.cards is not None:
            out.update(web.cards())
    out["titles"] = {name: game_class(name).title for name in game_names()}
    return out


def game_pages() -> GamePages:
    """Every registered game as the pages show it (from its kit), in the order the games were registered."""
    webs = game_webs()
    return GamePages(games=[
        GamePage(name=name, title=game_class(name).title, tagline=webs[name].tagline if name in webs else "",
                 rule_prefix=entry(name).rule_prefix, module=page_module(name))
        for name in registered()])


router = APIRouter(tags=["web"])


@router.get("/web/games", response_model=GamePages)
async def games() -> GamePages:
    """Every game with its title, lobby line, rule-id prefix and the address of its page module."""
    return game_pages()


@router.get("/web/i18n/{lang}")
async def catalog(lang: Language) -> dict[str, Any]:
    """The message catalog of a page language (msgid -> translation)."""
    return i18n.catalog_json(lang)


@router.get("/web/games/{game}/howto", response_model=HowTo)
async def howto(game: GameName, lang: Language = Language.EN) -> HowTo:
    """How to play a game, in a language."""
    try:
        return HowTo(game=known_game(game), lang=lang, text=i18n.howto_text(game, lang))
    except KeyError:
        raise Refusal(ErrorCode.NO_HOWTO, f"no how-to-play for {game}", status=404) from None


@router.get("/web/games/{game}/rules", response_model=RulesIndex)
async def rules_index(game: GameName) -> RulesIndex:
    """Every numbered rule and ledger entry of a game's rulebook (ids and titles)."""
    if not has_rulebook(known_game(game)):
        raise Refusal(ErrorCode.NO_RULEBOOK, f"{game} ships no rulebook", status=404)
    return RulesIndex(game=game, rules=[RuleOut(id=r.id, title=r.title, text="") for r in rules_of(game).values()])


@router.get("/web/games/{game}/rules/{rule_id}", response_model=RuleOut)
async def rule(game: GameName, rule_id: Annotated[str, Path(pattern=RULE_ID)]) -> RuleOut:
    """One rule's text (Markdown), by id (``ZETA-R14``, ``r14``)."""
    if not has_rulebook(known_game(game)):
        raise Refusal(ErrorCode.NO_RULEBOOK, f"{game} ships no rulebook", status=404)
    try:
        found = find_rule(game, rule_id)
    except KeyError as exc:
        raise Refusal(ErrorCode.NO_SUCH_RULE, str(exc.args[0]), status=404) from None
    return RuleOut(id=found.id, title=found.title, text=found.text)


@router.get("/web/cards")
async def cards() -> dict[str, Any]:
    """The card data of every game, as the pages draw them."""
    return card_data()
