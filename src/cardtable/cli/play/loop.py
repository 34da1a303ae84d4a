"""The terminal front end: drives a :class:`~cardtable.table.Table`, shows each seat its screen, reads people's input.

Input handling lives here; the screens are the pure renderers of :mod:`cardtable.cli.play.render`, and
the log lines are the seat's event log in words (:meth:`Table.log_lines`): nothing here decides what a
seat may see. The console is expected to read no rich markup (``Console(markup=False)``): every
style comes from ``rich.text.Text``, so text in square brackets (rule ids) always survives.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.markdown import Markdown
from rich.panel import Panel
from rich.rule import Rule as HRule
from rich.table import Table as RichTable
from rich.text import Text

from cardtable.core import InvalidAction, Record, State, registry, rulebook
from cardtable.table import Table, TableError

from .render import Context, forced_reason, game_commands, render_choices, render_outcome, render_view
from .render.common import NUMBERED_LIMIT
from .terminal import LineReader, make_reader

COMMANDS = ("help", "list", "board", "history", "rules", "hint", "undo", "save", "quit")
"""Commands offered at the prompt besides the legal actions (a game may add its own)."""

HELP_ROWS: tuple[tuple[str, str], ...] = (
    ("NUMBER", "the action with that number in the list"),
    ("ACTION", "an action as listed (Tab completes it; any case), a unique start of one (pa for pass), "
               "or its last part when only one action ends so (c4, e4)"),
    ("list", "number every legal action"),
    ("board [full]", "show the table again (full: the large layout)"),
    ("history [N|all]", "the last N moves (default 15) as you saw them"),
    ("rules [ja|index|ID]", "how to play (ja: in Japanese); index: the numbered rules; one rule: rules {example}"),
    ("hint", "the computer's favourite moves here, with estimated win rates (solo: expected scores)"),
    ("undo", "take back your last decision (and the computer's replies)"),
    ("save FILE", "write the game so far to FILE (a record: cardtable replay FILE)"),
    ("quit", "leave the game (you are offered to save it)"),
)
"""The prompt's commands and what they do (``help``)."""

COMPACT_HEIGHT = 36
"""Terminals with fewer lines than this (or fewer than :data:`COMPACT_WIDTH` columns) get the compact layout."""
COMPACT_WIDTH = 90


class QuitGame(Exception):
    """The people at the table left the game."""


@dataclass
class PlayOptions:
    """How the table behaves: the pause after computer moves, the hint agent, saving, the layout."""

    delay: float = 0.5
    """Seconds to wait after showing each computer move (0: none)."""
    hint_spec: str = "ismcts:normal"
    """The agent that ``hint`` asks."""
    save: Path | None = None
    """Write the record here at the end, without asking."""
    ask_save: bool = True
    """Offer to save the record at the end of the game (and on quit)."""
    layout: str = "auto"
    """``auto`` (compact on a small terminal), ``compact`` or ``full``."""
    auto_forced: bool = True
    """Answer a person's forced decisions (one legal action) by itself, with a notice (one person only)."""


# -- reading what people type ---------------------------------------------------------------------------
_SPLIT = re.compile(r"[@:=\s]+")


def _tokens(text: str) -> list[str]:
    return [t for t in _SPLIT.split(text.strip().lower()) if t]


