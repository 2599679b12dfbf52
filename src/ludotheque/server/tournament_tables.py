"""The tournaments' tables (SQLAlchemy Core), on ``tables.metadata``; migration 0007 creates them.

>>> sorted(name for name in metadata.tables if name.startswith("tournament"))
['tournament_entries', 'tournament_pairings', 'tournaments']
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

from .tables import metadata

__all__ = ["entries", "metadata", "pairings", "tournaments"]

# A tournament: its game, rounds, clock and rated-ness; ``system`` is "swiss" or "arena" (migration
# 0013 adds the arena's duration and end, and the club).
tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("system", String(16), nullable=False),
    Column("game", String(32), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("clock", Text),  # the games' clock settings (JSON), null without a clock
    Column("rated", Boolean, nullable=False, default=False, server_default=false()),
    Column("creator", String(32), ForeignKey("accounts.id", ondelete="SET NULL")),
    # upcoming, running, finished or cancelled (nobody came).
    Column("status", String(16), nullable=False, index=True),
    # The round being played (0 before the start).
    Column("round", Integer, nullable=False, default=0, server_default="0"),
    # When the creator asked it to start by itself (epoch seconds), null: started by the creator.
    Column("starts_at", Float, index=True),
    # When the current round was paired (epoch seconds): games it lacks are made after a while.
    Column("paired_at", Float),
    Column("max_entries", Integer, nullable=False),
    Column("created", String(32), nullable=False),
    Column("started", String(32)),
    Column("ended", String(32)),
    # An arena's length in minutes (null for a Swiss) and its end (epoch seconds, set at the start).
    Column("duration", Integer),
    Column("ends_at", Float),
    # The club whose tournament this is (null: open to all); no foreign key, clubs come apart.
    Column("club_id", String(32), index=True),
)

# The entrants: a person (an account) or a bot (a level), numbered in the order they joined.
entries = Table(
    "tournament_entries",
    metadata,
    Column("tournament_id", String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("entry", Integer, primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="SET NULL"), index=True),
    Column("level", String(32)),
    Column("name", String(64), nullable=False),
    # The rating that orders the pairings, read at the start.
    Column("rating", Float),
    Column("joined", Float, nullable=False),
    # An arena's entrant free for a game since then (epoch seconds); null: playing, or paused.
    Column("waiting_since", Float),
    # An arena's entrant who left while it runs: not paired again until they come back.
    Column("paused", Boolean, nullable=False, default=False, server_default=false()),
    UniqueConstraint("tournament_id", "account_id", name="uq_tournament_entries_account"),
)

# Each round's boards: ``first`` takes the first seat (its team), ``second`` is null for a bye.
pairings = Table(
    "tournament_pairings",
    metadata,
    Column("tournament_id", String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("first", Integer, nullable=False),
    Column("second", Integer),
    Column("game_id", String(32), index=True),
    # 1, ½ or 0 for each side once the game is over (a bye: 1 for first, null for second).
    Column("first_points", Float),
    Column("second_points", Float),
    # An arena's board: when it was paired, and how long each side had waited for it (seconds).
    Column("paired_at", Float),
    Column("first_waited", Float),
    Column("second_waited", Float),
)
