"""Two server processes over one PostgreSQL database: a session made on one works on the other, and so does a
passkey challenge (sessions and challenges are rows, not process memory)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from server_support import ServerProcess
from test_accounts_passkeys import SoftAuthenticator

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def test_a_session_made_on_one_process_works_on_the_other(pg_db: str, tmp_path: Path) -> None:
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    a, b = ServerProcess(pg_db, log=logs[0]).start(), ServerProcess(pg_db, log=logs[1]).start()
    try:
        with httpx.Client(timeout=30) as http:
            made = http.post(f"{a.url}/api/account/signup", json={"name": "Alice", "password": "correct horse"})
            assert made.status_code == 201, made.text
            cookie = {"Cookie": f"cardtable_session={made.cookies['cardtable_session']}"}
            csrf = {"X-CSRF-Token": made.json()["csrf"], **cookie}
            http.cookies.clear()
            me = http.get(f"{b.url}/api/account/me", headers=cookie)
            assert me.status_code == 200 and me.json()["account"] == made.json()["account"]
            room = http.post(f"{b.url}/api/rooms", json={"game": "zeta", "seats": [{"kind": "open"}] * 2},
                             headers=csrf).json()["room"]["id"]
            refused = http.post(f"{a.url}/api/rooms/{room}/join", json={"name": "x"}, headers=cookie)
            assert refused.status_code == 403 and refused.json()["error"]["code"] == "csrf"
            joined = http.post(f"{a.url}/api/rooms/{room}/join", json={"name": "x"}, headers=csrf).json()
            assert joined["room"]["seats"][0]["account"] == made.json()["account"]["id"]
            assert http.post(f"{b.url}/api/account/signout", headers=csrf).status_code == 204
            assert http.get(f"{a.url}/api/account/me", headers=cookie).status_code == 401

            # a passkey challenge given by A is answered on B; the sign-in it makes works on A
            device = SoftAuthenticator(origin=a.url, rp_id="127.0.0.1")
            start = http.post(f"{a.url}/api/account/passkeys/register/options", json={"name": "Kei"}).json()
            done = http.post(f"{a.url}/api/account/passkeys/register/verify",
                             json={"challenge_id": start["challenge_id"], "credential": device.create(start["options"])})
            assert done.status_code == 201, done.text
            http.cookies.clear()
            device.origin = b.url
            start = http.post(f"{a.url}/api/account/passkeys/signin/options").json()
            signed = http.post(f"{b.url}/api/account/passkeys/signin/verify",
                               json={"challenge_id": start["challenge_id"], "credential": device.get(start["options"])})
            assert signed.status_code == 200, signed.text
            cookie = {"Cookie": f"cardtable_session={signed.cookies['cardtable_session']}"}
            http.cookies.clear()
            assert http.get(f"{a.url}/api/account/me", headers=cookie).json()["account"]["name"] == "Kei"
    finally:
        a.kill()
        b.kill()
    assert not any("correct horse" in log.read_text(errors="replace") for log in logs)
