"""The terminal front end: drives a :class:`~cardtable.table.Table`, shows each seat its screen, reads people's input.

Input handling lives here; the screens are the pure renderers of :mod:`cardtable.cli.play.render`, and
the log lines are the seat's event log in words (:meth:`Table.log_lines`): nothing here decides what a
seat may see.
"""

from __future__ import annotations

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

from .render import Context, render_choices, render_outcome, render_view
from .terminal import LineReader, make_reader

COMMANDS = ("help", "list", "board", "rules", "hint", "undo", "save", "quit")
"""Commands offered at the prompt besides the legal actions."""

HELP = """\
[bold]At your prompt, type one of:[/]
  [bold]NUMBER[/]          the action with that number in the list
  [bold]ACTION[/]          an action as listed (Tab completes it; upper or lower case)
  [bold]list[/]            number every legal action
  [bold]board[/]           show the table again
  [bold]rules[/] [ID]      the rules index, or one rule's text (e.g. rules {example})
  [bold]hint[/]            the computer's favourite moves here, with estimated win rates
  [bold]undo[/]            take back your last decision (and the computer's replies)
  [bold]save[/] FILE       write the game so far to FILE (a record: `cardtable replay FILE`)
  [bold]quit[/]            leave the game (you are offered to save it)
"""


class QuitGame(Exception):
    """The people at the table left the game."""


