"""Position JSON (``$.position``, described by ``position.schema.json``), player views and sampling.

The writer and the validating reader live side by side so that they cannot drift apart; the
sampler builds a position from a view and feeds it to the same reader.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardtable.core import jsonpos
from cardtable.core.errors import InvalidPosition

from .cards import CARDS_PER_SEAT, IS_COSMIC, OWNER, RANK, SUIT_LETTERS, deck_cards, parse_card, resolve, token
from .state import (
    ATTACK_BONUS,
    BAN,
    CARD_MASK,
    DNEXT_EFFECT,
    DRAW_EFFECT,
    DRAWS_THEN_END,
    EFFECT_KINDS,
    PHASE_NAMES,
    REMOVE_EFFECT,
    SELF,
    UP,
    Phase,
    UtahimeState,
)

if TYPE_CHECKING:
    from .game import UtahimeGame
    from .state import Kit

SUCCESS_NAMES = {0: "none", DRAW_EFFECT: "draw", REMOVE_EFFECT: "remove", DNEXT_EFFECT: "diamond_next"}
SUCCESS_CODES = {v: k for k, v in SUCCESS_NAMES.items()}
RESUMABLE = (Phase.MAIN, Phase.POST, Phase.BLOCK, Phase.REACT)


# -- writing ---------------------------------------------------------------------------------------
def _effects_json(state: UtahimeState) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for turn, kind, player, value in state.effects:
        item: dict[str, Any] = {"turn": turn, "kind": EFFECT_KINDS[kind], "player": player}
        if kind == BAN:
            item["suit"] = SUIT_LETTERS[value]
        else:
            item["half_points"] = value
        out.append(item)
    return out


def _common_json(state: UtahimeState) -> dict[str, Any]:
    """The fields that are public in every view and complete in the position."""
    a = state.attacker
    attack: dict[str, Any] | None = None
    if state.atk >= 0:
        attack = {
            "card": token(state.atk, a),
            "next": state.atk_next,
            "bans": state.atk_bans,
            "block": token(state.blk, 1 - a) if state.blk >= 0 else None,
            "reaction": token(state.reacted, 1 - a) if state.reacted >= 0 else None,
            "success": state.success,
            "effect": SUCCESS_NAMES[state.success_kind],
        }
    effect: dict[str, Any] | None = None
    if state.eff is not None:
        user, source, slot, step, resume = state.eff
        effect = {"user": user, "source": "option" if source == 0 else "hero", "slot": slot, "step": step,
                  "resume": PHASE_NAMES[resume]}
    heart_next = None
    if state.revealed:
        heart_next = {"user": state.hn_user, "revealed": [token(c, state.hn_user) for c in state.revealed]}
    result = None
    if state.result is not None:
        result = {"reason": state.result[0], "rule": state.result[1], "detail": state.result[2]}
    return {
        "phase": PHASE_NAMES[state.phase],
        "turn": state.turn,
        "first_player": state.first,
        "attacker": a,
        "effects": _effects_json(state),
        "turn_state": {
            "rescue": state.rescue,
            "free_action_taken": state.free_used,
            "cosmic_taken": state.cosmic_taken,
            "stalled": state.stalled,
            "previous_dead_stall": state.prev_dead,
            "look": state.look if state.look >= 0 else None,
            "heart_next_used": list(state.hn_turn),
        },
        "attack": attack,
        "draws": {"queue": [list(q) for q in state.draw_queue],
                  "then": "end" if state.draw_then == DRAWS_THEN_END else "finish"},
        "heart_next": heart_next,
        "effect": effect,
        "result": result,
    }


def _player_common(state: UtahimeState, p: int) -> dict[str, Any]:
    return {
        "energy": state.energy[p],
        "joker_face_up": state.joker_up[p],
        "cosmic_pool": [token(c, p) for c in state.pools[p]],
        "options_face_up": list(state.opt_up[p]),
        "hero_uses_left": state.hero_left[p],
        "unlock_turn": state.unlock_turn[p],
        "heart_next_used_game": state.hn_game[p],
    }


def position_json(state: UtahimeState) -> dict[str, Any]:
    """The complete position (hidden information included)."""
    out = _common_json(state)
    players = []
    for p in (0, 1):
        item = {
            "deck": [token(c, p) for c in reversed(state.decks[p])],
            "hand": [token(c, p) for c in state.hands[p]],
            "set": [{"card": token(c, p), "turn": t} for c, t in state.set_turn[p].items()],
            "discard": [{"card": token(e & CARD_MASK, p), "face_up": bool(e & UP), "self_played": bool(e & SELF)}
                        for e in state.discards[p]],
            "wished": token(state.wished[p], p) if state.wished[p] >= 0 else None,
        }
        item.update(_player_common(state, p))
        players.append(item)
    out["players"] = players
    return out


def view_json(state: UtahimeState, viewer: int | None) -> dict[str, Any]:
    """UTA-R59: hands, set identities, deck order and face-down discards are hidden from others."""
    out = _common_json(state)
    out["viewer"] = viewer
    out["current_player"] = state.current_player
    out["setup"] = state.setup
    out["scores"] = [state.score(0), state.score(1)]
    reveal_wishes = state.rules.wished_card_public and state.phase != Phase.WISH  # UTA-I14 variant (UTA-I-CT12)
    players = []
    for p in (0, 1):
        sees_hand = viewer == p or (viewer is not None and state.look == viewer and viewer != p)
        hand = sorted(state.hands[p], key=lambda c: c % CARDS_PER_SEAT + 100 * OWNER[c])
        item: dict[str, Any] = {
            "deck_count": len(state.decks[p]),
            "hand_count": len(hand),
            "hand": [token(c, p) for c in hand] if sees_hand else None,
            "hidden_foreign_in_hand": 0 if sees_hand else sum(1 for c in hand if OWNER[c] != p),
            "set": sorted(({"card": token(c, p) if sees_hand else None, "turn": t}
                           for c, t in state.set_turn[p].items()),
                          key=lambda s: (s["turn"], s["card"] or "")),
            "discard": [{"card": token(e & CARD_MASK, p) if (e & UP or viewer == p) else None,
                         "face_up": bool(e & UP), "self_played": bool(e & SELF),
                         "foreign": OWNER[e & CARD_MASK] != p} for e in state.discards[p]],
            "wished": token(state.wished[p], p) if state.wished[p] >= 0 and (viewer == p or reveal_wishes) else None,
        }
        item.update(_player_common(state, p))
        players.append(item)
    out["players"] = players
    return out


# -- reading -------------------------------------------------------------------------------------------
def _card(value: Any, path: str, zone_owner: int) -> int:
    text = jsonpos.string(value, path)
    parsed = parse_card(text)
    if parsed is None:
        raise InvalidPosition(path, f"{text!r} is not a card (e.g. H7, S10, DK, C7+, ~H7)")
    return resolve(parsed[0], parsed[1], zone_owner)


def _bool(d: Mapping[str, Any], key: str, path: str) -> bool:
    return jsonpos.boolean(jsonpos.get(d, key, path), f"{path}.{key}")


def _int(d: Mapping[str, Any], key: str, path: str, lo: int | None = None, hi: int | None = None) -> int:
    return jsonpos.integer(jsonpos.get(d, key, path), f"{path}.{key}", lo, hi)


def _phase(value: Any, path: str, choices: tuple[Phase, ...] | None = None) -> Phase:
    names = [PHASE_NAMES[p] for p in (choices or tuple(Phase))]
    return Phase(PHASE_NAMES.index(jsonpos.string(value, path, names)))


def read_position(game: UtahimeGame, position: Any, seed: int, setup: dict[str, Any], rng: random.Random,
                  kit: Kit) -> UtahimeState:
    """Rebuild a state from ``$.position``, validating every field (InvalidPosition on any problem)."""
    rules = game.rules
    d = jsonpos.obj(position, "$.position")
    st = UtahimeState(game, seed, setup, rng, kit)
    path = "$.position"
    st.phase = _phase(jsonpos.get(d, "phase", path), f"{path}.phase")
    st.turn = _int(d, "turn", path, 0, rules.max_turns)
    st.first = _int(d, "first_player", path, 0, 1)
    st.attacker = _int(d, "attacker", path, 0, 1)
    seen: dict[int, str] = {}

    def claim(card: int, where: str) -> int:
        if card in seen:
            raise InvalidPosition(where, f"card {token(card, 0)} of P{OWNER[card] + 1} is also at {seen[card]}")
        seen[card] = where
        return card

    players = jsonpos.array(jsonpos.get(d, "players", path), f"{path}.players", 2)
    for p in (0, 1):
        pp = f"{path}.players[{p}]"
        pd = jsonpos.obj(players[p], pp)
        deck = [claim(_card(c, f"{pp}.deck[{i}]", p), f"{pp}.deck[{i}]")
                for i, c in enumerate(jsonpos.array(jsonpos.get(pd, "deck", pp), f"{pp}.deck"))]
        st.decks[p] = list(reversed(deck))
        st.hands[p] = [claim(_card(c, f"{pp}.hand[{i}]", p), f"{pp}.hand[{i}]")
                       for i, c in enumerate(jsonpos.array(jsonpos.get(pd, "hand", pp), f"{pp}.hand"))]
        st.set_turn[p] = {}
        for i, s in enumerate(jsonpos.array(jsonpos.get(pd, "set", pp), f"{pp}.set")):
            sp = f"{pp}.set[{i}]"
            sd = jsonpos.obj(s, sp)
            card = _card(jsonpos.get(sd, "card", sp), f"{sp}.card", p)
            if card not in st.hands[p] or RANK[card] < 11 or card in st.set_turn[p]:
                raise InvalidPosition(f"{sp}.card", "a set card must be a J, Q or K of that hand, listed once")
            st.set_turn[p][card] = _int(sd, "turn", sp, 1, max(st.turn, 1))
        st.discards[p] = []
        for i, e in enumerate(jsonpos.array(jsonpos.get(pd, "discard", pp), f"{pp}.discard")):
            ep = f"{pp}.discard[{i}]"
            ed = jsonpos.obj(e, ep)
            card = claim(_card(jsonpos.get(ed, "card", ep), f"{ep}.card", p), ep)
            st.discards[p].append(card | (UP if _bool(ed, "face_up", ep) else 0)
                                  | (SELF if _bool(ed, "self_played", ep) else 0))
        st.energy[p] = _int(pd, "energy", pp, 0, 10_000)
        if rules.energy_cap and st.energy[p] > rules.energy_cap:
            raise InvalidPosition(f"{pp}.energy", f"above energy_cap {rules.energy_cap}")
        st.joker_up[p] = _bool(pd, "joker_face_up", pp)
        pool = []
        for i, c in enumerate(jsonpos.array(jsonpos.get(pd, "cosmic_pool", pp), f"{pp}.cosmic_pool")):
            card = _card(c, f"{pp}.cosmic_pool[{i}]", p)
            if not IS_COSMIC[card] or OWNER[card] != p:
                raise InvalidPosition(f"{pp}.cosmic_pool[{i}]", "only the player's own cosmic cards (with '+')")
            pool.append(claim(card, f"{pp}.cosmic_pool[{i}]"))
        st.pools[p] = pool
        wished = jsonpos.get(pd, "wished", pp)
        st.wished[p] = -1 if wished is None else _card(wished, f"{pp}.wished", p)
        if st.wished[p] >= 0 and (IS_COSMIC[st.wished[p]] or OWNER[st.wished[p]] != p):
            raise InvalidPosition(f"{pp}.wished", "the wished card comes from the player's own deck")
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
            raise InvalidPosition(f"{ap}.bans", problem[1])
        st.atk_bans = bans
        blk = jsonpos.get(ad, "block", ap)
        st.blk = -1 if blk is None else _card(blk, f"{ap}.block", 1 - a)
        react = jsonpos.get(ad, "reaction", ap)
        st.reacted = -1 if react is None else _card(react, f"{ap}.reaction", 1 - a)
        st.success = _bool(ad, "success", ap)
        st.success_kind = SUCCESS_CODES[jsonpos.string(jsonpos.get(ad, "effect", ap), f"{ap}.effect",
                                                       tuple(SUCCESS_CODES))]
        if st.blk >= 0 and st.success:
            raise InvalidPosition(ap, "an attack is either blocked or successful")

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

    _check_consistency(st, seen)
    return st


def _check_consistency(st: UtahimeState, seen: dict[int, str]) -> None:
    """Conservation and the phase's requirements, so that every accepted position can be played on."""
    path = "$.position"
    expected = set(deck_cards(0)) | set(deck_cards(1))
    expected |= {p * CARDS_PER_SEAT + i for p in (0, 1) for i in st.kit.cosmic}
    extra = set(seen) - expected
    if extra:
        raise InvalidPosition(path, f"cards that are not in this game: {', '.join(sorted(token(c, 0) for c in extra))}")
    missing = expected - set(seen)
    if missing:
        shown = ", ".join(f"P{OWNER[c] + 1}:{token(c, OWNER[c])}" for c in sorted(missing)[:6])
        raise InvalidPosition(path, f"{len(missing)} cards are in no zone (card conservation): {shown}")
    phase = st.phase
    for p in (0, 1):
        if any(IS_COSMIC[c] for c in st.decks[p]):
            raise InvalidPosition(f"{path}.players[{p}].deck", "cosmic cards never enter a deck")
    if phase == Phase.WISH:
        if st.turn != 0 or any(st.hands[p] or st.discards[p] for p in (0, 1)) or st.wished[1] >= 0:
            raise InvalidPosition(path, "before the game (phase wish) the turn is 0, hands and discards are empty, "
                                        "and P2 has not wished yet")
        if st.wished[0] >= 0 and st.wished[0] not in st.decks[0]:
            raise InvalidPosition(f"{path}.players[0].wished", "during setup the wished card is still in the deck")
    else:
        if st.turn < 1 or st.wished[0] < 0 or st.wished[1] < 0:
            raise InvalidPosition(path, "after setup the turn is at least 1 and both players have wished")
        if st.attacker != (st.first if st.turn % 2 == 1 else 1 - st.first):
            raise InvalidPosition(f"{path}.attacker", "the first player attacks in odd turns, the other in even turns")
    if phase == Phase.OVER and st.result is None:
        raise InvalidPosition(f"{path}.result", "a finished game needs a result")
    if phase != Phase.OVER and st.result is not None:
        raise InvalidPosition(f"{path}.result", "only a finished game has a result")
    if (phase == Phase.HEART_PICK) != bool(st.revealed) or (st.revealed and len(st.revealed) < 2):
        raise InvalidPosition(f"{path}.heart_next", "♥NEXT's revealed cards (2 or 3) exist exactly in phase heart_pick")
    if (phase == Phase.EFFECT) != (st.eff is not None):
        raise InvalidPosition(f"{path}.effect", "a pending effect exists exactly in phase effect")
    if (phase == Phase.DRAW) != bool(st.draw_queue):
        raise InvalidPosition(f"{path}.draws.queue", "queued draws exist exactly in phase draw")
    needs_attack = (Phase.BLOCK, Phase.REACT, Phase.TARGET, Phase.POST, Phase.BLOCKER_WINDOW)
    if phase in needs_attack and st.atk < 0:
        raise InvalidPosition(f"{path}.attack", f"phase {PHASE_NAMES[phase]} needs the attack being resolved")
    if phase == Phase.BLOCK and (st.success or st.blk >= 0 or st._is_unblockable()):
        raise InvalidPosition(f"{path}.attack", "phase block needs an unresolved attack that can be blocked")
    if phase in (Phase.REACT, Phase.TARGET) and (not st.success or st.success_kind == 0):
        raise InvalidPosition(f"{path}.attack", "reactions and targets follow a successful attack")
    if phase == Phase.TARGET and (st.success_kind == DRAW_EFFECT or not st.hands[1 - st.attacker]):
        raise InvalidPosition(f"{path}.attack", "phase target needs a discard effect and a non-empty defender hand")
    if phase == Phase.BLOCKER_WINDOW and st.blk < 0:
        raise InvalidPosition(f"{path}.attack.block", "the blocker's ♥NEXT window follows a block")
    if st.rescue and not st.joker_up[st.attacker] and phase == Phase.MAIN:
        raise InvalidPosition(f"{path}.turn_state.rescue", "the joker rescue needs a face-up joker")
    if phase != Phase.OVER:
        try:
            ok = bool(st.legal_actions())
        except (IndexError, KeyError, ValueError, AssertionError) as exc:  # defence in depth
            raise InvalidPosition(path, f"inconsistent position ({type(exc).__name__})") from None
        if not ok:
            raise InvalidPosition(f"{path}.phase", "no legal action in this position")


