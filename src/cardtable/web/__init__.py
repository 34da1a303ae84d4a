"""The browser client: its pages, its files (``client/``), its message catalogs (``locale/``) and the routes
its pages need beyond the server's API, built on the rooms server's app (docs/web.md).

``create_app(ServerSettings(...))`` is the server's app with all of it mounted; ``cardtable serve``
runs it. Every name and string from the server is put on a page as text, never as HTML.
"""

from .app import app_from_env, create_app, mount

__all__ = ["app_from_env", "create_app", "mount"]
