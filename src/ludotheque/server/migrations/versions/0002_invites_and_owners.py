"""Invite seats (the hash of their code) and each game's owner (for the bots' fair queue).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("invite_hash", sa.String(64)))
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("owner", sa.String(32)))


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_column("owner")
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("invite_hash")
