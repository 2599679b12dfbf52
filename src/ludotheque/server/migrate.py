"""Apply the Alembic migrations at start, configured in code so that it works installed.

>>> from sqlalchemy import create_engine, inspect
>>> engine = create_engine("sqlite://")
>>> upgrade(engine)
>>> sorted(inspect(engine).get_table_names())  # doctest: +NORMALIZE_WHITESPACE
['accounts', 'alembic_version', 'analyses', 'analysis_jobs', 'api_tokens', 'blocks', 'challenges', 'chat',
 'chat_mutes', 'club_chat', 'club_members', 'clubs', 'follows', 'games', 'hidden_chat', 'hints',
 'lesson_progress', 'login_sessions', 'moderation_log', 'moves', 'presence', 'puzzle_attempts',
 'puzzle_ratings', 'puzzle_scores', 'rating_history', 'ratings', 'reports', 'sanctions', 'seats', 'seeks',
 'tournament_entries', 'tournament_pairings', 'tournaments']
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, text

MIGRATIONS = Path(__file__).parent / "migrations"
# Several workers start at once on one PostgreSQL database: one migrates, the others wait for it
# (a transaction-level advisory lock, released at commit) and then find nothing left to do.
MIGRATION_LOCK = 0x4C75646F  # "Ludo"


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database of ``engine`` to ``revision`` (idempotent)."""
    config = alembic_config()
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
