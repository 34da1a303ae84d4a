"""``cardtable serve``: the online rooms server (and ``run_bench_server`` for ``cardtable bench server``)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer


def _card_sets(paths: list[Path]) -> dict[str, dict[str, Any]]:
    """Per game, the rule flags of the card set files given to ``serve --cards`` (one per game; checked here)."""
    from cardtable.cli.options import err_console, fail
    from cardtable.core import cardset

    out: dict[str, dict[str, Any]] = {}
    for path in paths:
        try:
            cs = cardset.load(path)
            cs.check(str(path))
        except cardset.CardSetError as exc:
            fail(str(exc))
        if cs.game in out:
            fail(f"--cards: two card sets for {cs.game} ({path} is the second); give one per game")
        out[cs.game] = cs.rule_flags()
        err_console().print(f"{cs.game} rooms play the card set {cs.stamp}", markup=False, highlight=False)
    return out


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every interface).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(
        help="SQLAlchemy database URL (default: $CARDTABLE_DB_URL, else the file named by $CARDTABLE_DB_URL_FILE, "
             "else the file cardtable.db here). A URL with a password belongs in the variable or --db-file, "
             "never on a command line, where ps shows it.")] = None,
    db_file: Annotated[Path | None, typer.Option(help="A file holding the database URL (its first line).")] = None,
    bot_iterations: Annotated[int, typer.Option(
        help="The most search iterations a bot may spend on a move (its budget; never wall-clock time).")] = 5000,
    bot_workers: Annotated[int, typer.Option(help="Processes computing bot moves (or CPUs of a local Ray).")] = 2,
    bot_executor: Annotated[str, typer.Option(
        help="Where bots think: process (local workers) or ray (a Ray cluster: each node adds capacity).")] = "process",
    ray_address: Annotated[str | None, typer.Option(
        help="With --bot-executor ray: the cluster to join (auto, ray://host:10001); none starts one here.")] = None,
    workers: Annotated[int, typer.Option(help="Server processes (PostgreSQL only for more than 1).")] = 1,
    join_limit: Annotated[str, typer.Option(help="Joins one address may attempt (a rate: 60/minute).")] = "60/minute",
    invite_limit: Annotated[str, typer.Option(help="Wrong invite codes one address may send.")] = "10/minute",
    group_commits: Annotated[bool, typer.Option(
        help="Store the actions of all rooms arriving during a commit together in the next one.")] = True,
    ws_compression: Annotated[bool, typer.Option(
        help="Compress websocket messages (permessage-deflate): less traffic, more CPU per message.")] = False,
    log_level: Annotated[str, typer.Option(help="uvicorn's log level.")] = "info",
    secure_cookies: Annotated[bool, typer.Option(
        help="Mark the session cookie Secure on every answer (it is on https requests anyway).")] = False,
    rp_id: Annotated[str | None, typer.Option(
        help="The passkeys' relying party id (default: each request's host name).")] = None,
    trusted_origin: Annotated[list[str] | None, typer.Option(
        help="Another origin that may send signed-in requests (a proxy's public https://host; repeatable).")] = None,
    lab_ray: Annotated[str | None, typer.Option(
        help="Run the studio's studies on this Ray cluster (auto, ray://host:10001); default: local processes.")] = None,
    studio_workers: Annotated[int, typer.Option(help="Low-priority processes playing the studio's studies.")] = 1,
    studio_limit: Annotated[int, typer.Option(help="Studies one person may have running at once.")] = 2,
    cards: Annotated[list[Path] | None, typer.Option(
        "--cards", help="A card set (cardtable cards export GAME) that new rooms of its game play; one per game, "
                        "repeatable. A room's own rule flags still win.")] = None,
    bot_pace: Annotated[float, typer.Option(
        help="Seconds at least between two moves of a room of bots only, so spectators can follow (0: no wait).")] = 1.0,
) -> None:
    """Serve online rooms: the lobby page at /, the API at /api, and /docs."""
    import uvicorn
    from limits import parse

    from cardtable.server import ServerSettings
    from cardtable.server.bench import WS_MAX_BYTES
    from cardtable.server.bots import ExecutorKind
    from cardtable.server.services import DB_URL_ENV, SettingsError, database_url
    from cardtable.web import create_app

    card_sets = _card_sets(cards or [])
    if bot_iterations < 1 or bot_workers < 1 or workers < 1:
        raise typer.BadParameter("--bot-iterations, --bot-workers and --workers must be at least 1")
    if not 0 <= bot_pace <= 60:
        raise typer.BadParameter("--bot-pace is 0 to 60 seconds")
    if bot_executor not in ("process", "ray"):
        raise typer.BadParameter(f"--bot-executor is process or ray, not {bot_executor!r}")
    try:
        url = database_url(db, db_file)
    except SettingsError as exc:
        raise typer.BadParameter(str(exc)) from None
    for option, rate in (("--join-limit", join_limit), ("--invite-limit", invite_limit)):
        try:
            parse(rate)
        except ValueError:
            raise typer.BadParameter(f"{option} is a rate such as 60/minute, not {rate!r}") from None
    if workers > 1:
        if url.startswith("sqlite"):
            raise typer.BadParameter("several --workers need PostgreSQL (--db postgresql+psycopg://...)")
        os.environ.pop("CARDTABLE_DB_URL_FILE", None)
        os.environ.update({DB_URL_ENV: url, "CARDTABLE_BOT_ITERATIONS": str(bot_iterations),
                           "CARDTABLE_BOT_WORKERS": str(bot_workers), "CARDTABLE_BOT_EXECUTOR": bot_executor,
                           "CARDTABLE_RAY_ADDRESS": ray_address or "", "CARDTABLE_JOIN_LIMIT": join_limit,
                           "CARDTABLE_INVITE_LIMIT": invite_limit,
                           "CARDTABLE_GROUP_COMMITS": "1" if group_commits else "0",
                           "CARDTABLE_SECURE_COOKIES": "1" if secure_cookies else "0", "CARDTABLE_RP_ID": rp_id or "",
                           "CARDTABLE_TRUSTED_ORIGINS": ",".join(trusted_origin or []),
                           "CARDTABLE_CARD_SETS": json.dumps(card_sets), "CARDTABLE_BOT_PACE": str(bot_pace)})
        uvicorn.run("cardtable.web.app:app_from_env", factory=True, host=host, port=port, workers=workers,
                    ws_max_size=WS_MAX_BYTES, ws_per_message_deflate=ws_compression, log_level=log_level)
        return
    app = create_app(ServerSettings(db=url, bot_iterations=bot_iterations, bot_workers=bot_workers,
                                    bot_executor=ExecutorKind(bot_executor), ray_address=ray_address,
                                    join_rate=join_limit, invite_rate=invite_limit, group_commits=group_commits,
                                    secure_cookies=secure_cookies, rp_id=rp_id,
                                    trusted_origins=tuple(trusted_origin or ()), lab_ray=lab_ray,
                                    studio_workers=max(1, studio_workers), studio_max_running=max(1, studio_limit),
                                    card_sets=card_sets, bot_pace=bot_pace))
    uvicorn.run(app, host=host, port=port, ws_max_size=WS_MAX_BYTES, ws_per_message_deflate=ws_compression,
                log_level=log_level)


def run_bench_server(rooms: int = 20, seconds: float = 10.0, db: str | None = None, **options: Any) -> None:
    """``cardtable bench server``: action latency over loopback, printed as a table (``options``: those of
    :func:`cardtable.server.bench.bench_server`)."""
    from rich.console import Console

    from cardtable.server.bench import bench_server, format_result

    result = bench_server(rooms=rooms, seconds=seconds, db=db, **options)
    Console().print(format_result(result))


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the ``cardtable`` command."""
    app.command("serve")(serve)


def _main() -> None:  # pragma: no cover - ``python -m cardtable.cli.serve_cmd serve`` before the CLI wires it
    cli = typer.Typer(add_completion=False, no_args_is_help=True)
    register(cli)

    @cli.command("bench-server")
    def _bench(rooms: int = 20, seconds: float = 10.0, bot: str = "random", bot_rooms: str = "half",
               processes: int = 1, game: str | None = None, group_commits: bool = True,
               compression: bool = False, study_games: int = 0) -> None:
        """Action latency over loopback (the database: $CARDTABLE_DB_URL, else a temporary SQLite file)."""
        run_bench_server(rooms, seconds, os.environ.get("CARDTABLE_DB_URL") or None, bot=bot, bot_rooms=bot_rooms,
                         processes=processes, game=game, group_commits=group_commits, compression=compression,
                         study_games=study_games)

    cli()


if __name__ == "__main__":  # pragma: no cover
    _main()
