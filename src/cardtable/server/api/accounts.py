"""``/api/account/...``: signing up and in (a password or a passkey), sessions, and a player's own account.

Every answer about an account is about the signed-in player's own: nothing here returns another
player's sessions or passkeys. Sign-in never says whether a name exists: a wrong name, a wrong
password, a disabled or a deleted account all get ``bad_credentials`` with one message.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from datetime import datetime, timedelta
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import IntegrityError
from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.structs import (
    AttestationConveyancePreference,
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from cardtable.core.errors import ErrorCode
from cardtable.store import Store
from cardtable.store.accounts import DELETED_NAME, Account, Accounts, name_key
from cardtable.store.models import utcnow

from .. import access
from ..access import SECRET_MAX
from ..auth import SIGNED_OUT, CurrentSession, RequireAccount, RequireSession, clear_cookie, session_of, start_session
from ..errors import Refusal, responses
from ..rooms import OPEN_NAME, control_characters
from ..services import Services
from ..throttle import address_of
from .deps import ServicesDep

router = APIRouter(tags=["accounts"])

NAME_MAX = 32
"""The longest display name (characters, once spaces are squeezed)."""
PASSWORD_MIN = 8
"""The shortest password."""
PASSWORD_MAX = 256
"""The longest password."""
INPUT_MAX = 1024
"""The longest name or password a body may carry at all (longer ones are refused by the schema)."""
MAX_CLAIMS = 500
"""The most seat tokens one claim may carry."""

BAD_CREDENTIALS = "that name and password do not match an account that can sign in"
WRONG_PASSWORD = "that is not the account's current password"


class _Body(BaseModel):
    """A request body: no unknown fields, no coercion."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Credentials(_Body):
    """A display name and a password (sign-up, sign-in)."""

    name: str = Field(max_length=INPUT_MAX, description=f"1 to {NAME_MAX} characters once spaces are squeezed; no "
                                                        "control characters (bad_name).")
    password: str = Field(max_length=INPUT_MAX, description=f"{PASSWORD_MIN} to {PASSWORD_MAX} characters "
                                                            "(weak_password).")


class AccountOut(BaseModel):
    """A player's account as its owner sees it."""

    id: str
    name: str
    created_at: datetime


class SignedIn(BaseModel):
    """The answer of a sign-up or sign-in (the session cookie comes with it)."""

    account: AccountOut
    csrf: str = Field(description="Send it as X-CSRF-Token with every state-changing request of this session.")


class PasskeyOut(BaseModel):
    """One of the player's own passkeys."""

    id: str = Field(description="The credential id, base64url.")
    label: str
    created_at: datetime
    last_used: datetime | None


class MeOut(BaseModel):
    """The signed-in player's own account, its CSRF token and passkeys."""

    account: AccountOut
    csrf: str
    passkeys: list[PasskeyOut]
    has_password: bool


class PasswordChange(_Body):
    """The current password (empty for an account that has none yet) and the new one."""

    current: str = Field("", max_length=INPUT_MAX)
    new: str = Field(max_length=INPUT_MAX, description=f"{PASSWORD_MIN} to {PASSWORD_MAX} characters.")


class DeleteIn(_Body):
    """What confirms a deletion: the password, or for an account without one, its name typed again."""

    password: str | None = Field(None, max_length=INPUT_MAX)
    confirm: str | None = Field(None, max_length=INPUT_MAX)


class ClaimIn(_Body):
    """Seat tokens this browser holds as a guest."""

    tokens: list[str] = Field(max_length=MAX_CLAIMS, description="Seat tokens from POST /api/rooms/{room_id}/join.")


class Claimed(BaseModel):
    """How many seats became the account's."""

    claimed: int


# -- checks ----------------------------------------------------------------------------------------------
def check_account_name(name: str) -> str:
    """A display name: spaces squeezed, 1 to 32 characters, no control characters, not a reserved name;
    Refusal ``bad_name``."""
    bad = control_characters(name)
    if bad:
        raise Refusal(ErrorCode.BAD_NAME, f"a name must not hold control characters ({', '.join(bad[:3])})")
    text = " ".join(name.split())
    if not text or len(text) > NAME_MAX:
        raise Refusal(ErrorCode.BAD_NAME, f"a name has 1 to {NAME_MAX} characters")
    if name_key(text) in (name_key(DELETED_NAME), name_key(OPEN_NAME)):
        raise Refusal(ErrorCode.BAD_NAME, f"{text} is a name the tables use; choose another name")
    return text


