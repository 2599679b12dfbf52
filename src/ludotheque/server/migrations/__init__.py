"""Alembic migrations of the server's database, configured in code (see ``migrate.py``)."""
