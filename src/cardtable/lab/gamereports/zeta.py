"""Zeta's tables of a lab report: per-card strength (the report-tables facet of Zeta's kit)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from cardtable.games.zeta.cards import CARDS

from ..analysis import (
    MIN_SEAT_GAMES,
    Frames,
    RateSpec,
    bootstrap_rates,
    control_columns,
    counts,
    fit_effects,
    identified,
    seat_data,
)
from ..facts import Verb


def zeta_tables(fr: Frames) -> dict[str, Any]:
    """Zeta: per-card strength (:func:`zeta_cards`)."""
    return {"cards": zeta_cards(fr)}



def zeta_cards(fr: Frames) -> dict[str, Any]:
    """Zeta per-card strength, the 17lands family over seat-games whose deck holds the card.

    GP WR (played), GIH WR (in hand: opening hand or drawn), OH WR (opening hand), GD WR (drawn
    later, not in the opening hand), GNS WR (never in hand), IWD (GIH WR minus GNS WR), each with a
    game-resampling bootstrap interval; and the controlled effect of having it in hand (logit with the
    seat's turn order, both decks' compositions, and every other card in hand).
    """
    ids = [c.id for c in CARDS]
    deck = counts(fr, Verb.IN_DECK, ids)
    opening = counts(fr, Verb.OPENING, ids)
    drawn = counts(fr, Verb.DRAWN, ids)
    played = counts(fr, Verb.PLAYED, ids)
    destroyed = counts(fr, Verb.DESTROYED, ids)
    specs = []
    for c in ids:
        has = deck[c].to_numpy() > 0
        oh = has & (opening[c].to_numpy() > 0)
        gd = has & ~oh & (drawn[c].to_numpy() > 0)
        gih = oh | gd
        gns = has & ~gih
        gp = has & (played[c].to_numpy() > 0)
        specs += [RateSpec(f"{c}|gp", gp), RateSpec(f"{c}|gih", gih), RateSpec(f"{c}|oh", oh),
                  RateSpec(f"{c}|gd", gd), RateSpec(f"{c}|gns", gns), RateSpec(f"{c}|iwd", gih, gns)]
    rates = bootstrap_rates(fr, specs)
    seen = {f"seen_{i}": ((opening[c] + drawn[c]).to_numpy() > 0).astype(float) for i, c in enumerate(ids)}
    # the deck's and the opponent's deck's composition (copies of each card): controls for the decks, presets or random
    opponent = _opponent_rows(fr)
    own = {f"deck_{i}": deck[c].to_numpy() for i, c in enumerate(ids)}
    other = {f"opp_deck_{i}": deck[c].to_numpy()[opponent] for i, c in enumerate(ids)}
    data = seat_data(fr, {**seen, **own, **other})
    numeric, categorical = control_columns(fr)
    categorical = [c for c in categorical if c not in ("ctx_deck", "ctx_opponent_deck")]
    fit = fit_effects(data, "won", list(seen), [*numeric, *own, *other], categorical, groups="game")
    turn_played = _mean_turn(fr, Verb.PLAYED)
    signature = [",".join(f"{c}:{int(n)}" for c, n in zip(ids, r, strict=True) if n) for r in deck.to_numpy()]
    why = identified(fr, deck, signature)
    rows = []
    for i, card in enumerate(CARDS):
        c = card.id
        has = deck[c].to_numpy() > 0
        copies_played = float(played[c].sum())
        row = {"card": c, "name": card.english, "japanese": card.japanese, "cost": card.cost, "rule": card.rule,
               "seat_games_with": int(has.sum()), "copies_in_decks": float(deck[c].sum()),
               "copies_drawn": float((opening[c] + drawn[c]).sum()), "copies_played": copies_played,
               "copies_destroyed": float(destroyed[c].sum()),
               "mean_turn_played": turn_played.get(c, math.nan),
               "gp_wr": rates[f"{c}|gp"], "gih_wr": rates[f"{c}|gih"], "oh_wr": rates[f"{c}|oh"],
               "gd_wr": rates[f"{c}|gd"], "gns_wr": rates[f"{c}|gns"], "iwd": rates[f"{c}|iwd"],
               "controlled": fit.effects.get(f"seen_{i}"), "refused": why[c],
               "few": min(rates[f"{c}|gih"]["n"], rates[f"{c}|gns"]["n"]) < MIN_SEAT_GAMES}
        rows.append(row)
    fit_json = fit.to_json()
    fit_json["effects"] = {ids[int(k.split("_")[1])]: v for k, v in fit.effects.items()}
    fit_json["dropped"] = [ids[int(d.split("_")[1])] if d.startswith("seen_") else d for d in fit.dropped]
    return {"rows": rows, "fit": fit_json, "loadouts": len(set(signature)), "composition": True}


def _opponent_rows(fr: Frames) -> np.ndarray:
    """For each seat-game row of a two-player game, the row of the other seat of the same game."""
    position = {(g, s): i for i, (g, s) in enumerate(zip(fr.seats["game"], fr.seats["seat"], strict=True))}
    return np.array([position.get((g, 1 - s), i) for i, (g, s) in enumerate(zip(fr.seats["game"], fr.seats["seat"],
                                                                              strict=True))])


def _mean_turn(fr: Frames, verb: Verb) -> dict[str, float]:
    f = fr.facts[fr.facts["verb"] == str(verb)]
    if not len(f):
        return {}
    weighted = (f["turn"] * f["count"]).groupby(f["item"]).sum() / f["count"].groupby(f["item"]).sum()
    return {str(k): float(v) for k, v in weighted.items()}
