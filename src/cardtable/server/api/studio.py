"""``/api/studio/...``: the designer's studio: card sets checked and saved, studies launched, watched,
cancelled and shared, and their reports (docs/server.md, "Studio"; docs/studio.md)."""

from __future__ import annotations

import asyncio
import functools
import secrets
import tempfile
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request, WebSocket
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import insert, select
from starlette.websockets import WebSocketDisconnect

from cardtable.core import cardset
from cardtable.core.errors import ErrorCode
from cardtable.core.registry import game_names, load_game
from cardtable.store.models import utcnow
from cardtable.store.studio_models import StudioCardSetRow

from ..auth import CurrentAccount
from ..errors import Refusal, responses
from ..services import Services, services_of
from ..studio import AGENTS, Studio, make_request, owner_key, random_setup, report_view, rule_flags_of
from ..studio_tune import MAX_NUMBERS, MAX_STEP_GAMES, MAX_STEPS, MAX_TRIALS, set_label
from ..throttle import address_of
from .deps import ServicesDep

router = APIRouter(tags=["studio"])

Lang = Annotated[str, Query(pattern="^(en|ja)$")]
JsonBody = Annotated[dict[str, Any], Body()]


def studio_of(services: Services) -> Studio:
    """The running studio (Refusal ``unavailable`` while the server starts or stops)."""
    services.parts()
    if services.studio is None:
        raise Refusal(ErrorCode.UNAVAILABLE, "the server is starting or stopping", status=503)
    return services.studio


def _owner(request: Request, account: Any) -> str:
    return owner_key(account.id if account is not None else None, address_of(request.client))


# -- card sets ---------------------------------------------------------------------------------
@router.get("/api/studio/games")
async def studio_games() -> dict[str, Any]:
    """Every game with a card set: its items and numbers (names, rules, ranges, rulebook values), the rule flags a
    study may set (types, defaults, ranges), the setup of random decks or loadouts if it has them, and the agents;
    whether the server can tune (the search needs optuna)."""
    return await asyncio.to_thread(_catalog)


@functools.cache
def _catalog() -> dict[str, Any]:
    out = []
    for game in game_names():
        try:
            spec = cardset.spec_of(game)
        except (LookupError, ValueError):
            continue
        loaded = load_game(game)
        out.append({"game": game,
                    "items": [{"id": i.id, "ja": i.ja, "en": i.en, "rule": i.rule, "kind": i.kind} for i in spec.items],
                    "numbers": [{"key": n.key, "item": n.item, "field": n.field, "default": n.default,
                                 "min": n.minimum, "max": n.maximum, "rule": n.rule, "fixed": n.fixed}
                                for n in spec.numbers],
                    "flags": rule_flags_of(game), "random_setup": random_setup(game),
                    "players": list(range(loaded.min_players, loaded.max_players + 1))})
    try:
        import optuna  # noqa: F401

        tune = True
    except ImportError:
        tune = False
    return {"games": out, "agents": list(AGENTS), "tune": tune,
            "tune_limits": {"trials": MAX_TRIALS, "numbers": MAX_NUMBERS, "step_games": MAX_STEP_GAMES,
                            "steps": MAX_STEPS}}


def _card_set(body: dict[str, Any]) -> tuple[cardset.CardSet | None, list[str]]:
    """The card set a body describes (``game``, ``name``, ``values`` changed by key, ``flags``) and its problems."""
    game = body.get("game")
    if not isinstance(game, str) or game not in game_names():
        raise Refusal(ErrorCode.UNKNOWN_GAME, f"unknown game {game!r}")
    values, flags = body.get("values") or {}, body.get("flags") or {}
    if not isinstance(values, dict) or not isinstance(flags, dict):
        raise Refusal(ErrorCode.BAD_RULES, "values and flags are objects")
    name = str(body.get("name") or "custom").strip()[:64] or "custom"
    base = cardset.default_set(game)
    problems: list[str] = []
    merged = dict(base.values)
    for key, value in values.items():
        problem = cardset.range_problem(cardset.spec_of(game), str(key), value) if key in merged else None
        if key not in merged:
            try:
                cardset.spec_of(game).number(str(key))
            except ValueError as exc:
                problems.append(str(exc).removeprefix("card set: "))
        elif problem:
            problems.append(problem)
        else:
            merged[str(key)] = value
    candidate = cardset.CardSet(game, name, merged, dict(flags))
    if not problems:
        problems = cardset.set_problems(candidate)
    return (None if problems else candidate), problems


