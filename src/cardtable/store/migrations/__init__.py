"""The Alembic environment and migration scripts of the server's database (applied by ``Store.open``)."""
