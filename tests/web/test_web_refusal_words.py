"""Every rule id a game's engine refuses a move with, and every way it ends a game, has words in the game's
page module, so that a page never falls back to the engine's English (docs/web.md: Languages).

The engine's ids are read from its rules code: the refusals that ``_illegality`` and every method it calls
return (a rule id as text, or an expression this test knows how to resolve: any other form fails the test),
and the ends that ``_finish``/``_end`` are called with. Random games then check that every refusal and end
the engine gives in play is among them. The page module's ``REFUSALS`` and ``ENDINGS`` tables must hold
each of them, every entry worded through ``t()`` (the catalog test holds the Japanese for those words).
"""

from __future__ import annotations

import ast
import random
import re
from functools import cache
from importlib import import_module
from pathlib import Path

import pytest

from cardtable.core.registry import load_game

ROOT = Path(__file__).resolve().parents[2]
GAMES_DIR = ROOT / "src" / "cardtable" / "games"
PAGES_DIR = ROOT / "src" / "cardtable" / "web" / "client" / "js" / "games"

GAMES = ("zeta", "utahime", "oscilloscope")

ENDS_BY = {"zeta": "reason", "utahime": "rule", "oscilloscope": "rule"}
"""What each page module keys its ENDINGS by: the outcome's ``reason`` (Zeta: two ends share a rule) or ``rule``."""

RULE_ID = re.compile(r"[A-Z]+-[A-Z]+(?:-[A-Z]+)?\d+")
"""A rule id (ZETA-R14, UTA-I27, OSC-I5)."""

REFUSERS = ("_illegality",)
"""Where a game's refusals start: the state's ``_illegality`` (the core's checked door calls it)."""

FINISHERS = ("_finish", "_end")
"""The state methods a game ends through, with the end's reason and rule among their arguments."""


# -- the engine's ids ------------------------------------------------------------------------------------
def _functions(tree: ast.Module) -> dict[str, list[ast.FunctionDef]]:
    out: dict[str, list[ast.FunctionDef]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            out.setdefault(node.name, []).append(node)
    return out


def _is_text(node: ast.expr) -> bool:
    """A refusal's reason: text, an f-string, text joined to text, or a choice between such."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _is_text(node.left) or _is_text(node.right)
    if isinstance(node, ast.IfExp):
        return _is_text(node.body) and _is_text(node.orelse)
    return False


def _card_target_rules(game: str, functions: dict[str, list[ast.FunctionDef]]) -> set[str]:
    """Zeta's target refusals cite the rule of the card whose effect is pending: the cards that offer a target."""
    state = import_module(f"cardtable.games.{game}.state")
    cards = import_module(f"cardtable.games.{game}.cards").CARDS
    out = set()
    for function in [f for fs in functions.values() for f in fs]:
        for node in ast.walk(function):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "_offer_target":
                card = node.args[1]
                assert isinstance(card, ast.Name), f"{game}: a target offered for {ast.unparse(card)}: name its card"
                out.add(cards[getattr(state, card.id)].rule)
    assert out, f"{game}: no card offers a target, yet a refusal cites a pending card's rule"
    return out


def _resolve(game: str, node: ast.expr, function: ast.FunctionDef, functions: dict[str, list[ast.FunctionDef]]) -> set[str]:
    """The rule ids a refusal's first element can be."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _resolve(game, node.body, function, functions) | _resolve(game, node.orelse, function, functions)
    if isinstance(node, ast.Name):
        found: set[str] = set()
        for item in ast.walk(function):
            if isinstance(item, ast.Assign) and any(isinstance(tg, ast.Name) and tg.id == node.id for tg in item.targets):
                found |= _resolve(game, item.value, function, functions)
        assert found, f"{game}.{function.name}: no value for {node.id}"
        return found
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and isinstance(node.func.value, ast.Dict)):
        values = set()
        for value in [*node.func.value.values, *node.args[1:]]:
            assert value is not None
            values |= _resolve(game, value, function, functions)
        return values
    if isinstance(node, ast.Attribute) and node.attr == "rule" and ast.unparse(node).startswith("CARDS["):
        return _card_target_rules(game, functions)
    raise AssertionError(f"{game}.{function.name}: a refusal cites {ast.unparse(node)!r}, which this test cannot "
                         "read: teach it the new form")


@cache
def engine_refusals(game: str) -> frozenset[str]:
    """Every rule id the game's ``_illegality`` (and what it calls) can refuse with, read from its source."""
    tree = ast.parse((GAMES_DIR / game / "state.py").read_text(encoding="utf-8"))
    functions = _functions(tree)
    seen: set[str] = set()
    todo = list(REFUSERS)
    ids: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in functions:
            continue
        seen.add(name)
        for function in functions[name]:
            for node in ast.walk(function):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and isinstance(node.func.value, ast.Name) and node.func.value.id == "self"):
                    todo.append(node.func.attr)
                if isinstance(node, ast.Tuple) and len(node.elts) == 2 and _is_text(node.elts[1]):
                    first = node.elts[0]
                    if isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value.islower():
                        continue  # a pair of words (("first", "last")), not a refusal
                    ids |= _resolve(game, first, function, functions)
    assert "_illegality" in seen, f"{game}: no _illegality in its state"
    bad = sorted(i for i in ids if not RULE_ID.fullmatch(i))
    assert not bad, f"{game}: refusals with no rule id: {bad}"
    return frozenset(ids)


