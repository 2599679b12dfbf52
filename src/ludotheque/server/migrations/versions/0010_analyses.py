"""Analyses of finished games (one per game and view, shared) and hints (per game and seat).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("view", sa.String(16), primary_key=True),
        sa.Column("analysis", sa.Text, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "hints",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("used", sa.Integer, nullable=False),
        sa.Column("ply", sa.Integer),
        sa.Column("move", sa.String(1000)),
        sa.Column("updated", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("hints")
    op.drop_table("analyses")
