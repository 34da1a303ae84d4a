"""One package per game; each registers here by import path (imported only when loaded)."""

BUILTIN_GAMES: dict[str, str] = {
    "zeta": "cardtable.games.zeta:ZetaGame",
    "oscilloscope": "cardtable.games.oscilloscope:OscilloscopeGame",
    "utahime": "cardtable.games.utahime:UtahimeGame",
}
