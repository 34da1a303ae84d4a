"""What a designer reads first: a run's answer in a sentence, its per-item strengths with sample sizes,
and the reason wherever the lab shows none, in English or Japanese.

The numbers come from :func:`cardtable.lab.analysis.analyse`; this module only chooses and words.

- **The answer.** Seat advantage is read from the *points* (a game is one point, split among its
  winners, or among all its players when nobody wins): the verdict names the position whose share
  is farthest from the fair share, whichever it is, and says whether its interval leaves the fair
  share out. A solo run answers with its mean score.
- **Items.** A per-item strength (a Zeta card, a Utahime option card or play, an Oscilloscope
  trigger) is shown only where the run identifies it: an item of a deck or loadout needs decks or
  loadouts that vary (random ones), and it must vary within each turn position; elsewhere the
  section says why it shows none. Every row carries its sample size (seat-games with and without
  the item); an estimate from fewer than ``MIN_SEAT_GAMES`` of either is greyed out with that reason.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .analysis import MIN_SEAT_GAMES, Refusal
from .i18n import Lang, Translate, parse_lang, translator


@dataclass(frozen=True)
class ItemRow:
    """One item of a section: its name, sample sizes, controlled effect (points) and why it is greyed out."""

    key: str
    name: str
    with_games: int
    without_games: int
    value: float | None
    low: float | None
    high: float | None
    greyed: str = ""
    """Why the estimate is greyed out (too few seat-games), or empty."""
    extra: str = ""


@dataclass
class Section:
    """A group of items (cards, options, plays) with their strengths, or the reason the run shows none."""

    key: str
    title: str
    measure: str
    rows: list[ItemRow] = field(default_factory=list)
    refused: str = ""
    """Why no item of the section has a strength here (empty when some have)."""
    notes: list[str] = field(default_factory=list)
    percent: bool = True
    """The effects are chances to win (shown in percentage points); else a score (shown as it is)."""

    def effect(self, row: ItemRow) -> str:
        """A row's effect with its interval: points of the chance to win, or of the score."""
        if self.percent:
            return points_ci(row.value, row.low, row.high)
        if row.value is None:
            return "-"
        if row.low is None or row.high is None:
            return f"{row.value:+.2f}"
        return f"{row.value:+.2f} [{row.low:+.2f}, {row.high:+.2f}]"

    def shown(self) -> list[ItemRow]:
        """The rows with an estimate, strongest first (greyed ones included, marked)."""
        rows = [r for r in self.rows if r.value is not None]
        return sorted(rows, key=lambda r: -(r.value or 0.0))

    def trusted(self) -> list[ItemRow]:
        """The rows with an estimate that is not greyed out, strongest first."""
        return [r for r in self.shown() if not r.greyed]


def pct(x: float | None, digits: int = 1) -> str:
    """``47.1%`` (``-`` for none)."""
    return "-" if x is None or not math.isfinite(x) else f"{100 * x:.{digits}f}%"


def pct_ci(value: float | None, low: float | None, high: float | None, digits: int = 1) -> str:
    """``47.1% [45.7, 48.5]``."""
    if value is None or low is None or high is None:
        return pct(value, digits)
    return f"{100 * value:.{digits}f}% [{100 * low:.{digits}f}, {100 * high:.{digits}f}]"


def points_ci(value: float | None, low: float | None, high: float | None) -> str:
    """``+3.1 [+1.2, +5.0]`` percentage points."""
    if value is None:
        return "-"
    if low is None or high is None:
        return f"{100 * value:+.1f}"
    return f"{100 * value:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]"


def position_name(t: Translate, position: int) -> str:
    """The name of a turn-order position (``first``, ``second``...)."""
    names = [t("first"), t("second"), t("third"), t("fourth"), t("fifth"), t("sixth")]
    return names[position] if 0 <= position < len(names) else str(position + 1)


