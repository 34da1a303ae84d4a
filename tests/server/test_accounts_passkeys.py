"""Passkeys driven by a software authenticator in Python: 'none' attestation, ES256 (P-256), discoverable sign-in."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import cbor2
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient
from server_support import new_app
from test_accounts import CHEAP, ORIGIN, csrf, error, signup

RP_ID = "testserver"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class SoftAuthenticator:
    """One passkey on a software authenticator: an ES256 key, its credential id, user handle and counter."""

    origin: str = ORIGIN
    rp_id: str = RP_ID
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    credential_id: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    user_handle: bytes = b""
    counter: int = 0

    def _client_data(self, kind: str, challenge: str, origin: str | None = None) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin or self.origin,
                           "crossOrigin": False}).encode()

    def _cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})

    def create(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """navigator.credentials.create: a new credential with 'none' attestation."""
        assert options["rp"]["id"] == self.rp_id
        assert options["authenticatorSelection"]["residentKey"] == "required"
        assert {"type": "public-key", "alg": -7} in options["pubKeyCredParams"]
        self.user_handle = unb64url(options["user"]["id"])
        attested = b"\0" * 16 + struct.pack(">H", len(self.credential_id)) + self.credential_id + self._cose_key()
        auth_data = (hashlib.sha256(self.rp_id.encode()).digest() + bytes([0x01 | 0x04 | 0x40])
                     + struct.pack(">I", self.counter) + attested)
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": b64url(self.credential_id), "rawId": b64url(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64url(client_data), "attestationObject": b64url(attestation),
                             "transports": ["internal"]},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}

    def get(self, options: dict[str, Any], counter_step: int = 1) -> dict[str, Any]:
        """navigator.credentials.get: an ES256 assertion over the authenticator data and the client data's hash."""
        assert options["rpId"] == self.rp_id and options.get("allowCredentials", []) == []
        self.counter += counter_step
        auth_data = hashlib.sha256(self.rp_id.encode()).digest() + bytes([0x01 | 0x04]) + struct.pack(">I", self.counter)
        client_data = self._client_data("webauthn.get", options["challenge"])
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": b64url(self.credential_id), "rawId": b64url(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64url(client_data), "authenticatorData": b64url(auth_data),
                             "signature": b64url(signature), "userHandle": b64url(self.user_handle)},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}


@pytest.fixture
def client(sqlite_db: str) -> Iterator[TestClient]:
    with TestClient(new_app(sqlite_db, **CHEAP)) as c:
        yield c


def passkey_signup(client: TestClient, device: SoftAuthenticator, name: str = "Kei") -> dict[str, Any]:
    start = client.post("/api/account/passkeys/register/options", json={"name": name})
    assert start.status_code == 200, start.text
    done = client.post("/api/account/passkeys/register/verify",
                       json={"challenge_id": start.json()["challenge_id"], "credential": device.create(start.json()["options"]),
                             "label": "phone"})
    assert done.status_code == 201, done.text
    out: dict[str, Any] = done.json()
    return out


def passkey_signin(client: TestClient, device: SoftAuthenticator, counter_step: int = 1) -> Any:
    start = client.post("/api/account/passkeys/signin/options").json()
    return client.post("/api/account/passkeys/signin/verify",
                       json={"challenge_id": start["challenge_id"], "credential": device.get(start["options"], counter_step)})


def test_sign_up_with_a_passkey_then_sign_in_with_it(client: TestClient) -> None:
    device = SoftAuthenticator()
    made = passkey_signup(client, device)
    assert made["account"]["name"] == "Kei"
    me = client.get("/api/account/me").json()
    assert me["has_password"] is False and [k["label"] for k in me["passkeys"]] == ["phone"]
    assert me["passkeys"][0]["id"] == b64url(device.credential_id) and me["passkeys"][0]["last_used"] is None
    client.post("/api/account/signout", headers=csrf(made))
    other = TestClient(client.app)
    answer = passkey_signin(other, device)
    assert answer.status_code == 200, answer.text
    assert answer.json()["account"] == made["account"]
    me = other.get("/api/account/me").json()
    assert me["passkeys"][0]["last_used"] is not None


def test_the_sign_counter_is_stored_and_a_replayed_counter_is_refused(client: TestClient, sqlite_db: str) -> None:
    from cardtable.store.accounts import Accounts

    device = SoftAuthenticator()
    passkey_signup(client, device)
    assert passkey_signin(TestClient(client.app), device, counter_step=5).status_code == 200
    accounts = Accounts(client.app.state.services.store)
    assert accounts.passkey(b64url(device.credential_id)).sign_count == 5  # type: ignore[union-attr]
    device.counter = 3  # a cloned authenticator: its counter went back
    error(passkey_signin(TestClient(client.app), device, counter_step=1), 400, "passkey_failed")


