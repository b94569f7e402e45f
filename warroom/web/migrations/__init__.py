"""Alembic migrations for the web server's database (run by warroom.web.storage.upgrade)."""