def resolve_input(text: str, legal: Sequence[str], numbers: Mapping[str, int] | None = None) -> tuple[str | None, str]:
    """The legal action a line names, or None and why not.

    A line names an action by its number, its text in any case, a unique start of it token by token
    (``pa`` for ``pass``, ``fire@e5`` for ``fire_mage@e5``, ``att h7`` for ``attack H7``, ``pass`` for
    the only ``pass H3``), or its last part when exactly one action ends with it (``c4`` when only one
    card can go to c4, ``e4`` for ``target:e4``).

    >>> legal = ["chant_practice@c4", "fire_mage@c4", "fire_mage@e5", "pass"]
    >>> resolve_input("pa", legal), resolve_input("fire@e5", legal), resolve_input("e5", legal)
    (('pass', ''), ('fire_mage@e5', ''), ('fire_mage@e5', ''))
    >>> resolve_input("c4", legal)[1]
    "'c4' could be: 1 chant_practice@c4, 2 fire_mage@c4"
    """
    line = text.strip()
    number_of = dict(numbers) if numbers else {a: i for i, a in enumerate(legal, 1)}
    if line.isdigit():
        n = int(line)
        by_number = {v: k for k, v in number_of.items()}
        if n in by_number:
            return by_number[n], ""
        return None, f"There is no action {n}: choose 1 to {len(legal)}."
    if line in legal:
        return line, ""
    folded = [a for a in legal if a.lower() == line.lower()]
    if len(folded) == 1:
        return folded[0], ""
    typed = _tokens(line)
    if not typed:
        return None, ""
    split = {a: _tokens(a) for a in legal}
    prefix = [a for a in legal if len(split[a]) == len(typed)
              and all(t.startswith(w) for t, w in zip(split[a], typed, strict=True))]
    if len(prefix) == 1:
        return prefix[0], ""
    if not prefix:
        prefix = [a for a in legal if len(split[a]) > len(typed)
                  and all(t.startswith(w) for t, w in zip(split[a], typed, strict=False))]
        if len(prefix) == 1:
            return prefix[0], ""
    if not prefix and len(typed) == 1:
        prefix = [a for a in legal if split[a] and split[a][-1] == typed[0]]
        if len(prefix) == 1:
            return prefix[0], ""
    if len(prefix) > 1:
        shown = ", ".join(f"{number_of.get(a, '?')} {a}" for a in prefix[:8])
        more = f" and {len(prefix) - 8} more" if len(prefix) > 8 else ""
        return None, f"{line!r} could be: {shown}{more}"
    return None, ""


def stable_numbers(legal: Sequence[str], previous: Mapping[str, int] | None = None) -> dict[str, int]:
    """Numbers 1..n for the legal actions; an action still legal keeps its previous number where it can.

    >>> stable_numbers(["a", "b", "c"], {"c": 1, "z": 2})
    {'c': 1, 'a': 2, 'b': 3}
    """
    n = len(legal)
    out: dict[str, int] = {}
    taken: set[int] = set()
    for a in legal:
        k = (previous or {}).get(a)
        if k is not None and 1 <= k <= n and k not in taken:
            out[a] = k
            taken.add(k)
    free = (k for k in range(1, n + 1) if k not in taken)
    for a in legal:
        if a not in out:
            out[a] = next(free)
    return dict(sorted(out.items(), key=lambda item: item[1]))


