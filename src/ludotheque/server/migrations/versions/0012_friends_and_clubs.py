"""Friends (follows, blocks, presence, challenges) and clubs (members, chat).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def _person(name: str, *, primary_key: bool = False) -> sa.Column[str]:
    return sa.Column(name, sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
                     primary_key=primary_key)


def upgrade() -> None:
    op.create_table("follows", _person("follower_id", primary_key=True),
                    _person("followed_id", primary_key=True), sa.Column("created", sa.Float, nullable=False))
    op.create_index("ix_follows_followed_id", "follows", ["followed_id"])
    op.create_table("blocks", _person("blocker_id", primary_key=True),
                    _person("blocked_id", primary_key=True), sa.Column("created", sa.Float, nullable=False))
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table("presence", _person("account_id", primary_key=True),
                    sa.Column("seen", sa.Float, nullable=False))
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        _person("challenger_id"),
        _person("challenged_id"),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("clock", sa.Text),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("game_id", sa.String(32)),
    )
    op.create_index("ix_challenges_challenger_id", "challenges", ["challenger_id"])
    op.create_index("ix_challenges_challenged_id", "challenges", ["challenged_id"])
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("name_skeleton", sa.String(255), nullable=False),
        sa.Column("description", sa.String(500), nullable=False),
        sa.Column("open", sa.Boolean, nullable=False),
        sa.Column("invite_code", sa.String(32), nullable=False, unique=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("name_skeleton", name="uq_clubs_name_skeleton"),
    )
    op.create_table(
        "club_members",
        sa.Column("club_id", sa.String(16), sa.ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True),
        _person("account_id", primary_key=True),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
    )
    op.create_index("ix_club_members_account_id", "club_members", ["account_id"])
    op.create_table(
        "club_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("club_id", sa.String(16), sa.ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="SET NULL")),
        sa.Column("author", sa.String(40), nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_club_chat_club_id", "club_chat", ["club_id"])


def downgrade() -> None:
    for table in ("club_chat", "club_members", "clubs", "challenges", "presence", "blocks", "follows"):
        op.drop_table(table)
