"""The analyses being made, shared by every worker (one row per game and view while it runs).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analysis_jobs",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("view", sa.String(16), primary_key=True),
        sa.Column("person", sa.String(80), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("error", sa.Text),
        sa.Column("holder", sa.String(32), nullable=False),
        sa.Column("lease", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analysis_jobs")
