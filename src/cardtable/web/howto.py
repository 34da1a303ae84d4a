"""The how-to-play as the web pages show it: the game package's own text (the one ``cardtable rules GAME``
prints), with its terminal parts (the prompt's commands, "type ...", a terminal command line) put in words for
the page, and a section on playing in the browser.

>>> text = "# Zeta\\n\\n## A worked example\\n\\nSo you type `pass`.\\n\\n## At the prompt\\n\\nType `help`.\\n"
>>> print(for_the_page(text, "zeta", "en"))
# Zeta
<BLANKLINE>
## A worked example
<BLANKLINE>
So you play `pass`.
<BLANKLINE>
## In the browser
<BLANKLINE>
Click (or tap) a card of your hand that says *placeable*: the squares it may go to light up; click a lit square to place it. An effect's choices appear under the board as buttons; **Pass** is there too. The move box takes any move by its notation (`fire_mage@e5`), and **Hint** asks a searching player for a move.
<BLANKLINE>
"""

from __future__ import annotations

import re

from .kit import game_webs

PROMPT_SECTIONS = ("At the prompt", "入力のしかた")
"""The sections about the terminal's prompt (its commands and short forms), which the page has no use for."""

_WORDS: dict[str, list[tuple[str, str]]] = {
    "en": [
        (r"Had you held no such club, the terminal would have\s+said \"[^\"]*\" and P2 would draw\.",
         "Had you held no such club, the attack would have gone through and P2 would draw."),
        (r"\byou type\b", "you play"),
        (r"\band type\b", "and play"),
        (r"\bSo you type\b", "So you play"),
        # the terminal's hint command (the page's Hint button is described in its own section); the par stays
        (r"\s*`hint` shows each move's expected score\.", ""),
    ],
    "ja": [
        (r"と入力し、", "を指し、"),
        (r"と入力します", "を指します"),
        (r"画面に「[^」]*」と一行出て", "攻撃は通り"),
        (r"`hint`は手ごとの期待点を示します。", ""),
    ],
}
"""Terminal wordings and their words for the page, by language."""

_COMMAND_LINE = re.compile(r"`cardtable play [^`]*`(：|: )?")

BROWSER_TITLE = {"en": "In the browser", "ja": "ブラウザーで遊ぶ"}


def _drop_sections(text: str, titles: tuple[str, ...]) -> str:
    """The Markdown without the ``## `` sections of these titles."""
    out: list[str] = []
    skipping = False
    for line in text.splitlines(keepends=True):
        if line.startswith("## "):
            skipping = line[3:].strip() in titles
        if not skipping:
            out.append(line)
    return "".join(out).rstrip("\n") + "\n"


def for_the_page(text: str, game: str, lang: str) -> str:
    """The how-to-play ``text`` of ``game`` in ``lang`` as the page shows it (terminal words replaced, the
    prompt's section dropped, the browser's section added)."""
    text = _drop_sections(text, PROMPT_SECTIONS)
    text = _COMMAND_LINE.sub("", text)
    for pattern, words in _WORDS.get(lang, []):
        text = re.sub(pattern, words, text)
    web = game_webs().get(game)
    browser = web.browser_howto.get(lang) if web is not None else None
    if browser:
        text += f"\n## {BROWSER_TITLE.get(lang, BROWSER_TITLE['en'])}\n\n{browser}\n"
    return text
