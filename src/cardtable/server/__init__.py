"""The online rooms server: FastAPI over the table and the store (docs/server.md).

It knows nothing of pages: :mod:`cardtable.web` builds the browser client on :func:`create_app`.
"""

from .app import create_app
from .services import ServerSettings

__all__ = ["ServerSettings", "create_app"]
