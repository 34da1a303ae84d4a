"""Utahime's tables of a lab report: attacks by rank and suit, special plays, option and hero cards
(the report-tables facet of Utahime's kit)."""

from __future__ import annotations

from typing import Any

import pandas as pd  # type: ignore[import-untyped]

from ..analysis import Frames, composition_table, counts, feature_table, identified, interval_json
from ..facts import Verb
from ..gamefacts.utahime import UtahimePlay
from ..stats import wilson

_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUITS = {"H": "hearts", "S": "spades", "C": "clubs", "D": "diamonds"}


def utahime_tables(fr: Frames) -> dict[str, Any]:
    """Utahime: attacks by rank and by suit (how often they succeed), special plays, option and hero cards."""
    played = counts(fr, Verb.PLAYED, item_of=lambda c: c[1:])
    played = played.reindex(columns=[r for r in _RANKS if r in played.columns], fill_value=0)
    success = counts(fr, Verb.SUCCEEDED, list(played.columns), item_of=lambda c: c[1:])
    by_suit = counts(fr, Verb.PLAYED, item_of=lambda c: _SUITS.get(c[:1], c[:1]))
    success_suit = counts(fr, Verb.SUCCEEDED, list(by_suit.columns), item_of=lambda c: _SUITS.get(c[:1], c[:1]))
    ranks = feature_table(fr, played.add_prefix("attack "), "attacks by rank")
    suits = feature_table(fr, by_suit.add_prefix("attack "), "attacks by suit")
    for table, attacks, wins in ((ranks, played, success), (suits, by_suit, success_suit)):
        for row in table["rows"]:
            key = row["feature"].removeprefix("attack ")
            total = float(attacks[key].sum())
            row["attacks"] = total
            row["success"] = interval_json(wilson(int(wins[key].sum()), int(total))) if total else None
    special = counts(fr, Verb.SPECIAL, [p.value for p in UtahimePlay])
    special = special.loc[:, special.sum(axis=0) > 0]
    plays = feature_table(fr, special, "special plays", {p.value: _play_doc(p) for p in UtahimePlay})
    options = counts(fr, Verb.OPTION)
    heroes = counts(fr, Verb.HERO)
    out = {"ranks": ranks, "suits": suits, "special": plays}
    held, signature = _loadouts(fr)
    if not held.empty:
        out["loadout"] = composition_table(fr, held, signature, "option cards held (UTA-R2)",
                                           categorical=["ctx_hero"])
        used = feature_table(fr, options.add_prefix("option "), "option cards used")
        why = identified(fr, held, signature)
        for row in used["rows"]:
            row["refused"] = why.get(row["feature"].removeprefix("option "))
        out["options"] = used
        costs = _costs(fr)
        for row in out["loadout"]["rows"]:
            row["cost"] = costs.get(row["feature"])
        hero_used = feature_table(fr, heroes.add_prefix("hero "), "hero cards used")
        if "ctx_hero" in fr.seats:
            names = fr.seats["ctx_hero"].astype(str)
            hero_held = pd.DataFrame({h: (names == h).astype(float) for h in sorted(set(names))})
            hero_why = identified(fr, hero_held, signature)
            for row in hero_used["rows"]:
                row["refused"] = hero_why.get(row["feature"].removeprefix("hero "))
        out["heroes"] = hero_used
    return out


def _costs(fr: Frames) -> dict[str, int]:
    """Each option card's cost, read from the run's option set where it is one the engine ships."""
    from cardtable.games.utahime.loadouts import option_set_of

    sets = set(fr.seats["ctx_option_set"].astype(str)) if "ctx_option_set" in fr.seats else set()
    out: dict[str, int] = {}
    for name in sets - {"custom", "none"}:
        try:
            found = option_set_of({"option_set": name})
        except ValueError:
            continue
        if found is not None:
            out.update({n: card.cost for n, card in found.options.items()})
    return out


def _loadouts(fr: Frames) -> tuple[pd.DataFrame, list[str]]:
    """Copies of each option card each seat held (its loadout, UTA-R2), and each seat's loadout and hero as text."""
    if "ctx_options" not in fr.seats:
        return pd.DataFrame(), []
    lists = [str(v).split(",") if isinstance(v, str) and v else [] for v in fr.seats["ctx_options"]]
    names = sorted({n for names in lists for n in names})
    if not names:
        return pd.DataFrame(), []
    held = pd.DataFrame([[names_.count(n) for n in names] for names_ in lists], columns=names, dtype=float)
    heroes = fr.seats["ctx_hero"].astype(str).tolist() if "ctx_hero" in fr.seats else [""] * len(lists)
    return held, [",".join(n) + "|" + h for n, h in zip(lists, heroes, strict=True)]


def _play_doc(play: UtahimePlay) -> str:
    doc = {UtahimePlay.DIAMOND_NEXT: "an attack declaring ♦NEXT (UTA-R48)",
           UtahimePlay.CLUB_NEXT: "an attack declaring ♣NEXT (UTA-R49)",
           UtahimePlay.HEART_NEXT: "♥NEXT after the own attack (UTA-R51)",
           UtahimePlay.HEART_ACE: "an attack with ♥A (UTA-R27)", UtahimePlay.SPADE_ACE: "an attack with ♠A (UTA-R28)",
           UtahimePlay.CLUB_ACE_REACTION: "♣A cancels the attacker's draw (UTA-R29)",
           UtahimePlay.DIAMOND_ACE_REACTION: "♦A cancels a ♠/♦ effect (UTA-R30)",
           UtahimePlay.JOKER: "the joker (UTA-R45)", UtahimePlay.PASS: "a pass (UTA-R44)",
           UtahimePlay.SET: "a J/Q/K set face down (UTA-R37)", UtahimePlay.COSMIC: "a cosmic card taken (UTA-R52)",
           UtahimePlay.BLOCK: "a block (UTA-R21)", UtahimePlay.SUCCESS: "an own attack that succeeded (UTA-R22)",
           UtahimePlay.STALL: "a turn without a main action (UTA-R56)"}
    return doc.get(play, "")