class TableDriver:
    """Plays one table at the terminal until the game ends or the people quit."""

    def __init__(self, table: Table, console: Console, reader: LineReader | None = None,
                 options: PlayOptions | None = None) -> None:
        self.table = table
        self.console = console
        self.reader = reader if reader is not None else make_reader()
        self.options = options or PlayOptions()
        self.seen: dict[int, int] = {}
        """How much of its event log each person has been shown (hot-seat recaps)."""
        self.shown = table.event_count
        """How much of the log has been printed (one person at the table)."""
        self.drawn: dict[int, int] = {}
        """Up to where each person has been told what they drew (an index of the event log)."""
        self.numbers: dict[int, dict[str, int]] = {}
        """The numbers each person saw for their legal actions last time (kept stable where possible)."""
        self.last_human: int | None = None
        self.par = par_score(table)

    # -- helpers ------------------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The state being played."""
        return self.table.state

    @property
    def game_name(self) -> str:
        """The game's registry name."""
        return self.table.game.name

    @property
    def viewer(self) -> int | None:
        """Whose log is printed as the game goes: the only person, else nobody (hot-seat recaps instead)."""
        humans = self.table.humans
        return humans[0] if len(humans) == 1 else None

    @property
    def compact(self) -> bool:
        """True when the screens use the compact layout (chosen by the terminal's size unless set)."""
        if self.options.layout in ("compact", "full"):
            return self.options.layout == "compact"
        size = self.console.size
        return size.height < COMPACT_HEIGHT or size.width < COMPACT_WIDTH

    def last_line(self, seat: int | None) -> str:
        """The last move as ``seat`` learned it (its events of the last action, in words)."""
        if not self.state.history:
            return ""
        last = len(self.state.history) - 1
        events = self.table.events(seat)
        start = next((i for i, e in enumerate(events) if e["move"] == last), len(events))
        return "; ".join(self.table.log_lines(seat, start))

    def context(self, seat: int | None, legal: Sequence[str] = (), *, full: bool = False,
                marks: Sequence[str] = ()) -> Context:
        """The render context for a seat's screen."""
        return Context(names=self.table.names, legal=tuple(legal), rules=self.table.game.rules.flags(),
                       last=self.last_line(seat), compact=self.compact and not full, marks=tuple(marks),
                       par=self.par)

    def print_new_events(self, style: str = "") -> None:
        """Print the log lines the one person at the table has not seen yet."""
        if self.table.is_hot_seat:
            return
        for line in self.table.log_lines(self.viewer, self.shown):
            self.console.print(Text(f"  ▸ {line}", style=style))
        self.shown = self.table.event_count

    def forced(self, seat: int) -> str | None:
        """The one legal action of ``seat`` when it has no other choice (None otherwise)."""
        legal = self.table.legal(seat)
        return legal[0] if len(legal) == 1 else None

    # -- the game -----------------------------------------------------------------------------------
    def run(self) -> Record:
        """Play until the game is over (or the people quit); returns the record."""
        self.intro()
        try:
            while not self.state.is_over:
                seat = self.state.current_player
                assert seat is not None
                if self.table.seats[seat].is_human:
                    only = self.forced(seat)
                    if only is not None and self.options.auto_forced and not self.table.is_hot_seat:
                        self.play_forced(seat, only)
                    else:
                        self.human_turn(seat)
                else:
                    try:
                        self.agent_turn(seat)
                    except KeyboardInterrupt:
                        raise QuitGame from None
        except QuitGame:
            self.console.print("Game left before the end.")
            self.offer_save("Save the game so far?")
            return self.table.record()
        return self.finish()

    def intro(self) -> None:
        """Who plays which seat, and how to get help."""
        game = self.table.game
        line = Text.assemble((f"{game.title}", "bold"), f" (seed {self.state.seed}): ")
        for k, label in enumerate(self.table.names):
            if k:
                line.append(", ")
            line.append(label)
        self.console.print(line)
        if self.state.history:
            self.console.print(Text(f"Resumed after {len(self.state.history)} actions.", style="bold"))
        self.console.print(Text(f"Type help at your prompt for the commands, rules for how to play "
                                f"(cardtable rules {self.game_name} prints it).", style="dim"))
        self.print_new_events(style="dim")

    def agent_turn(self, seat: int) -> None:
        """Let the computer move (a spinner with its name meanwhile), and show what the people learned."""
        with self.console.status(Text(f"{self.table.name(seat)} is thinking…"), spinner="dots"):
            self.table.step_agent()
        self.print_new_events()
        if self.options.delay > 0:
            time.sleep(self.options.delay)

    def play_forced(self, seat: int, action: str) -> None:
        """Play a person's only legal action for them, with one line saying why."""
        view = self.table.view(seat)
        why = forced_reason(self.game_name, view, action, self.context(seat, [action]))
        self.table.play(seat, action)
        self.console.print(Text(f"» {why}", style="bold"))
        self.print_new_events(style="dim")

    def human_turn(self, seat: int) -> None:
        """Show the seat its screen and read commands until it has made a move."""
        if self.table.is_hot_seat and seat != self.last_human:
            self.pass_screen(seat)
        self.last_human = seat
        self.show(seat)
        while True:
            legal = self.table.legal(seat)
            words = [*legal, *COMMANDS, *game_commands(self.game_name)]
            try:
                line = self.reader.read(f"P{seat + 1}> ", words)
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                raise QuitGame from None
            outcome = self.handle(seat, line.strip(), legal)
            if outcome == "moved":
                return
            if outcome in ("redraw", "redraw-full"):
                if self.state.current_player != seat:
                    return
                self.show(seat, full=outcome == "redraw-full")

    def pass_screen(self, seat: int) -> None:
        """Hide the previous hand and hand the terminal over (hot-seat)."""
        if self.console.is_terminal:
            self.console.clear()
            self.console.file.write("\x1b[3J")  # the scroll-back too
        name = self.table.name(seat)
        self.console.print(Panel(Text(f"Pass the terminal to {name}.\n{name}: press Enter when only you can "
                                      f"see the screen."), expand=False))
        try:
            self.reader.read(f"{name}, press Enter> ")
        except (EOFError, KeyboardInterrupt):
            raise QuitGame from None

    def show(self, seat: int, *, full: bool = False) -> None:
        """The seat's screen: recap (hot-seat), the table from its view, what it drew, its choices."""
        self.console.print(HRule(style="dim"))
        if self.table.is_hot_seat:
            start = self.seen.get(seat, 0)
            mine = {i for i, a in enumerate(self.table.actors) if a == seat}
            events = self.table.events(seat, start)
            lines = [line for e, line in zip(events, self.table.log_lines(seat, start), strict=True)
                     if e["move"] not in mine]
            if lines:
                self.console.print(Text("Since your last turn:", style="bold"))
                for line in lines:
                    self.console.print(Text(f"  ▸ {line}"))
            self.seen[seat] = self.table.event_count
        legal = self.table.legal(seat)
        ctx = self.context(seat, legal, full=full)
        self.console.print(render_view(self.game_name, self.table.view(seat), ctx))
        drew = self.drawn_lines(seat)
        if drew:
            self.console.print(Text(drew, style="bold"))
        if len(legal) == 1:
            self.console.print(Text(f"Your only choice: {legal[0]}.", style="bold"))
        numbers = self.numbers_for(seat, legal)
        self.console.print(render_choices(legal, numbers=numbers, compact=ctx.compact))
        extra = "".join(f" · {name}" for name in game_commands(self.game_name))
        self.console.print(Text(f"help · list · board · history · rules · hint · undo · save FILE · quit{extra}",
                                style="dim"))

    def numbers_for(self, seat: int, legal: Sequence[str]) -> dict[str, int] | None:
        """The numbers shown for ``seat``'s legal actions: stable from its last list where possible."""
        if len(legal) > NUMBERED_LIMIT:
            self.numbers[seat] = {a: i for i, a in enumerate(legal, 1)}
            return None
        numbers = stable_numbers(legal, self.numbers.get(seat))
        self.numbers[seat] = numbers
        return numbers

    def drawn_lines(self, seat: int) -> str:
        """``You drew Fire Mage.``: the cards ``seat`` drew since it was last told (from its event log)."""
        start = self.drawn.get(seat, 0)
        events = self.table.events(seat, start)
        self.drawn[seat] = self.table.event_count
        describe = registry.describer(self.game_name)
        name = self.table.name(seat)
        said: list[str] = []
        for e in events:
            if e.get("kind") != "draw" or e.get("player") != seat or not ("card" in e or "cards" in e):
                continue
            line = describe(e, self.table.names)
            said.append(line.removeprefix(f"{name} draws ") if line.startswith(f"{name} draws ") else line)
        if not said:
            return ""
        return "You drew " + "; ".join(said) + "."

    # -- commands -----------------------------------------------------------------------------------
    def handle(self, seat: int, line: str, legal: Sequence[str]) -> str:
        """Carry out one line typed by ``seat``: 'moved', 'redraw', 'redraw-full' or 'stay' (the prompt again)."""
        if not line:
            self.console.print("Type a number or an action from the list (help for the commands).")
            return "stay"
        word, _, arg = line.partition(" ")
        cmd = word.lower()
        arg = arg.strip()
        extra = game_commands(self.game_name)
        if cmd in ("help", "?"):
            self.console.print(help_text(self.game_name))
            return "stay"
        if cmd == "list" and not arg:
            self.console.print(render_choices(legal, numbered_limit=10_000, numbers=self.numbers.get(seat)))
            return "stay"
        if cmd in ("board", "show") and arg in ("", "full"):
            return "redraw-full" if arg == "full" else "redraw"
        if cmd in ("history", "moves") and (not arg or arg == "all" or arg.isdigit()):
            self.history(seat, None if arg == "all" else int(arg) if arg else 15)
            return "stay"
        if cmd == "rules":
            self.show_rules(arg)
            return "stay"
        if cmd == "hint" and not arg:
            self.hint(seat)
            return "stay"
        if cmd == "undo" and not arg:
            return self.undo(seat)
        if cmd == "save":
            if not arg:
                self.console.print("save needs a file name: save FILE")
            else:
                self.save(Path(arg))
            return "stay"
        if cmd in ("quit", "exit") and not arg:
            raise QuitGame
        if cmd in extra and not arg and cmd not in legal:
            _, show = extra[cmd]
            self.console.print(show(self.table.view(seat), self.context(seat, legal, full=True)))
            return "stay"
        return self.try_action(seat, line, legal)

    def try_action(self, seat: int, line: str, legal: Sequence[str]) -> str:
        """Apply the action a line names (number, notation in any case, a unique prefix or ending), or say why not."""
        chosen, why = resolve_input(line, legal, self.numbers.get(seat))
        if chosen is None:
            if why:
                self.console.print(Text(why, style="red"))
            else:
                self.explain_bad(line)
            return "stay"
        self.table.play(seat, chosen)
        self.print_new_events(style="dim")
        return "moved"

    def explain_bad(self, line: str) -> None:
        """Why a line is not a legal action: not notation, or illegal now (with the rule)."""
        try:
            problem = self.state.illegality(line)
        except InvalidAction as exc:
            self.console.print(Text(f"Not understood: {exc}", style="red"))
            self.console.print("Type a number from the list, an action as listed (Tab completes), or help.")
            return
        if problem is None:  # legal, but not in the list (cannot happen); say so rather than guess
            self.console.print(Text(f"{line!r} is not one of the listed actions.", style="red"))
            return
        rule, reason = problem
        if rulebook.has_rulebook(self.game_name):
            reason = rulebook.player_text(self.game_name, reason)
        self.console.print(Text(f"Not allowed now: {reason} [{rule}]", style="red"))
        if rulebook.has_rulebook(self.game_name) and rule in rulebook.rules_of(self.game_name):
            self.console.print(Text(f"(rules {rule} shows the rule)", style="dim"))

    def show_rules(self, arg: str) -> None:
        """``rules``: how to play; ``rules ja``: in Japanese; ``rules index``: the numbered rules; ``rules ID``: one."""
        game = self.game_name
        if not rulebook.has_rulebook(game):
            self.console.print(f"No rulebook is shipped for {game}.")
            return
        lang = arg.lower() if arg.lower() in rulebook.HOWTO_LANGUAGES else ""
        if not arg or lang:
            if rulebook.has_howto(game, lang or "en"):
                self.console.print(Markdown(rulebook.howto_text(game, lang or "en")))
                self.console.print(Text("rules index lists the numbered rules; rules ID shows one.", style="dim"))
            else:
                self.console.print(rules_index(game))
            return
        if arg.lower() in ("index", "all", "list"):
            self.console.print(rules_index(game))
            return
        try:
            rule = rulebook.find_rule(game, arg)
        except KeyError as exc:
            self.console.print(Text(str(exc.args[0]), style="red"))
            return
        self.console.print(Markdown(rulebook.player_text(game, rule.text)))

    def history(self, seat: int, last: int | None) -> None:
        """The last ``last`` moves (None: all) as ``seat`` learned them, numbered as in a replay."""
        events = self.table.events(seat)
        lines = self.table.log_lines(seat)
        moves: dict[int, list[str]] = {}
        for e, text in zip(events, lines, strict=True):
            moves.setdefault(int(e["move"]), []).append(text)
        keys = sorted(moves)
        if last is not None:
            keys = keys[-last:]
        if not keys:
            self.console.print("No moves yet.")
            return
        table = RichTable.grid(padding=(0, 1))
        table.add_column(justify="right", style="dim", no_wrap=True)
        table.add_column()
        for k in keys:
            table.add_row("setup" if k < 0 else f"{k + 1}.", Text("; ".join(moves[k])))
        self.console.print(Text(f"Moves ({len(keys)} of {len(moves)}; history all shows every one):", style="bold"))
        self.console.print(table)

    def hint(self, seat: int) -> None:
        """The hint agent's top choices here, with estimated win rates (solo: expected scores), from this seat's view."""
        with self.console.status(Text(f"{self.options.hint_spec} is thinking…"), spinner="dots"):
            try:
                hint = self.table.hint(seat, self.options.hint_spec, top=5)
            except ValueError as exc:
                self.console.print(Text(f"No hint: {exc}", style="red"))
                return
            expected: dict[str, float] = {}
            if self.state.num_players == 1:
                expected = expected_scores(self.table, seat, [str(c.get("action")) for c in hint.candidates]
                                           or [hint.best])
        self.console.print(render_hint(hint.best, hint.candidates, expected))

    def undo(self, seat: int) -> str:
        """Go back to this seat's previous decision that was its own choice (forced ones are replayed by themselves)."""
        before = self.table.record()
        taken = 0
        try:
            while True:
                taken += self.table.undo(seat)
                if not (self.options.auto_forced and not self.table.is_hot_seat and self.forced(seat) is not None):
                    break
                target, _ = self.table.undo_target(seat)
                if target is None:
                    self.table = Table.resume(before, list(self.table.seats), undo=self.table.undo_policy)
                    raise TableError("cannot_undo", "your earlier decisions were forced (one legal action each)")
        except TableError as exc:
            self.console.print(Text(f"Cannot undo: {exc}", style="red"))
            return "stay"
        count = self.table.event_count
        self.shown = min(self.shown, count)
        for table in (self.seen, self.drawn):
            for p in table:
                table[p] = min(table[p], count)
        self.console.print(Text(f"Undone: {taken} action{'s' if taken != 1 else ''} taken back.", style="bold"))
        return "redraw"

    def save(self, path: Path) -> bool:
        """Write the record so far; say where (or why not)."""
        try:
            self.table.save(path)
        except OSError as exc:
            self.console.print(Text(f"Cannot save to {path}: {exc.strerror or exc}", style="red"))
            return False
        self.console.print(Text(f"Record saved to {path} ({len(self.state.history)} actions)."))
        return True

    def offer_save(self, question: str) -> None:
        """Ask for a file name to save the record to (Enter skips); keeps asking after a failed save."""
        if self.options.save is not None:
            self.save(self.options.save)
            return
        if not self.options.ask_save:
            return
        while True:
            try:
                name = self.reader.read(f"{question} File name (Enter to skip): ").strip()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return
            if not name or self.save(Path(name)):
                return

    def finish(self) -> Record:
        """The final table (the winning line marked), the outcome, the scores and the reason; offer to save."""
        out = self.state.outcome()
        assert out is not None
        self.print_new_events()
        viewer = self.viewer
        line = winning_line(self.table.events(viewer))
        ctx = self.context(viewer, marks=line)
        self.console.print(HRule(style="dim"))
        self.console.print(render_view(self.game_name, self.table.view(viewer), ctx))
        if line:
            who = " and ".join(self.table.name(w) for w in out.winners)
            self.console.print(Text(f"Winning line: {' '.join(line)} ({who}), marked ◆", style="bold"))
        self.console.print(render_outcome(out.to_json(), ctx, self.state.num_players))
        self.offer_save("Save the record?")
        return self.table.record()


