"""Alembic environment: run the migrations on the connection the server hands over (no alembic.ini)."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the server always passes its connection
    raise RuntimeError("warroom migrations run from warroom.web.storage.upgrade(), which passes a connection")

context.configure(connection=connection, target_metadata=None, render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
