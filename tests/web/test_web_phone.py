"""Zeta on a phone and on a desktop: tapping a hand card brings the lit squares into view (the board is far
above the hand on a phone), and every card name fits its square whole, never broken mid-word or cut."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import DESKTOP, PHONE
from .play import hold_seat, wait_turn

pytestmark = pytest.mark.browser

IN_VIEW = """el => { const b = el.getBoundingClientRect(); return b.top >= 0 && b.bottom <= window.innerHeight; }"""

FITS = """async ([names, lines]) => {
  const { boardName } = await import('/client/js/games/zeta.js');
  // put each name in a board square's name box, as the board draws it, and measure it there
  const box = document.querySelector('.zeta-board .sq .sq-name') || (() => {
    const sq = document.querySelector('.zeta-board .sq');
    const span = document.createElement('span');
    span.className = 'sq-name';
    sq.classList.add('occupied');
    sq.append(span);
    return span;
  })();
  const probe = document.createElement('span');
  probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
  box.parentElement.append(probe);
  const bad = [];
  for (const name of names) {
    box.textContent = boardName(name);
    probe.style.font = getComputedStyle(box).font;
    const lineHeight = parseFloat(getComputedStyle(box).lineHeight);
    // a Latin word may break only after a hyphen or at the soft hyphen the board puts in (shown as "-")
    const pieces = boardName(name).split(/\\s+/).flatMap((w) => w.split(/(?<=-)/))
      .flatMap((w) => w.split("\\u00ad").map((p, i, all) => (i < all.length - 1 ? p + "-" : p)));
    for (const word of pieces.filter((w) => /^[A-Za-z-]+$/.test(w))) {
      probe.textContent = word;
      if (probe.getBoundingClientRect().width > box.clientWidth + 0.5) bad.push(`${name}: "${word}" is wider than its square`);
    }
    if (box.scrollHeight > lineHeight * lines + 1) bad.push(`${name}: more than ${lines} lines`);
  }
  probe.remove();
  return bad;
}"""


def test_a_tapped_card_on_a_phone_lights_squares_in_view(server: Any, pages: Any, shot: Any, api: Any) -> None:
    room, token, seat = api.room("zeta", [{"kind": "open"}, {"kind": "bot", "spec": "random"}],
                                 rules={"first_player": "p1"}, setup={"decks": ["classic", "classic"]}, title="Phone")
    page = pages.new(viewport=PHONE)
    hold_seat(page, server.url, room, token, seat, "zeta")
    assert wait_turn(page) == "mine"
    card = page.query_selector(".hand.own .hand-card.placeable")
    assert card is not None, "ZETA-R14: a cost-0 card may be placed on the empty board"
    card.scroll_into_view_if_needed()
    board = page.query_selector(".zeta-board")
    assert not board.evaluate(IN_VIEW), "the hand is below the board on a phone, so the board is out of view"
    card.click()
    page.wait_for_selector(".sq.lit")
    page.wait_for_function("() => { const l = document.querySelector('.sq.lit'); const b = l.getBoundingClientRect(); "
                           "return b.top >= 0 && b.bottom <= window.innerHeight; }", timeout=5_000)
    shot(page, "room-zeta-tapped-phone", full=False)


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_card_name_fits_its_square_whole(server: Any, pages: Any, api: Any, size: dict[str, int]) -> None:
    cards = api("GET", "/web/cards")["zeta"]
    room, _, _ = api.room("zeta", [{"kind": "open"}, {"kind": "bot", "spec": "random"}], join=None)
    for locale, field in (("en-US", "english"), ("ja-JP", "japanese")):
        page = pages.new(locale=locale, viewport=size)
        page.goto(f"{server.url}/room/{room}")
        page.wait_for_selector(".zeta-board .sq")
        lines = 4 if size == PHONE else 3  # a phone's square gives the name a fourth line (the owner mark moves up)
        bad = page.evaluate(FITS, [[c[field] for c in cards], lines])
        assert bad == [], "; ".join(bad)
