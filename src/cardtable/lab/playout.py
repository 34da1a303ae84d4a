"""The lab's inner loop for a lineup of uniformly random agents, compiled with the engines.

``random_to_end`` is what :func:`cardtable.lab.study.play_one` runs when no seat needs a view:
each step asks the state for its legal actions and applies the one a uniform draw picks through
the unchecked door (``State.apply_legal``: it is legal by construction). Compiled,
the calls to the state are native calls and the loop costs no bytecode.

>>> import cardtable
>>> from cardtable.core.rng import QuickRandom
>>> state = cardtable.load_game("zeta").new_game(seed=4)
>>> n = random_to_end(state, QuickRandom(4), 500)
>>> state.is_over and n == len(state.history)
True
"""

from __future__ import annotations

from cardtable.core import State
from cardtable.core.rng import QuickRandom


def random_to_end(state: State, rng: QuickRandom, limit: int) -> int:
    """Apply uniformly random legal actions until the game ends or ``limit`` are applied; returns how many.

    Compiled, ``rng.random()`` is a native call that returns an unboxed float.
    """
    actions = 0
    while actions < limit and state.current_player is not None:
        legal = state.legal_actions()
        state.apply_legal(legal[int(rng.random() * len(legal))])  # one of the legal actions: the unchecked door
        actions += 1
    return actions
