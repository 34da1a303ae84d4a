"""Utahime's part of the web surface: the option-set builder's routes (``/web/options/utahime``, UTA-R2)."""

from __future__ import annotations

import asyncio
import tomllib
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from cardtable.core import load_game

from ..kit import TEXT_MAX, GameWeb, Strict, toml_string


class OptionCardOut(BaseModel):
    """An option or hero card of a set."""

    kind: str
    name: str
    title: str
    text: str
    cost: int
    timing: str
    uses: int
    ignore_hand_limit: bool
    effects: list[str]


class OptionSetOut(BaseModel):
    """An option set: its cards and its default loadouts."""

    name: str
    title: str
    options: list[OptionCardOut]
    heroes: list[OptionCardOut]
    loadouts: list[list[str]]
    heroes_chosen: list[str | None]


class OptionCatalog(BaseModel):
    """The shipped sets and the construction limits (UTA-R2, UTA-I4)."""

    sets: list[OptionSetOut]
    budget: int
    max_copies: int
    max_cards: int


class OptionRules(Strict):
    """The flags an option setup is checked under."""

    option_cost_budget: int = Field(28, ge=0, le=1000)
    option_max_copies: int = Field(2, ge=0, le=20)


class OptionCheckIn(Strict):
    """A Utahime setup to check: the setup's keys, or a setup file (TOML), and the flags."""

    setup: dict[str, Any] | None = Field(None, max_length=16)
    toml: str | None = Field(None, max_length=TEXT_MAX)
    rules: OptionRules = Field(default_factory=lambda: OptionRules(option_cost_budget=28, option_max_copies=2))


class LoadoutIssue(BaseModel):
    """One problem of a seat's loadout, as data the page words in its language (UTA-R2): ``over_budget``
    (count: the cost, limit: the budget), ``too_many_copies`` (card, count, limit), ``too_many_cards``
    (count, limit), ``unknown_option`` or ``unknown_hero`` (card)."""

    code: str
    seat: int
    card: str = ""
    count: int = 0
    limit: int = 0


class OptionCheckOut(BaseModel):
    """Whether the setup is legal, the problem if not, the normalized setup, its set, totals and TOML; ``issues``
    lists every problem of the loadouts at once."""

    ok: bool
    problems: list[str]
    issues: list[LoadoutIssue] = Field(default_factory=list)
    setup: dict[str, Any] | None
    set: OptionSetOut | None
    costs: list[int]
    toml: str | None


def _card_out(card: Any) -> OptionCardOut:
    return OptionCardOut(kind=card.kind, name=card.name, title=card.title, text=card.text, cost=card.cost,
                         timing=card.timing, uses=card.uses, ignore_hand_limit=card.ignore_hand_limit,
                         effects=[s.do for s in card.steps])


def option_set_out(option_set: Any) -> OptionSetOut:
    """A parsed option set as JSON."""
    return OptionSetOut(name=option_set.name, title=option_set.title,
                        options=[_card_out(c) for c in option_set.options.values()],
                        heroes=[_card_out(c) for c in option_set.heroes.values()],
                        loadouts=[list(x) for x in option_set.loadouts], heroes_chosen=list(option_set.hero_choices))


def option_catalog() -> OptionCatalog:
    """The option sets that ship with Utahime."""
    from cardtable.games.utahime.game import MAX_OPTION_CARDS
    from cardtable.games.utahime.options import SHIPPED_SETS, option_set_from_text, shipped_set_text

    rules = load_game("utahime").rules
    sets = [option_set_out(option_set_from_text(shipped_set_text(name))) for name in SHIPPED_SETS]
    return OptionCatalog(sets=sets, budget=rules.option_cost_budget, max_copies=rules.option_max_copies,
                         max_cards=MAX_OPTION_CARDS)


def setup_toml(setup: Mapping[str, Any]) -> str:
    """A Utahime setup file: the option set, each seat's options and hero (and a custom set's TOML).

    >>> print(setup_toml({"option_set": "designer_example", "p1_options": ["scout"], "p1_hero": None,
    ...                   "p2_options": [], "p2_hero": "seer"}), end="")
    option_set = "designer_example"
    p1_options = ["scout"]
    p2_options = []
    p2_hero = "seer"
    """
    lines = [f"option_set = {toml_string(str(setup.get('option_set', 'none')))}"]
    for seat in ("p1", "p2"):
        names = [toml_string(str(n)) for n in setup.get(f"{seat}_options") or []]
        lines.append(f"{seat}_options = [{', '.join(names)}]")
    for seat in ("p1", "p2"):
        hero = setup.get(f"{seat}_hero")
        if hero:
            lines.append(f"{seat}_hero = {toml_string(str(hero))}")
    text = setup.get("option_toml")
    if isinstance(text, str):
        if "'''" not in text and all(ch.isprintable() or ch in "\n\t" for ch in text):
            lines.append(f"option_toml = '''\n{text}'''" if text.endswith("\n") else f"option_toml = '''\n{text}\n'''")
        else:
            lines.append(f"option_toml = {toml_string(text)}")
    return "\n".join(lines) + "\n"


