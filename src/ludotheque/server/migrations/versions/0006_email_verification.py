"""E-mail addresses are verified: an address is mailed (game notifications) only once its owner
opened the link with a single-use token that the server sent to it.

Addresses stored before this revision are unverified; saving one again on the player's page sends
its link (once).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as accounts:
        accounts.add_column(sa.Column("email_verified", sa.Boolean, nullable=False,
                                      server_default=sa.false()))
        accounts.add_column(sa.Column("email_token_hash", sa.String(64)))
        accounts.add_column(sa.Column("email_token_expires", sa.Float))
        accounts.create_unique_constraint("uq_accounts_email_token_hash", ["email_token_hash"])


def downgrade() -> None:
    with op.batch_alter_table("accounts") as accounts:
        accounts.drop_constraint("uq_accounts_email_token_hash", type_="unique")
        accounts.drop_column("email_token_expires")
        accounts.drop_column("email_token_hash")
        accounts.drop_column("email_verified")
