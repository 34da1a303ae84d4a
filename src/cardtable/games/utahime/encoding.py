"""Utahime's fixed action index and the observation tensor of a seat's view (for learning and research tools).

Cards are written relative to the zone they lie in (``H7``; ``~H7`` for a card of the other deck,
which only ``diamond_next_pile=self`` brings about; ``C7+`` for a cosmic card). ``T`` below is every
card token of one zone: the 52 deck cards and the 6 cosmic cards in card order (H S C D, A to K, then
the cosmic pool), and their ``~`` forms when ``diamond_next_pile=self``. The **action index** numbers
every action Utahime can offer under its rules, once, in this order:

| actions | which | rule |
|---|---|---|
| ``wish CARD`` | the 52 deck cards | UTA-R3 |
| ``set CARD`` | the J/Q/K of ``T`` | UTA-R37 |
| ``option NAME``, ``hero`` | every option card of the shipped option sets, then the hero | UTA-R46, UTA-R47 |
| ``flip CARD`` | ``T`` | UTA-I52 |
| ``attack CARD [next] [ban SUITS]`` | every declaration each card of ``T`` allows (NEXT with clubs and diamonds, the suits a 2-4 and a ♣NEXT name) | UTA-R12, UTA-R15, UTA-R48-R50 |
| ``pass CARD`` | ``T`` | UTA-R44 |
| ``joker``, ``stall`` | | UTA-R45, UTA-R56 |
| ``block CARD [ban S]`` | ``T``, and a named suit for a 2-4 under ``rank_effects_on_block`` | UTA-R18-R20, UTA-I27 |
| ``noblock``, ``react``, ``noreact`` | | UTA-R20, UTA-R22 |
| ``take CARD``, ``take CARD first``, ``take CARD last``, ``take none`` | ``T`` | UTA-R24, R25, R28, R48 |
| ``draw N`` | 0 to 5 | UTA-I32 |
| ``heartnext CARD`` | the hearts of ``T`` | UTA-R51 |
| ``pick CARD`` | the 52 deck cards | UTA-R51 |
| ``end``, ``cosmic CARD``, ``nocosmic`` | the 6 cosmic cards | UTA-R10, UTA-R52 |
| ``choose CARD``, ``choose none``, ``suit S`` | ``T``; the four suits | option and hero effects |

>>> from cardtable import load_game
>>> game = load_game("utahime")
>>> game.num_distinct_actions, str(game.action_from_index(0)), str(game.action_from_index(52))
(762, 'wish HA', 'set HJ')

An option card's action names it, so the index covers the option cards of the shipped sets
(``designer_example``); a custom set's cards have no index (``game.encoding_problem(setup)`` says so,
and the adapters refuse such a setup).

The **observation** of a view is a flat ``float32`` vector in [0, 1], seen from the viewer's side
(``own``: the viewer, ``opp``: the other seat; a spectator's view is seen from seat 0's side). A card
is one of 116 slots: the viewer's 58 cards (deck and cosmic), then the other seat's, whichever zone it
lies in. The view holds only what the seat may know (UTA-R59) and remembers (``memory``, UTA-I-CT21),
so the tensor never holds a hidden card. Counts of cards are divided by 58 (one player's cards),
energy by 20 and the turn by ``max_turns``; the values that can grow past their scale saturate at 1.
``observation_layout(rules)`` names the segments in order.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from cardtable.core import Action
from cardtable.core.encoding import layout_offsets

from .actions import (
    Block,
    Choose,
    ChooseNothing,
    Cosmic,
    Draw,
    EndWindow,
    Flip,
    HeartNext,
    Joker,
    NameSuit,
    NoBlock,
    NoCosmic,
    NoReact,
    Pass,
    Pick,
    React,
    SetCard,
    Stall,
    Take,
    TakeNothing,
    UseHero,
    UseOption,
    Wish,
)
from .cards import COSMIC_BASE, COSMIC_NAMES, DECK_SIZE, INDEX_BY_NAME, RANK, SUIT, SUIT_LETTERS
from .options import SHIPPED_SETS, option_set_from_text, shipped_set_text
from .rules import UtahimeRules
from .state import _attack_variants as attack_variants  # the declarations the engine offers, the very objects
from .vocab import EFFECT_KINDS, PHASE_NAMES, WHERE_NAMES

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

CARDS = COSMIC_BASE + len(COSMIC_NAMES)
"""One player's cards: 52 in the deck and 6 cosmic."""
SLOTS = 2 * CARDS
"""Card slots of the tensor: the viewer's 58 cards, then the other seat's."""
MAX_DRAW = 5
ENERGY_SCALE = 20
"""Energy is divided by 20 and saturates there."""
AHEAD = 2
"""Effects of this turn and of the next (an effect is active only during its turn, UTA-R13)."""
EFFECT_SLOTS = len(SUIT_LETTERS) + 2 * (len(EFFECT_KINDS) - 1)
"""Per turn and player: the four forbidden suits, then each number modifier's plus and minus parts."""
HALF_POINT_SCALE = 10
"""Half-points of a modifier are divided by 10 (+5 numbers) and saturate there."""
SUCCESS_KINDS = ("none", "draw", "remove", "diamond_next")
MAX_STEPS = 4
MAX_SET = 12
"""J/Q/K of one deck."""