def check_password(password: str) -> str:
    """A new password of 8 to 256 characters; Refusal ``weak_password``."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Refusal(ErrorCode.WEAK_PASSWORD, f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return password


def account_out(account: Account) -> AccountOut:
    """The JSON of an account for its owner."""
    return AccountOut(id=account.id, name=account.name, created_at=account.created_at)


def accounts_of(services: Services) -> Accounts:
    """The account tables of the running server (503 while it starts or stops)."""
    store: Store = services.parts()[0]
    return Accounts(store)


async def signed_in(request: Request, services: Services, account: Account) -> SignedIn:
    """Start a session for ``account`` on this browser: the sign-in answer."""
    csrf = await start_session(request, services, account)
    return SignedIn(account=account_out(account), csrf=csrf)


# -- passwords -------------------------------------------------------------------------------------------
@router.post("/api/account/signup", status_code=201, response_model=SignedIn, responses=responses(400, 403, 409))
async def signup(body: Credentials, request: Request, services: ServicesDep) -> SignedIn:
    """Make an account with a display name and a password, and sign in (the session cookie is set)."""
    name = check_account_name(body.name)
    check_password(body.password)
    accounts = accounts_of(services)
    hashed = await asyncio.to_thread(services.passwords.hash, body.password)
    account = await asyncio.to_thread(accounts.create, name, hashed)
    return await signed_in(request, services, account)


@router.post("/api/account/signin", response_model=SignedIn, responses=responses(400, 401, 403, 429))
async def signin(body: Credentials, request: Request, services: ServicesDep) -> SignedIn:
    """Sign in with a name and a password. Any failure is ``bad_credentials``; 10 failures per minute per name
    (30 per address) and every attempt after is ``rate_limited``."""
    accounts = accounts_of(services)
    key, address = name_key(body.name)[:INPUT_MAX], address_of(request.client)
    services.logins.check(key, address)
    found = await asyncio.to_thread(accounts.find, body.name)
    stored = found[1] if found is not None and found[0].active else None
    ok, newer = await asyncio.to_thread(services.passwords.verify, body.password, stored)
    if not ok or found is None:
        services.logins.failed(key, address)
        raise Refusal(ErrorCode.BAD_CREDENTIALS, BAD_CREDENTIALS, status=401)
    account = found[0]
    if newer is not None and stored is not None:
        await asyncio.to_thread(accounts.rehash, account.id, stored, newer)
    return await signed_in(request, services, account)


@router.post("/api/account/signout", status_code=204, response_class=Response, responses=responses(403))
async def signout(request: Request, services: ServicesDep) -> Response:
    """Sign out: this browser's session ends and its cookie is cleared (fine without one)."""
    session = await session_of(request.scope, services)
    if session is not None:
        await asyncio.to_thread(accounts_of(services).end_session, session.token_hash)
    clear_cookie(request, services)
    return Response(status_code=204)


@router.get("/api/account/me", response_model=MeOut, responses=responses(401))
async def me(session: RequireSession, services: ServicesDep) -> MeOut:
    """The signed-in player's account, this session's CSRF token and the account's passkeys."""
    accounts = accounts_of(services)
    keys = await asyncio.to_thread(accounts.passkeys, session.account.id)
    stored = await asyncio.to_thread(accounts.password_hash, session.account.id)
    return MeOut(account=account_out(session.account), csrf=session.csrf, has_password=stored is not None,
                 passkeys=[PasskeyOut(id=k.id, label=k.label, created_at=k.created_at, last_used=k.last_used)
                           for k in keys])


async def _check_current(request: Request, services: Services, account: Account, password: str,
                         stored: str | None) -> None:
    """Refusal ``bad_credentials`` unless ``password`` is the account's (counted like a failed sign-in)."""
    key, address = name_key(account.name), address_of(request.client)
    services.logins.check(key, address)
    ok, _ = await asyncio.to_thread(services.passwords.verify, password, stored)
    if not ok:
        services.logins.failed(key, address)
        raise Refusal(ErrorCode.BAD_CREDENTIALS, WRONG_PASSWORD, status=401)