# -- the answer ----------------------------------------------------------------------------------
def seat_answer(numbers: Mapping[str, Any], t: Translate) -> str:
    """The verdict on seat advantage: the position with the largest edge, its share of the points and interval."""
    pts = numbers.get("points") or {}
    rows = pts.get("by_position") or []
    if not rows:
        return ""
    fair = float(pts["fair"])
    edge = next(r for r in rows if r["position"] == pts["edge_position"])
    who = position_name(t, int(edge["position"]))
    share = pct_ci(edge["value"], edge["low"], edge["high"])
    if edge["low"] > fair:
        text = t("The {who} player has the edge: {share} of the points, where {fair} is fair.", who=who, share=share,
                 fair=pct(fair, 0))
    elif edge["high"] < fair:
        text = t("The {who} player is at a disadvantage: {share} of the points, where {fair} is fair.", who=who,
                 share=share, fair=pct(fair, 0))
    else:
        text = t("No seat has a clear edge: the largest gap is the {who} player's {share} of the points, where "
                 "{fair} is fair.", who=who, share=share, fair=pct(fair, 0))
    draws, shared, games = int(pts.get("draws", 0)), int(pts.get("shared_wins", 0)), int(pts.get("games", 0))
    if draws:
        text = _then(t, text, t("{share} of the games are drawn (a draw gives each player an equal part of the point).",
                        share=pct(draws / max(1, games))))
    if shared:
        text = _then(t, text, t("{share} of the games end in a shared win (each winner takes an equal part of the point).",
                        share=pct(shared / max(1, games))))
    return text


def solo_answer(numbers: Mapping[str, Any], t: Translate) -> str:
    """The answer of a solo run: the mean score with its interval and the middle 90%."""
    rows = numbers.get("scores") or []
    if len(rows) != 1 or rows[0].get("mean") is None:
        return ""
    s = rows[0]
    return t("The mean score is {mean:.1f} [{low:.1f}, {high:.1f}]; 90% of games score between {p5:.0f} and {p95:.0f}.",
             mean=s["mean"], low=s["mean_low"], high=s["mean_high"], p5=s["p5"], p95=s["p95"])


def answer(numbers: Mapping[str, Any], sections: Sequence[Section], t: Translate) -> str:
    """The report's first line: seat advantage (or the solo score), then the strongest and weakest items."""
    parts = [seat_answer(numbers, t) or solo_answer(numbers, t)]
    for section in sections[:1]:
        trusted = section.trusted()
        if len(trusted) >= 2:
            best, worst = trusted[0], trusted[-1]
            if section.percent:
                parts.append(t("{what}: strongest {best} ({best_effect} points), weakest {worst} ({worst_effect} "
                               "points).", what=section.title, best=best.name, best_effect=section.effect(best),
                               worst=worst.name, worst_effect=section.effect(worst)))
            else:
                parts.append(t("{what}: the most score {best} ({best_effect} a use), the least {worst} "
                               "({worst_effect} a use).", what=section.title, best=best.name,
                               best_effect=section.effect(best), worst=worst.name, worst_effect=section.effect(worst)))
        elif section.refused:
            parts.append(section.refused)
    out = ""
    for part in parts:
        out = _then(t, out, part) if out and part else out or part
    return out


def _then(t: Translate, first: str, second: str) -> str:
    """Two sentences one after the other (a space in English, none in Japanese)."""
    return t("{first} {second}", first=first, second=second)


# -- the items -----------------------------------------------------------------------------------
def refusal_text(code: str, t: Translate, hint: str, loadouts: int | None = None) -> str:
    """A refusal code in words, with the run that would answer the question."""
    if code == Refusal.FIXED_LOADOUTS:
        return t("No per-item strength: the seats played only {loadouts} different decks or loadouts, so an item's "
                 "effect cannot be told apart from its loadout's and its seat's. {hint}",
                 loadouts="?" if loadouts is None else loadouts, hint=hint)
    if code == Refusal.WITH_SEAT:
        return t("No per-item strength: the item goes with a turn position (every seat-game of a position holds it, "
                 "or none does). {hint}", hint=hint)
    return t("No per-item strength: every seat-game holds the item, or none does. {hint}", hint=hint)


def _few(t: Translate, n_with: int, n_without: int) -> str:
    if min(n_with, n_without) >= MIN_SEAT_GAMES:
        return ""
    return t("too few games ({with_games} with, {without_games} without; {minimum} of each needed)",
             with_games=n_with, without_games=n_without, minimum=MIN_SEAT_GAMES)


def _effect(row: Mapping[str, Any], key: str = "effect") -> tuple[float | None, float | None, float | None]:
    e = row.get(key)
    if not e:
        return (None, None, None)
    return (e.get("ame"), e.get("ame_low"), e.get("ame_high"))