@cache
def engine_ends(game: str) -> frozenset[str]:
    """Every end of the game (the outcome's reason or rule, as the page keys it), read from its source."""
    tree = ast.parse((GAMES_DIR / game / "state.py").read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in FINISHERS
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "self"):
            continue
        for arg in node.args:
            if ENDS_BY[game] == "rule" and isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
                    and RULE_ID.fullmatch(arg.value):
                out.add(arg.value)
            if ENDS_BY[game] == "reason" and isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) \
                    and arg.value.id == "EndReason":
                vocab = import_module(f"cardtable.games.{game}.vocab")
                out.add(getattr(vocab.EndReason, arg.attr).value)
    if ENDS_BY[game] == "reason":
        vocab = import_module(f"cardtable.games.{game}.vocab")
        out |= {r.value for r in vocab.EndReason}
    assert out, f"{game}: no end found in its state"
    return frozenset(out)


def played(game: str, setups: list[dict[str, object]], seeds: int = 4, every: int = 5) -> tuple[set[str], set[str]]:
    """The refusals (of every indexed action, at every ``every``-th position) and the ends of random games."""
    engine = load_game(game)
    actions = engine.indexed_actions()
    refusals: set[str] = set()
    ends: set[str] = set()
    for setup in setups:
        for seed in range(seeds):
            state = engine.new_game(seed=seed, **setup)
            rng = random.Random(seed)
            moves = 0
            while not state.is_over:
                if moves % every == 0:
                    for action in actions:
                        problem = state.illegality(action, state.current_player)
                        if problem is not None:
                            refusals.add(problem[0])
                state.apply_legal(rng.choice(list(state.legal_actions())))
                moves += 1
            outcome = state.outcome()
            assert outcome is not None
            ends.add(outcome.reason if ENDS_BY[game] == "reason" else outcome.rule)
    return refusals, ends


# -- the page module's words -----------------------------------------------------------------------------
def page_text(game: str) -> str:
    """The game's page module."""
    return (PAGES_DIR / f"{game}.js").read_text(encoding="utf-8")


def table(text: str, name: str) -> dict[str, str]:
    """The entries of a page module's top-level ``const NAME = { ... };`` table: each key and its text."""
    m = re.search(rf"^const {name} = \{{\n(.*?)^\}};", text, re.S | re.M)
    assert m, f"no table {name}"
    entries: dict[str, str] = {}
    key = None
    for line in m.group(1).splitlines():
        top = re.match(r'^  "?([\w-]+)"?: ?(.*)$', line)
        if top:
            key = top.group(1)
            entries[key] = top.group(2)
        elif key is not None:
            entries[key] += "\n" + line
    return entries


