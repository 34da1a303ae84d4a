"""One package per game, each with the same modules in the same roles (cards, rules, actions, state,
position, game, events, rulebook.md). ``BUILTIN`` is what the ``cardtable.games`` entry point hands the
registry: each game's kit, its parts as import paths, so listing the games imports none of them.

The facet modules outside a game's package (its heuristic, terminal screen, printer, web part and
client module) are named after the game, so a kit reads the same for every built-in game.
"""

from cardtable.core.registry import GameKit


def _kit(name: str, cls: str, prefix: str, *, evaluator: bool, random_setup: str = "", decks: str = "") -> GameKit:
    """A built-in game's kit: every part where the built-in games keep it."""
    heuristic = f"cardtable.agents.heuristics.{name}"
    return GameKit(
        name=name,
        game=f"cardtable.games.{name}.game:{cls}",
        rule_prefix=prefix,
        rulebook=f"cardtable.games.{name}",
        codec=f"cardtable.games.{name}.codec:CODEC",
        facts=f"cardtable.lab.gamefacts.{name}:{name}_facts",
        describe_event=f"cardtable.games.{name}.events:describe_event",
        heuristic=f"{heuristic}:score_actions",
        evaluator=f"{heuristic}:evaluate" if evaluator else "",
        levels=f"{heuristic}:LEVELS",
        renderer=f"cardtable.cli.play.render.{name}:render_{name}",
        describe_action=f"cardtable.cli.play.render.{name}:describe_action",
        printer=f"cardtable.printing.{name}:PRINTER",
        report_tables=f"cardtable.lab.gamereports.{name}:{name}_tables",
        random_setup=random_setup,
        encoding=f"cardtable.games.{name}.encoding",
        web_routes=f"cardtable.web.games.{name}:WEB",
        client_module=f"js/games/{name}.js",
        cardset=f"cardtable.games.{name}.cardset:SPEC",
        decks=decks,
    )


BUILTIN: list[GameKit] = [
    _kit("zeta", "ZetaGame", "ZETA", evaluator=False, decks="cardtable.games.zeta.deckbook:DECKS"),
    _kit("oscilloscope", "OscilloscopeGame", "OSC", evaluator=True),
    _kit("utahime", "UtahimeGame", "UTA", evaluator=True, random_setup="cardtable.games.utahime.loadouts:lab_setup"),
]
"""The built-in games."""