def _composition_section(key: str, title: str, measure: str, rows: Sequence[Mapping[str, Any]],
                         names: Mapping[str, str], hint: str, t: Translate,
                         effect_key: str = "effect", counts: tuple[str, str] = ("seat_games_with",
                                                                              "seat_games_without"),
                         loadouts: int | None = None) -> Section:
    section = Section(key, title, measure)
    codes = {r.get("refused") for r in rows}
    for r in rows:
        code = r.get("refused")
        n_with, n_without = int(r.get(counts[0]) or 0), int(r.get(counts[1]) or 0)
        if code is not None:
            section.rows.append(ItemRow(r["feature"], names.get(r["feature"], r["feature"]), n_with, n_without,
                                        None, None, None, refusal_text(code, t, "", loadouts)))
            continue
        value, low, high = _effect(r, effect_key)
        why = _few(t, n_with, n_without) or ("" if value is not None else t(
            "no estimate: the regression cannot tell it apart from the other items (it goes with them, or the games "
            "are too few)"))
        section.rows.append(ItemRow(r["feature"], names.get(r["feature"], r["feature"]), n_with, n_without, value,
                                    low, high, why))
    if None not in codes and codes:
        common = Refusal.FIXED_LOADOUTS if Refusal.FIXED_LOADOUTS in codes else sorted(c for c in codes if c)[0]
        section.refused = refusal_text(common, t, hint, loadouts)
    return section


def _play_section(key: str, title: str, table: Mapping[str, Any], names: Mapping[str, str], t: Translate,
                  hint: str = "", loadouts: int | None = None) -> Section:
    solo = table.get("measure") == "mean score"
    measure = t("effect per use on the score") if solo else t("points per use")
    section = Section(key, title, measure, percent=not solo)
    codes = set()
    for r in table.get("rows", []):
        total = int(r.get("seat_games") or 0)
        n_with = int(r.get("used_in") or 0)
        name = names.get(r["feature"], r["feature"])
        code = r.get("refused")
        if n_with == 0:
            continue  # never happened in this run (a trigger a solo game has no use for): nothing to say
        codes.add(code)
        if code is not None:
            section.rows.append(ItemRow(r["feature"], name, n_with, total - n_with, None, None, None,
                                        refusal_text(code, t, "", loadouts)))
            continue
        value, low, high = _effect(r)
        why = _few(t, n_with, total - n_with) or ("" if value is not None else t(
            "no estimate: the regression cannot tell it apart from the other items (it goes with them, or the games "
            "are too few)"))
        section.rows.append(ItemRow(r["feature"], name, n_with, total - n_with, value, low, high, why))
    if codes and None not in codes:
        section.refused = refusal_text(sorted(c for c in codes if c)[0], t, hint, loadouts)
    return section


def sections(numbers: Mapping[str, Any], lang: Lang | str = Lang.EN) -> list[Section]:
    """The per-item sections of a run's report, the designer's question first."""
    t = translator(lang)
    lang = parse_lang(lang)
    strength = numbers.get("strength") or {}
    out: list[Section] = []
    cards = strength.get("cards")
    if cards and cards.get("rows"):
        names = {r["card"]: _card_name(r, lang, t) for r in cards["rows"]}
        rows = [{**r, "feature": r["card"], "with": (r.get("gih_wr") or {}).get("n", 0),
                 "without": (r.get("gns_wr") or {}).get("n", 0)} for r in cards["rows"]]
        out.append(_composition_section("cards", t("Cards"), t("points when in hand"), rows, names,
                                        t("Run with random decks (--deck random) to measure each card."), t,
                                        effect_key="controlled", counts=("with", "without"),
                                        loadouts=cards.get("loadouts")))
    loadout = strength.get("loadout")
    if loadout and loadout.get("rows"):
        names = {r["feature"]: t(_title(r["feature"])) + (f" ({r['cost']})" if r.get("cost") is not None else "")
                 for r in loadout["rows"]}
        out.append(_composition_section("loadout", t("Option cards"), t("points per copy held"), loadout["rows"],
                                        names, t("Run with random loadouts (--setup loadouts=random) to measure "
                                                 "each option card."), t, loadouts=loadout.get("loadouts")))
    for key, title in (("kept", t("Triggers kept")), ("triggers", t("Triggers placed")),
                       ("noise", t("Noise and clears")), ("special", t("Special plays")),
                       ("options", t("Option cards used")), ("heroes", t("Hero cards used"))):
        table = strength.get(key)
        if not table or not table.get("rows") or (key == "options" and loadout):
            continue  # the option cards used say what the option cards held say (the CSV keeps both)
        names = {r["feature"]: _feature_name(r, t) for r in table["rows"]}
        section = _play_section(key, title, table, names, t,
                                t("Run with random loadouts (--setup loadouts=random) to measure each option card."),
                                (loadout or {}).get("loadouts"))
        if section.rows or section.refused:
            out.append(section)
    return out