@router.post("/api/account/password", status_code=204, response_class=Response, responses=responses(400, 401, 403, 429))
async def change_password(body: PasswordChange, request: Request, session: RequireSession,
                          services: ServicesDep) -> Response:
    """Change the password (the current one first, unless the account has none); other sessions end."""
    check_password(body.new)
    accounts = accounts_of(services)
    stored = await asyncio.to_thread(accounts.password_hash, session.account.id)
    if stored is not None:
        await _check_current(request, services, session.account, body.current, stored)
    hashed = await asyncio.to_thread(services.passwords.hash, body.new)
    await asyncio.to_thread(accounts.set_password, session.account.id, hashed, keep_session=session.token_hash)
    return Response(status_code=204)


@router.post("/api/account/delete", status_code=204, response_class=Response, responses=responses(400, 401, 403, 429))
async def delete_account(body: DeleteIn, request: Request, session: RequireSession, services: ServicesDep) -> Response:
    """Delete the account: its password, passkeys and sessions go, its games stay under "deleted player".
    Confirmed by the password, or for an account without one by its name (``confirm``)."""
    accounts = accounts_of(services)
    account = session.account
    stored = await asyncio.to_thread(accounts.password_hash, account.id)
    if stored is not None:
        await _check_current(request, services, account, body.password or "", stored)
    elif body.confirm is None or name_key(body.confirm) != name_key(account.name):
        raise Refusal(ErrorCode.BAD_CREDENTIALS, "type the account's name in confirm to delete it", status=401)
    await asyncio.to_thread(accounts.delete, account.id)
    clear_cookie(request, services)
    return Response(status_code=204)


# -- guests' seats ---------------------------------------------------------------------------------------
@router.post("/api/account/claim", response_model=Claimed, responses=responses(400, 401, 403))
async def claim(body: ClaimIn, account: RequireAccount, services: ServicesDep) -> Claimed:
    """Make the guest seats these tokens hold (and the games their holder played in them) the account's: what a
    guest who just signed up calls with the seat tokens this browser kept. Unknown tokens are skipped."""
    store, hub = services.parts()
    hashes = [access.digest(t) for t in body.tokens if 0 < len(t) <= SECRET_MAX]
    rooms = await asyncio.to_thread(Accounts(store).claim, account.id, hashes)
    for room_id in dict.fromkeys(rooms):
        await hub.refresh(room_id)
    return Claimed(claimed=len(rooms))


# -- passkeys --------------------------------------------------------------------------------------------
CHALLENGE_AGE = timedelta(minutes=5)
"""How long a passkey challenge waits for its answer (it is used once)."""
RP_NAME = "cardtable"
"""The relying party's name authenticators show."""
REGISTER, SIGNIN = "register", "signin"
"""The purposes of a stored challenge."""
CHALLENGE_ID = r"^[A-Za-z0-9_-]{1,24}$"
CREDENTIAL_ID = r"^[A-Za-z0-9_-]{1,512}$"
PASSKEY_FAILED = "the passkey could not be checked: try again"


class RegisterOptionsIn(_Body):
    """Signed in: nothing (a passkey is added to the account). Signed out: the display name of a new account."""

    name: str | None = Field(None, max_length=INPUT_MAX)


class ChallengeOut(BaseModel):
    """A passkey challenge: its id (send it back with the answer) and the options for the browser's WebAuthn call."""

    challenge_id: str
    options: dict[str, Any] = Field(description="PublicKeyCredentialCreationOptions or RequestOptions as JSON "
                                                "(binary fields base64url), as webauthn's options_to_json writes them.")


class RegisterVerifyIn(_Body):
    """The browser's answer to a registration challenge, and a label for the passkey."""

    challenge_id: str = Field(pattern=CHALLENGE_ID)
    credential: dict[str, Any] = Field(description="The PublicKeyCredential as JSON (RegistrationResponseJSON).")
    label: str | None = Field(None, max_length=INPUT_MAX)


class SigninVerifyIn(_Body):
    """The browser's answer to a sign-in challenge."""

    challenge_id: str = Field(pattern=CHALLENGE_ID)
    credential: dict[str, Any] = Field(description="The PublicKeyCredential as JSON (AuthenticationResponseJSON).")