def help_text(game: str) -> RenderableType:
    """The prompt's commands (``help``), with the game's own."""
    example = next(iter(rulebook.rules_of(game)), "") if rulebook.has_rulebook(game) else ""
    table = RichTable.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for name, what in HELP_ROWS:
        table.add_row(name, what.format(example=example))
    for name, (what, _) in game_commands(game).items():
        table.add_row(name, what)
    return Group(Text("At your prompt, type one of:", style="bold"), table)


def winning_line(events: Sequence[Mapping[str, Any]]) -> list[str]:
    """The places of the line that ended the game (Zeta's four in a row), from the log's last game-over event."""
    for e in reversed(events):
        if str(e.get("kind")) in ("game_over", "game_end") and e.get("line"):
            return [str(x) for x in e["line"]]
    return []


def rules_index(game: str) -> RenderableType:
    """The numbered rules of a game (ids and titles), for ``rules index``."""
    rules = [r for r in rulebook.rules_of(game).values() if "-R" in r.id]
    table = RichTable.grid(padding=(0, 2))
    table.add_column(no_wrap=True, style="bold")
    table.add_column()
    for r in rules:
        table.add_row(r.id, Text(r.title))
    return Group(table, Text("rules ID shows one rule; the ledger (…-I…) explains each reading.", style="dim"))