def _rules(rules: Any) -> UtahimeRules:
    if not isinstance(rules, UtahimeRules):
        raise TypeError(f"expected UtahimeRules, got {rules!r}")
    return rules


@lru_cache(maxsize=1)
def shipped_cards() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The option card names and the hero names of every shipped option set, in set order, each once."""
    options: dict[str, None] = {}
    heroes: dict[str, None] = {}
    for name in SHIPPED_SETS:
        option_set = option_set_from_text(shipped_set_text(name))
        options.update(dict.fromkeys(option_set.options))
        heroes.update(dict.fromkeys(option_set.heroes))
    return tuple(options), tuple(heroes)


NAMES = tuple(sorted(INDEX_BY_NAME, key=INDEX_BY_NAME.__getitem__))
"""One zone's card names by card index: the deck in card order, then the cosmic pool."""


def _tokens(rules: UtahimeRules) -> tuple[str, ...]:
    return NAMES + tuple("~" + n for n in NAMES) if rules.diamond_next_pile == "self" else NAMES


def _suit_rank(tok: str) -> tuple[int, int]:
    i = INDEX_BY_NAME[tok.lstrip("~")]
    return SUIT[i], RANK[i]


@lru_cache(maxsize=16)
def index_actions(rules: UtahimeRules) -> tuple[Action, ...]:
    """Every action Utahime can offer under ``rules``, in index order (see the module's table)."""
    r = _rules(rules)
    tokens = _tokens(r)
    deck = tokens[:DECK_SIZE]
    options, _ = shipped_cards()
    out: list[Action] = [Wish(t) for t in deck]
    out += [SetCard(t) for t in tokens if _suit_rank(t)[1] >= 11 and not t.endswith("+")]
    out += [UseOption(name) for name in options]
    out.append(UseHero())
    out += [Flip(t) for t in tokens]
    for t in tokens:
        out += attack_variants(t, *_suit_rank(t))
    out += [Pass(t) for t in tokens]
    out += [Joker(), Stall()]
    for t in tokens:
        out.append(Block(t))
        if r.rank_effects_on_block and 2 <= _suit_rank(t)[1] <= 4:
            out += [Block(t, s) for s in SUIT_LETTERS]
    out += [NoBlock(), React(), NoReact()]
    for t in tokens:
        out += [Take(t), Take(t, "first"), Take(t, "last")]
    out.append(TakeNothing())
    out += [Draw(n) for n in range(MAX_DRAW + 1)]
    out += [HeartNext(t) for t in tokens if _suit_rank(t)[0] == 0]
    out += [Pick(t) for t in deck]
    out += [EndWindow(), *(Cosmic(c) for c in NAMES[COSMIC_BASE:]), NoCosmic()]
    out += [Choose(t) for t in tokens]
    out += [ChooseNothing(), *(NameSuit(s) for s in SUIT_LETTERS)]
    return tuple(out)


def encoding_problem(rules: UtahimeRules, setup: Mapping[str, Any]) -> str | None:
    """Why the action index cannot serve games with this (normalized) setup, or None: custom option sets."""
    if setup.get("option_set") == "custom":
        return ("the action index covers the option cards of the shipped option sets "
                f"({', '.join(SHIPPED_SETS)}), not a custom set's")
    return None