@dataclass
class PlayOptions:
    """How the table behaves: the pause after computer moves, the hint agent, saving at the end."""

    delay: float = 0.5
    """Seconds to wait after showing each computer move (0: none)."""
    hint_spec: str = "ismcts:normal"
    """The agent that ``hint`` asks."""
    save: Path | None = None
    """Write the record here at the end, without asking."""
    ask_save: bool = True
    """Offer to save the record at the end of the game (and on quit)."""


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
        self.last_human: int | None = None

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

    def last_line(self, seat: int | None) -> str:
        """The last move as ``seat`` learned it (its events of the last action, in words)."""
        if not self.state.history:
            return ""
        last = len(self.state.history) - 1
        events = self.table.events(seat)
        start = next((i for i, e in enumerate(events) if e["move"] == last), len(events))
        return "; ".join(self.table.log_lines(seat, start))

    def context(self, seat: int | None, legal: Sequence[str] = ()) -> Context:
        """The render context for a seat's screen."""
        return Context(names=self.table.names, legal=tuple(legal), rules=self.table.game.rules.flags(),
                       last=self.last_line(seat))

    def print_new_events(self, style: str = "") -> None:
        """Print the log lines the one person at the table has not seen yet."""
        if self.table.is_hot_seat:
            return
        for line in self.table.log_lines(self.viewer, self.shown):
            self.console.print(Text(f"  ▸ {line}", style=style))
        self.shown = self.table.event_count

    # -- the game -----------------------------------------------------------------------------------
    def run(self) -> Record:
        """Play until the game is over (or the people quit); returns the record."""
        self.intro()
        try:
            while not self.state.is_over:
                seat = self.state.current_player
                assert seat is not None
                if self.table.seats[seat].is_human:
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
        self.console.print(Text("Type help at your prompt for the commands.", style="dim"))
        self.print_new_events(style="dim")

    def agent_turn(self, seat: int) -> None:
        """Let the computer move, and show what the people learned."""
        self.table.step_agent()
        self.print_new_events()
        if self.options.delay > 0:
            time.sleep(self.options.delay)

    def human_turn(self, seat: int) -> None:
        """Show the seat its screen and read commands until it has made a move."""
        if self.table.is_hot_seat and seat != self.last_human:
            self.pass_screen(seat)
        self.last_human = seat
        self.show(seat)
        while True:
            legal = self.table.legal(seat)
            try:
                line = self.reader.read(f"P{seat + 1}> ", [*legal, *COMMANDS])
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                raise QuitGame from None
            outcome = self.handle(seat, line.strip(), legal)
            if outcome == "moved":
                return
            if outcome == "redraw":
                if self.state.current_player != seat:
                    return
                self.show(seat)

    def pass_screen(self, seat: int) -> None:
        """Hide the previous hand and hand the terminal over (hot-seat)."""
        if self.console.is_terminal:
            self.console.clear()
            self.console.file.write("\x1b[3J")  # the scroll-back too
        name = self.table.name(seat)
        self.console.print(Panel(f"Pass the terminal to {name}.\n{name}: press Enter when only you can "
                                 f"see the screen.", expand=False))
        try:
            self.reader.read(f"{name}, press Enter> ")
        except (EOFError, KeyboardInterrupt):
            raise QuitGame from None

    def show(self, seat: int) -> None:
        """The seat's screen: recap (hot-seat), the table from its view, its choices."""
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
        ctx = self.context(seat, legal)
        self.console.print(render_view(self.game_name, self.table.view(seat), ctx))
        self.console.print(render_choices(legal))
        self.console.print(Text("help · list · rules [ID] · hint · undo · save FILE · quit", style="dim"))

    # -- commands -----------------------------------------------------------------------------------
    def handle(self, seat: int, line: str, legal: Sequence[str]) -> str:
        """Carry out one line typed by ``seat``: 'moved', 'redraw' or 'stay' (the prompt again)."""
        if not line:
            self.console.print("Type a number or an action from the list (help for the commands).")
            return "stay"
        word, _, arg = line.partition(" ")
        cmd = word.lower()
        arg = arg.strip()
        if cmd in ("help", "?"):
            rule = next(iter(rulebook.rules_of(self.game_name)), "") if rulebook.has_rulebook(self.game_name) else ""
            self.console.print(HELP.format(example=rule))
            return "stay"
        if cmd == "list" and not arg:
            self.console.print(render_choices(legal, numbered_limit=10_000))
            return "stay"
        if cmd in ("board", "show") and not arg:
            return "redraw"
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
        return self.try_action(seat, line, legal)

    def try_action(self, seat: int, line: str, legal: Sequence[str]) -> str:
        """Apply the action a line names (a number, or notation in any case), or say what is wrong."""
        chosen: str | None = None
        if line.isdigit():
            n = int(line)
            if not 1 <= n <= len(legal):
                self.console.print(f"[red]There is no action {n}[/]: choose 1 to {len(legal)}.")
                return "stay"
            chosen = legal[n - 1]
        elif line in legal:
            chosen = line
        else:
            folded = [a for a in legal if a.lower() == line.lower()]
            if len(folded) == 1:
                chosen = folded[0]
        if chosen is None:
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
        self.console.print(Text(f"Not allowed now: {reason} [{rule}]", style="red"))
        if rulebook.has_rulebook(self.game_name) and rule in rulebook.rules_of(self.game_name):
            self.console.print(Text(f"(rules {rule} shows the rule)", style="dim"))

    def show_rules(self, arg: str) -> None:
        """``rules``: the index of numbered rules; ``rules ID``: one rule's text."""
        game = self.game_name
        if not rulebook.has_rulebook(game):
            self.console.print(f"No rulebook is shipped for {game}.")
            return
        if not arg:
            self.console.print(rules_index(game))
            return
        try:
            rule = rulebook.find_rule(game, arg)
        except KeyError as exc:
            self.console.print(Text(str(exc.args[0]), style="red"))
            return
        self.console.print(Markdown(rule.text))

    def hint(self, seat: int) -> None:
        """The hint agent's top choices here, with estimated win rates (from this seat's view only)."""
        self.console.print(Text(f"Thinking ({self.options.hint_spec})...", style="dim"))
        try:
            hint = self.table.hint(seat, self.options.hint_spec, top=5)
        except ValueError as exc:
            self.console.print(Text(f"No hint: {exc}", style="red"))
            return
        self.console.print(render_hint(hint.best, hint.candidates))

    def undo(self, seat: int) -> str:
        """Go back to this seat's previous decision (replaying the record without the later actions)."""
        try:
            taken = self.table.undo(seat)
        except TableError as exc:
            self.console.print(Text(f"Cannot undo: {exc}", style="red"))
            return "stay"
        count = self.table.event_count
        self.shown = min(self.shown, count)
        for p in self.seen:
            self.seen[p] = min(self.seen[p], count)
        self.console.print(Text(f"Undone: {taken} action{'s' if taken != 1 else ''} taken back.", style="bold"))
        return "redraw"

    def save(self, path: Path) -> bool:
        """Write the record so far; say where (or why not)."""
        try:
            self.table.save(path)
        except OSError as exc:
            self.console.print(Text(f"Cannot save to {path}: {exc.strerror or exc}", style="red"))
            return False
        self.console.print(f"Record saved to {path} ({len(self.state.history)} actions).")
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
        """The final table, the outcome, the scores and the reason; offer to save."""
        out = self.state.outcome()
        assert out is not None
        self.print_new_events()
        viewer = self.viewer
        ctx = self.context(viewer)
        self.console.print(HRule(style="dim"))
        self.console.print(render_view(self.game_name, self.table.view(viewer), ctx))
        self.console.print(render_outcome(out.to_json(), ctx, self.state.num_players))
        self.offer_save("Save the record?")
        return self.table.record()