# -- sampling ------------------------------------------------------------------------------------------
def sample_position(game: UtahimeGame, view: Mapping[str, Any], rng: random.Random, kit: Kit) -> dict[str, Any]:
    """A complete ``$.position`` consistent with ``view``: hidden cards drawn with ``rng``."""
    v = jsonpos.obj(view, "$")
    players_v = jsonpos.array(jsonpos.get(v, "players", "$"), "$.players", 2)
    phase_name = jsonpos.string(jsonpos.get(v, "phase", "$"), "$.phase", PHASE_NAMES)
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
    wish_hidden: list[int] = []
    for p in (0, 1):
        pv = jsonpos.obj(players_v[p], f"$.players[{p}]")
        if pv.get("hand") is not None:
            for i, c in enumerate(jsonpos.array(pv["hand"], f"$.players[{p}].hand")):
                see(c, f"$.players[{p}].hand[{i}]", p)
        for i, e in enumerate(jsonpos.array(jsonpos.get(pv, "discard", "$"), f"$.players[{p}].discard")):
            ed = jsonpos.obj(e, f"$.players[{p}].discard[{i}]")
            if ed.get("card") is not None:
                see(ed["card"], f"$.players[{p}].discard[{i}].card", p)
        for i, c in enumerate(jsonpos.array(jsonpos.get(pv, "cosmic_pool", "$"), f"$.players[{p}].cosmic_pool")):
            see(c, f"$.players[{p}].cosmic_pool[{i}]", p)
    # the unseen cards, by origin
    unseen: list[list[int]] = [[], []]
    for p in (0, 1):
        for c in deck_cards(p) + [p * CARDS_PER_SEAT + i for i in kit.cosmic]:
            if c not in known:
                unseen[p].append(c)
        rng.shuffle(unseen[p])
    public_wish: list[int] = [-1, -1]
    for p in (0, 1):
        pv = jsonpos.obj(players_v[p], f"$.players[{p}]")
        w = pv.get("wished")
        if w is not None and phase_name != "wish":  # during setup the wished card is still in the deck
            public_wish[p] = _card(w, f"$.players[{p}].wished", p)
        elif phase_name == "wish" and p == 0 and v.get("current_player") == 1 and v.get("viewer") != 0:
            wish_hidden.append(p)
    # slots: per origin, (kind, zone, index); kinds: "deck", "set", "free"
    hands: list[list[int | None]] = [[], []]
    sets: list[list[tuple[int | None, int]]] = [[], []]
    decks: list[list[int | None]] = [[], []]
    discards: list[list[dict[str, Any]]] = [[], []]
    slots: list[list[tuple[str, Any]]] = [[], []]
    for p in (0, 1):
        pv = jsonpos.obj(players_v[p], f"$.players[{p}]")
        count = jsonpos.integer(jsonpos.get(pv, "deck_count", "$"), f"$.players[{p}].deck_count", 0, 52)
        decks[p] = [None] * count
        slots[p].extend(("deck", ("deck", p, i)) for i in range(count))
        set_items = jsonpos.array(jsonpos.get(pv, "set", "$"), f"$.players[{p}].set")
        if pv.get("hand") is not None:
            hands[p] = [_card(c, "$", p) for c in pv["hand"]]
            sets[p] = [(_card(jsonpos.obj(s, "$")["card"], "$", p), jsonpos.integer(jsonpos.obj(s, "$")["turn"], "$"))
                       for s in set_items]
        else:
            n = jsonpos.integer(jsonpos.get(pv, "hand_count", "$"), f"$.players[{p}].hand_count", 0, 200)
            foreign = jsonpos.integer(jsonpos.get(pv, "hidden_foreign_in_hand", "$"), "$", 0, n)
            hands[p] = [None] * n
            set_turns = [jsonpos.integer(jsonpos.obj(s, "$").get("turn"), "$") for s in set_items]
            if len(set_turns) > n:
                raise InvalidPosition(f"$.players[{p}].set", "more set cards than hand cards")
            for i in range(n):
                origin = 1 - p if i < foreign else p
                if i >= n - len(set_turns):
                    slots[origin].append(("set", ("hand", p, i)))
                else:
                    slots[origin].append(("free", ("hand", p, i)))
            sets[p] = [(None, t) for t in set_turns]
        for i, e in enumerate(jsonpos.array(pv["discard"], "$")):
            ed = dict(jsonpos.obj(e, "$"))
            discards[p].append(ed)
            if ed.get("card") is None:
                origin = 1 - p if ed.get("foreign") else p
                slots[origin].append(("free", ("discard", p, i)))
    # assign
    filled: dict[Any, int] = {}
    wish_choice: dict[int, int] = {}
    for o in (0, 1):
        pool = unseen[o]
        must_leave_deck = [c for c in pool if IS_COSMIC[c] or c == public_wish[o]]
        set_slots = [s for s in slots[o] if s[0] == "set"]
        free_slots = [s for s in slots[o] if s[0] == "free"]
        deck_slots = [s for s in slots[o] if s[0] == "deck"]
        rng.shuffle(free_slots)
        pictures = [c for c in pool if RANK[c] >= 11]
        pictures.sort(key=lambda c: 0 if c in must_leave_deck else 1)
        if len(pictures) < len(set_slots):
            raise InvalidPosition("$.players", "the view has more set cards than unseen J/Q/K")
        used: set[int] = set()
        for slot, c in zip(set_slots, pictures, strict=False):
            filled[slot[1]] = c
            used.add(c)
        rest_must = [c for c in must_leave_deck if c not in used]
        if len(rest_must) > len(free_slots):
            raise InvalidPosition("$.players", "the view's hidden slots cannot hold its unseen cosmic cards")
        for slot, c in zip(free_slots, rest_must, strict=False):
            filled[slot[1]] = c
            used.add(c)
        remaining = [c for c in pool if c not in used]
        open_slots = deck_slots + free_slots[len(rest_must):]
        if len(remaining) != len(open_slots):
            raise InvalidPosition("$.players", f"the view hides {len(open_slots)} cards of P{o + 1}'s, "
                                               f"but {len(remaining)} are unseen")
        for slot, c in zip(open_slots, remaining, strict=True):
            filled[slot[1]] = c
    for p in wish_hidden:
        wish_choice[p] = filled[("deck", p, 0)] if decks[p] else -1
    # build the position
    players = []
    for p in (0, 1):
        pv = jsonpos.obj(players_v[p], "$")
        deck_cards_p = [filled[("deck", p, i)] if c is None else c for i, c in enumerate(decks[p])]
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
                            "self_played": bool(ed.get("self_played"))})
        wished: Any = pv.get("wished")
        if wished is None and p in wish_choice:
            wished = token(wish_choice[p], p)
        elif wished is None and phase_name != "wish":
            wished = token(deck_cards(p)[0], p)  # unknown and irrelevant after setup
        players.append({
            "deck": [token(c, p) for c in deck_cards_p],
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
    return out


__all__ = ["ATTACK_BONUS", "position_json", "read_position", "sample_position", "view_json"]