@router.post("/api/studio/cardsets/check", responses=responses(400))
async def check_card_set(body: JsonBody) -> dict[str, Any]:
    """Check a card set with the command line's checks: every problem, what changed, its flags, hash and TOML."""
    cs, problems = await asyncio.to_thread(_card_set, body)
    if cs is None:
        return {"ok": False, "problems": problems}
    base = cardset.default_set(cs.game)
    return {"ok": True, "problems": [], "changed": [
        {"key": k, "default": old, "value": new} for k, (old, new) in cardset.diff(base, cs).items()],
        "rules": cs.rule_flags(), "hash": cs.hash, "name": cs.name, "label": set_label(cs)}


@router.post("/api/studio/cardsets", status_code=201, responses=responses(400))
async def save_card_set(body: JsonBody, request: Request, account: CurrentAccount,
                        services: ServicesDep) -> dict[str, Any]:
    """Save a card set under a name (refused with ``bad_rules`` and every problem if it does not check)."""
    store, _ = services.parts()
    cs, problems = await asyncio.to_thread(_card_set, body)
    if cs is None:
        raise Refusal(ErrorCode.BAD_RULES, "; ".join(problems))
    set_id = secrets.token_urlsafe(9)
    owner = _owner(request, account)

    def write() -> None:
        with store.transaction() as conn:
            conn.execute(insert(StudioCardSetRow).values(id=set_id, owner=owner, game=cs.game, name=cs.name,
                                                         values=cs.changed(), flags=dict(cs.flags),
                                                         created_at=utcnow()))

    await asyncio.to_thread(write)
    return _set_json(set_id, cs)


def _set_json(set_id: str, cs: cardset.CardSet) -> dict[str, Any]:
    return {"id": set_id, "game": cs.game, "name": cs.name, "label": set_label(cs), "values": cs.changed(),
            "flags": dict(cs.flags), "rules": cs.rule_flags(), "hash": cs.hash,
            "toml": f"/api/studio/cardsets/{set_id}/toml",
            "pdf": f"/api/studio/cardsets/{set_id}/pdf"}


def _load_set(services: Services, set_id: str) -> cardset.CardSet:
    store, _ = services.parts()
    with store.engine.connect() as conn:
        row = conn.execute(select(StudioCardSetRow).where(StudioCardSetRow.id == set_id)).first()
    if row is None:
        raise Refusal(ErrorCode.NOT_FOUND, "no such card set", status=404)
    base = cardset.default_set(row.game)
    return cardset.CardSet(row.game, row.name, {**base.values, **row.values}, dict(row.flags))


@router.get("/api/studio/cardsets")
async def my_card_sets(request: Request, account: CurrentAccount, services: ServicesDep) -> dict[str, Any]:
    """The card sets this person saved, newest first."""
    store, _ = services.parts()
    owner = _owner(request, account)

    def read() -> list[Any]:
        with store.engine.connect() as conn:
            return list(conn.execute(select(StudioCardSetRow).where(StudioCardSetRow.owner == owner)
                                     .order_by(StudioCardSetRow.created_at.desc()).limit(200)).all())

    rows = await asyncio.to_thread(read)
    out = []
    for row in rows:
        base = cardset.default_set(row.game)
        out.append(_set_json(row.id, cardset.CardSet(row.game, row.name, {**base.values, **row.values},
                                                     dict(row.flags))))
    return {"cardsets": out}


@router.get("/api/studio/cardsets/{set_id}", responses=responses(404))
async def card_set(set_id: str, services: ServicesDep) -> dict[str, Any]:
    """A saved card set (anyone with its id)."""
    cs = await asyncio.to_thread(_load_set, services, set_id)
    return _set_json(set_id, cs)


