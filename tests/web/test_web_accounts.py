"""Accounts in the browser: sign up with a password or a passkey (Chromium's virtual authenticator), sign out
and in, a rated Zeta game between two accounts whose new ratings show on the end screen, the profile and the
leaderboard, a guest who signs up and finds their game, the rated room a guest cannot sit in, and a name
that looks like markup shown as text."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .accounts import PASSWORD, Person, play_out, sign_up_in_page, unique
from .play import both_sizes

pytestmark = pytest.mark.browser


def seat_token(page: Any, room: str) -> str:
    """The seat token the page's browser keeps for a room."""
    return str(page.evaluate("room => JSON.parse(localStorage.getItem('cardtable.seats'))[room].token", room))


def local(server: Any) -> str:
    """The server's address by name: a passkey's relying party is a domain, never an IP address."""
    return str(server.url).replace("127.0.0.1", "localhost")


def add_authenticator(page: Any) -> None:
    """Give the page's browser a device that makes passkeys (Chromium's DevTools virtual authenticator)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True}})


def signed_in_page(pages: Any, person: Person, **options: Any) -> Any:
    """A browser signed in as ``person`` (its session cookie, as after a sign-in)."""
    page = pages.new(**options)
    page.context.add_cookies([person.cookie()])
    return page


def test_sign_up_with_a_password_then_sign_out_and_in_and_a_markup_name_stays_text(server: Any, pages: Any, shot: Any) -> None:
    page = pages.new()
    base = local(server)
    dialogs: list[str] = []

    def dialog(d: Any) -> None:
        dialogs.append(d.message)  # a script that ran would say so here
        d.dismiss()

    page.on("dialog", dialog)
    page.goto(base + "/signup")
    page.wait_for_selector("#signup-form")
    both_sizes(page, shot, "account-signup")
    # the page checks what it can before asking the server
    page.fill("#account-name", "Aki")
    page.fill("#account-password", "short")
    page.click("[data-key=signup]")
    assert page.get_attribute(".alert", "data-code") == "weak_password"
    name = unique("<script>alert(1)</script>")
    sign_up_in_page(page, base, name)
    # the name is text everywhere: the profile's heading, the header's menu; no script ran or was added
    assert page.inner_text("#player-name") == name
    assert page.inner_text("#account-menu .account-name") == name
    assert page.evaluate("document.querySelectorAll('script').length") == 1
    assert page.query_selector("#player-name *") is None and not dialogs
    assert "Welcome" in page.inner_text("#welcome")
    # sign out from the menu: the header offers "Sign in" again
    page.click("#account-menu summary")
    page.click("[data-key=sign-out]")
    page.wait_for_selector("a#account-menu[href='/signin']")
    # a wrong password is refused with one message that does not say whether the name exists
    page.goto(base + "/signin")
    page.fill("#account-name", name)
    page.fill("#account-password", "not the password")
    page.click("[data-key=signin]")
    page.wait_for_selector(".alert[data-code=bad_credentials]")
    page.fill("#account-password", PASSWORD)
    page.click("[data-key=signin]")
    page.wait_for_selector("#account-menu .account-name")
    assert page.inner_text("#account-menu .account-name") == name
    # a signed-in player adds a passkey in the settings (Chromium's virtual authenticator is the device)
    add_authenticator(page)
    page.goto(base + "/account")
    page.click("[data-key=add-passkey]")
    page.wait_for_selector(".passkey-row")
    assert "The passkey is added" in page.inner_text(".notice")


def test_sign_up_with_a_passkey_and_sign_in_with_it(server: Any, pages: Any) -> None:
    page = pages.new()
    add_authenticator(page)
    base = local(server)
    page.goto(base + "/signup")
    name = unique("Mio")
    page.fill("#account-name", name)
    page.click("[data-key=signup-passkey]")
    page.wait_for_selector("#player-name")
    assert page.inner_text("#player-name") == name
    page.goto(base + "/account")
    page.wait_for_selector(".passkey-row")
    assert len(page.query_selector_all(".passkey-row")) == 1
    # a passkey account has no password: deleting it asks for its name
    page.click("#account-menu summary")
    page.click("[data-key=sign-out]")
    page.wait_for_selector("a#account-menu")
    page.goto(base + "/signin")
    page.click("[data-key=signin-passkey]")
    page.wait_for_selector("#account-menu .account-name")
    assert page.inner_text("#account-menu .account-name") == name
    # the settings: the only passkey cannot go before a password comes; then it can, and the account is deleted
    page.on("dialog", lambda d: d.accept())
    page.goto(base + "/account")
    page.wait_for_selector(".passkey-row")
    page.click(".passkey-row button")
    page.wait_for_selector(".alert")
    assert len(page.query_selector_all(".passkey-row")) == 1
    page.fill("#password-new", PASSWORD)
    page.click("[data-key=change-password]")
    page.wait_for_selector("#password-current")  # it has a password now: changing it asks for the current one
    page.click(".passkey-row button")
    page.wait_for_selector(".passkey-row", state="detached")
    account_id = page.evaluate("() => fetch('/api/account/me').then(r => r.json()).then(d => d.account.id)")
    page.click("[data-key=delete]")
    page.fill("#delete-password", "wrong password")
    page.click("[data-key=delete-confirm]")
    page.wait_for_selector(".alert[data-code=bad_credentials]")
    page.fill("#delete-password", PASSWORD)
    page.click("[data-key=delete-confirm]")
    page.wait_for_selector("a#account-menu[href='/signin']")
    assert page.evaluate("() => fetch('/api/account/me').then(r => r.status)") == 401
    # its profile stays, under "deleted player"
    page.goto(f"{base}/players/{account_id}")
    page.wait_for_selector("#player-name")
    assert page.inner_text("#player-name") == "deleted player"


def test_two_accounts_play_a_rated_zeta_game_and_see_their_new_ratings(server: Any, pages: Any, shot: Any) -> None:
    aki, emi = Person(server.url, unique("Aki")), Person(server.url, unique("Emi"))
    one, two = signed_in_page(pages, aki), signed_in_page(pages, emi)
    # Aki makes a rated room in the lobby: its seats are people (no bot on offer)
    one.goto(server.url + "/")
    one.wait_for_selector("[data-key=rated]")
    one.click("[data-key=game-zeta]")
    one.check("[data-key=rated]")
    assert one.query_selector("[data-key=seat-1] option[value^='bot:']") is None
    one.click("[data-key=create]")
    one.wait_for_url("**/room/*")
    room = one.url.split("/room/")[1].split("?")[0]
    one.wait_for_selector(".badge-rated")
    # a guest sees what to do instead of a seat to take
    guest = pages.new()
    guest.goto(f"{server.url}/room/{room}")
    guest.wait_for_selector("#needs-account")
    assert guest.query_selector("[data-key^=join-]") is None
    # Emi takes the other seat under her account's name
    two.goto(f"{server.url}/room/{room}")
    two.click("[data-key=join-1]")
    two.wait_for_selector(".seat-row.you")
    play_out(server.url, room, [seat_token(one, room), seat_token(two, room)])
    for page, person in ((one, aki), (two, emi)):
        page.wait_for_selector("#rating-changes .rating-change", timeout=20_000)
        rows = page.eval_on_selector_all("#rating-changes .rating-change", "els => els.map(e => e.innerText)")
        assert len(rows) == 2 and all("provisional" in r for r in rows), rows
        assert any(person.name in r for r in rows)
    changes = aki("GET", f"/api/rooms/{room}/games/1/ratings")["changes"]
    mine = next(c for c in changes if c["account"] == aki.id)
    assert str(mine["after"]) in one.inner_text(f"#rating-changes [data-seat='{mine['seat']}']")
    both_sizes(one, shot, "room-rated-end")
    # the profile: the rating with its history (before and after the game), the game with Emi and its replay
    one.goto(f"{server.url}/players/{aki.id}")
    one.wait_for_selector(".rating-card svg.rating-chart")
    assert str(mine["after"]) in one.inner_text(".rating-card .rating-value")
    assert len(one.query_selector_all(".rating-card svg.rating-chart circle")) == 2
    recent = one.inner_text(f"#recent [data-room='{room}']")
    assert emi.name in recent
    assert one.query_selector(f"#recent [data-room='{room}'] a[href^='/replay/']") is not None
    # the leaderboard: one game is not enough to be listed; Emi is told where she stands
    two.goto(f"{server.url}/leaderboards/zeta")
    two.wait_for_selector("#my-rank")
    theirs = next(c for c in changes if c["account"] == emi.id)
    assert str(theirs["after"]) in two.inner_text("#my-rank") and "9 more rated games" in two.inner_text("#my-rank")
    aki.close()
    emi.close()


def test_a_guest_plays_then_signs_up_and_finds_that_game_in_their_history(server: Any, pages: Any, api: Any) -> None:
    room, token, seat = api.room("zeta", [{"kind": "open"}, {"kind": "bot", "spec": "random"}], join="Guest")
    assert token is not None
    play_out(server.url, room, [token])
    page = pages.new()
    page.goto(server.url + "/decks")
    entry = {room: {"token": token, "seat": seat, "name": "Guest", "game": "zeta", "title": ""}}
    page.evaluate("e => localStorage.setItem('cardtable.seats', e)", json.dumps(entry))
    sign_up_in_page(page, server.url, unique("Sora"))
    assert "1 seat you played in this browser is now yours" in page.inner_text("#welcome")
    page.wait_for_selector(f"#recent [data-room='{room}']")
    assert "P2 (random moves)" in page.inner_text(f"#recent [data-room='{room}']")