@lru_cache(maxsize=16)
def observation_layout(rules: UtahimeRules) -> tuple[tuple[str, int], ...]:
    """The observation's segments in order: (name, length)."""
    options, heroes = shipped_cards()
    player = (
        ("deck_count", 1), ("hand_count", 1), ("hand", SLOTS), ("hidden_foreign_in_hand", 1),
        ("set_earlier", 1), ("set_this_turn", 1), ("set_known", SLOTS),
        ("discard_up", SLOTS), ("discard_self_played", SLOTS), ("discard_down_known", SLOTS),
        ("discard_down_unknown", 1), ("discard_cost_unknown", 1), ("discard_size", 1), ("discard_last", SLOTS),
        ("wished", SLOTS), *((f"memory_{where}", SLOTS) for where in WHERE_NAMES), ("memory_set", SLOTS),
        ("energy", 1), ("joker_face_up", 1), ("cosmic_pool", len(COSMIC_NAMES)),
        ("options_held", len(options)), ("options_face_up", len(options)), ("hero", len(heroes)),
        ("hero_uses_left", 1), ("unlocked", 2), ("heart_next_used_game", 1), ("heart_next_used", 1), ("score", 1),
    )
    return (
        ("phase", len(PHASE_NAMES)), ("turn", 1), ("attacker_own", 1), ("first_own", 1), ("to_move", 1),
        ("effects", AHEAD * 2 * EFFECT_SLOTS), ("turn_flags", 5), ("look", 2),
        ("attack", 1), ("attack_card", SLOTS), ("attack_next", 1), ("attack_bans", len(SUIT_LETTERS)),
        ("attack_block", SLOTS), ("attack_reaction", SLOTS), ("attack_success", 3),
        ("attack_effect", len(SUCCESS_KINDS)),
        ("draws_queued", 1), ("draws_then_end", 1), ("heart_next_user", 2), ("heart_next_revealed", SLOTS),
        ("effect_user", 2), ("effect_source", 2), ("effect_step", MAX_STEPS), ("effect_resume", len(PHASE_NAMES)),
        *((f"own_{name}", n) for name, n in player), *((f"opp_{name}", n) for name, n in player),
    )


@lru_cache(maxsize=16)
def _offsets(rules: UtahimeRules) -> dict[str, int]:
    return layout_offsets(observation_layout(rules))


def observation_shape(rules: UtahimeRules) -> tuple[int, ...]:
    """The shape of every observation under ``rules``: one flat vector."""
    return (_offsets(_rules(rules))[""],)