@router.get("/api/studio/cardsets/{set_id}/toml", responses=responses(404))
async def card_set_toml(set_id: str, services: ServicesDep, lang: Lang = "en") -> Response:
    """A saved card set as a card-set file (what ``cardtable cards check`` reads)."""
    cs = await asyncio.to_thread(_load_set, services, set_id)
    return Response(cs.to_toml(lang), media_type="application/toml",
                    headers={"Content-Disposition": f'attachment; filename="{_file_name(cs.name)}.toml"'})


@router.get("/api/studio/cardsets/{set_id}/pdf", responses=responses(404))
async def card_set_pdf(set_id: str, services: ServicesDep) -> Response:
    """A saved card set's print-and-play sheets (``cardtable print GAME --cards FILE``), its changed cards only."""
    cs = await asyncio.to_thread(_load_set, services, set_id)
    pdf = await asyncio.to_thread(_print, cs)
    return Response(pdf, media_type="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{_file_name(cs.name)}.pdf"'})


def _print(cs: cardset.CardSet) -> bytes:
    from cardtable.core import registry

    try:
        from cardtable.printing import PrintError, PrintOptions, SheetSpec, parse_card_size, parse_paper
    except ImportError:  # pragma: no cover - the print extra is missing
        raise Refusal(ErrorCode.PRINT_FAILED, "printing needs the print extra", status=422) from None
    printer = registry.part(cs.game, "printer", required=False)
    if printer is None:
        raise Refusal(ErrorCode.PRINT_FAILED, f"{cs.game} has no printable cards", status=422)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "set.toml"
        path.write_text(cs.to_toml(), encoding="utf-8")
        base = Path(tmp) / "rulebook.toml"
        base.write_text(cardset.default_set(cs.game).to_toml(), encoding="utf-8")
        changed = bool(cs.changed()) and "only_changed" in printer.takes
        options = PrintOptions(cards=path, only_changed=base if changed else None)
        try:
            result = printer.print_cards(SheetSpec(parse_paper("a4"), parse_card_size("63x88"), 2.0), options)
        except PrintError as exc:
            raise Refusal(ErrorCode.PRINT_FAILED, str(exc), status=422) from None
    pdf: bytes = result.pdf
    return pdf


def _file_name(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in name)[:48] or "cardset"


# -- studies -----------------------------------------------------------------------------------
@router.post("/api/studio/estimate", responses=responses(400))
async def estimate_study(body: JsonBody, services: ServicesDep) -> dict[str, Any]:
    """How long a study would take (a few of its games played and timed), before it is launched."""
    studio = studio_of(services)
    request = await asyncio.to_thread(make_request, body)
    return await studio.estimate(request)


@router.post("/api/studio/studies", status_code=201, responses=responses(400, 429))
async def launch(body: JsonBody, request: Request, account: CurrentAccount, services: ServicesDep) -> dict[str, Any]:
    """Launch a study (``bad_study``, 400, for bad input; ``too_many_studies``, 429, past the per-person limit)."""
    studio = studio_of(services)
    study = await asyncio.to_thread(make_request, body)
    return await studio.create(_owner(request, account), study)


@router.get("/api/studio/studies")
async def my_studies(request: Request, account: CurrentAccount, services: ServicesDep) -> dict[str, Any]:
    """This person's studies, newest first, each with its one-line answer once finished."""
    studio = studio_of(services)
    return {"studies": await asyncio.to_thread(studio.studies, _owner(request, account))}


def _mine(studio: Studio, study_id: str, owner: str) -> Any:
    row = studio.row(study_id)
    if row.owner != owner:
        raise Refusal(ErrorCode.NO_SUCH_STUDY, "no such study", status=404)
    return row


@router.get("/api/studio/studies/{study_id}", responses=responses(404))
async def study(study_id: str, request: Request, account: CurrentAccount, services: ServicesDep,
                lang: Lang = "en") -> dict[str, Any]:
    """One of this person's studies, with its progress and (once finished) its report in ``lang``."""
    studio = studio_of(services)
    row = await asyncio.to_thread(_mine, studio, study_id, _owner(request, account))
    return {"study": studio.summary(row), "progress": await asyncio.to_thread(studio.progress, study_id),
            "report": report_view(row, lang)}


@router.post("/api/studio/studies/{study_id}/cancel", responses=responses(404))
async def cancel(study_id: str, request: Request, account: CurrentAccount, services: ServicesDep) -> dict[str, Any]:
    """Cancel a running study (its games so far stay stored; a finished study is left as it is)."""
    studio = studio_of(services)
    await asyncio.to_thread(_mine, studio, study_id, _owner(request, account))
    return await studio.cancel(study_id)


@router.get("/api/studio/shared/{share_id}", responses=responses(404))
async def shared(share_id: str, services: ServicesDep, lang: Lang = "en") -> dict[str, Any]:
    """A shared study, read-only, for anyone who has its link (no account needed)."""
    studio = studio_of(services)
    row = await asyncio.to_thread(studio.by_share, share_id)
    progress = await asyncio.to_thread(studio.progress, row.id)
    progress.pop("study", None)
    return {"study": studio.summary(row, shared=True), "progress": progress, "report": report_view(row, lang)}


async def _download(studio: Studio, row: Any, what: str, lang: str) -> Response:
    if row.result is None:
        raise Refusal(ErrorCode.BAD_STUDY, "the study has no report yet: it is not finished", status=409)
    name = f"cardtable-study-{row.game}-{row.share_id[:8]}"
    if what == "html":
        page = await studio.html(row, lang)
        return HTMLResponse(page, headers={"Content-Disposition": f'attachment; filename="{name}-{lang}.html"'})
    text = await studio.csv(row)
    return Response(text, media_type="text/csv", headers={"Content-Disposition": f'attachment; filename="{name}.csv"'})


@router.get("/api/studio/shared/{share_id}/report.html", responses=responses(404, 409))
async def shared_html(share_id: str, services: ServicesDep, lang: Lang = "en") -> Response:
    """The study's self-contained HTML report (the lab's page)."""
    studio = studio_of(services)
    return await _download(studio, await asyncio.to_thread(studio.by_share, share_id), "html", lang)


@router.get("/api/studio/shared/{share_id}/report.csv", responses=responses(404, 409))
async def shared_csv(share_id: str, services: ServicesDep) -> Response:
    """Every game of the study as CSV, one row a game with its variant."""
    studio = studio_of(services)
    return await _download(studio, await asyncio.to_thread(studio.by_share, share_id), "csv", "en")


@router.websocket("/api/studio/studies/{study_id}/ws")
async def progress_socket(ws: WebSocket, study_id: str) -> None:
    """A study's progress as it plays (``progress`` messages, then ``end``); the id may be its share id."""
    await ws.accept()
    services = services_of(ws)
    studio = services.studio
    if studio is None:
        await ws.close(1013)
        return
    try:
        row = await asyncio.to_thread(studio.row, study_id)
    except Refusal:
        try:
            row = await asyncio.to_thread(studio.by_share, study_id)
        except Refusal:
            await ws.send_json({"type": "error", "error": {"code": ErrorCode.NO_SUCH_STUDY.value,
                                                           "message": "no such study", "rule": None}})
            await ws.close(4404)
            return
    queue = studio.watch(row.id)
    try:
        first = await asyncio.to_thread(studio.progress, row.id)
        first.pop("study", None)
        await ws.send_json(first)
        if queue is None:
            await ws.send_json({"type": "end"})
            await ws.close()
            return
        while True:
            message = await queue.get()
            message = {k: v for k, v in message.items() if k != "study"}
            await ws.send_json(message)
            if message["type"] == "end":
                await ws.close()
                return
    except WebSocketDisconnect:
        return
    finally:
        if queue is not None:
            studio.unwatch(row.id, queue)


__all__ = ["router", "studio_of"]
