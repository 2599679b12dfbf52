"""Arena tournaments and club tournaments: an arena's duration and end, its entrants' waiting and
pausing, its boards' pairing time and waits; a tournament's club.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as tournaments:
        tournaments.add_column(sa.Column("duration", sa.Integer))
        tournaments.add_column(sa.Column("ends_at", sa.Float))
        tournaments.add_column(sa.Column("club_id", sa.String(32)))
        tournaments.create_index("ix_tournaments_club_id", ["club_id"])
    with op.batch_alter_table("tournament_entries") as entries:
        entries.add_column(sa.Column("waiting_since", sa.Float))
        entries.add_column(sa.Column("paused", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("tournament_pairings") as pairings:
        pairings.add_column(sa.Column("paired_at", sa.Float))
        pairings.add_column(sa.Column("first_waited", sa.Float))
        pairings.add_column(sa.Column("second_waited", sa.Float))


def downgrade() -> None:
    with op.batch_alter_table("tournament_pairings") as pairings:
        pairings.drop_column("second_waited")
        pairings.drop_column("first_waited")
        pairings.drop_column("paired_at")
    with op.batch_alter_table("tournament_entries") as entries:
        entries.drop_column("paused")
        entries.drop_column("waiting_since")
    with op.batch_alter_table("tournaments") as tournaments:
        tournaments.drop_index("ix_tournaments_club_id")
        tournaments.drop_column("club_id")
        tournaments.drop_column("ends_at")
        tournaments.drop_column("duration")
