"""The Zeta game object: setup options (decks), notation, positions from JSON, and sampling from a view."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from cardtable.core import Action, Game, InvalidPosition, Outcome
from cardtable.core import jsonpos as jp

from .actions import ChooseLine, action_table
from .board import geometry
from .cards import CARD_BY_ID
from .decks import Deck, DeckError, deck_from_mapping, preset, random_deck, validate_deck
from .rules import ZetaRules
from .state import (
    CHOOSE_FORTUNE,
    CHOOSE_LINE,
    CHOOSE_TARGET,
    MAIN,
    MULLIGAN_PHASE,
    OVER,
    PHASE_BY_NAME,
    ZetaState,
    step_sequence,
)

DEFAULT_DECKS = ("classic", "classic")


class ZetaGame(Game[ZetaRules]):
    """Zeta (技術四目並べ・ゼータζ): four in a row on a 6x6 grid with 25-card decks."""

    name: ClassVar[str] = "zeta"
    title: ClassVar[str] = "Zeta"
    Rules: ClassVar[type[ZetaRules]] = ZetaRules
    termination_bound: ClassVar[int] = 500

    def __init__(self, rules: ZetaRules) -> None:
        super().__init__(rules)
        self.geometry = geometry(rules.board_width, rules.board_height)
        self.table = action_table(rules.board_width, rules.board_height)
        self.steps = step_sequence(rules)
        self._setup_cache: dict[tuple[str, ...], dict[str, Any]] = {}
        self._decklist_cache: dict[int, tuple[Any, list[int]]] = {}

    # ------------------------------------------------------------------ setup
    def normalize_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """``decks``: two deck specs (preset name, ``"random"``, a deck mapping or a ``Deck``)."""
        extra = set(setup) - {"decks"}
        if extra:
            raise ValueError(f"unknown Zeta setup option(s) {', '.join(sorted(extra))}; Zeta takes: decks")
        specs = setup.get("decks", DEFAULT_DECKS)
        if isinstance(specs, (list, tuple)) and all(type(x) is str for x in specs):
            key = tuple(specs)
            cached = self._setup_cache.get(key)
            if cached is None:
                cached = self._setup_cache[key] = self._normalize_decks(specs)
            return cached
        return self._normalize_decks(specs)

    def _normalize_decks(self, specs: Any) -> dict[str, Any]:
        if isinstance(specs, (str, Deck)) or not isinstance(specs, (list, tuple)) or len(specs) != 2:
            raise ValueError("decks must be a pair: one deck per seat (preset name, 'random', or a deck)")
        out: list[Any] = []
        for seat, spec in enumerate(specs):
            if spec == "random":
                out.append("random")
                continue
            if isinstance(spec, Deck):
                deck = spec
            elif isinstance(spec, str):
                deck = preset(spec)
            elif isinstance(spec, Mapping):
                deck = deck_from_mapping(dict(spec), source=f"deck of seat {seat}")
            else:
                raise ValueError(f"deck of seat {seat}: expected a preset name, 'random' or a deck, got {spec!r}")
            try:
                validate_deck(deck, deck_size=self.rules.deck_size, limits=self.rules.construction_limits)
            except DeckError as exc:
                hint = ""
                if deck.name == "plain" and self.rules.construction_limits:
                    hint = " (the plain deck needs construction_limits=false)"
                raise DeckError(f"seat {seat}: {exc}{hint}") from None
            out.append(deck.to_json())
        return {"decks": out}

    def _decklists(self, setup: dict[str, Any], rng: random.Random) -> list[list[int]]:
        lists = []
        for spec in setup["decks"]:
            if spec == "random":
                lists.append(random_deck(rng, deck_size=self.rules.deck_size).card_indexes())
                continue
            hit = self._decklist_cache.get(id(spec))
            if hit is None or hit[0] is not spec:
                if len(self._decklist_cache) > 64:
                    self._decklist_cache.clear()
                hit = self._decklist_cache[id(spec)] = (spec, deck_from_mapping(dict(spec)).card_indexes())
            lists.append(list(hit[1]))
        return lists

    def _new_state(self, seed: int, setup: dict[str, Any], rng: random.Random) -> ZetaState:
        state = ZetaState(self, seed, setup, rng, self._decklists(setup, rng))
        state._setup()
        return state

    def parse_action(self, text: str) -> Action:
        """Parse Zeta notation (see ``cardtable.games.zeta.actions``)."""
        return self.table.parse(text)

    # ------------------------------------------------------------------ positions
    def _state_from_json(self, position: Any, seed: int, setup: dict[str, Any], rng: random.Random) -> ZetaState:
        return self._build(position, seed, setup, rng, "$.position")

    def _build(self, position: Any, seed: int, setup: dict[str, Any], rng: random.Random, path: str,
               check: bool = True) -> ZetaState:
        """Read a position (validating every field); ``check=False`` skips the whole-position checks."""
        geo = self.geometry
        d = jp.obj(position, path)

        def card_id(value: Any, where: str) -> int:
            jp.string(value, where)
            found = CARD_BY_ID.get(value)
            if found is None:
                raise InvalidPosition(where, f"unknown card id {value!r}")
            return found.index

        def square(value: Any, where: str) -> int:
            jp.string(value, where)
            s = geo.index.get(value)
            if s is None:
                raise InvalidPosition(where, f"no square {value!r} on a {geo.width}x{geo.height} board")
            return s

        def card_list(value: Any, where: str) -> list[int]:
            return [card_id(v, f"{where}[{i}]") for i, v in enumerate(jp.array(value, where))]

        def pair(key: str) -> list[Any]:
            return jp.array(jp.get(d, key, path), f"{path}.{key}", 2)

        decklists = [card_list(v, f"{path}.decklists[{i}]") for i, v in enumerate(pair("decklists"))]
        state = ZetaState(self, seed, setup, rng, decklists)
        state.turn = jp.integer(jp.get(d, "turn", path), f"{path}.turn", 1, 10_000)
        state.first = jp.integer(jp.get(d, "first_player", path), f"{path}.first_player", 0, 1)
        state.active = jp.integer(jp.get(d, "active", path), f"{path}.active", 0, 1)
        if state.active != (state.first if state.turn % 2 else 1 - state.first):
            raise InvalidPosition(f"{path}.active", "P1 (first_player) moves on odd turns, P2 on even turns (ZETA-R5)")
        state.phase = PHASE_BY_NAME.get(jp.string(jp.get(d, "phase", path), f"{path}.phase", PHASE_BY_NAME), MAIN)
        state.decider = jp.integer(jp.get(d, "decider", path), f"{path}.decider", 0, 1)
        for name, entry in jp.obj(jp.get(d, "board", path), f"{path}.board").items():
            where = f"{path}.board.{name}"
            s = square(name, where)
            e = jp.obj(entry, where)
            c = card_id(jp.get(e, "card", where), f"{where}.card")
            o = jp.integer(jp.get(e, "owner", where), f"{where}.owner", 0, 1)
            state.owner[s] = o
            state.card[s] = c
            state.occ[o] |= 1 << s
            state.tmask[c] |= 1 << s
        for i, name in enumerate(jp.array(jp.get(d, "blocked", path), f"{path}.blocked")):
            s = square(name, f"{path}.blocked[{i}]")
            if state.card[s] >= 0:
                raise InvalidPosition(f"{path}.blocked[{i}]", f"{name} holds a card; a blocked square holds none")
            state.blocked |= 1 << s
        for name, seat in jp.obj(jp.get(d, "markers", path), f"{path}.markers").items():
            s = square(name, f"{path}.markers")
            if state.card[s] >= 0 or state.blocked >> s & 1:
                raise InvalidPosition(f"{path}.markers.{name}", "destruction markers lie only on empty squares")
            state.marks[jp.integer(seat, f"{path}.markers.{name}", 0, 1)] |= 1 << s
        for p, squares in enumerate(pair("ever_destroyed")):
            for i, name in enumerate(jp.array(squares, f"{path}.ever_destroyed[{p}]")):
                state.ever[p] |= 1 << square(name, f"{path}.ever_destroyed[{p}][{i}]")
        for p, hand in enumerate(pair("hands")):
            for c in card_list(hand, f"{path}.hands[{p}]"):
                state.hands[p][c] += 1
                state.hand_size[p] += 1
                state.held[p] |= 1 << c
        state.decks = [card_list(v, f"{path}.decks[{i}]") for i, v in enumerate(pair("decks"))]
        state.destroyed = [card_list(v, f"{path}.destroyed[{i}]") for i, v in enumerate(pair("destroyed"))]
        state.removed = [card_list(v, f"{path}.removed[{i}]") for i, v in enumerate(pair("removed"))]
        state.destroyed_board = [jp.integer(v, f"{path}.destroyed_from_board[{i}]", 0, len(state.destroyed[i]))
                                 for i, v in enumerate(pair("destroyed_from_board"))]
        aside = d.get("set_aside")
        state.set_aside = -1 if aside is None else card_id(aside, f"{path}.set_aside")
        effects = jp.obj(jp.get(d, "effects", path), f"{path}.effects")
        for key, attr in (("negate_fanfares", "negate"), ("only_cost_zero", "only_zero"), ("broom", "broom"),
                          ("apprentice_check", "apprentice")):
            values = jp.array(jp.get(effects, key, f"{path}.effects"), f"{path}.effects.{key}", 2)
            setattr(state, attr, [jp.integer(v, f"{path}.effects.{key}[{i}]", 0) for i, v in enumerate(values)])
        frames = []
        for i, f in enumerate(jp.array(jp.get(d, "resolution", path), f"{path}.resolution")):
            where = f"{path}.resolution[{i}]"
            fo = jp.obj(f, where)
            covered = fo.get("covered")
            frames.append([
                jp.integer(jp.get(fo, "seat", where), f"{where}.seat", 0, 1),
                card_id(jp.get(fo, "card", where), f"{where}.card"),
                square(jp.get(fo, "square", where), f"{where}.square"),
                int(jp.boolean(jp.get(fo, "top_level", where), f"{where}.top_level")),
                jp.integer(jp.get(fo, "step", where), f"{where}.step", 0, len(self.steps)),
                -1 if covered is None else card_id(covered, f"{where}.covered"),
                int(jp.boolean(jp.get(fo, "vacancy", where), f"{where}.vacancy")),
            ])
        state.frames = frames
        state.mulligan_left = [jp.integer(v, f"{path}.mulligan_left[{i}]", 0, 1)
                               for i, v in enumerate(jp.array(jp.get(d, "mulligan_left", path), f"{path}.mulligan_left"))]
        outcome = d.get("outcome")
        if outcome is not None:
            state.result = Outcome.from_json(outcome, f"{path}.outcome")
            if any(w > 1 for w in state.result.winners):
                raise InvalidPosition(f"{path}.outcome.winners", "Zeta's seats are 0 and 1")
        for key, values in (("hand_sizes", state.hand_size), ("deck_sizes", [len(x) for x in state.decks])):
            given = d.get(key)
            if given is not None and given != values:
                raise InvalidPosition(f"{path}.{key}", f"expected {values} to match the cards listed, got {given!r}")
        state.pending = self._read_pending(d.get("pending"), state, f"{path}.pending", card_id, square)
        if check:
            self._check_consistency(state, path)
        return state

    def _read_pending(self, value: Any, state: ZetaState, path: str, card_id: Any, square: Any) -> dict[str, Any]:
        phase = state.phase
        needs = phase not in (MAIN, MULLIGAN_PHASE, OVER)
        if value is None:
            if needs:
                raise InvalidPosition(path, f"phase {phase} needs a pending decision")
            return {}
        if not needs:
            raise InvalidPosition(path, "no decision is pending in this phase")
        p = jp.obj(value, path)
        out: dict[str, Any] = {"source": card_id(jp.get(p, "source", path), f"{path}.source"),
                               "square": square(jp.get(p, "square", path), f"{path}.square")}
        if phase == CHOOSE_TARGET:
            mask = 0
            for i, name in enumerate(jp.array(jp.get(p, "targets", path), f"{path}.targets")):
                mask |= 1 << square(name, f"{path}.targets[{i}]")
            if not mask:
                raise InvalidPosition(f"{path}.targets", "a pending target choice needs at least one target")
            if mask & ~state._destroyable(mask, state.decider, targeted=True):
                raise InvalidPosition(f"{path}.targets", "every target must hold a card the effect may destroy "
                                                         "(no empty squares, no barriers; ZETA-R26, R30)")
            out["mask"] = mask
        elif phase == CHOOSE_FORTUNE:
            drawn = jp.array(jp.get(p, "drawn", path), f"{path}.drawn", 2)
            out["drawn"] = sorted(card_id(v, f"{path}.drawn[{i}]") for i, v in enumerate(drawn))
            for c in out["drawn"]:
                if state.hands[state.decider][c] < out["drawn"].count(c):
                    raise InvalidPosition(f"{path}.drawn", "the drawn cards must be in the decider's hand")
        elif phase == CHOOSE_LINE:
            lines = []
            for i, text in enumerate(jp.array(jp.get(p, "lines", path), f"{path}.lines")):
                act = self.table.by_text.get(jp.string(text, f"{path}.lines[{i}]"))
                if not isinstance(act, ChooseLine):
                    raise InvalidPosition(f"{path}.lines[{i}]", "expected rank:N or file:X")
                lines.append((act.kind, act.index))
            if not lines or any(line not in state._full_lines() for line in lines):
                raise InvalidPosition(f"{path}.lines", "a pending line choice lists full ranks or files only (ZETA-R59)")
            out["lines"] = lines
        return out

    def _check_consistency(self, state: ZetaState, path: str) -> None:
        seen: Counter[str] = Counter()
        for cards in state.zones().values():
            seen.update(cards)
        if seen != state.expected_cards():
            missing = state.expected_cards() - seen
            extra = seen - state.expected_cards()
            raise InvalidPosition(path, f"cards do not add up to the decklists (missing {dict(missing)}, "
                                        f"extra {dict(extra)}): every card must be in exactly one zone")
        if state.set_aside >= 0 and not any(f[5] >= 0 for f in state.frames):
            raise InvalidPosition(f"{path}.set_aside", "a card is set aside only while a Wind Mage resolves")
        if state.result is None and state.phase == OVER:
            raise InvalidPosition(f"{path}.phase", "phase 'over' needs an outcome")
        if state.result is not None and state.phase != OVER:
            raise InvalidPosition(f"{path}.outcome", "a finished game has phase 'over'")
        if state.phase == MAIN and state.result is None and state.decider != state.active:
            raise InvalidPosition(f"{path}.decider", "in the main phase the active player decides")
        if state.phase == MULLIGAN_PHASE and self.rules.mulligan == "none":
            raise InvalidPosition(f"{path}.phase", "there is no mulligan under mulligan=none (ZETA-R11)")
        if state.phase == MULLIGAN_PHASE and (not state.mulligan_left or state.mulligan_left[0] != state.decider):
            raise InvalidPosition(f"{path}.mulligan_left", "the decider must be the next seat to decide the mulligan")
        if state.phase == MAIN and state.frames and state.result is None:
            raise InvalidPosition(f"{path}.resolution", "placements resolve completely before the next main action")

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> ZetaState:
        """A full state consistent with ``view``: the unseen cards of each seat dealt at random."""
        pos: dict[str, Any] = {k: view[k] for k in (
            "turn", "first_player", "active", "phase", "board", "blocked", "markers", "ever_destroyed",
            "destroyed", "destroyed_from_board", "removed", "set_aside", "effects", "resolution", "mulligan_left",
            "decklists", "outcome")}
        decider = view["current_player"]
        if decider is None:
            decider = view["active"]
        pos["decider"] = decider
        hands: list[list[str]] = [[], []]
        decks: list[list[str]] = [[], []]
        pending = dict(view["pending"]) if view.get("pending") else None
        for seat in (0, 1):
            unseen = Counter(view["decklists"][seat])
            for entry in view["board"].values():
                if entry["owner"] == seat:
                    unseen[entry["card"]] -= 1
            unseen.subtract(view["destroyed"][seat])
            unseen.subtract(view["removed"][seat])
            if view["set_aside"] is not None and view["resolution"] and any(
                    f["covered"] is not None and f["seat"] == seat for f in view["resolution"]):
                unseen[view["set_aside"]] -= 1
            known = view["hands"][seat]
            if known is not None:
                unseen.subtract(known)
                hand = list(known)
            else:
                hand = []
            pool = sorted(unseen.elements())
            rng.shuffle(pool)
            if known is None:
                size = view["hand_sizes"][seat]
                hand, pool = pool[:size], pool[size:]
            hands[seat] = hand
            decks[seat] = pool
        if pending is not None and "drawn" in pending and pending["drawn"] is None:
            hand = list(hands[decider])
            rng.shuffle(hand)
            pending["drawn"] = hand[:2]
        pos["hands"] = hands
        pos["decks"] = decks
        pos["pending"] = pending
        setup = dict(view["setup"])
        # The sampled cards add up by construction: skip the whole-position checks (searches call this a lot).
        return self._build(pos, 0, setup, random.Random(rng.getrandbits(64)), "$view", check=False)

    # ------------------------------------------------------------------ metadata
    @classmethod
    def conformance_cases(cls) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """Default game, control vs arcana, plain, random decks under non-default flags, gravity on 4x4."""
        return [
            ({}, {}),
            ({}, {"decks": ["control", "arcana"]}),
            ({"construction_limits": False}, {"decks": ["plain", "plain"]}),
            ({"trigger_order": "triggers_first", "mulligan": "once", "wind_mage_vacant": "ever",
              "circle_reach": "line", "board_full_tie": "continue", "empty_deck_draw": "lose_immediately",
              "overline_wins": False}, {"decks": ["random", "random"]}),
            ({"gravity": True, "board_width": 4, "board_height": 4, "deck_size": 20, "first_player": "p1",
              "win_check_timing": "after_triggers", "board_full_check": "on_placement",
              "apprentice_check_time": "opponent_turn_start", "wind_mage_negated": "forbid_cover"},
             {"decks": ["random", "random"]}),
        ]

    @classmethod
    def bench_cases(cls) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
        """Default Zeta (classic decks) and plain Zeta (25 Chant Practice each)."""
        return [
            ("default", {}, {}),
            ("plain", {"construction_limits": False}, {"decks": ["plain", "plain"]}),
        ]

