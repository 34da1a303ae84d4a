"""Reading position JSON (``$.position``, described by ``position.schema.json``) and sampling from views.

:mod:`cardtable.games.utahime.view` writes positions and views; the reader reads what it writes (the
round trip is tested), and the sampler builds a position from a view and feeds it to the same reader. The reader refuses every
position that breaks a rule every reachable position obeys, naming the rule in the reason
(``UTA-R53: P1's hand holds 11 cards ...``); the seat memory of UTA-I-CT21 is checked against the
cards too.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardtable.core import jsonpos
from cardtable.core.errors import InvalidPosition

from .cards import (
    CARDS_PER_SEAT,
    HEARTS,
    IS_COSMIC,
    JACK,
    OWNER,
    RANK,
    SUIT,
    SUIT_LETTERS,
    deck_cards,
    parse_card,
    resolve,
    token,
)
from .state import UtahimeState
from .view import memory_json, position_json, public_memory, seat_memory, view_json
from .vocab import (
    ATTACK_BONUS,
    BAN,
    CARD_MASK,
    COST,
    DISCARD,
    DRAW_EFFECT,
    DRAWS_THEN_END,
    EFFECT_KINDS,
    HAND,
    OUT,
    PHASE_NAMES,
    PILE,
    PUBLIC,
    SEEN,
    SELF,
    SUCCESS_CODES,
    UP,
    WHERE_NAMES,
    Phase,
)

if TYPE_CHECKING:
    from .game import UtahimeGame
    from .state import Kit

RESUMABLE = (Phase.MAIN, Phase.POST, Phase.BLOCK, Phase.REACT)


# -- reading -------------------------------------------------------------------------------------------
_CARD_OF: tuple[dict[str, int], dict[str, int]] = ({}, {})
"""Card tokens already read, per zone owner (positions and samples read the same few dozen tokens again and again)."""


def _card(value: Any, path: str, zone_owner: int) -> int:
    if type(value) is str:
        known = _CARD_OF[zone_owner].get(value)
        if known is not None:
            return known
    text = jsonpos.string(value, path)
    parsed = parse_card(text)
    if parsed is None:
        raise InvalidPosition(path, f"{text!r} is not a card (e.g. H7, S10, DK, C7+, ~H7)")
    card = _CARD_OF[zone_owner][text] = resolve(parsed[0], parsed[1], zone_owner)
    return card


def _card_of(value: Any, zone: str, index: int, zone_owner: int) -> int:
    """``_card`` of item ``index`` of the list at path ``zone`` (the path is only written out for an error)."""
    if type(value) is str:
        known = _CARD_OF[zone_owner].get(value)
        if known is not None:
            return known
    return _card(value, f"{zone}[{index}]", zone_owner)


def _bool(d: Mapping[Any, Any], key: str, path: str) -> bool:
    return jsonpos.boolean(jsonpos.get(d, key, path), f"{path}.{key}")


def _int(d: Mapping[Any, Any], key: str, path: str, lo: int | None = None, hi: int | None = None) -> int:
    return jsonpos.integer(jsonpos.get(d, key, path), f"{path}.{key}", lo, hi)


def _phase(value: Any, path: str, choices: tuple[Phase, ...] | None = None) -> Phase:
    names = [PHASE_NAMES[p] for p in (choices or tuple(Phase))]
    return Phase(PHASE_NAMES.index(jsonpos.string(value, path, names)))


def read_position(game: UtahimeGame, position: Any, seed: int, setup: dict[str, Any], rng: random.Random,
                  kit: Kit, *, trusted: bool = False) -> UtahimeState:
    """Rebuild a state from ``$.position``, validating every field (InvalidPosition on any problem).

    ``trusted`` skips the whole-position rule checks (hand limits, phase preconditions, memory): only
    for positions this package's own sampler built from a real view, which the conformance suite
    checks sample by sample; input from outside is always read strictly.
    """
    rules = game.rules
    d = jsonpos.obj(position, "$.position")
    st = UtahimeState(game, seed, setup, rng, kit)
    path = "$.position"
    st.phase = _phase(jsonpos.get(d, "phase", path), f"{path}.phase")
    st.turn = _int(d, "turn", path, 0, rules.max_turns)
    st.first = _int(d, "first_player", path, 0, 1)
    st.attacker = _int(d, "attacker", path, 0, 1)
    seen: dict[int, str | tuple[str, int]] = {}  # where each card lies: a path, or (zone path, index) for list items

    def at(where: str | tuple[str, int]) -> str:
        return where if isinstance(where, str) else f"{where[0]}[{where[1]}]"

    def claim(card: int, where: str | tuple[str, int]) -> int:
        if card in seen:
            raise InvalidPosition(at(where), f"UTA-R1: card {token(card, 0)} of P{OWNER[card] + 1} is also at "
                                             f"{at(seen[card])} "
                                         "(each card exists once)")
        seen[card] = where
        return card

    players = jsonpos.array(jsonpos.get(d, "players", path), f"{path}.players", 2)
    for p in (0, 1):
        pp = f"{path}.players[{p}]"
        pd = jsonpos.obj(players[p], pp)
        zone = f"{pp}.deck"
        deck = [claim(_card_of(c, zone, i, p), (zone, i)) for i, c in enumerate(jsonpos.array(jsonpos.get(pd, "deck", pp), zone))]
        st.decks[p] = list(reversed(deck))
        zone = f"{pp}.hand"
        st.hands[p] = [claim(_card_of(c, zone, i, p), (zone, i))
                       for i, c in enumerate(jsonpos.array(jsonpos.get(pd, "hand", pp), zone))]
        st.set_turn[p] = {}
        for i, s in enumerate(jsonpos.array(jsonpos.get(pd, "set", pp), f"{pp}.set")):
            sp = f"{pp}.set[{i}]"
            sd = jsonpos.obj(s, sp)
            card = _card(jsonpos.get(sd, "card", sp), f"{sp}.card", p)
            if card not in st.hands[p] or RANK[card] < 11 or card in st.set_turn[p]:
                raise InvalidPosition(f"{sp}.card", "UTA-R38: a set card must be a J, Q or K of that hand, listed once")
            st.set_turn[p][card] = _int(sd, "turn", sp, 1, max(st.turn, 1))
        st.discards[p] = []
        for i, e in enumerate(jsonpos.array(jsonpos.get(pd, "discard", pp), f"{pp}.discard")):
            ep = f"{pp}.discard[{i}]"
            ed = jsonpos.obj(e, ep)
            card = claim(_card(jsonpos.get(ed, "card", ep), f"{ep}.card", p), ep)
            cost = jsonpos.boolean(ed.get("heart_next_cost", False), f"{ep}.heart_next_cost")
            seen_by_all = jsonpos.boolean(ed.get("seen", False), f"{ep}.seen")
            st.discards[p].append(card | (UP if _bool(ed, "face_up", ep) else 0) | (SELF if _bool(ed, "self_played", ep)
                                  else 0) | (COST if cost else 0) | (SEEN if seen_by_all else 0))
        st.energy[p] = _int(pd, "energy", pp, None, 10_000)
        if st.energy[p] < 0:
            raise InvalidPosition(f"{pp}.energy", f"UTA-R40: energy never goes below 0; got {st.energy[p]}")
        if rules.energy_cap and st.energy[p] > rules.energy_cap:
            raise InvalidPosition(f"{pp}.energy", f"UTA-I48: above energy_cap {rules.energy_cap}")
        st.joker_up[p] = _bool(pd, "joker_face_up", pp)
        pool = []
        for i, c in enumerate(jsonpos.array(jsonpos.get(pd, "cosmic_pool", pp), f"{pp}.cosmic_pool")):
            card = _card(c, f"{pp}.cosmic_pool[{i}]", p)
            if not IS_COSMIC[card] or OWNER[card] != p:
                raise InvalidPosition(f"{pp}.cosmic_pool[{i}]", "UTA-R52: only the player's own cosmic cards (with '+')")
            pool.append(claim(card, f"{pp}.cosmic_pool[{i}]"))
        st.pools[p] = pool
        wished = jsonpos.get(pd, "wished", pp)
        st.wished[p] = -1 if wished is None else _card(wished, f"{pp}.wished", p)
        if st.wished[p] >= 0 and (IS_COSMIC[st.wished[p]] or OWNER[st.wished[p]] != p):
            raise InvalidPosition(f"{pp}.wished", "UTA-R3: the wished card comes from the player's own deck")
        ups = jsonpos.array(jsonpos.get(pd, "options_face_up", pp), f"{pp}.options_face_up", len(kit.loadouts[p]))
        st.opt_up[p] = [jsonpos.boolean(u, f"{pp}.options_face_up[{i}]") for i, u in enumerate(ups)]
        hero = kit.heroes[p]
        st.hero_left[p] = _int(pd, "hero_uses_left", pp, 0, hero.uses if hero is not None else 0)
        st.unlock_turn[p] = _int(pd, "unlock_turn", pp, 0, max(st.turn, 0))
        st.hn_game[p] = _bool(pd, "heart_next_used_game", pp)

    # effects
    st.effects = []
    for i, e in enumerate(jsonpos.array(jsonpos.get(d, "effects", path), f"{path}.effects")):
        ep = f"{path}.effects[{i}]"
        ed = jsonpos.obj(e, ep)
        turn = _int(ed, "turn", ep, st.turn, st.turn + 2)
        kind = EFFECT_KINDS.index(jsonpos.string(jsonpos.get(ed, "kind", ep), f"{ep}.kind", EFFECT_KINDS))
        player = _int(ed, "player", ep, 0, 1)
        if kind == BAN:
            value = SUIT_LETTERS.index(jsonpos.string(jsonpos.get(ed, "suit", ep), f"{ep}.suit", tuple(SUIT_LETTERS)))
        else:
            value = _int(ed, "half_points", ep, -100, 100)
        st.effects.append((turn, kind, player, value))

    ts = jsonpos.obj(jsonpos.get(d, "turn_state", path), f"{path}.turn_state")
    tp = f"{path}.turn_state"
    st.rescue = _bool(ts, "rescue", tp)
    st.free_used = _bool(ts, "free_action_taken", tp)
    st.cosmic_taken = _bool(ts, "cosmic_taken", tp)
    st.stalled = _bool(ts, "stalled", tp)
    st.prev_dead = _bool(ts, "previous_dead_stall", tp)
    look = jsonpos.get(ts, "look", tp)
    st.look = -1 if look is None else jsonpos.integer(look, f"{tp}.look", 0, 1)
    used = jsonpos.array(jsonpos.get(ts, "heart_next_used", tp), f"{tp}.heart_next_used", 2)
    st.hn_turn = [jsonpos.boolean(u, f"{tp}.heart_next_used[{i}]") for i, u in enumerate(used)]

    a = st.attacker
    attack = jsonpos.get(d, "attack", path)
    if attack is not None:
        ap = f"{path}.attack"
        ad = jsonpos.obj(attack, ap)
        st.atk = _card(jsonpos.get(ad, "card", ap), f"{ap}.card", a)
        st.atk_next = _bool(ad, "next", ap)
        bans = jsonpos.string(jsonpos.get(ad, "bans", ap), f"{ap}.bans")
        if problem := st._declaration_problem(st.atk, st.atk_next, bans):
            raise InvalidPosition(f"{ap}.bans", f"{problem[0]}: {problem[1]}")
        st.atk_bans = bans
        blk = jsonpos.get(ad, "block", ap)
        st.blk = -1 if blk is None else _card(blk, f"{ap}.block", 1 - a)
        react = jsonpos.get(ad, "reaction", ap)
        st.reacted = -1 if react is None else _card(react, f"{ap}.reaction", 1 - a)
        st.success = _bool(ad, "success", ap)
        st.success_kind = SUCCESS_CODES[jsonpos.string(jsonpos.get(ad, "effect", ap), f"{ap}.effect",
                                                       tuple(SUCCESS_CODES))]
        if st.blk >= 0 and st.success:
            raise InvalidPosition(ap, "UTA-R21: an attack is either blocked or successful")

    draws = jsonpos.obj(jsonpos.get(d, "draws", path), f"{path}.draws")
    dp = f"{path}.draws"
    st.draw_queue = []
    for i, q in enumerate(jsonpos.array(jsonpos.get(draws, "queue", dp), f"{dp}.queue")):
        item = jsonpos.array(q, f"{dp}.queue[{i}]", 2)
        st.draw_queue.append([jsonpos.integer(item[0], f"{dp}.queue[{i}][0]", 0, 1),
                              jsonpos.integer(item[1], f"{dp}.queue[{i}][1]", 0, 5)])
    st.draw_then = DRAWS_THEN_END if jsonpos.string(jsonpos.get(draws, "then", dp), f"{dp}.then",
                                                    ("finish", "end")) == "end" else 0

    hn = jsonpos.get(d, "heart_next", path)
    st.revealed = []
    st.hn_user = -1
    if hn is not None:
        hp = f"{path}.heart_next"
        hd = jsonpos.obj(hn, hp)
        st.hn_user = _int(hd, "user", hp, 0, 1)
        st.revealed = [claim(_card(c, f"{hp}.revealed[{i}]", st.hn_user), f"{hp}.revealed[{i}]")
                       for i, c in enumerate(jsonpos.array(jsonpos.get(hd, "revealed", hp), f"{hp}.revealed"))]

    eff = jsonpos.get(d, "effect", path)
    st.eff = None
    if eff is not None:
        fp = f"{path}.effect"
        fd = jsonpos.obj(eff, fp)
        user = _int(fd, "user", fp, 0, 1)
        source = jsonpos.string(jsonpos.get(fd, "source", fp), f"{fp}.source", ("option", "hero"))
        if source == "option":
            slot = _int(fd, "slot", fp, 0, max(len(kit.loadouts[user]) - 1, 0))
            if not kit.loadouts[user]:
                raise InvalidPosition(f"{fp}.slot", "that player has no option cards")
            card_def = kit.loadouts[user][slot]
        else:
            slot = _int(fd, "slot", fp, 0, 0)
            hero = kit.heroes[user]
            if hero is None:
                raise InvalidPosition(f"{fp}.source", "that player has no hero")
            card_def = hero
        step = _int(fd, "step", fp, 0, len(card_def.steps) - 1)
        if not card_def.steps[step].needs_choice:
            raise InvalidPosition(f"{fp}.step", "a pending effect waits at a step that needs a choice")
        resume = _phase(jsonpos.get(fd, "resume", fp), f"{fp}.resume", RESUMABLE)
        st.eff = [user, 0 if source == "option" else 1, slot, step, int(resume)]

    res = jsonpos.get(d, "result", path)
    st.result = None
    if res is not None:
        rp = f"{path}.result"
        rd = jsonpos.obj(res, rp)
        st.result = (jsonpos.string(jsonpos.get(rd, "reason", rp), f"{rp}.reason"),
                     jsonpos.string(jsonpos.get(rd, "rule", rp), f"{rp}.rule"),
                     jsonpos.string(jsonpos.get(rd, "detail", rp), f"{rp}.detail"))

    _read_memory(st, d.get("memory"))
    if not trusted:
        _check_consistency(st, seen)
    return st


def _read_memory(st: UtahimeState, data: Any) -> None:
    """``$.position.memory``: what seat 0 alone, seat 1 alone, and everybody remember (UTA-I-CT21)."""
    if data is None:
        return
    path = "$.position.memory"
    lists = jsonpos.array(data, path, 3)
    for o in (0, 1, 2):
        listed: set[int] = set()
        for i, item in enumerate(jsonpos.array(lists[o], f"{path}[{o}]")):
            ip = f"{path}[{o}][{i}]"
            e = jsonpos.obj(item, ip)
            player = _int(e, "player", ip, 0, 1)
            if player == o:
                raise InvalidPosition(f"{ip}.player", "UTA-I-CT21: a seat's memory covers only the other seat's "
                                                      "zones (it sees its own hand and pile)")
            card = _card(jsonpos.get(e, "card", ip), f"{ip}.card", player)
            where = WHERE_NAMES.index(jsonpos.string(jsonpos.get(e, "where", ip), f"{ip}.where", WHERE_NAMES))
            set_turn = _int(e, "set", ip, 0, st.turn)
            since = _int(e, "since", ip, 0, st.turn)
            if card in listed:
                raise InvalidPosition(f"{ip}.card", "UTA-I-CT21: a card is remembered once per observer")
            listed.add(card)
            if o == PUBLIC:
                if where not in (HAND, OUT):
                    raise InvalidPosition(f"{ip}.where", "UTA-I-CT21: everybody remembers cards in (or perhaps in) "
                                                         "a hand; a face-down card everybody saw is marked 'seen'")
                (st.pub_hand if where == HAND else st.pub_out)[player][card] = (set_turn, since)
            elif where == DISCARD:
                st.priv_down[o].add(card)
            elif where == PILE:
                st.priv_pile[o].add(card)
            else:
                (st.priv_hand if where == HAND else st.priv_out)[o][card] = (set_turn, since)


def _attacker_of(st: UtahimeState, turn: int) -> int:
    """The seat that attacks in ``turn`` (UTA-R9: the first player in odd turns)."""
    return st.first if turn % 2 == 1 else 1 - st.first


def _check_consistency(st: UtahimeState, seen: Mapping[int, object]) -> None:  # noqa: C901 - one pass, rule by rule
    """What every reachable position obeys, each broken rule named; then the phase must offer an action."""
    path = "$.position"
    rules = st.rules
    kit = st.kit
    expected = set(deck_cards(0)) | set(deck_cards(1))
    expected |= {p * CARDS_PER_SEAT + i for p in (0, 1) for i in kit.cosmic}
    extra = set(seen) - expected
    if extra:
        raise InvalidPosition(path, "UTA-R1: cards that are not in this game: "
                                    f"{', '.join(sorted(token(c, 0) for c in extra))}")
    missing = expected - set(seen)
    if missing:
        shown = ", ".join(f"P{OWNER[c] + 1}:{token(c, OWNER[c])}" for c in sorted(missing)[:6])
        raise InvalidPosition(path, f"UTA-R1: {len(missing)} cards are in no zone (card conservation): {shown}")
    phase = st.phase
    for p in (0, 1):
        if any(IS_COSMIC[c] for c in st.decks[p]):
            raise InvalidPosition(f"{path}.players[{p}].deck", "UTA-I9: cosmic cards never enter a deck")
    # UTA-R6: who goes first follows the option cards, then the first_player flag
    costs, counts = kit.costs, kit.counts
    if costs[0] != costs[1]:
        first = 0 if costs[0] < costs[1] else 1
    elif counts[0] != counts[1]:
        first = 0 if counts[0] < counts[1] else 1
    else:
        first = {"p1": 0, "p2": 1}.get(rules.first_player, st.first)
    if st.first != first:
        raise InvalidPosition(f"{path}.first_player", f"UTA-R6: P{first + 1} goes first in this game (option costs "
                                                      f"{costs[0]}/{costs[1]}, counts {counts[0]}/{counts[1]})")
    if phase == Phase.WISH:
        if st.turn != 0 or any(st.hands[p] or st.discards[p] for p in (0, 1)) or st.wished[1] >= 0:
            raise InvalidPosition(path, "UTA-R3: before the game (phase wish) the turn is 0, hands and discards are "
                                        "empty, and P2 has not wished yet")
        if st.wished[0] >= 0 and st.wished[0] not in st.decks[0]:
            raise InvalidPosition(f"{path}.players[0].wished", "UTA-R3: during setup the wished card is still in the deck")
    else:
        if st.turn < 1 or st.wished[0] < 0 or st.wished[1] < 0:
            raise InvalidPosition(path, "UTA-R3: after setup the turn is at least 1 and both players have wished")
        for p in (0, 1):
            if st.wished[p] in st.decks[p]:
                raise InvalidPosition(f"{path}.players[{p}].wished", "UTA-R3: the wished card went into the hand; "
                                                                     "it is never in the deck again")
        if st.attacker != _attacker_of(st, st.turn):
            raise InvalidPosition(f"{path}.attacker", "UTA-R9: the first player attacks in odd turns, the other in "
                                                      "even turns")
    # UTA-R53: no hand ever holds more than the limit, unless a card of this setup may ignore it (UTA-R46)
    cards = [c for c in (*kit.loadouts[0], *kit.loadouts[1], *kit.heroes) if c is not None]
    if not any(c.ignore_hand_limit for c in cards):
        for p in (0, 1):
            if len(st.hands[p]) > rules.hand_limit:
                raise InvalidPosition(f"{path}.players[{p}].hand", f"UTA-R53: P{p + 1}'s hand holds "
                                                                   f"{len(st.hands[p])} cards; the hand limit is "
                                                                   f"{rules.hand_limit}")
    # UTA-R11, UTA-R37: J/Q/K are set only in their owner's own turns
    for p in (0, 1):
        for c, t in st.set_turn[p].items():
            if _attacker_of(st, t) != p:
                raise InvalidPosition(f"{path}.players[{p}].set", f"UTA-R11: {token(c, p)} was set in turn {t}, "
                                                                  f"which is not P{p + 1}'s turn")
        if st.unlock_turn[p] and _attacker_of(st, st.unlock_turn[p]) != p:
            raise InvalidPosition(f"{path}.players[{p}].unlock_turn", f"UTA-R11: turn {st.unlock_turn[p]} is not "
                                                                      f"P{p + 1}'s turn")
        for e in st.discards[p]:
            if e & COST and (e & UP or SUIT[e & CARD_MASK] != HEARTS):
                raise InvalidPosition(f"{path}.players[{p}].discard", "UTA-R51: the price of ♥NEXT is a heart, "
                                                                      "face down")
    if phase == Phase.OVER and st.result is None:
        raise InvalidPosition(f"{path}.result", "UTA-R58: a finished game needs a result")
    if phase != Phase.OVER and st.result is not None:
        raise InvalidPosition(f"{path}.result", "UTA-R58: only a finished game has a result")
    if (phase == Phase.HEART_PICK) != bool(st.revealed) or (st.revealed and len(st.revealed) < 2):
        raise InvalidPosition(f"{path}.heart_next", "UTA-R51: ♥NEXT's revealed cards (2 or 3) exist exactly in "
                                                    "phase heart_pick")
    if any(OWNER[c] != st.hn_user or IS_COSMIC[c] for c in st.revealed):
        raise InvalidPosition(f"{path}.heart_next.revealed", "UTA-R51: ♥NEXT reveals the top of the user's own deck")
    if (phase == Phase.EFFECT) != (st.eff is not None):
        raise InvalidPosition(f"{path}.effect", "UTA-R46: a pending effect exists exactly in phase effect")
    if (phase == Phase.DRAW) != bool(st.draw_queue):
        raise InvalidPosition(f"{path}.draws.queue", "UTA-I32: queued draws exist exactly in phase draw")
    if phase == Phase.MAIN and (st.atk >= 0 or st.stalled):
        raise InvalidPosition(f"{path}.attack", "UTA-R12: in phase main the turn's main action is still to come")
    needs_attack = (Phase.BLOCK, Phase.REACT, Phase.TARGET, Phase.POST, Phase.BLOCKER_WINDOW)
    if phase in needs_attack and st.atk < 0:
        raise InvalidPosition(f"{path}.attack", f"UTA-R10: phase {PHASE_NAMES[phase]} needs the attack being resolved")
    if phase == Phase.BLOCK and (st.success or st.blk >= 0 or st._is_unblockable()):
        raise InvalidPosition(f"{path}.attack", "UTA-R17: phase block needs an unresolved attack that can be blocked")
    if phase in (Phase.REACT, Phase.TARGET) and (not st.success or st.success_kind == 0):
        raise InvalidPosition(f"{path}.attack", "UTA-R22: reactions and targets follow a successful attack")
    if phase == Phase.TARGET and (st.success_kind == DRAW_EFFECT or not st.hands[1 - st.attacker]):
        raise InvalidPosition(f"{path}.attack", "UTA-R26: phase target needs a discard effect and a non-empty "
                                                "defender hand")
    if phase == Phase.TARGET and st.look != st.attacker:
        raise InvalidPosition(f"{path}.turn_state.look", "UTA-R24: the attacker looks at the whole hand while "
                                                         "choosing from it")
    if phase == Phase.BLOCKER_WINDOW and st.blk < 0:
        raise InvalidPosition(f"{path}.attack.block", "UTA-I67: the blocker's ♥NEXT window follows a block")
    if phase == Phase.END:
        a = st.attacker
        if st.cosmic_taken or not st.pools[a] or len(st.hands[a]) >= rules.hand_limit:
            raise InvalidPosition(f"{path}.phase", "UTA-R52: the end step offers a cosmic card only to a hand of at "
                                                   f"most {rules.hand_limit - 1} cards, from a non-empty pool, once "
                                                   "per turn")
    if st.rescue and not st.joker_up[st.attacker] and phase == Phase.MAIN:
        raise InvalidPosition(f"{path}.turn_state.rescue", "UTA-R55: the joker rescue needs a face-up joker")
    _check_memory(st)
    if phase != Phase.OVER:
        try:
            ok = bool(st.legal_actions())
        except (IndexError, KeyError, ValueError, AssertionError) as exc:  # defence in depth
            raise InvalidPosition(path, f"inconsistent position ({type(exc).__name__})") from None
        if not ok:
            raise InvalidPosition(f"{path}.phase", "no legal action in this position")


def _check_memory(st: UtahimeState) -> None:
    """UTA-I-CT21: every remembered card is where its observer remembers it."""
    hands = [set(st.hands[0]), set(st.hands[1])]
    downs = [{e & CARD_MASK for e in st.discards[p] if not e & UP} for p in (0, 1)]
    for o, entries in ((0, seat_memory(st, 0)), (1, seat_memory(st, 1)), (PUBLIC, public_memory(st))):
        for c, (where, p, set_turn, since) in entries.items():
            ip = f"$.position.memory[{o}]"
            in_hand = c in hands[p]
            face_down = c in downs[p]
            if in_hand:
                actual = st.set_turn[p].get(c, 0)
                fits = (actual == set_turn) if set_turn else (not actual or actual >= since)
            else:
                fits = False
            ok = {HAND: in_hand and fits, OUT: (in_hand and fits) or face_down,
                  PILE: face_down, DISCARD: face_down}[where]
            if not ok:
                where_text = WHERE_NAMES[where].replace("_", " ")
                raise InvalidPosition(ip, f"UTA-I-CT21: {'everybody' if o == PUBLIC else f'P{o + 1}'} remembers "
                                          f"{token(c, p)} in P{p + 1}'s {where_text}"
                                          f"{f' (set in turn {set_turn})' if set_turn else ''}, but it is not there")
    for p in (0, 1):
        if any(e & SEEN and e & UP for e in st.discards[p]):
            raise InvalidPosition(f"$.position.players[{p}].discard", "UTA-I-CT21: 'seen' marks a face-down card")


# -- sampling ------------------------------------------------------------------------------------------
_Slot = tuple[str, int, int, int, int, bool]
"""A hidden place in a sampled position: (zone, player, index, origin seat of its card, set turn, must be a heart)."""


def sample_position(game: UtahimeGame, view: Mapping[str, Any], rng: random.Random, kit: Kit) -> dict[str, Any]:
    """A complete ``$.position`` consistent with ``view`` and its memory: hidden cards drawn with ``rng``.

    Every card the viewer cannot see goes to a hidden place of its own deck's origin: a deck slot, a
    hidden hand slot (set slots take J/Q/K), or a hidden face-down discard (♥NEXT's price takes a
    heart). Remembered cards (UTA-I-CT21) only go where the memory allows, cosmic cards and a shown
    wished card never into a deck; a matching (augmenting paths) places those first, then the rest.
    """
    v = jsonpos.obj(view, "$")
    players_v = [jsonpos.obj(pv, f"$.players[{p}]") for p, pv in
                 enumerate(jsonpos.array(jsonpos.get(v, "players", "$"), "$.players", 2))]
    phase_name = jsonpos.string(jsonpos.get(v, "phase", "$"), "$.phase", PHASE_NAMES)
    viewer_raw = v.get("viewer")
    viewer = jsonpos.integer(viewer_raw, "$.viewer", 0, 1) if viewer_raw is not None else None
    known: set[int] = set()

    def see(value: Any, where: str, owner: int) -> int:
        card = _card(value, where, owner)
        known.add(card)
        return card

    heart_next = v.get("heart_next")
    if heart_next is not None:
        hd = jsonpos.obj(heart_next, "$.heart_next")
        user = jsonpos.integer(jsonpos.get(hd, "user", "$.heart_next"), "$.heart_next.user", 0, 1)
        for i, c in enumerate(jsonpos.array(jsonpos.get(hd, "revealed", "$.heart_next"), "$.heart_next.revealed")):
            see(c, f"$.heart_next.revealed[{i}]", user)
    remembered: dict[int, tuple[int, int, int, int]] = {}  # card -> (where, player, set, since) from the view
    known_down: list[set[int]] = [set(), set()]  # the face-down discards the viewer knows in the other seats' piles
    for p, pv in enumerate(players_v):
        if pv.get("hand") is not None:
            zone = f"$.players[{p}].hand"
            known.update(_card_of(c, zone, i, p) for i, c in enumerate(jsonpos.array(pv["hand"], zone)))
        zone = f"$.players[{p}].discard"
        for i, e in enumerate(jsonpos.array(jsonpos.get(pv, "discard", "$"), zone)):
            ed = e if type(e) is dict else jsonpos.obj(e, f"{zone}[{i}]")
            if ed.get("card") is not None:
                text = ed["card"]
                c = _CARD_OF[p].get(text, -1) if type(text) is str else -1
                if c < 0:
                    c = _card(text, f"{zone}[{i}].card", p)
                known.add(c)
                if p != viewer and not ed.get("face_up"):
                    known_down[p].add(c)
        for i, c in enumerate(jsonpos.array(jsonpos.get(pv, "cosmic_pool", "$"), f"$.players[{p}].cosmic_pool")):
            see(c, f"$.players[{p}].cosmic_pool[{i}]", p)
        remembered_raw = pv.get("memory")
        if remembered_raw is not None and p != viewer:
            for i, item in enumerate(jsonpos.array(remembered_raw, f"$.players[{p}].memory")):
                ip = f"$.players[{p}].memory[{i}]"
                md = jsonpos.obj(item, ip)
                c = _card(jsonpos.get(md, "card", ip), f"{ip}.card", p)
                where = WHERE_NAMES.index(jsonpos.string(jsonpos.get(md, "where", ip), f"{ip}.where",
                                                         WHERE_NAMES[:DISCARD]))
                remembered[c] = (where, p, jsonpos.integer(md.get("set", 0), f"{ip}.set", 0),
                                 jsonpos.integer(md.get("since", 0), f"{ip}.since", 0))
    must_leave_deck: set[int] = set()
    wish_hidden: list[int] = []
    public_wish: list[int] = [-1, -1]
    for p, pv in enumerate(players_v):
        w = pv.get("wished")
        if w is not None and phase_name != "wish":  # during setup the wished card is still in the deck
            public_wish[p] = _card(w, f"$.players[{p}].wished", p)
            must_leave_deck.add(public_wish[p])
        elif phase_name == "wish" and p == 0 and v.get("current_player") == 1 and viewer != 0:
            wish_hidden.append(p)
    unseen: list[list[int]] = [[], []]
    for p in (0, 1):
        for c in deck_cards(p) + [p * CARDS_PER_SEAT + i for i in kit.cosmic]:
            if c not in known:
                unseen[p].append(c)
                if IS_COSMIC[c]:
                    must_leave_deck.add(c)
        rng.shuffle(unseen[p])
    # the hidden places
    slots: list[_Slot] = []
    hands: list[list[int | None]] = [[], []]
    sets: list[list[tuple[int | None, int]]] = [[], []]
    decks: list[list[int | None]] = [[], []]
    discards: list[list[dict[str, Any]]] = [[], []]
    for p, pv in enumerate(players_v):
        count = jsonpos.integer(jsonpos.get(pv, "deck_count", "$"), f"$.players[{p}].deck_count", 0, 52)
        decks[p] = [None] * count
        slots.extend(("deck", p, i, p, 0, False) for i in range(count))
        set_items = [jsonpos.obj(si, f"$.players[{p}].set") for si in
                     jsonpos.array(jsonpos.get(pv, "set", "$"), f"$.players[{p}].set")]
        if pv.get("hand") is not None:
            hands[p] = [_card(c, "$", p) for c in pv["hand"]]
            sets[p] = [(_card(si["card"], "$", p), jsonpos.integer(si["turn"], "$")) for si in set_items]
        else:
            n = jsonpos.integer(jsonpos.get(pv, "hand_count", "$"), f"$.players[{p}].hand_count", 0, 200)
            foreign = jsonpos.integer(jsonpos.get(pv, "hidden_foreign_in_hand", "$"), "$", 0, n)
            turns = [jsonpos.integer(si.get("turn"), "$") for si in set_items]
            if len(turns) > n:
                raise InvalidPosition(f"$.players[{p}].set", "more set cards than hand cards")
            hands[p] = [None] * n
            sets[p] = [(None, t) for t in turns]
            origins = _hand_origins(p, n, turns, foreign, remembered)
            for i in range(n):
                set_turn = turns[i - (n - len(turns))] if i >= n - len(turns) else 0
                slots.append(("hand", p, i, origins[i], set_turn, False))
        for i, e in enumerate(jsonpos.array(pv["discard"], "$")):
            ed = dict(jsonpos.obj(e, "$"))
            discards[p].append(ed)
            if ed.get("card") is None:
                slots.append(("discard", p, i, 1 - p if ed.get("foreign") else p, 0, bool(ed.get("heart_next_cost"))))
    filled: dict[tuple[str, int, int], int] = {}
    for origin in (0, 1):
        _fill(origin, [s for s in slots if s[3] == origin], unseen[origin], remembered, must_leave_deck, rng, filled)
    # build the position
    players = []
    for p, pv in enumerate(players_v):
        deck_list = [filled[("deck", p, i)] if c is None else c for i, c in enumerate(decks[p])]
        hand_cards = [filled[("hand", p, i)] if c is None else c for i, c in enumerate(hands[p])]
        if sets[p] and sets[p][0][0] is None:
            tail = hand_cards[len(hand_cards) - len(sets[p]):]
            set_list = [{"card": token(c, p), "turn": t} for c, (_, t) in zip(tail, sets[p], strict=True)]
        else:
            set_list = [{"card": token(c, p), "turn": t} for c, t in sets[p] if c is not None]
        discard = []
        for i, ed in enumerate(discards[p]):
            card = filled[("discard", p, i)] if ed.get("card") is None else _card(ed["card"], "$", p)
            discard.append({"card": token(card, p), "face_up": bool(ed.get("face_up")),
                            "self_played": bool(ed.get("self_played")),
                            "heart_next_cost": bool(ed.get("heart_next_cost"))})
        wished: Any = pv.get("wished")
        if wished is None and p in wish_hidden:
            wished = token(deck_list[0], p) if deck_list else None
        elif wished is None and phase_name != "wish":  # unknown and irrelevant after setup, but not in the deck
            in_deck = set(deck_list)
            wished = token(next((c for c in deck_cards(p) if c not in in_deck), deck_cards(p)[0]), p)
        players.append({
            "deck": [token(c, p) for c in deck_list],
            "hand": [token(c, p) for c in hand_cards],
            "set": set_list,
            "discard": discard,
            "wished": wished,
            "energy": pv.get("energy"),
            "joker_face_up": pv.get("joker_face_up"),
            "cosmic_pool": pv.get("cosmic_pool"),
            "options_face_up": pv.get("options_face_up"),
            "hero_uses_left": pv.get("hero_uses_left"),
            "unlock_turn": pv.get("unlock_turn"),
            "heart_next_used_game": pv.get("heart_next_used_game"),
        })
    out = {k: v.get(k) for k in ("phase", "turn", "first_player", "attacker", "effects", "turn_state", "attack",
                                 "draws", "heart_next", "effect", "result")}
    out["players"] = players
    # the other observers' memories are not in this view: they start empty
    if viewer is None:  # a spectator's memory is what everybody knows
        out["memory"] = [[], [], memory_json(remembered)]
        for p in (0, 1):
            for item in players[p]["discard"]:
                item["seen"] = _card(item["card"], "$", p) in known_down[p]
    else:  # the seat's memory, the public part included: the other observers' are not in this view
        mine = dict(remembered)
        mine.update((c, (DISCARD, 1 - viewer, 0, 0)) for c in known_down[1 - viewer])
        out["memory"] = [memory_json(mine) if o == viewer else [] for o in (0, 1, 2)]
    return out


def _hand_origins(p: int, n: int, turns: list[int], foreign: int, remembered: Mapping[int, tuple[int, int, int, int]]) -> list[int]:
    """The origin seat of each hidden hand slot of ``p`` (set slots last): ``foreign`` of them hold the other deck's cards.

    A remembered set card of the other deck claims a set slot of its turn; the other foreign slots
    are plain slots first.
    """
    origins = [p] * n
    first_set = n - len(turns)
    left = foreign
    for c, (where, zone, set_turn, _) in remembered.items():
        if left and zone == p and where in (HAND, OUT) and set_turn and OWNER[c] != p:
            for k, t in enumerate(turns):
                if t == set_turn and origins[first_set + k] == p:
                    origins[first_set + k] = 1 - p
                    left -= 1
                    break
    for i in [*range(first_set), *range(first_set, n)]:
        if not left:
            break
        if origins[i] == p:
            origins[i] = 1 - p
            left -= 1
    return origins


def _fits(card: int, slot: _Slot, remembered: Mapping[int, tuple[int, int, int, int]], must_leave_deck: set[int]) -> bool:
    """May ``card`` lie in ``slot`` without contradicting the view and its memory?"""
    zone, p, _, origin, set_turn, heart = slot
    if OWNER[card] != origin:
        return False
    entry = remembered.get(card)
    if zone == "deck":
        return entry is None and card not in must_leave_deck
    if zone == "hand":
        if set_turn and RANK[card] < JACK:
            return False
        if entry is None:
            return True
        where, at, known_set, since = entry
        if at != p or where not in (HAND, OUT):
            return False
        if set_turn:
            return set_turn == known_set if known_set else set_turn >= since
        return not known_set
    if entry is not None and (entry[1] != p or entry[0] not in (OUT, PILE)):
        return False
    return not heart or SUIT[card] == HEARTS


def _fill(origin: int, slots: list[_Slot], cards: list[int], remembered: Mapping[int, tuple[int, int, int, int]],
          must_leave_deck: set[int], rng: random.Random, filled: dict[tuple[str, int, int], int]) -> None:
    """Place the unseen ``cards`` of one origin into its ``slots`` (InvalidPosition if the view allows no way)."""
    hidden = [s for s in slots if s[0] != "deck"]
    deck_slots = [s for s in slots if s[0] == "deck"]
    if len(cards) != len(slots):
        raise InvalidPosition("$.players", f"the view hides {len(slots)} cards of P{origin + 1}'s, "
                                           f"but {len(cards)} are unseen")
    at: list[int | None] = [None] * len(hidden)  # card in each hidden slot
    where: dict[int, int] = {}  # hidden slot index of each placed card
    # Whether a card fits a slot depends on the slot's kind, not its index: the cards (in order) and
    # the set of cards that fit each kind of slot, computed once per kind.
    kinds: dict[tuple[str, int, int, int, bool], tuple[list[int], set[int]]] = {}
    fitting: list[tuple[list[int], set[int]]] = []
    for slot in hidden:
        kind = (slot[0], slot[1], slot[3], slot[4], slot[5])
        found = kinds.get(kind)
        if found is None:
            ordered = [c for c in cards if _fits(c, slot, remembered, must_leave_deck)]
            found = kinds[kind] = (ordered, set(ordered))
        fitting.append(found)

    # A free place (or card) is drawn uniformly, as the first free one of a shuffled list would be;
    # only when none is free are the options shuffled for an augmenting path.
    def place(c: int, tried: set[int]) -> bool:  # an augmenting path from a card that must be placed
        options = [i for i in range(len(hidden)) if c in fitting[i][1]]
        free = [i for i in options if at[i] is None]
        if free:
            i = free[rng.randrange(len(free))] if len(free) > 1 else free[0]
            at[i], where[c] = c, i
            return True
        rng.shuffle(options)
        for i in options:
            if i in tried:
                continue
            tried.add(i)
            other = at[i]
            assert other is not None
            if place(other, tried):
                at[i], where[c] = c, i
                return True
        return False

    def refill(i: int, tried: set[int]) -> bool:  # an augmenting path from an empty slot; placed cards stay placed
        free = [c for c in fitting[i][0] if c not in where]
        if free:
            c = free[rng.randrange(len(free))] if len(free) > 1 else free[0]
            at[i], where[c] = c, i
            return True
        options = list(fitting[i][0])
        rng.shuffle(options)
        for c in options:
            if c in tried:
                continue
            tried.add(c)
            j = where[c]
            at[i], where[c], at[j] = c, i, None
            if refill(j, tried):
                return True
            at[i], where[c], at[j] = None, j, c
        return False

    for c in cards:
        if (c in remembered or c in must_leave_deck) and not place(c, set()):
            raise InvalidPosition("$.players", f"no place in the view for a card of P{origin + 1}'s it remembers "
                                               "or that left the deck")
    order = list(range(len(hidden)))
    rng.shuffle(order)
    for i in order:
        if at[i] is None and not refill(i, set()):
            raise InvalidPosition("$.players", f"the view's hidden places of P{origin + 1}'s cards cannot be filled")
    rest = [c for c in cards if c not in where]
    for slot, c in zip(deck_slots, rest, strict=True):
        filled[(slot[0], slot[1], slot[2])] = c
    for slot, placed in zip(hidden, at, strict=True):
        assert placed is not None
        filled[(slot[0], slot[1], slot[2])] = placed


__all__ = ["ATTACK_BONUS", "position_json", "read_position", "sample_position", "view_json"]