def worded(text: str, entry: str) -> bool:
    """An entry words through the catalog: a t() call in it, or in the module function it names."""
    if re.search(r"\bt\(|\btn\(", entry):
        return True
    named = re.match(r"\s*(\w+),?\s*$", entry)
    if not named:
        return False
    body = re.search(rf"^function {named.group(1)}\(.*?^\}}", text, re.S | re.M)
    return bool(body and re.search(r"\bt\(", body.group(0)))


SETUPS: dict[str, list[dict[str, object]]] = {
    "zeta": [{}],
    "utahime": [{}, {"option_set": "designer_example"}],
    "oscilloscope": [{"players": 1}, {"players": 2}, {"players": 3}],
}


def test_the_engine_ids_are_read_from_the_rules_code() -> None:
    assert {"ZETA-R2", "ZETA-R14", "ZETA-R42", "ZETA-R59"} <= engine_refusals("zeta")
    assert {"UTA-R14", "UTA-R19", "UTA-I27", "UTA-R56"} <= engine_refusals("utahime")
    assert {"OSC-R6", "OSC-R14", "OSC-R37", "OSC-I5"} <= engine_refusals("oscilloscope")
    assert engine_ends("zeta") == {"four_in_a_row", "board_full", "board_full_tie", "deck_out", "empty_deck_draw"}
    assert engine_ends("utahime") == {"UTA-R55", "UTA-R56", "UTA-R57"}
    assert engine_ends("oscilloscope") == {"OSC-R34", "OSC-R46", "OSC-R60", "OSC-R63", "OSC-R64"}


@pytest.mark.parametrize("game", GAMES)
def test_what_random_games_refuse_and_end_with_is_among_the_ids_read(game: str) -> None:
    refusals, ends = played(game, SETUPS[game])
    assert refusals and refusals <= engine_refusals(game), sorted(refusals - engine_refusals(game))
    assert ends <= engine_ends(game), sorted(ends - engine_ends(game))


@pytest.mark.parametrize("game", GAMES)
def test_every_refusal_of_the_engine_is_worded_by_the_game_page(game: str) -> None:
    text = page_text(game)
    words = table(text, "REFUSALS")
    missing = sorted(engine_refusals(game) - set(words))
    assert not missing, f"js/games/{game}.js REFUSALS has no words for {missing}"
    unworded = sorted(k for k, v in words.items() if not worded(text, v))
    assert not unworded, f"js/games/{game}.js REFUSALS entries not worded through t(): {unworded}"
    assert re.search(r"^function refusal\(", text, re.M) and re.search(r"export default \{[^}]*\brefusal\b", text)


@pytest.mark.parametrize("game", GAMES)
def test_every_end_of_the_engine_has_a_reason_and_a_detail_in_the_game_page(game: str) -> None:
    text = page_text(game)
    endings = table(text, "ENDINGS")
    missing = sorted(engine_ends(game) - set(endings))
    assert not missing, f"js/games/{game}.js ENDINGS has no words for {missing}"
    for key, entry in endings.items():
        assert "reason:" in entry and "detail:" in entry, f"{game} {key}: an ending has a reason and a detail line"
        reason = re.search(r"reason: (.*?)(?:,\n|\n\s*detail:|, detail:)", entry, re.S)
        assert reason and worded(text, reason.group(1)), f"{game} {key}: the reason is not worded through t()"
    made = re.search(r"^const \{ reason, detail \} = endingWords\(ENDINGS, ", text, re.M)  # ui.js's reader of ENDINGS
    for name in ("reason", "detail"):
        assert made or re.search(rf"^function {name}\(", text, re.M)
        assert re.search(rf"export default \{{[^}}]*\b{name}\b", text)