def encode_view(rules: UtahimeRules, view: Mapping[str, Any]) -> npt.NDArray[np.float32]:  # noqa: C901
    """The observation tensor of ``view`` (a dict from ``state.view(seat)``), see ``observation_layout``."""
    import numpy as np

    r = _rules(rules)
    at = _offsets(r)
    options, heroes = shipped_cards()
    me: int = view["viewer"] if view["viewer"] is not None else 0
    hot: dict[int, float] = {}  # index -> value; what is not here is 0

    def slot(tok: str, zone: int) -> int:
        """The tensor slot of the card ``tok`` written in a zone of seat ``zone``."""
        foreign = tok.startswith("~")
        owner = 1 - zone if foreign else zone
        return (0 if owner == me else CARDS) + INDEX_BY_NAME[tok[1:] if foreign else tok]

    def rel(seat: int) -> int:
        return 0 if seat == me else 1

    def scaled(name: str, value: float, scale: float) -> None:
        if value:
            hot[at[name]] = min(1.0, value / scale)

    turn = view["turn"]
    hot[at["phase"] + PHASE_NAMES.index(view["phase"])] = 1.0
    scaled("turn", turn, r.max_turns)
    if view["attacker"] == me:
        hot[at["attacker_own"]] = 1.0
    if view["first_player"] == me:
        hot[at["first_own"]] = 1.0
    if view["current_player"] is not None and view["current_player"] == view["viewer"]:
        hot[at["to_move"]] = 1.0
    for e in view["effects"]:
        ahead = e["turn"] - turn
        if not 0 <= ahead < AHEAD:
            continue
        base = at["effects"] + (ahead * 2 + rel(e["player"])) * EFFECT_SLOTS
        if e["kind"] == "ban":
            hot[base + SUIT_LETTERS.index(e["suit"])] = 1.0
        else:
            kind = EFFECT_KINDS.index(e["kind"])
            i = base + len(SUIT_LETTERS) + 2 * (kind - 1) + (0 if e["half_points"] >= 0 else 1)
            hot[i] = min(1.0, hot.get(i, 0.0) + abs(e["half_points"]) / HALF_POINT_SCALE)
    ts = view["turn_state"]
    for i, key in enumerate(("rescue", "free_action_taken", "cosmic_taken", "stalled", "previous_dead_stall")):
        if ts[key]:
            hot[at["turn_flags"] + i] = 1.0
    if ts["look"] is not None:
        hot[at["look"] + rel(ts["look"])] = 1.0
    attack = view["attack"]
    if attack is not None:
        attacker = view["attacker"]
        hot[at["attack"]] = 1.0
        hot[at["attack_card"] + slot(attack["card"], attacker)] = 1.0
        if attack["next"]:
            hot[at["attack_next"]] = 1.0
        for ch in attack["bans"]:
            hot[at["attack_bans"] + SUIT_LETTERS.index(ch)] = 1.0
        if attack["block"] is not None:
            hot[at["attack_block"] + slot(attack["block"], 1 - attacker)] = 1.0
        if attack["reaction"] is not None:
            hot[at["attack_reaction"] + slot(attack["reaction"], 1 - attacker)] = 1.0
        success = attack["success"]
        hot[at["attack_success"] + (0 if success is None else 1 if success else 2)] = 1.0
        hot[at["attack_effect"] + SUCCESS_KINDS.index(attack["effect"])] = 1.0
    draws = view["draws"]
    scaled("draws_queued", len(draws["queue"]), 4)
    if draws["then"] == "end":
        hot[at["draws_then_end"]] = 1.0
    heart_next = view["heart_next"]
    if heart_next is not None:
        hot[at["heart_next_user"] + rel(heart_next["user"])] = 1.0
        for tok in heart_next["revealed"]:
            hot[at["heart_next_revealed"] + slot(tok, heart_next["user"])] = 1.0
    effect = view["effect"]
    if effect is not None:
        hot[at["effect_user"] + rel(effect["user"])] = 1.0
        hot[at["effect_source"] + (0 if effect["source"] == "option" else 1)] = 1.0
        hot[at["effect_step"] + min(effect["step"], MAX_STEPS - 1)] = 1.0
        hot[at["effect_resume"] + PHASE_NAMES.index(effect["resume"])] = 1.0
    setup = view["setup"]
    for p, player in enumerate(view["players"]):
        pre = "own_" if p == me else "opp_"
        scaled(pre + "deck_count", player["deck_count"], CARDS)
        scaled(pre + "hand_count", player["hand_count"], CARDS)
        for tok in player["hand"] or ():
            hot[at[pre + "hand"] + slot(tok, p)] = 1.0
        scaled(pre + "hidden_foreign_in_hand", player["hidden_foreign_in_hand"], CARDS)
        earlier = sum(1 for s in player["set"] if s["turn"] < turn)
        scaled(pre + "set_earlier", earlier, MAX_SET)
        scaled(pre + "set_this_turn", len(player["set"]) - earlier, MAX_SET)
        for s in player["set"]:
            if s["card"] is not None:
                hot[at[pre + "set_known"] + slot(s["card"], p)] = 1.0
        unknown = cost_unknown = 0
        for entry in player["discard"]:
            tok = entry["card"]
            if tok is None:
                unknown += 1
                cost_unknown += entry["heart_next_cost"]
                continue
            s = slot(tok, p)
            hot[at[pre + ("discard_up" if entry["face_up"] else "discard_down_known")] + s] = 1.0
            if entry["self_played"]:
                hot[at[pre + "discard_self_played"] + s] = 1.0
        scaled(pre + "discard_down_unknown", unknown, CARDS)
        scaled(pre + "discard_cost_unknown", cost_unknown, CARDS)
        scaled(pre + "discard_size", len(player["discard"]), SLOTS)
        if player["discard"] and player["discard"][-1]["card"] is not None:
            hot[at[pre + "discard_last"] + slot(player["discard"][-1]["card"], p)] = 1.0
        if player["wished"] is not None:
            hot[at[pre + "wished"] + slot(player["wished"], p)] = 1.0
        for m in player["memory"] or ():
            s = slot(m["card"], p)
            hot[at[f"{pre}memory_{m['where']}"] + s] = 1.0
            if m.get("set"):
                hot[at[pre + "memory_set"] + s] = 1.0
        scaled(pre + "energy", player["energy"], ENERGY_SCALE)
        if player["joker_face_up"]:
            hot[at[pre + "joker_face_up"]] = 1.0
        for tok in player["cosmic_pool"]:
            hot[at[pre + "cosmic_pool"] + INDEX_BY_NAME[tok] - COSMIC_BASE] = 1.0
        names = setup.get(f"p{p + 1}_options") or []
        for name, up in zip(names, player["options_face_up"], strict=False):
            k = options.index(name)
            for key, counts in (("options_held", True), ("options_face_up", up)):
                if counts:
                    i = at[pre + key] + k
                    hot[i] = min(1.0, hot.get(i, 0.0) + 0.5)  # one copy 0.5, two or more 1
        hero = setup.get(f"p{p + 1}_hero")
        if hero is not None:
            hot[at[pre + "hero"] + heroes.index(hero)] = 1.0
        scaled(pre + "hero_uses_left", player["hero_uses_left"], 3)
        unlock = player["unlock_turn"]
        if unlock:
            hot[at[pre + "unlocked"]] = 1.0
            if unlock < turn:
                hot[at[pre + "unlocked"] + 1] = 1.0
        if player["heart_next_used_game"]:
            hot[at[pre + "heart_next_used_game"]] = 1.0
        if ts["heart_next_used"][p]:
            hot[at[pre + "heart_next_used"]] = 1.0
        scaled(pre + "score", view["scores"][p], CARDS)
    out = np.zeros(at[""], dtype=np.float32)
    out[list(hot)] = list(hot.values())
    return out
