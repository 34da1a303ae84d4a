"""A real server for the browser tests: uvicorn in a background thread, a temp SQLite file, the web routes."""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import fields
from pathlib import Path
from typing import Any

import uvicorn

from cardtable.server import ServerSettings
from cardtable.web import create_app

SETTINGS = {f.name for f in fields(ServerSettings)}
"""The server's settings (its bots' budget is iterations or seconds, whichever the server takes)."""


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """The web package's ``create_app`` served by uvicorn on 127.0.0.1:port until ``stop``."""

    def __init__(self, db: Path, port: int | None = None, bot_seconds: float = 0.3, bot_iterations: int = 300) -> None:
        self.db = db
        self.port = port or free_port()
        self.bot_seconds = bot_seconds
        self.bot_iterations = bot_iterations
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The server's base address."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        """Start serving and wait until the port answers."""
        budget: dict[str, Any] = ({"bot_iterations": self.bot_iterations} if "bot_iterations" in SETTINGS
                                  else {"bot_seconds": self.bot_seconds})
        app = create_app(ServerSettings(db=f"sqlite:///{self.db}", durable=False, bot_executor="thread",
                                        bot_workers=1, hello_timeout=5.0, **budget))
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", ws_max_size=65_536,
                                lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.server.started:
                return self
            time.sleep(0.05)
        raise RuntimeError("the test server did not start")

    def stop(self) -> None:
        """Stop serving (open sockets are closed)."""
        if self.server is not None:
            self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(timeout=15)
        self.server = None
        self.thread = None
