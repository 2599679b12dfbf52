"""Look-alike names: each account's name skeleton (what it looks like: the Unicode TR39 confusables
skeleton of its NFKC, case-folded form), unique, so that no new name passes for another one.

Existing accounts keep their names. Their skeletons are filled in here, oldest account first;
an account whose name looks like an older one's (both stored before this revision) keeps it, with
its skeleton made unique by its id (nobody may take a third such name). Names are compared in
their NFKC form from now on: an account's name key is refolded unless an older account has it.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as accounts:
        accounts.add_column(sa.Column("name_skeleton", sa.String(255)))
    _fill_skeletons()
    with op.batch_alter_table("accounts") as accounts:
        accounts.alter_column("name_skeleton", existing_type=sa.String(255), nullable=False)
        accounts.create_unique_constraint("uq_accounts_name_skeleton", ["name_skeleton"])


def _fill_skeletons() -> None:
    # The server's own folding, so that what is stored is what the server compares.
    from ludotheque.server.accounts import name_key, name_skeleton

    bind = op.get_bind()
    rows = bind.execute(sa.text("SELECT id, name, name_key FROM accounts ORDER BY created, id")).all()
    keys = {row.name_key for row in rows}
    skeletons: set[str] = set()
    for row in rows:
        skeleton = name_skeleton(row.name)
        if skeleton in skeletons or not skeleton:
            skeleton = f"{skeleton}#{row.id}"
        skeletons.add(skeleton)
        key = name_key(row.name)
        if key != row.name_key and key in keys:
            key = row.name_key  # an older account has that key already
        keys.add(key)
        bind.execute(sa.text("UPDATE accounts SET name_skeleton = :skeleton, name_key = :key WHERE id = :id"),
                     {"skeleton": skeleton, "key": key, "id": row.id})


def downgrade() -> None:
    with op.batch_alter_table("accounts") as accounts:
        accounts.drop_constraint("uq_accounts_name_skeleton", type_="unique")
        accounts.drop_column("name_skeleton")
