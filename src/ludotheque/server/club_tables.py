"""The tables of clubs (clubs, members, club chat); migration 0012.

SQLAlchemy Core, on ``tables.metadata``. A club's name is unique by the look-alike rules of
players' names (``name_skeleton``); its members and chat lines go with it (``CASCADE``).
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, ForeignKey, Integer, String, Table, UniqueConstraint

from .tables import metadata

__all__ = ["club_chat", "club_members", "clubs", "metadata"]

clubs = Table(
    "clubs",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(40), nullable=False),
    Column("name_key", String(40), nullable=False, unique=True),
    Column("name_skeleton", String(255), nullable=False),
    Column("description", String(500), nullable=False, default=""),
    # Open: listed on /clubs and joined by anyone; otherwise joined only through the invite link.
    Column("open", Boolean, nullable=False),
    # The invite link's code (admins see it and renew it; renewing ends the old link).
    Column("invite_code", String(32), nullable=False, unique=True),
    Column("created", Float, nullable=False),
    UniqueConstraint("name_skeleton", name="uq_clubs_name_skeleton"),
)

club_members = Table(
    "club_members",
    metadata,
    Column("club_id", String(16), ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True,
           index=True),
    Column("role", String(8), nullable=False),  # "admin" or "member"
    Column("joined", Float, nullable=False),
)

# The club's own chat: members only read and write it.
club_chat = Table(
    "club_chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("club_id", String(16), ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="SET NULL")),
    Column("author", String(40), nullable=False),
    Column("text", String(500), nullable=False),
    Column("at", Float, nullable=False),
)
