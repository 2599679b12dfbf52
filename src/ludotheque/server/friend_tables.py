"""The tables of friends (follows, blocks, presence, challenges); migration 0012.

SQLAlchemy Core, on ``tables.metadata``. Every row names accounts and goes with them (``CASCADE``).
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, ForeignKey, Integer, String, Table, Text

from .tables import metadata

__all__ = ["blocks", "challenges", "follows", "metadata", "presence"]


def _person(name: str, *, primary_key: bool = False, index: bool = False) -> Column[str]:
    return Column(name, String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
                  primary_key=primary_key, index=index)


# A follower follows a player: their online state and games in progress on /friends.
follows = Table(
    "follows",
    metadata,
    _person("follower_id", primary_key=True),
    _person("followed_id", primary_key=True, index=True),
    Column("created", Float, nullable=False),
)

# A blocker blocks someone: no follow, no challenge, no chat line of theirs, no online state shown.
blocks = Table(
    "blocks",
    metadata,
    _person("blocker_id", primary_key=True),
    _person("blocked_id", primary_key=True, index=True),
    Column("created", Float, nullable=False),
)

# When each person last had a page open (their friends socket beats every few seconds): online is
# a recent time, so it is true across workers (any of them may hold the socket).
presence = Table(
    "presence",
    metadata,
    _person("account_id", primary_key=True),
    Column("seen", Float, nullable=False),
)

# A direct challenge: pending until accepted (then game_id), declined, cancelled or expired.
challenges = Table(
    "challenges",
    metadata,
    Column("id", String(16), primary_key=True),
    _person("challenger_id", index=True),
    _person("challenged_id", index=True),
    Column("game", String(32), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("clock", Text),  # the clock's settings (JSON), null without a clock
    Column("rated", Boolean, nullable=False),
    Column("status", String(16), nullable=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Column("game_id", String(32)),
)