def check_options(body: OptionCheckIn) -> OptionCheckOut:
    """Check a Utahime setup as a room would (``normalize_setup``, UTA-R2), with the costs of both loadouts."""
    from cardtable.games.utahime.options import EMPTY_SET, option_set_from_text, shipped_set_text

    setup: Any = body.setup
    if body.toml is not None:
        try:
            setup = tomllib.loads(body.toml)
        except tomllib.TOMLDecodeError as exc:
            return OptionCheckOut(ok=False, problems=[f"not valid TOML: {exc}"], setup=None, set=None, costs=[0, 0],
                                  toml=None)
    setup = dict(setup or {})
    game = load_game("utahime", **body.rules.model_dump())
    try:
        normal = game.normalize_setup(setup)
    except (ValueError, TypeError) as exc:
        normal = None
        problem = str(exc)
    name = str((normal or setup).get("option_set", "none"))
    try:
        if name == "custom":
            option_set = option_set_from_text(str((normal or setup).get("option_toml", "")))
        elif name == "none":
            option_set = EMPTY_SET
        else:
            option_set = option_set_from_text(shipped_set_text(name))
    except (ValueError, TypeError):
        option_set = None
    costs = [0, 0]
    if option_set is not None:
        source = normal or setup
        for seat in (0, 1):
            names = source.get(f"p{seat + 1}_options", list(option_set.loadouts[seat]))
            if isinstance(names, list):
                costs[seat] = sum(option_set.options[n].cost for n in names if isinstance(n, str) and
                                  n in option_set.options)
    set_out = option_set_out(option_set) if option_set is not None else None
    if normal is None:
        issues = loadout_issues(option_set, setup, body.rules) if option_set is not None else []
        return OptionCheckOut(ok=False, problems=[problem], issues=issues, setup=None, set=set_out, costs=costs, toml=None)
    return OptionCheckOut(ok=True, problems=[], setup=normal, set=set_out, costs=costs, toml=setup_toml(normal))



def loadout_issues(option_set: Any, setup: Mapping[str, Any], rules: OptionRules) -> list[LoadoutIssue]:
    """Every problem of both seats' loadouts at once (UTA-R2: the budget, the copies of one name, the number of
    cards, names the set does not have), in seat order."""
    from cardtable.games.utahime.game import MAX_OPTION_CARDS

    out: list[LoadoutIssue] = []
    for seat in (0, 1):
        names = setup.get(f"p{seat + 1}_options")
        if isinstance(names, list):
            known = [n for n in names if isinstance(n, str) and n in option_set.options]
            out.extend(LoadoutIssue(code="unknown_option", seat=seat, card=str(n)) for n in names
                       if not (isinstance(n, str) and n in option_set.options))
            for n in dict.fromkeys(known):
                if known.count(n) > rules.option_max_copies:
                    out.append(LoadoutIssue(code="too_many_copies", seat=seat, card=n, count=known.count(n),
                                            limit=rules.option_max_copies))
            if len(names) > MAX_OPTION_CARDS:
                out.append(LoadoutIssue(code="too_many_cards", seat=seat, count=len(names), limit=MAX_OPTION_CARDS))
            cost = sum(option_set.options[n].cost for n in known)
            if cost > rules.option_cost_budget:
                out.append(LoadoutIssue(code="over_budget", seat=seat, count=cost, limit=rules.option_cost_budget))
        hero = setup.get(f"p{seat + 1}_hero")
        if hero is not None and not (isinstance(hero, str) and hero in option_set.heroes):
            out.append(LoadoutIssue(code="unknown_hero", seat=seat, card=str(hero)))
    return out


router = APIRouter(tags=["web"])


@router.get("/web/options/utahime", response_model=OptionCatalog)
async def options() -> OptionCatalog:
    """Utahime's shipped option sets, the budget and the copy limit (UTA-R2)."""
    return option_catalog()


@router.post("/web/options/utahime/check", response_model=OptionCheckOut)
async def options_check(body: OptionCheckIn) -> OptionCheckOut:
    """Check a Utahime option setup (keys or a setup file) as a room would."""
    return await asyncio.to_thread(check_options, body)


def messages() -> list[tuple[str, str]]:
    """The shipped option sets' words the pages translate: each set's title, each card's title and text."""
    out: list[tuple[str, str]] = []
    for s in option_catalog().sets:
        out.append((s.title, f"utahime option set {s.name}"))
        for card in [*s.options, *s.heroes]:
            out.append((card.title, f"utahime {card.kind} {card.name} title"))
            if card.text:
                out.append((card.text, f"utahime {card.kind} {card.name} text"))
    return out


BROWSER_HOWTO: dict[str, str] = {
    "en": "A card you can play is lit: click (or tap) it. When it can be played several ways (with or without "
          "♣NEXT, which suit to designate), the ways appear as buttons. Blocks, reactions, cosmic cards, the "
          "joker, options and the hero are buttons too; tap an option or hero card to read its effect. The move "
          "box takes any move by its notation (`block C7+`).",
    "ja": "出せるカードは光っています。クリック(タップ)すると出せます。出し方が複数あるとき(♣NEXT の有無、指定するスート)はボタンで選びます。"
          "ブロック・対応・コズミックカード・ジョーカー・オプション・ヒーローもボタンです。オプションやヒーローのカードはタップすると効果が読めます。"
          "手の入力欄には表記(`block C7+`)でどの手も入力できます。",
}
"""The how-to-play page's section on playing in the browser, by language."""


WEB = GameWeb(browser_howto=BROWSER_HOWTO, router=router, messages=messages,
              tagline="Attack and defend with a full deck of cards, energy, jokers and cosmic cards.")
"""Utahime's web part (its kit's ``web_routes``)."""
