"""The games inside the tools people study games with: PettingZoo, Gymnasium and OpenSpiel.

Each adapter is its own module and imports its framework only when imported itself, so ``import
cardtable.adapters`` costs nothing:

- :mod:`cardtable.adapters.pettingzoo`: ``env(game, **options)``, a PettingZoo AEC environment;
- :mod:`cardtable.adapters.gymnasium`: ``env(game, opponent=SPEC, **options)``, a single-agent
  Gymnasium environment against a built-in agent;
- :mod:`cardtable.adapters.openspiel`: every game registered as an OpenSpiel Python game
  (``load(game, **params)``);
- :mod:`cardtable.adapters.bench`: environment steps per second next to the raw engine's.

They all stand on the game contract's action index (``game.num_distinct_actions``,
``state.action_index(action)``, ``game.action_from_index(i)``, ``state.legal_action_mask()``) and
observation tensors (``game.encode_view(state.view(seat))``), so what an agent receives always
comes from its seat's view. See docs/adapters.md.
"""
