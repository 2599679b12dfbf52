"""The database schema (SQLAlchemy Core); Alembic migrations in ``migrations/`` create it.

>>> sorted(metadata.tables)
['games', 'moves', 'seats']
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    # The seed of new_state: with the moves it replays the game exactly.
    Column("seed", BigInteger, nullable=False),
    Column("rules_version", Integer, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("result", Text),
    Column("clock", Text),  # the clock's settings (JSON), null without a clock
    Column("clock_running", Integer),
    Column("clock_started", Float),  # wall-clock start of the running turn (epoch seconds)
    Column("draw_offer", Text, nullable=False, default="[]"),
    Column("rematch", String(32)),
    Column("rematch_of", String(32)),
    # A digest of the creator's address: the bots' queue is fair between owners.
    Column("owner", String(32)),
    Column("created", String(32), nullable=False),
    Column("started", String(32)),
    Column("ended", String(32)),
    Column("updated", Float, nullable=False, index=True),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("name", String(64), nullable=False),
    Column("level", String(32)),
    Column("token_hash", String(64), index=True),
    Column("bot_seed", BigInteger),
    Column("remaining_ms", BigInteger),
    # The hash of an invite seat's code, kept once claimed (a second claim is told so).
    Column("invite_hash", String(64)),
)

moves = Table(
    "moves",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("text", String(1000), nullable=False),
    Column("played", Float, nullable=False),
)
