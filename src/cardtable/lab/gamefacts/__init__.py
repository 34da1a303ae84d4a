"""The built-in games' fact readers, one module a game (each game's kit names its ``facts`` function).

Each reads its engine's compact event codes through the game's codec, and its rows by kind.
"""