def relying_party(request: Request, services: Services) -> tuple[str, list[str]]:
    """The WebAuthn relying party id (the setting, else the request's host name) and the origins accepted
    (the request's own, and the trusted ones)."""
    host = request.headers.get("host") or (request.url.hostname or "localhost")
    scheme = "https" if is_https_request(request) else "http"
    rp_id = services.settings.rp_id or (urlsplit(f"//{host}").hostname or host)
    return rp_id, [f"{scheme}://{host}", *services.settings.trusted_origins]


def is_https_request(request: Request) -> bool:
    """Whether the request came over https (its scheme or ``X-Forwarded-Proto``)."""
    forwarded = request.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
    return request.url.scheme == "https" or forwarded == "https"


def check_label(label: str | None) -> str:
    """A passkey's label: squeezed, at most 32 characters, no control characters (``passkey`` if empty)."""
    if label is not None and control_characters(label):
        raise Refusal(ErrorCode.BAD_NAME, "a label must not hold control characters")
    text = " ".join((label or "").split())
    if len(text) > NAME_MAX:
        raise Refusal(ErrorCode.BAD_NAME, f"a label has at most {NAME_MAX} characters")
    return text or "passkey"


def _failed(message: str = PASSKEY_FAILED) -> Refusal:
    return Refusal(ErrorCode.PASSKEY_FAILED, message)


@router.post("/api/account/passkeys/register/options", response_model=ChallengeOut, responses=responses(400, 403, 409))
async def passkey_register_options(body: RegisterOptionsIn, request: Request, session: CurrentSession,
                                   services: ServicesDep) -> ChallengeOut:
    """Start registering a passkey: signed in, it is added to the account; signed out, it makes a new account
    named ``name``. The answer's options go to ``navigator.credentials.create``."""
    accounts = accounts_of(services)
    rp_id, _ = relying_party(request, services)
    if session is not None:
        account_id, name, user_id = session.account.id, session.account.name, session.account.id.encode()
        exclude = [PublicKeyCredentialDescriptor(id=base64url_to_bytes(k.id))
                   for k in await asyncio.to_thread(accounts.passkeys, account_id)]
    else:
        if body.name is None:
            raise Refusal(ErrorCode.BAD_NAME, "a new account needs a name")
        account_id, name, user_id, exclude = None, check_account_name(body.name), secrets.token_bytes(16), []
        if await asyncio.to_thread(accounts.find, name) is not None:
            raise Refusal(ErrorCode.NAME_TAKEN, f"the name {name!r} is taken", status=409)
    options = generate_registration_options(
        rp_id=rp_id, rp_name=RP_NAME, user_name=name, user_id=user_id, user_display_name=name,
        attestation=AttestationConveyancePreference.NONE, exclude_credentials=exclude,
        authenticator_selection=AuthenticatorSelectionCriteria(resident_key=ResidentKeyRequirement.REQUIRED,
                                                               user_verification=UserVerificationRequirement.PREFERRED))
    challenge_id = await asyncio.to_thread(accounts.new_challenge, bytes_to_base64url(options.challenge), REGISTER,
                                           account_id, name if account_id is None else "", utcnow() + CHALLENGE_AGE)
    return ChallengeOut(challenge_id=challenge_id, options=json.loads(options_to_json(options)))


@router.post("/api/account/passkeys/register/verify", response_model=SignedIn,
             responses={201: {"model": SignedIn, "description": "A new account was made and signed in."},
                        **responses(400, 401, 403, 409)})
