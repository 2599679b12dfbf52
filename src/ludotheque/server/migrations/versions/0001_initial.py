"""Games, seats and moves.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("rules_version", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.Text),
        sa.Column("clock", sa.Text),
        sa.Column("clock_running", sa.Integer),
        sa.Column("clock_started", sa.Float),
        sa.Column("draw_offer", sa.Text, nullable=False),
        sa.Column("rematch", sa.String(32)),
        sa.Column("rematch_of", sa.String(32)),
        sa.Column("created", sa.String(32), nullable=False),
        sa.Column("started", sa.String(32)),
        sa.Column("ended", sa.String(32)),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index("ix_games_updated", "games", ["updated"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("level", sa.String(32)),
        sa.Column("token_hash", sa.String(64)),
        sa.Column("bot_seed", sa.BigInteger),
        sa.Column("remaining_ms", sa.BigInteger),
    )
    op.create_index("ix_seats_token_hash", "seats", ["token_hash"])
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("text", sa.String(1000), nullable=False),
        sa.Column("played", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_table("seats")
    op.drop_index("ix_games_updated", "games")
    op.drop_index("ix_games_status", "games")
    op.drop_table("games")
