"""Tournaments (Swiss): the tournaments, their entrants (people or bots) and each round's boards.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("system", sa.String(16), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("clock", sa.Text),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("creator", sa.String(32), sa.ForeignKey("accounts.id", ondelete="SET NULL")),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False, server_default="0"),
        sa.Column("starts_at", sa.Float),
        sa.Column("paired_at", sa.Float),
        sa.Column("max_entries", sa.Integer, nullable=False),
        sa.Column("created", sa.String(32), nullable=False),
        sa.Column("started", sa.String(32)),
        sa.Column("ended", sa.String(32)),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_index("ix_tournaments_starts_at", "tournaments", ["starts_at"])
    op.create_table(
        "tournament_entries",
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("entry", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="SET NULL")),
        sa.Column("level", sa.String(32)),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float),
        sa.Column("joined", sa.Float, nullable=False),
        sa.UniqueConstraint("tournament_id", "account_id", name="uq_tournament_entries_account"),
    )
    op.create_index("ix_tournament_entries_account_id", "tournament_entries", ["account_id"])
    op.create_table(
        "tournament_pairings",
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("first", sa.Integer, nullable=False),
        sa.Column("second", sa.Integer),
        sa.Column("game_id", sa.String(32)),
        sa.Column("first_points", sa.Float),
        sa.Column("second_points", sa.Float),
    )
    op.create_index("ix_tournament_pairings_game_id", "tournament_pairings", ["game_id"])


def downgrade() -> None:
    op.drop_table("tournament_pairings")
    op.drop_table("tournament_entries")
    op.drop_table("tournaments")
