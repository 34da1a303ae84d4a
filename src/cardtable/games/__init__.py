"""One package per game, each with the same modules in the same roles (cards, rules, actions, state,
position, game, events, rulebook.md). ``BUILTIN`` is what the ``cardtable.games`` entry point hands the
registry: where each game's parts live, as import paths, so listing the games imports none of them."""

from cardtable.core.registry import GameEntry


def _entry(name: str, cls: str, prefix: str) -> GameEntry:
    return GameEntry(
        name=name,
        game=f"cardtable.games.{name}.game:{cls}",
        rule_prefix=prefix,
        rulebook=f"cardtable.games.{name}",
        describe_event=f"cardtable.games.{name}.events:describe_event",
        heuristic=f"cardtable.agents.heuristics.{name}:score_actions",
        renderer=f"cardtable.cli.play.render.{name}:render_{name}",
        describe_action=f"cardtable.cli.play.render.{name}:describe_action",
        web_routes=f"cardtable.web.games.{name}:WEB",
    )


BUILTIN: list[GameEntry] = [
    _entry("zeta", "ZetaGame", "ZETA"),
    _entry("oscilloscope", "OscilloscopeGame", "OSC"),
    _entry("utahime", "UtahimeGame", "UTA"),
]
"""The built-in games."""