def _card_name(row: Mapping[str, Any], lang: Lang, t: Translate) -> str:
    name = str(row.get("japanese") if lang is Lang.JA and row.get("japanese") else row.get("name", row["card"]))
    return f"{name} ({row['cost']})" if row.get("cost") is not None else name


def _title(name: str) -> str:
    """An option or hero card's English title from its name (``quick_study`` -> ``Quick Study``)."""
    return name.replace("_", " ").title()


def _feature_name(row: Mapping[str, Any], t: Translate) -> str:
    desc = row.get("description")
    if desc:
        return t(str(desc))
    feature = str(row["feature"])
    for prefix in ("option ", "hero "):
        if feature.startswith(prefix):
            return t(_title(feature.removeprefix(prefix)))
    for prefix, msg in (("placed ", "{item} placed"), ("kept ", "{item} kept"), ("captured ", "{item} captured"),
                        ("attack ", "attack with {item}")):
        if feature.startswith(prefix):
            return t(msg, item=t(feature.removeprefix(prefix)))
    return t(feature)


# -- the glossary and the terminal ---------------------------------------------------------------
def glossary(t: Translate) -> list[tuple[str, str]]:
    """Every measure of a report, in words."""
    return [
        (t("share of the points"), t("A game is one point. A sole winner takes it; players who share a win take an "
                                     "equal part each; when nobody wins, every player takes an equal part. A fair "
                                     "game gives each position the same share (50% at two players).")),
        (t("95% interval"), t("The range in brackets: had the lab played another set of games of the same size, the "
                              "figure would fall in such a range 95 times in 100.")),
        (t("points"), t("Percentage points of the chance to win: +5 means 5 games in 100 more.")),
        (t("controlled effect"), t("How much an item changes the chance to win when the seat, the other items and "
                                   "the decks or loadouts are held fixed (a logistic regression).")),
        (t("seat-games"), t("One player's part of one game: a two-player game is two seat-games. Every estimate "
                            "shows how many seat-games had the item and how many did not.")),
        (t("greyed out"), t("An estimate from fewer than {minimum} seat-games with or without the item: too few "
                            "to read.", minimum=MIN_SEAT_GAMES)),
        (t("random decks and loadouts"), t("Each seat gets a random legal deck or option-card loadout, so every "
                                           "item is held by some seats and not by others, in every position: the "
                                           "only runs that can tell an item's strength apart.")),
    ]


def terminal_lines(numbers: Mapping[str, Any], lang: Lang | str = Lang.EN, top: int = 3) -> list[str]:
    """What ``lab report`` prints: the answer, then each section's top and bottom items (or why it has none)."""
    t = translator(lang)
    secs = sections(numbers, lang)
    lines = [answer(numbers, secs, t)]
    for s in secs:
        trusted = s.trusted()
        if s.refused:
            lines.append(f"{s.title}: {s.refused}")
            continue
        if not trusted:
            if s.shown():
                lines.append(f"{s.title}: " + t("{n} greyed out: too few games", n=len(s.shown())))
            continue
        lines.append(f"{s.title} ({s.measure}):")
        picked = trusted if len(trusted) <= 2 * top else [*trusted[:top], *trusted[-top:]]
        for i, r in enumerate(picked):
            if len(trusted) > 2 * top and i == top:
                lines.append("  ...")
            lines.append(f"  {r.name}: {s.effect(r)} "
                         + t("(n = {with_games} with, {without_games} without)", with_games=r.with_games,
                             without_games=r.without_games))
        greyed = [r for r in s.shown() if r.greyed]
        if greyed:
            lines.append("  " + t("{n} greyed out: too few games", n=len(greyed)))
    return lines
