"""phases.missed_before: each player's missed-turn record just before the phase was
adjudicated, so that a rollback (000 VIII(1)) puts it back and the re-adjudication counts the
turn again from the orders then on file (000 VII(6)). NULL for phases adjudicated before this
revision (a rollback of one of them leaves the counts as they are).

Revision ID: 0023
Revises: 0022
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("phases") as batch:
        batch.add_column(sa.Column("missed_before", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("phases") as batch:
        batch.drop_column("missed_before")
