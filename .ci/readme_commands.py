"""The README's commands, read from the README itself, so that CI runs exactly what a newcomer copies.

``python3 .ci/readme_commands.py serve`` prints the first command of the README's "Two commands"
section (install and serve), ``test`` the second (install and pass the tests), and ``restart`` the
command the README gives to start the server again without reinstalling. Standard library only: CI
runs it before anything is installed.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
SECTION = "## Two commands"
RESTART = re.compile(r"[Ss]tart it again without reinstalling: `([^`]+)`")


def commands(text: str) -> dict[str, str]:
    """The README's ``serve``, ``test`` and ``restart`` commands (ValueError if the README lacks one)."""
    start = text.find(SECTION)
    if start < 0:
        raise ValueError(f"the README has no {SECTION!r} section")
    end = text.find("\n## ", start + len(SECTION))
    section = text[start:end if end >= 0 else len(text)]
    blocks = re.findall(r"^```sh\n(.*?)^```", section, flags=re.MULTILINE | re.DOTALL)
    if len(blocks) != 2:
        raise ValueError(f"{SECTION!r} has {len(blocks)} sh blocks, not two")
    found = {"serve": blocks[0].strip(), "test": blocks[1].strip()}
    for name, command in found.items():
        if "\n" in command:
            raise ValueError(f"the README's {name} command spans several lines")
    restart = RESTART.search(section)
    if restart is None:
        raise ValueError(f"{SECTION!r} does not say how to start the server again without reinstalling")
    found["restart"] = restart.group(1)
    return found


def main(argv: list[str]) -> int:
    """Print the named command; exit 2 with a message if the name or the README is wrong."""
    try:
        found = commands(README.read_text(encoding="utf-8"))
    except ValueError as exc:
        print(f"readme_commands: {exc}", file=sys.stderr)
        return 2
    if len(argv) != 1 or argv[0] not in found:
        print(f"usage: readme_commands.py {{{','.join(found)}}}", file=sys.stderr)
        return 2
    print(found[argv[0]])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