def render_hint(best: str, candidates: Sequence[Mapping[str, Any]],
                expected: Mapping[str, float] | None = None) -> RenderableType:
    """The hint agent's choice and its top candidates (``Candidate.to_json`` dicts): win rates and visits,
    or, in a solo game, each action's expected final score (``expected``)."""
    if not candidates and not expected:
        return Text(f"Hint: {best}", style="bold")
    table = RichTable(title=f"Hint: {best}", title_justify="left", title_style="bold", padding=(0, 1))
    table.add_column("action")
    table.add_column("expected score" if expected else "win rate", justify="right")
    table.add_column("visits", justify="right")
    rows = list(candidates) or [{"action": best, "visits": 0}]
    for c in rows:
        action = str(c.get("action", ""))
        rate = c.get("win_rate")
        visits = c.get("visits", 0)
        score = c.get("score", 0.0)
        if expected:
            value = f"{expected[action]:.1f}" if action in expected else "-"
        else:
            value = f"{rate:.0%}" if rate is not None else f"score {score:.2f}"
        table.add_row(action, value, str(visits))
    return table


EXPECTED_PLAYOUTS = 24
"""Heuristic playouts per candidate behind a solo hint's expected score."""


def expected_scores(table: Table, seat: int, actions: Sequence[str], playouts: int = EXPECTED_PLAYOUTS) -> dict[str, float]:
    """Each action's mean final score over heuristic playouts from states sampled from ``seat``'s view only."""
    import random

    from cardtable.agents import decide, make_agent

    game = table.game
    view = table.view(seat)
    agent = make_agent("heuristic", game)
    out: dict[str, float] = {}
    for action in actions:
        total = 0.0
        for k in range(playouts):
            rng = random.Random(f"expected:{table.state.seed}:{table.version}:{action}:{k}")
            state = game.sample_state(view, rng)
            state.apply(action)
            while not state.is_over:
                state.apply(decide(agent, state, rng))
            result = state.outcome()
            total += float(result.scores[seat]) if result is not None and result.scores else 0.0
        out[action] = total / playouts
    return out


