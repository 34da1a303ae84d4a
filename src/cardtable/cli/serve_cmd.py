"""``cardtable serve``: the online rooms server (and ``run_bench_server`` for ``cardtable bench server``)."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from cardtable.store import DEFAULT_URL

WS_MAX_BYTES = 65_536
"""The largest websocket frame uvicorn accepts (the server refuses messages over 16 KiB itself)."""


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every interface).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str, typer.Option(help="SQLAlchemy database URL (default: the file cardtable.db here; "
                                         "postgresql+psycopg://user:pw@host/db for several processes).")] = DEFAULT_URL,
    bot_seconds: Annotated[float, typer.Option(help="The most seconds a bot may think per move.")] = 2.0,
    bot_workers: Annotated[int, typer.Option(help="Processes computing bot moves.")] = 2,
    workers: Annotated[int, typer.Option(help="Server processes (PostgreSQL only for more than 1).")] = 1,
    log_level: Annotated[str, typer.Option(help="uvicorn's log level.")] = "info",
) -> None:
    """Serve online rooms: the lobby page at /, the API at /api, and /docs."""
    import uvicorn

    from cardtable.server import ServerSettings
    from cardtable.web import create_app

    if bot_seconds <= 0 or bot_workers < 1 or workers < 1:
        raise typer.BadParameter("--bot-seconds must be positive; --bot-workers and --workers at least 1")
    if workers > 1:
        if db.startswith("sqlite"):
            raise typer.BadParameter("several --workers need PostgreSQL (--db postgresql+psycopg://...)")
        os.environ.update(CARDTABLE_DB=db, CARDTABLE_BOT_SECONDS=str(bot_seconds), CARDTABLE_BOT_WORKERS=str(bot_workers))
        uvicorn.run("cardtable.web.app:app_from_env", factory=True, host=host, port=port, workers=workers,
                    ws_max_size=WS_MAX_BYTES, log_level=log_level)
        return
    app = create_app(ServerSettings(db=db, bot_seconds=bot_seconds, bot_workers=bot_workers))
    uvicorn.run(app, host=host, port=port, ws_max_size=WS_MAX_BYTES, log_level=log_level)


def run_bench_server(rooms: int = 20, seconds: float = 10.0, db: str | None = None) -> None:
    """``cardtable bench server``: action latency over loopback, printed as a table."""
    from rich.console import Console

    from cardtable.server.bench import bench_server, format_result

    result = bench_server(rooms=rooms, seconds=seconds, db=db)
    Console().print(format_result(result))


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the ``cardtable`` command."""
    app.command("serve")(serve)


def _main() -> None:  # pragma: no cover - ``python -m cardtable.cli.serve_cmd serve`` before the CLI wires it
    cli = typer.Typer(add_completion=False, no_args_is_help=True)
    register(cli)

    @cli.command("bench-server")
    def _bench(rooms: int = 20, seconds: float = 10.0, db: str | None = None) -> None:
        """Action latency over loopback."""
        run_bench_server(rooms, seconds, db)

    cli()


if __name__ == "__main__":  # pragma: no cover
    _main()
