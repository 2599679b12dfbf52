"""Moderation: the moderator role, reports, sanctions, hidden chat lines and the audit log.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def _account(name: str, *, ondelete: str, nullable: bool) -> sa.Column[str]:
    return sa.Column(name, sa.String(32), sa.ForeignKey("accounts.id", ondelete=ondelete), nullable=nullable)


def upgrade() -> None:
    with op.batch_alter_table("accounts") as accounts:
        accounts.add_column(sa.Column("moderator", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _account("reporter_id", ondelete="SET NULL", nullable=True),
        sa.Column("reporter_name", sa.String(40), nullable=False),
        _account("player_id", ondelete="CASCADE", nullable=False),
        sa.Column("player_name", sa.String(40), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("game_id", sa.String(32)),
        sa.Column("chat_line", sa.Integer),
        sa.Column("chat_text", sa.String(500)),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("handled_by", sa.String(40)),
        sa.Column("handled", sa.Float),
    )
    op.create_index("ix_reports_player_id", "reports", ["player_id"])
    op.create_index("ix_reports_status", "reports", ["status"])
    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _account("account_id", ondelete="CASCADE", nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("moderator", sa.String(40), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("until", sa.Float),
        sa.Column("lifted", sa.Float),
        sa.Column("seen", sa.Float),
    )
    op.create_index("ix_sanctions_account_id", "sanctions", ["account_id"])
    op.create_table(
        "hidden_chat",
        sa.Column("chat_id", sa.Integer, sa.ForeignKey("chat.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("moderator", sa.String(40), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("moderator_id", sa.String(32)),
        sa.Column("moderator", sa.String(40), nullable=False),
        sa.Column("action", sa.String(24), nullable=False),
        sa.Column("target_id", sa.String(32)),
        sa.Column("target", sa.String(40), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
    )
    op.create_index("ix_moderation_log_at", "moderation_log", ["at"])


def downgrade() -> None:
    op.drop_table("moderation_log")
    op.drop_table("hidden_chat")
    op.drop_table("sanctions")
    op.drop_table("reports")
    with op.batch_alter_table("accounts") as accounts:
        accounts.drop_column("moderator")
