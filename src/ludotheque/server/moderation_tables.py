"""The tables of moderation (reports, sanctions, hidden chat lines, the audit log); migration 0011.

SQLAlchemy Core, on ``tables.metadata``. A sanction is a warning, a mute (no chat until
``until``), a suspension (no sign-in, no play until ``until``) or a closure (for good); lifting one
sets ``lifted``. Every moderator's action is a row of ``moderation_log``, which nothing edits.
"""

from __future__ import annotations

from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, Text

from .tables import metadata

__all__ = ["hidden_chat", "metadata", "moderation_log", "reports", "sanctions"]

# A person's report of a player (or of one of their chat lines): a moderator handles it.
reports = Table(
    "reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # Who reported (null once their account is gone: the report stays).
    Column("reporter_id", String(32), ForeignKey("accounts.id", ondelete="SET NULL")),
    Column("reporter_name", String(40), nullable=False),
    Column("player_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("player_name", String(40), nullable=False),
    Column("reason", String(500), nullable=False),
    Column("game_id", String(32)),
    Column("chat_line", Integer),
    # The chat line's text as it was when reported (a hidden or deleted line is still judged).
    Column("chat_text", String(500)),
    Column("status", String(16), nullable=False, index=True),  # open, handled
    Column("created", Float, nullable=False),
    Column("handled_by", String(40)),
    Column("handled", Float),
)

# Warnings, mutes, suspensions and closures of an account.
sanctions = Table(
    "sanctions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("kind", String(16), nullable=False),  # warn, mute, suspend, close
    Column("reason", String(500), nullable=False),
    Column("moderator", String(40), nullable=False),
    Column("created", Float, nullable=False),
    # The end of a mute or suspension (epoch seconds); null for warnings and closures.
    Column("until", Float),
    Column("lifted", Float),
    # When the player saw a warning (their page loaded, or their socket told them).
    Column("seen", Float),
)

# Chat lines a moderator hid: nobody reads them again (they read "hidden by a moderator").
hidden_chat = Table(
    "hidden_chat",
    metadata,
    Column("chat_id", Integer, ForeignKey("chat.id", ondelete="CASCADE"), primary_key=True),
    Column("moderator", String(40), nullable=False),
    Column("at", Float, nullable=False),
)

# The audit log: who did what to whom, when and why. Names are copied: the log outlives accounts.
moderation_log = Table(
    "moderation_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False, index=True),
    Column("moderator_id", String(32)),
    Column("moderator", String(40), nullable=False),
    Column("action", String(24), nullable=False),
    Column("target_id", String(32)),
    Column("target", String(40), nullable=False),
    Column("reason", String(500), nullable=False),
    # What else the action says (JSON): a duration, a chat line's id and text, a report's id.
    Column("detail", Text, nullable=False),
)
