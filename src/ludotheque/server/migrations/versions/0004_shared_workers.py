"""Several server workers on one database: each game's version (bumped by every stored change, so
that a worker sees that its copy is stale), the time its running clock's flag falls (any worker
may end it on time) and the lease of the worker thinking its bot's move.

Existing games start at version 0; their flag time is filled in on their next change (a game
resumed after the upgrade is flagged by the worker that loads it, as before).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("version", sa.Integer, nullable=False, server_default="0"))
        games.add_column(sa.Column("deadline", sa.Float))
        games.add_column(sa.Column("bot_lease", sa.Float))
        games.create_index("ix_games_deadline", ["deadline"])


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_index("ix_games_deadline")
        games.drop_column("bot_lease")
        games.drop_column("deadline")
        games.drop_column("version")
