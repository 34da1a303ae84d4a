"""The browser client's routes: its pages, its files, and the data its pages need beyond the server's API.

``mount(app)`` adds them to the server's app (``cardtable.server.create_app``); the lobby at ``/``
replaces the server's minimal page. The pages are one shell (``client/index.html``) whose ES modules
route on the address:

========================================  ==================================================================
``/``                                     the lobby: new room, open rooms, my games
``/room/{room_id}``                       a room: play a seat or watch (``?invite=CODE`` for a private one)
``/replay/{room_id}/{game_no}``           step through a finished game as a seat or revealed
``/decks``                                the Zeta deck builder and the Utahime option-set builder
``/rules``, ``/rules/{game}``             how to play, and every rule of the rulebook by id
========================================  ==================================================================

and the JSON they read, under ``/web``: the message catalogs (``/web/i18n/{lang}``), the how-to-play and
the rulebooks' rules, the card data, Zeta deck checks and TOML, Utahime option-set checks, a hint for the
seat to move, and replay steps. Every body and parameter is validated (pydantic); a refusal has the
server's shape ``{"error": {"code", "message", "rule"}}``.

>>> from fastapi import FastAPI
>>> app = FastAPI()
>>> mount(app)
>>> sorted(r.path for r in app.routes if getattr(r, "path", "").startswith("/web/decks"))
['/web/decks/zeta', '/web/decks/zeta/check', '/web/decks/zeta/print', '/web/decks/zeta/random']
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
import tomllib
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Path, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.routing import BaseRoute, Mount, Route
from starlette.types import Scope

from cardtable.core import Record, RecordError, game_class, game_names, load_game, replay
from cardtable.core.registry import describer
from cardtable.core.rulebook import find_rule, has_rulebook, rules_of

from . import i18n
from .i18n import Language

ROOM_ID = r"^[A-Za-z0-9_-]{1,24}$"
GAME_NAME = r"^[a-z][a-z0-9_]{0,31}$"
RULE_ID = r"^[A-Za-z0-9-]{1,24}$"
TEXT_MAX = 65_536
"""The longest TOML text (a deck file or an option set) a page may send."""
SKIN_MAX = 40
"""The longest display name (skin) a deck may give a card."""
HINT_SPEC = "ismcts:iterations=300,seconds=1"
"""The agent whose advice the hint button gives (from the seat's view only)."""
MAX_STEPS = 100_000

PAGE_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
                                "connect-src 'self' ws: wss:; base-uri 'none'; form-action 'self'; "
                                "frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
"""The headers of every page and client file: scripts and styles from this server only, no framing."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def refuse(code: str, message: str, status: int = 400, rule: str | None = None) -> JSONResponse:
    """A refusal in the server's error shape."""
    return JSONResponse({"error": {"code": code, "message": message, "rule": rule}}, status_code=status)


class WebRefusal(Exception):
    """A request these routes refuse (turned into the server's error shape)."""

    def __init__(self, code: str, message: str, status: int = 400, rule: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.status, self.rule = code, message, status, rule


# -- pages ---------------------------------------------------------------------------------------------
def _shell(lang: Language) -> str:
    text = (i18n.client_dir() / "index.html").read_text(encoding="utf-8")
    return text.replace('<html lang="en">', f'<html lang="{lang.value}">', 1)


def page(request: Request) -> HTMLResponse:
    """The client's shell page (every page route serves it; the scripts route on the address)."""
    lang = i18n.negotiate(request.headers.get("accept-language"))
    return HTMLResponse(_shell(lang), headers={**PAGE_HEADERS, "Cache-Control": "no-cache"})


class ClientFiles(StaticFiles):
    """The client's static files, with the page headers and revalidation on every load."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        """The file at ``path`` (404 if none), with the page headers."""
        response = await super().get_response(path, scope)
        for key, value in PAGE_HEADERS.items():
            response.headers[key] = value
        response.headers["Cache-Control"] = "no-cache"
        return response


# -- catalogs, rules, cards ----------------------------------------------------------------------------
class RuleOut(BaseModel):
    """One numbered rule (or ledger entry) of a rulebook."""

    id: str
    title: str
    text: str = Field("", description="Markdown; empty in the index.")


class RulesIndex(BaseModel):
    """A game's rules by id, in rulebook order."""

    game: str
    rules: list[RuleOut]


class HowTo(BaseModel):
    """A game's how-to-play in a language (Markdown)."""

    game: str
    lang: Language
    text: str


def _game(name: str) -> str:
    if name not in game_names():
        raise WebRefusal("unknown_game", f"unknown game {name!r}; choose one of: {', '.join(game_names())}", 404)
    return name


def zeta_cards() -> list[dict[str, Any]]:
    """Zeta's 25 card types as the pages show them."""
    from cardtable.games.zeta.cards import CARDS

    return [{"id": c.id, "index": c.index, "japanese": c.japanese, "english": c.english, "cost": c.cost,
             "fanfare": c.fanfare, "continuous": (not c.fanfare) and c.effect != "No effect.", "limit": c.limit,
             "effect": c.effect, "rule": c.rule, "short": c.short} for c in CARDS]


def oscilloscope_cards() -> list[dict[str, Any]]:
    """Oscilloscope's eight card types with the levels at their edges (what the waveforms are drawn from)."""
    from cardtable.games.oscilloscope.cards import CARD_TYPES, IS_PULSE_TYPE, IS_TRIGGER_CAPABLE

    return [{"token": k.token, "seed_name": k.seed_name, "english": k.english, "pulse_deck": k.pulse_deck,
             "trigger_deck": k.trigger_deck, "left": k.left.value, "right": k.right.value, "stroke": k.stroke.value,
             "pulse": IS_PULSE_TYPE[k.card], "trigger": IS_TRIGGER_CAPABLE[k.card]} for k in CARD_TYPES]


TRIGGER_MATCHES = {"T_HL": ["HL", "NOISE"], "T_LH": ["LH", "NOISE"], "T_BOTH": ["HL", "LH", "NOISE"],
                   "LOH": ["LOH", "NOISE"], "CLEAR": ["HL", "LH", "LOH", "NOISE"]}
"""OSC-R27: the train cards each trigger is satisfied by (the rulebook's table, for lighting the slice)."""


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


class DeckIn(_Strict):
    """A deck as the builder holds it: a name, card id -> count, optional display names (skins)."""

    name: str = Field("deck", max_length=64)
    cards: dict[str, Any] = Field(default_factory=dict, max_length=64)
    names: dict[str, Any] = Field(default_factory=dict, max_length=64)


class DeckRules(_Strict):
    """The rule flags a deck is checked under (ZETA-I2, ZETA-I-CT1)."""

    deck_size: int = Field(25, ge=1, le=60)
    construction_limits: bool = True


class DeckCheckIn(_Strict):
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


def toml_string(text: str) -> str:
    """A TOML basic string (every character TOML requires escaped).

    >>> toml_string('Curse "Weaver"\\x7f')
    '"Curse \\\\"Weaver\\\\"\\\\u007F"'
    """
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007F")


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
        raise WebRefusal("print_failed", str(exc), 400) from None


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


# -- Utahime option sets -------------------------------------------------------------------------------
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


class OptionRules(_Strict):
    """The flags an option setup is checked under."""

    option_cost_budget: int = Field(28, ge=0, le=1000)
    option_max_copies: int = Field(2, ge=0, le=20)


class OptionCheckIn(_Strict):
    """A Utahime setup to check: the setup's keys, or a setup file (TOML), and the flags."""

    setup: dict[str, Any] | None = Field(None, max_length=16)
    toml: str | None = Field(None, max_length=TEXT_MAX)
    rules: OptionRules = Field(default_factory=lambda: OptionRules(option_cost_budget=28, option_max_copies=2))


class OptionCheckOut(BaseModel):
    """Whether the setup is legal, the problem if not, the normalized setup, its set, totals and TOML."""

    ok: bool
    problems: list[str]
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
        return OptionCheckOut(ok=False, problems=[problem], setup=None, set=set_out, costs=costs, toml=None)
    return OptionCheckOut(ok=True, problems=[], setup=normal, set=set_out, costs=costs, toml=setup_toml(normal))


# -- hints and replays ---------------------------------------------------------------------------------
class HintOut(BaseModel):
    """The hint agent's advice for the seat to move, from that seat's view only."""

    version: int
    best: str
    candidates: list[dict[str, Any]]
    spec: str


class ReplayInfo(BaseModel):
    """A finished game to step through."""

    room: str
    game_no: int
    game: str
    rules: dict[str, Any]
    setup: dict[str, Any]
    steps: int = Field(description="How many actions the game has (steps 0 to steps).")
    names: list[str]
    players: list[str]
    actions: list[str]
    outcome: dict[str, Any] | None


class ReplayStep(BaseModel):
    """The game after ``step`` actions, as ``seat`` saw it (null: a spectator) or revealed."""

    step: int
    seat: int | None
    revealed: bool
    view: dict[str, Any]
    to_move: int | None
    events_from: int
    events: list[dict[str, Any]]
    log: list[str]
    outcome: dict[str, Any] | None


def merge_views(base: Any, others: Sequence[Any]) -> Any:
    """What all seats know together: ``base`` (the spectators' view) with every hidden (null) value that some
    seat's view knows filled in, recursively (the revealed view of a finished game).

    >>> merge_views({"hands": [None, None], "turn": 3}, [{"hands": [["a"], None]}, {"hands": [None, ["b"]]}])
    {'hands': [['a'], ['b']], 'turn': 3}
    """
    if base is None:
        for other in others:
            if other is not None:
                return merge_views(other, [o for o in others if o is not other])
        return None
    if isinstance(base, dict):
        return {k: merge_views(v, [o.get(k) for o in others if isinstance(o, dict)]) for k, v in base.items()}
    if isinstance(base, list):
        return [merge_views(v, [o[i] for o in others if isinstance(o, list) and i < len(o)])
                for i, v in enumerate(base)]
    return base


class _Book:
    """A finished game's record, replayed on demand (states are cheap to rebuild from the record)."""

    def __init__(self, record: Record) -> None:
        from cardtable.table import Table

        self.record = record
        table = Table.resume(record)
        self.names = list(table.names)
        self.players = len(table.seats)
        self.lock = threading.Lock()

    def step(self, step: int, seat: int | None, revealed: bool, since: int) -> ReplayStep:
        """The view, the log from ``since`` and the outcome after ``step`` actions."""
        state = replay(self.record, upto=step, events=True)
        if revealed:
            view = merge_views(state.view(None), [state.view(p) for p in range(self.players)])
            view["viewer"] = None
            count = len(state.events_for(None, 0))
            start = since if 0 <= since <= count else 0
            seen = [state.events_for(p, start) for p in range(self.players)]
            events = []
            for parts in zip(*seen, strict=True):
                merged: dict[str, Any] = {}
                for part in parts:
                    merged.update(part)
                events.append(merged)
        else:
            view = state.view(seat)
            count = len(state.events_for(seat, 0))
            start = since if 0 <= since <= count else 0
            events = state.events_for(seat, start)
        describe = describer(self.record.game)
        log = []
        for e in events:
            try:
                log.append(describe(e, self.names))
            except Exception:  # a describer bug must not hide the replay
                log.append(str(e.get("kind", "?")))
        out = state.outcome()
        outcome = out.to_json() if out is not None else None
        if outcome is not None:
            outcome["winner_names"] = [self.names[w] for w in out.winners] if out is not None else []
        return ReplayStep(step=step, seat=None if revealed else seat, revealed=revealed, view=view,
                          to_move=state.current_player, events_from=start, events=events, log=log, outcome=outcome)


class _Books:
    """A few recently replayed records, by room and game number."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self.items: OrderedDict[tuple[str, int], _Book] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[str, int], load: Any) -> _Book:
        """The book of ``key``, reading it with ``load()`` if it is not kept."""
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
                return found
        book = _Book(load())
        with self.lock:
            self.items[key] = book
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return book


bearer = HTTPBearer(auto_error=False, description="A seat token from POST /api/rooms/{room_id}/join.")
Bearer = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
RoomId = Annotated[str, Path(pattern=ROOM_ID)]
GameNo = Annotated[int, Path(ge=1, le=1_000_000)]
Invite = Annotated[str | None, Query(max_length=128)]


def _token(creds: HTTPAuthorizationCredentials | None) -> str | None:
    if creds is None or not creds.credentials:
        return None
    if len(creds.credentials) > 128:
        raise WebRefusal("bad_token", "this seat token is not valid in this room", 401)
    return creds.credentials


def _services(request: Request) -> Any:
    services = getattr(request.app.state, "services", None)
    if services is None:
        raise WebRefusal("unavailable", "this page needs the rooms server", 503)
    try:
        return services.parts()
    except Exception as exc:
        raise WebRefusal("unavailable", str(exc) or "the server is starting or stopping", 503) from None


def _access(store: Any, room_id: str, token: str | None, invite: str | None) -> tuple[Any, int | None]:
    """The room and the seat the token holds; refused like the server's record route."""
    from cardtable.server import tokens
    from cardtable.store import StoreError

    try:
        info = store.room(room_id)
        seat = store.seat_of(room_id, tokens.digest(token)) if token else None
    except StoreError as exc:
        raise WebRefusal(exc.code, exc.message, 404 if exc.code == "no_such_room" else 409) from None
    if token and seat is None:
        raise WebRefusal("bad_token", "this seat token is not valid in this room", 401)
    if info.private and seat is None and not tokens.matches(info.invite_hash, invite):
        raise WebRefusal("no_access", "this room is private: it needs its invite code", 403)
    return info, seat


def _hint(store: Any, room_id: str, token: str) -> HintOut:
    from cardtable.server import tokens
    from cardtable.server.rooms import Refusal, build_table
    from cardtable.store import StoreError

    try:
        info = store.room(room_id)
        seat = store.seat_of(room_id, tokens.digest(token))
        if seat is None:
            raise WebRefusal("bad_token", "this seat token is not valid in this room", 401)
        table = build_table(info, store.actions(room_id, info.game_no))
    except StoreError as exc:
        raise WebRefusal(exc.code, exc.message, 404 if exc.code == "no_such_room" else 409) from None
    except Refusal as exc:
        raise WebRefusal(exc.code, exc.message, exc.status) from None
    if table.is_over:
        raise WebRefusal("game_over", "the game is over", 409)
    if not info.started:
        raise WebRefusal("not_started", "the game starts when every seat is filled", 409)
    if table.current_seat != seat:
        raise WebRefusal("not_your_turn", f"it is {table.name(table.current_seat)}'s decision", 409)
    hint = table.hint(seat, HINT_SPEC, top=3)
    return HintOut(version=table.version, best=hint.best, candidates=list(hint.candidates), spec=HINT_SPEC)


def _load_record(store: Any, room_id: str, game_no: int) -> Record:
    from cardtable.store import StoreError

    try:
        data = store.record(room_id, game_no)
    except StoreError as exc:
        status = 404 if exc.code == "no_such_room" else 409
        raise WebRefusal(exc.code, exc.message, status) from None
    try:
        return Record.from_json(data)
    except RecordError as exc:
        raise WebRefusal("cannot_resume", str(exc), 409) from None


# -- mounting ------------------------------------------------------------------------------------------
PAGE_PATHS = ("/", "/room/{room_id}", "/replay/{room_id}/{game_no}", "/decks", "/rules", "/rules/{game}")


def _without(routes: list[BaseRoute], path: str) -> list[BaseRoute]:
    return [r for r in routes if not (isinstance(r, Route) and r.path == path and "GET" in (r.methods or set()))]


def mount(app: FastAPI) -> None:
    """Add the client's pages, files and routes to ``app`` (the server's ``/`` page is replaced)."""
    app.router.routes[:] = _without(list(app.router.routes), "/")
    hints = asyncio.Semaphore(1)
    books = _Books()

    @app.exception_handler(WebRefusal)
    async def _refused(_request: Request, exc: WebRefusal) -> JSONResponse:
        return refuse(exc.code, exc.message, exc.status, exc.rule)

    for path in PAGE_PATHS:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False, response_class=HTMLResponse)
    app.router.routes.append(Mount("/client", app=ClientFiles(directory=str(i18n.client_dir())), name="client"))

    @app.get("/web/i18n/{lang}", tags=["web"])
    async def catalog(lang: Language) -> dict[str, Any]:
        """The message catalog of a page language (msgid -> translation)."""
        return i18n.catalog_json(lang)

    @app.get("/web/games/{game}/howto", response_model=HowTo, tags=["web"])
    async def howto(game: Annotated[str, Path(pattern=GAME_NAME)], lang: Language = Language.EN) -> HowTo:
        """How to play a game, in a language."""
        try:
            return HowTo(game=_game(game), lang=lang, text=i18n.howto_text(game, lang))
        except KeyError:
            raise WebRefusal("no_howto", f"no how-to-play for {game}", 404) from None

    @app.get("/web/games/{game}/rules", response_model=RulesIndex, tags=["web"])
    async def rules_index(game: Annotated[str, Path(pattern=GAME_NAME)]) -> RulesIndex:
        """Every numbered rule and ledger entry of a game's rulebook (ids and titles)."""
        if not has_rulebook(_game(game)):
            raise WebRefusal("no_rulebook", f"{game} ships no rulebook", 404)
        return RulesIndex(game=game, rules=[RuleOut(id=r.id, title=r.title, text="") for r in rules_of(game).values()])

    @app.get("/web/games/{game}/rules/{rule_id}", response_model=RuleOut, tags=["web"])
    async def rule(game: Annotated[str, Path(pattern=GAME_NAME)],
                   rule_id: Annotated[str, Path(pattern=RULE_ID)]) -> RuleOut:
        """One rule's text (Markdown), by id (``ZETA-R14``, ``r14``)."""
        if not has_rulebook(_game(game)):
            raise WebRefusal("no_rulebook", f"{game} ships no rulebook", 404)
        try:
            found = find_rule(game, rule_id)
        except KeyError as exc:
            raise WebRefusal("no_such_rule", str(exc.args[0]), 404) from None
        return RuleOut(id=found.id, title=found.title, text=found.text)

    @app.get("/web/cards", tags=["web"])
    async def cards() -> dict[str, Any]:
        """The card data of every game, as the pages draw them."""
        return {"zeta": zeta_cards(), "oscilloscope": oscilloscope_cards(), "oscilloscope_matches": TRIGGER_MATCHES,
                "titles": {name: game_class(name).title for name in game_names()}}

    @app.get("/web/decks/zeta", response_model=DeckCatalog, tags=["web"])
    async def decks() -> DeckCatalog:
        """Zeta's preset decks, with their deck files."""
        return deck_catalog()

    @app.post("/web/decks/zeta/check", response_model=DeckCheckOut, tags=["web"])
    async def deck_check(body: DeckCheckIn) -> DeckCheckOut:
        """Check a Zeta deck (a deck file's text, or the builder's deck): every problem, and its deck file."""
        if body.toml is not None:
            data, problem = read_deck_toml(body.toml)
            if problem is not None:
                return DeckCheckOut(ok=False, size=0, problems=[problem], deck=None, toml=None)
        elif body.deck is not None:
            data = {"name": body.deck.name, "cards": body.deck.cards, "names": body.deck.names}
        else:
            raise WebRefusal("bad_request", "send a deck file's text (toml) or a deck", 400)
        return check_deck(data, deck_size=body.rules.deck_size, limits=body.rules.construction_limits)

    @app.post("/web/decks/zeta/print", tags=["web"], response_class=Response,
              responses={200: {"content": {"application/pdf": {}}, "description": "print-and-play sheets"}})
    async def deck_print(body: DeckCheckIn) -> Response:
        """Print-and-play PDF sheets of a legal Zeta deck: one copy per player, two backs (see docs/print.md)."""
        check = await deck_check(body)
        if not check.ok or check.toml is None:
            first = check.problems[0].message if check.problems else "the deck is not legal"
            raise WebRefusal("bad_deck", f"cannot print this deck: {first}", 400)
        pdf = await asyncio.to_thread(_print_zeta_deck, check.toml)
        name = re.sub(r"[^\w.-]+", "_", check.deck.name if check.deck else "deck") or "deck"
        return Response(pdf, media_type="application/pdf",
                        headers={"Content-Disposition": f'attachment; filename="{name}.pdf"'})

    @app.get("/web/decks/zeta/random", response_model=DeckCheckOut, tags=["web"])
    async def deck_random(seed: Annotated[int | None, Query(ge=0, le=2**53)] = None,
                          deck_size: Annotated[int, Query(ge=1, le=50)] = 25) -> DeckCheckOut:
        """A uniformly random legal deck (ZETA-R6)."""
        from cardtable.games.zeta.decks import random_deck

        rng = random.Random(seed)
        deck = random_deck(rng, deck_size=deck_size, name="random")
        return check_deck(deck.to_json(), deck_size=deck_size)

    @app.get("/web/options/utahime", response_model=OptionCatalog, tags=["web"])
    async def options() -> OptionCatalog:
        """Utahime's shipped option sets, the budget and the copy limit (UTA-R2)."""
        return option_catalog()

    @app.post("/web/options/utahime/check", response_model=OptionCheckOut, tags=["web"])
    async def options_check(body: OptionCheckIn) -> OptionCheckOut:
        """Check a Utahime option setup (keys or a setup file) as a room would."""
        return await asyncio.to_thread(check_options, body)

    @app.post("/web/rooms/{room_id}/hint", response_model=HintOut, tags=["web"])
    async def hint(request: Request, room_id: RoomId, creds: Bearer) -> HintOut:
        """Advice for the seat to move (its token), from its view only; one hint is computed at a time."""
        token = _token(creds)
        if token is None:
            raise WebRefusal("bad_token", "this needs the seat token: Authorization: Bearer TOKEN", 401)
        store, _hub = _services(request)
        async with hints:
            return await asyncio.to_thread(_hint, store, room_id, token)

    @app.get("/web/rooms/{room_id}/replay/{game_no}", response_model=ReplayInfo, tags=["web"])
    async def replay_info(request: Request, room_id: RoomId, game_no: GameNo, creds: Bearer,
                          invite: Invite = None) -> ReplayInfo:
        """A finished game of a room, to step through (who may download its record may replay it)."""
        store, _hub = _services(request)
        await asyncio.to_thread(_access, store, room_id, _token(creds), invite)
        book = await asyncio.to_thread(books.get, (room_id, game_no), lambda: _load_record(store, room_id, game_no))
        rec = book.record
        return ReplayInfo(room=room_id, game_no=game_no, game=rec.game, rules=rec.rules, setup=rec.setup,
                          steps=len(rec.actions), names=book.names, players=rec.players, actions=rec.actions,
                          outcome=rec.outcome)

    @app.get("/web/rooms/{room_id}/replay/{game_no}/{step}", response_model=ReplayStep, tags=["web"])
    async def replay_step(request: Request, room_id: RoomId, game_no: GameNo,
                          step: Annotated[int, Path(ge=0, le=MAX_STEPS)], creds: Bearer, invite: Invite = None,
                          seat: Annotated[int | None, Query(ge=0, lt=8)] = None, reveal: bool = False,
                          since: Annotated[int, Query(ge=0, le=10_000_000)] = 0) -> ReplayStep:
        """The game after ``step`` actions as ``seat`` saw it (none: a spectator), or revealed (every seat's
        knowledge together; finished games only), with the log from event ``since``."""
        store, _hub = _services(request)
        await asyncio.to_thread(_access, store, room_id, _token(creds), invite)
        book = await asyncio.to_thread(books.get, (room_id, game_no), lambda: _load_record(store, room_id, game_no))
        if step > len(book.record.actions):
            raise WebRefusal("no_such_step", f"this game has {len(book.record.actions)} actions", 404)
        if seat is not None and seat >= book.players:
            raise WebRefusal("no_such_seat", f"this game has {book.players} seats", 404)
        return await asyncio.to_thread(book.step, step, seat, reveal, since)
