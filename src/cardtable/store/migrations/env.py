"""Alembic's environment: migrations run on the connection that ``cardtable.store`` hands over.

Importing this module outside a migration (a doctest collector, say) does nothing.
"""

from __future__ import annotations

from alembic import context

from cardtable.store.models import Base

target_metadata = Base.metadata


def run_migrations() -> None:
    """Run the migrations on ``config.attributes["connection"]`` (``Store.migrate`` opens it)."""
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("cardtable migrations run through cardtable.store.Store.migrate (no connection given)")
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite", compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # inside an Alembic command
    run_migrations()