def test_a_challenge_is_used_once(client: TestClient) -> None:
    device = SoftAuthenticator()
    passkey_signup(client, device)
    start = client.post("/api/account/passkeys/signin/options").json()
    answer = device.get(start["options"])
    body = {"challenge_id": start["challenge_id"], "credential": answer}
    assert client.post("/api/account/passkeys/signin/verify", json=body).status_code == 200
    error(client.post("/api/account/passkeys/signin/verify", json=body), 400, "passkey_failed")


def test_a_challenge_expires_after_five_minutes(client: TestClient) -> None:
    from datetime import timedelta

    from sqlalchemy import update

    from cardtable.store.models import ChallengeRow, utcnow

    device = SoftAuthenticator()
    start = client.post("/api/account/passkeys/register/options", json={"name": "Kei"}).json()
    with client.app.state.services.store.transaction() as conn:
        conn.execute(update(ChallengeRow).values(expires_at=utcnow() - timedelta(seconds=1)))
    error(client.post("/api/account/passkeys/register/verify",
                      json={"challenge_id": start["challenge_id"], "credential": device.create(start["options"])}),
          400, "passkey_failed")


def test_a_wrong_origin_or_a_forged_signature_is_refused(client: TestClient) -> None:
    device = SoftAuthenticator()
    start = client.post("/api/account/passkeys/register/options", json={"name": "Kei"}).json()
    error(client.post("/api/account/passkeys/register/verify",
                      json={"challenge_id": start["challenge_id"],
                            "credential": device.create(start["options"], origin="https://evil.example")}),
          400, "passkey_failed")
    passkey_signup(client, device)
    thief = SoftAuthenticator(credential_id=device.credential_id)  # same id, another key
    error(passkey_signin(TestClient(client.app), thief), 400, "passkey_failed")
    error(passkey_signin(TestClient(client.app), SoftAuthenticator()), 400, "passkey_failed")  # unknown credential


def test_a_signed_in_account_adds_and_removes_passkeys(client: TestClient) -> None:
    made = signup(client, "Alice")
    device = SoftAuthenticator()
    start = client.post("/api/account/passkeys/register/options", json={}, headers=csrf(made))
    assert start.status_code == 200
    assert start.json()["options"]["user"]["name"] == "Alice"
    added = client.post("/api/account/passkeys/register/verify",
                        json={"challenge_id": start.json()["challenge_id"],
                              "credential": device.create(start.json()["options"]), "label": "laptop"},
                        headers=csrf(made))
    assert added.status_code == 200 and added.json()["account"] == made["account"]
    keys = client.get("/api/account/me").json()["passkeys"]
    assert [k["label"] for k in keys] == ["laptop"]
    stranger = TestClient(client.app)
    assert passkey_signin(stranger, device).json()["account"]["id"] == made["account"]["id"]
    bob = signup(stranger, "Bob")
    error(stranger.delete(f"/api/account/passkeys/{keys[0]['id']}", headers=csrf(bob)), 404, "not_found")
    assert client.delete(f"/api/account/passkeys/{keys[0]['id']}", headers=csrf(made)).status_code == 204
    assert client.get("/api/account/me").json()["passkeys"] == []


def test_a_passkey_only_account_keeps_its_last_passkey_and_deletes_by_name(client: TestClient) -> None:
    device = SoftAuthenticator()
    made = passkey_signup(client, device)
    key = client.get("/api/account/me").json()["passkeys"][0]["id"]
    error(client.delete(f"/api/account/passkeys/{key}", headers=csrf(made)), 409, "passkey_failed")
    error(client.post("/api/account/delete", json={"confirm": "Someone"}, headers=csrf(made)), 401, "bad_credentials")
    assert client.post("/api/account/delete", json={"confirm": "kei"}, headers=csrf(made)).status_code == 204
    error(passkey_signin(TestClient(client.app), device), 400, "passkey_failed")


def test_a_passkey_sign_up_needs_a_free_name(client: TestClient) -> None:
    signup(client, "Kei")
    stranger = TestClient(client.app)
    error(stranger.post("/api/account/passkeys/register/options", json={"name": "KEI"}), 409, "name_taken")
    error(stranger.post("/api/account/passkeys/register/options", json={}), 400, "bad_name")
    error(stranger.post("/api/account/passkeys/register/options", json={"name": "Ann"},
                        headers={"Origin": "https://evil.example"}), 403, "csrf")