def par_score(table: Table) -> float | None:
    """The par of a solo game at this table (the stored heuristic mean for its rules), or None."""
    if table.state.num_players != 1:
        return None
    from .par import par_for

    return par_for(table.game.name, table.game.rules.changed_flags(), dict(table.state.setup))


REVEAL = "reveal"
"""``step_through``'s viewer that sees everything (the table owner's revealed replay)."""

STEP_HELP = "Enter or n: next move · b or p: back · NUMBER: go to that move · e: the end · s: the start · q: quit"


def step_through(record: Record, console: Console, reader: LineReader | None = None,
                 viewer: int | str | None = None) -> None:
    """Step through a record move by move as ``viewer`` saw it: Enter next, b back, a number jumps, q quits.

    ``viewer`` is a seat (0-based), None for a spectator, or ``REVEAL`` for everything (each screen is
    the view of the seat to decide, and the log shows every secret). Each screen says the last move in
    words and marks what play marks (the cards the deciding viewer may place, the winning line).
    Raises RecordError if the record does not replay.
    """
    table = Table.resume(record)
    game = table.game
    state = game.new_game(seed=record.seed, record_events=True, **record.setup)
    states = [state.clone()]
    for text in record.actions:
        state.apply(text)
        states.append(state.clone())
    reader = reader if reader is not None else make_reader()
    names = table.names
    describe = registry.describer(game.name)
    total = len(record.actions)
    reveal = viewer == REVEAL
    seat_viewer: int | None = None if reveal or viewer is None else int(viewer)
    who = "everything revealed" if reveal else f"as {names[seat_viewer]}" if seat_viewer is not None else "as a spectator"
    size = console.size
    compact = size.height < COMPACT_HEIGHT or size.width < COMPACT_WIDTH
    i = 0
    while True:
        s = states[i]
        shown = (s.current_player if s.current_player is not None else seat_viewer) if reveal else seat_viewer
        last = ""
        if i > 0:
            events = [e for e in s.events if e.move == i - 1]
            seen = [e.revealed() if reveal else e.seen_by(seat_viewer) for e in events]
            last = "; ".join(describe(e, names) for e in seen)
        legal = tuple(str(a) for a in s.legal_actions()) if shown is not None and shown == s.current_player else ()
        out = s.outcome()
        marks: list[str] = []
        if out is not None:
            marks = winning_line([e.revealed() if reveal else e.seen_by(seat_viewer) for e in s.events])
        ctx = Context(names=names, legal=legal, rules=game.rules.flags(), last=last, compact=compact,
                      marks=tuple(marks))
        console.print(HRule(Text(f"move {i} of {total} · {who}"), style="dim"))
        console.print(render_view(record.game, s.view(shown), ctx))
        if out is not None:
            console.print(render_outcome(out.to_json(), ctx, s.num_players))
        try:
            cmd = reader.read("Enter next · b back · NUMBER go to move · q quit> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            return
        if cmd in ("q", "quit", "exit"):
            return
        if cmd in ("b", "p", "back", "prev", "previous", "-"):
            i = max(0, i - 1)
        elif cmd.isdigit():
            if int(cmd) > total:
                console.print(Text(f"There are {total} moves; showing the last.", style="red"))
            i = min(total, int(cmd))
        elif cmd in ("e", "end", "$"):
            i = total
        elif cmd in ("s", "start", "0"):
            i = 0
        elif cmd in ("", "n", "next", "+"):
            if i == total:
                return
            i += 1
        elif cmd in ("h", "help", "?"):
            console.print(Text(STEP_HELP))
        else:
            console.print(Text(f"Unknown key {cmd!r}. {STEP_HELP}", style="red"))