def rules_index(game: str) -> RenderableType:
    """The numbered rules of a game (ids and titles), for ``rules`` without an id."""
    rules = [r for r in rulebook.rules_of(game).values() if "-R" in r.id]
    table = RichTable.grid(padding=(0, 2))
    table.add_column(no_wrap=True, style="bold")
    table.add_column()
    for r in rules:
        table.add_row(r.id, r.title)
    return Group(table, Text("rules ID shows one rule; the ledger (…-I…) explains each reading.", style="dim"))


def render_hint(best: str, candidates: Sequence[Mapping[str, Any]]) -> RenderableType:
    """The hint agent's choice and its top candidates (``Candidate.to_json`` dicts) with win rates and visits."""
    table = RichTable(title=f"Hint: {best}", title_justify="left", title_style="bold", padding=(0, 1))
    table.add_column("action")
    table.add_column("win rate", justify="right")
    table.add_column("visits", justify="right")
    for c in candidates:
        action = c.get("action", "")
        rate = c.get("win_rate")
        visits = c.get("visits", 0)
        score = c.get("score", 0.0)
        table.add_row(str(action), f"{rate:.0%}" if rate is not None else f"score {score:.2f}", str(visits))
    if not candidates:
        return Text(f"Hint: {best}", style="bold")
    return table


REVEAL = "reveal"
"""``step_through``'s viewer that sees everything (the table owner's revealed replay)."""


def step_through(record: Record, console: Console, reader: LineReader | None = None,
                 viewer: int | str | None = None) -> None:
    """Step through a record move by move as ``viewer`` saw it: Enter next, b back, a number jumps, q quits.

    ``viewer`` is a seat (0-based), None for a spectator, or ``REVEAL`` for everything (each screen is
    the view of the seat to decide, and the log shows every secret). Raises RecordError if the record
    does not replay.
    """
    table = Table.resume(record)
    final = table.state
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
    i = 0
    while True:
        s = states[i]
        shown = (s.current_player if s.current_player is not None else seat_viewer) if reveal else seat_viewer
        last = ""
        if i > 0:
            events = [e for e in s.events if e.move == i - 1]
            seen = [e.revealed() if reveal else e.seen_by(seat_viewer) for e in events]
            last = "; ".join(describe(e, names) for e in seen)
        ctx = Context(names=names, rules=game.rules.flags(), last=last)
        console.print(HRule(f"move {i} of {total} · {who}", style="dim"))
        console.print(render_view(record.game, s.view(shown), ctx))
        out = s.outcome()
        if out is not None:
            console.print(render_outcome(out.to_json(), ctx, s.num_players))
        try:
            cmd = reader.read("Enter next · b back · NUMBER go to move · q quit> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            return
        if cmd in ("q", "quit"):
            return
        if cmd == "b":
            i = max(0, i - 1)
        elif cmd.isdigit():
            i = min(total, int(cmd))
        elif cmd == "":
            if i == total:
                return
            i += 1
        else:
            console.print("Enter: next move · b: back · NUMBER: go to that move · q: quit")
    del final
