"""The online rooms server: FastAPI over the table and the store (``cardtable serve``; docs/server.md)."""

from .app import ServerSettings, app_from_env, create_app

__all__ = ["ServerSettings", "app_from_env", "create_app"]
