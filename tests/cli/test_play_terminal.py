"""Whole games through the real ``cardtable play`` process in a pseudo-terminal, then ``cardtable replay``.

Each game is played to the end against a random agent (``--vs random --seed S --no-pause``), with bad
input, ``undo`` and ``save`` on the way; the saved record must replay (``cardtable replay FILE --to-end``)
to the outcome the game showed.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest
from play_helpers import REPO, play_command, play_env, strip_ansi

PROMPT = r"P\d> "
SAVE = r"File name \(Enter to skip\): "

# At the human's k-th decision, send these (line, expected answer) pairs before the move itself.
EXTRAS: dict[int, list[tuple[str, str]]] = {
    0: [("frobnicate", "Not understood"), ("999", "There is no action 999"), ("help", "At your prompt")],
    1: [("hint", "Hint: "), ("rules", "rules ID shows one"), ("rules index", "-R1 ")],
    2: [("undo", "Undone: "), ("board", PROMPT)],
    4: [("save {mid}", "Record saved to")],
}


def spawn(args: list[str], plain: bool = True) -> Any:
    """The play command in a 50x120 pseudo-terminal, its output kept for the asserts."""
    child = pexpect.spawn(args[0], args[1:], env=play_env(plain), cwd=str(REPO), encoding="utf-8", timeout=20,
                          dimensions=(50, 120))
    child.logfile_read = io.StringIO()
    return child


def play_to_the_end(args: list[str], tmp_path: Path) -> tuple[str, Path, Path]:
    """Answer every prompt (extras, then the first listed action); save at the end. Returns output and records."""
    mid = tmp_path / "mid.json"
    end = tmp_path / "end.json"
    child = spawn(play_command(*args))
    decisions = 0
    pending = list(EXTRAS.get(0, []))
    while True:
        i = child.expect([PROMPT, SAVE, pexpect.EOF])
        if i == 0:
            if pending:
                line, want = pending.pop(0)
                child.sendline(line.format(mid=mid))
                child.expect(want)
                if want != PROMPT:
                    continue
                child.sendline("1")
            else:
                child.sendline("1")
            decisions += 1
            pending = list(EXTRAS.get(decisions, []))
        elif i == 1:
            child.sendline(str(end))
            child.expect("Record saved to")
        else:
            break
    child.close()
    assert child.exitstatus == 0, strip_ansi(child.logfile_read.getvalue())[-3000:]
    assert decisions > 5
    return strip_ansi(child.logfile_read.getvalue()), mid, end


def replay_to_end(path: Path) -> str:
    """``cardtable replay FILE --to-end`` (the lead's command in main.py)."""
    done = subprocess.run([sys.executable, "-m", "cardtable", "replay", str(path), "--to-end"], capture_output=True,
                          text=True, env=play_env(), cwd=str(REPO), timeout=60)
    assert done.returncode == 0, done.stderr
    return strip_ansi(done.stdout)


@pytest.mark.parametrize("game, extra", [
    ("zeta", ["--seed", "5"]),
    ("oscilloscope", ["--seed", "4", "--players", "3", "--vs", "random"]),
    ("utahime", ["--seed", "5", "--seat", "2"]),
])
def test_play_a_whole_game_against_random_then_replay(game: str, extra: list[str], tmp_path: Path) -> None:
    args = ["play", game, "--vs", "random", "--no-pause", "--hint-agent", "ismcts:iterations=30", *extra]
    out, mid, end = play_to_the_end(args, tmp_path)
    assert "Not understood" in out and "There is no action 999" in out and "Undone:" in out and "Hint:" in out
    assert "▸ P" in out  # the computer's moves are shown
    reason = re.search(r"reason: (.+?) \[([A-Z]+-[A-Z0-9-]+)\]", out)
    assert reason is not None, out[-2000:]
    record = json.loads(end.read_text(encoding="utf-8"))
    assert record["outcome"]["reason"].replace("_", " ") == reason.group(1)
    assert record["outcome"]["rule"] == reason.group(2)
    assert "Game over" in out
    replayed = replay_to_end(end)
    assert f"{reason.group(1)} [{reason.group(2)}]" in replayed
    assert "not finished" in replay_to_end(mid)


def test_hot_seat_pass_screen_and_quit(tmp_path: Path) -> None:
    child = spawn(play_command("play", "zeta", "--seed", "1", "--rules", "first_player=p1"))
    child.expect("Pass the terminal to P1")
    child.expect("press Enter> ")
    child.sendline("")
    child.expect("P1> ")
    child.sendline("1")
    child.expect("Pass the terminal to P2")
    child.sendline("")
    child.expect("Since your last turn:")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect("Cannot undo")
    child.sendline("quit")
    child.expect(SAVE)
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "\x1b[3J" in child.logfile_read.getvalue()  # the previous screen is cleared, scroll-back too


def test_prompt_toolkit_tab_completion(tmp_path: Path) -> None:
    """On a terminal, the prompt completes legal actions with Tab (prompt_toolkit)."""
    child = spawn(play_command("play", "zeta", "--seed", "2", "--rules", "first_player=p1", "--vs", "random",
                               "--no-pause"), plain=False)
    child.expect("P1>")
    child.send("pas\t")
    child.expect("pass")
    child.send("\r")
    child.expect("P1 \\(you\\) passes")
    child.expect("P1>")
    child.send("quit\r")
    child.expect("File name")
    child.send("\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_an_80x24_terminal_gets_the_compact_screen_and_a_thinking_spinner() -> None:
    """On a small terminal the whole screen, choices and prompt included, fits; the AI says it is thinking."""
    env = dict(play_env(), COLUMNS="80", LINES="24")
    child = pexpect.spawn(sys.executable, ["-m", "cardtable", "play", "zeta", "--vs", "heuristic", "--seat", "2",
                                           "--seed", "4", "--rules", "first_player=p1", "--no-pause"],
                          env=env, cwd=str(REPO), encoding="utf-8", timeout=30, dimensions=(24, 80))
    child.logfile_read = io.StringIO()
    child.expect("P2> ")
    child.sendline("quit")
    child.expect(SAVE)
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    out = strip_ansi(child.logfile_read.getvalue())
    assert "P1 (heuristic) is thinking" in out
    screen = out.split("P2> ")[0].rsplit("──────────", 1)[-1].splitlines()[1:]
    assert len(screen) <= 23 and max(len(line) for line in screen) <= 80, "\n".join(screen)
    assert "help · list · board" in out