async def passkey_register_verify(body: RegisterVerifyIn, request: Request, response: Response,
                                  session: CurrentSession, services: ServicesDep) -> SignedIn:
    """Finish registering a passkey: added to the signed-in account (200), or a new account signed in (201)."""
    accounts = accounts_of(services)
    label = check_label(body.label)
    challenge = await asyncio.to_thread(accounts.take_challenge, body.challenge_id, REGISTER)
    if challenge is None:
        raise _failed("that passkey challenge is unknown, used or expired: start again")
    if challenge.account_id is not None and (session is None or session.account.id != challenge.account_id):
        raise Refusal(ErrorCode.NOT_SIGNED_IN, SIGNED_OUT, status=401)
    rp_id, origins = relying_party(request, services)
    try:
        verified = verify_registration_response(credential=body.credential,
                                                expected_challenge=base64url_to_bytes(challenge.challenge),
                                                expected_rp_id=rp_id, expected_origin=origins)
    except Exception:  # noqa: BLE001 - whatever is wrong with the answer, it is refused the same way
        raise _failed() from None
    credential_id = bytes_to_base64url(verified.credential_id)
    transports = [str(t) for t in (body.credential.get("response") or {}).get("transports", []) if isinstance(t, str)]
    key = (credential_id, verified.credential_public_key, verified.sign_count, transports[:8], label)
    try:
        if session is not None and challenge.account_id is not None:
            await asyncio.to_thread(accounts.add_passkey, session.account.id, *key)
            return SignedIn(account=account_out(session.account), csrf=session.csrf)
        account = await asyncio.to_thread(accounts.create_with_passkey, challenge.name, *key)
    except IntegrityError:
        raise _failed("this passkey is registered already") from None
    response.status_code = 201
    return await signed_in(request, services, account)


@router.post("/api/account/passkeys/signin/options", response_model=ChallengeOut, responses=responses(403))
async def passkey_signin_options(request: Request, services: ServicesDep) -> ChallengeOut:
    """Start signing in with a passkey (a discoverable credential: the browser offers the passkeys it holds for
    this site). The answer's options go to ``navigator.credentials.get``."""
    accounts = accounts_of(services)
    rp_id, _ = relying_party(request, services)
    options = generate_authentication_options(rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED)
    challenge_id = await asyncio.to_thread(accounts.new_challenge, bytes_to_base64url(options.challenge), SIGNIN,
                                           None, "", utcnow() + CHALLENGE_AGE)
    return ChallengeOut(challenge_id=challenge_id, options=json.loads(options_to_json(options)))


@router.post("/api/account/passkeys/signin/verify", response_model=SignedIn, responses=responses(400, 403))
async def passkey_signin_verify(body: SigninVerifyIn, request: Request, services: ServicesDep) -> SignedIn:
    """Finish signing in with a passkey: its signature is checked and its signature counter stored."""
    accounts = accounts_of(services)
    challenge = await asyncio.to_thread(accounts.take_challenge, body.challenge_id, SIGNIN)
    if challenge is None:
        raise _failed("that passkey challenge is unknown, used or expired: start again")
    raw_id = body.credential.get("id")
    key = await asyncio.to_thread(accounts.passkey, raw_id) if isinstance(raw_id, str) and len(raw_id) <= 512 else None
    account = None if key is None else await asyncio.to_thread(accounts.get, key.account_id)
    if key is None or account is None or not account.active:
        raise _failed()
    rp_id, origins = relying_party(request, services)
    try:
        verified = verify_authentication_response(
            credential=body.credential, expected_challenge=base64url_to_bytes(challenge.challenge),
            expected_rp_id=rp_id, expected_origin=origins, credential_public_key=key.public_key,
            credential_current_sign_count=key.sign_count)
    except Exception:  # noqa: BLE001 - a bad signature, a counter gone back, a wrong origin: refused alike
        raise _failed() from None
    await asyncio.to_thread(accounts.use_passkey, key.id, verified.new_sign_count)
    return await signed_in(request, services, account)


@router.delete("/api/account/passkeys/{passkey_id}", status_code=204, response_class=Response,
               responses=responses(401, 403, 404, 409))
async def passkey_delete(passkey_id: Annotated[str, Path(pattern=CREDENTIAL_ID)], account: RequireAccount,
                         services: ServicesDep) -> Response:
    """Remove one of the account's passkeys (never its last way to sign in)."""
    accounts = accounts_of(services)
    keys = await asyncio.to_thread(accounts.passkeys, account.id)
    if passkey_id not in {k.id for k in keys}:
        raise Refusal(ErrorCode.NOT_FOUND, "the account has no such passkey", status=404)
    if len(keys) == 1 and await asyncio.to_thread(accounts.password_hash, account.id) is None:
        raise Refusal(ErrorCode.PASSKEY_FAILED, "this is the account's only way to sign in: set a password first",
                      status=409)
    await asyncio.to_thread(accounts.remove_passkey, account.id, passkey_id)
    return Response(status_code=204)
