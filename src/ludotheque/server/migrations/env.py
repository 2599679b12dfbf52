"""Alembic environment: runs on the connection that ``migrate.upgrade`` hands over."""

from __future__ import annotations

from alembic import context

from ludotheque.server import (  # noqa: F401  (their tables on metadata)
    analysis_tables,
    club_tables,
    friend_tables,
    lesson_tables,
    moderation_tables,
    puzzle_tables,
    tournament_tables,
)
from ludotheque.server.tables import metadata


def run_migrations() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


# Alembic executes this file with its context set up; any other import (such as pytest's
# doctest collection) finds no context and does nothing.
if hasattr(context, "config"):
    run_migrations()
